//! What the billing dispatcher finds, in batches on the caller's transaction: live
//! subscriptions whose period has run out (cancelled at its end, switched to the plan a
//! downgrade waits for, or given their next period), the due periods whose try has come
//! (each leased as it is handed out, so the next tick does not hand it out again), and the
//! saved cards that will expire before the renewal they pay.
//!
//! Every batch takes its rows `FOR UPDATE SKIP LOCKED`: two dispatchers at once split the
//! work instead of doing it twice, and the period rows' unique key makes one period per
//! index whatever happens.

use chrono::{DateTime, Duration, Utc};
use sqlx::PgConnection;

use super::billing::{DueCharge, LEASE_MINUTES};
use super::mail::ExpiringCard;
use super::{BillingMethod, Period, PlanPeriod};

/// A PIX renewal is made this long before its period starts, so the member can pay it
/// before access would lapse.
pub const PIX_LEAD_DAYS: i64 = 3;
/// A PIX renewal can be paid until this long after its period started.
pub const PIX_GRACE_DAYS: i64 = 3;
/// A PIX charge is never asked for shorter than this.
pub const PIX_MIN_SECONDS: i64 = 3600;
/// Card reminders go to subscriptions renewing within this many days.
pub const CARD_REMINDER_DAYS: i64 = 30;

/// When the PIX of a period starting at `starts_at`, made at `made_at`, expires:
/// [`PIX_GRACE_DAYS`] after the period starts, or after it was made for a retry made later.
/// Both are fixed once the try exists, so a resumed call asks for the same charge.
pub fn pix_expiry(starts_at: DateTime<Utc>, made_at: DateTime<Utc>) -> DateTime<Utc> {
    starts_at.max(made_at) + Duration::days(PIX_GRACE_DAYS)
}

/// What one batch of period ends did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Renewed {
    /// Subscriptions taken in the batch.
    pub seen: usize,
    /// Renewal periods made.
    pub created: usize,
    /// Cancelled at their period's end.
    pub canceled: usize,
    /// Switched to the plan a downgrade waited for.
    pub downgraded: usize,
}

#[derive(Debug, sqlx::FromRow)]
struct Ending {
    id: i64,
    station_id: i64,
    user_id: i64,
    cancel_at_period_end: bool,
    next_plan_id: Option<i64>,
    plan_id: Option<i64>,
    current_period: i32,
    current_period_end: DateTime<Utc>,
    anchor_at: DateTime<Utc>,
    anchor_index: i32,
    period_months: i32,
    period_days: i32,
    amount: i64,
    method: BillingMethod,
}

/// Takes up to `limit` active subscriptions whose period ends by `now` (a PIX one
/// [`PIX_LEAD_DAYS`] ahead) and has no next period yet: a cancellation at the period's end
/// ends it; a waiting downgrade switches its plan and price first; the rest get their next
/// period (`renewal`, due at its start; a PIX one at once, to make its charge ahead).
pub async fn renew_batch(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Renewed> {
    let ending: Vec<Ending> = sqlx::query_as(
        "SELECT s.id, s.station_id, s.user_id, s.cancel_at_period_end, s.next_plan_id,
                s.plan_id, s.current_period, s.current_period_end, s.anchor_at,
                s.anchor_index, s.period_months, s.period_days, s.amount, s.method
           FROM subscriptions s
          WHERE s.status = 'active'
            AND s.current_period_end <= $1 + make_interval(days => $3)
            AND (s.method = 'pix' OR s.current_period_end <= $1)
            AND NOT (s.cancel_at_period_end AND s.current_period_end > $1)
            AND NOT EXISTS (
                SELECT 1 FROM subscription_periods p
                 WHERE p.subscription_id = s.id AND p.period_index = s.current_period + 1
                   AND p.kind <> 'proration')
          ORDER BY s.current_period_end
          LIMIT $2
            FOR UPDATE OF s SKIP LOCKED",
    )
    .bind(now)
    .bind(limit)
    .bind(i32::try_from(PIX_LEAD_DAYS).unwrap_or(3))
    .fetch_all(&mut *conn)
    .await?;
    let mut renewed = Renewed {
        seen: ending.len(),
        ..Renewed::default()
    };
    let mut rows = NewPeriods::default();
    for mut s in ending {
        // Taken only once its period has ended (a PIX one is not renewed ahead).
        if s.cancel_at_period_end {
            sqlx::query(
                "UPDATE subscriptions
                    SET status = 'canceled', canceled_at = coalesce(canceled_at, $2),
                        ended_at = current_period_end
                  WHERE id = $1",
            )
            .bind(s.id)
            .bind(now)
            .execute(&mut *conn)
            .await?;
            renewed.canceled += 1;
            continue;
        }
        if let Some(next_plan_id) = s.next_plan_id {
            downgrade(conn, &mut s, next_plan_id).await?;
            renewed.downgraded += 1;
        }
        let period = Period {
            months: u32::try_from(s.period_months).unwrap_or(0),
            days: u32::try_from(s.period_days).unwrap_or(0),
        };
        let index = s.current_period + 1;
        let starts_at = s.current_period_end;
        let from_anchor = u32::try_from(index - s.anchor_index).unwrap_or(0);
        let mut ends_at = period.end(s.anchor_at, from_anchor);
        if ends_at <= starts_at {
            ends_at = period.end(starts_at, 0);
        }
        rows.push(
            &s,
            index,
            starts_at,
            ends_at,
            match s.method {
                BillingMethod::Card => starts_at,
                BillingMethod::Pix => now,
            },
        );
    }
    renewed.created = rows.insert(conn).await?;
    Ok(renewed)
}

/// Switches a subscription to the plan its downgrade waited for, at that plan's price now
/// (less its discount; a plan no longer sold online keeps the price it had). A plan of
/// another length re-anchors the subscription on the next period: it is counted from where
/// this one ends (never from a date computed backwards, whose day a short month clamps).
async fn downgrade(conn: &mut PgConnection, s: &mut Ending, next_plan_id: i64) -> sqlx::Result<()> {
    let plan: Option<(Option<i64>, i64, i32)> =
        sqlx::query_as("SELECT amount, discount, days FROM plans WHERE id = $1")
            .bind(next_plan_id)
            .fetch_optional(&mut *conn)
            .await?;
    let Some((amount, discount, days)) = plan else {
        return Ok(());
    };
    if let Some(amount) = amount {
        s.amount = (amount - discount).max(0);
    }
    s.plan_id = Some(next_plan_id);
    let mut recurrence = None;
    if let Some(plan_period) = PlanPeriod::from_days(days) {
        let period = plan_period.period();
        let months = i32::try_from(period.months).unwrap_or(0);
        if months != s.period_months || s.period_days != 0 {
            s.anchor_at = s.current_period_end;
            s.anchor_index = s.current_period + 1;
            s.period_months = months;
            s.period_days = 0;
            recurrence = Some(plan_period.as_str());
        }
    }
    sqlx::query(
        "UPDATE subscriptions
            SET plan_id = $2, amount = $3, next_plan_id = NULL, anchor_at = $4,
                period_months = $5, period_days = $6, recurrence = coalesce($7, recurrence),
                anchor_index = $8
          WHERE id = $1",
    )
    .bind(s.id)
    .bind(next_plan_id)
    .bind(s.amount)
    .bind(s.anchor_at)
    .bind(s.period_months)
    .bind(s.period_days)
    .bind(recurrence)
    .bind(s.anchor_index)
    .execute(conn)
    .await?;
    Ok(())
}

/// Renewal rows to insert in one statement.
#[derive(Debug, Default)]
struct NewPeriods {
    station: Vec<i64>,
    user: Vec<i64>,
    subscription: Vec<i64>,
    index: Vec<i32>,
    starts: Vec<DateTime<Utc>>,
    ends: Vec<DateTime<Utc>>,
    amount: Vec<i64>,
    plan: Vec<Option<i64>>,
    next: Vec<DateTime<Utc>>,
}

impl NewPeriods {
    fn push(
        &mut self,
        s: &Ending,
        index: i32,
        starts_at: DateTime<Utc>,
        ends_at: DateTime<Utc>,
        next_attempt_at: DateTime<Utc>,
    ) {
        self.station.push(s.station_id);
        self.user.push(s.user_id);
        self.subscription.push(s.id);
        self.index.push(index);
        self.starts.push(starts_at);
        self.ends.push(ends_at);
        self.amount.push(s.amount);
        self.plan.push(s.plan_id);
        self.next.push(next_attempt_at);
    }

    /// Inserts them, skipping any a concurrent dispatcher made first: answers how many
    /// were made.
    async fn insert(self, conn: &mut PgConnection) -> sqlx::Result<usize> {
        if self.subscription.is_empty() {
            return Ok(0);
        }
        let made = sqlx::query(
            "INSERT INTO subscription_periods (station_id, user_id, subscription_id, kind,
                 period_index, starts_at, ends_at, amount, plan_id, next_attempt_at)
             SELECT station_id, user_id, subscription_id, 'renewal', period_index, starts_at,
                    ends_at, amount, plan_id, next_attempt_at
               FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::int[],
                           $5::timestamptz[], $6::timestamptz[], $7::bigint[], $8::bigint[],
                           $9::timestamptz[])
                    AS t(station_id, user_id, subscription_id, period_index, starts_at, ends_at,
                         amount, plan_id, next_attempt_at)
             ON CONFLICT (subscription_id, period_index) WHERE kind <> 'proration' DO NOTHING",
        )
        .bind(&self.station)
        .bind(&self.user)
        .bind(&self.subscription)
        .bind(&self.index)
        .bind(&self.starts)
        .bind(&self.ends)
        .bind(&self.amount)
        .bind(&self.plan)
        .bind(&self.next)
        .execute(conn)
        .await?;
        Ok(usize::try_from(made.rows_affected()).unwrap_or(0))
    }
}

/// Takes up to `limit` due periods whose try has come by `now`, leases each to
/// `now + LEASE` (the next tick leaves them alone while their charge runs) and answers the
/// charges to queue, each keyed by the moment it fell due.
pub async fn due_batch(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<DueCharge>> {
    let rows: Vec<(i64, i64, i64, i64, i32, DateTime<Utc>)> = sqlx::query_as(
        "WITH due AS (
             SELECT p.id, p.next_attempt_at AS due_at
               FROM subscription_periods p
              WHERE p.status = 'due' AND p.next_attempt_at <= $1
              ORDER BY p.next_attempt_at
              LIMIT $2
                FOR UPDATE SKIP LOCKED
         )
         UPDATE subscription_periods p SET next_attempt_at = $3
           FROM due
          WHERE p.id = due.id
         RETURNING p.station_id, p.user_id, p.subscription_id, p.id, p.attempts + 1, due.due_at",
    )
    .bind(now)
    .bind(limit)
    .bind(now + Duration::minutes(LEASE_MINUTES))
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(
            |(station_id, user_id, subscription_id, period_id, attempt, due_at)| DueCharge {
                station_id,
                user_id,
                subscription_id,
                period_id,
                attempt,
                due_at,
            },
        )
        .collect())
}

/// The saved cards of live card subscriptions renewing within [`CARD_REMINDER_DAYS`] that
/// expire (after the last day of their expiry month) before that renewal, after `after`
/// (a card id, for paging), up to `limit`.
pub async fn expiring_cards(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    after: i64,
    limit: i64,
) -> sqlx::Result<Vec<ExpiringCard>> {
    sqlx::query_as(
        "SELECT DISTINCT ON (sc.id)
                sc.id AS card_id, s.station_id, s.user_id, s.id AS subscription_id, s.action_id,
                sc.last_digits, sc.exp_month, sc.exp_year, u.email,
                coalesce(pl.name, pr.name, 'Assinatura') AS name
           FROM subscriptions s
           JOIN saved_cards sc ON sc.id = s.saved_card_id
           JOIN users u ON u.id = s.user_id
           LEFT JOIN plans pl ON pl.id = s.plan_id
           LEFT JOIN products pr ON pr.id = s.product_id
          WHERE s.status IN ('active', 'past_due') AND s.method = 'card'
            AND NOT s.cancel_at_period_end
            AND s.current_period_end <= $1 + make_interval(days => $4)
            AND sc.exp_year IS NOT NULL
            AND make_timestamptz(sc.exp_year, sc.exp_month, 1, 0, 0, 0, 'UTC')
                + interval '1 month' <= s.current_period_end
            AND sc.id > $2
          ORDER BY sc.id, s.id
          LIMIT $3",
    )
    .bind(now)
    .bind(after)
    .bind(limit)
    .bind(i32::try_from(CARD_REMINDER_DAYS).unwrap_or(30))
    .fetch_all(conn)
    .await
}
