//! The political-union page (`/homepage/politico-sindical`): the station's themes and a
//! member's suggestion. Its news is the content area's (`/political/news`).

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

mod themes;

pub fn router() -> OpenApiRouter<AppState> {
    themes::router()
}
