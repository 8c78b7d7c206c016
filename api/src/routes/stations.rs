//! `GET /api/stations/{id}`: a station's public data (branding, flags, establishment).

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use domain::stations::station::{self, Station};

use crate::error::{ApiError, ApiResult};
use crate::extract::{Json, Path};
use crate::state::AppState;

pub const STATION_NOT_FOUND: &str = "Estação não encontrada";

pub fn router() -> Router<AppState> {
    Router::new().route("/stations/{id}", get(show))
}

async fn show(State(state): State<AppState>, Path(id): Path<i64>) -> ApiResult<Json<Station>> {
    station::find(&state.db, id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found(STATION_NOT_FOUND))
}
