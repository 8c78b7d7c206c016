//! Password recovery: the e-mailed reset link (`POST /api/auth/validate-email-forgot-pass`)
//! and the new password (`POST /api/auth/update-password`). The request answers the same
//! whether or not the address has an account, so it cannot be used to find members.

use axum::extract::State;
use domain::accounts::recovery::{self, Requested};
use domain::accounts::signup::{self, Problems};
use domain::stations::station::{self, Station};
use jobs::Enqueue;
use jobs::kinds::infra::mail_send::MailSend;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::ip_throttle::SignupThrottle;
use crate::routes::stations::branding::STATION_NOT_FOUND;
use crate::state::AppState;

pub const LINK_SENT: &str = "Sucesso! Verifique sua caixa de e-mails";
pub const PASSWORD_CHANGED: &str = "Sucesso! Você já pode logar com a nova senha";
pub const LINK_INVALID: &str = "Link de redefinição inválido ou expirado. Solicite um novo.";

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

#[derive(Debug, Deserialize, ToSchema)]
struct LinkRequest {
    email: Option<String>,
    station_id: i64,
}

async fn find_station(state: &AppState, station_id: i64) -> ApiResult<Station> {
    station::find(&state.db, station_id)
        .await?
        .ok_or_else(|| ApiError::not_found(STATION_NOT_FOUND))
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
    Json(request): Json<LinkRequest>,
) -> ApiResult<Json<Message>> {
    let mut problems = Problems::default();
    let email = signup::email(&mut problems, request.email.as_deref(), true);
    let Some(email) = email.filter(|_| problems.is_empty()) else {
        return Err(ApiError::Invalid(problems.into_messages()));
    };
    let station = find_station(&state, request.station_id).await?;
    let mut tx = state.db.begin().await?;
    match recovery::request(&mut tx, station.id, &email).await? {
        Requested::Issued(issued) => {
            let mail = recovery::mail(&station, &state.config.public_url, &issued);
            Enqueue::new(MailSend::new(mail))
                .owner(station.id, Some(issued.user_id))
                .about("password_reset", issued.reset_id)
                .push(&mut tx)
                .await?;
            tracing::info!(user_id = issued.user_id, "password reset link sent");
        }
        Requested::TooSoon => tracing::info!(station_id = station.id, "password reset: too soon"),
        Requested::NoAccount => {}
    }
    tx.commit().await?;
    Ok(Json(Message { message: LINK_SENT }))
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
    Json(request): Json<NewPassword>,
) -> ApiResult<Json<Message>> {
    let mut problems = Problems::default();
    let password = signup::password(
        &mut problems,
        request.password.as_deref(),
        request.password_confirmation.as_deref(),
    );
    let Some(password) = password.filter(|_| problems.is_empty()) else {
        return Err(ApiError::Invalid(problems.into_messages()));
    };
    let email = request.user_email.trim().to_lowercase();
    let token = request.user_hash.trim();
    // Hashed only for a live link, so the public call cannot be used to burn CPU, and before
    // the transaction, so the hasher holds no connection; redeeming checks the link again.
    if !recovery::is_open(&state.db, request.station_id, &email, token).await? {
        return Err(ApiError::invalid(LINK_INVALID));
    }
    let password_hash = domain::accounts::password::hash_off_thread(password).await?;
    let mut tx = state.db.begin().await?;
    let Some(user_id) = recovery::redeem(&mut tx, request.station_id, &email, token).await? else {
        return Err(ApiError::invalid(LINK_INVALID));
    };
    let confirmed = recovery::reset_password(&mut tx, user_id, &password_hash).await?;
    // The reset confirmed a pending account: it earns what a confirmation earns.
    if confirmed {
        jobs::kinds::PointsCredit::for_confirmed_account(&mut tx, user_id).await?;
    }
    tx.commit().await?;
    tracing::info!(user_id, "password reset");
    Ok(Json(Message {
        message: PASSWORD_CHANGED,
    }))
}
