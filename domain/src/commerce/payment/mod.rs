//! Paying an order's card or PIX part through the gateway (docs/api-commerce.md, "Paying
//! the card or PIX part"). The order and its pending part are committed first; the gateway
//! is called outside any transaction with the part's id as idempotency key; then one
//! transaction records the answer here. Every later word about a charge (the webhook's
//! re-read, the member's "Verificar pagamento", the PIX expiry) goes through
//! [`apply_charge`], which only moves rows with conditional updates, so running it twice,
//! late or out of order changes nothing more.
//!
//! Lock order is the hold's (see `checkout`): the hold row first, then the part.
//!
//! A payment that lands after its part ended is the `late` module's.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use sqlx::PgConnection;

use super::checkout::{self, UnpaidEnd};
use super::gateway::{
    BillingAddress, CardCharge, CardChargeRequest, CardSource, Charge, ChargeStatus, Customer,
    PaymentMethod, PixCharge, PixChargeRequest,
};
use super::orders::{self, Confirmation, Method};
use super::status::{OrderStatus, PartMethod, PartStatus};
use super::{CommerceError, CommerceResult, catalogue, coupons, lock_member};
use crate::infra::mail::{Branding, Button, Notice, OutgoingMail};
use crate::shared::money::format_brl;
use crate::wallet::ledger::{self, Spend, SpendKind};

/// How long a PIX charge can be paid; the hold is extended to its expiry.
pub const PIX_SECONDS: u32 = 30 * 60;

/// Why a late payment (a PIX, or a card that settled after its hold ended) was (partly)
/// given back, as the member reads it on the order.
pub const LATE_REFUND_REASON: &str = "Pagamento recebido após o prazo, com produto(s) esgotado(s): o valor desses itens foi devolvido.";
/// Why a late payment was given back whole because the wallet part no longer was there.
pub const LATE_BALANCE_REASON: &str =
    "Pagamento recebido após o prazo, sem saldo para a parte da carteira: o valor foi devolvido.";
/// Why a late payment was given back whole because its coupon could not be used again (its
/// uses ran out, or the member used it on another order meanwhile).
pub const LATE_COUPON_REASON: &str = "Pagamento recebido após o prazo, com o cupom de desconto já utilizado ou esgotado: o valor foi devolvido.";
/// Why lines of a late payment were given back: the member reached the product's limit
/// with another order meanwhile.
pub const LATE_LIMIT_REASON: &str = "Pagamento recebido após o prazo, acima do limite de unidades por participante: o valor desses itens foi devolvido.";
/// Why lines of a late payment were given back, some sold out and some over the limit.
pub const LATE_STOCK_AND_LIMIT_REASON: &str = "Pagamento recebido após o prazo, com produto(s) esgotado(s) ou acima do limite de unidades por participante: o valor desses itens foi devolvido.";
/// A card refused without a reason from the provider.
pub const DECLINED_DEFAULT: &str = "Pagamento recusado pela operadora do cartão.";

/// The card or PIX part of an order, with what a charge request needs.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ChargePart {
    pub payment_id: i64,
    pub order_id: i64,
    pub order_code: String,
    pub order_status: OrderStatus,
    pub station_id: i64,
    pub user_id: i64,
    pub checkout_id: i64,
    /// Card or PIX.
    pub method: PartMethod,
    pub amount: i64,
    pub installments: i32,
    pub status: PartStatus,
    pub charge_id: Option<String>,
    pub charge_source: Option<String>,
    pub billing_address: Option<sqlx::types::Json<BillingAddress>>,
    pub failure_reason: Option<String>,
    pub expires_at: Option<DateTime<Utc>>,
}

impl ChargePart {
    pub fn method(&self) -> Method {
        if self.method == PartMethod::Pix {
            Method::Pix
        } else {
            Method::CreditCard
        }
    }

    /// The idempotency key of this part's charge: the same part never makes two charges.
    pub fn idempotency_key(&self) -> String {
        format!("payment:{}", self.payment_id)
    }

    pub fn pix_request(&self, customer: Customer) -> PixChargeRequest {
        PixChargeRequest {
            amount_cents: self.amount,
            expires_in_seconds: PIX_SECONDS,
            reference: self.order_code.clone(),
            idempotency_key: self.idempotency_key(),
            customer,
        }
    }

    pub fn card_request(&self, customer: Customer, source: CardSource) -> CardChargeRequest {
        CardChargeRequest {
            amount_cents: self.amount,
            installments: u32::try_from(self.installments.max(1)).unwrap_or(1),
            source,
            billing_address: self.billing_address.clone().map(|address| address.0),
            reference: self.order_code.clone(),
            idempotency_key: self.idempotency_key(),
            customer,
        }
    }

    /// The card recorded for this part, as the gateway takes it (`tok_...` is the
    /// browser's token, anything else a saved card's provider id).
    pub fn card_source(&self) -> Option<CardSource> {
        self.charge_source.as_deref().map(source_from_column)
    }
}

pub(crate) fn source_from_column(text: &str) -> CardSource {
    match text.strip_prefix("card:") {
        Some(card_id) => CardSource::SavedCard(card_id.into()),
        None => CardSource::Token(text.strip_prefix("token:").unwrap_or(text).into()),
    }
}

pub(crate) fn source_to_column(source: &CardSource) -> String {
    match source {
        CardSource::Token(token) => format!("token:{token}"),
        CardSource::SavedCard(card_id) => format!("card:{card_id}"),
    }
}

/// Parts of the shop's orders only: a type 21 period's order has no checkout, and its part,
/// recorded paid with the period's try, is the billing engine's (never charged, held or
/// declined here; its bank refunds come through `refunds::apply_bank_refund`).
const PART_COLUMNS: &str = "p.id AS payment_id, o.id AS order_id, o.code AS order_code,
    o.status AS order_status, o.station_id, o.user_id, o.checkout_id, p.method, p.amount,
    p.installments, p.status, p.gateway_charge_id AS charge_id, p.charge_source,
    p.billing_address, p.failure_reason, p.expires_at
    FROM payments p JOIN orders o ON o.id = p.order_id AND o.checkout_id IS NOT NULL";

/// The order's card or PIX part (its latest), if it has one.
pub async fn part_of_order(
    conn: &mut PgConnection,
    order_id: i64,
) -> sqlx::Result<Option<ChargePart>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PART_COLUMNS} WHERE o.id = $1 AND p.method <> 'wallet' ORDER BY p.id DESC LIMIT 1"
    )))
    .bind(order_id)
    .fetch_optional(conn)
    .await
}

pub async fn part_by_id(
    conn: &mut PgConnection,
    payment_id: i64,
) -> sqlx::Result<Option<ChargePart>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PART_COLUMNS} WHERE p.id = $1 AND p.method <> 'wallet'"
    )))
    .bind(payment_id)
    .fetch_optional(conn)
    .await
}

pub async fn part_by_charge(
    conn: &mut PgConnection,
    charge_id: &str,
) -> sqlx::Result<Option<ChargePart>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PART_COLUMNS} WHERE p.gateway_charge_id = $1"
    )))
    .bind(charge_id)
    .fetch_optional(conn)
    .await
}

/// Whether the caller is to read `charge_id` from the provider now: false when it was read
/// (and applied) less than `reuse_seconds` ago, and then what that read found stands. A
/// conditional update, so of several callers at once (API processes side by side) one
/// reads. A charge no part of ours has is read (it changes nothing).
pub async fn claim_charge_read(
    conn: &mut PgConnection,
    charge_id: &str,
    reuse_seconds: u64,
) -> sqlx::Result<bool> {
    let (known, claimed): (bool, bool) = sqlx::query_as(
        "WITH claimed AS (
             UPDATE payments SET charge_read_at = now()
              WHERE gateway_charge_id = $1
                AND (charge_read_at IS NULL
                     OR charge_read_at <= now() - make_interval(secs => $2::float8))
             RETURNING id)
         SELECT EXISTS (SELECT 1 FROM payments WHERE gateway_charge_id = $1),
                EXISTS (SELECT 1 FROM claimed)",
    )
    .bind(charge_id)
    .bind(reuse_seconds as f64)
    .fetch_one(conn)
    .await?;
    Ok(claimed || !known)
}

/// Keeps the card a card part is to be charged with, in the order's transaction, so a
/// retry or the recovery job repeats the same request. Cleared once a charge is recorded.
pub async fn keep_card_source(
    conn: &mut PgConnection,
    payment_id: i64,
    source: &CardSource,
    billing_address: Option<&BillingAddress>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE payments SET charge_source = $2, billing_address = $3
          WHERE id = $1 AND gateway_charge_id IS NULL AND charge_source IS NULL",
    )
    .bind(payment_id)
    .bind(source_to_column(source))
    .bind(billing_address.map(sqlx::types::Json))
    .execute(conn)
    .await?;
    Ok(())
}

/// The payer as the provider asks for it.
pub async fn customer(conn: &mut PgConnection, user_id: i64) -> sqlx::Result<Customer> {
    let (name, email, cpf, tel): (String, Option<String>, Option<String>, Option<String>) =
        sqlx::query_as("SELECT name, email, cpf, tel FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_one(conn)
            .await?;
    Ok(Customer {
        name,
        email: email.unwrap_or_default(),
        document: cpf.unwrap_or_default(),
        phone: tel
            .map(|t| t.chars().filter(char::is_ascii_digit).collect::<String>())
            .filter(|t| !t.is_empty()),
    })
}

/// A PIX charge recorded on its part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PixRecorded {
    pub payment_id: i64,
    pub station_id: i64,
    pub user_id: i64,
    pub checkout_id: i64,
    /// The charge's expiry (the `pix.expire` job's time).
    pub expires_at: DateTime<Utc>,
    /// The hold's new expiry (the release job's time); `None` when the hold was no longer
    /// live (the part had ended meanwhile: the charge should be cancelled).
    pub hold_until: Option<DateTime<Utc>>,
}

/// Records a PIX charge on its part (id, BR Code, expiry) and extends the hold to the
/// charge's expiry. A part that ended meanwhile still keeps the charge's id, so a payment
/// that lands on it anyway is recognised (the late-payment path).
pub async fn record_pix(
    conn: &mut PgConnection,
    part: &ChargePart,
    charge: &PixCharge,
) -> CommerceResult<PixRecorded> {
    sqlx::query("SELECT 1 FROM checkouts WHERE id = $1 FOR UPDATE")
        .bind(part.checkout_id)
        .execute(&mut *conn)
        .await?;
    let pending = sqlx::query(
        "UPDATE payments SET gateway_charge_id = $2, pix_qr_code = $3, expires_at = $4,
                gateway_status = $5
          WHERE id = $1 AND status = 'pending'
            AND (gateway_charge_id IS NULL OR gateway_charge_id = $2)",
    )
    .bind(part.payment_id)
    .bind(&charge.charge_id)
    .bind(&charge.br_code)
    .bind(charge.expires_at)
    .bind(charge.status.as_str())
    .execute(&mut *conn)
    .await?;
    let hold_until = if pending.rows_affected() == 1 {
        checkout::extend_hold(conn, part.checkout_id, charge.expires_at).await?
    } else {
        keep_charge_id(conn, part.payment_id, &charge.charge_id).await?;
        None
    };
    Ok(PixRecorded {
        payment_id: part.payment_id,
        station_id: part.station_id,
        user_id: part.user_id,
        checkout_id: part.checkout_id,
        expires_at: charge.expires_at,
        hold_until,
    })
}

async fn keep_charge_id(
    conn: &mut PgConnection,
    payment_id: i64,
    charge_id: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE payments SET gateway_charge_id = $2 WHERE id = $1 AND gateway_charge_id IS NULL",
    )
    .bind(payment_id)
    .bind(charge_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// What a charge's state did to its order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// This call confirmed the part; `order_paid` when the order became paid with it (the
    /// caller runs the after-payment hook then).
    Paid { order_id: i64, order_paid: bool },
    /// Recorded paid before: nothing changed.
    AlreadyPaid { order_id: i64 },
    /// The provider has not decided (pending PIX, processing card, underpaid).
    Waiting { order_id: i64 },
    /// The card was declined: the order is 'Pagamento recusado'.
    Declined { order_id: i64, reason: String },
    /// The charge was cancelled or ran out: the order is 'Pagamento expirado'.
    Expired { order_id: i64 },
    /// Money arrived for a part that had already ended (a PIX paid after its expiry).
    Late(LateSettlement),
    /// The provider gave money back (MED, chargeback, or our own refund read back):
    /// recorded on the part; the caller applies it with `refunds::apply_bank_refund`, which
    /// counts our own refunds as done and so reverses only what the bank started.
    RefundRecorded {
        order_id: i64,
        payment_id: i64,
        /// The charge's refunded total, as the provider reports it.
        refunded_cents: i64,
    },
    /// Nothing to do: the part had ended and nothing arrived, or the answer was already
    /// applied.
    Unchanged { order_id: i64 },
    /// No part of ours has this charge.
    UnknownCharge,
}

/// Applies a charge as the provider reports it (re-read, never a webhook's body) to the
/// part that has it, on the caller's transaction. Idempotent.
pub async fn apply_charge(conn: &mut PgConnection, charge: &Charge) -> CommerceResult<Applied> {
    let Some(part) = part_by_charge(conn, &charge.charge_id).await? else {
        return Ok(Applied::UnknownCharge);
    };
    let method_matches = matches!(
        (charge.method, part.method()),
        (PaymentMethod::Pix, Method::Pix) | (PaymentMethod::CreditCard, Method::CreditCard)
    );
    if !method_matches {
        return Ok(Applied::UnknownCharge);
    }
    let order_id = part.order_id;
    sqlx::query("UPDATE payments SET gateway_status = $2, charge_read_at = now() WHERE id = $1")
        .bind(part.payment_id)
        .bind(charge.status.as_str())
        .execute(&mut *conn)
        .await?;
    if charge.status.money_received() {
        if charge.paid_amount_cents < part.amount {
            return Ok(Applied::Waiting { order_id });
        }
        let paid = settle_paid(conn, &part).await?;
        if matches!(
            charge.status,
            ChargeStatus::Refunded | ChargeStatus::PartiallyRefunded | ChargeStatus::Chargedback
        ) {
            let refunded_cents = record_provider_refund(conn, &part, charge).await?;
            if !matches!(paid, Applied::Paid { .. } | Applied::Late(_)) {
                return Ok(Applied::RefundRecorded {
                    order_id,
                    payment_id: part.payment_id,
                    refunded_cents,
                });
            }
        }
        return Ok(paid);
    }
    match charge.status {
        ChargeStatus::Failed => {
            let reason = charge
                .failure_reason
                .clone()
                .unwrap_or_else(|| DECLINED_DEFAULT.to_string());
            decline(conn, &part, &reason).await
        }
        ChargeStatus::Canceled => end_unpaid_part(conn, &part, PartStatus::Cancelled).await,
        _ => Ok(if part.status == PartStatus::Pending {
            Applied::Waiting { order_id }
        } else {
            Applied::Unchanged { order_id }
        }),
    }
}

/// The money of this part arrived: confirm it, or, for a part that had ended, take the
/// late-payment path.
async fn settle_paid(conn: &mut PgConnection, part: &ChargePart) -> CommerceResult<Applied> {
    let order_id = part.order_id;
    match orders::confirm_payment(conn, part.payment_id).await? {
        Confirmation::Confirmed {
            order_id,
            order_paid,
        } => Ok(Applied::Paid {
            order_id,
            order_paid,
        }),
        Confirmation::AlreadyPaid { order_id } => Ok(Applied::AlreadyPaid { order_id }),
        Confirmation::NotPending { .. } => match late_payment(conn, part).await? {
            Some(late) => Ok(Applied::Late(late)),
            None => Ok(Applied::Unchanged { order_id }),
        },
        Confirmation::UnknownPayment => Ok(Applied::UnknownCharge),
    }
}

async fn record_provider_refund(
    conn: &mut PgConnection,
    part: &ChargePart,
    charge: &Charge,
) -> sqlx::Result<i64> {
    let refunded = if charge.status == ChargeStatus::Chargedback {
        charge.paid_amount_cents.max(charge.refunded_amount_cents)
    } else {
        charge.refunded_amount_cents
    };
    sqlx::query(
        "UPDATE payments
            SET gateway_refunded_cents = greatest(gateway_refunded_cents, $2),
                gateway_refunded_at = coalesce(gateway_refunded_at, now()),
                status = CASE WHEN status = 'paid' AND greatest(gateway_refunded_cents, $2) >= amount
                              THEN 'refunded' ELSE status END
          WHERE id = $1",
    )
    .bind(part.payment_id)
    .bind(refunded)
    .execute(conn)
    .await?;
    Ok(refunded)
}

/// A card declined: the part fails with the provider's reason, the order is 'Pagamento
/// recusado', the hold is given back and the wallet part returns to the wallet.
pub async fn decline(
    conn: &mut PgConnection,
    part: &ChargePart,
    reason: &str,
) -> CommerceResult<Applied> {
    sqlx::query("SELECT 1 FROM checkouts WHERE id = $1 FOR UPDATE")
        .bind(part.checkout_id)
        .execute(&mut *conn)
        .await?;
    let failed = sqlx::query(
        "UPDATE payments SET status = 'failed', failure_reason = $2, charge_source = NULL, billing_address = NULL
          WHERE id = $1 AND status = 'pending'",
    )
    .bind(part.payment_id)
    .bind(reason)
    .execute(&mut *conn)
    .await?;
    if failed.rows_affected() == 0 {
        return Ok(Applied::Unchanged {
            order_id: part.order_id,
        });
    }
    checkout::close_unpaid(conn, part.checkout_id, UnpaidEnd::Declined).await?;
    Ok(Applied::Declined {
        order_id: part.order_id,
        reason: reason.to_string(),
    })
}

/// A part that will not be paid (its PIX ran out, its charge was cancelled): the part
/// ends as `part_status`, the order is 'Pagamento expirado', the hold is given back.
/// Conditional on the part still pending: never overwrites a confirmation.
pub async fn end_unpaid_part(
    conn: &mut PgConnection,
    part: &ChargePart,
    part_status: PartStatus,
) -> CommerceResult<Applied> {
    sqlx::query("SELECT 1 FROM checkouts WHERE id = $1 FOR UPDATE")
        .bind(part.checkout_id)
        .execute(&mut *conn)
        .await?;
    let ended = sqlx::query(
        "UPDATE payments SET status = $2, charge_source = NULL, billing_address = NULL WHERE id = $1 AND status = 'pending'",
    )
    .bind(part.payment_id)
    .bind(part_status)
    .execute(&mut *conn)
    .await?;
    if ended.rows_affected() == 0 {
        return Ok(Applied::Unchanged {
            order_id: part.order_id,
        });
    }
    checkout::close_unpaid(conn, part.checkout_id, UnpaidEnd::Expired).await?;
    Ok(Applied::Expired {
        order_id: part.order_id,
    })
}

/// The card charge's first answer, recorded on its part.
pub async fn record_card(
    conn: &mut PgConnection,
    part: &ChargePart,
    charge: &CardCharge,
) -> CommerceResult<Applied> {
    keep_charge_id(conn, part.payment_id, &charge.charge_id).await?;
    sqlx::query(
        "UPDATE payments SET charge_source = NULL, billing_address = NULL, gateway_status = $2
          WHERE id = $1 AND gateway_charge_id = $3",
    )
    .bind(part.payment_id)
    .bind(charge.status.as_str())
    .bind(&charge.charge_id)
    .execute(&mut *conn)
    .await?;
    match charge.status {
        ChargeStatus::Paid => settle_paid(conn, part).await,
        ChargeStatus::Failed | ChargeStatus::Canceled => {
            let reason = charge
                .failure_reason
                .clone()
                .unwrap_or_else(|| DECLINED_DEFAULT.to_string());
            decline(conn, part, &reason).await
        }
        _ => Ok(Applied::Waiting {
            order_id: part.order_id,
        }),
    }
}

mod late;

pub use late::*;
