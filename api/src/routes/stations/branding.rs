//! `GET /api/stations/{id}`: a station's public data (branding, flags, establishment).

use axum::extract::State;
use domain::stations::station::{self, Station};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::state::AppState;

use domain::stations::STATION_NOT_FOUND;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(show_station))
}

/// A station's public data: branding, flags and main establishment
#[utoipa::path(
    get,
    path = "/stations/{id}",
    tag = "stations",
    params(("id" = i64, Path, description = "The station's id")),
    responses(
        (status = 200, description = "The station", body = Station),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 404, description = "No such station", body = ErrorMessage),
    )
)]
async fn show_station(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<Station>> {
    station::find(&state.db, id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found(STATION_NOT_FOUND))
}
