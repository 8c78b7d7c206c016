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

/// Waits until `count` sessions of the database behind `db` wait for a lock: a test that
/// lines concurrent calls up on a row knows they are all queued on it. Panics after 15 s.
pub async fn until_waiting_for_locks(db: &PgPool, count: i64) {
    for _ in 0..750 {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
        .fetch_one(db)
        .await
        .expect("sessions waiting for a lock");
        if waiting >= count {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("{count} sessions never all waited for a lock");
}

/// A bare station (no establishment, default flags) with this subdomain: its id.
pub async fn insert_station(db: &PgPool, subdomain: &str) -> i64 {
    build::station(subdomain).insert(db).await
}
