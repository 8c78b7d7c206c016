//! A station's content (spec 002, "Other" calls): news (`/news/`), downloads
//! (`/downloads/`, with a private file's own route) and transparency documents
//! (`/transparency`). Members only; `where[station_id]` is the caller's station (absent
//! means it), another station's is refused; items of another station or not published
//! answer 404.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

mod downloads;
mod news;
mod transparency;

pub fn router() -> OpenApiRouter<AppState> {
    news::router()
        .merge(downloads::router())
        .merge(transparency::router())
}

/// The `where[station_id]` of the content lists.
#[derive(Debug, serde::Deserialize)]
struct StationQuery {
    #[serde(rename = "where[station_id]")]
    station_id: Option<i64>,
}
