//! The fuel campaign (`/homepage/legisclub-gasolina`): the station's open campaigns, the
//! member's vouchers, taking one.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

mod campaigns;

pub fn router() -> OpenApiRouter<AppState> {
    campaigns::router()
}
