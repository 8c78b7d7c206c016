//! What callers of the sandbox hold (its tokeniser's input, a simulated PIX payment, a due
//! webhook, the signature header), apart from the sandbox itself so a build
//! without it (`sandbox_left_out`) keeps the same names.

/// The header carrying a sandbox webhook's signature: `sha256=` and the lower-case hex
/// HMAC-SHA256 of the raw body under `FILIA_SANDBOX_WEBHOOK_SECRET`.
pub const SIGNATURE_HEADER: &str = "x-filia-sandbox-signature";

/// What the sandbox's tokeniser takes (the browser's form, in the sandbox only).
#[derive(Clone)]
pub struct CardDetails {
    pub number: String,
    pub holder_name: String,
    pub expiry: String,
    pub cvv: String,
}

impl std::fmt::Debug for CardDetails {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CardDetails([redacted])")
    }
}

/// One delivery due from the outbox, ready to POST: the raw body and its signature header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookDelivery {
    pub id: i64,
    pub event_id: String,
    pub kind: String,
    pub charge_id: String,
    pub body: String,
    /// The value of `SIGNATURE_HEADER`.
    pub signature: String,
}

/// A simulated PIX payment.
#[derive(Debug, Clone, Default)]
pub struct PixPayment {
    /// The amount paid; the charge's amount when `None` (less or more simulates a payer
    /// who typed another amount into a static code).
    pub amount_cents: Option<i64>,
    /// The webhook is due this long after the payment (a late delivery).
    pub webhook_delay_seconds: i64,
}
