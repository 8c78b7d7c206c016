//! The payment gateway as the rules see it (a port): one provider-neutral interface
//! (`PaymentGateway`), the statuses every provider is normalised to, and the requests and
//! answers that cross it. The providers (`sandbox`, `pagarme`) and `Gateway`, the one the
//! configuration picks, live in the `payments` crate, which implements this trait.
//!
//! The trait uses `async fn` with `Send` futures (static dispatch): the set of providers is
//! closed (configuration picks one), so `payments::Gateway`, an enum of both, is what the
//! application holds and passes around; no boxing, no extra crate, and each provider is
//! usable on its own in tests. It is therefore not object-safe, by choice.

use std::future::Future;

use chrono::{DateTime, Utc};
use reqwest::header::HeaderMap;
use serde::{Deserialize, Serialize};

use crate::shared::failure::{Failure, IntoFailure};

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
    /// The provider's image of the QR code, when it hosts one; `payments::brcode::qr_png`
    /// draws ours.
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

/// The provider's failures are ours, never the member's to fix: a route where a refusal
/// has a text for the member (the sandbox's card data) says so before `?`.
impl IntoFailure for GatewayError {
    fn into_failure(self) -> Failure {
        Failure::Internal(self.into())
    }
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

    /// The provider's time, which billing reads to know what is due: the system clock, but
    /// the sandbox's clock in a demo, which tests and the demo move forward.
    fn now(&self) -> impl Future<Output = Result<DateTime<Utc>, GatewayError>> + Send {
        async { Ok(Utc::now()) }
    }

    /// Checks the signature over the raw body and reads the event's id, kind and charge.
    fn verify_webhook(
        &self,
        body: &[u8],
        headers: &HeaderMap,
    ) -> Result<WebhookEvent, GatewayError>;
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

    #[test]
    fn a_card_token_never_prints() {
        let source = CardSource::Token("tok_secret123".into());
        assert!(!format!("{source:?}").contains("secret123"));
    }
}
