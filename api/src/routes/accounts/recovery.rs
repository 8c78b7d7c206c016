//! Password recovery: the e-mailed reset link (`POST /api/auth/validate-email-forgot-pass`)
//! and the new password (`POST /api/auth/update-password`). The request answers the same
//! whether or not the address has an account, so it cannot be used to find members.

use axum::extract::State;
use domain::accounts::recovery::{self, LINK_SENT, LinkRequest, NewPassword, PASSWORD_CHANGED};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::queue;
use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::ip_throttle::SignupThrottle;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(request_link))
        .routes(routes!(update_password))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = RecoveryMessage)]
struct Message {
    #[schema(value_type = String)]
    message: &'static str,
}

/// Sends a password reset link
///
/// Ends with the e-mail job in the same transaction as the link it carries. Unknown and
/// blocked accounts, and a second request within a minute, get the same answer and no mail.
#[utoipa::path(
    post,
    path = "/auth/validate-email-forgot-pass",
    tag = "accounts",
    request_body = LinkRequest,
    responses(
        (status = 200, description = "Sent if the address has an account", body = Message),
        (status = 404, description = "No such station", body = ErrorMessage),
        (status = 422, description = "No e-mail, or a malformed one", body = Messages),
        (status = 429, description = "Too many calls from this address", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn request_link(
    _: SignupThrottle,
    State(state): State<AppState>,
    Json(form): Json<LinkRequest>,
) -> ApiResult<Json<Message>> {
    let mut tx = state.db.begin().await?;
    let follow_up = recovery::send_link(&mut tx, &state.config.public_url, &form).await?;
    queue(&mut tx, follow_up).await?;
    tx.commit().await?;
    Ok(Json(Message { message: LINK_SENT }))
}

/// Sets a new password through a reset link
///
/// A pending account is activated by it, as the link proves the e-mail.
#[utoipa::path(
    post,
    path = "/auth/update-password",
    tag = "accounts",
    request_body = NewPassword,
    responses(
        (status = 200, description = "Password changed", body = Message),
        (status = 422, description = "The password breaks a rule or does not match its confirmation, or the link is invalid or expired", body = Messages),
    )
)]
async fn update_password(
    State(state): State<AppState>,
    Json(form): Json<NewPassword>,
) -> ApiResult<Json<Message>> {
    let checked = recovery::check_reset(&state.db, form).await?;
    let mut tx = state.db.begin().await?;
    let follow_up = recovery::reset(&mut tx, checked).await?;
    queue(&mut tx, follow_up).await?;
    tx.commit().await?;
    Ok(Json(Message {
        message: PASSWORD_CHANGED,
    }))
}
