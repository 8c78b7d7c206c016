//! `/api/ops/queues`: the queues with their counts, pausing and resuming them.

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::staff::Scope;
use jobs::console::{self, actions};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::params::*;
use crate::error::{ApiError, ErrorMessage};
use crate::extract::{Json, Path};
use crate::staff::{OpsError, OpsResult, Staff};
use crate::state::AppState;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(queues))
        .routes(routes!(pause))
        .routes(routes!(resume))
}

const QUEUE_NOT_FOUND: &str = "Fila não encontrada";
const PAUSE_NEEDS_ALL_STATIONS: &str = "Somente a equipe de todas as estações pode pausar filas.";

/// Jobs of one queue by state; the finished states over [`FINISHED_WINDOW_HOURS`].
#[derive(Debug, Serialize, ToSchema)]
struct StateCounts {
    queued: i64,
    scheduled: i64,
    running: i64,
    retrying: i64,
    succeeded: i64,
    failed: i64,
    cancelled: i64,
}

impl From<console::StateCounts> for StateCounts {
    fn from(counts: console::StateCounts) -> Self {
        let console::StateCounts {
            queued,
            scheduled,
            running,
            retrying,
            succeeded,
            failed,
            cancelled,
        } = counts;
        Self {
            queued,
            scheduled,
            running,
            retrying,
            succeeded,
            failed,
            cancelled,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
struct PausedBy {
    id: i64,
    name: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct QueueOverview {
    name: String,
    paused: bool,
    paused_at: Option<DateTime<Utc>>,
    paused_by: Option<PausedBy>,
    counts: StateCounts,
}

impl From<console::QueueOverview> for QueueOverview {
    fn from(queue: console::QueueOverview) -> Self {
        let console::QueueOverview {
            name,
            paused,
            paused_at,
            paused_by,
            counts,
        } = queue;
        Self {
            name,
            paused,
            paused_at,
            paused_by: paused_by.map(|paused_by| {
                let console::PausedBy { id, name } = paused_by;
                PausedBy { id, name }
            }),
            counts: counts.into(),
        }
    }
}

/// Every queue with its job counts by state, in the grant's scope
#[utoipa::path(
    get,
    path = "/queues",
    tag = "staff",
    security(("staff" = [])),
    responses(
        (status = 200, description = "The queues", body = Vec<QueueOverview>),
    )
)]
async fn queues(
    State(state): State<AppState>,
    staff: Staff,
) -> OpsResult<Json<Vec<QueueOverview>>> {
    let queues = console::queues(&state.db, staff.scope(), None).await?;
    Ok(Json(queues.into_iter().map(QueueOverview::from).collect()))
}

/// Pauses a queue: its jobs wait until it resumes
#[utoipa::path(
    post,
    path = "/queues/{name}/pause",
    tag = "staff",
    security(("staff" = [])),
    params(("name" = String, Path, description = "The queue name")),
    responses(
        (status = 200, description = "The queue, paused", body = QueueOverview),
        (status = 403, description = "a viewer, or a grant of one station only", body = ErrorMessage),
        (status = 404, description = "No such queue", body = ErrorMessage),
    )
)]
async fn pause(
    state: State<AppState>,
    staff: Staff,
    Path(name): Path<String>,
) -> OpsResult<Json<QueueOverview>> {
    set_paused(state, staff, name, true).await
}

/// Resumes a paused queue
#[utoipa::path(
    post,
    path = "/queues/{name}/resume",
    tag = "staff",
    security(("staff" = [])),
    params(("name" = String, Path, description = "The queue name")),
    responses(
        (status = 200, description = "The queue, running", body = QueueOverview),
        (status = 403, description = "a viewer, or a grant of one station only", body = ErrorMessage),
        (status = 404, description = "No such queue", body = ErrorMessage),
    )
)]
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
    let queue = actions::set_paused(&state.db, actor(&staff), &name, pause)
        .await?
        .ok_or_else(|| ApiError::not_found(QUEUE_NOT_FOUND))?;
    Ok(Json(queue.into()))
}
