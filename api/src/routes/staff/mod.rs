//! Staff: the support console's API, mounted at `/api/ops`.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub mod annulments;
mod audit;
mod console_jobs;
mod desk;
mod desk_cases;
mod desk_imports;
mod me;
pub mod moderation;
mod params;
mod queues;
pub mod refunds;
mod stations;
pub mod subscriptions;
mod support;
pub mod topups;

/// Mounted at `/ops`: one module per resource of the console (docs/api-ops.md); `params`
/// is how their lists read a query.
pub fn router() -> OpenApiRouter<AppState> {
    me::router()
        .merge(queues::router())
        .merge(console_jobs::router())
        .merge(stations::router())
        .merge(audit::router())
        .merge(refunds::router())
        .merge(annulments::router())
        .merge(moderation::router())
        .merge(subscriptions::router())
        .merge(topups::router())
        .merge(support::router())
        .merge(desk_imports::router())
        .merge(desk::router())
        .merge(desk_cases::router())
}
