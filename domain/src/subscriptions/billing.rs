//! Charging a period, as rules on the caller's transaction: locking a period with its
//! subscription, opening a try (`subscription_charges`) before the provider is called, and
//! applying the provider's answer to the try, the period and the subscription (docs/decisions.md,
//! "Subscriptions: periods, charges and dunning"). The use case that calls the provider
//! between two transactions is `app::subscriptions::billing`.
//!
//! Locks are always taken subscription first, then period, then try, so a cancellation, an
//! upgrade and a charge of the same subscription queue behind each other instead of
//! deadlocking.

use chrono::{DateTime, Duration, Utc};
use sqlx::PgConnection;

use super::{AttemptStatus, BillingMethod, PeriodKind, PeriodStatus, SubscriptionStatus};

/// How long a queued charge or an open try holds its period before the dispatcher queues
/// it again: a lost job or a worker killed mid-call is picked up after this, with the same
/// idempotency key at the provider.
pub const LEASE_MINUTES: i64 = 15;

/// A retry never comes sooner than this after a failure, whatever the schedule says (a
/// member's card change can move the tries ahead of it).
pub const MIN_RETRY_HOURS: i64 = 1;

/// The reason a try fails when the subscription has no card to charge.
pub const NO_CARD: &str = "Nenhum cartão cadastrado para a assinatura.";
/// The reason a try fails when the provider refuses the saved card outright.
pub const CARD_REFUSED: &str = "Não foi possível usar o cartão cadastrado.";
/// The reason a PIX try fails when its payer let it expire.
pub const PIX_EXPIRED: &str = "O PIX venceu sem pagamento.";
/// Why a try whose money pays nothing is given back.
pub const PAID_TOO_LATE: &str = "Pagamento recebido depois que a cobrança deixou de valer.";
/// The reason when the provider gives none.
pub const DECLINED_DEFAULT: &str = "Pagamento recusado.";
/// Why a subscription ended when the card holder disputed a paid charge.
pub const CHARGEDBACK: &str = "O pagamento foi contestado junto ao banco (chargeback).";
/// Why a subscription ended when a paid charge was refunded whole at the provider.
pub const REFUNDED: &str = "O pagamento foi estornado.";

/// What charging a period came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PeriodOutcome {
    /// Paid by this call.
    Paid,
    /// It was paid before.
    AlreadyPaid,
    /// The provider refused the try, with its reason.
    Declined { reason: String },
    /// A card under the provider's analysis: a webhook settles it.
    Processing,
    /// A PIX waiting for its payer.
    Pending,
    /// Nothing to charge: void, failed, not live, or not its time.
    NotDue,
}

/// A charge to make now: try `attempt` of a period, queued for `due_at` (the job's key is
/// the three, so each due moment queues one job however many dispatchers see it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DueCharge {
    pub station_id: i64,
    pub user_id: i64,
    pub subscription_id: i64,
    pub period_id: i64,
    pub attempt: i32,
    pub due_at: DateTime<Utc>,
}

/// A period with what charging it needs of its subscription.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Billable {
    pub period_id: i64,
    pub subscription_id: i64,
    pub station_id: i64,
    pub user_id: i64,
    pub kind: PeriodKind,
    pub period_index: i32,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub amount: i64,
    pub plan_id: Option<i64>,
    pub plan_amount: Option<i64>,
    pub status: PeriodStatus,
    pub attempts: i32,
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub subscription_status: SubscriptionStatus,
    pub cancel_at_period_end: bool,
    pub method: BillingMethod,
    pub saved_card_id: Option<i64>,
    pub action_id: Option<i64>,
}

/// One try at the provider.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Attempt {
    pub id: i64,
    pub period_id: i64,
    pub attempt: i32,
    pub status: AttemptStatus,
    pub method: BillingMethod,
    pub amount: i64,
    pub saved_card_id: Option<i64>,
    /// The provider's id of the saved card this try charges.
    pub gateway_card_id: Option<String>,
    pub idempotency_key: String,
    pub gateway_charge_id: Option<String>,
    pub failure_reason: Option<String>,
    pub pix_qr_code: Option<String>,
    pub expires_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// Locks the period's subscription, then the period, and reads both. `None`: no such
/// period.
pub async fn lock(conn: &mut PgConnection, period_id: i64) -> sqlx::Result<Option<Billable>> {
    let subscription: Option<i64> = sqlx::query_scalar(
        "SELECT s.id FROM subscriptions s
           JOIN subscription_periods p ON p.subscription_id = s.id
          WHERE p.id = $1
            FOR UPDATE OF s",
    )
    .bind(period_id)
    .fetch_optional(&mut *conn)
    .await?;
    if subscription.is_none() {
        return Ok(None);
    }
    sqlx::query_as(
        "SELECT p.id AS period_id, p.subscription_id, p.station_id, p.user_id, p.kind,
                p.period_index, p.starts_at, p.ends_at, p.amount, p.plan_id, p.plan_amount,
                p.status, p.attempts, p.next_attempt_at,
                s.status AS subscription_status, s.cancel_at_period_end, s.method,
                s.saved_card_id, s.action_id
           FROM subscription_periods p
           JOIN subscriptions s ON s.id = p.subscription_id
          WHERE p.id = $1
            FOR UPDATE OF p",
    )
    .bind(period_id)
    .fetch_optional(&mut *conn)
    .await
}

/// A try with its saved card's provider id; `concat!` it with the condition.
macro_rules! select_attempt {
    () => {
        select_attempt!("subscription_charges")
    };
    // From the tries' table or a statement's rows of it.
    ($from:literal) => {
        concat!(
            "SELECT c.id, c.period_id, c.attempt, c.status, c.method, c.amount, c.saved_card_id,
                    sc.gateway_card_id, c.idempotency_key, c.gateway_charge_id, c.failure_reason,
                    c.pix_qr_code, c.expires_at, c.created_at
               FROM ",
            $from,
            " c LEFT JOIN saved_cards sc ON sc.id = c.saved_card_id AND sc.removed_at IS NULL"
        )
    };
}

/// The period's try in flight (started, pending or processing), if any.
pub async fn open_attempt(
    conn: &mut PgConnection,
    period_id: i64,
) -> sqlx::Result<Option<Attempt>> {
    sqlx::query_as(concat!(
        select_attempt!(),
        " WHERE c.period_id = $1 AND c.status IN ('started', 'pending', 'processing')"
    ))
    .bind(period_id)
    .fetch_optional(conn)
    .await
}

/// The try the provider knows by this charge id.
pub async fn attempt_by_charge(
    conn: &mut PgConnection,
    gateway_charge_id: &str,
) -> sqlx::Result<Option<Attempt>> {
    sqlx::query_as(concat!(
        select_attempt!(),
        " WHERE c.gateway_charge_id = $1"
    ))
    .bind(gateway_charge_id)
    .fetch_optional(conn)
    .await
}

async fn attempt_by_id(conn: &mut PgConnection, attempt_id: i64) -> sqlx::Result<Attempt> {
    sqlx::query_as(concat!(
        select_attempt!(),
        " WHERE c.id = $1
            FOR UPDATE OF c"
    ))
    .bind(attempt_id)
    .fetch_one(conn)
    .await
}

/// Whether a charge id is one of the subscriptions' tries (where a webhook's sync goes).
pub async fn is_subscription_charge(
    conn: &mut PgConnection,
    gateway_charge_id: &str,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM subscription_charges WHERE gateway_charge_id = $1)",
    )
    .bind(gateway_charge_id)
    .fetch_one(conn)
    .await
}

/// What charging a locked period should do before any try is made.
#[derive(Debug, Clone)]
pub enum Next {
    /// Settled already (or ended by this call): answer this.
    Done(PeriodOutcome),
    /// Nothing is owed: pay it without the provider.
    PayFree,
    /// A try is in flight: resume it (the same idempotency key).
    Resume(Box<Attempt>),
    /// Open try `n + 1`.
    Open,
}

/// Decides what a charge of `b` does. `expected` is the try number the caller was queued
/// for: a try already made (or a later one) means the queue is behind the period, and
/// nothing is charged. A renewal the member cancelled before it was charged is void (and
/// the subscription canceled at its period's end); a period of a subscription no longer
/// live is void.
pub async fn next_step(
    conn: &mut PgConnection,
    b: &Billable,
    expected: Option<i32>,
    now: DateTime<Utc>,
) -> sqlx::Result<Next> {
    // A try in flight is resumed whatever became of its period: its answer is learnt (and
    // money it took for a period that ended is given back).
    if let Some(open) = open_attempt(conn, b.period_id).await? {
        return Ok(Next::Resume(Box::new(open)));
    }
    match b.status {
        PeriodStatus::Paid => return Ok(Next::Done(PeriodOutcome::AlreadyPaid)),
        PeriodStatus::Failed | PeriodStatus::Void => return Ok(Next::Done(PeriodOutcome::NotDue)),
        PeriodStatus::Due => {}
    }
    if !b.subscription_status.is_live() {
        void_period(conn, b.period_id).await?;
        return Ok(Next::Done(PeriodOutcome::NotDue));
    }
    if b.kind == PeriodKind::Renewal && b.cancel_at_period_end {
        cancel_at_end(conn, b, now).await?;
        return Ok(Next::Done(PeriodOutcome::NotDue));
    }
    if expected.is_some_and(|n| n <= b.attempts) {
        return Ok(Next::Done(PeriodOutcome::NotDue));
    }
    if b.amount == 0 {
        return Ok(Next::PayFree);
    }
    Ok(Next::Open)
}

/// A renewal the member cancelled before it was paid: void, and the subscription
/// `canceled` at the end of the period it paid for.
async fn cancel_at_end(
    conn: &mut PgConnection,
    b: &Billable,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    void_period(conn, b.period_id).await?;
    sqlx::query(
        "UPDATE subscriptions
            SET status = 'canceled', canceled_at = coalesce(canceled_at, $2),
                ended_at = current_period_end
          WHERE id = $1 AND status IN ('active', 'past_due')",
    )
    .bind(b.subscription_id)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

async fn void_period(conn: &mut PgConnection, period_id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE subscription_periods SET status = 'void', next_attempt_at = NULL
          WHERE id = $1 AND status = 'due'",
    )
    .bind(period_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Opens try `attempts + 1` of a locked period with the subscription's card (or PIX), its
/// idempotency key `subscription-charge-{id}`, and leases the period to `now + LEASE`.
pub async fn open_attempt_now(
    conn: &mut PgConnection,
    b: &Billable,
    provider: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<Attempt> {
    // One statement: the id is drawn first so the key can name it (a renewal run makes
    // 100 000 of these in an hour).
    sqlx::query_as(concat!(
        "WITH counted AS (
             UPDATE subscription_periods
                SET attempts = attempts + 1, next_attempt_at = $5
              WHERE id = $1
          RETURNING attempts
         ), made AS (
             INSERT INTO subscription_charges (id, station_id, period_id, attempt, method,
                                               amount, saved_card_id, provider,
                                               idempotency_key, created_at)
             OVERRIDING SYSTEM VALUE
             SELECT drawn.id, $2, $1, counted.attempts, $3, $4, $6, $7,
                    'subscription-charge-' || drawn.id, $8
               FROM counted,
                    (SELECT nextval(pg_get_serial_sequence('subscription_charges', 'id')) AS id)
                        drawn
             RETURNING *
         ) ",
        select_attempt!("made")
    ))
    .bind(b.period_id)
    .bind(b.station_id)
    .bind(b.method)
    .bind(b.amount)
    .bind(now + Duration::minutes(LEASE_MINUTES))
    .bind(match b.method {
        BillingMethod::Card => b.saved_card_id,
        BillingMethod::Pix => None,
    })
    .bind(provider)
    .bind(now)
    .fetch_one(&mut *conn)
    .await
}

/// Moves a locked period's lease forward (a try resumed, a queued charge).
pub async fn lease(
    conn: &mut PgConnection,
    period_id: i64,
    until: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE subscription_periods SET next_attempt_at = $2 WHERE id = $1 AND status = 'due'",
    )
    .bind(period_id)
    .bind(until)
    .execute(conn)
    .await?;
    Ok(())
}

/// What the provider said of a try, in our words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Paid,
    Failed(String),
    /// A card under analysis.
    Processing,
    /// A PIX to pay, with its code and expiry.
    Pending {
        br_code: String,
        expires_at: DateTime<Utc>,
    },
}

/// What the member is to be told of an applied answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// A period (with money) was paid: its receipt.
    Receipt,
    /// A renewal was declined; it is tried again at `retry_at`.
    Declined {
        reason: String,
        retry_at: DateTime<Utc>,
    },
    /// The last try failed: the subscription ended.
    Ended { reason: String },
    /// A paid charge was taken back (a chargeback, a whole refund): the subscription ended.
    TakenBack { reason: String },
    /// A PIX renewal to pay.
    PixDue {
        br_code: String,
        expires_at: DateTime<Utc>,
    },
    /// A type 21 period paid: its order was made, to be confirmed (vouchers, cashback, the
    /// order's receipt e-mail and PDF).
    OrderMade { order_id: i64 },
}

/// An applied answer: the outcome and what to tell the member (once per period and try).
#[derive(Debug, Clone)]
pub struct Applied {
    pub outcome: PeriodOutcome,
    pub notice: Option<Notice>,
    pub period: Billable,
    /// The try the answer was for (`None`: a period paid without the provider).
    pub attempt: Option<i32>,
    /// Charges of other tries of the period to cancel at the provider, with their keys:
    /// the period was paid by this one.
    pub cancel: Vec<OpenCharge>,
    /// Money this try received that pays nothing, to give back.
    pub refund: Option<OpenCharge>,
}

/// A try's charge at the provider, for a call made after the transaction.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct OpenCharge {
    pub attempt_id: i64,
    pub gateway_charge_id: String,
    pub idempotency_key: String,
}

/// The period's tries whose money is owed back (`refund_due`).
pub async fn refunds_owed(
    conn: &mut PgConnection,
    period_id: i64,
) -> sqlx::Result<Vec<OpenCharge>> {
    sqlx::query_as(
        "SELECT id AS attempt_id, gateway_charge_id, idempotency_key
           FROM subscription_charges
          WHERE period_id = $1 AND refund_due AND gateway_charge_id IS NOT NULL",
    )
    .bind(period_id)
    .fetch_all(conn)
    .await
}

/// Tries owed back for a while (`refund_due` set by a try older than `before`): those the
/// run that owed them could not give back (the provider failing longer than its job's
/// retries, or a refund started in a request), for the dispatcher's sweep.
pub async fn refunds_left_owed(
    conn: &mut PgConnection,
    before: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<OpenCharge>> {
    sqlx::query_as(
        "SELECT id AS attempt_id, gateway_charge_id, idempotency_key
           FROM subscription_charges
          WHERE refund_due AND gateway_charge_id IS NOT NULL AND created_at < $1
          ORDER BY id LIMIT $2",
    )
    .bind(before)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// The provider took a try's refund.
pub async fn refunded(conn: &mut PgConnection, attempt_id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE subscription_charges SET refund_due = false, status = 'refunded'
          WHERE id = $1 AND refund_due",
    )
    .bind(attempt_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Applies the provider's answer to a try and its period, on the caller's transaction.
/// Idempotent: a try already settled changes nothing (a webhook's sync after the charge's
/// own answer).
pub async fn apply(
    conn: &mut PgConnection,
    attempt_id: i64,
    gateway_charge_id: Option<&str>,
    answer: Answer,
    now: DateTime<Utc>,
) -> sqlx::Result<Applied> {
    let period_id: i64 =
        sqlx::query_scalar("SELECT period_id FROM subscription_charges WHERE id = $1")
            .bind(attempt_id)
            .fetch_one(&mut *conn)
            .await?;
    let b = lock(conn, period_id)
        .await?
        .ok_or(sqlx::Error::RowNotFound)?;
    let attempt = attempt_by_id(conn, attempt_id).await?;
    let applied = |outcome, notice| Applied {
        outcome,
        notice,
        period: b.clone(),
        attempt: Some(attempt.attempt),
        cancel: Vec::new(),
        refund: None,
    };
    let open = matches!(
        attempt.status,
        AttemptStatus::Started | AttemptStatus::Pending | AttemptStatus::Processing
    );
    let settled_paid = matches!(
        attempt.status,
        AttemptStatus::Paid | AttemptStatus::Refunded
    );
    if answer == Answer::Paid && !settled_paid {
        let (outcome, notice, cancel, refund) =
            paid(conn, &b, &attempt, gateway_charge_id, now).await?;
        return Ok(Applied {
            cancel,
            refund,
            ..applied(outcome, notice)
        });
    }
    if !open {
        let outcome = match (attempt.status, b.status) {
            (AttemptStatus::Paid, _) | (_, PeriodStatus::Paid) => PeriodOutcome::AlreadyPaid,
            (AttemptStatus::Failed, _) => PeriodOutcome::Declined {
                reason: attempt
                    .failure_reason
                    .unwrap_or_else(|| DECLINED_DEFAULT.into()),
            },
            _ => PeriodOutcome::NotDue,
        };
        return Ok(applied(outcome, None));
    }
    match answer {
        Answer::Paid => Ok(applied(PeriodOutcome::AlreadyPaid, None)),
        Answer::Failed(reason) => {
            settle_attempt(
                conn,
                attempt_id,
                AttemptStatus::Failed,
                gateway_charge_id,
                Some(&reason),
                now,
            )
            .await?;
            let (outcome, notice) = settle_failed(conn, &b, &reason, now).await?;
            Ok(applied(outcome, notice))
        }
        Answer::Processing => {
            sqlx::query(
                "UPDATE subscription_charges
                    SET status = 'processing',
                        gateway_charge_id = coalesce($2, gateway_charge_id)
                  WHERE id = $1",
            )
            .bind(attempt_id)
            .bind(gateway_charge_id)
            .execute(&mut *conn)
            .await?;
            lease(conn, b.period_id, now + Duration::minutes(LEASE_MINUTES)).await?;
            Ok(applied(PeriodOutcome::Processing, None))
        }
        Answer::Pending {
            br_code,
            expires_at,
        } => {
            let first = attempt.status == AttemptStatus::Started;
            sqlx::query(
                "UPDATE subscription_charges
                    SET status = 'pending', gateway_charge_id = coalesce($2, gateway_charge_id),
                        pix_qr_code = $3, expires_at = $4
                  WHERE id = $1",
            )
            .bind(attempt_id)
            .bind(gateway_charge_id)
            .bind(&br_code)
            .bind(expires_at)
            .execute(&mut *conn)
            .await?;
            // Looked at again when it expires: paid by then, or a failed try.
            lease(conn, b.period_id, expires_at).await?;
            let notice = first.then_some(Notice::PixDue {
                br_code,
                expires_at,
            });
            Ok(applied(PeriodOutcome::Pending, notice))
        }
    }
}

/// Money arrived on a try (in time, late, or after its period ended). It pays the period
/// when the period is still due and no other try paid it: the period's other tries in
/// flight are cancelled. Otherwise it is owed back (`refund_due`). Answers the outcome, the
/// notice, the charges to cancel and the refund to make.
async fn paid(
    conn: &mut PgConnection,
    b: &Billable,
    attempt: &Attempt,
    gateway_charge_id: Option<&str>,
    now: DateTime<Utc>,
) -> sqlx::Result<(
    PeriodOutcome,
    Option<Notice>,
    Vec<OpenCharge>,
    Option<OpenCharge>,
)> {
    let paid_by_other: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM subscription_charges
                         WHERE period_id = $1 AND status = 'paid' AND id <> $2)",
    )
    .bind(b.period_id)
    .bind(attempt.id)
    .fetch_one(&mut *conn)
    .await?;
    if b.status == PeriodStatus::Due && !paid_by_other {
        settle_attempt(
            conn,
            attempt.id,
            AttemptStatus::Paid,
            gateway_charge_id,
            None,
            now,
        )
        .await?;
        let cancel: Vec<OpenCharge> = sqlx::query_as(
            "UPDATE subscription_charges
                SET status = 'canceled', settled_at = $3
              WHERE period_id = $1 AND id <> $2
                AND status IN ('started', 'pending', 'processing')
          RETURNING id AS attempt_id, coalesce(gateway_charge_id, '') AS gateway_charge_id,
                    idempotency_key",
        )
        .bind(b.period_id)
        .bind(attempt.id)
        .bind(now)
        .fetch_all(&mut *conn)
        .await?;
        let cancel = cancel
            .into_iter()
            .filter(|c| !c.gateway_charge_id.is_empty())
            .collect();
        let (outcome, notice) = settle_paid(conn, b, now).await?;
        return Ok((outcome, notice, cancel, None));
    }
    let charge_id: Option<String> = sqlx::query_scalar(
        "UPDATE subscription_charges
            SET refund_due = true, gateway_charge_id = coalesce($2, gateway_charge_id),
                status = CASE WHEN status IN ('started', 'pending', 'processing') THEN 'failed'
                              ELSE status END,
                failure_reason = coalesce(failure_reason, $4),
                settled_at = coalesce(settled_at, $3)
          WHERE id = $1
      RETURNING gateway_charge_id",
    )
    .bind(attempt.id)
    .bind(gateway_charge_id)
    .bind(now)
    .bind(PAID_TOO_LATE)
    .fetch_one(&mut *conn)
    .await?;
    tracing::warn!(
        period_id = b.period_id,
        attempt_id = attempt.id,
        "money for a subscription period that no longer owes it: to be given back"
    );
    let outcome = if b.status == PeriodStatus::Paid || paid_by_other {
        PeriodOutcome::AlreadyPaid
    } else {
        PeriodOutcome::NotDue
    };
    let refund = charge_id.map(|gateway_charge_id| OpenCharge {
        attempt_id: attempt.id,
        gateway_charge_id,
        idempotency_key: attempt.idempotency_key.clone(),
    });
    Ok((outcome, None, Vec::new(), refund))
}

async fn settle_attempt(
    conn: &mut PgConnection,
    attempt_id: i64,
    status: AttemptStatus,
    gateway_charge_id: Option<&str>,
    reason: Option<&str>,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE subscription_charges
            SET status = $2, gateway_charge_id = coalesce($3, gateway_charge_id),
                failure_reason = $4, settled_at = $5
          WHERE id = $1",
    )
    .bind(attempt_id)
    .bind(status)
    .bind(gateway_charge_id)
    .bind(reason)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Pays a locked period (a try paid, or nothing owed) and gives the subscription what the
/// period pays for: the first period activates it, a renewal moves its current period, a
/// proration switches its plan.
pub async fn settle_paid(
    conn: &mut PgConnection,
    b: &Billable,
    now: DateTime<Utc>,
) -> sqlx::Result<(PeriodOutcome, Option<Notice>)> {
    if b.status != PeriodStatus::Due {
        return Ok((PeriodOutcome::AlreadyPaid, None));
    }
    sqlx::query(
        "UPDATE subscription_periods SET status = 'paid', paid_at = $2, next_attempt_at = NULL
          WHERE id = $1",
    )
    .bind(b.period_id)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    match b.kind {
        PeriodKind::First => {
            sqlx::query(
                "UPDATE subscriptions SET status = 'active'
                  WHERE id = $1 AND status IN ('incomplete', 'past_due')",
            )
            .bind(b.subscription_id)
            .execute(&mut *conn)
            .await?;
        }
        PeriodKind::Renewal => {
            sqlx::query(
                "UPDATE subscriptions
                    SET current_period = $2, current_period_start = $3,
                        current_period_end = $4, status = 'active'
                  WHERE id = $1 AND status IN ('active', 'past_due')
                    AND current_period < $2",
            )
            .bind(b.subscription_id)
            .bind(b.period_index)
            .bind(b.starts_at)
            .bind(b.ends_at)
            .execute(&mut *conn)
            .await?;
        }
        PeriodKind::Proration => {
            sqlx::query(
                "UPDATE subscriptions
                    SET plan_id = coalesce($2, plan_id), amount = coalesce($3, amount),
                        next_plan_id = NULL
                  WHERE id = $1 AND status IN ('active', 'past_due')",
            )
            .bind(b.subscription_id)
            .bind(b.plan_id)
            .bind(b.plan_amount)
            .execute(&mut *conn)
            .await?;
            // A plan of another period length starts its own periods with it.
            super::subscribe::adopt_upgrade_period(conn, b.subscription_id, b.period_id).await?;
            // A renewal already made but not tried yet is for the new plan too.
            sqlx::query(
                "UPDATE subscription_periods p
                    SET plan_id = coalesce($2, p.plan_id), amount = coalesce($3, p.amount)
                  WHERE p.subscription_id = $1 AND p.kind = 'renewal' AND p.status = 'due'
                    AND p.attempts = 0",
            )
            .bind(b.subscription_id)
            .bind(b.plan_id)
            .bind(b.plan_amount)
            .execute(&mut *conn)
            .await?;
        }
    }
    let notice = match b.action_id {
        Some(_) if b.kind != PeriodKind::Proration => {
            super::orders::make_for_period(conn, b.period_id, now)
                .await?
                .map(|made| Notice::OrderMade {
                    order_id: made.order_id.0,
                })
        }
        _ => (b.amount > 0).then_some(Notice::Receipt),
    };
    Ok((PeriodOutcome::Paid, notice))
}

/// A try of a locked period failed: the first period fails and ends the subscription, a
/// proration is void (the change is refused), a renewal goes to dunning (tried again on the
/// station's schedule, counted from the first failure) or, after the last try, fails and
/// ends the subscription.
pub async fn settle_failed(
    conn: &mut PgConnection,
    b: &Billable,
    reason: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<(PeriodOutcome, Option<Notice>)> {
    let declined = PeriodOutcome::Declined {
        reason: reason.to_string(),
    };
    if b.status != PeriodStatus::Due {
        return Ok((declined, None));
    }
    if !b.subscription_status.is_live() {
        void_period(conn, b.period_id).await?;
        return Ok((declined, None));
    }
    match b.kind {
        PeriodKind::First => {
            fail_period(conn, b.period_id).await?;
            end_subscription(conn, b.subscription_id, now).await?;
            Ok((declined, None))
        }
        PeriodKind::Proration => {
            void_period(conn, b.period_id).await?;
            restore_replaced_card(conn, b.period_id).await?;
            Ok((declined, None))
        }
        // The member cancelled at the period's end meanwhile: no dunning for a period
        // they no longer want.
        PeriodKind::Renewal if b.cancel_at_period_end => {
            cancel_at_end(conn, b, now).await?;
            Ok((declined, None))
        }
        PeriodKind::Renewal => {
            let (retry_days, first_failure): (Vec<i32>, Option<DateTime<Utc>>) = sqlx::query_as(
                "SELECT st.billing_retry_days,
                        (SELECT min(settled_at) FROM subscription_charges
                          WHERE period_id = $2 AND status = 'failed')
                   FROM stations st WHERE st.id = $1",
            )
            .bind(b.station_id)
            .bind(b.period_id)
            .fetch_one(&mut *conn)
            .await?;
            match retry_at(&retry_days, b.attempts, first_failure.unwrap_or(now), now) {
                Some(retry_at) => {
                    lease(conn, b.period_id, retry_at).await?;
                    sqlx::query(
                        "UPDATE subscriptions SET status = 'past_due'
                          WHERE id = $1 AND status = 'active'",
                    )
                    .bind(b.subscription_id)
                    .execute(&mut *conn)
                    .await?;
                    Ok((
                        declined,
                        Some(Notice::Declined {
                            reason: reason.to_string(),
                            retry_at,
                        }),
                    ))
                }
                None => {
                    fail_period(conn, b.period_id).await?;
                    end_subscription(conn, b.subscription_id, now).await?;
                    Ok((
                        declined,
                        Some(Notice::Ended {
                            reason: reason.to_string(),
                        }),
                    ))
                }
            }
        }
    }
}

/// A refused upgrade that came with a new card: the card it replaced comes back, unless
/// the subscription's card changed again since (it is no longer the one the try charged).
/// Only a refusal gets here: a try that timed out stays open, and may yet be paid with the
/// new card. A replaced card its member removed meanwhile cannot come back (the
/// `subscriptions_card_not_removed` trigger): the declined card stays, and dunning asks the
/// member to change it.
async fn restore_replaced_card(conn: &mut PgConnection, proration_id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE subscriptions s SET saved_card_id = p.previous_card_id
           FROM subscription_periods p
          WHERE p.id = $1 AND p.replaced_card AND s.id = p.subscription_id
            AND s.saved_card_id IS NOT DISTINCT FROM (
                SELECT c.saved_card_id FROM subscription_charges c
                 WHERE c.period_id = p.id ORDER BY c.attempt DESC LIMIT 1)
            AND (p.previous_card_id IS NULL OR EXISTS (
                SELECT 1 FROM saved_cards sc
                 WHERE sc.id = p.previous_card_id AND sc.removed_at IS NULL))",
    )
    .bind(proration_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// When try `tries + 1` of a declined renewal comes: `retry_days[tries - 1]` days after the
/// first failure, never sooner than [`MIN_RETRY_HOURS`] from now; `None` after the last.
pub fn retry_at(
    retry_days: &[i32],
    tries: i32,
    first_failure: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    let index = usize::try_from(tries).ok()?.checked_sub(1)?;
    let days = *retry_days.get(index)?;
    Some(
        (first_failure + Duration::days(i64::from(days)))
            .max(now + Duration::hours(MIN_RETRY_HOURS)),
    )
}

async fn fail_period(conn: &mut PgConnection, period_id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE subscription_periods SET status = 'failed', next_attempt_at = NULL
          WHERE id = $1 AND status = 'due'",
    )
    .bind(period_id)
    .execute(conn)
    .await?;
    Ok(())
}

async fn end_subscription(
    conn: &mut PgConnection,
    subscription_id: i64,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE subscriptions SET status = 'ended', ended_at = $2
          WHERE id = $1 AND status IN ('incomplete', 'active', 'past_due')",
    )
    .bind(subscription_id)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// What the provider reports taken back of a paid try's charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TakeBack {
    /// The charge's refunded total (a chargeback counts the whole charge).
    pub refunded_cents: i64,
    pub chargeback: bool,
}

/// What [`take_back`] did: the caller refunds the period's order through the shop's
/// bank-refund path (`payment_id` with `refunded_cents`), tells the member, and cancels the
/// charges of the periods it voided.
#[derive(Debug, Clone)]
pub struct TakeBackOutcome {
    /// The card or PIX part of the period's order (a type 21 period), if it has one.
    pub payment_id: Option<i64>,
    pub refunded_cents: i64,
    /// The subscription ended with this.
    pub notice: Option<Notice>,
    /// Waiting PIX charges of the voided periods, to cancel at the provider.
    pub cancel: Vec<OpenCharge>,
}

/// A paid try whose charge the provider now reports refunded or charged back (the bank took
/// it, or staff refunded it at the provider), on the caller's transaction, which holds the
/// subscription's lock ([`apply`]'s). A chargeback or a whole refund ends a live
/// subscription now: its due periods void, their waiting PIX charges cancelled (a try at
/// the provider is left to its answer, which is given back as paying nothing). A partial
/// refund keeps it; its period's order gives back what the amount covers. Only what is new
/// against what the try recorded is applied, so a replayed report changes nothing (`None`);
/// a try that paid nothing (given back by us, or failed) is not this path's.
/// docs/decisions.md, "Subscriptions: a charge the bank takes back".
pub async fn take_back(
    conn: &mut PgConnection,
    attempt_id: i64,
    take: TakeBack,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<TakeBackOutcome>> {
    let row: Option<(i64, i64, bool, i64, Option<i64>)> = sqlx::query_as(
        "SELECT c.amount, c.bank_refunded_cents, c.chargedback_at IS NOT NULL,
                p.subscription_id,
                (SELECT pay.id FROM payments pay
                  WHERE pay.order_id = p.order_id AND pay.method <> 'wallet'
                  ORDER BY pay.id DESC LIMIT 1)
           FROM subscription_charges c
           JOIN subscription_periods p ON p.id = c.period_id
          WHERE c.id = $1 AND c.status = 'paid'
            FOR UPDATE OF c",
    )
    .bind(attempt_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((amount, recorded, chargedback_before, subscription_id, payment_id)) = row else {
        return Ok(None);
    };
    let refunded = take.refunded_cents.clamp(0, amount);
    let new_chargeback = take.chargeback && !chargedback_before;
    if refunded <= recorded && !new_chargeback {
        return Ok(None);
    }
    sqlx::query(
        "UPDATE subscription_charges
            SET bank_refunded_cents = greatest(bank_refunded_cents, $2),
                chargedback_at = CASE WHEN $3 THEN coalesce(chargedback_at, $4)
                                      ELSE chargedback_at END
          WHERE id = $1",
    )
    .bind(attempt_id)
    .bind(refunded)
    .bind(take.chargeback)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    let mut taken = TakeBackOutcome {
        payment_id,
        refunded_cents: refunded.max(recorded),
        notice: None,
        cancel: Vec::new(),
    };
    if take.chargeback || refunded >= amount {
        let ended = sqlx::query(
            "UPDATE subscriptions SET status = 'ended', ended_at = $2
              WHERE id = $1 AND status IN ('incomplete', 'active', 'past_due')",
        )
        .bind(subscription_id)
        .bind(now)
        .execute(&mut *conn)
        .await?
        .rows_affected()
            == 1;
        if ended {
            taken.cancel = void_due_periods(conn, subscription_id, now).await?;
            let reason = if take.chargeback {
                CHARGEDBACK
            } else {
                REFUNDED
            };
            taken.notice = Some(Notice::TakenBack {
                reason: reason.into(),
            });
        }
    }
    Ok(Some(taken))
}

/// Voids an ended subscription's due periods; their waiting PIX tries are cancelled and
/// answered for the provider's cancel. Tries in a provider call or under analysis stay open:
/// their answer is learnt, and money they took is given back (see [`next_step`]).
async fn void_due_periods(
    conn: &mut PgConnection,
    subscription_id: i64,
    now: DateTime<Utc>,
) -> sqlx::Result<Vec<OpenCharge>> {
    let voided: Vec<i64> = sqlx::query_scalar(
        "UPDATE subscription_periods SET status = 'void', next_attempt_at = NULL
          WHERE subscription_id = $1 AND status = 'due'
      RETURNING id",
    )
    .bind(subscription_id)
    .fetch_all(&mut *conn)
    .await?;
    sqlx::query_as(
        "UPDATE subscription_charges
            SET status = 'canceled', settled_at = $2
          WHERE period_id = ANY($1) AND status = 'pending' AND gateway_charge_id IS NOT NULL
      RETURNING id AS attempt_id, gateway_charge_id, idempotency_key",
    )
    .bind(&voided)
    .bind(now)
    .fetch_all(conn)
    .await
}

/// The due period of a live subscription (a renewal in dunning, or one not tried yet),
/// locked, to try again now (a card changed, staff's retry). `None` when nothing is due.
pub async fn lock_due_period(
    conn: &mut PgConnection,
    subscription_id: i64,
) -> sqlx::Result<Option<Billable>> {
    let period_id: Option<i64> = sqlx::query_scalar(
        "SELECT p.id FROM subscription_periods p
           JOIN subscriptions s ON s.id = p.subscription_id
          WHERE p.subscription_id = $1 AND p.status = 'due' AND p.kind = 'renewal'
            AND s.status IN ('active', 'past_due')
          ORDER BY p.period_index DESC
          LIMIT 1",
    )
    .bind(subscription_id)
    .fetch_optional(&mut *conn)
    .await?;
    match period_id {
        Some(id) => lock(conn, id).await,
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn at(day: u32, hour: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2027, 3, day, hour, 0, 0).unwrap()
    }

    #[test]
    fn retries_count_from_the_first_failure() {
        let days = [1, 3, 7];
        let first = at(1, 12);
        assert_eq!(retry_at(&days, 1, first, first), Some(at(2, 12)));
        assert_eq!(retry_at(&days, 2, first, at(2, 12)), Some(at(4, 12)));
        assert_eq!(retry_at(&days, 3, first, at(4, 12)), Some(at(8, 12)));
        assert_eq!(retry_at(&days, 4, first, at(8, 12)), None);
        assert_eq!(retry_at(&[], 1, first, first), None);
    }

    #[test]
    fn a_retry_is_never_sooner_than_an_hour() {
        // A card change on day 5 tried (and failed) the third try early.
        let first = at(1, 12);
        assert_eq!(retry_at(&[1, 3, 7], 2, first, at(5, 12)), Some(at(5, 13)));
    }
}
