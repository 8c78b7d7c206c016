//! The support console's view of the job tables: counts per queue and state, a filtered
//! list, a job's whole story, and the actions staff take (re-run, cancel, pause). States
//! come from [`crate::state`]'s one definition; every action runs on the caller's
//! transaction so its audit row commits with it.
//!
//! Scope: a one-station grant sees only jobs whose `job_records.station_id` is its
//! station; jobs with no owner (cron ticks, retention, canary) belong to staff of every
//! station.
//!
//! Here: the jobs' list, counts, detail and re-runs; `filter` turns the staff's filter into
//! SQL parameters, `queues` is the queues' overview and pausing, `actions` what staff do
//! committed with its audit entry.

use chrono::{DateTime, Utc};
use domain::staff::Scope;
use serde_json::Value;
use sqlx::{PgConnection, PgExecutor};

pub mod actions;
// First: its macros (the shown payload, the filter's WHERE) are used below.
#[macro_use]
mod filter;
mod queues;

use filter::Bound;
pub use filter::{JobFilter, cursor};
pub use queues::{FINISHED_WINDOW_HOURS, PausedBy, QueueOverview, StateCounts, queues, set_paused};

use crate::state::{
    JobState, cancellable, job_error, job_finished_at, job_from, job_result, job_started_at,
    job_state, rerunnable,
};

/// The summary's columns, before any `FROM`.
macro_rules! summary_columns {
    () => {
        concat!(
            "SELECT j.id, j.job_type AS queue, ",
            job_state!(),
            " AS state, j.attempts, j.max_attempts, j.run_at, ",
            job_finished_at!(),
            " AS finished_at, ",
            job_error!(),
            " AS error, r.station_id, r.user_id, r.subject_kind, r.subject_id, ",
            rerunnable!(),
            " AS can_rerun, ",
            cancellable!(),
            " AS can_cancel"
        )
    };
}

/// Jobs and their records only: what counting and locking need.
macro_rules! jobs_and_records {
    () => {
        " FROM apalis.jobs j LEFT JOIN job_records r ON r.job_id = j.id "
    };
}

/// What a job is about (`job_records.subject_kind`, `subject_id`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    pub kind: String,
    pub id: String,
}

/// A job in the console's list.
#[derive(Debug, Clone, PartialEq)]
pub struct JobSummary {
    pub id: String,
    pub queue: String,
    pub state: JobState,
    pub attempts: i32,
    pub max_attempts: i32,
    /// When it was enqueued: the time inside its ULID id.
    pub created_at: DateTime<Utc>,
    pub run_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    pub error: Option<String>,
    pub station_id: Option<i64>,
    pub user_id: Option<i64>,
    pub subject: Option<Subject>,
    /// Whether its state allows a re-run / a cancel (the actions' own conditions).
    pub can_rerun: bool,
    pub can_cancel: bool,
}

#[derive(sqlx::FromRow)]
struct SummaryRow {
    id: String,
    queue: String,
    state: JobState,
    attempts: i32,
    max_attempts: i32,
    run_at: DateTime<Utc>,
    finished_at: Option<DateTime<Utc>>,
    error: Option<String>,
    station_id: Option<i64>,
    user_id: Option<i64>,
    subject_kind: Option<String>,
    subject_id: Option<String>,
    can_rerun: bool,
    can_cancel: bool,
}

impl From<SummaryRow> for JobSummary {
    fn from(row: SummaryRow) -> Self {
        // Every job id is a ULID (`Enqueue::push`, like apalis' own push); an id written
        // by hand in SQL falls back to its run time rather than failing the whole list.
        let created_at = ulid::Ulid::from_string(&row.id)
            .map(|id| DateTime::<Utc>::from(id.datetime()))
            .unwrap_or(row.run_at);
        Self {
            created_at,
            subject: row
                .subject_kind
                .zip(row.subject_id)
                .map(|(kind, id)| Subject { kind, id }),
            id: row.id,
            queue: row.queue,
            state: row.state,
            attempts: row.attempts,
            max_attempts: row.max_attempts,
            run_at: row.run_at,
            finished_at: row.finished_at,
            error: row.error,
            station_id: row.station_id,
            user_id: row.user_id,
            can_rerun: row.can_rerun,
            can_cancel: row.can_cancel,
        }
    }
}

/// A page of the list looks at no more than this many jobs (newest first, of the filter's
/// queue and time range, below the cursor): the filter's other conditions, the text search
/// above all, are checked on those alone, so a page costs the same with a million jobs
/// retained. A page that found fewer than it shows still has a cursor to look further.
pub const SCAN_WINDOW: i64 = 2_000;

/// A bulk re-run touches at most this many jobs; [`count_rerunnable`] counts up to one more,
/// so "more than this" can be told apart.
pub const BULK_RERUN_MAX: i64 = 10_000;

/// Jobs are reset this many per statement, so a bulk re-run never builds one huge update.
const RESET_BATCH: usize = 1_000;

/// One page of the list, newest first.
#[derive(Debug, Clone, PartialEq)]
pub struct JobPage {
    pub jobs: Vec<JobSummary>,
    /// Where the next page starts (pass it as `before`); `None` when no older job is left
    /// to look at.
    pub next_cursor: Option<String>,
}

/// The newest jobs of the filter's queue and time range below `$8` (the cursor), at most
/// `$9`: the window a page is looked for in. `$1`, `$3`, `$4` as in `filter_where!`.
macro_rules! scan_window {
    () => {
        "SELECT id FROM apalis.jobs
         WHERE ($1::text IS NULL OR job_type = $1)
           AND ($3::text IS NULL OR id >= $3)
           AND ($4::text IS NULL OR id < $4)
           AND ($8::text IS NULL OR id < $8)
         ORDER BY id DESC LIMIT $9"
    };
}

/// The statuses a re-runnable job can have, spelled as `jobs_rerunnable`'s predicate so
/// the planner reaches for that index instead of walking the succeeded jobs.
macro_rules! rerunnable_status {
    () => {
        " AND (j.status IN ('Failed', 'Killed') OR (j.status = 'Pending' AND j.attempts > 0)) "
    };
}

pub async fn list(
    db: &mut PgConnection,
    scope: Scope,
    filter: &JobFilter,
    before: Option<&str>,
    per_page: i64,
) -> sqlx::Result<JobPage> {
    const PAGE: &str = concat!(
        summary_columns!(),
        job_from!(),
        filter_where!(),
        " AND j.id = ANY (ARRAY(",
        scan_window!(),
        ")) ORDER BY j.id DESC LIMIT $10"
    );
    // `scan_window!` again, on its own parameters.
    const WINDOW_END: &str = "SELECT min(id), count(*) FROM (
             SELECT id FROM apalis.jobs
             WHERE ($1::text IS NULL OR job_type = $1)
               AND ($2::text IS NULL OR id >= $2)
               AND ($3::text IS NULL OR id < $3)
               AND ($4::text IS NULL OR id < $4)
             ORDER BY id DESC LIMIT $5
         ) w";
    let rows: Vec<SummaryRow> = Bound::new(filter, scope)
        .bind(sqlx::query_as(PAGE))
        .bind(before)
        .bind(SCAN_WINDOW)
        .bind(per_page + 1)
        .fetch_all(&mut *db)
        .await?;
    let mut jobs: Vec<JobSummary> = rows.into_iter().map(JobSummary::from).collect();
    let next_cursor = if jobs.len() > usize::try_from(per_page).unwrap_or(usize::MAX) {
        jobs.pop();
        jobs.last().map(|job| job.id.clone())
    } else {
        // Fewer than a page: look further below the window when it was full.
        let bound = Bound::new(filter, scope);
        let (lowest, seen): (Option<String>, i64) = sqlx::query_as(WINDOW_END)
            .bind(bound.queue)
            .bind(bound.from_id)
            .bind(bound.to_id)
            .bind(before)
            .bind(SCAN_WINDOW)
            .fetch_one(&mut *db)
            .await?;
        lowest.filter(|_| seen == SCAN_WINDOW)
    };
    Ok(JobPage { jobs, next_cursor })
}

/// How many jobs a re-run of the filter would touch, counted up to [`BULK_RERUN_MAX`] + 1.
/// Unlike a page it reads every re-runnable job of the filter (a text search reads their
/// payloads), so the console asks for it only when staff open the bulk re-run.
pub async fn count_rerunnable(
    db: impl PgExecutor<'_>,
    scope: Scope,
    filter: &JobFilter,
) -> sqlx::Result<i64> {
    const RERUNNABLE: &str = concat!(
        "SELECT count(*) FROM (SELECT 1",
        jobs_and_records!(),
        filter_where!(),
        rerunnable_status!(),
        " AND ",
        rerunnable!(),
        " LIMIT $8) c"
    );
    let (count,): (i64,) = Bound::new(filter, scope)
        .bind(sqlx::query_as(RERUNNABLE))
        .bind(BULK_RERUN_MAX + 1)
        .fetch_one(db)
        .await?;
    Ok(count)
}

/// The job if it is in scope; a job outside it and an unknown id look alike.
pub async fn summary(
    db: impl PgExecutor<'_>,
    scope: Scope,
    id: &str,
) -> sqlx::Result<Option<JobSummary>> {
    const ONE: &str = concat!(
        summary_columns!(),
        job_from!(),
        "WHERE j.id = $1 AND ($2::bigint IS NULL OR r.station_id = $2)"
    );
    let row: Option<SummaryRow> = sqlx::query_as(ONE)
        .bind(id)
        .bind(scope.station_id())
        .fetch_optional(db)
        .await?;
    Ok(row.map(JobSummary::from))
}

/// A failed attempt (`job_failures`).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Failure {
    pub attempt: i32,
    pub worker: String,
    pub summary: String,
    pub detail: String,
    pub failed_at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerStation {
    pub id: i64,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerUser {
    pub id: i64,
    pub name: String,
    pub email: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobOwner {
    pub station: Option<OwnerStation>,
    pub user: Option<OwnerUser>,
}

/// Everything staff need to understand a job.
#[derive(Debug, Clone, PartialEq)]
pub struct JobDetail {
    pub summary: JobSummary,
    /// The job's arguments as shown (see `shown_payload!`): no e-mail body.
    pub payload: Option<Value>,
    pub result: Option<Value>,
    pub progress: Option<i16>,
    pub started_at: Option<DateTime<Utc>>,
    /// Every failed attempt, oldest first; a re-run starts counting attempts again.
    pub failures: Vec<Failure>,
    pub owner: JobOwner,
}

#[derive(sqlx::FromRow)]
struct DetailRow {
    payload: Option<Value>,
    result: Option<Value>,
    progress: Option<i16>,
    started_at: Option<DateTime<Utc>>,
    owner_station_name: Option<String>,
    owner_user_name: Option<String>,
    owner_user_email: Option<String>,
}

pub async fn detail(
    db: &mut PgConnection,
    scope: Scope,
    id: &str,
) -> sqlx::Result<Option<JobDetail>> {
    const EXTRA: &str = concat!(
        "SELECT ",
        shown_payload!(),
        " AS payload, ",
        job_result!(),
        " AS result, r.progress, ",
        job_started_at!(),
        " AS started_at, st.name AS owner_station_name, u.name AS owner_user_name,
           u.email AS owner_user_email
         FROM apalis.jobs j
         LEFT JOIN job_records r ON r.job_id = j.id
         LEFT JOIN stations st ON st.id = r.station_id
         LEFT JOIN users u ON u.id = r.user_id
         WHERE j.id = $1"
    );
    let Some(summary) = summary(&mut *db, scope, id).await? else {
        return Ok(None);
    };
    let Some(extra): Option<DetailRow> = sqlx::query_as(EXTRA)
        .bind(id)
        .fetch_optional(&mut *db)
        .await?
    else {
        return Ok(None);
    };
    let failures = sqlx::query_as(
        "SELECT attempt, worker, summary, detail, failed_at FROM job_failures
         WHERE job_id = $1 ORDER BY id",
    )
    .bind(id)
    .fetch_all(&mut *db)
    .await?;
    let owner = JobOwner {
        station: summary
            .station_id
            .zip(extra.owner_station_name)
            .map(|(id, name)| OwnerStation { id, name }),
        user: summary
            .user_id
            .zip(extra.owner_user_name)
            .map(|(id, name)| OwnerUser {
                id,
                name,
                email: extra.owner_user_email,
            }),
    };
    Ok(Some(JobDetail {
        summary,
        payload: extra.payload,
        result: extra.result,
        progress: extra.progress,
        started_at: extra.started_at,
        failures,
        owner,
    }))
}

/// What an action on one job came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Unknown, or outside the scope.
    NotFound,
    /// Its state does not allow the action.
    NotAllowed,
    /// Done: the state it had when it was locked for the action, and the job as it is now.
    Done {
        before: JobState,
        job: Box<JobSummary>,
    },
}

/// Re-runs one failed, cancelled or retrying job now ([`crate::state::rerun_in`]).
pub async fn rerun(tx: &mut PgConnection, scope: Scope, id: &str) -> sqlx::Result<Change> {
    if summary(&mut *tx, scope, id).await?.is_none() {
        return Ok(Change::NotFound);
    }
    let Some(before) = crate::state::rerun_in(tx, id).await? else {
        return Ok(Change::NotAllowed);
    };
    done(tx, scope, id, before).await
}

/// Cancels one job that has not started ([`crate::state::cancel_in`]).
pub async fn cancel(tx: &mut PgConnection, scope: Scope, id: &str) -> sqlx::Result<Change> {
    if summary(&mut *tx, scope, id).await?.is_none() {
        return Ok(Change::NotFound);
    }
    let Some(before) = crate::state::cancel_in(tx, id).await? else {
        return Ok(Change::NotAllowed);
    };
    done(tx, scope, id, before).await
}

async fn done(
    tx: &mut PgConnection,
    scope: Scope,
    id: &str,
    before: JobState,
) -> sqlx::Result<Change> {
    Ok(summary(&mut *tx, scope, id)
        .await?
        .map_or(Change::NotFound, |job| Change::Done {
            before,
            job: Box::new(job),
        }))
}

/// A job a bulk re-run put back in its queue, with its owning station (`None`: unowned).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rerun {
    pub id: String,
    pub station_id: Option<i64>,
}

/// What a bulk re-run came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BulkRerun {
    /// Every matching job is back in its queue.
    Done(Vec<Rerun>),
    /// The matching set is no longer what was confirmed: this many now; nothing touched.
    Changed(i64),
    /// More than [`BULK_RERUN_MAX`] match: nothing touched; the filter must be narrower.
    TooMany,
}

/// Re-runs every re-runnable job the filter matches in scope, but only if they are still
/// exactly `expected` many (what the staff member confirmed) and no more than
/// [`BULK_RERUN_MAX`]. The matching jobs stay locked until the transaction ends.
pub async fn rerun_matching(
    tx: &mut PgConnection,
    scope: Scope,
    filter: &JobFilter,
    expected: i64,
) -> sqlx::Result<BulkRerun> {
    const MATCHING: &str = concat!(
        "SELECT j.id, r.station_id",
        jobs_and_records!(),
        filter_where!(),
        rerunnable_status!(),
        " AND ",
        rerunnable!(),
        " ORDER BY j.id LIMIT $8 FOR UPDATE OF j"
    );
    let rows: Vec<(String, Option<i64>)> = Bound::new(filter, scope)
        .bind(sqlx::query_as(MATCHING))
        .bind(BULK_RERUN_MAX + 1)
        .fetch_all(&mut *tx)
        .await?;
    let found = i64::try_from(rows.len()).unwrap_or(i64::MAX);
    if found > BULK_RERUN_MAX {
        return Ok(BulkRerun::TooMany);
    }
    if found != expected {
        return Ok(BulkRerun::Changed(found));
    }
    let ids: Vec<String> = rows.iter().map(|(id, _)| id.clone()).collect();
    for batch in ids.chunks(RESET_BATCH) {
        crate::state::reset(tx, batch).await?;
    }
    Ok(BulkRerun::Done(
        rows.into_iter()
            .map(|(id, station_id)| Rerun { id, station_id })
            .collect(),
    ))
}
