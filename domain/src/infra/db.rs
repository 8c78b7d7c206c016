//! The PostgreSQL pool and the schema: apalis' job tables (schema `apalis`) followed by our
//! migrations (the `migrations/` folder at the repository root).

use std::sync::LazyLock;
use std::time::Duration;

use sqlx::migrate::{MigrateDatabase, Migrator};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, PgPool, Postgres};

use crate::Config;

/// One migrator for the whole schema, so production and every `#[sqlx::test(migrator =
/// "domain::infra::db::MIGRATOR")]` database get the same tables. apalis' migrations come first
/// (their versions are older) because ours add triggers and checks to `apalis.jobs`; they
/// are recorded in our `_sqlx_migrations`, not apalis' own table, so never call
/// `PostgresStorage::setup` as well.
pub static MIGRATOR: LazyLock<Migrator> = LazyLock::new(|| {
    let apalis = apalis_postgres::PostgresStorage::<()>::migrations();
    let ours = sqlx::migrate!("../migrations");
    Migrator::with_migrations(apalis.iter().chain(ours.iter()).cloned().collect())
});

pub async fn connect(config: &Config) -> anyhow::Result<PgPool> {
    let options: PgConnectOptions = config.database_url.expose().parse()?;
    // Statement logging at INFO would drown request logs; slow ones still surface.
    let options = options
        .log_statements(tracing::log::LevelFilter::Debug)
        .log_slow_statements(tracing::log::LevelFilter::Warn, Duration::from_millis(500));
    let pool = PgPoolOptions::new()
        .max_connections(config.database_max_connections)
        .acquire_timeout(Duration::from_secs(5))
        .connect_with(options)
        .await?;
    Ok(pool)
}

/// Creates the configured database when it does not exist yet (first run on a machine).
pub async fn create_if_missing(config: &Config) -> anyhow::Result<()> {
    let url = config.database_url.expose();
    if !Postgres::database_exists(url).await? {
        Postgres::create_database(url).await?;
        tracing::info!("database created");
    }
    Ok(())
}

pub async fn migrate(pool: &PgPool) -> anyhow::Result<()> {
    MIGRATOR.run(pool).await?;
    Ok(())
}
