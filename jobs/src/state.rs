//! A job as its owner sees it: apalis' statuses folded into the states the product speaks
//! of, with progress, result and a safe error summary.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use sqlx::{PgExecutor, PgPool};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, sqlx::Type)]
#[serde(rename_all = "lowercase")]
#[sqlx(type_name = "text", rename_all = "lowercase")]
pub enum JobState {
    /// Due, waiting for a worker (or fetched and about to start).
    Queued,
    /// Waiting for its `run_at`.
    Scheduled,
    Running,
    /// An attempt failed or was interrupted; another one is coming at `run_at`.
    Retrying,
    Succeeded,
    /// For good: attempts exhausted, or a failure retrying cannot fix.
    Failed,
    Cancelled,
}

impl JobState {
    pub fn is_final(self) -> bool {
        matches!(self, Self::Succeeded | Self::Failed | Self::Cancelled)
    }
}

/// The answer of `GET /api/jobs/{id}`.
#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow)]
pub struct JobView {
    pub id: String,
    pub kind: String,
    pub state: JobState,
    pub attempts: i32,
    pub max_attempts: i32,
    pub run_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
    pub progress: Option<i16>,
    pub result: Option<Value>,
    pub error: Option<String>,
}

/// Shown when an attempt ended without a failure of its own (its worker stopped).
const INTERRUPTED: &str = "O processamento foi interrompido e será retomado.";

/// `$1` is the job id; `$2`, when not NULL, the only user allowed to see it.
const SELECT_VIEW: &str = r#"
SELECT j.id,
       j.job_type AS kind,
       CASE
           WHEN r.cancelled_at IS NOT NULL THEN 'cancelled'
           WHEN j.status = 'Done' THEN 'succeeded'
           WHEN j.status = 'Killed' OR (j.status = 'Failed' AND j.attempts >= j.max_attempts)
               THEN 'failed'
           WHEN j.status = 'Failed' THEN 'retrying'
           WHEN j.status = 'Running' THEN 'running'
           WHEN j.status = 'Queued' THEN 'queued'
           WHEN j.attempts > 0 THEN 'retrying'
           WHEN j.run_at > now() THEN 'scheduled'
           ELSE 'queued'
       END AS state,
       j.attempts,
       j.max_attempts,
       j.run_at,
       CASE WHEN j.status IN ('Running', 'Done', 'Failed', 'Killed') THEN j.lock_at END
           AS started_at,
       CASE WHEN j.status IN ('Done', 'Failed', 'Killed') THEN j.done_at END AS finished_at,
       r.progress,
       CASE WHEN j.status = 'Done' THEN j.last_result -> 'Ok' END AS result,
       CASE
           WHEN j.status IN ('Done', 'Running', 'Queued') OR r.cancelled_at IS NOT NULL THEN NULL
           ELSE coalesce(f.summary, CASE WHEN j.last_result ? 'Err' THEN $3 END)
       END AS error
FROM apalis.jobs j
LEFT JOIN job_records r ON r.job_id = j.id
LEFT JOIN LATERAL (
    SELECT summary FROM job_failures WHERE job_id = j.id ORDER BY id DESC LIMIT 1
) f ON true
WHERE j.id = $1 AND ($2::bigint IS NULL OR r.user_id = $2)
"#;

/// Any job, for staff and tests.
pub async fn find(db: impl PgExecutor<'_>, id: &str) -> sqlx::Result<Option<JobView>> {
    view(db, id, None).await
}

/// The job only if `user_id` owns it: another member's job and an unknown id look alike.
pub async fn find_owned(
    db: impl PgExecutor<'_>,
    id: &str,
    user_id: i64,
) -> sqlx::Result<Option<JobView>> {
    view(db, id, Some(user_id)).await
}

async fn view(
    db: impl PgExecutor<'_>,
    id: &str,
    user_id: Option<i64>,
) -> sqlx::Result<Option<JobView>> {
    sqlx::query_as(SELECT_VIEW)
        .bind(id)
        .bind(user_id)
        .bind(INTERRUPTED)
        .fetch_optional(db)
        .await
}

/// Cancels a job that has not started (queued, scheduled or waiting for a retry). Returns
/// false when the job is running, finished or unknown: a running job is not interrupted.
pub async fn cancel(db: &PgPool, id: &str) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let cancelled = sqlx::query(
        r#"UPDATE apalis.jobs
           SET status = 'Killed', done_at = now(), lock_by = NULL, lock_at = NULL,
               last_result = '{"Err": "Cancelada"}'
           WHERE id = $1 AND (status = 'Pending' OR (status = 'Failed' AND attempts < max_attempts))"#,
    )
    .bind(id)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if cancelled {
        sqlx::query(
            "INSERT INTO job_records (job_id, cancelled_at) VALUES ($1, now())
             ON CONFLICT (job_id) DO UPDATE SET cancelled_at = now()",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(cancelled)
}
