//! Charging an order's card or PIX part and applying what the provider says of a charge,
//! shared by the API (placing the order, "Verificar pagamento") and the jobs (the webhook's
//! sync, the PIX expiry, the recovery look). The gateway is always called outside any open
//! transaction; each answer is then recorded in one transaction with the effects it needs
//! (the PIX expiry, the hold's release at its new expiry, the after-payment hook, the
//! late-payment e-mail).

use chrono::{Duration, Utc};
use sqlx::PgPool;

use domain::accounts::change::Mail;
use domain::commerce::gateway::{
    BillingAddress, CardSource, GatewayError, PaymentGateway, WebhookEvent,
};
use domain::commerce::orders::{self, Method, PlaceOrder, Placed};
use domain::commerce::payment::{self, Applied, ChargePart};
use domain::commerce::status::PartStatus;
use domain::commerce::{CommerceError, checkout};
use domain::shared::failure::{Failure, IntoFailure};
use domain::shared::ids::{OrderId, StationId, UserId};
use payments::{Gateway, record_event};

use super::after_paid;
use crate::outbox::Outbox;

/// The member's reason when a card cannot be used at all (unknown or expired token).
pub const CARD_REFUSED: &str =
    "Não foi possível usar este cartão. Confira os dados ou use outro cartão.";

/// The member's reason when an order with a card part comes without a card.
pub const CARD_REQUIRED: &str = "Informe os dados do cartão.";

/// How a card part with no recorded charge is looked at again after a crash.
pub const RECOVERY_SECONDS: i64 = 120;

#[derive(Debug, thiserror::Error)]
pub enum ChargeError {
    /// The provider is unreachable or failed: safe to retry (same idempotency key).
    #[error("payment provider: {0}")]
    Gateway(#[from] GatewayError),
    #[error(transparent)]
    Commerce(#[from] CommerceError),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    /// A refund the bank started could not be undone here (a ledger or database failure).
    #[error("bank refund: {0}")]
    BankRefund(#[from] domain::commerce::refunds::RefundError),
    /// The order has a card part and no card was given.
    #[error("a card part without a card")]
    NoCard,
    /// A top-up's charge could not be applied.
    #[error(transparent)]
    TopUp(#[from] domain::wallet::topups::TopUpError),
}

impl From<crate::subscriptions::billing::BillingError> for ChargeError {
    fn from(err: crate::subscriptions::billing::BillingError) -> Self {
        use crate::subscriptions::billing::BillingError;
        match err {
            BillingError::Gateway(err) => Self::Gateway(err),
            BillingError::Db(err) => Self::Db(err),
            BillingError::Refund(err) => Self::BankRefund(err),
        }
    }
}

/// The commerce refusals and a missing card are the member's to fix; the provider's or the
/// database's failures are internal (the charge is safe to retry).
impl IntoFailure for ChargeError {
    fn into_failure(self) -> Failure {
        match self {
            Self::Commerce(err) => err.into_failure(),
            Self::NoCard => Failure::invalid(CARD_REQUIRED),
            Self::TopUp(err) => err.into_failure(),
            other => Failure::Internal(other.into()),
        }
    }
}

/// The card an order is to be charged with.
#[derive(Debug, Clone)]
pub struct CardToCharge {
    pub source: CardSource,
    /// A new card's (providers do not tokenise it); a saved card has its own.
    pub billing_address: Option<BillingAddress>,
}

/// Places the order of the member's hold and charges its card or PIX part. The order, its
/// confirmation job when the wallet paid it all, the card to charge and the recovery job
/// go on one transaction; the gateway is asked after it, outside any transaction. The
/// part's id is the idempotency key, so a repeated call (or the recovery job) after a
/// crash in between never charges twice.
pub async fn place_and_charge(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    station_id: StationId,
    user_id: UserId,
    order: &PlaceOrder,
    card: Option<&CardToCharge>,
) -> Result<(Placed, Charged), ChargeError> {
    let mut tx = db.begin().await?;
    let placed = orders::place(&mut tx, station_id, user_id, order).await?;
    if placed.created {
        if placed.paid {
            after_paid(outbox, &mut tx, placed.order_id).await?;
        }
        if let Some(part) = payment::part_of_order(&mut tx, placed.order_id).await? {
            if part.method() == Method::CreditCard {
                let card = card.ok_or(ChargeError::NoCard)?;
                payment::keep_card_source(
                    &mut tx,
                    part.payment_id,
                    &card.source,
                    card.billing_address.as_ref(),
                )
                .await?;
            }
            schedule_recovery(outbox, &mut tx, &part).await?;
        }
    }
    tx.commit().await?;
    let charged = charge_order(db, gateway, outbox, placed.order_id).await?;
    Ok((placed, charged))
}

/// The order the member's hold (`checkout_id`, else their latest) already has: a repeated
/// order call, which [`place_and_charge`] answers with it.
pub async fn placed_order(
    db: &PgPool,
    user_id: UserId,
    checkout_id: Option<i64>,
) -> sqlx::Result<Option<i64>> {
    let mut conn = db.acquire().await?;
    let hold = match checkout_id {
        Some(checkout_id) => checkout::of_member(&mut conn, user_id.0, checkout_id).await?,
        None => checkout::latest(&mut conn, user_id.0).await?,
    };
    Ok(hold.and_then(|hold| hold.order_id))
}

/// What charging an order's part came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Charged {
    /// Nothing to charge (no card or PIX part, or it was charged before).
    Nothing,
    /// A PIX code to pay, or a card still processing.
    Waiting,
    Paid,
    /// The card was declined, with the reason the member reads.
    Declined(String),
}

/// "Verificar pagamento": the order's pending part read again at the provider (the
/// webhook may be late), or charged now if a crash left it uncharged. A charge read less
/// than `reuse_seconds` ago (by a check, the webhook's job or the expiry) is not read again:
/// what that read found stands. Anything else about the order is left as it is.
pub async fn check_order(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    public_url: &str,
    order_id: OrderId,
    reuse_seconds: u64,
) -> Result<(), ChargeError> {
    let mut conn = db.acquire().await?;
    let part = payment::part_of_order(&mut conn, order_id.0).await?;
    let Some(part) = part.filter(|part| part.status == PartStatus::Pending) else {
        return Ok(());
    };
    match &part.charge_id {
        Some(charge_id) => {
            let read = payment::claim_charge_read(&mut conn, charge_id, reuse_seconds).await?;
            drop(conn);
            if read {
                sync_charge(db, gateway, outbox, public_url, charge_id).await?;
            }
        }
        None => {
            drop(conn);
            charge_order(db, gateway, outbox, order_id.0).await?;
        }
    }
    Ok(())
}

/// Charges the order's pending card or PIX part with the part's id as idempotency key,
/// then records the answer. A part charged before is not charged again; a repeated call
/// after a crash repeats the same request, which the provider answers with the same charge.
pub async fn charge_order(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    order_id: i64,
) -> Result<Charged, ChargeError> {
    let mut conn = db.acquire().await?;
    let Some(part) = payment::part_of_order(&mut conn, order_id).await? else {
        return Ok(Charged::Nothing);
    };
    match part.status {
        PartStatus::Failed => {
            return Ok(Charged::Declined(
                part.failure_reason
                    .clone()
                    .unwrap_or_else(|| payment::DECLINED_DEFAULT.into()),
            ));
        }
        PartStatus::Pending => {}
        PartStatus::Paid => return Ok(Charged::Paid),
        _ => return Ok(Charged::Nothing),
    }
    if part.charge_id.is_some() {
        return Ok(Charged::Waiting);
    }
    let customer = payment::customer(&mut conn, part.user_id).await?;
    drop(conn);
    match part.method() {
        Method::Pix => {
            let charge = gateway
                .create_pix_charge(&part.pix_request(customer))
                .await?;
            let mut tx = db.begin().await?;
            let recorded = payment::record_pix(&mut tx, &part, &charge).await?;
            if let Some(hold_until) = recorded.hold_until {
                outbox.expire_pix(&mut tx, &part, charge.expires_at).await?;
                outbox
                    .release_hold(
                        &mut tx,
                        part.station_id,
                        part.user_id,
                        part.checkout_id,
                        hold_until,
                    )
                    .await?;
            }
            tx.commit().await?;
            if recorded.hold_until.is_none() {
                // The order ended while the charge was being made: nobody will pay it.
                gateway
                    .cancel_charge(
                        &charge.charge_id,
                        &format!("cancel:{}", part.idempotency_key()),
                    )
                    .await?;
            }
            Ok(Charged::Waiting)
        }
        Method::CreditCard => {
            let Some(source) = part.card_source() else {
                return Ok(Charged::Waiting);
            };
            let answer = gateway
                .create_card_charge(&part.card_request(customer, source))
                .await;
            let mut tx = db.begin().await?;
            let applied = match answer {
                Ok(charge) => payment::record_card(&mut tx, &part, &charge).await?,
                Err(GatewayError::Rejected(_)) => {
                    payment::decline(&mut tx, &part, CARD_REFUSED).await?
                }
                Err(other) => return Err(other.into()),
            };
            let charged = follow_up(outbox, &mut tx, &applied, "").await?;
            tx.commit().await?;
            Ok(charged)
        }
    }
}

/// Runs what an applied answer needs on its transaction (the after-payment hook, the late
/// payment's e-mail) and says what it came to.
async fn follow_up(
    outbox: &impl Outbox,
    tx: &mut sqlx::PgConnection,
    applied: &Applied,
    public_url: &str,
) -> Result<Charged, ChargeError> {
    Ok(match applied {
        Applied::Paid {
            order_id,
            order_paid,
        } => {
            if *order_paid {
                after_paid(outbox, tx, *order_id).await?;
            }
            Charged::Paid
        }
        Applied::AlreadyPaid { .. } => Charged::Paid,
        Applied::Declined { reason, .. } => Charged::Declined(reason.clone()),
        Applied::Late(late) => {
            if late.completed {
                after_paid(outbox, tx, late.order_id).await?;
            }
            if let Some(mail) = payment::late_payment_mail(tx, late, public_url).await? {
                let mail = Mail {
                    mail,
                    station_id: late.station_id,
                    user_id: Some(late.user_id),
                    about: ("order", late.order_id),
                };
                let key = format!("late-payment:{}", late.order_id);
                crate::mail::send_once(outbox, tx, mail, key).await?;
            }
            if late.completed {
                Charged::Paid
            } else {
                Charged::Nothing
            }
        }
        Applied::Waiting { .. } => Charged::Waiting,
        Applied::RefundRecorded {
            payment_id,
            refunded_cents,
            ..
        } => {
            // Money the bank gave back on its own is undone like a staff refund: per line,
            // the cashback, the coupon use and the stock.
            super::refunds::apply_bank_refund(outbox, tx, *payment_id, *refunded_cents).await?;
            Charged::Nothing
        }
        _ => Charged::Nothing,
    })
}

/// Re-reads a charge from the provider and applies it (the webhook's job, the member's
/// check, the PIX expiry when the payment landed), then sends any late-payment refund the
/// order still owes. An unknown charge changes nothing.
pub async fn sync_charge(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    public_url: &str,
    charge_id: &str,
) -> Result<Applied, ChargeError> {
    if is_topup(db, charge_id).await? {
        // A wallet top-up's charge: its own use case applies it; no order has it.
        crate::wallet::topups::sync_charge(db, gateway, outbox, public_url, charge_id).await?;
        return Ok(Applied::UnknownCharge);
    }
    if is_subscriptions(db, charge_id).await? {
        // A subscription's try: the billing engine applies it; no order has it.
        crate::subscriptions::billing::sync_attempt(db, gateway, outbox, charge_id).await?;
        return Ok(Applied::UnknownCharge);
    }
    let charge = match gateway.get_charge(charge_id).await {
        Ok(charge) => charge,
        Err(GatewayError::NotFound) => return Ok(Applied::UnknownCharge),
        Err(other) => return Err(other.into()),
    };
    let mut tx = db.begin().await?;
    let applied = payment::apply_charge(&mut tx, &charge).await?;
    follow_up(outbox, &mut tx, &applied, public_url).await?;
    tx.commit().await?;
    send_late_refunds(db, gateway, charge_id).await?;
    Ok(applied)
}

/// Whether a charge is a wallet top-up's.
async fn is_topup(db: &PgPool, charge_id: &str) -> sqlx::Result<bool> {
    let mut conn = db.acquire().await?;
    domain::wallet::topups::is_topup_charge(&mut conn, charge_id).await
}

/// Whether a charge no order part has is one of the subscriptions' tries.
async fn is_subscriptions(db: &PgPool, charge_id: &str) -> sqlx::Result<bool> {
    let mut conn = db.acquire().await?;
    if payment::part_by_charge(&mut conn, charge_id)
        .await?
        .is_some()
    {
        return Ok(false);
    }
    domain::subscriptions::billing::is_subscription_charge(&mut conn, charge_id).await
}

/// Sends the refunds a late payment recorded on this charge's order and not yet sent, each
/// under its own idempotency key, and records the provider's answer.
async fn send_late_refunds(
    db: &PgPool,
    gateway: &Gateway,
    charge_id: &str,
) -> Result<(), ChargeError> {
    let mut conn = db.acquire().await?;
    let Some(part) = payment::part_by_charge(&mut conn, charge_id).await? else {
        return Ok(());
    };
    let unsent = payment::unsent_late_refunds(&mut conn, part.order_id).await?;
    drop(conn);
    for (refund_id, amount) in unsent {
        let refund = gateway
            .refund(charge_id, Some(amount), &format!("refund:{refund_id}"))
            .await?;
        let mut conn = db.acquire().await?;
        payment::refund_sent(
            &mut conn,
            refund_id,
            refund.status != domain::commerce::gateway::RefundStatus::Failed,
        )
        .await?;
    }
    Ok(())
}

/// The PIX expiry's work: the provider first (the payment may have just landed: it is
/// confirmed), else the charge is cancelled and the order, its part and its hold expire
/// with conditional updates that never overwrite a confirmation.
pub async fn expire_pix(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    public_url: &str,
    payment_id: i64,
) -> Result<Applied, ChargeError> {
    let mut conn = db.acquire().await?;
    let Some(part) = payment::part_by_id(&mut conn, payment_id).await? else {
        return Ok(Applied::UnknownCharge);
    };
    drop(conn);
    if part.status != PartStatus::Pending {
        return Ok(Applied::Unchanged {
            order_id: part.order_id,
        });
    }
    if part
        .expires_at
        .is_some_and(|at| at > Utc::now() + Duration::seconds(1))
    {
        // Extended since this job was scheduled: the later one decides.
        return Ok(Applied::Waiting {
            order_id: part.order_id,
        });
    }
    if let Some(charge_id) = &part.charge_id {
        let charge = gateway.get_charge(charge_id).await?;
        let charge = if charge.status.money_received() {
            charge
        } else {
            gateway
                .cancel_charge(charge_id, &format!("expire:{}", part.idempotency_key()))
                .await?
        };
        if charge.status.money_received() {
            return sync_charge(db, gateway, outbox, public_url, charge_id).await;
        }
    }
    let mut tx = db.begin().await?;
    let applied = payment::end_unpaid_part(&mut tx, &part, PartStatus::Expired).await?;
    tx.commit().await?;
    Ok(applied)
}

/// A part whose charge was never recorded (a crash between the order's commit and the
/// gateway's answer): a card is charged with the same request (the provider answers the
/// first charge if it was made); a recorded charge is re-read. A PIX without a code was
/// never shown to anyone: the hold's release ends it.
pub async fn recover_part(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    public_url: &str,
    payment_id: i64,
) -> Result<Option<Applied>, ChargeError> {
    let mut conn = db.acquire().await?;
    let part: Option<ChargePart> = payment::part_by_id(&mut conn, payment_id).await?;
    drop(conn);
    let Some(part) = part.filter(|p| p.status == PartStatus::Pending) else {
        return Ok(None);
    };
    match (&part.charge_id, part.method()) {
        (Some(charge_id), _) => Ok(Some(
            sync_charge(db, gateway, outbox, public_url, charge_id).await?,
        )),
        (None, Method::CreditCard) => {
            charge_order(db, gateway, outbox, part.order_id).await?;
            Ok(None)
        }
        (None, Method::Pix) => Ok(None),
    }
}

/// A verified webhook event, recorded once with the `payment.sync` of the charge it names
/// (a webhook's body is never trusted: the charge is read again at the provider). `false`
/// when the event was seen before.
pub async fn receive_event(
    db: &PgPool,
    outbox: &impl Outbox,
    event: &WebhookEvent,
) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let new = record_event(&mut tx, event, Utc::now()).await?;
    if new && let Some(charge_id) = &event.charge_id {
        outbox.sync_payment(&mut tx, charge_id).await?;
    }
    tx.commit().await?;
    Ok(new)
}

/// Schedules the recovery look at a part, on the transaction that placed its order.
pub async fn schedule_recovery(
    outbox: &impl Outbox,
    tx: &mut sqlx::PgConnection,
    part: &ChargePart,
) -> sqlx::Result<()> {
    let at = Utc::now() + Duration::seconds(RECOVERY_SECONDS);
    outbox.recover_payment(tx, part, at).await?;
    Ok(())
}
