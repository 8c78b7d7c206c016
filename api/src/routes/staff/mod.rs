//! Staff: the support console's API, mounted at `/api/ops`.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub mod annulments;
pub mod moderation;
pub mod ops;
pub mod refunds;

/// Mounted at `/ops`.
pub fn router() -> OpenApiRouter<AppState> {
    ops::router()
        .merge(refunds::router())
        .merge(annulments::router())
        .merge(moderation::router())
}
