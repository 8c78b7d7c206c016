//! What every handler can reach.

use std::sync::Arc;

use domain::Config;
use sqlx::PgPool;

use crate::metrics::Metrics;

#[derive(Clone, Debug)]
pub struct AppState {
    pub db: PgPool,
    /// Connections are made per use; `/readyz` must notice Redis going away.
    pub redis: redis::Client,
    pub config: Arc<Config>,
    pub metrics: Metrics,
}

impl AppState {
    pub fn new(config: Config, db: PgPool) -> anyhow::Result<Self> {
        let redis = redis::Client::open(config.redis_url.expose().as_str())?;
        Ok(Self {
            db,
            redis,
            config: Arc::new(config),
            metrics: Metrics::new()?,
        })
    }
}
