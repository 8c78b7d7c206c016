//! Joining a station: the sign-up variants, the credentials check, the confirmation method,
//! activation and member-get-member codes. The rules are `domain::accounts::signup`'s; the
//! station's flags decide which apply (public, affiliated, promotional, no CPF).

mod admin;
mod confirmation;
mod mgm;

use axum::extract::State;
use axum::http::StatusCode;
use domain::accounts::session::NewSession;
use domain::accounts::signup::participant::{
    self, Credentials, CredentialsCheck, ParticipantSignup,
};
use domain::accounts::signup::simple::{self, SimpleSignup};
use domain::accounts::user::User;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::queue;
use crate::client_ip::ClientIp;
use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::ip_throttle::SignupThrottle;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(check_credentials))
        .routes(routes!(signup_participant))
        .routes(routes!(signup_simple))
        .routes(routes!(admin::signup_admin))
        .routes(routes!(confirmation::confirmation_method))
        .routes(routes!(confirmation::resend_confirmation_email))
        .routes(routes!(confirmation::activate_participant))
        .routes(routes!(confirmation::activate_participant_without_slash))
        .routes(routes!(mgm::validate_mgm_code))
}

// --- Step 0 of the multi-step form -----------------------------------------------------

/// Checks the first step of the multi-step sign-up
///
/// Whether the form's first step may go on: the data is well formed, no account has it,
/// and on an affiliated station the CPF is on the roster (its contacts answered masked).
#[utoipa::path(
    post,
    path = "/auth/signup-participant-validations",
    tag = "accounts",
    request_body = CredentialsCheck,
    responses(
        (status = 200, description = "The step may go on", body = Credentials),
        (status = 404, description = "No such station", body = ErrorMessage),
        (status = 422, description = "A field breaks a rule, the e-mail or CPF already has an account, or the CPF is not on the roster", body = Messages),
        (status = 429, description = "Too many sign-up calls from this address", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn check_credentials(
    _: SignupThrottle,
    State(state): State<AppState>,
    Json(form): Json<CredentialsCheck>,
) -> ApiResult<Json<Credentials>> {
    Ok(Json(
        participant::check_credentials(&state.db, &form).await?,
    ))
}

// --- The multi-step sign-up ------------------------------------------------------------

/// The activation e-mail: whether it was queued (not on affiliated stations, whose members
/// pick the method next), its job, and the wait before another one may be asked for.
#[derive(Debug, Serialize, ToSchema)]
struct Confirmation {
    sent: bool,
    job_id: Option<String>,
    resend_in: u64,
}

#[derive(Debug, Serialize, ToSchema)]
struct ParticipantCreated {
    user: User,
    confirmation: Confirmation,
}

/// Creates a member account (multi-step form)
///
/// The account is created inactive; the activation e-mail goes out in the same transaction,
/// except on affiliated stations, whose members pick the method next.
#[utoipa::path(
    post,
    path = "/auth/signup-participant",
    tag = "accounts",
    request_body = ParticipantSignup,
    responses(
        (status = 201, description = "Created, waiting for activation", body = ParticipantCreated),
        (status = 404, description = "No such station", body = ErrorMessage),
        (status = 422, description = "A field breaks a rule, the captcha failed, the e-mail or CPF already has an account, or the CPF is not on the roster", body = Messages),
        (status = 429, description = "Too many sign-up calls from this address", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn signup_participant(
    _: SignupThrottle,
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Json(form): Json<ParticipantSignup>,
) -> ApiResult<(StatusCode, Json<ParticipantCreated>)> {
    let checked = participant::check_participant(&state.db, &*state.captcha, ip, form).await?;
    let mut tx = state.db.begin().await?;
    let created =
        participant::create_participant(&mut tx, &state.config.public_url, checked).await?;
    let job_id = queue(&mut tx, created.follow_up).await?.pop();
    tx.commit().await?;
    Ok((
        StatusCode::CREATED,
        Json(ParticipantCreated {
            user: created.user,
            confirmation: Confirmation {
                sent: job_id.is_some(),
                job_id,
                resend_in: state.config.confirmation_resend_seconds,
            },
        }),
    ))
}

// --- The simple sign-up ----------------------------------------------------------------

/// Creates a member account (simple form) and signs it in
///
/// An active account with no password yet, signed in at once; the onboarding wizard asks
/// for e-mail and password.
#[utoipa::path(
    post,
    path = "/auth/signup",
    tag = "accounts",
    request_body = SimpleSignup,
    responses(
        (status = 201, description = "Created and signed in", body = NewSession),
        (status = 404, description = "No such station", body = ErrorMessage),
        (status = 422, description = "The station does not use this form, a field breaks a rule, the captcha failed, or the e-mail or CPF already has an account", body = Messages),
        (status = 429, description = "Too many sign-up calls from this address", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn signup_simple(
    _: SignupThrottle,
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Json(form): Json<SimpleSignup>,
) -> ApiResult<(StatusCode, Json<NewSession>)> {
    let checked = simple::check_simple(&state.db, &*state.captcha, ip, form).await?;
    let mut tx = state.db.begin().await?;
    let (session, follow_up) = simple::create_simple(&mut tx, checked).await?;
    queue(&mut tx, follow_up).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(session)))
}
