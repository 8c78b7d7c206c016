//! `/api/ops`: the support console (docs/api-ops.md). Staff read jobs, queues, stations and
//! the audit log in their grant's scope; `support` staff act, and each action commits with
//! its `staff_audit` row in one transaction.

use std::collections::BTreeMap;

use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use chrono::{DateTime, Utc};
use domain::staff::{self, Action, AuditEntry, AuditRecord, Role, Scope, StationOverview};
use jobs::console::{
    self, BulkRerun as Bulk, Change, JobDetail, JobFilter, JobSummary, QueueOverview,
};
use jobs::kinds::CashbackRelease;
use jobs::{Enqueue, JobState};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::extract::{Json, Path};
use crate::routes::jobs::JOB_NOT_FOUND;
use crate::staff::{OpsError, OpsResult, Staff};
use crate::state::AppState;

const QUEUE_NOT_FOUND: &str = "Fila não encontrada";
const STATION_NOT_FOUND: &str = "Estação não encontrada";
const PAUSE_NEEDS_ALL_STATIONS: &str = "Somente a equipe de todas as estações pode pausar filas.";
const CANNOT_RERUN: &str = "Esta tarefa não pode ser reexecutada agora.";
const CANNOT_CANCEL: &str = "Esta tarefa não pode ser cancelada agora.";
const BAD_STATE: &str = "Estado inválido.";
const BAD_DATE: &str = "Data inválida.";
const BAD_PAGE: &str = "Página inválida.";
const BAD_STATION: &str = "Estação inválida.";
const BAD_CURSOR: &str = "Posição inválida na lista.";
/// More than `console::BULK_RERUN_MAX` (10 000) jobs match a bulk re-run.
const TOO_MANY_TO_RERUN: &str = "Mais de 10 mil tarefas selecionadas: refine o filtro.";
const DEFAULT_PER_PAGE: i64 = 50;
const MAX_PER_PAGE: i64 = 200;
/// A job's detail shows at most this many of its audit entries, newest first.
const DETAIL_AUDIT_ENTRIES: i64 = 100;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/me", get(me))
        .route("/queues", get(queues))
        .route("/queues/{name}/pause", post(pause))
        .route("/queues/{name}/resume", post(resume))
        .route("/jobs", get(list_jobs))
        .route("/jobs/rerun", post(rerun_matching))
        .route("/jobs/{id}", get(show_job))
        .route("/jobs/{id}/rerun", post(rerun_job))
        .route("/jobs/{id}/cancel", post(cancel_job))
        .route("/stations", get(stations))
        .route("/stations/{id}/release", post(release))
        .route("/audit", get(audit))
}

#[derive(Debug, Serialize)]
struct Me {
    user: Person,
    role: Role,
    station: Option<StationRef>,
    can_act: bool,
}

#[derive(Debug, Serialize)]
struct Person {
    id: i64,
    name: String,
    email: Option<String>,
}

#[derive(Debug, Serialize)]
struct StationRef {
    id: i64,
    name: String,
}

async fn me(Staff(grant): Staff) -> Json<Me> {
    let station = grant.scope.station_id().map(|id| StationRef {
        id,
        name: grant.station_name.clone().unwrap_or_default(),
    });
    Json(Me {
        can_act: grant.can_act(),
        user: Person {
            id: grant.user_id,
            name: grant.name,
            email: grant.email,
        },
        role: grant.role,
        station,
    })
}

async fn queues(
    State(state): State<AppState>,
    staff: Staff,
) -> OpsResult<Json<Vec<QueueOverview>>> {
    Ok(Json(console::queues(&state.db, staff.scope(), None).await?))
}

async fn pause(
    state: State<AppState>,
    staff: Staff,
    Path(name): Path<String>,
) -> OpsResult<Json<QueueOverview>> {
    set_paused(state, staff, name, true).await
}

async fn resume(
    state: State<AppState>,
    staff: Staff,
    Path(name): Path<String>,
) -> OpsResult<Json<QueueOverview>> {
    set_paused(state, staff, name, false).await
}

async fn set_paused(
    State(state): State<AppState>,
    staff: Staff,
    name: String,
    pause: bool,
) -> OpsResult<Json<QueueOverview>> {
    staff.require_support()?;
    if staff.scope() != Scope::AllStations {
        return Err(OpsError::forbidden(PAUSE_NEEDS_ALL_STATIONS));
    }
    let mut tx = state.db.begin().await?;
    let by = pause.then_some(staff.user_id());
    if !console::set_paused(&mut tx, &name, by).await? {
        return Err(ApiError::not_found(QUEUE_NOT_FOUND).into());
    }
    staff::record(
        &mut tx,
        AuditRecord {
            user_id: staff.user_id(),
            action: if pause {
                Action::QueuePause
            } else {
                Action::QueueResume
            },
            station_id: None,
            job_ids: &[],
            details: json!({ "queue": name }),
        },
    )
    .await?;
    tx.commit().await?;
    let queue = console::queues(&state.db, Scope::AllStations, Some(&name))
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::not_found(QUEUE_NOT_FOUND))?;
    Ok(Json(queue))
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

/// Empty fields (an unset select in the web app) mean no filter.
fn given(value: Option<String>) -> Option<String> {
    value
        .map(|value| value.trim().to_string())
        .filter(|value| !value.is_empty())
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

/// `page` from 1 and `per_page` up to [`MAX_PER_PAGE`].
fn parse_page(
    page: Option<String>,
    per_page: Option<String>,
    messages: &mut Vec<&'static str>,
) -> (i64, i64) {
    let number = |value: Option<String>, default: i64, max: i64| match given(value) {
        None => Some(default),
        Some(value) => value.parse::<i64>().ok().filter(|n| (1..=max).contains(n)),
    };
    match (
        number(page, 1, i64::from(i32::MAX)),
        number(per_page, DEFAULT_PER_PAGE, MAX_PER_PAGE),
    ) {
        (Some(page), Some(per_page)) => (page, per_page),
        _ => {
            messages.push(BAD_PAGE);
            (1, DEFAULT_PER_PAGE)
        }
    }
}

fn invalid_if_any(messages: Vec<&'static str>) -> OpsResult<()> {
    if messages.is_empty() {
        Ok(())
    } else {
        Err(ApiError::Invalid(messages.into_iter().map(String::from).collect()).into())
    }
}

fn query<T>(query: Result<Query<T>, QueryRejection>) -> OpsResult<T> {
    query
        .map(|Query(value)| value)
        .map_err(|_| ApiError::BadRequest("Parâmetro inválido na URL".into()).into())
}

#[derive(Debug, Serialize)]
struct JobList {
    jobs: Vec<JobSummary>,
    next_cursor: Option<String>,
    rerunnable: i64,
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

async fn list_jobs(
    State(state): State<AppState>,
    staff: Staff,
    params: Result<Query<ListParams>, QueryRejection>,
) -> OpsResult<Json<JobList>> {
    let mut params = query(params)?;
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
    Ok(Json(JobList {
        jobs: found.jobs,
        next_cursor: found.next_cursor,
        rerunnable: found.rerunnable,
        per_page,
    }))
}

#[derive(Debug, Serialize)]
struct JobPage {
    #[serde(flatten)]
    job: JobDetail,
    audit: Vec<AuditEntry>,
}

async fn show_job(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
) -> OpsResult<Json<JobPage>> {
    let mut conn = state.db.acquire().await?;
    let job = console::detail(&mut conn, staff.scope(), &id)
        .await?
        .ok_or_else(|| ApiError::not_found(JOB_NOT_FOUND))?;
    let (audit, _) =
        staff::audit_page(&mut conn, staff.scope(), Some(&id), 1, DETAIL_AUDIT_ENTRIES).await?;
    Ok(Json(JobPage { job, audit }))
}

async fn rerun_job(
    state: State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
) -> OpsResult<Json<JobSummary>> {
    act_on_job(state, staff, id, Action::JobRerun).await
}

async fn cancel_job(
    state: State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
) -> OpsResult<Json<JobSummary>> {
    act_on_job(state, staff, id, Action::JobCancel).await
}

async fn act_on_job(
    State(state): State<AppState>,
    staff: Staff,
    id: String,
    action: Action,
) -> OpsResult<Json<JobSummary>> {
    staff.require_support()?;
    let mut tx = state.db.begin().await?;
    let (change, refusal) = match action {
        Action::JobCancel => (
            console::cancel(&mut tx, staff.scope(), &id).await?,
            CANNOT_CANCEL,
        ),
        _ => (
            console::rerun(&mut tx, staff.scope(), &id).await?,
            CANNOT_RERUN,
        ),
    };
    // `before` is the state the action found under its row lock, not an earlier read.
    let (before, job) = match change {
        Change::NotFound => return Err(ApiError::not_found(JOB_NOT_FOUND).into()),
        Change::NotAllowed => return Err(OpsError::conflict(json!({ "error": refusal }))),
        Change::Done { before, job } => (before, *job),
    };
    staff::record(
        &mut tx,
        AuditRecord {
            user_id: staff.user_id(),
            action,
            station_id: job.station_id,
            job_ids: std::slice::from_ref(&job.id),
            details: json!({
                "queue": job.queue,
                "state_before": before,
            }),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Json(job))
}

#[derive(Debug, Deserialize)]
struct BulkRerun {
    filter: BulkFilter,
    expected: i64,
}

/// The list's filter as JSON; `station_id` may come as a number or as the query's text.
#[derive(Debug, Default, Deserialize)]
struct BulkFilter {
    queue: Option<String>,
    state: Option<String>,
    from: Option<String>,
    to: Option<String>,
    q: Option<String>,
    station_id: Option<Value>,
}

#[derive(Debug, Serialize)]
struct BulkDone {
    rerun: usize,
    job_ids: Vec<String>,
}

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

    let mut tx = state.db.begin().await?;
    let rerun = match console::rerun_matching(&mut tx, staff.scope(), &filter, body.expected)
        .await?
    {
        Bulk::Done(rerun) => rerun,
        Bulk::Changed(count) => {
            return Err(OpsError::conflict(json!({
                "error": format!("A seleção mudou: agora são {count} tarefas. Confirme novamente."),
                "count": count,
            })));
        }
        Bulk::TooMany => {
            return Err(ApiError::Invalid(vec![TOO_MANY_TO_RERUN.into()]).into());
        }
    };
    // One entry per station among the jobs (and one for unowned jobs), so each station's
    // staff see the re-runs of their jobs; `count` is the entry's, `total` the action's. A
    // re-run that matched nothing is still recorded once, in the filter's scope.
    let total = rerun.len();
    let mut by_station: BTreeMap<Option<i64>, Vec<String>> = BTreeMap::new();
    for job in &rerun {
        by_station
            .entry(job.station_id)
            .or_default()
            .push(job.id.clone());
    }
    if by_station.is_empty() {
        by_station.insert(staff.scope().station_id().or(filter.station_id), Vec::new());
    }
    for (station_id, job_ids) in &by_station {
        staff::record(
            &mut tx,
            AuditRecord {
                user_id: staff.user_id(),
                action: Action::JobsRerun,
                station_id: *station_id,
                job_ids,
                details: json!({ "filter": filter, "count": job_ids.len(), "total": total }),
            },
        )
        .await?;
    }
    tx.commit().await?;
    Ok(Json(BulkDone {
        rerun: total,
        job_ids: rerun.into_iter().map(|job| job.id).collect(),
    }))
}

async fn stations(
    State(state): State<AppState>,
    staff: Staff,
) -> OpsResult<Json<Vec<StationOverview>>> {
    Ok(Json(staff::stations(&state.db, staff.scope(), None).await?))
}

#[derive(Debug, Serialize)]
struct Released {
    job_id: String,
}

async fn release(
    State(state): State<AppState>,
    staff: Staff,
    Path(station_id): Path<i64>,
) -> OpsResult<(StatusCode, Json<Released>)> {
    staff.require_support()?;
    if staff::stations(&state.db, staff.scope(), Some(station_id))
        .await?
        .is_empty()
    {
        return Err(ApiError::not_found(STATION_NOT_FOUND).into());
    }
    let mut tx = state.db.begin().await?;
    let job = Enqueue::new(CashbackRelease {
        station_id,
        tick: None,
        requested_by: Some(staff.user_id()),
    })
    .owner(station_id, None)
    .about("station", station_id)
    .push(&mut tx)
    .await?;
    staff::record(
        &mut tx,
        AuditRecord {
            user_id: staff.user_id(),
            action: Action::CashbackRelease,
            station_id: Some(station_id),
            job_ids: std::slice::from_ref(&job.id),
            details: json!({ "station_id": station_id, "job": job.id }),
        },
    )
    .await?;
    tx.commit().await?;
    Ok((StatusCode::ACCEPTED, Json(Released { job_id: job.id })))
}

#[derive(Debug, Deserialize)]
struct AuditParams {
    job_id: Option<String>,
    page: Option<String>,
    per_page: Option<String>,
}

#[derive(Debug, Serialize)]
struct AuditList {
    entries: Vec<AuditEntry>,
    total: i64,
    page: i64,
    per_page: i64,
}

async fn audit(
    State(state): State<AppState>,
    staff: Staff,
    params: Result<Query<AuditParams>, QueryRejection>,
) -> OpsResult<Json<AuditList>> {
    let params = query(params)?;
    let mut messages = Vec::new();
    let (page, per_page) = parse_page(params.page, params.per_page, &mut messages);
    invalid_if_any(messages)?;
    let job_id = given(params.job_id);
    let mut conn = state.db.acquire().await?;
    let (entries, total) =
        staff::audit_page(&mut conn, staff.scope(), job_id.as_deref(), page, per_page).await?;
    Ok(Json(AuditList {
        entries,
        total,
        page,
        per_page,
    }))
}
