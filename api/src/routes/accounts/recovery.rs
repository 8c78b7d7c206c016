//! Password recovery: the e-mailed reset link (`POST /api/auth/validate-email-forgot-pass`)
//! and the new password (`POST /api/auth/update-password`). The request answers the same
//! whether or not the address has an account, so it cannot be used to find members.

use app::accounts::recovery;
use axum::extract::State;
use domain::accounts::recovery::{LINK_SENT, PASSWORD_CHANGED};
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::ip_throttle::SignupThrottle;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(request_link))
        .routes(routes!(update_password))
}

#[derive(Debug, Deserialize, ToSchema)]
struct LinkRequest {
    email: Option<String>,
    station_id: i64,
}

impl From<LinkRequest> for domain::accounts::recovery::LinkRequest {
    fn from(form: LinkRequest) -> Self {
        Self {
            email: form.email,
            station_id: form.station_id,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
struct NewPassword {
    password: Option<String>,
    password_confirmation: Option<String>,
    #[serde(rename = "userHash")]
    user_hash: String,
    #[serde(rename = "userEmail")]
    user_email: String,
    station_id: i64,
}

impl From<NewPassword> for domain::accounts::recovery::NewPassword {
    fn from(form: NewPassword) -> Self {
        Self {
            password: form.password,
            password_confirmation: form.password_confirmation,
            user_hash: form.user_hash,
            user_email: form.user_email,
            station_id: form.station_id,
        }
    }
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
    recovery::send_link(
        &state.db,
        &JobOutbox,
        &state.config.public_url,
        &form.into(),
    )
    .await?;
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
    recovery::reset_password(&state.db, &JobOutbox, form.into()).await?;
    Ok(Json(Message {
        message: PASSWORD_CHANGED,
    }))
}
