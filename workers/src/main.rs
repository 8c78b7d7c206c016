//! The worker fleet process. Run as many as you like, on one machine or many: they share
//! the job queues in PostgreSQL. SIGTERM or SIGINT stops taking jobs, lets running ones
//! finish and puts fetched-but-unstarted ones back. A database that is down or goes away
//! is waited for, at start as later: only a signal (or a bug) ends the process.

use std::process::ExitCode;

use jobs::Services;

#[tokio::main]
async fn main() -> ExitCode {
    let config = match domain::infra::process::start() {
        Ok(config) => config,
        Err(exit) => return exit,
    };
    // What the payment provider needs of the configuration (a build without the sandbox
    // refuses FILIA_PAYMENTS=sandbox): exits like any other bad setting.
    if let Err(err) = payments::check(&config) {
        eprintln!("{err}");
        return ExitCode::from(2);
    }
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
    // Opened on first use: the fleet waits for the database however long it is away.
    let db = domain::infra::db::connect_lazy(&config)?;
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
