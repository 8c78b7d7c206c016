//! `/api/ops/stations`: the stations in the grant's scope and releasing their cashback now.

use axum::extract::State;
use axum::http::StatusCode;
use domain::staff::{self, StationOverview};
use jobs::console::actions;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::params::*;
use crate::error::{ApiError, ErrorMessage};
use crate::extract::{Json, Path};
use crate::staff::{OpsResult, Staff};
use crate::state::AppState;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(stations))
        .routes(routes!(release))
}

use domain::stations::STATION_NOT_FOUND;

/// The stations in the grant's scope, with their release schedule and pending cashback
#[utoipa::path(
    get,
    path = "/stations",
    tag = "staff",
    security(("staff" = [])),
    responses(
        (status = 200, description = "The stations", body = Vec<StationOverview>),
    )
)]
async fn stations(
    State(state): State<AppState>,
    staff: Staff,
) -> OpsResult<Json<Vec<StationOverview>>> {
    Ok(Json(staff::stations(&state.db, staff.scope(), None).await?))
}

#[derive(Debug, Serialize, ToSchema)]
struct Released {
    job_id: String,
}

/// Releases a station's due cashback now
#[utoipa::path(
    post,
    path = "/stations/{id}/release",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The station id")),
    responses(
        (status = 202, description = "The release job is queued", body = Released),
        (status = 403, description = "a viewer (reads only)", body = ErrorMessage),
        (status = 404, description = "No such station in the grant's scope", body = ErrorMessage),
    )
)]
async fn release(
    State(state): State<AppState>,
    staff: Staff,
    Path(station_id): Path<i64>,
) -> OpsResult<(StatusCode, Json<Released>)> {
    staff.require_support()?;
    let job_id = actions::release_cashback(&state.db, actor(&staff), station_id)
        .await?
        .ok_or_else(|| ApiError::not_found(STATION_NOT_FOUND))?;
    Ok((StatusCode::ACCEPTED, Json(Released { job_id })))
}
