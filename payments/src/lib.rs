//! The payment providers behind `domain::commerce::gateway::PaymentGateway`: `sandbox` (the
//! default: stateful in PostgreSQL, real BR Codes, signed webhooks, simulations; behind the
//! cargo feature `sandbox`, which a production build leaves out) and `pagarme` (Pagar.me
//! v5, production); `Gateway`, the one the configuration picks; BR Codes; what every
//! provider's webhook shares and the events' dedupe table.

pub mod brcode;
pub mod pagarme;
#[cfg(feature = "sandbox")]
pub mod sandbox;
#[cfg(not(feature = "sandbox"))]
#[path = "sandbox_left_out.rs"]
pub mod sandbox;
mod sandbox_types;
pub mod webhook;

use domain::commerce::gateway::{
    CardCharge, CardChargeRequest, Charge, GatewayError, PaymentGateway, PixCharge,
    PixChargeRequest, Refund, SaveCardRequest, SavedCardAtProvider, WebhookEvent,
};
use domain::infra::config::{Config, ConfigError, PaymentsProvider};
use reqwest::header::HeaderMap;
use sqlx::PgPool;

pub use webhook::record_event;

/// Why a build without the sandbox refuses a configuration that names it.
#[cfg(not(feature = "sandbox"))]
const SANDBOX_LEFT_OUT: &str = "the sandbox payment provider is left out of this build (built without the `sandbox` feature): set FILIA_PAYMENTS=pagarme";

/// What the configuration must hold for the provider it names, beyond what `domain`'s
/// `Config` checks on its own: a BR Code merchant, a build that has the provider, and
/// Pagar.me's webhook key as a PEM we can read. The binaries call it as they start (and
/// `Gateway::from_config` does), so a wrong setting stops the process, not a payment.
pub fn check(config: &Config) -> Result<(), ConfigError> {
    if let Err(err) = pix_merchant(config) {
        return Err(ConfigError {
            variable: "FILIA_PIX_MERCHANT_NAME",
            reason: err.to_string(),
        });
    }
    #[cfg(not(feature = "sandbox"))]
    if config.payments == PaymentsProvider::Sandbox {
        return Err(ConfigError {
            variable: "FILIA_PAYMENTS",
            reason: SANDBOX_LEFT_OUT.into(),
        });
    }
    if config.payments == PaymentsProvider::Pagarme
        && let Some(key) = config.pagarme_webhook_public_key.as_deref()
    {
        pagarme::WebhookKey::from_pem(key).map_err(|reason| ConfigError {
            variable: "FILIA_PAGARME_WEBHOOK_PUBLIC_KEY",
            reason,
        })?;
    }
    Ok(())
}

/// The BR Codes' receiver, from `pix_merchant_name` and `pix_merchant_city`.
pub fn pix_merchant(config: &Config) -> Result<brcode::Merchant, brcode::BrCodeError> {
    brcode::Merchant::new(&config.pix_merchant_name, &config.pix_merchant_city)
}

/// The provider configuration chose; what the application holds.
#[derive(Debug, Clone)]
pub enum Gateway {
    #[cfg(feature = "sandbox")]
    Sandbox(sandbox::Sandbox),
    Pagarme(pagarme::Pagarme),
}

impl Gateway {
    /// The provider `FILIA_PAYMENTS` names, set up from the configuration (the sandbox on
    /// the clock every process shares, `sandbox_clock`).
    #[cfg_attr(not(feature = "sandbox"), allow(unused_variables))]
    pub fn from_config(config: &Config, pool: PgPool) -> anyhow::Result<Self> {
        check(config)?;
        Ok(match config.payments {
            #[cfg(feature = "sandbox")]
            PaymentsProvider::Sandbox => Self::Sandbox(sandbox::Sandbox::new(
                pool.clone(),
                sandbox::Clock::Shared(pool),
                pix_merchant(config)?,
                &config.public_url,
                config.sandbox_webhook_secret.clone(),
            )),
            #[cfg(not(feature = "sandbox"))]
            PaymentsProvider::Sandbox => anyhow::bail!(SANDBOX_LEFT_OUT),
            PaymentsProvider::Pagarme => {
                let secret = config
                    .pagarme_secret_key
                    .clone()
                    .ok_or_else(|| anyhow::anyhow!("FILIA_PAGARME_SECRET_KEY is not set"))?;
                let key = config
                    .pagarme_webhook_public_key
                    .as_deref()
                    .ok_or_else(|| {
                        anyhow::anyhow!("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY is not set")
                    })?;
                Self::Pagarme(pagarme::Pagarme::new(
                    &config.pagarme_url,
                    secret,
                    pagarme::WebhookKey::from_pem(key).map_err(anyhow::Error::msg)?,
                    std::time::Duration::from_secs(config.payments_timeout_seconds),
                )?)
            }
        })
    }

    /// The sandbox, for what only it does (simulations, the delivery outbox).
    pub fn sandbox(&self) -> Option<&sandbox::Sandbox> {
        match self {
            #[cfg(feature = "sandbox")]
            Self::Sandbox(sandbox) => Some(sandbox),
            Self::Pagarme(_) => None,
        }
    }
}

macro_rules! dispatch {
    ($self:ident, $gateway:ident => $call:expr) => {
        match $self {
            #[cfg(feature = "sandbox")]
            Gateway::Sandbox($gateway) => $call,
            Gateway::Pagarme($gateway) => $call,
        }
    };
}

impl PaymentGateway for Gateway {
    fn provider(&self) -> &'static str {
        dispatch!(self, gateway => gateway.provider())
    }

    async fn create_pix_charge(
        &self,
        request: &PixChargeRequest,
    ) -> Result<PixCharge, GatewayError> {
        dispatch!(self, gateway => gateway.create_pix_charge(request).await)
    }

    async fn create_card_charge(
        &self,
        request: &CardChargeRequest,
    ) -> Result<CardCharge, GatewayError> {
        dispatch!(self, gateway => gateway.create_card_charge(request).await)
    }

    async fn save_card(
        &self,
        request: &SaveCardRequest,
    ) -> Result<SavedCardAtProvider, GatewayError> {
        dispatch!(self, gateway => gateway.save_card(request).await)
    }

    async fn delete_card(&self, card_id: &str) -> Result<(), GatewayError> {
        dispatch!(self, gateway => gateway.delete_card(card_id).await)
    }

    async fn get_charge(&self, charge_id: &str) -> Result<Charge, GatewayError> {
        dispatch!(self, gateway => gateway.get_charge(charge_id).await)
    }

    async fn cancel_charge(
        &self,
        charge_id: &str,
        idempotency_key: &str,
    ) -> Result<Charge, GatewayError> {
        dispatch!(self, gateway => gateway.cancel_charge(charge_id, idempotency_key).await)
    }

    async fn refund(
        &self,
        charge_id: &str,
        amount_cents: Option<i64>,
        idempotency_key: &str,
    ) -> Result<Refund, GatewayError> {
        dispatch!(self, gateway => gateway.refund(charge_id, amount_cents, idempotency_key).await)
    }

    async fn now(&self) -> Result<chrono::DateTime<chrono::Utc>, GatewayError> {
        dispatch!(self, gateway => gateway.now().await)
    }

    fn verify_webhook(
        &self,
        body: &[u8],
        headers: &HeaderMap,
    ) -> Result<WebhookEvent, GatewayError> {
        dispatch!(self, gateway => gateway.verify_webhook(body, headers))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn config(vars: &[(&str, &str)]) -> Config {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_lookup(|name| vars.get(name).cloned()).expect("a valid configuration")
    }

    #[cfg(feature = "sandbox")]
    #[tokio::test]
    async fn configuration_picks_the_provider() {
        let pool = PgPool::connect_lazy("postgres://nobody@127.0.0.1:1/none").expect("lazy");
        let gateway = Gateway::from_config(&config(&[]), pool.clone()).expect("sandbox");
        assert_eq!(gateway.provider(), "sandbox");
        assert!(gateway.sandbox().is_some());

        let key = include_str!("../../domain/tests/fixtures/pagarme_test_public.pem");
        let pagarme = config(&[
            ("FILIA_PAYMENTS", "pagarme"),
            ("FILIA_PAGARME_SECRET_KEY", "sk_test_hunter2"),
            ("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY", key),
            ("FILIA_PAGARME_PUBLIC_KEY", "pk_test_abc"),
        ]);
        let gateway = Gateway::from_config(&pagarme, pool).expect("pagarme");
        assert_eq!(gateway.provider(), "pagarme");
        assert!(gateway.sandbox().is_none());
        assert!(!format!("{gateway:?}").contains("hunter2"));
    }

    #[cfg(not(feature = "sandbox"))]
    #[tokio::test]
    async fn a_build_without_the_sandbox_refuses_to_start_with_it() {
        let pool = PgPool::connect_lazy("postgres://nobody@127.0.0.1:1/none").expect("lazy");
        let err = check(&config(&[])).expect_err("no sandbox here");
        assert_eq!(err.variable, "FILIA_PAYMENTS");
        assert!(err.reason.contains("set FILIA_PAYMENTS=pagarme"));
        let err = Gateway::from_config(&config(&[]), pool).expect_err("no sandbox here");
        assert!(err.to_string().contains("left out of this build"));
    }

    #[test]
    fn pagarme_needs_a_webhook_key_it_can_read() {
        let err = check(&config(&[
            ("FILIA_PAYMENTS", "pagarme"),
            ("FILIA_PAGARME_SECRET_KEY", "sk_live_hunter2"),
            ("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY", "not a key"),
            ("FILIA_PAGARME_PUBLIC_KEY", "pk_live_abc"),
        ]))
        .expect_err("bad public key");
        assert_eq!(err.variable, "FILIA_PAGARME_WEBHOOK_PUBLIC_KEY");
        assert!(!err.to_string().contains("hunter2"));
    }

    #[test]
    fn the_pix_merchant_has_defaults_and_fits_the_br_code() {
        let merchant = pix_merchant(&config(&[])).expect("merchant");
        assert_eq!(
            (merchant.name.as_str(), merchant.city.as_str()),
            ("FILIA", "SAO PAULO")
        );
        let long = config(&[
            (
                "FILIA_PIX_MERCHANT_NAME",
                "Associação dos Servidores Públicos do Estado",
            ),
            ("FILIA_PIX_MERCHANT_CITY", "Florianópolis"),
        ]);
        let merchant = pix_merchant(&long).expect("long names are cut");
        assert_eq!(merchant.name, "ASSOCIACAO DOS SERVIDORES");
        assert_eq!(merchant.city, "FLORIANOPOLIS");
        let err = check(&config(&[("FILIA_PIX_MERCHANT_NAME", "☕")])).expect_err("nothing left");
        assert_eq!(err.variable, "FILIA_PIX_MERCHANT_NAME");
    }
}
