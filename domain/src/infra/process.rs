//! Process lifecycle shared by the API and the workers.

use std::process::ExitCode;

use crate::Config;

/// The first thing every binary does: read the configuration (a bad value exits with 2,
/// naming the variable) and start logging.
pub fn start() -> Result<Config, ExitCode> {
    let config = Config::from_env().map_err(|err| {
        eprintln!("{err}");
        ExitCode::from(2)
    })?;
    crate::infra::telemetry::init_logging(&config);
    Ok(config)
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM, whichever comes first.
pub async fn shutdown_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut terminate = signal(SignalKind::terminate()).ok();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {},
        () = async {
            match terminate.as_mut() {
                Some(terminate) => { terminate.recv().await; }
                None => std::future::pending::<()>().await,
            }
        } => {},
    }
}

/// This machine's name, for naming workers uniquely across machines.
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_string())
        .unwrap_or_else(|_| "host".into())
}
