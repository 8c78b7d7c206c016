//! Log setup shared by the API and the workers: one line per event, with the fields of the
//! enclosing spans (the API's request span carries the request id).

use tracing_subscriber::EnvFilter;

use crate::infra::config::{Config, LogFormat};

pub fn init_logging(config: &Config) {
    let filter = EnvFilter::try_new(&config.log_filter).unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(true);
    // Ignoring the error keeps a second init (tests, subcommands) harmless.
    let _ = match config.log_format {
        LogFormat::Json => builder
            .json()
            .with_current_span(false)
            .with_span_list(true)
            .try_init(),
        LogFormat::Text => builder.compact().try_init(),
    };
}
