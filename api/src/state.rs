//! What every handler can reach.

use secrecy::ExposeSecret;
use std::sync::Arc;

use domain::Config;
use domain::infra::captcha::CaptchaVerifier;
use sqlx::PgPool;

use crate::metrics::Metrics;

#[derive(Clone, Debug)]
pub struct AppState {
    pub db: PgPool,
    /// Connections are made per use; `/readyz` must notice Redis going away.
    pub redis: redis::Client,
    pub config: Arc<Config>,
    pub metrics: Metrics,
    /// Checks the captcha of public forms; `Off` unless `FILIA_CAPTCHA` turns it on.
    pub captcha: Arc<dyn CaptchaVerifier>,
    /// Stored files (profile images), served at `/api/media/`.
    pub objects: domain::infra::objects::Objects,
    /// The payment provider `FILIA_PAYMENTS` names (the sandbox by default).
    pub gateway: payments::Gateway,
    /// The address lookup's provider (`FILIA_CEP_URL`).
    pub cep: domain::infra::cep::CepProvider,
    /// The states-and-cities lookup's provider (`FILIA_IBGE_URL`).
    pub cities: domain::infra::ibge::CitiesProvider,
}

impl AppState {
    pub fn new(config: Config, db: PgPool) -> anyhow::Result<Self> {
        let redis = redis::Client::open(config.redis_url.expose_secret())?;
        let captcha = domain::infra::captcha::from_config(&config);
        let objects = domain::infra::objects::Objects::from_config(&config)?;
        let gateway = payments::Gateway::from_config(&config, db.clone())?;
        Ok(Self {
            gateway,
            cep: domain::infra::cep::CepProvider::from_config(&config),
            cities: domain::infra::ibge::CitiesProvider::from_config(&config),
            db,
            redis,
            config: Arc::new(config),
            metrics: Metrics::new()?,
            captcha,
            objects,
        })
    }
}
