//! The queues as the console shows them (jobs by state, paused or not) and pausing one.

use chrono::{DateTime, Utc};
use domain::staff::Scope;
use sqlx::{PgConnection, PgExecutor};

use crate::state::job_state;

/// Jobs of one queue by state; the finished states over [`FINISHED_WINDOW_HOURS`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct StateCounts {
    pub queued: i64,
    pub scheduled: i64,
    pub running: i64,
    pub retrying: i64,
    pub succeeded: i64,
    pub failed: i64,
    pub cancelled: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PausedBy {
    pub id: i64,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueOverview {
    pub name: String,
    pub paused: bool,
    pub paused_at: Option<DateTime<Utc>>,
    pub paused_by: Option<PausedBy>,
    pub counts: StateCounts,
}

#[derive(sqlx::FromRow)]
struct QueueRow {
    name: String,
    paused_at: Option<DateTime<Utc>>,
    paused_by: Option<i64>,
    paused_by_name: Option<String>,
    #[sqlx(flatten)]
    counts: StateCounts,
}

/// The overview counts finished jobs (succeeded, failed, cancelled) that finished within
/// this many hours: counting every retained one would read them all.
pub const FINISHED_WINDOW_HOURS: i32 = 24;

/// Every known queue (declared by a worker, or holding jobs in scope) with its counts in
/// scope, by name; `only` narrows to one queue. Unfinished jobs are counted exactly
/// (`jobs_unfinished`), finished ones over [`FINISHED_WINDOW_HOURS`] (`jobs_finished_at`).
pub async fn queues(
    db: impl PgExecutor<'_>,
    scope: Scope,
    only: Option<&str>,
) -> sqlx::Result<Vec<QueueOverview>> {
    const QUEUES: &str = concat!(
        "WITH counts AS (
             SELECT j.job_type AS name, ",
        job_state!(),
        " AS state, count(*) AS n
             FROM apalis.jobs j LEFT JOIN job_records r ON r.job_id = j.id
             WHERE ($1::bigint IS NULL OR r.station_id = $1)
               AND ($2::text IS NULL OR j.job_type = $2)
               AND (j.status IN ('Pending', 'Queued', 'Running')
                    OR (j.status = 'Failed' AND j.attempts < j.max_attempts)
                    OR (j.status IN ('Done', 'Failed', 'Killed')
                        AND j.done_at >= now() - make_interval(hours => $3)))
             GROUP BY 1, 2
         ),
         names AS (
             SELECT name FROM job_queues WHERE $2::text IS NULL OR name = $2
             UNION SELECT name FROM counts
         )
         SELECT n.name, q.paused_at, q.paused_by, u.name AS paused_by_name,
                coalesce(sum(c.n) FILTER (WHERE c.state = 'queued'), 0)::bigint AS queued,
                coalesce(sum(c.n) FILTER (WHERE c.state = 'scheduled'), 0)::bigint AS scheduled,
                coalesce(sum(c.n) FILTER (WHERE c.state = 'running'), 0)::bigint AS running,
                coalesce(sum(c.n) FILTER (WHERE c.state = 'retrying'), 0)::bigint AS retrying,
                coalesce(sum(c.n) FILTER (WHERE c.state = 'succeeded'), 0)::bigint AS succeeded,
                coalesce(sum(c.n) FILTER (WHERE c.state = 'failed'), 0)::bigint AS failed,
                coalesce(sum(c.n) FILTER (WHERE c.state = 'cancelled'), 0)::bigint AS cancelled
         FROM names n
         LEFT JOIN job_queues q ON q.name = n.name
         LEFT JOIN users u ON u.id = q.paused_by
         LEFT JOIN counts c ON c.name = n.name
         GROUP BY n.name, q.paused_at, q.paused_by, u.name
         ORDER BY n.name"
    );
    let rows: Vec<QueueRow> = sqlx::query_as(QUEUES)
        .bind(scope.station_id())
        .bind(only)
        .bind(FINISHED_WINDOW_HOURS)
        .fetch_all(db)
        .await?;
    Ok(rows
        .into_iter()
        .map(|row| QueueOverview {
            paused: row.paused_at.is_some(),
            paused_at: row.paused_at,
            paused_by: row
                .paused_by
                .zip(row.paused_by_name)
                .map(|(id, name)| PausedBy { id, name }),
            name: row.name,
            counts: row.counts,
        })
        .collect())
}

/// Pauses (`by` is the staff member) or resumes (`by` is `None`) a queue: workers stop or
/// start taking its jobs at their next fetch (`jobs::backend`'s fetch skips paused queues).
/// Pausing a paused queue keeps its first pause. `false`: no such queue.
pub async fn set_paused(tx: &mut PgConnection, name: &str, by: Option<i64>) -> sqlx::Result<bool> {
    // A queue known only by its jobs (no worker declared it yet) gets the row the pause
    // lives in, with the backoff the retry trigger assumes for undeclared queues.
    sqlx::query(
        "INSERT INTO job_queues (name, backoff_base, backoff_max)
         SELECT $1, interval '10 seconds', interval '1 hour'
         WHERE EXISTS (SELECT 1 FROM apalis.jobs WHERE job_type = $1)
         ON CONFLICT (name) DO NOTHING",
    )
    .bind(name)
    .execute(&mut *tx)
    .await?;
    let known: Option<bool> = match by {
        Some(user_id) => {
            sqlx::query_scalar(
                "UPDATE job_queues
                 SET paused_by = CASE WHEN paused_at IS NULL THEN $2 ELSE paused_by END,
                     paused_at = coalesce(paused_at, now())
                 WHERE name = $1 RETURNING true",
            )
            .bind(name)
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await?
        }
        None => {
            sqlx::query_scalar(
                "UPDATE job_queues SET paused_at = NULL, paused_by = NULL
                 WHERE name = $1 RETURNING true",
            )
            .bind(name)
            .fetch_optional(&mut *tx)
            .await?
        }
    };
    Ok(known.is_some())
}
