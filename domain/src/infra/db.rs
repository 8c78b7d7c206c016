//! The PostgreSQL pool. The schema and its migrations live in the `schema` crate, which
//! knows apalis' job tables; this crate does not.

use std::time::Duration;

use sqlx::migrate::MigrateDatabase;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, PgPool, Postgres};

use crate::Config;

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
