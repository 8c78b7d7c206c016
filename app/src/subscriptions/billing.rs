//! The billing engine's use cases: charging a period exactly once, applying what the
//! provider later says of a try (the webhook's sync), trying a declined renewal again now,
//! and the dispatcher that makes renewals and queues their charges.
//!
//! A charge is two transactions around the provider's call: the first locks the period and
//! opens (or finds) its try, whose id is the idempotency key; the provider is called with
//! no transaction open; the second applies the answer (`domain::subscriptions::billing`).
//! A worker killed between them, or a provider that timed out, leaves the try `started`:
//! the next run calls the provider again with the same key and gets the same charge.

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgConnection, PgPool};

use domain::commerce::card_reminders;
use domain::commerce::gateway::Charge;
use domain::commerce::gateway::{
    CardChargeRequest, CardSource, ChargeStatus, GatewayError, PaymentGateway, PixChargeRequest,
    RefundStatus,
};
use domain::commerce::payment;
use domain::commerce::refunds::RefundError;
use domain::shared::failure::{Failure, IntoFailure};
use domain::subscriptions::billing::{
    self, Answer, Attempt, Billable, DueCharge, LEASE_MINUTES, Next, Notice, OpenCharge, TakeBack,
};
use domain::subscriptions::{AttemptStatus, BillingMethod, dispatch, mail};

use crate::outbox::Outbox;

pub use domain::subscriptions::billing::PeriodOutcome;

/// The provider's or the database's failure: the charge is safe to run again (the same
/// try, the same idempotency key).
#[derive(Debug, thiserror::Error)]
pub enum BillingError {
    #[error("payment provider: {0}")]
    Gateway(#[from] GatewayError),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    /// Undoing a taken-back period's order (the shop's bank-refund path).
    #[error(transparent)]
    Refund(RefundError),
}

impl From<RefundError> for BillingError {
    fn from(err: RefundError) -> Self {
        match err {
            RefundError::Db(err) => Self::Db(err),
            other => Self::Refund(other),
        }
    }
}

impl IntoFailure for BillingError {
    fn into_failure(self) -> Failure {
        Failure::Internal(self.into())
    }
}

/// Charges a period once: paid, declined (with the provider's reason), processing, a PIX
/// waiting, or nothing to do. See the module's notes for how a retry never charges twice.
pub async fn charge_period<G: PaymentGateway, O: Outbox>(
    db: &PgPool,
    gateway: &G,
    outbox: &O,
    period_id: i64,
) -> Result<PeriodOutcome, BillingError> {
    charge_try(db, gateway, outbox, period_id, None).await
}

/// [`charge_period`] for a job queued for try `expected`: a period whose try `expected`
/// was already made (the queue fell behind it) is not charged again.
pub async fn charge_try<G: PaymentGateway, O: Outbox>(
    db: &PgPool,
    gateway: &G,
    outbox: &O,
    period_id: i64,
    expected: Option<i32>,
) -> Result<PeriodOutcome, BillingError> {
    let now = gateway.now().await?;
    let mut tx = db.begin().await?;
    let Some(period) = billing::lock(&mut tx, period_id).await? else {
        return Ok(PeriodOutcome::NotDue);
    };
    let attempt = match billing::next_step(&mut tx, &period, expected, now).await? {
        Next::Done(outcome) => {
            let owed = billing::refunds_owed(&mut tx, period.period_id).await?;
            tx.commit().await?;
            for charge in owed {
                give_back(db, gateway, &charge).await?;
            }
            return Ok(outcome);
        }
        Next::PayFree => {
            let (outcome, notice) = billing::settle_paid(&mut tx, &period, now).await?;
            notify(outbox, &mut tx, notice.as_ref(), &period, None).await?;
            tx.commit().await?;
            return Ok(outcome);
        }
        Next::Resume(attempt) => {
            let lease = now + Duration::minutes(LEASE_MINUTES);
            let until = match attempt.expires_at {
                Some(expires_at) if attempt.status == AttemptStatus::Pending => {
                    expires_at.max(lease)
                }
                _ => lease,
            };
            billing::lease(&mut tx, period.period_id, until).await?;
            *attempt
        }
        Next::Open => billing::open_attempt_now(&mut tx, &period, gateway.provider(), now).await?,
    };
    tx.commit().await?;

    if let (AttemptStatus::Pending | AttemptStatus::Processing, Some(charge_id)) =
        (attempt.status, attempt.gateway_charge_id.clone())
    {
        return sync_known(db, gateway, outbox, &attempt, &charge_id).await;
    }
    let (charge_id, answer) = call_provider(db, gateway, &period, &attempt).await?;
    record(
        db,
        gateway,
        outbox,
        attempt.id,
        charge_id.as_deref(),
        answer,
        None,
        now,
    )
    .await
}

/// Asks the provider for the try's charge (the same request, with the same key, however
/// often it is repeated). A refusal of the request itself (an unknown card) is a failed
/// try; a provider unreachable is an error, and the try stays open.
async fn call_provider<G: PaymentGateway>(
    db: &PgPool,
    gateway: &G,
    period: &Billable,
    attempt: &Attempt,
) -> Result<(Option<String>, Answer), BillingError> {
    let mut conn = db.acquire().await?;
    let customer = payment::customer(&mut conn, period.user_id).await?;
    drop(conn);
    let reference = format!("ASSINATURA-{}", period.period_id);
    match attempt.method {
        BillingMethod::Card => {
            let Some(card) = attempt.gateway_card_id.clone() else {
                return Ok((None, Answer::Failed(billing::NO_CARD.into())));
            };
            let request = CardChargeRequest {
                amount_cents: attempt.amount,
                installments: 1,
                source: CardSource::SavedCard(card),
                billing_address: None,
                reference,
                idempotency_key: attempt.idempotency_key.clone(),
                customer,
            };
            match gateway.create_card_charge(&request).await {
                Ok(charge) => {
                    let answer =
                        answer_of(BillingMethod::Card, charge.status, charge.failure_reason);
                    Ok((Some(charge.charge_id), answer))
                }
                Err(GatewayError::Rejected(_)) => {
                    Ok((None, Answer::Failed(billing::CARD_REFUSED.into())))
                }
                Err(other) => Err(other.into()),
            }
        }
        BillingMethod::Pix => {
            // Counted from fixed points (the period's start, the try's creation), so a
            // resumed try repeats the first call's request exactly.
            let seconds = (dispatch::pix_expiry(period.starts_at, attempt.created_at)
                - attempt.created_at)
                .num_seconds()
                .max(dispatch::PIX_MIN_SECONDS);
            let request = PixChargeRequest {
                amount_cents: attempt.amount,
                expires_in_seconds: u32::try_from(seconds).unwrap_or(u32::MAX),
                reference,
                idempotency_key: attempt.idempotency_key.clone(),
                customer,
            };
            let charge = gateway.create_pix_charge(&request).await?;
            let answer = match charge.status {
                ChargeStatus::Pending => Answer::Pending {
                    br_code: charge.br_code,
                    expires_at: charge.expires_at,
                },
                other => answer_of(BillingMethod::Pix, other, None),
            };
            Ok((Some(charge.charge_id), answer))
        }
    }
}

/// A provider's status in our words (a card or a PIX read back). A charge refunded or
/// charged back was paid first: it pays its period, and what was taken back is undone
/// after (`taken_back`, [`billing::take_back`]).
fn answer_of(method: BillingMethod, status: ChargeStatus, reason: Option<String>) -> Answer {
    match status {
        ChargeStatus::Paid
        | ChargeStatus::Refunded
        | ChargeStatus::PartiallyRefunded
        | ChargeStatus::Chargedback => Answer::Paid,
        ChargeStatus::Processing | ChargeStatus::Pending => Answer::Processing,
        ChargeStatus::Failed => {
            Answer::Failed(reason.unwrap_or_else(|| billing::DECLINED_DEFAULT.into()))
        }
        ChargeStatus::Canceled => Answer::Failed(reason.unwrap_or_else(|| {
            match method {
                BillingMethod::Pix => billing::PIX_EXPIRED,
                BillingMethod::Card => billing::DECLINED_DEFAULT,
            }
            .into()
        })),
    }
}

/// Applies an answer in its own transaction, with the member's e-mail, and what the
/// provider reports taken back of the charge (`take_back`: the period's order refunded the
/// shop's way, the subscription ended); then, with no transaction open, cancels the charges
/// that no longer pay anything, and gives back money that pays nothing.
#[allow(clippy::too_many_arguments)]
async fn record<G: PaymentGateway, O: Outbox>(
    db: &PgPool,
    gateway: &G,
    outbox: &O,
    attempt_id: i64,
    charge_id: Option<&str>,
    answer: Answer,
    take_back: Option<TakeBack>,
    now: DateTime<Utc>,
) -> Result<PeriodOutcome, BillingError> {
    let mut tx = db.begin().await?;
    let mut applied = billing::apply(&mut tx, attempt_id, charge_id, answer, now).await?;
    notify(
        outbox,
        &mut tx,
        applied.notice.as_ref(),
        &applied.period,
        applied.attempt,
    )
    .await?;
    if let Some(take) = take_back
        && let Some(taken) = billing::take_back(&mut tx, attempt_id, take, now).await?
    {
        if let Some(payment_id) = taken.payment_id {
            crate::commerce::refunds::apply_bank_refund(
                outbox,
                &mut tx,
                payment_id,
                taken.refunded_cents,
            )
            .await?;
        }
        notify(
            outbox,
            &mut tx,
            taken.notice.as_ref(),
            &applied.period,
            applied.attempt,
        )
        .await?;
        applied.cancel.extend(taken.cancel);
    }
    tx.commit().await?;
    for charge in &applied.cancel {
        // Best effort: a charge paid anyway later is given back by its own sync.
        if let Err(err) = gateway
            .cancel_charge(
                &charge.gateway_charge_id,
                &format!("cancel:{}", charge.idempotency_key),
            )
            .await
        {
            tracing::warn!(attempt_id = charge.attempt_id, error = %err, "a subscription try's charge could not be cancelled");
        }
    }
    if let Some(charge) = &applied.refund {
        give_back(db, gateway, charge).await?;
    }
    Ok(applied.outcome)
}

/// Refunds a try's whole charge (keyed by the try, so a repeat is the same refund) and
/// records it; a failure is an error, and the try stays owed for the next run.
async fn give_back<G: PaymentGateway>(
    db: &PgPool,
    gateway: &G,
    charge: &OpenCharge,
) -> Result<(), BillingError> {
    let refund = gateway
        .refund(
            &charge.gateway_charge_id,
            None,
            &format!("refund:{}", charge.idempotency_key),
        )
        .await?;
    if refund.status == RefundStatus::Failed {
        return Err(GatewayError::Rejected(format!(
            "refund {} of a subscription try failed",
            refund.refund_id
        ))
        .into());
    }
    let mut conn = db.acquire().await?;
    billing::refunded(&mut conn, charge.attempt_id).await?;
    Ok(())
}

async fn notify<O: Outbox>(
    outbox: &O,
    tx: &mut PgConnection,
    notice: Option<&Notice>,
    period: &Billable,
    attempt: Option<i32>,
) -> sqlx::Result<()> {
    let Some(notice) = notice else {
        return Ok(());
    };
    if let Notice::OrderMade { order_id } = notice {
        outbox
            .confirm_order(tx, period.station_id, period.user_id, *order_id)
            .await?;
        return Ok(());
    }
    if let Some((mail, key)) = mail::render(tx, notice, period, attempt).await? {
        crate::mail::send_once(outbox, tx, mail, key).await?;
    }
    Ok(())
}

/// What the provider says now of a try it has an id for (a webhook named it, or a resumed
/// try): applied like the charge's own answer. A PIX past its expiry is cancelled at the
/// provider first (a payment that just landed wins) and counts as a failed try.
async fn sync_known<G: PaymentGateway, O: Outbox>(
    db: &PgPool,
    gateway: &G,
    outbox: &O,
    attempt: &Attempt,
    charge_id: &str,
) -> Result<PeriodOutcome, BillingError> {
    let now = gateway.now().await?;
    let mut charge = gateway.get_charge(charge_id).await?;
    let expired = attempt.expires_at.is_some_and(|at| at <= now);
    if charge.status == ChargeStatus::Pending && expired {
        charge = gateway
            .cancel_charge(charge_id, &format!("cancel:{}", attempt.idempotency_key))
            .await?;
    }
    // Less than the try's amount is not a payment of it (a payer who typed another amount).
    let short = charge.status.money_received() && charge.paid_amount_cents < attempt.amount;
    let answer = match charge.status {
        _ if short => Answer::Processing,
        ChargeStatus::Pending => match (&attempt.pix_qr_code, attempt.expires_at) {
            (Some(br_code), Some(expires_at)) => Answer::Pending {
                br_code: br_code.clone(),
                expires_at,
            },
            _ => Answer::Processing,
        },
        other => answer_of(attempt.method, other, charge.failure_reason.clone()),
    };
    record(
        db,
        gateway,
        outbox,
        attempt.id,
        Some(charge_id),
        answer,
        taken_back(&charge),
        now,
    )
    .await
}

/// What a charge read back says the provider gave back of it: refunds (ours of money that
/// paid nothing, the bank's, staff's at the provider) or a chargeback, which takes the
/// whole charge. `None` when nothing was.
fn taken_back(charge: &Charge) -> Option<TakeBack> {
    match charge.status {
        ChargeStatus::Chargedback => Some(TakeBack {
            refunded_cents: charge.paid_amount_cents.max(charge.refunded_amount_cents),
            chargeback: true,
        }),
        ChargeStatus::Refunded | ChargeStatus::PartiallyRefunded => Some(TakeBack {
            refunded_cents: charge.refunded_amount_cents,
            chargeback: false,
        }),
        _ => None,
    }
}

/// The webhook's sync of a charge that is one of the subscriptions' tries: read again at
/// the provider and applied. `None` when no try has this charge (an order's, or unknown).
pub async fn sync_attempt<G: PaymentGateway, O: Outbox>(
    db: &PgPool,
    gateway: &G,
    outbox: &O,
    charge_id: &str,
) -> Result<Option<PeriodOutcome>, BillingError> {
    let mut conn = db.acquire().await?;
    let attempt = billing::attempt_by_charge(&mut conn, charge_id).await?;
    drop(conn);
    let Some(attempt) = attempt else {
        return Ok(None);
    };
    Ok(Some(
        sync_known(db, gateway, outbox, &attempt, charge_id).await?,
    ))
}

/// Tries the subscription's unpaid renewal again now (the member changed the card, staff
/// asked for it): its charge is queued at once. `false` when nothing is due, or a try is
/// already at the provider (its answer decides).
pub async fn retry_now<G: PaymentGateway, O: Outbox>(
    db: &PgPool,
    gateway: &G,
    outbox: &O,
    subscription_id: i64,
) -> Result<bool, BillingError> {
    let now = gateway.now().await?;
    let mut tx = db.begin().await?;
    let Some(period) = billing::lock_due_period(&mut tx, subscription_id).await? else {
        return Ok(false);
    };
    if billing::open_attempt(&mut tx, period.period_id)
        .await?
        .is_some()
    {
        return Ok(false);
    }
    billing::lease(
        &mut tx,
        period.period_id,
        now + Duration::minutes(LEASE_MINUTES),
    )
    .await?;
    outbox
        .charge_subscription_period(
            &mut tx,
            &DueCharge {
                station_id: period.station_id,
                user_id: period.user_id,
                subscription_id: period.subscription_id,
                period_id: period.period_id,
                attempt: period.attempts + 1,
                due_at: now,
            },
        )
        .await?;
    tx.commit().await?;
    Ok(true)
}

/// What one dispatch did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dispatched {
    pub renewed: dispatch::Renewed,
    /// Charges queued (each a period's try that fell due).
    pub queued: usize,
}

/// The dispatcher's work at `now`: period ends in batches of `batch` (each its own
/// transaction: cancellations, downgrades, next periods), each followed by a batch of the
/// due periods' charges, queued through the outbox in the transaction that leases them, so
/// the fleet starts charging while the rest of the periods are still being made. Two
/// dispatchers at once split the rows (`SKIP LOCKED`); a period is made once and a due
/// moment queued once.
pub async fn dispatch<O: Outbox>(
    db: &PgPool,
    outbox: &O,
    now: DateTime<Utc>,
    batch: i64,
) -> sqlx::Result<Dispatched> {
    let full = |rows: usize| i64::try_from(rows).unwrap_or(i64::MAX) >= batch;
    let mut done = Dispatched::default();
    let (mut renewing, mut queuing) = (true, true);
    while renewing || queuing {
        if renewing {
            let mut tx = db.begin().await?;
            let renewed = dispatch::renew_batch(&mut tx, now, batch).await?;
            tx.commit().await?;
            done.renewed.seen += renewed.seen;
            done.renewed.created += renewed.created;
            done.renewed.canceled += renewed.canceled;
            done.renewed.downgraded += renewed.downgraded;
            renewing = full(renewed.seen);
        }
        let mut tx = db.begin().await?;
        let due = dispatch::due_batch(&mut tx, now, batch).await?;
        for charge in &due {
            outbox.charge_subscription_period(&mut tx, charge).await?;
        }
        tx.commit().await?;
        done.queued += due.len();
        // A short batch while periods are still being made only means they are not yet due.
        queuing = renewing || full(due.len());
    }
    Ok(done)
}

/// Gives back the money of tries owed back for more than a quarter of an hour (the run
/// that owed it failed to: see `billing::refunds_left_owed`), each under its own refund key,
/// so a repeat is the same refund. Answers how many were given back; one the provider
/// still refuses stays owed for the next sweep.
pub async fn give_back_owed<G: PaymentGateway>(
    db: &PgPool,
    gateway: &G,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<usize> {
    let mut conn = db.acquire().await?;
    let owed = billing::refunds_left_owed(&mut conn, now - Duration::minutes(15), limit).await?;
    drop(conn);
    let mut given = 0;
    for charge in &owed {
        match give_back(db, gateway, charge).await {
            Ok(()) => given += 1,
            Err(error) => {
                tracing::warn!(attempt_id = charge.attempt_id, %error, "a subscription try owed back is still not refunded");
            }
        }
    }
    Ok(given)
}

/// E-mails the members whose saved card expires before the renewal it pays, once per
/// card and expiry. Answers how many reminders were queued (or found queued before).
pub async fn remind_expiring_cards<O: Outbox>(
    db: &PgPool,
    outbox: &O,
    now: DateTime<Utc>,
    batch: i64,
) -> sqlx::Result<usize> {
    let mut after = 0;
    let mut reminded = 0;
    loop {
        let mut tx = db.begin().await?;
        let cards = dispatch::expiring_cards(&mut tx, now, after, batch).await?;
        for card in &cards {
            // One e-mail per card and expiry, shared with the monthly reminder of every card.
            if !card_reminders::claim(&mut tx, card.card_id, card.exp_year, card.exp_month).await? {
                continue;
            }
            if let Some(mail) = mail::card_expiring(&mut tx, card).await? {
                crate::mail::send_once(outbox, &mut tx, mail, card.once_key()).await?;
                reminded += 1;
            }
        }
        tx.commit().await?;
        match cards.last() {
            Some(last) if i64::try_from(cards.len()).unwrap_or(i64::MAX) >= batch => {
                after = last.card_id;
            }
            _ => return Ok(reminded),
        }
    }
}
