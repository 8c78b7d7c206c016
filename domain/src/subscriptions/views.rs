//! What members and staff read of subscriptions: the member's plan (`User.subscription`),
//! their charges ('Minhas assinaturas'), their type 21 subscriptions, and the console's
//! subscriptions with their periods and tries. Every read is scoped by station and, for
//! members, by the member.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use sqlx::PgConnection;

use super::plans::{self, Plan};
use super::{PlanPeriod, Recurrence, SubscriptionStatus};
use crate::shared::ids::{Cents, StationId, UserId};
use crate::shared::money::format_brl;

/// The card that pays a subscription (spec: `brand, last_digits, expiration_date`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    pub id: i64,
    pub brand: String,
    pub last_digits: String,
    /// `MM/YY`, when the card's expiry is known.
    pub expiration_date: Option<String>,
}

/// The last paid period's charge (spec: `transaction (id, date_created)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transaction {
    /// The paid try's id; `None` when the period cost nothing.
    pub id: Option<i64>,
    pub date_created: DateTime<Utc>,
}

/// A member's plan subscription as the web app keeps it (spec 002 "User subscription").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserSubscription {
    pub id: i64,
    pub plan: Plan,
    pub status: SubscriptionStatus,
    pub amount: Cents,
    pub card: Option<Card>,
    pub current_period_end: DateTime<Utc>,
    pub cancel_at_period_end: bool,
    pub next_plan: Option<Plan>,
    pub transaction: Option<Transaction>,
    /// Our reference at the provider.
    pub internal_id: String,
}

#[derive(sqlx::FromRow)]
struct SubscriptionRow {
    id: i64,
    station_id: i64,
    plan_id: Option<i64>,
    status: SubscriptionStatus,
    amount: i64,
    current_period_end: DateTime<Utc>,
    cancel_at_period_end: bool,
    next_plan_id: Option<i64>,
    card_id: Option<i64>,
    brand: Option<String>,
    last_digits: Option<String>,
    exp_month: Option<i32>,
    exp_year: Option<i32>,
    charge_id: Option<i64>,
    paid_at: Option<DateTime<Utc>>,
}

const SUBSCRIPTION: &str = "SELECT s.id, s.station_id, s.plan_id, s.status, s.amount,
        s.current_period_end, s.cancel_at_period_end, s.next_plan_id,
        c.id AS card_id, c.brand, c.last_digits, c.exp_month, c.exp_year,
        paid.charge_id, paid.paid_at
   FROM subscriptions s
   LEFT JOIN saved_cards c ON c.id = s.saved_card_id
   LEFT JOIN LATERAL (
        SELECT p.paid_at, (SELECT ch.id FROM subscription_charges ch
                            WHERE ch.period_id = p.id AND ch.status = 'paid') AS charge_id
          FROM subscription_periods p
         WHERE p.subscription_id = s.id AND p.status = 'paid'
         ORDER BY p.paid_at DESC, p.id DESC LIMIT 1) paid ON true";

/// The subscription's reference at the provider and in the console.
pub fn internal_id(subscription_id: i64) -> String {
    format!("subscription-{subscription_id}")
}

async fn user_subscription(
    conn: &mut PgConnection,
    row: SubscriptionRow,
) -> sqlx::Result<Option<UserSubscription>> {
    let station = StationId(row.station_id);
    let Some(plan_id) = row.plan_id else {
        return Ok(None);
    };
    let Some(plan) = plans::find(conn, station, plan_id).await? else {
        return Ok(None);
    };
    let next_plan = match row.next_plan_id {
        Some(id) => plans::find(conn, station, id).await?,
        None => None,
    };
    let card = match (row.card_id, row.brand, row.last_digits) {
        (Some(id), Some(brand), Some(last_digits)) => Some(Card {
            id,
            brand,
            last_digits,
            expiration_date: match (row.exp_month, row.exp_year) {
                (Some(month), Some(year)) => Some(format!("{month:02}/{:02}", year % 100)),
                _ => None,
            },
        }),
        _ => None,
    };
    Ok(Some(UserSubscription {
        id: row.id,
        plan,
        status: row.status,
        amount: Cents(row.amount),
        card,
        current_period_end: row.current_period_end,
        cancel_at_period_end: row.cancel_at_period_end,
        next_plan,
        transaction: row.paid_at.map(|date_created| Transaction {
            id: row.charge_id,
            date_created,
        }),
        internal_id: internal_id(row.id),
    }))
}

/// The member's live plan subscription (`incomplete`, `active`, `past_due`), if any.
pub async fn live_plan(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
) -> sqlx::Result<Option<UserSubscription>> {
    let row: Option<SubscriptionRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SUBSCRIPTION} WHERE s.station_id = $1 AND s.user_id = $2 AND s.plan_id IS NOT NULL
            AND s.status IN ('incomplete', 'active', 'past_due')"
    )))
    .bind(station_id)
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    match row {
        Some(row) => user_subscription(conn, row).await,
        None => Ok(None),
    }
}

/// One of the member's plan subscriptions by id, whatever its state.
pub async fn plan_subscription(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    subscription_id: i64,
) -> sqlx::Result<Option<UserSubscription>> {
    let row: Option<SubscriptionRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SUBSCRIPTION} WHERE s.id = $1 AND s.station_id = $2 AND s.user_id = $3"
    )))
    .bind(subscription_id)
    .bind(station_id)
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    match row {
        Some(row) => user_subscription(conn, row).await,
        None => Ok(None),
    }
}

/// One period of a member's subscription as 'Minhas assinaturas' lists it (spec 002
/// "Subscription charge").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeLine {
    pub id: i64,
    pub subscription_id: i64,
    pub action_id: Option<i64>,
    pub plan_id: Option<i64>,
    /// The activity's name, or the plan's.
    pub name: String,
    pub action_subscription_description: Option<String>,
    /// The subscription was cancelled (now or at its period's end) or ended, or this period
    /// is no longer owed.
    pub cancelled: bool,
    /// The period was paid (also when the bank took its charge back since: see `taken_back`).
    pub paid: bool,
    /// 'Pago', 'Aguardando pagamento', 'Recusado', 'Cancelado'; a paid period whose charge
    /// the bank took back 'Estornado', 'Parcialmente estornado' or 'Contestado'.
    pub status: &'static str,
    /// What the bank took back of the period's paid charge, if anything.
    pub taken_back: Option<TakenBack>,
    /// 'dd/mm/aaaa a dd/mm/aaaa' in the station's time zone.
    pub vigencia: String,
    pub price_formatted: String,
    pub paid_formatted: String,
    pub recurrence_formatted: &'static str,
    pub created_at: DateTime<Utc>,
}

/// How the bank took back a paid period's charge (docs/decisions.md, "Subscriptions: a
/// charge the bank takes back").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TakenBack {
    /// Refunded whole: 'Estornado'.
    Refunded,
    /// Refunded in part: 'Parcialmente estornado'.
    PartiallyRefunded,
    /// Disputed by the card holder: 'Contestado'.
    Chargedback,
}

impl TakenBack {
    /// Of a paid try's recorded refund and chargeback; `None` when nothing was taken back.
    pub fn of(amount: i64, bank_refunded_cents: i64, chargedback: bool) -> Option<Self> {
        if chargedback {
            Some(Self::Chargedback)
        } else if bank_refunded_cents >= amount && bank_refunded_cents > 0 {
            Some(Self::Refunded)
        } else if bank_refunded_cents > 0 {
            Some(Self::PartiallyRefunded)
        } else {
            None
        }
    }

    /// The 'Status pagamento' the member reads.
    pub fn label(self) -> &'static str {
        match self {
            Self::Refunded => "Estornado",
            Self::PartiallyRefunded => "Parcialmente estornado",
            Self::Chargedback => "Contestado",
        }
    }

    /// What the member paid and kept paid of `amount`.
    pub fn paid_left(self, amount: i64, bank_refunded_cents: i64) -> i64 {
        match self {
            Self::Chargedback | Self::Refunded => 0,
            Self::PartiallyRefunded => (amount - bank_refunded_cents).max(0),
        }
    }
}

#[derive(sqlx::FromRow)]
struct ChargeRow {
    id: i64,
    subscription_id: i64,
    action_id: Option<i64>,
    plan_id: Option<i64>,
    name: String,
    description: Option<String>,
    subscription_status: SubscriptionStatus,
    cancel_at_period_end: bool,
    status: super::PeriodStatus,
    starts_at: DateTime<Utc>,
    ends_at: DateTime<Utc>,
    amount: i64,
    recurrence: String,
    created_at: DateTime<Utc>,
    bank_refunded_cents: i64,
    chargedback: bool,
}

/// 'Mensal', 'Semestral', ... of `subscriptions.recurrence` (a plan's or type 21's word).
pub fn recurrence_label(recurrence: &str) -> &'static str {
    match recurrence {
        "month" => "Mensal",
        "semester" => "Semestral",
        "year" => "Anual",
        other => Recurrence::parse(other).map_or("", Recurrence::label),
    }
}

/// A plan period's label on the plan card.
pub fn plan_period_label(days: i32) -> &'static str {
    PlanPeriod::from_days(days).map_or("ano", PlanPeriod::label)
}

fn day(zone: Tz, at: DateTime<Utc>) -> String {
    at.with_timezone(&zone).format("%d/%m/%Y").to_string()
}

/// The member's charges, newest first; with `action_id`, only that activity's.
pub async fn charges(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    zone: Tz,
) -> sqlx::Result<Vec<ChargeLine>> {
    let rows: Vec<ChargeRow> = sqlx::query_as(
        "SELECT p.id, p.subscription_id, s.action_id, COALESCE(p.plan_id, s.plan_id) AS plan_id,
                COALESCE(a.name, pl.name, '') AS name, acs.description,
                s.status AS subscription_status, s.cancel_at_period_end, p.status,
                p.starts_at, p.ends_at, p.amount, s.recurrence, p.created_at,
                COALESCE(taken.bank_refunded_cents, 0) AS bank_refunded_cents,
                COALESCE(taken.chargedback, false) AS chargedback
           FROM subscription_periods p
           JOIN subscriptions s ON s.id = p.subscription_id
           LEFT JOIN LATERAL (
                SELECT c.bank_refunded_cents, c.chargedback_at IS NOT NULL AS chargedback
                  FROM subscription_charges c
                 WHERE c.period_id = p.id AND c.status = 'paid'
                 ORDER BY c.id DESC LIMIT 1) taken ON true
           LEFT JOIN actions a ON a.id = s.action_id
           LEFT JOIN plans pl ON pl.id = COALESCE(p.plan_id, s.plan_id)
           LEFT JOIN action_subscriptions acs ON acs.id = s.action_subscription_id
          WHERE p.user_id = $1 AND p.station_id = $2
          ORDER BY p.id DESC",
    )
    .bind(user_id)
    .bind(station_id)
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            use super::PeriodStatus::*;
            let paid = row.status == Paid;
            let taken_back = TakenBack::of(row.amount, row.bank_refunded_cents, row.chargedback)
                .filter(|_| paid);
            let paid_amount = match (paid, taken_back) {
                (false, _) => 0,
                (true, Some(taken)) => taken.paid_left(row.amount, row.bank_refunded_cents),
                (true, None) => row.amount,
            };
            ChargeLine {
                id: row.id,
                subscription_id: row.subscription_id,
                action_id: row.action_id,
                plan_id: row.plan_id,
                name: row.name,
                action_subscription_description: row.description,
                // Cancelled at the period's end: paid up, but nothing more will be charged.
                cancelled: row.status == Void
                    || row.cancel_at_period_end
                    || matches!(
                        row.subscription_status,
                        SubscriptionStatus::Canceled | SubscriptionStatus::Ended
                    ),
                paid,
                status: match row.status {
                    Paid => taken_back.map_or("Pago", TakenBack::label),
                    Due => "Aguardando pagamento",
                    Failed => "Recusado",
                    Void => "Cancelado",
                },
                taken_back,
                vigencia: format!("{} a {}", day(zone, row.starts_at), day(zone, row.ends_at)),
                price_formatted: format_brl(row.amount),
                paid_formatted: format_brl(paid_amount),
                recurrence_formatted: recurrence_label(&row.recurrence),
                created_at: row.created_at,
            }
        })
        .collect())
}

/// A member's type 21 subscription (`GET user-subscribed-action`).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ProductSubscription {
    pub id: i64,
    pub action_id: i64,
    pub action_name: String,
    pub action_subscription_id: Option<i64>,
    pub recurrence: String,
    pub description: Option<String>,
    pub product_id: i64,
    pub product_name: String,
    pub quantity: i32,
    pub amount: Cents,
    pub status: SubscriptionStatus,
    pub current_period_start: DateTime<Utc>,
    pub current_period_end: DateTime<Utc>,
    pub cancel_at_period_end: bool,
    pub canceled_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

const PRODUCT_SUBSCRIPTION: &str = "SELECT s.id, s.action_id, a.name AS action_name,
        s.action_subscription_id, s.recurrence, acs.description, s.product_id,
        pr.name AS product_name, s.quantity, s.amount, s.status, s.current_period_start,
        s.current_period_end, s.cancel_at_period_end, s.canceled_at, s.created_at
   FROM subscriptions s
   JOIN actions a ON a.id = s.action_id
   JOIN products pr ON pr.id = s.product_id
   LEFT JOIN action_subscriptions acs ON acs.id = s.action_subscription_id";

/// The member's type 21 subscriptions, newest first; with `action_id`, that activity's.
pub async fn product_subscriptions(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    action_id: Option<i64>,
) -> sqlx::Result<Vec<ProductSubscription>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{PRODUCT_SUBSCRIPTION}
          WHERE s.station_id = $1 AND s.user_id = $2 AND s.action_id IS NOT NULL
            AND ($3::bigint IS NULL OR s.action_id = $3)
          ORDER BY s.id DESC"
    )))
    .bind(station_id)
    .bind(user_id)
    .bind(action_id)
    .fetch_all(conn)
    .await
}

/// One of the member's type 21 subscriptions.
pub async fn product_subscription(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    subscription_id: i64,
) -> sqlx::Result<Option<ProductSubscription>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{PRODUCT_SUBSCRIPTION} WHERE s.id = $1 AND s.station_id = $2 AND s.user_id = $3"
    )))
    .bind(subscription_id)
    .bind(station_id)
    .bind(user_id)
    .fetch_optional(conn)
    .await
}

/// A subscription with its periods and tries, for the support console.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ConsoleSubscription {
    pub id: i64,
    pub user_id: i64,
    pub user_name: String,
    pub plan_id: Option<i64>,
    pub action_id: Option<i64>,
    pub product_id: Option<i64>,
    /// The plan's name, or the type 21 activity's.
    pub name: String,
    pub product_name: Option<String>,
    /// The card renewals charge: its brand and last digits.
    pub card_brand: Option<String>,
    pub card_last_digits: Option<String>,
    pub recurrence: String,
    pub amount: Cents,
    pub status: SubscriptionStatus,
    pub current_period: i32,
    pub current_period_start: DateTime<Utc>,
    pub current_period_end: DateTime<Utc>,
    pub cancel_at_period_end: bool,
    pub next_plan_id: Option<i64>,
    /// The waiting downgrade's plan, by name.
    pub next_plan_name: Option<String>,
    pub created_at: DateTime<Utc>,
    #[sqlx(json)]
    pub periods: Vec<ConsolePeriod>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct ConsolePeriod {
    pub id: i64,
    pub kind: super::PeriodKind,
    pub period_index: i32,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub amount: Cents,
    pub status: super::PeriodStatus,
    pub attempts: i32,
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub paid_at: Option<DateTime<Utc>>,
    pub tries: Vec<ConsoleTry>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct ConsoleTry {
    pub id: i64,
    pub attempt: i32,
    pub amount: Cents,
    pub status: super::AttemptStatus,
    pub failure_reason: Option<String>,
    /// The provider's charge, as its dashboard names it.
    pub gateway_charge_id: Option<String>,
    pub created_at: DateTime<Utc>,
    pub settled_at: Option<DateTime<Utc>>,
    /// What the provider reports given back of a paid try (the bank, staff at the provider).
    pub bank_refunded_cents: Cents,
    pub chargedback_at: Option<DateTime<Utc>>,
}

/// A station's subscriptions (one member's with `user_id`), newest first, at most `limit`.
pub async fn of_station(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: Option<UserId>,
    limit: i64,
) -> sqlx::Result<Vec<ConsoleSubscription>> {
    sqlx::query_as(
        "SELECT s.id, s.user_id, u.name AS user_name, s.plan_id, s.action_id, s.product_id,
                COALESCE(pl.name, a.name, '') AS name, pr.name AS product_name,
                card.brand AS card_brand, card.last_digits AS card_last_digits,
                s.recurrence, s.amount, s.status, s.current_period, s.current_period_start,
                s.current_period_end, s.cancel_at_period_end, s.next_plan_id, np.name AS next_plan_name,
                s.created_at,
                COALESCE((SELECT json_agg(json_build_object(
                            'id', p.id, 'kind', p.kind, 'period_index', p.period_index,
                            'starts_at', p.starts_at, 'ends_at', p.ends_at, 'amount', p.amount,
                            'status', p.status, 'attempts', p.attempts,
                            'next_attempt_at', p.next_attempt_at, 'paid_at', p.paid_at,
                            'tries', COALESCE((SELECT json_agg(json_build_object(
                                        'id', c.id, 'attempt', c.attempt, 'amount', c.amount,
                                        'status', c.status, 'failure_reason', c.failure_reason,
                                        'gateway_charge_id', c.gateway_charge_id,
                                        'created_at', c.created_at, 'settled_at', c.settled_at,
                                        'bank_refunded_cents', c.bank_refunded_cents,
                                        'chargedback_at', c.chargedback_at)
                                        ORDER BY c.attempt)
                                        FROM subscription_charges c WHERE c.period_id = p.id),
                                        '[]'::json))
                            ORDER BY p.id DESC)
                            FROM subscription_periods p WHERE p.subscription_id = s.id),
                          '[]'::json) AS periods
           FROM subscriptions s
           JOIN users u ON u.id = s.user_id
           LEFT JOIN plans pl ON pl.id = s.plan_id
           LEFT JOIN plans np ON np.id = s.next_plan_id
           LEFT JOIN actions a ON a.id = s.action_id
           LEFT JOIN products pr ON pr.id = s.product_id
           LEFT JOIN saved_cards card ON card.id = s.saved_card_id
          WHERE s.station_id = $1 AND ($2::bigint IS NULL OR s.user_id = $2)
          ORDER BY s.id DESC
          LIMIT $3",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// The station of a subscription, for the console's grant check.
pub async fn station_of(
    conn: &mut PgConnection,
    subscription_id: i64,
) -> sqlx::Result<Option<StationId>> {
    sqlx::query_scalar("SELECT station_id FROM subscriptions WHERE id = $1")
        .bind(subscription_id)
        .fetch_optional(conn)
        .await
}

/// One recurrence a type 21 activity offers (spec 001 `action_subscriptions`).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ActionSubscription {
    pub id: i64,
    pub recurrence: String,
    pub description: String,
}

/// The active recurrences of an activity of the station, weekly first.
pub async fn action_subscriptions(
    conn: &mut PgConnection,
    station_id: StationId,
    action_id: i64,
) -> sqlx::Result<Vec<ActionSubscription>> {
    sqlx::query_as(
        "SELECT id, recurrence, description FROM action_subscriptions
          WHERE action_id = $1 AND station_id = $2 AND active
          ORDER BY array_position(ARRAY['weekly', 'biweekly', 'monthly', 'bimonthly',
                                        'quarterly', 'halfyearly', 'yearly'], recurrence), id",
    )
    .bind(action_id)
    .bind(station_id)
    .fetch_all(conn)
    .await
}

#[cfg(test)]
mod tests {
    use super::TakenBack;

    #[test]
    fn a_paid_charge_taken_back_reads_what_the_bank_did() {
        assert_eq!(TakenBack::of(2990, 0, false), None);
        let partial = TakenBack::of(2990, 1000, false).expect("partial");
        assert_eq!(
            (partial.label(), partial.paid_left(2990, 1000)),
            ("Parcialmente estornado", 1990)
        );
        let whole = TakenBack::of(2990, 2990, false).expect("whole");
        assert_eq!(
            (whole.label(), whole.paid_left(2990, 2990)),
            ("Estornado", 0)
        );
        // A chargeback reads as such whatever was refunded before it.
        let disputed = TakenBack::of(2990, 1000, true).expect("chargeback");
        assert_eq!(
            (disputed.label(), disputed.paid_left(2990, 1000)),
            ("Contestado", 0)
        );
    }
}
