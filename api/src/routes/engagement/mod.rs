//! Engagement: sharing and the credits of share visits.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub mod sharing;

pub fn router() -> OpenApiRouter<AppState> {
    sharing::router()
}
