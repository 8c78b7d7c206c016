//! Wallet: the member's balance, statement and credits.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub mod points;

pub fn router() -> OpenApiRouter<AppState> {
    points::router()
}
