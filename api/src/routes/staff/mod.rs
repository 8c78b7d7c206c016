//! Staff: the support console's API, mounted at `/api/ops`.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub mod ops;

/// Mounted at `/ops`.
pub fn router() -> OpenApiRouter<AppState> {
    ops::router()
}
