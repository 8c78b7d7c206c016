//! Support: the contact form's `POST /enviar-suporte` (spec 002 "Support"); the console's
//! list and answer are in `staff/support`.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub mod messages;

pub fn router() -> OpenApiRouter<AppState> {
    messages::router()
}
