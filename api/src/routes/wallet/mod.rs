//! Wallet: the member's balance, statement and credits, and money into it (top-ups).

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub mod points;
pub mod topups;

pub fn router() -> OpenApiRouter<AppState> {
    points::router().merge(topups::router())
}
