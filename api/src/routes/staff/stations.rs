//! `/api/ops/stations`: the stations in the grant's scope and releasing their cashback now.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use domain::staff;
use domain::stations::StationError;
use jobs::console::actions;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::params::*;
use crate::error::ErrorMessage;
use crate::extract::{Json, Path};
use crate::staff::{OpsResult, Staff};
use crate::state::AppState;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(stations))
        .routes(routes!(release))
}

/// A station as the console lists it: its release schedule and the cashback waiting.
#[derive(Debug, Serialize, ToSchema)]
struct StationOverview {
    id: i64,
    name: String,
    subdomain: String,
    release: ReleaseSchedule,
    pending: PendingCashback,
}

#[derive(Debug, Serialize, ToSchema)]
struct ReleaseSchedule {
    expression: String,
    enabled: bool,
    last_tick: Option<DateTime<Utc>>,
}

/// Pending lots, and those of them whose holding period has ended (the next release takes
/// them). Amounts in hundredths of a point.
#[derive(Debug, Serialize, ToSchema)]
struct PendingCashback {
    lots: i64,
    amount_cents: i64,
    due_lots: i64,
    due_amount_cents: i64,
}

impl From<staff::StationOverview> for StationOverview {
    fn from(station: staff::StationOverview) -> Self {
        let staff::StationOverview {
            id,
            name,
            subdomain,
            release,
            pending,
        } = station;
        Self {
            id,
            name,
            subdomain,
            release: ReleaseSchedule {
                expression: release.expression,
                enabled: release.enabled,
                last_tick: release.last_tick,
            },
            pending: PendingCashback {
                lots: pending.lots,
                amount_cents: pending.amount_cents,
                due_lots: pending.due_lots,
                due_amount_cents: pending.due_amount_cents,
            },
        }
    }
}

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
    let stations = staff::stations(&state.db, staff.scope(), None).await?;
    Ok(Json(
        stations.into_iter().map(StationOverview::from).collect(),
    ))
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
        .ok_or(StationError::NotFound)?;
    Ok((StatusCode::ACCEPTED, Json(Released { job_id })))
}
