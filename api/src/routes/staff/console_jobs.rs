//! `/api/ops/jobs`: the jobs' list, counts, detail, re-runs and cancelling (the web's
//! `/ops` jobs screens).

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::staff;

use super::audit::AuditEntry;
use jobs::console::actions::{self, JobAction};
use jobs::console::{self, BulkRerun as Bulk, Change, JobFilter};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::params::*;
use crate::error::{ApiError, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::routes::jobs::state::{JOB_NOT_FOUND, JobState};
use crate::staff::{OpsError, OpsResult, Staff};
use crate::state::AppState;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_jobs))
        .routes(routes!(count_rerunnable))
        .routes(routes!(rerun_matching))
        .routes(routes!(show_job))
        .routes(routes!(rerun_job))
        .routes(routes!(cancel_job))
}

const CANNOT_RERUN: &str = "Esta tarefa não pode ser reexecutada agora.";
const CANNOT_CANCEL: &str = "Esta tarefa não pode ser cancelada agora.";
const BAD_CURSOR: &str = "Posição inválida na lista.";
/// More than `console::BULK_RERUN_MAX` (10 000) jobs match a bulk re-run.
const TOO_MANY_TO_RERUN: &str = "Mais de 10 mil tarefas selecionadas: refine o filtro.";
/// A job's detail shows at most this many of its audit entries, newest first.
const DETAIL_AUDIT_ENTRIES: i64 = 100;

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = JobSubject)]
struct Subject {
    kind: String,
    id: String,
}

impl From<console::Subject> for Subject {
    fn from(subject: console::Subject) -> Self {
        let console::Subject { kind, id } = subject;
        Self { kind, id }
    }
}

/// A job in the console's list.
#[derive(Debug, Serialize, ToSchema)]
struct JobSummary {
    id: String,
    queue: String,
    state: JobState,
    attempts: i32,
    max_attempts: i32,
    /// When it was enqueued: the time inside its ULID id.
    created_at: DateTime<Utc>,
    run_at: DateTime<Utc>,
    finished_at: Option<DateTime<Utc>>,
    error: Option<String>,
    station_id: Option<i64>,
    user_id: Option<i64>,
    subject: Option<Subject>,
    /// Whether its state allows a re-run / a cancel (the actions' own conditions).
    can_rerun: bool,
    can_cancel: bool,
}

impl From<console::JobSummary> for JobSummary {
    fn from(job: console::JobSummary) -> Self {
        let console::JobSummary {
            id,
            queue,
            state,
            attempts,
            max_attempts,
            created_at,
            run_at,
            finished_at,
            error,
            station_id,
            user_id,
            subject,
            can_rerun,
            can_cancel,
        } = job;
        Self {
            id,
            queue,
            state: state.into(),
            attempts,
            max_attempts,
            created_at,
            run_at,
            finished_at,
            error,
            station_id,
            user_id,
            subject: subject.map(Subject::from),
            can_rerun,
            can_cancel,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = JobFailure)]
struct Failure {
    attempt: i32,
    worker: String,
    summary: String,
    detail: String,
    failed_at: DateTime<Utc>,
}

impl From<console::Failure> for Failure {
    fn from(failure: console::Failure) -> Self {
        let console::Failure {
            attempt,
            worker,
            summary,
            detail,
            failed_at,
        } = failure;
        Self {
            attempt,
            worker,
            summary,
            detail,
            failed_at,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
struct OwnerStation {
    id: i64,
    name: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct OwnerUser {
    id: i64,
    name: String,
    email: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
struct JobOwner {
    station: Option<OwnerStation>,
    user: Option<OwnerUser>,
}

impl From<console::JobOwner> for JobOwner {
    fn from(owner: console::JobOwner) -> Self {
        let console::JobOwner { station, user } = owner;
        Self {
            station: station.map(|station| {
                let console::OwnerStation { id, name } = station;
                OwnerStation { id, name }
            }),
            user: user.map(|user| {
                let console::OwnerUser { id, name, email } = user;
                OwnerUser { id, name, email }
            }),
        }
    }
}

/// Everything staff need to understand a job.
#[derive(Debug, Serialize, ToSchema)]
struct JobDetail {
    #[serde(flatten)]
    summary: JobSummary,
    /// The job's arguments as shown (see `shown_payload!`): no e-mail body.
    payload: Option<Value>,
    result: Option<Value>,
    progress: Option<i16>,
    started_at: Option<DateTime<Utc>>,
    /// Every failed attempt, oldest first; a re-run starts counting attempts again.
    failures: Vec<Failure>,
    owner: JobOwner,
}

impl From<console::JobDetail> for JobDetail {
    fn from(job: console::JobDetail) -> Self {
        let console::JobDetail {
            summary,
            payload,
            result,
            progress,
            started_at,
            failures,
            owner,
        } = job;
        Self {
            summary: summary.into(),
            payload,
            result,
            progress,
            started_at,
            failures: failures.into_iter().map(Failure::from).collect(),
            owner: owner.into(),
        }
    }
}

/// The list's query, and the bulk re-run's filter, as the client sent them.
#[derive(Debug, Default, Deserialize)]
struct ListParams {
    queue: Option<String>,
    state: Option<String>,
    from: Option<String>,
    to: Option<String>,
    q: Option<String>,
    station_id: Option<String>,
    before: Option<String>,
    per_page: Option<String>,
}

/// Checks every field, collecting one message per kind of bad value.
fn parse_filter(params: ListParams, messages: &mut Vec<&'static str>) -> JobFilter {
    let mut complain = |message: &'static str| {
        if !messages.contains(&message) {
            messages.push(message);
        }
    };
    let state = given(params.state).and_then(|state| {
        serde_json::from_value::<JobState>(Value::String(state))
            .map(jobs::JobState::from)
            .map_err(|_| complain(BAD_STATE))
            .ok()
    });
    let mut time = |value: Option<String>| {
        given(value).and_then(|value| {
            DateTime::parse_from_rfc3339(&value)
                .map(|at| at.with_timezone(&Utc))
                .map_err(|_| complain(BAD_DATE))
                .ok()
        })
    };
    let (from, to) = (time(params.from), time(params.to));
    let station_id = given(params.station_id)
        .and_then(|id| id.parse::<i64>().map_err(|_| complain(BAD_STATION)).ok());
    JobFilter {
        queue: given(params.queue),
        state,
        from,
        to,
        q: given(params.q),
        station_id,
    }
}

#[derive(Debug, Serialize, ToSchema)]
struct JobList {
    jobs: Vec<JobSummary>,
    next_cursor: Option<String>,
    per_page: i64,
}

/// A page starts below a job id (a ULID) the previous page answered.
fn parse_cursor(before: Option<String>, messages: &mut Vec<&'static str>) -> Option<String> {
    given(before).and_then(|before| {
        let cursor = console::cursor(&before);
        if cursor.is_none() {
            messages.push(BAD_CURSOR);
        }
        cursor
    })
}

/// Searches jobs in the grant's scope, newest first
#[utoipa::path(
    get,
    path = "/jobs",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("queue" = Option<String>, Query, description = "A queue name (`mail.send`)"),
        ("state" = Option<JobState>, Query, description = "A job state"),
        ("from" = Option<String>, Query, format = DateTime, description = "Enqueued at or after (RFC 3339)"),
        ("to" = Option<String>, Query, format = DateTime, description = "Enqueued at or before (RFC 3339)"),
        ("q" = Option<String>, Query, description = "Text found, ignoring case, in the shown payload, the last result or any failure"),
        ("station_id" = Option<i64>, Query, description = "A station in the grant's scope"),
        ("before" = Option<String>, Query, description = "The `next_cursor` of the previous page (a job id); absent for the first page"),
        ("per_page" = Option<i64>, Query, description = "1 to 200, 50 by default"),
    ),
    responses(
        (status = 200, description = "A page of jobs and the cursor of the next one (null on the last)", body = JobList),
        (status = 400, description = "The query cannot be read", body = Messages),
        (status = 422, description = "A bad state, date, station, page size or cursor (one message per kind)", body = Messages),
    )
)]
async fn list_jobs(
    State(state): State<AppState>,
    staff: Staff,
    Query(mut params): Query<ListParams>,
) -> OpsResult<Json<JobList>> {
    let mut messages = Vec::new();
    let (_, per_page) = parse_page(None, params.per_page.take(), &mut messages);
    let before = parse_cursor(params.before.take(), &mut messages);
    let filter = parse_filter(params, &mut messages);
    invalid_if_any(messages)?;
    let mut conn = state.db.acquire().await?;
    let found = console::list(
        &mut conn,
        staff.scope(),
        &filter,
        before.as_deref(),
        per_page,
    )
    .await?;
    let console::JobPage { jobs, next_cursor } = found;
    Ok(Json(JobList {
        jobs: jobs.into_iter().map(JobSummary::from).collect(),
        next_cursor,
        per_page,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
struct RerunnableCount {
    /// Up to 10 001: a value above 10 000 means "more than 10 000".
    rerunnable: i64,
}

/// Counts the jobs a bulk re-run of the filter would touch
///
/// Asked when staff open the bulk re-run, not with every page: it reads every re-runnable
/// job of the filter.
#[utoipa::path(
    get,
    path = "/jobs/rerunnable",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("queue" = Option<String>, Query, description = "A queue name (`mail.send`)"),
        ("state" = Option<JobState>, Query, description = "A job state"),
        ("from" = Option<String>, Query, format = DateTime, description = "Enqueued at or after (RFC 3339)"),
        ("to" = Option<String>, Query, format = DateTime, description = "Enqueued at or before (RFC 3339)"),
        ("q" = Option<String>, Query, description = "Text found, ignoring case, in the shown payload, the last result or any failure"),
        ("station_id" = Option<i64>, Query, description = "A station in the grant's scope"),
    ),
    responses(
        (status = 200, description = "How many jobs a re-run of the filter would touch", body = RerunnableCount),
        (status = 400, description = "The query cannot be read", body = Messages),
        (status = 422, description = "A bad state, date or station (one message per kind)", body = Messages),
    )
)]
async fn count_rerunnable(
    State(state): State<AppState>,
    staff: Staff,
    Query(params): Query<ListParams>,
) -> OpsResult<Json<RerunnableCount>> {
    let mut messages = Vec::new();
    let filter = parse_filter(params, &mut messages);
    invalid_if_any(messages)?;
    let rerunnable = console::count_rerunnable(&state.db, staff.scope(), &filter).await?;
    Ok(Json(RerunnableCount { rerunnable }))
}

/// A job's detail and its audit entries, newest first.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = StaffJobPage)]
struct JobPage {
    #[serde(flatten)]
    job: JobDetail,
    audit: Vec<AuditEntry>,
}

/// A job's detail: payload as shown, attempts, failures, owner and audit
#[utoipa::path(
    get,
    path = "/jobs/{id}",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = String, Path, description = "The job id")),
    responses(
        (status = 200, description = "The job", body = JobPage),
        (status = 404, description = "No such job in the grant's scope", body = ErrorMessage),
    )
)]
async fn show_job(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
) -> OpsResult<Json<JobPage>> {
    let mut conn = state.db.acquire().await?;
    let job = console::detail(&mut conn, staff.scope(), &id)
        .await?
        .ok_or_else(|| ApiError::not_found(JOB_NOT_FOUND))?;
    let audit =
        staff::audit_page(&mut conn, staff.scope(), Some(&id), 1, DETAIL_AUDIT_ENTRIES).await?;
    Ok(Json(JobPage {
        job: job.into(),
        audit: audit.items.into_iter().map(AuditEntry::from).collect(),
    }))
}

/// Re-runs a finished or retrying job
#[utoipa::path(
    post,
    path = "/jobs/{id}/rerun",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = String, Path, description = "The job id")),
    responses(
        (status = 200, description = "The job, queued again", body = JobSummary),
        (status = 403, description = "a viewer (reads only)", body = ErrorMessage),
        (status = 404, description = "No such job in the grant's scope", body = ErrorMessage),
        (status = 409, description = "The job's state does not allow a re-run now", body = ErrorMessage),
    )
)]
async fn rerun_job(
    state: State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
) -> OpsResult<Json<JobSummary>> {
    act_on_job(state, staff, id, JobAction::Rerun).await
}

/// Cancels a job that has not finished
#[utoipa::path(
    post,
    path = "/jobs/{id}/cancel",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = String, Path, description = "The job id")),
    responses(
        (status = 200, description = "The job, cancelled", body = JobSummary),
        (status = 403, description = "a viewer (reads only)", body = ErrorMessage),
        (status = 404, description = "No such job in the grant's scope", body = ErrorMessage),
        (status = 409, description = "The job's state does not allow a cancel now", body = ErrorMessage),
    )
)]
async fn cancel_job(
    state: State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
) -> OpsResult<Json<JobSummary>> {
    act_on_job(state, staff, id, JobAction::Cancel).await
}

async fn act_on_job(
    State(state): State<AppState>,
    staff: Staff,
    id: String,
    action: JobAction,
) -> OpsResult<Json<JobSummary>> {
    staff.require_support()?;
    let refusal = match action {
        JobAction::Rerun => CANNOT_RERUN,
        JobAction::Cancel => CANNOT_CANCEL,
    };
    match actions::act_on_job(&state.db, actor(&staff), &id, action).await? {
        Change::NotFound => Err(ApiError::not_found(JOB_NOT_FOUND).into()),
        Change::NotAllowed => Err(OpsError::conflict(json!({ "error": refusal }))),
        Change::Done { job, .. } => Ok(Json(JobSummary::from(*job))),
    }
}

#[derive(Debug, Deserialize, ToSchema)]
struct BulkRerun {
    /// The list's filter.
    filter: BulkFilter,
    /// How many jobs the console showed would be re-run; a different count refuses.
    expected: i64,
}

/// The list's filter as JSON; `station_id` may come as a number or as the query's text.
#[derive(Debug, Default, Deserialize, ToSchema)]
struct BulkFilter {
    queue: Option<String>,
    state: Option<String>,
    from: Option<String>,
    to: Option<String>,
    q: Option<String>,
    #[schema(value_type = Option<i64>)]
    station_id: Option<Value>,
}

#[derive(Debug, Serialize, ToSchema)]
struct BulkDone {
    rerun: usize,
    job_ids: Vec<String>,
}

/// Re-runs every re-runnable job a filter matches
///
/// Only if the filter still matches `expected` re-runnable jobs; every action is audited.
#[utoipa::path(
    post,
    path = "/jobs/rerun",
    tag = "staff",
    security(("staff" = [])),
    request_body = BulkRerun,
    responses(
        (status = 200, description = "How many were re-run, and their ids", body = BulkDone),
        (status = 403, description = "a viewer (reads only)", body = ErrorMessage),
        (status = 409, description = "The selection changed since the console counted it; `count` is the new number", body = SelectionChanged),
        (status = 422, description = "A bad state, date or station in the filter, or more than 10 000 matching jobs", body = Messages),
    )
)]
async fn rerun_matching(
    State(state): State<AppState>,
    staff: Staff,
    Json(body): Json<BulkRerun>,
) -> OpsResult<Json<BulkDone>> {
    staff.require_support()?;
    let station_id = match body.filter.station_id {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(Value::String(s)) => Some(s),
        // Anything else is no station id: let the check below say so.
        Some(_) => Some(String::from("?")),
    };
    let mut messages = Vec::new();
    let filter = parse_filter(
        ListParams {
            queue: body.filter.queue,
            state: body.filter.state,
            from: body.filter.from,
            to: body.filter.to,
            q: body.filter.q,
            station_id,
            ..ListParams::default()
        },
        &mut messages,
    );
    invalid_if_any(messages)?;

    let rerun = match actions::rerun_matching(&state.db, actor(&staff), &filter, body.expected)
        .await?
    {
        Bulk::Done(rerun) => rerun,
        Bulk::Changed(count) => {
            return Err(OpsError::conflict(json!(SelectionChanged {
                error: format!("A seleção mudou: agora são {count} tarefas. Confirme novamente."),
                count,
            })));
        }
        Bulk::TooMany => {
            return Err(ApiError::Invalid(vec![TOO_MANY_TO_RERUN.into()]).into());
        }
    };
    Ok(Json(BulkDone {
        rerun: rerun.len(),
        job_ids: rerun.into_iter().map(|job| job.id).collect(),
    }))
}

/// The bulk re-run's refusal when the matching jobs are no longer the ones confirmed.
#[derive(Debug, Serialize, ToSchema)]
struct SelectionChanged {
    error: String,
    count: i64,
}
