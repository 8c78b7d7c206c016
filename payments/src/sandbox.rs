//! The sandbox provider: a payment company of our own, living in PostgreSQL (`sandbox_*`
//! tables), so development, the demo and the tests go through the real path. It issues real
//! dynamic BR Codes, decides card outcomes by magic numbers (`Behaviour`), keeps charges and
//! refunds with their statuses, and writes signed webhooks to a delivery outbox that a job
//! posts to our webhook endpoint (`due_webhooks`, `mark_delivered`, `mark_failed`).
//!
//! It also does what real sandboxes cannot: pay a PIX after its expiry, deliver a webhook
//! twice or late, refund on the bank's own initiative (MED), keep a refund in process and
//! then fail it, settle a processing card later either way, and run on a clock tests move.
//!
//! Time comes from its `Clock`, never from `Utc::now()` directly. Transitions that happen
//! "later" (a processing card, a PIX refund) are due at a time and applied by `settle_due`,
//! which every read and the outbox listing run first.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Utc};
use hmac::{Hmac, Mac};
use reqwest::header::HeaderMap;
use serde_json::json;
use sha2::Sha256;
use sqlx::{PgConnection, PgPool};

use domain::commerce::gateway::{
    CardCharge, CardChargeRequest, CardExpiry, CardSource, Charge, ChargeStatus, GatewayError,
    PaymentGateway, PaymentMethod, PixCharge, PixChargeRequest, Refund, RefundStatus,
    SaveCardRequest, SavedCardAtProvider, WebhookEvent, WebhookKind,
};
use secrecy::{ExposeSecret, SecretString};

use crate::brcode::{BrCode, Merchant};
use crate::webhook::{event_type, parse_event};

pub use crate::sandbox_types::{CardDetails, PixPayment, SIGNATURE_HEADER, WebhookDelivery};

/// A processing card decides this long after the charge.
pub const CARD_SETTLE_SECONDS: i64 = 5;
/// A PIX refund (devolução) stays in process this long.
pub const PIX_REFUND_SETTLE_SECONDS: i64 = 10;
/// Card charges above this are declined for lack of limit (R$ 50.000,00).
pub const CARD_LIMIT_CENTS: i64 = 5_000_000;
pub const DECLINED_REASON: &str = "Transação não autorizada pelo emissor";
pub const LIMIT_REASON: &str = "Limite insuficiente";
pub const PROCESSING_FAILED_REASON: &str = "Transação recusada pela análise antifraude";
pub const SAVED_CARD_REASON: &str = "Cartão bloqueado pelo emissor";

/// The sandbox's time: the system clock; the clock every process of a deployment shares
/// (`sandbox_clock`: the system clock plus an offset that `POST /api/sandbox/clock` moves
/// forward, so the API, every worker and the billing engine see the same months pass); or
/// a manual one a test moves. Reads are async because the shared one is a row.
#[derive(Debug, Clone)]
pub enum Clock {
    System,
    Shared(PgPool),
    Manual(Arc<Mutex<DateTime<Utc>>>),
}

/// How far the shared clock moves in one step (`POST /api/sandbox/clock` takes 1 to 400 days).
pub const MAX_ADVANCE: Duration = Duration::days(400);

impl Clock {
    pub fn manual(start: DateTime<Utc>) -> Self {
        Self::Manual(Arc::new(Mutex::new(start)))
    }

    pub async fn now(&self) -> Result<DateTime<Utc>, GatewayError> {
        Ok(match self {
            Self::System => Utc::now(),
            Self::Shared(pool) => Utc::now() + shared_offset(pool).await?,
            Self::Manual(at) => *at.lock().unwrap_or_else(|poisoned| poisoned.into_inner()),
        })
    }

    /// Moves the clock forward (a system clock ignores it) and answers the time it now
    /// reads. Only forward, by at most `MAX_ADVANCE` at a time: time never runs back for
    /// what was charged or expired already.
    pub async fn advance(&self, by: Duration) -> Result<DateTime<Utc>, GatewayError> {
        if by < Duration::zero() || by > MAX_ADVANCE {
            return Err(GatewayError::Rejected(
                "the sandbox clock moves forward by at most 400 days".into(),
            ));
        }
        match self {
            Self::System => {}
            Self::Shared(pool) => {
                sqlx::query(
                    "INSERT INTO sandbox_clock (id, offset_seconds) VALUES (true, $1)
                     ON CONFLICT (id) DO UPDATE
                         SET offset_seconds = sandbox_clock.offset_seconds + EXCLUDED.offset_seconds",
                )
                .bind(by.num_seconds())
                .execute(pool)
                .await?;
            }
            Self::Manual(at) => {
                let mut at = at.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                *at += by;
            }
        }
        self.now().await
    }
}

/// The shared clock's offset; none when its row is missing.
async fn shared_offset(pool: &PgPool) -> Result<Duration, GatewayError> {
    let seconds: Option<i64> = sqlx::query_scalar("SELECT offset_seconds FROM sandbox_clock")
        .fetch_optional(pool)
        .await?;
    Ok(Duration::seconds(seconds.unwrap_or(0)))
}

/// What a sandbox card does, decided by its number's last four digits (like Pagar.me's
/// test cards); any other number is approved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Behaviour {
    /// `...0010` (and any number not listed).
    Approve,
    /// `...0028`.
    Decline,
    /// `...0036`: processing, then paid `CARD_SETTLE_SECONDS` later.
    ProcessingThenPaid,
    /// `...0044`: processing, then failed.
    ProcessingThenFailed,
    /// `...0051`: saves fine (and a charge by token is approved), but every charge of the
    /// saved card fails.
    SavedCardFails,
    /// `...0069`: its first charge is approved, every later one declined (a card that
    /// stops paying: a subscription's first period paid, its renewal declined).
    FirstChargeOnly,
}

impl Behaviour {
    pub fn from_number(number: &str) -> Self {
        match number.get(number.len().saturating_sub(4)..) {
            Some("0028") => Self::Decline,
            Some("0036") => Self::ProcessingThenPaid,
            Some("0044") => Self::ProcessingThenFailed,
            Some("0051") => Self::SavedCardFails,
            Some("0069") => Self::FirstChargeOnly,
            _ => Self::Approve,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::Approve => "approve",
            Self::Decline => "decline",
            Self::ProcessingThenPaid => "processing_then_paid",
            Self::ProcessingThenFailed => "processing_then_failed",
            Self::SavedCardFails => "saved_card_fails",
            Self::FirstChargeOnly => "first_charge_only",
        }
    }

    fn parse(text: &str) -> Self {
        match text {
            "decline" => Self::Decline,
            "processing_then_paid" => Self::ProcessingThenPaid,
            "processing_then_failed" => Self::ProcessingThenFailed,
            "saved_card_fails" => Self::SavedCardFails,
            "first_charge_only" => Self::FirstChargeOnly,
            _ => Self::Approve,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Sandbox {
    pool: PgPool,
    clock: Clock,
    merchant: Merchant,
    /// `host/pix`: where the dynamic codes' locations start (the public URL's host).
    location_base: String,
    webhook_secret: SecretString,
}

impl Sandbox {
    /// `public_url` is where members reach us; the codes' locations are `{its host}/pix/{charge
    /// id}`, without scheme or port.
    pub fn new(
        pool: PgPool,
        clock: Clock,
        merchant: Merchant,
        public_url: &str,
        webhook_secret: SecretString,
    ) -> Self {
        let authority = public_url
            .split_once("://")
            .map_or(public_url, |(_, rest)| rest)
            .split('/')
            .next()
            .unwrap_or_default();
        // Locations never carry a port (a PSP's never do, and validators such as
        // @brazilian-utils' refuse one); nothing fetches the sandbox's anyway.
        let host = authority
            .rsplit_once(':')
            .map_or(authority, |(host, _)| host)
            .to_ascii_lowercase();
        Self {
            pool,
            clock,
            merchant,
            location_base: format!("{host}/pix"),
            webhook_secret,
        }
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The sandbox's tokeniser: a token for a card number, whose last digits decide what
    /// charges of it do.
    pub async fn tokenize_card(&self, card: &CardDetails) -> Result<String, GatewayError> {
        let number: String = card.number.chars().filter(|c| !c.is_whitespace()).collect();
        if !(13..=19).contains(&number.len()) || !number.bytes().all(|b| b.is_ascii_digit()) {
            return Err(GatewayError::Rejected(
                "card number must be 13 to 19 digits".into(),
            ));
        }
        if card.holder_name.trim().is_empty() || card.cvv.trim().is_empty() {
            return Err(GatewayError::Rejected(
                "holder name and cvv are required".into(),
            ));
        }
        let token = format!("tok_{}", new_id());
        // A provider's tokeniser knows the expiry; one it cannot read is kept unknown.
        let expiry = CardExpiry::parse(&card.expiry);
        sqlx::query(
            "INSERT INTO sandbox_cards (id, token, brand, last_digits, behaviour, exp_month,
                 exp_year, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(format!("card_{}", new_id()))
        .bind(&token)
        .bind(brand(&number))
        .bind(&number[number.len() - 4..])
        .bind(Behaviour::from_number(&number).as_str())
        .bind(expiry.map(|e| e.month as i32))
        .bind(expiry.map(|e| e.year))
        .bind(self.clock.now().await?)
        .execute(&self.pool)
        .await?;
        Ok(token)
    }

    /// Moves the clock forward (see [`Clock::advance`]) and answers the time it now reads.
    pub async fn advance_clock(&self, by: Duration) -> Result<DateTime<Utc>, GatewayError> {
        self.clock.advance(by).await
    }

    /// Pays a PIX charge as the payer's bank would: pending or not, expired or not, even
    /// canceled (a PSP's late settlement). A charge that already received money refuses.
    pub async fn pay_pix(
        &self,
        charge_id: &str,
        payment: &PixPayment,
    ) -> Result<Charge, GatewayError> {
        let now = self.clock.now().await?;
        let mut tx = self.pool.begin().await?;
        let charge = lock_charge(&mut tx, charge_id).await?;
        if charge.method != PaymentMethod::Pix {
            return Err(GatewayError::Rejected("not a PIX charge".into()));
        }
        if charge.status.money_received() {
            return Err(GatewayError::Rejected(
                "this charge was already paid".into(),
            ));
        }
        // Each payment adds to what arrived before: two partial payments make a whole one.
        let amount = payment
            .amount_cents
            .unwrap_or(charge.amount_cents - charge.paid_amount_cents);
        if amount <= 0 {
            return Err(GatewayError::Rejected("amount must be positive".into()));
        }
        let paid = charge.paid_amount_cents.saturating_add(amount);
        // Less than the amount is not a payment of it: the charge stays pending, with what
        // arrived recorded (Pagar.me's "underpaid").
        let status = if paid >= charge.amount_cents {
            ChargeStatus::Paid
        } else {
            charge.status
        };
        sqlx::query(
            "UPDATE sandbox_charges SET status = $2, paid_amount_cents = $3, paid_at = $4
             WHERE id = $1",
        )
        .bind(charge_id)
        .bind(status.as_str())
        .bind(paid)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if status == ChargeStatus::Paid {
            self.emit(
                &mut tx,
                charge_id,
                &WebhookKind::Paid,
                now + Duration::seconds(payment.webhook_delay_seconds.max(0)),
            )
            .await?;
        }
        tx.commit().await?;
        self.read_charge(charge_id).await
    }

    /// The next refund of this charge stays in process, then fails.
    pub async fn fail_next_refund(&self, charge_id: &str) -> Result<(), GatewayError> {
        let updated =
            sqlx::query("UPDATE sandbox_charges SET fail_next_refund = true WHERE id = $1")
                .bind(charge_id)
                .execute(&self.pool)
                .await?;
        if updated.rows_affected() == 0 {
            return Err(GatewayError::NotFound);
        }
        Ok(())
    }

    /// A refund the payer's bank starts on its own (MED, the PIX fraud return): done at
    /// once, announced by webhook, asked by nobody. `None` returns what is left.
    pub async fn bank_refund(
        &self,
        charge_id: &str,
        amount_cents: Option<i64>,
    ) -> Result<Refund, GatewayError> {
        let now = self.clock.now().await?;
        let mut tx = self.pool.begin().await?;
        let charge = lock_charge(&mut tx, charge_id).await?;
        let amount = refundable_amount(&mut tx, &charge, amount_cents).await?;
        let refund_id = format!("rf_{}", new_id());
        sqlx::query(
            "INSERT INTO sandbox_refunds
                 (id, charge_id, amount_cents, status, started_by, created_at)
             VALUES ($1, $2, $3, 'done', 'bank', $4)",
        )
        .bind(&refund_id)
        .bind(charge_id)
        .bind(amount)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let kind = add_refunded(&mut tx, &charge, amount).await?;
        self.emit(&mut tx, charge_id, &kind, now).await?;
        tx.commit().await?;
        Ok(Refund {
            refund_id,
            charge_id: charge_id.into(),
            amount_cents: amount,
            status: RefundStatus::Done,
        })
    }

    /// The card holder disputes a paid card charge.
    pub async fn chargeback(&self, charge_id: &str) -> Result<Charge, GatewayError> {
        let now = self.clock.now().await?;
        let mut tx = self.pool.begin().await?;
        let charge = lock_charge(&mut tx, charge_id).await?;
        if charge.method != PaymentMethod::CreditCard || !charge.status.money_received() {
            return Err(GatewayError::Rejected(
                "only a paid card charge is disputed".into(),
            ));
        }
        sqlx::query("UPDATE sandbox_charges SET status = 'chargedback' WHERE id = $1")
            .bind(charge_id)
            .execute(&mut *tx)
            .await?;
        self.emit(&mut tx, charge_id, &WebhookKind::Chargedback, now)
            .await?;
        tx.commit().await?;
        self.read_charge(charge_id).await
    }

    /// Delivers an event again, `delay_seconds` from now (a duplicate, or a late repeat
    /// arriving after newer events). Returns the new delivery's id.
    pub async fn redeliver(&self, event_id: &str, delay_seconds: i64) -> Result<i64, GatewayError> {
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO sandbox_webhooks (event_id, kind, charge_id, body, due_at)
             SELECT event_id, kind, charge_id, body, $2 FROM sandbox_webhooks
             WHERE event_id = $1 ORDER BY id LIMIT 1
             RETURNING id",
        )
        .bind(event_id)
        .bind(self.clock.now().await? + Duration::seconds(delay_seconds.max(0)))
        .fetch_optional(&self.pool)
        .await?;
        id.ok_or(GatewayError::NotFound)
    }

    /// Applies every transition that is due (processing cards decide, PIX refunds finish),
    /// each with its webhook. Returns how many were applied.
    pub async fn settle_due(&self) -> Result<usize, GatewayError> {
        let now = self.clock.now().await?;
        let mut applied = 0;
        let charges: Vec<String> = sqlx::query_scalar(
            "SELECT id FROM sandbox_charges WHERE settle_at <= $1 ORDER BY settle_at, id",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        for charge_id in charges {
            let mut tx = self.pool.begin().await?;
            let row: Option<(String, i64)> = sqlx::query_as(
                "SELECT settles_to, amount_cents FROM sandbox_charges
                 WHERE id = $1 AND settle_at <= $2 AND status = 'processing' FOR UPDATE",
            )
            .bind(&charge_id)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some((settles_to, amount)) = row {
                let paid = settles_to == "paid";
                sqlx::query(
                    "UPDATE sandbox_charges SET status = $2, paid_amount_cents = $3,
                         paid_at = CASE WHEN $4 THEN $5 END, failure_reason = $6,
                         settles_to = NULL, settle_at = NULL
                     WHERE id = $1",
                )
                .bind(&charge_id)
                .bind(settles_to.as_str())
                .bind(if paid { amount } else { 0 })
                .bind(paid)
                .bind(now)
                .bind((!paid).then_some(PROCESSING_FAILED_REASON))
                .execute(&mut *tx)
                .await?;
                let kind = if paid {
                    WebhookKind::Paid
                } else {
                    WebhookKind::PaymentFailed
                };
                self.emit(&mut tx, &charge_id, &kind, now).await?;
                applied += 1;
            } else {
                sqlx::query(
                    "UPDATE sandbox_charges SET settles_to = NULL, settle_at = NULL
                     WHERE id = $1 AND status <> 'processing'",
                )
                .bind(&charge_id)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        }

        let refunds: Vec<String> = sqlx::query_scalar(
            "SELECT id FROM sandbox_refunds WHERE settle_at <= $1 ORDER BY settle_at, id",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        for refund_id in refunds {
            let mut tx = self.pool.begin().await?;
            let row: Option<(String, String, i64)> = sqlx::query_as(
                "UPDATE sandbox_refunds SET status = settles_to, settles_to = NULL, settle_at = NULL
                 WHERE id = $1 AND status = 'processing' AND settle_at <= $2
                 RETURNING charge_id, status, amount_cents",
            )
            .bind(&refund_id)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some((charge_id, status, amount)) = row {
                let charge = lock_charge(&mut tx, &charge_id).await?;
                let kind = if status == "done" {
                    add_refunded(&mut tx, &charge, amount).await?
                } else {
                    WebhookKind::RefundFailed
                };
                self.emit(&mut tx, &charge_id, &kind, now).await?;
                applied += 1;
            }
            tx.commit().await?;
        }
        Ok(applied)
    }

    /// Deliveries due now, oldest due first, each with its signature; settles first.
    pub async fn due_webhooks(&self, limit: i64) -> Result<Vec<WebhookDelivery>, GatewayError> {
        self.settle_due().await?;
        let rows: Vec<(i64, String, String, String, String)> = sqlx::query_as(
            "SELECT id, event_id, kind, charge_id, body FROM sandbox_webhooks
             WHERE delivered_at IS NULL AND due_at <= $1
             ORDER BY due_at, id LIMIT $2",
        )
        .bind(self.clock.now().await?)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(id, event_id, kind, charge_id, body)| WebhookDelivery {
                signature: self.sign(body.as_bytes()),
                id,
                event_id,
                kind,
                charge_id,
                body,
            })
            .collect())
    }

    pub async fn mark_delivered(&self, delivery_id: i64) -> Result<(), GatewayError> {
        sqlx::query(
            "UPDATE sandbox_webhooks SET delivered_at = $2, attempts = attempts + 1
             WHERE id = $1 AND delivered_at IS NULL",
        )
        .bind(delivery_id)
        .bind(self.clock.now().await?)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Our endpoint did not answer 2xx: the delivery is due again `retry_in_seconds` later.
    pub async fn mark_failed(
        &self,
        delivery_id: i64,
        error: &str,
        retry_in_seconds: i64,
    ) -> Result<(), GatewayError> {
        sqlx::query(
            "UPDATE sandbox_webhooks SET attempts = attempts + 1, last_error = $2, due_at = $3
             WHERE id = $1 AND delivered_at IS NULL",
        )
        .bind(delivery_id)
        .bind(error)
        .bind(self.clock.now().await? + Duration::seconds(retry_in_seconds.max(0)))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// `sha256=` + hex HMAC-SHA256 of the body: the value of `SIGNATURE_HEADER`.
    pub fn sign(&self, body: &[u8]) -> String {
        format!(
            "sha256={}",
            hex::encode(self.mac(body).finalize().into_bytes())
        )
    }

    fn mac(&self, body: &[u8]) -> Hmac<Sha256> {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(self.webhook_secret.expose_secret().as_bytes())
                .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
        mac.update(body);
        mac
    }

    /// Writes an event to the outbox, due at `due_at`, in the transaction of the change.
    async fn emit(
        &self,
        conn: &mut PgConnection,
        charge_id: &str,
        kind: &WebhookKind,
        due_at: DateTime<Utc>,
    ) -> Result<(), GatewayError> {
        let (status, amount, paid, refunded): (String, i64, i64, i64) = sqlx::query_as(
            "SELECT status, amount_cents, paid_amount_cents, refunded_amount_cents
             FROM sandbox_charges WHERE id = $1",
        )
        .bind(charge_id)
        .fetch_one(&mut *conn)
        .await?;
        let event_id = format!("hook_{}", new_id());
        let created_at = self.clock.now().await?;
        let body = json!({
            "id": event_id,
            "type": event_type(kind),
            "created_at": created_at,
            "data": {
                "id": charge_id,
                "status": status,
                "amount": amount,
                "paid_amount": paid,
                "refunded_amount": refunded,
            },
        })
        .to_string();
        sqlx::query(
            "INSERT INTO sandbox_webhooks (event_id, kind, charge_id, body, due_at)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&event_id)
        .bind(event_type(kind))
        .bind(charge_id)
        .bind(body)
        .bind(due_at)
        .execute(&mut *conn)
        .await?;
        Ok(())
    }

    async fn read_charge(&self, charge_id: &str) -> Result<Charge, GatewayError> {
        let mut conn = self.pool.acquire().await?;
        fetch_charge(&mut conn, charge_id).await
    }

    async fn existing_charge(
        &self,
        idempotency_key: &str,
        fingerprint: &str,
    ) -> Result<Option<String>, GatewayError> {
        let row: Option<(String, String)> = sqlx::query_as(
            "SELECT id, fingerprint FROM sandbox_charges WHERE idempotency_key = $1",
        )
        .bind(idempotency_key)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some((id, stored)) if stored == fingerprint => Ok(Some(id)),
            Some(_) => Err(GatewayError::IdempotencyConflict),
            None => Ok(None),
        }
    }
}

impl PaymentGateway for Sandbox {
    fn provider(&self) -> &'static str {
        "sandbox"
    }

    async fn create_pix_charge(
        &self,
        request: &PixChargeRequest,
    ) -> Result<PixCharge, GatewayError> {
        if request.amount_cents <= 0 || request.expires_in_seconds == 0 {
            return Err(GatewayError::Rejected(
                "amount and expires_in must be positive".into(),
            ));
        }
        let fingerprint = format!(
            "pix:{}:{}:{}",
            request.amount_cents, request.expires_in_seconds, request.reference
        );
        if self
            .existing_charge(&request.idempotency_key, &fingerprint)
            .await?
            .is_none()
        {
            let now = self.clock.now().await?;
            let charge_id = format!("ch_{}", new_id());
            let br_code = BrCode::dynamic_code(
                &self.merchant,
                &format!("{}/{charge_id}", self.location_base),
                Some(request.amount_cents),
            )
            .and_then(|code| code.encode())
            .map_err(|err| GatewayError::Rejected(err.to_string()))?;
            sqlx::query(
                "INSERT INTO sandbox_charges (id, idempotency_key, fingerprint, method, status,
                     amount_cents, reference, br_code, expires_at, created_at)
                 VALUES ($1, $2, $3, 'pix', 'pending', $4, $5, $6, $7, $8)
                 ON CONFLICT (idempotency_key) DO NOTHING",
            )
            .bind(&charge_id)
            .bind(&request.idempotency_key)
            .bind(&fingerprint)
            .bind(request.amount_cents)
            .bind(&request.reference)
            .bind(&br_code)
            .bind(now + Duration::seconds(i64::from(request.expires_in_seconds)))
            .bind(now)
            .execute(&self.pool)
            .await?;
        }
        // Whoever won a race on the key, its charge is the one answered.
        let (charge_id, status, br_code, expires_at): (String, String, String, DateTime<Utc>) =
            sqlx::query_as(
                "SELECT id, status, br_code, expires_at FROM sandbox_charges
                 WHERE idempotency_key = $1 AND fingerprint = $2",
            )
            .bind(&request.idempotency_key)
            .bind(&fingerprint)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(GatewayError::IdempotencyConflict)?;
        Ok(PixCharge {
            charge_id,
            status: parse_status(&status)?,
            br_code,
            qr_code_url: None,
            expires_at,
        })
    }

    async fn create_card_charge(
        &self,
        request: &CardChargeRequest,
    ) -> Result<CardCharge, GatewayError> {
        if request.amount_cents <= 0
            || !(1..=domain::commerce::installments::MAX_INSTALLMENTS)
                .contains(&request.installments)
        {
            return Err(GatewayError::Rejected(
                "amount must be positive and installments 1 to 12".into(),
            ));
        }
        let (lookup, by_saved_card, source) = match &request.source {
            CardSource::Token(token) => ("token", false, token),
            CardSource::SavedCard(card_id) => ("id", true, card_id),
        };
        let fingerprint = format!(
            "card:{}:{}:{}:{lookup}:{source}",
            request.amount_cents, request.installments, request.reference
        );
        if let Some(charge_id) = self
            .existing_charge(&request.idempotency_key, &fingerprint)
            .await?
        {
            return self.card_answer(&charge_id).await;
        }
        let card: Option<(String, String, bool)> = sqlx::query_as(
            "SELECT id, behaviour, saved FROM sandbox_cards
             WHERE CASE WHEN $2 THEN id ELSE token END = $1",
        )
        .bind(source)
        .bind(by_saved_card)
        .fetch_optional(&self.pool)
        .await?;
        let Some((card_id, behaviour, saved)) = card else {
            return Err(GatewayError::Rejected("unknown card".into()));
        };
        if by_saved_card && !saved {
            return Err(GatewayError::Rejected("unknown card".into()));
        }
        let now = self.clock.now().await?;
        let behaviour = Behaviour::parse(&behaviour);
        let paid_before = behaviour == Behaviour::FirstChargeOnly
            && {
                let paid: bool = sqlx::query_scalar(
                "SELECT EXISTS (SELECT 1 FROM sandbox_charges WHERE card_id = $1 AND paid_at IS NOT NULL)",
            )
            .bind(&card_id)
            .fetch_one(&self.pool)
            .await?;
                paid
            };
        let (status, failure, settles_to): (ChargeStatus, Option<&str>, Option<&str>) = if request
            .amount_cents
            > CARD_LIMIT_CENTS
        {
            (ChargeStatus::Failed, Some(LIMIT_REASON), None)
        } else {
            match behaviour {
                Behaviour::Approve => (ChargeStatus::Paid, None, None),
                Behaviour::Decline => (ChargeStatus::Failed, Some(DECLINED_REASON), None),
                Behaviour::ProcessingThenPaid => (ChargeStatus::Processing, None, Some("paid")),
                Behaviour::ProcessingThenFailed => (ChargeStatus::Processing, None, Some("failed")),
                Behaviour::SavedCardFails if by_saved_card => {
                    (ChargeStatus::Failed, Some(SAVED_CARD_REASON), None)
                }
                Behaviour::SavedCardFails => (ChargeStatus::Paid, None, None),
                Behaviour::FirstChargeOnly if paid_before => {
                    (ChargeStatus::Failed, Some(DECLINED_REASON), None)
                }
                Behaviour::FirstChargeOnly => (ChargeStatus::Paid, None, None),
            }
        };
        let charge_id = format!("ch_{}", new_id());
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO sandbox_charges (id, idempotency_key, fingerprint, method, status,
                 amount_cents, paid_amount_cents, reference, card_id, installments, settles_to,
                 settle_at, failure_reason, paid_at, created_at)
             VALUES ($1, $2, $3, 'credit_card', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
             ON CONFLICT (idempotency_key) DO NOTHING",
        )
        .bind(&charge_id)
        .bind(&request.idempotency_key)
        .bind(&fingerprint)
        .bind(status.as_str())
        .bind(request.amount_cents)
        .bind(if status == ChargeStatus::Paid {
            request.amount_cents
        } else {
            0
        })
        .bind(&request.reference)
        .bind(&card_id)
        .bind(i32::try_from(request.installments).unwrap_or(1))
        .bind(settles_to)
        .bind(settles_to.map(|_| now + Duration::seconds(CARD_SETTLE_SECONDS)))
        .bind(failure)
        .bind((status == ChargeStatus::Paid).then_some(now))
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if inserted.rows_affected() == 0 {
            // A concurrent call with the same key won: answer its charge.
            tx.rollback().await?;
            let winner = self
                .existing_charge(&request.idempotency_key, &fingerprint)
                .await?
                .ok_or(GatewayError::IdempotencyConflict)?;
            return self.card_answer(&winner).await;
        }
        let kind = match status {
            ChargeStatus::Paid => WebhookKind::Paid,
            ChargeStatus::Processing => WebhookKind::Processing,
            _ => WebhookKind::PaymentFailed,
        };
        self.emit(&mut tx, &charge_id, &kind, now).await?;
        tx.commit().await?;
        self.card_answer(&charge_id).await
    }

    /// Saves a tokenised card by its token (saving it again answers the same card). The
    /// sandbox has no customers. A card whose charges are declined (`...0028`) is refused,
    /// as a provider that verifies cards on save would.
    async fn save_card(
        &self,
        request: &SaveCardRequest,
    ) -> Result<SavedCardAtProvider, GatewayError> {
        #[allow(clippy::type_complexity)]
        let row: Option<(String, String, String, String, Option<i32>, Option<i32>)> =
            sqlx::query_as(
                "UPDATE sandbox_cards SET saved = (behaviour <> 'decline') WHERE token = $1
                 RETURNING id, brand, last_digits, behaviour, exp_month, exp_year",
            )
            .bind(&request.token)
            .fetch_optional(&self.pool)
            .await?;
        let (card_id, brand, last_digits, behaviour, exp_month, exp_year) =
            row.ok_or_else(|| GatewayError::Rejected("unknown card token".into()))?;
        if Behaviour::parse(&behaviour) == Behaviour::Decline {
            return Err(GatewayError::Rejected(DECLINED_REASON.into()));
        }
        let expiry = exp_month.zip(exp_year).and_then(|(month, year)| {
            Some(CardExpiry {
                month: u32::try_from(month).ok()?,
                year,
            })
        });
        Ok(SavedCardAtProvider {
            card_id,
            customer_id: None,
            brand,
            last_digits,
            expiry,
        })
    }

    /// A deleted card is no longer saved: charges of it by id are refused as unknown.
    async fn delete_card(&self, card_id: &str) -> Result<(), GatewayError> {
        sqlx::query("UPDATE sandbox_cards SET saved = false WHERE id = $1")
            .bind(card_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn now(&self) -> Result<DateTime<Utc>, GatewayError> {
        self.clock.now().await
    }

    async fn get_charge(&self, charge_id: &str) -> Result<Charge, GatewayError> {
        self.settle_due().await?;
        // Counted as a provider counts the calls made against a deployment's quota.
        sqlx::query("UPDATE sandbox_charges SET reads = reads + 1 WHERE id = $1")
            .bind(charge_id)
            .execute(&self.pool)
            .await?;
        self.read_charge(charge_id).await
    }

    async fn cancel_charge(
        &self,
        charge_id: &str,
        _idempotency_key: &str,
    ) -> Result<Charge, GatewayError> {
        self.settle_due().await?;
        let now = self.clock.now().await?;
        let mut tx = self.pool.begin().await?;
        let charge = lock_charge(&mut tx, charge_id).await?;
        if matches!(
            charge.status,
            ChargeStatus::Pending | ChargeStatus::Processing
        ) {
            sqlx::query(
                "UPDATE sandbox_charges SET status = 'canceled', settles_to = NULL,
                     settle_at = NULL
                 WHERE id = $1",
            )
            .bind(charge_id)
            .execute(&mut *tx)
            .await?;
            self.emit(&mut tx, charge_id, &WebhookKind::Canceled, now)
                .await?;
        }
        tx.commit().await?;
        self.read_charge(charge_id).await
    }

    async fn refund(
        &self,
        charge_id: &str,
        amount_cents: Option<i64>,
        idempotency_key: &str,
    ) -> Result<Refund, GatewayError> {
        self.settle_due().await?;
        let now = self.clock.now().await?;
        let mut tx = self.pool.begin().await?;
        let charge = lock_charge(&mut tx, charge_id).await?;
        let existing: Option<(String, String, i64, String)> = sqlx::query_as(
            "SELECT id, charge_id, amount_cents, status FROM sandbox_refunds
             WHERE idempotency_key = $1",
        )
        .bind(idempotency_key)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some((refund_id, refunded_charge, amount, status)) = existing {
            if refunded_charge != charge_id || amount_cents.is_some_and(|a| a != amount) {
                return Err(GatewayError::IdempotencyConflict);
            }
            return Ok(Refund {
                refund_id,
                charge_id: refunded_charge,
                amount_cents: amount,
                status: parse_refund_status(&status)?,
            });
        }
        let amount = refundable_amount(&mut tx, &charge, amount_cents).await?;
        let refund_id = format!("rf_{}", new_id());
        let fails = charge.fail_next_refund;
        // A PIX devolução is asynchronous; a card refund is done at once unless it is the
        // one told to fail.
        let (status, settles_to, settle_in) = match (charge.method, fails) {
            (_, true) => ("processing", Some("failed"), PIX_REFUND_SETTLE_SECONDS),
            (PaymentMethod::Pix, false) => ("processing", Some("done"), PIX_REFUND_SETTLE_SECONDS),
            (PaymentMethod::CreditCard, false) => ("done", None, 0),
        };
        sqlx::query(
            "INSERT INTO sandbox_refunds (id, charge_id, idempotency_key, amount_cents, status,
                 started_by, settles_to, settle_at, created_at)
             VALUES ($1, $2, $3, $4, $5, 'merchant', $6, $7, $8)",
        )
        .bind(&refund_id)
        .bind(charge_id)
        .bind(idempotency_key)
        .bind(amount)
        .bind(status)
        .bind(settles_to)
        .bind(settles_to.map(|_| now + Duration::seconds(settle_in)))
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if fails {
            sqlx::query("UPDATE sandbox_charges SET fail_next_refund = false WHERE id = $1")
                .bind(charge_id)
                .execute(&mut *tx)
                .await?;
        }
        if status == "done" {
            let kind = add_refunded(&mut tx, &charge, amount).await?;
            self.emit(&mut tx, charge_id, &kind, now).await?;
        }
        tx.commit().await?;
        Ok(Refund {
            refund_id,
            charge_id: charge_id.into(),
            amount_cents: amount,
            status: parse_refund_status(status)?,
        })
    }

    fn verify_webhook(
        &self,
        body: &[u8],
        headers: &HeaderMap,
    ) -> Result<WebhookEvent, GatewayError> {
        let signature = headers
            .get(SIGNATURE_HEADER)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix("sha256="))
            .and_then(|hex_digits| hex::decode(hex_digits).ok())
            .ok_or(GatewayError::InvalidSignature)?;
        self.mac(body)
            .verify_slice(&signature)
            .map_err(|_| GatewayError::InvalidSignature)?;
        parse_event("sandbox", body)
    }
}

impl Sandbox {
    async fn card_answer(&self, charge_id: &str) -> Result<CardCharge, GatewayError> {
        let charge = self.read_charge(charge_id).await?;
        Ok(CardCharge {
            charge_id: charge.charge_id,
            status: charge.status,
            failure_reason: charge.failure_reason,
        })
    }
}

struct LockedCharge {
    id: String,
    method: PaymentMethod,
    status: ChargeStatus,
    amount_cents: i64,
    paid_amount_cents: i64,
    refunded_amount_cents: i64,
    fail_next_refund: bool,
}

async fn lock_charge(
    conn: &mut PgConnection,
    charge_id: &str,
) -> Result<LockedCharge, GatewayError> {
    let row: Option<(String, String, i64, i64, i64, bool)> = sqlx::query_as(
        "SELECT method, status, amount_cents, paid_amount_cents, refunded_amount_cents,
                fail_next_refund
         FROM sandbox_charges WHERE id = $1 FOR UPDATE",
    )
    .bind(charge_id)
    .fetch_optional(&mut *conn)
    .await?;
    let (method, status, amount, paid, refunded, fail_next_refund) =
        row.ok_or(GatewayError::NotFound)?;
    Ok(LockedCharge {
        id: charge_id.into(),
        method: parse_method(&method)?,
        status: parse_status(&status)?,
        amount_cents: amount,
        paid_amount_cents: paid,
        refunded_amount_cents: refunded,
        fail_next_refund,
    })
}

/// The amount a new refund may take: what was paid, less refunds done or in process.
async fn refundable_amount(
    conn: &mut PgConnection,
    charge: &LockedCharge,
    requested: Option<i64>,
) -> Result<i64, GatewayError> {
    if !matches!(
        charge.status,
        ChargeStatus::Paid | ChargeStatus::PartiallyRefunded
    ) {
        return Err(GatewayError::Rejected(format!(
            "a {} charge cannot be refunded",
            charge.status.as_str()
        )));
    }
    let in_process: i64 = sqlx::query_scalar(
        "SELECT COALESCE(SUM(amount_cents), 0)::bigint FROM sandbox_refunds
         WHERE charge_id = $1 AND status = 'processing'",
    )
    .bind(&charge.id)
    .fetch_one(&mut *conn)
    .await?;
    let left = charge.paid_amount_cents - charge.refunded_amount_cents - in_process;
    let amount = requested.unwrap_or(left);
    if amount <= 0 || amount > left {
        return Err(GatewayError::Rejected(format!(
            "refund of {amount} centavos exceeds the {left} left"
        )));
    }
    Ok(amount)
}

/// Counts a finished refund on its charge; answers the webhook kind it makes.
async fn add_refunded(
    conn: &mut PgConnection,
    charge: &LockedCharge,
    amount: i64,
) -> Result<WebhookKind, GatewayError> {
    let (status,): (String,) = sqlx::query_as(
        "UPDATE sandbox_charges SET refunded_amount_cents = refunded_amount_cents + $2,
             status = CASE WHEN refunded_amount_cents + $2 >= paid_amount_cents
                           THEN 'refunded' ELSE 'partially_refunded' END
         WHERE id = $1
         RETURNING status",
    )
    .bind(&charge.id)
    .bind(amount)
    .fetch_one(&mut *conn)
    .await?;
    Ok(if status == "refunded" {
        WebhookKind::Refunded
    } else {
        WebhookKind::PartiallyRefunded
    })
}

async fn fetch_charge(conn: &mut PgConnection, charge_id: &str) -> Result<Charge, GatewayError> {
    #[allow(clippy::type_complexity)]
    let row: Option<(
        String,
        String,
        i64,
        i64,
        i64,
        String,
        Option<DateTime<Utc>>,
        Option<DateTime<Utc>>,
        Option<String>,
    )> = sqlx::query_as(
        "SELECT method, status, amount_cents, paid_amount_cents, refunded_amount_cents,
                reference, paid_at, expires_at, failure_reason
         FROM sandbox_charges WHERE id = $1",
    )
    .bind(charge_id)
    .fetch_optional(&mut *conn)
    .await?;
    let (method, status, amount, paid, refunded, reference, paid_at, expires_at, failure) =
        row.ok_or(GatewayError::NotFound)?;
    Ok(Charge {
        charge_id: charge_id.into(),
        method: parse_method(&method)?,
        status: parse_status(&status)?,
        amount_cents: amount,
        paid_amount_cents: paid,
        refunded_amount_cents: refunded,
        reference: Some(reference),
        paid_at,
        expires_at,
        failure_reason: failure,
    })
}

fn parse_status(text: &str) -> Result<ChargeStatus, GatewayError> {
    ChargeStatus::parse(text).ok_or_else(|| GatewayError::Malformed(format!("status {text}")))
}

fn parse_refund_status(text: &str) -> Result<RefundStatus, GatewayError> {
    match text {
        "processing" => Ok(RefundStatus::Processing),
        "done" => Ok(RefundStatus::Done),
        "failed" => Ok(RefundStatus::Failed),
        other => Err(GatewayError::Malformed(format!("refund status {other}"))),
    }
}

fn parse_method(text: &str) -> Result<PaymentMethod, GatewayError> {
    match text {
        "pix" => Ok(PaymentMethod::Pix),
        "credit_card" => Ok(PaymentMethod::CreditCard),
        other => Err(GatewayError::Malformed(format!("method {other}"))),
    }
}

/// The brand by the number's first digits (the few the demo needs).
fn brand(number: &str) -> &'static str {
    match number.as_bytes() {
        [b'4', ..] => "visa",
        [b'5', b'1'..=b'5', ..] | [b'2', ..] => "mastercard",
        [b'3', b'4' | b'7', ..] => "amex",
        [b'6', ..] => "elo",
        _ => "other",
    }
}

fn new_id() -> String {
    ulid::Ulid::generate().to_string().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_numbers_decide_the_behaviour() {
        assert_eq!(
            Behaviour::from_number("4000000000000010"),
            Behaviour::Approve
        );
        assert_eq!(
            Behaviour::from_number("4000000000000028"),
            Behaviour::Decline
        );
        assert_eq!(
            Behaviour::from_number("4000000000000036"),
            Behaviour::ProcessingThenPaid
        );
        assert_eq!(
            Behaviour::from_number("4000000000000044"),
            Behaviour::ProcessingThenFailed
        );
        assert_eq!(
            Behaviour::from_number("4000000000000051"),
            Behaviour::SavedCardFails
        );
        assert_eq!(
            Behaviour::from_number("4000000000000069"),
            Behaviour::FirstChargeOnly
        );
        assert_eq!(
            Behaviour::from_number("5555444433331111"),
            Behaviour::Approve
        );
        for behaviour in [
            Behaviour::Approve,
            Behaviour::Decline,
            Behaviour::ProcessingThenPaid,
            Behaviour::ProcessingThenFailed,
            Behaviour::SavedCardFails,
            Behaviour::FirstChargeOnly,
        ] {
            assert_eq!(Behaviour::parse(behaviour.as_str()), behaviour);
        }
    }

    #[tokio::test]
    async fn a_manual_clock_moves_only_when_told() {
        let start = Utc::now();
        let clock = Clock::manual(start);
        assert_eq!(clock.now().await.expect("now"), start);
        let moved = clock.advance(Duration::minutes(31)).await.expect("moved");
        assert_eq!(moved, start + Duration::minutes(31));
        assert_eq!(clock.now().await.expect("now"), moved);
        assert!(clock.advance(Duration::seconds(-1)).await.is_err());
        assert!(clock.advance(Duration::days(401)).await.is_err());
    }

    #[test]
    fn card_details_never_print() {
        let card = CardDetails {
            number: "4000000000000010".into(),
            holder_name: "ANA".into(),
            expiry: "1230".into(),
            cvv: "123".into(),
        };
        assert!(!format!("{card:?}").contains("4000"));
    }
}
