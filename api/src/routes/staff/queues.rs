//! `/api/ops/queues`: the queues with their counts, pausing and resuming them.

use axum::extract::State;
use domain::staff::Scope;
use jobs::console::actions;
use jobs::console::{self, QueueOverview};
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
    Ok(Json(console::queues(&state.db, staff.scope(), None).await?))
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
    Ok(Json(queue))
}
