//! Jobs (platform, not business): the state of a job a member owns.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub mod state;

pub fn router() -> OpenApiRouter<AppState> {
    state::router()
}
