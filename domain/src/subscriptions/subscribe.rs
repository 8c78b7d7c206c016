//! What a member does to their subscriptions, as rows: subscribing (the subscription
//! `incomplete` with its period 0), changing plan (an upgrade's `proration` period, a
//! downgrade's `next_plan_id`), cancelling, and changing the card. Each runs on the
//! caller's transaction and locks the subscription's row first, so two changes of one
//! subscription (or a change and a renewal's record) queue behind each other; the provider
//! is charged by the caller after commit (`app::subscriptions`). docs/decisions.md
//! ("Subscriptions: periods, charges and dunning") has the rules.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::plans::{self, PLAN_NOT_FOUND, Plan};
use super::{BillingMethod, Period, PeriodKind, SubscriptionStatus};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{Cents, StationId, UserId};

pub const SUBSCRIPTION_NOT_FOUND: &str = "Assinatura não encontrada.";
pub const NEGOTIATED_PLAN: &str =
    "Este plano é vendido sob consulta: fale conosco pelo formulário do plano.";
pub const ALREADY_SUBSCRIBED: &str =
    "Você já possui um plano ativo. Para trocar de plano, use a mudança de plano.";
pub const ALREADY_SUBSCRIBED_ACTION: &str = "Você já possui uma assinatura desta atividade.";
pub const SAME_PLAN: &str = "Este é seu plano atual";
pub const NOT_ACTIVE: &str =
    "Sua assinatura não está em dia: atualize o cartão antes de mudar de plano.";
pub const NOTHING_TO_CANCEL: &str = "Você não possui uma assinatura ativa.";
pub const ALREADY_CANCELED: &str = "Esta assinatura já foi cancelada.";
pub const CANCEL_REASON: &str = "Selecione o motivo do cancelamento.";
pub const PRODUCT_NOT_SELECTED: &str = "Produto não selecionado";
pub const PRODUCT_UNAVAILABLE: &str = "Produto indisponível para assinatura no momento.";
pub const ONE_PRODUCT: &str = "Selecione apenas um produto para a assinatura.";
pub const RECURRENCE_NOT_FOUND: &str = "Recorrência de assinatura inválida.";
pub const CARD_NOT_FOUND: &str = "Cartão não encontrado.";
pub const CHANGE_IN_PROGRESS: &str =
    "Uma mudança de plano está sendo processada. Aguarde alguns instantes.";

/// The spec's cancel reasons, exactly.
pub const CANCEL_REASONS: [&str; 4] = [
    "Prefiro não mencionar",
    "Não acho um bom custo-benefício",
    "Não utilizo mais o produto",
    "Outro",
];

#[derive(Debug, thiserror::Error)]
pub enum SubscribeError {
    #[error("no such plan")]
    PlanNotFound,
    #[error("no such subscription")]
    NotFound,
    #[error("the plan is sold by contact")]
    Negotiated,
    #[error("a live plan already")]
    AlreadySubscribed,
    #[error("a live subscription of the activity already")]
    AlreadySubscribedAction,
    #[error("the current plan")]
    SamePlan,
    #[error("not paid up")]
    NotActive,
    #[error("nothing to cancel")]
    NothingToCancel,
    #[error("already cancelled")]
    AlreadyCanceled,
    #[error("bad cancel reason")]
    CancelReason,
    #[error("no product")]
    ProductNotSelected,
    #[error("product unavailable")]
    ProductUnavailable,
    #[error("more than one product")]
    OneProduct,
    #[error("no such recurrence")]
    RecurrenceNotFound,
    #[error("no such card")]
    CardNotFound,
    #[error("a plan change in progress")]
    ChangeInProgress,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl IntoFailure for SubscribeError {
    fn into_failure(self) -> Failure {
        match self {
            Self::PlanNotFound => Failure::NotFound(PLAN_NOT_FOUND.into()),
            Self::NotFound => Failure::NotFound(SUBSCRIPTION_NOT_FOUND.into()),
            Self::AlreadySubscribed => Failure::Conflict(ALREADY_SUBSCRIBED.into()),
            Self::AlreadySubscribedAction => Failure::Conflict(ALREADY_SUBSCRIBED_ACTION.into()),
            Self::Negotiated => Failure::invalid(NEGOTIATED_PLAN),
            Self::SamePlan => Failure::invalid(SAME_PLAN),
            Self::NotActive => Failure::invalid(NOT_ACTIVE),
            // Cancel refusals are read as messages[0] (spec 002): never the `error` envelope.
            Self::NothingToCancel => Failure::invalid(NOTHING_TO_CANCEL),
            Self::AlreadyCanceled => Failure::invalid(ALREADY_CANCELED),
            Self::CancelReason => Failure::invalid(CANCEL_REASON),
            Self::ProductNotSelected => Failure::invalid(PRODUCT_NOT_SELECTED),
            Self::ProductUnavailable => Failure::invalid(PRODUCT_UNAVAILABLE),
            Self::OneProduct => Failure::invalid(ONE_PRODUCT),
            Self::RecurrenceNotFound => Failure::invalid(RECURRENCE_NOT_FOUND),
            Self::CardNotFound => Failure::invalid(CARD_NOT_FOUND),
            Self::ChangeInProgress => Failure::Conflict(CHANGE_IN_PROGRESS.into()),
            Self::Db(err) => Failure::Internal(err.into()),
        }
    }
}

/// What is subscribed to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Plan {
        plan_id: i64,
    },
    /// A type 21 activity's product, with one of its recurrences.
    Product {
        action_id: i64,
        action_subscription_id: i64,
        product_id: i64,
        quantity: i32,
    },
}

#[derive(Debug, Clone)]
pub struct NewSubscription {
    pub station_id: StationId,
    pub user_id: UserId,
    pub target: Target,
    /// `subscriptions.recurrence`: `month`, `semester`, `year` or type 21's word.
    pub recurrence: &'static str,
    pub period: Period,
    /// What each period costs.
    pub amount: Cents,
    /// The card that pays; `None` only for a subscription that costs nothing.
    pub saved_card_id: Option<i64>,
    /// The provider's clock now: period 0 starts here.
    pub anchor: DateTime<Utc>,
}

/// The subscription just made and its period 0, to be charged after commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Created {
    pub subscription_id: i64,
    pub period_id: i64,
}

/// Makes the subscription `incomplete` and its period 0 (`first`, not for the engine to
/// try: the caller charges it at once). A second live plan (or a second live subscription
/// of one type 21 activity) of the member breaks a unique index: two purchases at once make
/// one subscription, the other is refused.
pub async fn create(
    tx: &mut PgConnection,
    new: &NewSubscription,
) -> Result<Created, SubscribeError> {
    let (plan_id, action_id, action_subscription_id, product_id, quantity) = match new.target {
        Target::Plan { plan_id } => (Some(plan_id), None, None, None, 1),
        Target::Product {
            action_id,
            action_subscription_id,
            product_id,
            quantity,
        } => (
            None,
            Some(action_id),
            Some(action_subscription_id),
            Some(product_id),
            quantity,
        ),
    };
    let (start, end) = (
        new.period.start(new.anchor, 0),
        new.period.end(new.anchor, 0),
    );
    let inserted: Result<i64, sqlx::Error> = sqlx::query_scalar(
        "INSERT INTO subscriptions
            (station_id, user_id, plan_id, action_id, action_subscription_id, product_id,
             quantity, recurrence, period_months, period_days, amount, method, saved_card_id,
             status, anchor_at, current_period, current_period_start, current_period_end)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 0, $16, $17)
         RETURNING id",
    )
    .bind(new.station_id)
    .bind(new.user_id)
    .bind(plan_id)
    .bind(action_id)
    .bind(action_subscription_id)
    .bind(product_id)
    .bind(quantity)
    .bind(new.recurrence)
    .bind(new.period.months as i32)
    .bind(new.period.days as i32)
    .bind(new.amount)
    .bind(BillingMethod::Card.as_str())
    .bind(new.saved_card_id)
    .bind(SubscriptionStatus::Incomplete.as_str())
    .bind(new.anchor)
    .bind(start)
    .bind(end)
    .fetch_one(&mut *tx)
    .await;
    let subscription_id = match inserted {
        Ok(id) => id,
        Err(err) => {
            return Err(match unique_violation(&err) {
                Some("subscriptions_one_plan") => SubscribeError::AlreadySubscribed,
                Some("subscriptions_one_per_action") => SubscribeError::AlreadySubscribedAction,
                _ => err.into(),
            });
        }
    };
    // The request charges it at once; leased meanwhile, so that a request that dies before
    // its try is opened leaves it to the dispatcher rather than `incomplete` forever.
    let period_id: i64 = sqlx::query_scalar(
        "INSERT INTO subscription_periods
            (station_id, user_id, subscription_id, kind, period_index, starts_at, ends_at,
             amount, plan_id, next_attempt_at)
         VALUES ($1, $2, $3, $4, 0, $5, $6, $7, $8, $9)
         RETURNING id",
    )
    .bind(new.station_id)
    .bind(new.user_id)
    .bind(subscription_id)
    .bind(PeriodKind::First.as_str())
    .bind(start)
    .bind(end)
    .bind(new.amount)
    .bind(plan_id)
    .bind(start + chrono::Duration::minutes(super::billing::LEASE_MINUTES))
    .fetch_one(&mut *tx)
    .await?;
    Ok(Created {
        subscription_id,
        period_id,
    })
}

fn unique_violation(err: &sqlx::Error) -> Option<&str> {
    err.as_database_error()
        .filter(|db| db.is_unique_violation())
        .and_then(|db| db.constraint())
}

/// A subscription's row as the changes read it, locked.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Locked {
    pub id: i64,
    pub plan_id: Option<i64>,
    pub action_id: Option<i64>,
    pub status: SubscriptionStatus,
    pub amount: Cents,
    pub period_months: i32,
    pub period_days: i32,
    pub current_period: i32,
    pub current_period_start: DateTime<Utc>,
    pub current_period_end: DateTime<Utc>,
    pub cancel_at_period_end: bool,
    pub next_plan_id: Option<i64>,
    pub saved_card_id: Option<i64>,
}

const LOCKED: &str = "SELECT id, plan_id, action_id, status, amount, period_months, period_days,
        current_period, current_period_start, current_period_end, cancel_at_period_end,
        next_plan_id, saved_card_id
   FROM subscriptions";

/// One of the member's subscriptions by id, locked; another member's or station's is
/// absent.
pub async fn lock(
    tx: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    subscription_id: i64,
) -> Result<Locked, SubscribeError> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{LOCKED} WHERE id = $1 AND station_id = $2 AND user_id = $3 FOR UPDATE"
    )))
    .bind(subscription_id)
    .bind(station_id)
    .bind(user_id)
    .fetch_optional(tx)
    .await?
    .ok_or(SubscribeError::NotFound)
}

/// A subscription by id for the support console, locked, with its station and member;
/// absent outside `station_id` when the grant has one.
pub async fn lock_for_staff(
    tx: &mut PgConnection,
    subscription_id: i64,
    station_id: Option<i64>,
) -> Result<(Locked, StationId, UserId), SubscribeError> {
    let locked: Locked = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{LOCKED} WHERE id = $1 AND ($2::bigint IS NULL OR station_id = $2) FOR UPDATE"
    )))
    .bind(subscription_id)
    .bind(station_id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(SubscribeError::NotFound)?;
    let (station, user): (i64, i64) =
        sqlx::query_as("SELECT station_id, user_id FROM subscriptions WHERE id = $1")
            .bind(subscription_id)
            .fetch_one(&mut *tx)
            .await?;
    Ok((locked, StationId(station), UserId(user)))
}

/// The member's live plan subscription, locked.
pub async fn lock_live_plan(
    tx: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
) -> Result<Option<Locked>, SubscribeError> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{LOCKED} WHERE station_id = $1 AND user_id = $2 AND plan_id IS NOT NULL
            AND status IN ('incomplete', 'active', 'past_due')
          FOR UPDATE"
    )))
    .bind(station_id)
    .bind(user_id)
    .fetch_optional(tx)
    .await?)
}

/// A changed subscription: which one, and the period the caller charges now, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Changed {
    pub subscription_id: i64,
    /// An upgrade's proration, to charge at once.
    pub charge_period_id: Option<i64>,
}

/// What is left of the current period at `now`, times the price difference, rounded to
/// the centavo (half up): the upgrade's charge (docs/decisions.md).
pub fn proration(
    difference: Cents,
    now: DateTime<Utc>,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
) -> Cents {
    let whole = (end - start).num_seconds().max(1) as i128;
    let left = (end - now).num_seconds().clamp(0, whole as i64) as i128;
    let difference = i128::from(difference.0.max(0));
    Cents(((difference * left * 2 + whole) / (whole * 2)) as i64)
}

/// Changes the live plan subscription `subscription_id` to `plan_id` at `now` (the
/// provider's clock):
/// - the same plan: undoes a downgrade waiting for the period's end, else refused;
/// - cheaper: a downgrade, `next_plan_id`, nothing charged now;
/// - at least as dear, same period length: a `proration` period for the rest of the
///   current one (`plan_id`, `plan_amount`), which the caller charges at once; the
///   subscription switches when it is paid. A difference that rounds to nothing switches
///   now;
/// - another period length: a `proration` period from now for a whole new period, charged
///   the new price less the unused part of the old.
pub async fn change_plan(
    tx: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    subscription_id: i64,
    plan_id: i64,
    now: DateTime<Utc>,
) -> Result<Changed, SubscribeError> {
    let current = lock(tx, station_id, user_id, subscription_id).await?;
    if current.plan_id.is_none() || !current.status.is_live() {
        return Err(SubscribeError::NotFound);
    }
    let plan = plans::on_sale(tx, station_id, plan_id)
        .await?
        .ok_or(SubscribeError::PlanNotFound)?;
    let price = plan.price().ok_or(SubscribeError::Negotiated)?;
    let unchanged = Changed {
        subscription_id,
        charge_period_id: None,
    };
    if current.plan_id == Some(plan.id) {
        if current.next_plan_id.is_some() {
            set_next_plan(tx, subscription_id, None).await?;
            return Ok(unchanged);
        }
        return Err(SubscribeError::SamePlan);
    }
    if current.status != SubscriptionStatus::Active {
        return Err(SubscribeError::NotActive);
    }
    // An upgrade not settled yet (a double click, a card under analysis): the same plan is
    // that same change, charged once by its period; another plan waits for it.
    let pending: Option<(i64, Option<i64>)> = sqlx::query_as(
        "SELECT id, plan_id FROM subscription_periods
          WHERE subscription_id = $1 AND kind = 'proration' AND status = 'due'
          ORDER BY id DESC LIMIT 1",
    )
    .bind(subscription_id)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some((period_id, pending_plan)) = pending {
        if pending_plan == Some(plan.id) {
            return Ok(Changed {
                subscription_id,
                charge_period_id: Some(period_id),
            });
        }
        return Err(SubscribeError::ChangeInProgress);
    }
    if price < current.amount {
        set_next_plan(tx, subscription_id, Some(plan.id)).await?;
        return Ok(unchanged);
    }
    // A renewal made and not paid yet (its try at the provider, a card under analysis): the
    // period an upgrade would charge from is not settled, and its price would be the old
    // plan's. The upgrade waits for it, as for another upgrade.
    let renewal_unpaid: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM subscription_periods
                         WHERE subscription_id = $1 AND kind = 'renewal' AND status = 'due')",
    )
    .bind(subscription_id)
    .fetch_one(&mut *tx)
    .await?;
    if renewal_unpaid || now >= current.current_period_end {
        return Err(SubscribeError::ChangeInProgress);
    }
    let new_period = plan.period().period();
    let same_length = new_period.months as i32 == current.period_months
        && new_period.days as i32 == current.period_days;
    let (starts_at, ends_at, amount) = if same_length {
        let amount = proration(
            price - current.amount,
            now,
            current.current_period_start,
            current.current_period_end,
        );
        (now, current.current_period_end, amount)
    } else {
        let unused = proration(
            current.amount,
            now,
            current.current_period_start,
            current.current_period_end,
        );
        let amount = price.checked_sub(unused).unwrap_or(Cents::ZERO);
        (now, new_period.end(now, 0), amount)
    };
    if same_length && (amount == Cents::ZERO || ends_at <= starts_at) {
        switch_plan(tx, subscription_id, &plan, price).await?;
        return Ok(unchanged);
    }
    // A proration tried before at this instant is the same change: keep one. Leased as the
    // first period is, for the same reason (an upgrade left `due` would hold every other).
    let period_id: i64 = sqlx::query_scalar(
        "INSERT INTO subscription_periods
            (station_id, user_id, subscription_id, kind, period_index, starts_at, ends_at,
             amount, plan_id, plan_amount, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                 $6 + make_interval(mins => $11))
         ON CONFLICT (subscription_id, starts_at) WHERE kind = 'proration'
         DO UPDATE SET plan_id = EXCLUDED.plan_id
         RETURNING id",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(subscription_id)
    .bind(PeriodKind::Proration.as_str())
    .bind(current.current_period)
    .bind(starts_at)
    .bind(ends_at)
    .bind(amount)
    .bind(plan.id)
    .bind(price)
    .bind(super::billing::LEASE_MINUTES as i32)
    .fetch_one(&mut *tx)
    .await?;
    set_next_plan(tx, subscription_id, None).await?;
    Ok(Changed {
        subscription_id,
        charge_period_id: Some(period_id),
    })
}

async fn set_next_plan(
    tx: &mut PgConnection,
    subscription_id: i64,
    plan_id: Option<i64>,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE subscriptions SET next_plan_id = $2 WHERE id = $1")
        .bind(subscription_id)
        .bind(plan_id)
        .execute(tx)
        .await?;
    Ok(())
}

/// An upgrade with nothing to charge: the plan and its price from now on.
async fn switch_plan(
    tx: &mut PgConnection,
    subscription_id: i64,
    plan: &Plan,
    price: Cents,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE subscriptions SET plan_id = $2, amount = $3, next_plan_id = NULL WHERE id = $1",
    )
    .bind(subscription_id)
    .bind(plan.id)
    .bind(price)
    .execute(tx)
    .await?;
    Ok(())
}

/// After an upgrade to a plan of another period length was paid (its proration ran from
/// the change for a whole new period): the subscription takes the new period from the
/// proration's start, re-anchored so that its current period is that one (period k from
/// the anchor, `anchor_index` = k, starts there) and the next renewal follows it. Nothing for a same-length
/// upgrade or one not paid.
pub async fn adopt_upgrade_period(
    tx: &mut PgConnection,
    subscription_id: i64,
    proration_id: i64,
) -> sqlx::Result<()> {
    let current = sqlx::query_as::<_, Locked>(sqlx::AssertSqlSafe(format!(
        "{LOCKED} WHERE id = $1 FOR UPDATE"
    )))
    .bind(subscription_id)
    .fetch_one(&mut *tx)
    .await?;
    let proration: Option<(i64, DateTime<Utc>, DateTime<Utc>, i32)> = sqlx::query_as(
        "SELECT pp.plan_id, pp.starts_at, pp.ends_at, pl.days
           FROM subscription_periods pp JOIN plans pl ON pl.id = pp.plan_id
          WHERE pp.id = $1 AND pp.subscription_id = $2 AND pp.kind = 'proration'
            AND pp.status = 'paid'",
    )
    .bind(proration_id)
    .bind(subscription_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((plan_id, starts_at, ends_at, days)) = proration else {
        return Ok(());
    };
    let Some(period) = super::PlanPeriod::from_days(days) else {
        return Ok(());
    };
    let length = period.period();
    let same =
        length.months as i32 == current.period_months && length.days as i32 == current.period_days;
    if same || current.plan_id != Some(plan_id) || !current.status.is_live() {
        return Ok(());
    }
    // The anchor is this period's start and its index, not a date counted backwards: a
    // month subtracted from a 31st lands on a 28th and would keep that day from then on.
    let anchor = starts_at;
    sqlx::query(
        "UPDATE subscriptions
            SET recurrence = $2, period_months = $3, period_days = $4, anchor_at = $5,
                current_period_start = $6, current_period_end = $7, anchor_index = current_period
          WHERE id = $1",
    )
    .bind(subscription_id)
    .bind(period.as_str())
    .bind(length.months as i32)
    .bind(length.days as i32)
    .bind(anchor)
    .bind(starts_at)
    .bind(ends_at)
    .execute(&mut *tx)
    .await?;
    // A renewal made ahead (a PIX's) but not tried yet is the next period of the new length:
    // its row (unique per index) moves rather than goes, so the dispatcher never finds the
    // index taken by a period nobody will pay.
    let next = current.current_period + 1;
    sqlx::query(
        "UPDATE subscription_periods
            SET starts_at = $3, ends_at = $4,
                next_attempt_at = CASE WHEN next_attempt_at IS NULL THEN NULL ELSE $3 END
          WHERE subscription_id = $1 AND period_index = $2 AND kind = 'renewal'
            AND status = 'due' AND attempts = 0",
    )
    .bind(subscription_id)
    .bind(next)
    .bind(length.start(anchor, 1))
    .bind(length.end(anchor, 1))
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Cancels a locked live subscription: a paid-up one keeps its access to the period's end
/// (`cancel_at_period_end`; the engine ends it there and renews nothing); one not paid up
/// (`incomplete`, `past_due`) ends now and its unpaid periods are void.
pub async fn cancel(
    tx: &mut PgConnection,
    subscription: &Locked,
    reason: Option<&str>,
    now: DateTime<Utc>,
) -> Result<(), SubscribeError> {
    if !subscription.status.is_live() {
        return Err(SubscribeError::AlreadyCanceled);
    }
    if subscription.status == SubscriptionStatus::Active {
        if subscription.cancel_at_period_end {
            return Err(SubscribeError::AlreadyCanceled);
        }
        sqlx::query(
            "UPDATE subscriptions
                SET cancel_at_period_end = true, cancel_reason = $2, next_plan_id = NULL
              WHERE id = $1",
        )
        .bind(subscription.id)
        .bind(reason)
        .execute(&mut *tx)
        .await?;
    } else {
        sqlx::query(
            "UPDATE subscriptions
                SET status = 'canceled', cancel_reason = $2, canceled_at = $3, ended_at = $3,
                    next_plan_id = NULL
              WHERE id = $1",
        )
        .bind(subscription.id)
        .bind(reason)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    // Nothing unpaid is owed any more: not a period, not an upgrade waiting for its charge.
    sqlx::query(
        "UPDATE subscription_periods SET status = 'void', next_attempt_at = NULL
          WHERE subscription_id = $1 AND status = 'due'
            AND (kind = 'proration' OR $2)",
    )
    .bind(subscription.id)
    .bind(subscription.status != SubscriptionStatus::Active)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// The member's plan cancelled with one of the spec's reasons.
pub async fn cancel_plan(
    tx: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<i64, SubscribeError> {
    if !CANCEL_REASONS.contains(&reason) {
        return Err(SubscribeError::CancelReason);
    }
    let subscription = lock_live_plan(tx, station_id, user_id)
        .await?
        .ok_or(SubscribeError::NothingToCancel)?;
    cancel(tx, &subscription, Some(reason), now).await?;
    Ok(subscription.id)
}

/// One of the member's type 21 subscriptions cancelled (`action_id`, when sent, must be
/// its activity).
pub async fn cancel_product(
    tx: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    subscription_id: i64,
    action_id: Option<i64>,
    now: DateTime<Utc>,
) -> Result<(), SubscribeError> {
    let subscription = lock(tx, station_id, user_id, subscription_id).await?;
    if subscription.action_id.is_none()
        || action_id.is_some_and(|id| Some(id) != subscription.action_id)
    {
        return Err(SubscribeError::NotFound);
    }
    cancel(tx, &subscription, None, now).await
}

/// What changing a subscription's card did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardChanged {
    /// A period is waiting for a retry: the caller tries it at once.
    pub past_due: bool,
    /// The card it replaced.
    pub previous: Option<i64>,
}

/// The card that pays a live subscription from now on.
pub async fn change_card(
    tx: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    subscription_id: i64,
    saved_card_id: i64,
) -> Result<CardChanged, SubscribeError> {
    let subscription = lock(tx, station_id, user_id, subscription_id).await?;
    if !subscription.status.is_live() {
        return Err(SubscribeError::NotFound);
    }
    let owned: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM saved_cards WHERE id = $1 AND user_id = $2)",
    )
    .bind(saved_card_id)
    .bind(user_id)
    .fetch_one(&mut *tx)
    .await?;
    if !owned {
        return Err(SubscribeError::CardNotFound);
    }
    sqlx::query("UPDATE subscriptions SET saved_card_id = $2, method = 'card' WHERE id = $1")
        .bind(subscription_id)
        .bind(saved_card_id)
        .execute(&mut *tx)
        .await?;
    Ok(CardChanged {
        past_due: subscription.status == SubscriptionStatus::PastDue,
        previous: subscription.saved_card_id,
    })
}

/// Records on an upgrade's proration that the change replaced the subscription's card
/// (`previous`, none for a subscription that had no card): a refusal of the proration puts
/// it back (`billing::settle_failed`), whenever the refusal is learnt.
pub async fn remember_replaced_card(
    tx: &mut PgConnection,
    proration_id: i64,
    previous: Option<i64>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE subscription_periods SET replaced_card = true, previous_card_id = $2
          WHERE id = $1 AND kind = 'proration'",
    )
    .bind(proration_id)
    .bind(previous)
    .execute(tx)
    .await?;
    Ok(())
}

/// One of the member's saved cards with `provider`: its id, or refused.
pub async fn own_card(
    conn: &mut PgConnection,
    user_id: UserId,
    provider: &str,
    card_id: i64,
) -> Result<i64, SubscribeError> {
    sqlx::query_scalar(
        "SELECT id FROM saved_cards WHERE id = $1 AND user_id = $2 AND provider = $3",
    )
    .bind(card_id)
    .bind(user_id)
    .bind(provider)
    .fetch_optional(conn)
    .await?
    .ok_or(SubscribeError::CardNotFound)
}

/// A type 21 activity's product and recurrence as subscribing reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductOffer {
    pub action_id: i64,
    pub action_subscription_id: i64,
    pub recurrence: super::Recurrence,
    pub product_id: i64,
    /// The product's price (value less its discount).
    pub unit_price: Cents,
}

/// The offer a type 21 subscription is made from: the station's type 21 activity, one of
/// its active recurrences, and a product of it on sale and in stock. Anything else is
/// 'Produto indisponível para assinatura no momento.'.
pub async fn product_offer(
    conn: &mut PgConnection,
    station_id: StationId,
    action_id: i64,
    action_subscription_id: i64,
    product_id: i64,
    quantity: i32,
) -> Result<ProductOffer, SubscribeError> {
    let action: Option<i16> = sqlx::query_scalar(
        "SELECT type_id FROM actions WHERE id = $1 AND station_id = $2 AND active",
    )
    .bind(action_id)
    .bind(station_id)
    .fetch_optional(&mut *conn)
    .await?;
    if action != Some(21) {
        return Err(SubscribeError::ProductUnavailable);
    }
    let recurrence: Option<String> = sqlx::query_scalar(
        "SELECT recurrence FROM action_subscriptions
          WHERE id = $1 AND action_id = $2 AND station_id = $3 AND active",
    )
    .bind(action_subscription_id)
    .bind(action_id)
    .bind(station_id)
    .fetch_optional(&mut *conn)
    .await?;
    let recurrence = recurrence
        .as_deref()
        .and_then(super::Recurrence::parse)
        .ok_or(SubscribeError::RecurrenceNotFound)?;
    let product: Option<(i64, i64, i32)> = sqlx::query_as(
        "SELECT value, discount_value, stock - reserved FROM products
          WHERE id = $1 AND action_id = $2 AND station_id = $3 AND active",
    )
    .bind(product_id)
    .bind(action_id)
    .bind(station_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((value, discount, stock)) = product else {
        return Err(SubscribeError::ProductUnavailable);
    };
    if stock < quantity {
        return Err(SubscribeError::ProductUnavailable);
    }
    let unit_price = if discount > 0 {
        (value - discount).max(0)
    } else {
        value
    };
    Ok(ProductOffer {
        action_id,
        action_subscription_id,
        recurrence,
        product_id,
        unit_price: Cents(unit_price),
    })
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn proration_is_the_difference_for_what_is_left_rounded() {
        let start = Utc.with_ymd_and_hms(2027, 1, 1, 0, 0, 0).unwrap();
        let end = Utc.with_ymd_and_hms(2027, 1, 31, 0, 0, 0).unwrap();
        let half = Utc.with_ymd_and_hms(2027, 1, 16, 0, 0, 0).unwrap();
        assert_eq!(proration(Cents(1000), half, start, end), Cents(500));
        assert_eq!(proration(Cents(1000), start, start, end), Cents(1000));
        assert_eq!(proration(Cents(1000), end, start, end), Cents::ZERO);
        // A third of 1001 is 333.67: rounds to 334.
        let third = start + (end - start) * 2 / 3;
        assert_eq!(proration(Cents(1001), third, start, end), Cents(334));
        assert_eq!(proration(Cents(-5), half, start, end), Cents::ZERO);
    }
}
