//! The whole database schema: apalis' job tables (schema `apalis`) followed by our migrations
//! (the `migrations/` folder at the repository root).
//!
//! A crate of its own so that `domain` knows nothing of apalis while the binaries, the
//! `jobs` crate and every crate's database tests still migrate through one definition.

use std::sync::LazyLock;

use sqlx::PgPool;
use sqlx::migrate::Migrator;

/// One migrator for the whole schema, so production and every test database (cloned by
/// `#[testkit::db_test]` from a template this migrator built) get the same tables. apalis' migrations come first
/// (their versions are older) because ours add triggers and checks to `apalis.jobs`; they
/// are recorded in our `_sqlx_migrations`, not apalis' own table, so never call
/// `PostgresStorage::setup` as well.
pub static MIGRATOR: LazyLock<Migrator> = LazyLock::new(|| {
    let apalis = apalis_postgres::PostgresStorage::<()>::migrations();
    let ours = sqlx::migrate!("../migrations");
    Migrator::with_migrations(apalis.iter().chain(ours.iter()).cloned().collect())
});

pub async fn migrate(pool: &PgPool) -> anyhow::Result<()> {
    MIGRATOR.run(pool).await?;
    Ok(())
}
