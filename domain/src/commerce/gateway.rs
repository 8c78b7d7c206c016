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

/// A card's expiry as the provider knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardExpiry {
    /// 1 to 12.
    pub month: u32,
    /// Four digits.
    pub year: i32,
}

impl CardExpiry {
    /// From what a card form or tokeniser holds: `MMYY`, `MM/YY`, `MMYYYY` or `MM/YYYY`.
    pub fn parse(text: &str) -> Option<Self> {
        let digits: String = text.chars().filter(char::is_ascii_digit).collect();
        let (month, year) = match digits.len() {
            4 => (&digits[..2], 2000 + digits[2..].parse::<i32>().ok()?),
            6 => (&digits[..2], digits[2..].parse::<i32>().ok()?),
            _ => return None,
        };
        let month: u32 = month.parse().ok()?;
        ((1..=12).contains(&month) && (2000..=2200).contains(&year)).then_some(Self { month, year })
    }

    /// `MM/YY`, as the subscription card shows it (`expiration_date`).
    pub fn short(self) -> String {
        format!("{:02}/{:02}", self.month, self.year.rem_euclid(100))
    }
}

/// Saving a card the browser tokenised, for charges made later without the member
/// (`CardSource::SavedCard`). Its Debug redacts the token (and, through their own, the
/// customer and the address).
#[derive(Clone)]
pub struct SaveCardRequest {
    pub customer: Customer,
    /// The member's id as the provider's customer, when one was made before; `None` makes
    /// one (Pagar.me keeps cards in a customer's wallet).
    pub customer_id: Option<String>,
    /// The browser tokeniser's token (single use).
    pub token: String,
    /// Providers do not tokenise the billing address: it goes beside the token.
    pub billing_address: BillingAddress,
    /// Same key, same customer: a retried call never makes a second one.
    pub idempotency_key: String,
}

impl std::fmt::Debug for SaveCardRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SaveCardRequest")
            .field("customer", &self.customer)
            .field("customer_id", &self.customer_id)
            .field("token", &"[redacted]")
            .field("billing_address", &self.billing_address)
            .finish()
    }
}

/// A card the provider keeps for us.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedCardAtProvider {
    /// What later charges name as `CardSource::SavedCard`, kept as
    /// `saved_cards.gateway_card_id`. A provider whose cards belong to a customer
    /// (Pagar.me) names both in it, so a charge of the card always names its customer.
    pub card_id: String,
    /// The provider's customer the card belongs to, when it has customers: kept once per
    /// member and provider (`payment_customers`).
    pub customer_id: Option<String>,
    /// Lower case: `visa`, `mastercard`, `elo`...
    pub brand: String,
    pub last_digits: String,
    pub expiry: Option<CardExpiry>,
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

    /// Keeps a tokenised card for later charges (a customer's wallet at the provider). A
    /// card the provider refuses is `Rejected` with its reason.
    fn save_card(
        &self,
        request: &SaveCardRequest,
    ) -> impl Future<Output = Result<SavedCardAtProvider, GatewayError>> + Send;

    /// Deletes a saved card (`SavedCardAtProvider::card_id`) at the provider, so nothing
    /// can charge it again; a card the provider no longer has is deleted already.
    fn delete_card(&self, card_id: &str) -> impl Future<Output = Result<(), GatewayError>> + Send;

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
    fn expiries_read_every_form_the_forms_send() {
        let december_2030 = Some(CardExpiry {
            month: 12,
            year: 2030,
        });
        for text in ["1230", "12/30", "122030", "12/2030"] {
            assert_eq!(CardExpiry::parse(text), december_2030, "{text}");
        }
        for text in ["", "1", "1330", "00/30", "12/3", "abcd"] {
            assert_eq!(CardExpiry::parse(text), None, "{text}");
        }
        assert_eq!(
            CardExpiry {
                month: 7,
                year: 2031
            }
            .short(),
            "07/31"
        );
    }

    #[test]
    fn a_card_token_never_prints() {
        let source = CardSource::Token("tok_secret123".into());
        assert!(!format!("{source:?}").contains("secret123"));
    }
}
