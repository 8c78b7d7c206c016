//! Engagement: the activities catalogue, taking part, and sharing.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub mod activities;
pub mod catalogue;
pub mod public;
pub mod sharing;

pub fn router() -> OpenApiRouter<AppState> {
    sharing::router()
        .merge(activities::router())
        .merge(catalogue::router())
        .merge(public::router())
}
