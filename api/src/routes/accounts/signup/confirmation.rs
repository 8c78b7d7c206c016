//! Confirming an account: sending the code e-mail (on request, spaced by the resend wait)
//! and activating by code or by link (`domain::accounts::confirmation`).

use app::accounts::confirmation;
use axum::extract::State;
use domain::accounts::activation;
use domain::accounts::confirmation::MAIL_SENT;
use jobs::JobOutbox;
use serde::Deserialize;
use serde::Serialize;
use serde::de::IgnoredAny;
use utoipa::ToSchema;

use super::StationField;
use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::ip_throttle::ActivationThrottle;
use crate::state::AppState;

#[derive(Debug, Deserialize, ToSchema)]
pub(super) struct MethodRequest {
    station_id: i64,
    user_id: Option<i64>,
    /// The login's `affiliate.id`, when the form sends that instead of `user_id`.
    id: Option<i64>,
    /// Only `email` for now.
    #[serde(rename = "type")]
    method: Option<String>,
    /// The masked contacts the form shows, sent as the spec's form sends them and never
    /// read: the code goes to the account's own e-mail.
    #[serde(rename = "email")]
    #[schema(value_type = Option<String>)]
    _email: Option<IgnoredAny>,
    #[serde(rename = "tel")]
    #[schema(value_type = Option<String>)]
    _tel: Option<IgnoredAny>,
}

impl From<MethodRequest> for domain::accounts::confirmation::MethodRequest {
    fn from(form: MethodRequest) -> Self {
        Self {
            station_id: form.station_id,
            user_id: form.user_id,
            id: form.id,
            method: form.method,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub(super) struct ResendRequest {
    station_id: i64,
    email: Option<String>,
}

impl From<ResendRequest> for domain::accounts::confirmation::ResendRequest {
    fn from(form: ResendRequest) -> Self {
        Self {
            station_id: form.station_id,
            email: form.email,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub(super) struct ActivateRequest {
    station: StationField,
    /// Sent as the spec's form sends it and never read: the station decides.
    #[serde(rename = "establishment")]
    #[schema(value_type = Option<i64>)]
    _establishment: Option<IgnoredAny>,
    email: Option<String>,
    /// The e-mail's 6-digit code, or the token of its link.
    hash: Option<String>,
    /// Identifies the account when the form knows only a masked e-mail.
    user_id: Option<i64>,
}

impl From<ActivateRequest> for domain::accounts::confirmation::ActivateRequest {
    fn from(form: ActivateRequest) -> Self {
        Self {
            station_id: form.station.id(),
            email: form.email,
            hash: form.hash,
            user_id: form.user_id,
        }
    }
}

/// The answer to a code request, the same whether or not a code went: the wait before
/// another one may be asked for.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ResendAnswer {
    #[schema(value_type = String)]
    message: &'static str,
    resend_in: u64,
}

impl ResendAnswer {
    fn of(state: &AppState) -> Json<Self> {
        Json(Self {
            message: MAIL_SENT,
            resend_in: state.config.confirmation_resend_seconds,
        })
    }
}

/// Sends an activation code to an account (step 2 of the multi-step sign-up)
///
/// To the account's own e-mail, never to an address in the body, and only while it waits for
/// activation. The answer and the wait are the same whatever the id (a pending account, an
/// active one, one without an e-mail, none at all): the form already shows the masked
/// e-mail it got from the login or the first step.
#[utoipa::path(
    post,
    path = "/auth/confirmation-method",
    tag = "accounts",
    request_body = MethodRequest,
    responses(
        (status = 200, description = "Sent if the id is of an account waiting for activation", body = ResendAnswer),
        (status = 404, description = "No such station", body = ErrorMessage),
        (status = 422, description = "A method other than e-mail, or no account id", body = Messages),
        (status = 429, description = "A code was asked for this account id less than the resend wait ago, the id reached its codes of the day, or too many calls came from this client address", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
pub(super) async fn confirmation_method(
    _: ActivationThrottle,
    State(state): State<AppState>,
    Json(form): Json<MethodRequest>,
) -> ApiResult<Json<ResendAnswer>> {
    confirmation::send_code_to_account(&state.db, &JobOutbox, &state.config, &form.into()).await?;
    Ok(ResendAnswer::of(&state))
}

/// Sends a new activation code to an e-mail
///
/// To the pending account of the e-mail. The answer and the wait are the same whether or
/// not such an account exists.
#[utoipa::path(
    post,
    path = "/auth/resend-confirmation-email",
    tag = "accounts",
    request_body = ResendRequest,
    responses(
        (status = 200, description = "Sent if the address has an account waiting", body = ResendAnswer),
        (status = 404, description = "No such station", body = ErrorMessage),
        (status = 422, description = "No e-mail, or a malformed one", body = Messages),
        (status = 429, description = "A code went to this address less than the resend wait ago, the address reached its codes of the day, or too many calls came from this client address", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
pub(super) async fn resend_confirmation_email(
    _: ActivationThrottle,
    State(state): State<AppState>,
    Json(form): Json<ResendRequest>,
) -> ApiResult<Json<ResendAnswer>> {
    confirmation::send_code_to_address(&state.db, &JobOutbox, &state.config, &form.into()).await?;
    Ok(ResendAnswer::of(&state))
}

/// Anyone holding a code or link gets this answer, so it says no more than the next screen
/// (the login) needs: which account, now active. No e-mail, name or other personal data.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct Activated {
    #[schema(value_type = String)]
    message: &'static str,
    user: ActivatedUser,
}

#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ActivatedUser {
    id: i64,
    /// 1, as `User.active` is written.
    active: u8,
}

/// Activates an account by its code or link
///
/// By the e-mail's 6-digit code or by its link. A second use of a right code or link on an
/// active account answers 200 again.
#[utoipa::path(
    post,
    path = "/auth/signup/activate-participant/",
    tag = "accounts",
    request_body = ActivateRequest,
    responses(
        (status = 200, description = "Activated (or already active)", body = Activated),
        (status = 404, description = "No such station", body = ErrorMessage),
        (status = 422, description = "No code or e-mail; a wrong or expired code; an invalid link", body = Messages),
        (status = 429, description = "Too many calls from this client address, or too many wrong codes for the account (it waits)", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
pub(super) async fn activate_participant(
    _: ActivationThrottle,
    State(state): State<AppState>,
    Json(form): Json<ActivateRequest>,
) -> ApiResult<Json<Activated>> {
    let id = confirmation::activate(&state.db, &JobOutbox, &form.into()).await?;
    Ok(Json(Activated {
        message: activation::ACTIVATED,
        user: ActivatedUser { id, active: 1 },
    }))
}

/// Activates an account by its code or link (the spec's path without its slash)
///
/// The same as `POST /api/auth/signup/activate-participant/`.
#[utoipa::path(
    post,
    path = "/auth/signup/activate-participant",
    tag = "accounts",
    request_body = ActivateRequest,
    responses(
        (status = 200, description = "Activated (or already active)", body = Activated),
        (status = 404, description = "No such station", body = ErrorMessage),
        (status = 422, description = "No code or e-mail; a wrong or expired code; an invalid link", body = Messages),
        (status = 429, description = "Too many calls from this client address, or too many wrong codes for the account (it waits)", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
pub(super) async fn activate_participant_without_slash(
    throttle: ActivationThrottle,
    state: State<AppState>,
    request: Json<ActivateRequest>,
) -> ApiResult<Json<Activated>> {
    activate_participant(throttle, state, request).await
}
