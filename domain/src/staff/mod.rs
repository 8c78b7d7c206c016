//! Who may use the support console and what they did there: staff grants (`support` acts,
//! `viewer` reads; one station or every station) and the audit log, written in the same
//! transaction as the action it records.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::{PgConnection, PgExecutor};

use crate::shared::ids::UserId;
use crate::shared::paging::{self, Listed};

#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "lowercase")]
pub enum Role {
    /// Re-runs, cancels, pauses and releases.
    Support,
    /// Reads everything in scope, acts on nothing.
    Viewer,
}

/// What a grant covers: one station's jobs and records, or every station plus the system
/// (cron ticks, retention, queue pauses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    AllStations,
    Station(i64),
}

impl Scope {
    /// The one station, or `None` for every station: the shape SQL filters bind.
    pub fn station_id(self) -> Option<i64> {
        match self {
            Self::AllStations => None,
            Self::Station(id) => Some(id),
        }
    }

    pub fn covers_station(self, station_id: i64) -> bool {
        self.station_id().is_none_or(|own| own == station_id)
    }
}

/// A staff member allowed into the console, with their grant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub user_id: UserId,
    pub name: String,
    pub email: Option<String>,
    pub role: Role,
    pub scope: Scope,
    /// The station of a one-station grant.
    pub station_name: Option<String>,
}

impl Grant {
    pub fn can_act(&self) -> bool {
        self.role == Role::Support
    }
}

#[derive(sqlx::FromRow)]
struct GrantRow {
    user_id: UserId,
    name: String,
    email: Option<String>,
    role: Role,
    station_id: Option<i64>,
    station_name: Option<String>,
}

/// The grant of an account that may use the console now: role `staff`, activated, not
/// blocked, with a grant row. `None` for everyone else.
pub async fn grant_of(db: impl PgExecutor<'_>, user_id: UserId) -> sqlx::Result<Option<Grant>> {
    let row: Option<GrantRow> = sqlx::query_as(
        "SELECT u.id AS user_id, u.name, u.email, g.role, g.station_id, s.name AS station_name
         FROM users u
         JOIN staff_grants g ON g.user_id = u.id
         LEFT JOIN stations s ON s.id = g.station_id
         WHERE u.id = $1 AND u.role = 'staff' AND u.active AND u.deleted_at IS NULL",
    )
    .bind(user_id)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|row| Grant {
        user_id: row.user_id,
        name: row.name,
        email: row.email,
        role: row.role,
        scope: row.station_id.map_or(Scope::AllStations, Scope::Station),
        station_name: row.station_name,
    }))
}

/// Gives (or changes) an account's grant. The account must already have role `staff`.
pub async fn set_grant(
    db: impl PgExecutor<'_>,
    user_id: i64,
    role: Role,
    scope: Scope,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO staff_grants (user_id, role, station_id) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE
         SET role = EXCLUDED.role, station_id = EXCLUDED.station_id, granted_at = now()",
    )
    .bind(user_id)
    .bind(role)
    .bind(scope.station_id())
    .execute(db)
    .await?;
    Ok(())
}

/// The kinds of staff action, as stored in `staff_audit.action`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::Type)]
#[sqlx(type_name = "text")]
pub enum Action {
    #[sqlx(rename = "job.rerun")]
    JobRerun,
    #[sqlx(rename = "jobs.rerun")]
    JobsRerun,
    #[sqlx(rename = "job.cancel")]
    JobCancel,
    #[sqlx(rename = "queue.pause")]
    QueuePause,
    #[sqlx(rename = "queue.resume")]
    QueueResume,
    #[sqlx(rename = "cashback.release")]
    CashbackRelease,
    #[sqlx(rename = "order.refund")]
    OrderRefund,
    #[sqlx(rename = "participation.annul")]
    ParticipationAnnul,
    /// A reported post or comment reviewed and left as it is.
    #[sqlx(rename = "content.keep")]
    ContentKeep,
    /// A post or comment hidden from the feed (it can be shown again).
    #[sqlx(rename = "content.hide")]
    ContentHide,
    /// A post or comment removed for good from what members see.
    #[sqlx(rename = "content.remove")]
    ContentRemove,
    /// A subscription's unpaid period tried again now.
    #[sqlx(rename = "subscription.retry")]
    SubscriptionRetry,
    /// A subscription cancelled by staff.
    #[sqlx(rename = "subscription.cancel")]
    SubscriptionCancel,
    /// A transfer request or a top-up under review confirmed: its points credited.
    #[sqlx(rename = "topup.confirm")]
    TopupConfirm,
    /// A transfer request or a top-up under review refused (a paid one's charge refunded).
    #[sqlx(rename = "topup.reject")]
    TopupReject,
    /// A credited PIX or card top-up refunded: its unspent points taken back.
    #[sqlx(rename = "topup.refund")]
    TopupRefund,
    /// A support message answered (the answer e-mailed to its sender).
    #[sqlx(rename = "support.answer")]
    SupportAnswer,
    /// A service appointment confirmed (or re-scheduled) by its desk.
    #[sqlx(rename = "appointment.confirm")]
    AppointmentConfirm,
    #[sqlx(rename = "appointment.done")]
    AppointmentDone,
    #[sqlx(rename = "appointment.absent")]
    AppointmentAbsent,
    #[sqlx(rename = "appointment.cancel")]
    AppointmentCancel,
    /// A legal or accounting case recorded or changed by its desk.
    #[sqlx(rename = "case.record")]
    CaseRecord,
    /// A health co-payment recorded, and its cashback credited.
    #[sqlx(rename = "health.copay")]
    HealthCopay,
    /// News published for a desk's page.
    #[sqlx(rename = "news.publish")]
    NewsPublish,
    /// A desk's CSV of cases or appointments sent for import.
    #[sqlx(rename = "services.import")]
    ServicesImport,
}

/// One action about to be recorded.
#[derive(Debug, Clone)]
pub struct AuditRecord<'a> {
    pub user_id: i64,
    pub action: Action,
    /// The station the action concerns, if one: who of that station's staff can see it.
    pub station_id: Option<i64>,
    pub job_ids: &'a [String],
    pub details: Value,
}

/// Writes the audit row on the action's own transaction: the action and its record commit
/// or roll back together.
pub async fn record(tx: &mut PgConnection, entry: AuditRecord<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO staff_audit (user_id, action, station_id, job_ids, details)
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(entry.user_id)
    .bind(entry.action)
    .bind(entry.station_id)
    .bind(entry.job_ids)
    .bind(entry.details)
    .fetch_one(&mut *tx)
    .await
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditUser {
    pub id: i64,
    pub name: String,
    pub email: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AuditEntry {
    pub id: i64,
    pub created_at: DateTime<Utc>,
    pub user: AuditUser,
    pub action: Action,
    pub station_id: Option<i64>,
    pub job_ids: Vec<String>,
    pub details: Value,
}

#[derive(sqlx::FromRow)]
struct AuditRow {
    id: i64,
    created_at: DateTime<Utc>,
    user_id: i64,
    user_name: String,
    user_email: Option<String>,
    action: Action,
    station_id: Option<i64>,
    job_ids: Vec<String>,
    details: Value,
}

/// A page of the audit log, newest first, and how many entries match in all. A one-station
/// scope sees only the entries of its station; `job_id` keeps the entries that touched it.
pub async fn audit_page(
    db: &mut PgConnection,
    scope: Scope,
    job_id: Option<&str>,
    page: i64,
    per_page: i64,
) -> sqlx::Result<Listed<AuditEntry>> {
    macro_rules! matching {
        () => {
            " WHERE ($1::bigint IS NULL OR a.station_id = $1)
                AND ($2::text IS NULL OR a.job_ids @> ARRAY[$2::text]) "
        };
    }
    let total = sqlx::query_scalar(concat!("SELECT count(*) FROM staff_audit a", matching!()))
        .bind(scope.station_id())
        .bind(job_id);
    let rows = sqlx::query_as::<_, AuditRow>(concat!(
        "SELECT a.id, a.created_at, a.user_id, u.name AS user_name, u.email AS user_email,
                a.action, a.station_id, a.job_ids, a.details
         FROM staff_audit a JOIN users u ON u.id = a.user_id",
        matching!(),
        "ORDER BY a.created_at DESC, a.id DESC LIMIT $3 OFFSET $4"
    ))
    .bind(scope.station_id())
    .bind(job_id)
    .bind(per_page)
    .bind((page - 1).saturating_mul(per_page));
    let listed = paging::listed(db, rows, total).await?;
    Ok(listed.map(|row| AuditEntry {
        id: row.id,
        created_at: row.created_at,
        user: AuditUser {
            id: row.user_id,
            name: row.user_name,
            email: row.user_email,
        },
        action: row.action,
        station_id: row.station_id,
        job_ids: row.job_ids,
        details: row.details,
    }))
}

/// A station as the console lists it: its release schedule and the cashback waiting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StationOverview {
    pub id: i64,
    pub name: String,
    pub subdomain: String,
    pub release: ReleaseSchedule,
    pub pending: PendingCashback,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseSchedule {
    pub expression: String,
    pub enabled: bool,
    pub last_tick: Option<DateTime<Utc>>,
}

/// Pending lots, and those of them whose holding period has ended (the next release takes
/// them). Amounts in hundredths of a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PendingCashback {
    pub lots: i64,
    pub amount_cents: i64,
    pub due_lots: i64,
    pub due_amount_cents: i64,
}

#[derive(sqlx::FromRow)]
struct StationRow {
    id: i64,
    name: String,
    subdomain: String,
    expression: String,
    enabled: bool,
    last_tick: Option<DateTime<Utc>>,
    lots: i64,
    amount_cents: i64,
    due_lots: i64,
    due_amount_cents: i64,
}

/// The stations in scope (`only`, when given, narrows to one), by id.
pub async fn stations(
    db: impl PgExecutor<'_>,
    scope: Scope,
    only: Option<i64>,
) -> sqlx::Result<Vec<StationOverview>> {
    let rows: Vec<StationRow> = sqlx::query_as(
        "SELECT s.id, s.name, s.subdomain,
                coalesce(c.expression, $3) AS expression, coalesce(c.enabled, true) AS enabled,
                c.last_tick,
                coalesce(p.lots, 0) AS lots, coalesce(p.amount, 0)::bigint AS amount_cents,
                coalesce(p.due_lots, 0) AS due_lots,
                coalesce(p.due_amount, 0)::bigint AS due_amount_cents
         FROM stations s
         LEFT JOIN cashback_schedules c ON c.station_id = s.id
         LEFT JOIN LATERAL (
             SELECT count(*) AS lots, sum(amount) AS amount,
                    count(*) FILTER (WHERE available_at <= now()) AS due_lots,
                    sum(amount) FILTER (WHERE available_at <= now()) AS due_amount
             FROM credit_lots WHERE station_id = s.id AND state = 'pending'
         ) p ON true
         WHERE ($1::bigint IS NULL OR s.id = $1) AND ($2::bigint IS NULL OR s.id = $2)
         ORDER BY s.id",
    )
    .bind(scope.station_id())
    .bind(only)
    .bind(crate::wallet::release::DEFAULT_SCHEDULE)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| StationOverview {
            id: row.id,
            name: row.name,
            subdomain: row.subdomain,
            release: ReleaseSchedule {
                expression: row.expression,
                enabled: row.enabled,
                last_tick: row.last_tick,
            },
            pending: PendingCashback {
                lots: row.lots,
                amount_cents: row.amount_cents,
                due_lots: row.due_lots,
                due_amount_cents: row.due_amount_cents,
            },
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_station_scope_covers_only_its_station() {
        assert!(Scope::AllStations.covers_station(7));
        assert!(Scope::Station(7).covers_station(7));
        assert!(!Scope::Station(7).covers_station(8));
        assert_eq!(Scope::AllStations.station_id(), None);
    }
}
