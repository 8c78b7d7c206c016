//! Support for the test suites, never linked into a binary.

pub mod build;
pub mod database;
pub mod postgres;
pub mod smtp;

pub use testkit_macros::db_test;

use sqlx::PgPool;
use sqlx::postgres::PgSslMode;

/// A URL for the database behind `pool` (a `#[testkit::db_test]` database), for child processes
/// such as a `workers` binary started by a test; without TLS when the test's pool has none.
pub fn database_url(pool: &PgPool) -> String {
    let options = pool.connect_options();
    let tls = if matches!(options.get_ssl_mode(), PgSslMode::Disable) {
        "?sslmode=disable"
    } else {
        ""
    };
    format!(
        "postgres://{}@{}:{}/{}{tls}",
        options.get_username(),
        options.get_host(),
        options.get_port(),
        options.get_database().unwrap_or("postgres"),
    )
}

/// A bare station (no establishment, default flags) with this subdomain: its id.
pub async fn insert_station(db: &PgPool, subdomain: &str) -> i64 {
    build::station(subdomain).insert(db).await
}
