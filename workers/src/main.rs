//! The worker fleet process. Run as many as you like, on one machine or many: they share
//! the job queues in PostgreSQL. SIGTERM or SIGINT stops taking jobs, lets running ones
//! finish and puts fetched-but-unstarted ones back.

use std::process::ExitCode;
use std::time::Duration;

use jobs::Services;

#[tokio::main]
async fn main() -> ExitCode {
    let config = match domain::infra::process::start() {
        Ok(config) => config,
        Err(exit) => return exit,
    };
    match run(config).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            tracing::error!(error = %domain::infra::telemetry::Loggable(err.as_ref()), "worker process failed");
            ExitCode::FAILURE
        }
    }
}

async fn run(mut config: domain::Config) -> anyhow::Result<()> {
    // A worker process needs a connection per job it runs at once, and the kinds declare
    // how many that is; FILIA_DB_MAX_CONNECTIONS sizes the API's pool.
    config.database_max_connections = jobs::fleet::pool_size();
    let schedules =
        jobs::kinds::schedules(&|name| std::env::var(name).ok().filter(|v| !v.is_empty()))?;
    let db = connect_with_retry(&config).await?;
    let services = Services::new(db.clone(), config)?;
    jobs::fleet::run(
        services,
        schedules,
        domain::infra::process::shutdown_signal(),
    )
    .await?;
    db.close().await;
    tracing::info!("worker process stopped");
    Ok(())
}

/// The database may still be starting when the fleet is (re)started; wait for it a while.
async fn connect_with_retry(config: &domain::Config) -> anyhow::Result<sqlx::PgPool> {
    let mut delay = Duration::from_millis(250);
    for attempt in 1.. {
        match domain::infra::db::connect(config).await {
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
