//! Confirming an account: sending the code e-mail (on request, spaced by the resend wait)
//! and activating by code or by link.

use axum::extract::State;
use domain::accounts::activation::{self, Account, Outcome, SendRefused};
use domain::accounts::pending;
use domain::accounts::signup::{self, Problems};
use domain::stations::station::Station;
use jobs::Enqueue;
use jobs::kinds::infra::mail_send::MailSend;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use utoipa::ToSchema;

use super::{StationField, load_station, reject};
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::ip_throttle::ActivationThrottle;
use crate::state::AppState;

pub const CONFIRM_TO_LOG_IN: &str =
    "Confirme o seu cadastro para entrar: escolha onde receber o código de verificação.";
pub const NOTHING_PENDING: &str = "Não há cadastro aguardando confirmação.";
pub const NO_EMAIL: &str =
    "Não há e-mail neste cadastro para receber o código. Fale com o suporte da sua entidade.";
pub const EMAIL_ONLY: &str = "No momento, o código só pode ser enviado por e-mail.";
pub const MAIL_SENT: &str = "E-mail enviado com sucesso";

fn wait_message(seconds: u64) -> String {
    let unit = if seconds == 1 { "segundo" } else { "segundos" };
    format!("Aguarde {seconds} {unit} para pedir um novo código.")
}

/// Issues a new code for the account and enqueues its e-mail on the caller's transaction.
/// The caller has claimed the address' resend wait ([`claim_send`]) or started it
/// (`activation::mark_sent`). Answers the job id.
pub(super) async fn send_activation(
    tx: &mut PgConnection,
    state: &AppState,
    station: &Station,
    user_id: i64,
    email: &str,
    name: &str,
) -> ApiResult<String> {
    let issued = activation::issue(&mut *tx, user_id).await?;
    let mail = activation::mail(station, &state.config.public_url, email, name, &issued);
    let job = Enqueue::new(MailSend::new(mail))
        .owner(station.id, Some(user_id))
        .about("user", user_id)
        .push(&mut *tx)
        .await?;
    Ok(job.id)
}

/// Claims the resend wait and the daily allowance of an address, or answers 429 with the
/// seconds left.
async fn claim_send(
    tx: &mut PgConnection,
    state: &AppState,
    station_id: i64,
    email: &str,
) -> ApiResult<()> {
    activation::claim_send(
        tx,
        station_id,
        email,
        state.config.confirmation_resend_seconds,
        state.config.confirmation_max_per_day,
    )
    .await?
    .map_err(|refused| match refused {
        SendRefused::Wait(seconds) => ApiError::TooManyRequests {
            message: wait_message(seconds),
            retry_after: seconds,
        },
        SendRefused::DailyCap(seconds) => ApiError::TooManyRequests {
            message: activation::DAILY_CAP_REACHED.into(),
            retry_after: seconds,
        },
    })
}

#[derive(Debug, Deserialize, ToSchema)]
pub(super) struct MethodRequest {
    station_id: i64,
    user_id: Option<i64>,
    /// The login's `affiliate.id`, when the form sends that instead of `user_id`.
    id: Option<i64>,
    /// Only `email` for now.
    #[serde(rename = "type")]
    method: Option<String>,
}

/// Where the code went (masked), the wait before another one, and the e-mail's job.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct MethodAnswer {
    email: String,
    resend_in: u64,
    job_id: String,
}

/// Sends an activation code (step 2 of the multi-step sign-up)
///
/// To the account's own e-mail, never to an address in the body.
#[utoipa::path(
    post,
    path = "/auth/confirmation-method",
    tag = "accounts",
    request_body = MethodRequest,
    responses(
        (status = 200, description = "The code e-mail is queued", body = MethodAnswer),
        (status = 404, description = "No such station", body = ErrorMessage),
        (status = 422, description = "A method other than e-mail, no account waiting for activation, or one without an e-mail", body = Messages),
        (status = 429, description = "A code went to this address less than the resend wait ago, the address reached its codes of the day, or too many calls came from this client address", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
pub(super) async fn confirmation_method(
    _: ActivationThrottle,
    State(state): State<AppState>,
    Json(request): Json<MethodRequest>,
) -> ApiResult<Json<MethodAnswer>> {
    if request
        .method
        .as_deref()
        .is_some_and(|method| method != "email")
    {
        return Err(ApiError::invalid(EMAIL_ONLY));
    }
    let station = load_station(&state, request.station_id).await?;
    let user_id = request
        .user_id
        .or(request.id)
        .ok_or_else(|| ApiError::invalid(NOTHING_PENDING))?;
    let pending = pending::by_id(&state.db, station.id, user_id).await?;
    let (name, email) = pending.ok_or_else(|| ApiError::invalid(NOTHING_PENDING))?;
    let email = email.ok_or_else(|| ApiError::invalid(NO_EMAIL))?;

    let mut tx = state.db.begin().await?;
    claim_send(&mut tx, &state, station.id, &email).await?;
    let job_id = send_activation(&mut tx, &state, &station, user_id, &email, &name).await?;
    tx.commit().await?;
    Ok(Json(MethodAnswer {
        email: signup::mask_email(&email),
        resend_in: state.config.confirmation_resend_seconds,
        job_id,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub(super) struct ResendRequest {
    station_id: i64,
    email: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ResendAnswer {
    #[schema(value_type = String)]
    message: &'static str,
    resend_in: u64,
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
    Json(request): Json<ResendRequest>,
) -> ApiResult<Json<ResendAnswer>> {
    let mut problems = Problems::default();
    let email = signup::email(&mut problems, request.email.as_deref(), true);
    reject(problems)?;
    let email = email.unwrap_or_default();
    let station = load_station(&state, request.station_id).await?;

    let mut tx = state.db.begin().await?;
    claim_send(&mut tx, &state, station.id, &email).await?;
    let pending = pending::by_email(&mut *tx, station.id, &email).await?;
    if let Some((user_id, name)) = pending {
        send_activation(&mut tx, &state, &station, user_id, &email, &name).await?;
    }
    tx.commit().await?;
    Ok(Json(ResendAnswer {
        message: MAIL_SENT,
        resend_in: state.config.confirmation_resend_seconds,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub(super) struct ActivateRequest {
    station: StationField,
    email: Option<String>,
    /// The e-mail's 6-digit code, or the token of its link.
    hash: Option<String>,
    /// Identifies the account when the form knows only a masked e-mail.
    user_id: Option<i64>,
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
    Json(request): Json<ActivateRequest>,
) -> ApiResult<Json<Activated>> {
    let mut problems = Problems::default();
    let hash = signup::required_text(&mut problems, request.hash.as_deref()).unwrap_or_default();
    let email = signup::present(request.email.as_deref());
    let by_code = activation::is_code(hash);
    if request.user_id.is_none() || !by_code {
        signup::required_text(&mut problems, email);
    }
    reject(problems)?;
    let station = load_station(&state, request.station.id()).await?;

    let mut tx = state.db.begin().await?;
    let outcome = if by_code {
        let account = match request.user_id {
            Some(id) => Account::Id(id),
            None => Account::Email(email.unwrap_or_default().to_string()),
        };
        activation::activate_with_code(&mut tx, station.id, &account, hash).await?
    } else {
        activation::activate_with_link(&mut tx, station.id, email.unwrap_or_default(), hash).await?
    };
    // What the confirmed account earns is queued with the activation itself.
    if let Outcome::Activated(user_id) = outcome {
        jobs::kinds::PointsCredit::for_confirmed_account(&mut tx, user_id).await?;
    }
    // Wrong codes are counted even though the answer is an error.
    tx.commit().await?;

    let user_id = match outcome {
        Outcome::Activated(id) | Outcome::AlreadyActive(id) => id,
        Outcome::WrongCode => return Err(ApiError::invalid(activation::CODE_INVALID)),
        Outcome::Locked(seconds) => {
            return Err(ApiError::TooManyRequests {
                message: activation::locked_message(seconds),
                retry_after: seconds,
            });
        }
        Outcome::CodeExpired => return Err(ApiError::invalid(activation::CODE_EXPIRED)),
        Outcome::LinkInvalid => return Err(ApiError::invalid(activation::LINK_INVALID)),
    };
    if matches!(outcome, Outcome::Activated(_)) {
        tracing::info!(station_id = station.id, user_id, "account activated");
    }
    Ok(Json(Activated {
        message: activation::ACTIVATED,
        user: ActivatedUser {
            id: user_id,
            active: 1,
        },
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
