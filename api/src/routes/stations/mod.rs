//! Stations: host resolution (`/api/config`), a station's public branding and its
//! visitors' landing page with its about pages.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub mod branding;
pub mod landing;
pub mod site;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(site::router())
        .merge(branding::router())
        .merge(landing::router())
}
