//! The PostgreSQL pool. The schema and its migrations live in the `schema` crate, which
//! knows apalis' job tables; this crate does not.

use secrecy::ExposeSecret;
use std::time::Duration;

use sqlx::migrate::MigrateDatabase;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, PgPool, Postgres};

use crate::Config;

pub async fn connect(config: &Config) -> anyhow::Result<PgPool> {
    let pool = pool_options(config)
        .connect_with(connect_options(config)?)
        .await?;
    Ok(pool)
}

/// The same pool, opened on first use: a process that waits for the database by itself
/// (the workers) starts whether it answers yet or not.
pub fn connect_lazy(config: &Config) -> anyhow::Result<PgPool> {
    Ok(pool_options(config).connect_lazy_with(connect_options(config)?))
}

fn connect_options(config: &Config) -> anyhow::Result<PgConnectOptions> {
    let options: PgConnectOptions = config.database_url.expose_secret().parse()?;
    // Statement logging at INFO would drown request logs; slow ones still surface.
    Ok(options
        .log_statements(tracing::log::LevelFilter::Debug)
        .log_slow_statements(tracing::log::LevelFilter::Warn, Duration::from_millis(500)))
}

fn pool_options(config: &Config) -> PgPoolOptions {
    PgPoolOptions::new()
        .max_connections(config.database_max_connections)
        .acquire_timeout(Duration::from_secs(5))
}

/// Creates the configured database when it does not exist yet (first run on a machine).
pub async fn create_if_missing(config: &Config) -> anyhow::Result<()> {
    let url = config.database_url.expose_secret();
    if !Postgres::database_exists(url).await? {
        Postgres::create_database(url).await?;
        tracing::info!("database created");
    }
    Ok(())
}
