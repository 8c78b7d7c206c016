//! A job as its owner sees it: apalis' statuses folded into the states the product speaks
//! of, with progress, result and a safe error summary.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use sqlx::{PgConnection, PgExecutor, PgPool};

/// Serialised in the console's audit entries (the state a job had before an action, the
/// filter of a bulk re-run).
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

/// A job as its owner sees it (what `GET /api/jobs/{id}` answers).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
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

// The SQL that folds apalis' columns into the product's view of a job, written once and
// shared by `GET /api/jobs/{id}` (below) and the support console (`crate::console`). Each
// fragment reads `j` (apalis.jobs), `r` (job_records, left-joined) and, for the error, `f`
// (the job's latest failure); `job_from!` joins them. Macros, so queries stay `concat!`
// constants.

/// `FROM` with the joins every fragment expects.
macro_rules! job_from {
    () => {
        r#"
FROM apalis.jobs j
LEFT JOIN job_records r ON r.job_id = j.id
LEFT JOIN LATERAL (
    SELECT summary FROM job_failures WHERE job_id = j.id ORDER BY id DESC LIMIT 1
) f ON true
"#
    };
}

/// The job's [`JobState`] as text. Needs only `j` and `r`.
macro_rules! job_state {
    () => {
        r#"CASE
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
       END"#
    };
}

macro_rules! job_started_at {
    () => {
        "CASE WHEN j.status IN ('Running', 'Done', 'Failed', 'Killed') THEN j.lock_at END"
    };
}

macro_rules! job_finished_at {
    () => {
        "CASE WHEN j.status IN ('Done', 'Failed', 'Killed') THEN j.done_at END"
    };
}

macro_rules! job_result {
    () => {
        "CASE WHEN j.status = 'Done' THEN j.last_result -> 'Ok' END"
    };
}

/// The safe error summary; an attempt that ended without a failure of its own (its worker
/// stopped) reads as interrupted.
macro_rules! job_error {
    () => {
        r#"CASE
           WHEN j.status IN ('Done', 'Running', 'Queued') OR r.cancelled_at IS NOT NULL THEN NULL
           ELSE coalesce(f.summary, CASE WHEN j.last_result ? 'Err'
               THEN 'O processamento foi interrompido e será retomado.' END)
       END"#
    };
}

/// True when a re-run applies: the job finished badly, or waits for a retry (run it now).
/// Needs `j` and `r`. [`rerun_in`] locks on it; the console counts and shows it.
macro_rules! rerunnable {
    () => {
        concat!(
            "((",
            job_state!(),
            ") IN ('failed', 'cancelled', 'retrying'))"
        )
    };
}

/// True when a cancel applies: the job has not started (queued and not yet fetched,
/// scheduled, or waiting for a retry); a running job is not interrupted. Needs only `j`.
/// [`cancel_in`] locks on it; the console shows it.
macro_rules! cancellable {
    () => {
        "(j.status = 'Pending' OR (j.status = 'Failed' AND j.attempts < j.max_attempts))"
    };
}

pub(crate) use {
    cancellable, job_error, job_finished_at, job_from, job_result, job_started_at, job_state,
    rerunnable,
};

/// `$1` is the job id; `$2`, when not NULL, the only user allowed to see it.
const SELECT_VIEW: &str = concat!(
    "SELECT j.id, j.job_type AS kind, ",
    job_state!(),
    " AS state, j.attempts, j.max_attempts, j.run_at, ",
    job_started_at!(),
    " AS started_at, ",
    job_finished_at!(),
    " AS finished_at, r.progress, ",
    job_result!(),
    " AS result, ",
    job_error!(),
    " AS error ",
    job_from!(),
    "WHERE j.id = $1 AND ($2::bigint IS NULL OR r.user_id = $2)"
);

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
        .fetch_optional(db)
        .await
}

/// Cancels a job that has not started (queued, scheduled or waiting for a retry). Returns
/// false when the job is running, finished or unknown: a running job is not interrupted.
pub async fn cancel(db: &PgPool, id: &str) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let cancelled = cancel_in(&mut tx, id).await?;
    tx.commit().await?;
    Ok(cancelled.is_some())
}

/// [`cancel`] on the caller's transaction, so an action can commit with its audit row.
/// Answers the state the job had when it was cancelled; `None` when it could not be.
pub async fn cancel_in(tx: &mut PgConnection, id: &str) -> sqlx::Result<Option<JobState>> {
    // Locked and re-checked in one statement: a worker that takes the job meanwhile wins.
    const LOCK: &str = concat!(
        "SELECT ",
        job_state!(),
        " FROM apalis.jobs j LEFT JOIN job_records r ON r.job_id = j.id
         WHERE j.id = $1 AND ",
        cancellable!(),
        " FOR UPDATE OF j"
    );
    let before: Option<JobState> = sqlx::query_scalar(LOCK)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
    if before.is_none() {
        return Ok(None);
    }
    sqlx::query(
        r#"UPDATE apalis.jobs
           SET status = 'Killed', done_at = now(), lock_by = NULL, lock_at = NULL,
               last_result = '{"Err": "Cancelada"}'
           WHERE id = $1"#,
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO job_records (job_id, cancelled_at) VALUES ($1, now())
         ON CONFLICT (job_id) DO UPDATE SET cancelled_at = now()",
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    Ok(before)
}

/// Re-runs a failed, cancelled or retrying job now, with its attempts back at zero, on the
/// caller's transaction. Answers the state it had; `None` when its state does not allow a
/// re-run (or it is unknown).
pub async fn rerun_in(tx: &mut PgConnection, id: &str) -> sqlx::Result<Option<JobState>> {
    // Locked and re-checked in one statement: a worker that takes the job meanwhile wins.
    const LOCK: &str = concat!(
        "SELECT ",
        job_state!(),
        " FROM apalis.jobs j LEFT JOIN job_records r ON r.job_id = j.id
         WHERE j.id = $1 AND ",
        rerunnable!(),
        " FOR UPDATE OF j"
    );
    let before: Option<JobState> = sqlx::query_scalar(LOCK)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
    if before.is_some() {
        reset(tx, &[id.to_string()]).await?;
    }
    Ok(before)
}

/// Puts jobs back in their queue as if new (JOBS.md: plain SQL on apalis.jobs); their
/// failures stay on record. The caller has locked them and checked they are re-runnable.
/// A re-run is deliberate, so it also clears the mark of an effect a run began and never
/// settled ([`crate::JobContext::begin_effect`]): the job does it again.
pub(crate) async fn reset(tx: &mut PgConnection, ids: &[String]) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE apalis.jobs
         SET status = 'Pending', attempts = 0, run_at = now(), lock_by = NULL, lock_at = NULL,
             done_at = NULL, last_result = NULL
         WHERE id = ANY($1)",
    )
    .bind(ids)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE job_records SET cancelled_at = NULL, progress = NULL, effect_begun_at = NULL
         WHERE job_id = ANY($1)
           AND (cancelled_at IS NOT NULL OR progress IS NOT NULL OR effect_begun_at IS NOT NULL)",
    )
    .bind(ids)
    .execute(&mut *tx)
    .await?;
    Ok(())
}
