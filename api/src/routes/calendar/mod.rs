//! The station calendar: its schedules (events), in a window or one by one.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

mod schedules;

pub fn router() -> OpenApiRouter<AppState> {
    schedules::router()
}
