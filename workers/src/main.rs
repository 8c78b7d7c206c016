//! The worker fleet process. Run as many as you like, on one machine or many: they share
//! the job queue in PostgreSQL. Until the job platform lands (issue 3) it only proves its
//! dependencies answer and waits for SIGINT or SIGTERM, so `ops/run` manages its lifecycle.

use std::process::ExitCode;
use std::time::Duration;

#[tokio::main]
async fn main() -> ExitCode {
    let config = match domain::process::start() {
        Ok(config) => config,
        Err(exit) => return exit,
    };
    match run(config).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            tracing::error!(error = ?err, "worker process failed");
            ExitCode::FAILURE
        }
    }
}

async fn run(config: domain::Config) -> anyhow::Result<()> {
    let db = connect_with_retry(&config).await?;
    let name = format!(
        "worker-{}-{}",
        domain::process::hostname(),
        std::process::id()
    );
    tracing::info!(worker = %name, "worker process ready");
    domain::process::shutdown_signal().await;
    tracing::info!(worker = %name, "shutting down");
    db.close().await;
    Ok(())
}

/// The database may still be starting when the fleet is (re)started; wait for it a while.
async fn connect_with_retry(config: &domain::Config) -> anyhow::Result<sqlx::PgPool> {
    let mut delay = Duration::from_millis(250);
    for attempt in 1.. {
        match domain::db::connect(config).await {
            Ok(db) => return Ok(db),
            Err(err) if attempt < 8 => {
                tracing::warn!(attempt, error = %err, "database not reachable yet");
                tokio::time::sleep(delay).await;
                delay = (delay * 2).min(Duration::from_secs(5));
            }
            Err(err) => return Err(err),
        }
    }
    unreachable!("the loop returns")
}
