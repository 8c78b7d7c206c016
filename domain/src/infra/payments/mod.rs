//! The payment gateway: one provider-neutral interface (`PaymentGateway`) over the providers
//! we run, `sandbox` (the default: stateful in PostgreSQL, real BR Codes, signed webhooks,
//! simulations) and `pagarme` (Pagar.me v5, production). Also the statuses every provider is
//! normalised to, the installment options, and the webhook events' dedupe table.
//!
//! The trait uses `async fn` with `Send` futures (static dispatch): the set of providers is
//! closed (configuration picks one), so `Gateway`, an enum of both, is what the application
//! holds and passes around; no boxing, no extra crate, and each provider is usable on its
//! own in tests. It is therefore not object-safe, by choice.

pub mod brcode;
pub mod installments;
pub mod pagarme;
pub mod sandbox;
pub mod webhook;

use std::future::Future;

use chrono::{DateTime, Utc};
use reqwest::header::HeaderMap;
use serde::{Deserialize, Serialize};
use sqlx::PgPool;

use crate::infra::config::{Config, PaymentsProvider};

pub use installments::{InstallmentOption, installment_options};
pub use webhook::record_event;

/// Our own charge status; every provider's statuses map to one of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChargeStatus {
    /// Waiting for the payer (a PIX not yet paid).
    Pending,
    Paid,
    /// The provider has not decided yet (a card under analysis).
    Processing,
    Failed,
    Canceled,
    Refunded,
    PartiallyRefunded,
    Chargedback,
}

impl ChargeStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Paid => "paid",
            Self::Processing => "processing",
            Self::Failed => "failed",
            Self::Canceled => "canceled",
            Self::Refunded => "refunded",
            Self::PartiallyRefunded => "partially_refunded",
            Self::Chargedback => "chargedback",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [
            Self::Pending,
            Self::Paid,
            Self::Processing,
            Self::Failed,
            Self::Canceled,
            Self::Refunded,
            Self::PartiallyRefunded,
            Self::Chargedback,
        ]
        .into_iter()
        .find(|status| status.as_str() == text)
    }

    /// Money was received (and maybe partly given back since).
    pub fn money_received(self) -> bool {
        matches!(
            self,
            Self::Paid | Self::Refunded | Self::PartiallyRefunded | Self::Chargedback
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PaymentMethod {
    Pix,
    CreditCard,
}

impl PaymentMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pix => "pix",
            Self::CreditCard => "credit_card",
        }
    }
}

/// The payer, as providers ask for it (Pagar.me requires one on every order). Its Debug
/// shows the name only: CPF, e-mail and phone never reach a log.
#[derive(Clone, PartialEq, Eq)]
pub struct Customer {
    pub name: String,
    pub email: String,
    /// CPF, digits only.
    pub document: String,
    /// Mobile phone, digits only with area code (`48999998888`), when known.
    pub phone: Option<String>,
}

/// Its Debug redacts the customer (through [`Customer`]'s own).
#[derive(Debug, Clone)]
pub struct PixChargeRequest {
    pub amount_cents: i64,
    pub expires_in_seconds: u32,
    /// Our reference (the order's code); shown in the provider's dashboard.
    pub reference: String,
    /// Same key, same charge: a retried call never charges twice.
    pub idempotency_key: String,
    pub customer: Customer,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PixCharge {
    pub charge_id: String,
    pub status: ChargeStatus,
    /// "Pix copia e cola".
    pub br_code: String,
    /// The provider's image of the QR code, when it hosts one; `brcode::qr_png` draws ours.
    pub qr_code_url: Option<String>,
    pub expires_at: DateTime<Utc>,
}

impl std::fmt::Debug for Customer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Customer")
            .field("name", &self.name)
            .field("email", &"[redacted]")
            .field("document", &"[redacted]")
            .field("phone", &self.phone.as_ref().map(|_| "[redacted]"))
            .finish()
    }
}

/// A card as the browser's tokeniser handed it over, or a card saved earlier.
#[derive(Clone, PartialEq, Eq)]
pub enum CardSource {
    Token(String),
    SavedCard(String),
}

impl std::fmt::Debug for CardSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Token(_) => f.write_str("Token([redacted])"),
            Self::SavedCard(id) => f.debug_tuple("SavedCard").field(id).finish(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct CardChargeRequest {
    pub amount_cents: i64,
    pub installments: u32,
    pub source: CardSource,
    /// A new card's billing address (providers do not tokenise it); a saved card has its own.
    pub billing_address: Option<BillingAddress>,
    pub reference: String,
    pub idempotency_key: String,
    pub customer: Customer,
}

/// Where a card's bill goes, as the payment form takes it (spec 002 section 3). Its Debug
/// shows the state only: an address never reaches a log.
#[derive(Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BillingAddress {
    /// Eight digits.
    pub zip_code: String,
    pub street: String,
    pub number: String,
    pub city: String,
    /// The state's two letters (`SC`).
    pub state: String,
}

impl std::fmt::Debug for BillingAddress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BillingAddress")
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardCharge {
    pub charge_id: String,
    pub status: ChargeStatus,
    /// Why a failed charge failed, in the provider's words (for the 'Motivo: ...' dialog).
    pub failure_reason: Option<String>,
}

/// A charge as the provider holds it: the truth, re-read on every webhook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charge {
    pub charge_id: String,
    pub method: PaymentMethod,
    pub status: ChargeStatus,
    pub amount_cents: i64,
    pub paid_amount_cents: i64,
    pub refunded_amount_cents: i64,
    pub reference: Option<String>,
    pub paid_at: Option<DateTime<Utc>>,
    pub expires_at: Option<DateTime<Utc>>,
    pub failure_reason: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefundStatus {
    /// Asked for, not yet done (a PIX devolução is asynchronous).
    Processing,
    Done,
    Failed,
}

impl RefundStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Processing => "processing",
            Self::Done => "done",
            Self::Failed => "failed",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refund {
    pub refund_id: String,
    pub charge_id: String,
    pub amount_cents: i64,
    pub status: RefundStatus,
}

/// What a provider's webhook is about, normalised; `Other` keeps the provider's name of
/// events we do not act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebhookKind {
    Paid,
    Processing,
    PaymentFailed,
    Canceled,
    Refunded,
    PartiallyRefunded,
    RefundFailed,
    Chargedback,
    Other(String),
}

impl WebhookKind {
    pub fn as_str(&self) -> &str {
        match self {
            Self::Paid => "paid",
            Self::Processing => "processing",
            Self::PaymentFailed => "payment_failed",
            Self::Canceled => "canceled",
            Self::Refunded => "refunded",
            Self::PartiallyRefunded => "partially_refunded",
            Self::RefundFailed => "refund_failed",
            Self::Chargedback => "chargedback",
            Self::Other(name) => name,
        }
    }
}

/// A verified webhook. Its body is not trusted beyond naming the charge: the receiver
/// re-reads the charge from the provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookEvent {
    pub provider: &'static str,
    pub event_id: String,
    pub kind: WebhookKind,
    pub charge_id: Option<String>,
}

impl WebhookEvent {
    /// Whether one of its texts holds a NUL, which PostgreSQL refuses in text: even signed,
    /// such an event cannot be recorded.
    pub fn holds_nul(&self) -> bool {
        self.event_id.contains('\0')
            || self
                .charge_id
                .as_deref()
                .is_some_and(|id| id.contains('\0'))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    /// The provider refused the request as invalid (Pagar.me's 422, or ours in the sandbox).
    #[error("the payment provider refused the request: {0}")]
    Rejected(String),
    #[error("no such charge at the payment provider")]
    NotFound,
    /// An idempotency key reused with a different request.
    #[error("idempotency key reused for a different request")]
    IdempotencyConflict,
    /// 5xx, timeout or connection failure: safe to retry with the same idempotency key.
    #[error("the payment provider is unavailable: {0}")]
    Unavailable(String),
    /// Our credentials were refused (401/403): a configuration problem.
    #[error("the payment provider refused our credentials")]
    Unauthorized,
    #[error("webhook signature missing or invalid")]
    InvalidSignature,
    #[error("unexpected answer from the payment provider: {0}")]
    Malformed(String),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// What every provider does. Amounts are centavos.
pub trait PaymentGateway {
    /// `"sandbox"` or `"pagarme"`: the provider's name in `payment_events` and logs.
    fn provider(&self) -> &'static str;

    fn create_pix_charge(
        &self,
        request: &PixChargeRequest,
    ) -> impl Future<Output = Result<PixCharge, GatewayError>> + Send;

    fn create_card_charge(
        &self,
        request: &CardChargeRequest,
    ) -> impl Future<Output = Result<CardCharge, GatewayError>> + Send;

    fn get_charge(
        &self,
        charge_id: &str,
    ) -> impl Future<Output = Result<Charge, GatewayError>> + Send;

    /// Cancels a charge not yet paid and answers the charge as it then is. A charge paid
    /// meanwhile is answered as paid, untouched: never a refund in disguise (see the
    /// provider's notes for the window where it cannot promise that).
    fn cancel_charge(
        &self,
        charge_id: &str,
        idempotency_key: &str,
    ) -> impl Future<Output = Result<Charge, GatewayError>> + Send;

    /// Refunds `amount_cents` (all that is left when `None`) of a paid charge.
    fn refund(
        &self,
        charge_id: &str,
        amount_cents: Option<i64>,
        idempotency_key: &str,
    ) -> impl Future<Output = Result<Refund, GatewayError>> + Send;

    /// Checks the signature over the raw body and reads the event's id, kind and charge.
    fn verify_webhook(
        &self,
        body: &[u8],
        headers: &HeaderMap,
    ) -> Result<WebhookEvent, GatewayError>;
}

/// The provider configuration chose; what the application holds.
#[derive(Debug, Clone)]
pub enum Gateway {
    Sandbox(sandbox::Sandbox),
    Pagarme(pagarme::Pagarme),
}

impl Gateway {
    /// The provider `FILIA_PAYMENTS` names, set up from the configuration (the sandbox on
    /// the system clock).
    pub fn from_config(config: &Config, pool: PgPool) -> anyhow::Result<Self> {
        Ok(match config.payments {
            PaymentsProvider::Sandbox => Self::Sandbox(sandbox::Sandbox::new(
                pool,
                sandbox::Clock::System,
                config.pix_merchant()?,
                &config.public_url,
                config.sandbox_webhook_secret.clone(),
            )),
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
            Self::Sandbox(sandbox) => Some(sandbox),
            Self::Pagarme(_) => None,
        }
    }
}

macro_rules! dispatch {
    ($self:ident, $gateway:ident => $call:expr) => {
        match $self {
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
    use super::*;

    #[test]
    fn statuses_round_trip_their_names() {
        for status in [
            ChargeStatus::Pending,
            ChargeStatus::Paid,
            ChargeStatus::Processing,
            ChargeStatus::Failed,
            ChargeStatus::Canceled,
            ChargeStatus::Refunded,
            ChargeStatus::PartiallyRefunded,
            ChargeStatus::Chargedback,
        ] {
            assert_eq!(ChargeStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(ChargeStatus::parse("captured"), None);
    }

    #[tokio::test]
    async fn configuration_picks_the_provider() {
        let pool = PgPool::connect_lazy("postgres://nobody@127.0.0.1:1/none").expect("lazy");
        let sandbox = Config::from_lookup(|_| None).expect("defaults");
        let gateway = Gateway::from_config(&sandbox, pool.clone()).expect("sandbox");
        assert_eq!(gateway.provider(), "sandbox");
        assert!(gateway.sandbox().is_some());

        let key = include_str!("../../../tests/fixtures/pagarme_test_public.pem");
        let pagarme = Config::from_lookup(|name| match name {
            "FILIA_PAYMENTS" => Some("pagarme".into()),
            "FILIA_PAGARME_SECRET_KEY" => Some("sk_test_hunter2".into()),
            "FILIA_PAGARME_WEBHOOK_PUBLIC_KEY" => Some(key.into()),
            "FILIA_PAGARME_PUBLIC_KEY" => Some("pk_test_abc".into()),
            _ => None,
        })
        .expect("pagarme");
        let gateway = Gateway::from_config(&pagarme, pool).expect("pagarme");
        assert_eq!(gateway.provider(), "pagarme");
        assert!(gateway.sandbox().is_none());
        assert!(!format!("{gateway:?}").contains("hunter2"));
    }

    #[test]
    fn a_card_token_never_prints() {
        let source = CardSource::Token("tok_secret123".into());
        assert!(!format!("{source:?}").contains("secret123"));
    }
}
