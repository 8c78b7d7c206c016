//! `GET /api/config`: the page configuration of the host the app was loaded from. The spec
//! has the station id "come from page configuration"; here the host name decides it.

use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::header::HOST;
use axum::routing::get;
use serde::Serialize;

use crate::error::{ApiError, ApiResult};
use crate::extract::Json;
use crate::routes::stations::STATION_NOT_FOUND;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/config", get(show))
}

#[derive(Debug, Serialize)]
struct SiteConfig {
    station_id: i64,
}

async fn show(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Json<SiteConfig>> {
    // Behind a proxy the original host arrives as X-Forwarded-Host. Trusting it is safe: it
    // only picks which public branding to show, never whose data to read.
    let host = ["x-forwarded-host", HOST.as_str()]
        .iter()
        .find_map(|name| headers.get(*name)?.to_str().ok())
        .map(|value| value.split(',').next().unwrap_or_default().trim());
    let station_id =
        domain::station::resolve_host(&state.db, host, state.config.default_station.as_ref())
            .await?
            .ok_or_else(|| ApiError::not_found(STATION_NOT_FOUND))?;
    Ok(Json(SiteConfig { station_id }))
}
