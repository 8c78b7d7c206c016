//! Stations: host resolution (`/api/config`) and a station's public branding.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub mod branding;
pub mod site;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(site::router())
        .merge(branding::router())
}
