//! Joining a station: the sign-up variants, the credentials check, the confirmation method,
//! activation and member-get-member codes. The field rules are `domain::accounts::signup`'s; the
//! station's flags decide which apply (public, affiliated, promotional, no CPF).

mod admin;
mod confirmation;
mod mgm;

use std::net::IpAddr;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use domain::accounts::mgm::InviteCode;
use domain::accounts::signup::{self, CreateError, NewAccount, Problems};
use domain::accounts::user::{self, User};
use domain::accounts::{affiliate, password};
use domain::infra::captcha;
use domain::stations::station::{self, Station};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::client_ip::ClientIp;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::ip_throttle::SignupThrottle;
use crate::routes::accounts::auth::{LoginResponse, start_session_in};
use crate::routes::stations::branding::STATION_NOT_FOUND;
use crate::state::AppState;

pub const WRONG_SIGNUP_FLOW: &str = "Esta estação não aceita este tipo de cadastro.";

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

/// The station a form names: by id, or an object carrying it (`{"id": 3}`).
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(untagged)]
enum StationField {
    Id(i64),
    Object { id: i64 },
}

impl StationField {
    fn id(self) -> i64 {
        match self {
            Self::Id(id) | Self::Object { id } => id,
        }
    }
}

async fn load_station(state: &AppState, station_id: i64) -> ApiResult<Station> {
    station::find(&state.db, station_id)
        .await?
        .ok_or_else(|| ApiError::not_found(STATION_NOT_FOUND))
}

fn reject(problems: Problems) -> ApiResult<()> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(ApiError::Invalid(problems.into_messages()))
    }
}

/// With the captcha on, the form's token must pass the provider's check. A provider that
/// cannot be reached fails the form too: the person can simply try again.
async fn check_captcha(state: &AppState, token: Option<&str>, ip: Option<IpAddr>) -> ApiResult<()> {
    if !state.captcha.is_enabled() {
        return Ok(());
    }
    let passed = match state.captcha.verify(token.unwrap_or_default(), ip).await {
        Ok(passed) => passed,
        Err(err) => {
            tracing::warn!(error = %err, "captcha check failed");
            false
        }
    };
    if passed {
        Ok(())
    } else {
        Err(ApiError::invalid(captcha::FAILED_MESSAGE))
    }
}

/// Refuses an e-mail or CPF that already has an account in the station.
async fn refuse_taken(
    state: &AppState,
    station_id: i64,
    email: Option<&str>,
    cpf: Option<&str>,
) -> ApiResult<()> {
    let taken = signup::taken(&state.db, station_id, email, cpf).await?;
    if taken.is_empty() {
        Ok(())
    } else {
        Err(ApiError::Invalid(
            taken.into_iter().map(String::from).collect(),
        ))
    }
}

/// The account insert, with a duplicate found by the unique index (a lost race) answered
/// like one found beforehand.
async fn create_account(tx: &mut PgConnection, account: &NewAccount) -> ApiResult<i64> {
    signup::create_account(tx, account)
        .await
        .map_err(|err| match err {
            CreateError::Taken(message) => ApiError::invalid(message),
            CreateError::Database(err) => err.into(),
            CreateError::Other(err) => err.into(),
        })
}

async fn hash_password(password: String) -> ApiResult<String> {
    Ok(password::hash_off_thread(password).await?)
}

/// The invite a sign-up came with: the offer and inviter `validate-mgm-code` answered, and
/// the full code `{code}-U{inviterId}-E{stationId}` that proves the inviter handed it out.
#[derive(Debug, Clone, Deserialize, ToSchema)]
struct MemberGetMember {
    action_id: i64,
    inviter_id: i64,
    code: Option<String>,
}

/// Records the invite a sign-up came with; one that does not qualify (no code, a code of
/// someone else) is only logged.
async fn record_invitation(
    tx: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    invite: Option<MemberGetMember>,
) -> ApiResult<()> {
    let Some(invite) = invite else {
        return Ok(());
    };
    let code = invite
        .code
        .as_deref()
        .and_then(InviteCode::parse)
        .filter(|code| code.inviter_id == invite.inviter_id);
    let recorded = match code {
        Some(code) => {
            domain::accounts::mgm::record_invitation(
                tx,
                station_id,
                user_id,
                &code,
                invite.action_id,
            )
            .await?
        }
        None => false,
    };
    if !recorded {
        tracing::info!(
            station_id,
            user_id,
            "sign-up invite ignored: it does not qualify"
        );
    }
    Ok(())
}

async fn find_user(state: &AppState, user_id: i64) -> ApiResult<User> {
    Ok(user::find(&state.db, user_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("user {user_id} vanished"))?)
}

// --- Step 0 of the multi-step form -----------------------------------------------------

#[derive(Debug, Deserialize, ToSchema)]
struct CredentialsCheck {
    station_id: i64,
    email: Option<String>,
    cpf: Option<String>,
    name: Option<String>,
    tel: Option<String>,
}

/// The spec's credentials response.
#[derive(Debug, Serialize, ToSchema)]
struct Credentials {
    email: Option<String>,
    celular: Option<String>,
    #[serde(rename = "isFiliado")]
    is_filiado: bool,
    id: Option<i64>,
    tel: Option<String>,
}

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
    Json(request): Json<CredentialsCheck>,
) -> ApiResult<Json<Credentials>> {
    let station = load_station(&state, request.station_id).await?;
    let mut problems = Problems::default();
    if station.affiliated {
        let cpf = signup::cpf(&mut problems, request.cpf.as_deref(), true);
        reject(problems)?;
        let cpf = cpf.unwrap_or_default();
        let entry = affiliate::find(&state.db, station.id, &cpf)
            .await?
            .ok_or_else(|| ApiError::invalid(affiliate::NOT_ON_ROSTER))?;
        refuse_taken(&state, station.id, entry.email.as_deref(), Some(&cpf)).await?;
        let tel = entry.tel.as_deref().and_then(signup::mask_phone);
        return Ok(Json(Credentials {
            email: entry.email.as_deref().map(signup::mask_email),
            celular: tel.clone(),
            is_filiado: true,
            id: Some(entry.id),
            tel,
        }));
    }
    let email = signup::email(&mut problems, request.email.as_deref(), true);
    let cpf = signup::cpf(
        &mut problems,
        request.cpf.as_deref().filter(|_| !station.no_cpf),
        !station.is_public && !station.no_cpf,
    );
    let mut tel = None;
    if station.no_cpf {
        signup::name(&mut problems, request.name.as_deref());
        tel = signup::phone(&mut problems, request.tel.as_deref(), true);
    }
    reject(problems)?;
    refuse_taken(&state, station.id, email.as_deref(), cpf.as_deref()).await?;
    let tel = tel.or_else(|| signup::present(request.tel.as_deref()).map(String::from));
    Ok(Json(Credentials {
        email,
        celular: tel.clone(),
        is_filiado: false,
        id: None,
        tel,
    }))
}

// --- The multi-step sign-up ------------------------------------------------------------

#[derive(Debug, Deserialize, ToSchema)]
struct ParticipantSignup {
    station_id: i64,
    email: Option<String>,
    cpf: Option<String>,
    name: Option<String>,
    tel: Option<String>,
    birthday: Option<String>,
    state: Option<String>,
    city: Option<String>,
    password: Option<String>,
    password_confirmation: Option<String>,
    establishment_id: Option<i64>,
    member_get_member: Option<MemberGetMember>,
    captcha: Option<String>,
}

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
    Json(request): Json<ParticipantSignup>,
) -> ApiResult<(StatusCode, Json<ParticipantCreated>)> {
    let station = load_station(&state, request.station_id).await?;
    let promotional = station.promotional;
    let mut problems = Problems::default();
    let (mut email, mut name, mut tel) = (None, None, None);
    if !station.affiliated {
        email = signup::email(&mut problems, request.email.as_deref(), true);
    }
    let cpf = signup::cpf(
        &mut problems,
        request.cpf.as_deref().filter(|_| !station.no_cpf),
        station.affiliated || (!station.is_public && !station.no_cpf),
    );
    if !station.affiliated {
        name = signup::name(&mut problems, request.name.as_deref());
        tel = signup::phone(&mut problems, request.tel.as_deref(), true);
    }
    let today = Utc::now().date_naive();
    let birthday = signup::birthday(
        &mut problems,
        request.birthday.as_deref(),
        promotional,
        promotional.then_some(today),
    );
    let uf = signup::state(&mut problems, request.state.as_deref(), promotional);
    let city = signup::optional_or_required(&mut problems, request.city.as_deref(), promotional)
        .map(String::from);
    let password = signup::password(
        &mut problems,
        request.password.as_deref(),
        request.password_confirmation.as_deref(),
    );
    reject(problems)?;
    if promotional {
        check_captcha(&state, request.captcha.as_deref(), ip).await?;
    }

    if station.affiliated {
        let entry = affiliate::find(&state.db, station.id, cpf.as_deref().unwrap_or_default())
            .await?
            .ok_or_else(|| ApiError::invalid(affiliate::NOT_ON_ROSTER))?;
        email = entry.email;
        name = Some(entry.name);
        tel = entry.tel;
    }
    refuse_taken(&state, station.id, email.as_deref(), cpf.as_deref()).await?;
    let password_hash = hash_password(password.unwrap_or_default()).await?;

    let mut tx = state.db.begin().await?;
    let account = NewAccount {
        station_id: station.id,
        name: name.unwrap_or_default(),
        email: email.clone(),
        cpf,
        tel,
        birthday,
        state: uf,
        city,
        password_hash: Some(password_hash),
        type_id: 2,
        active: false,
        establishment_id: signup::establishment_for(&mut *tx, station.id, request.establishment_id)
            .await?,
    };
    let user_id = create_account(&mut tx, &account).await?;
    record_invitation(&mut tx, station.id, user_id, request.member_get_member).await?;
    let job_id = match (&email, station.affiliated) {
        (Some(email), false) => {
            // The sign-up's own e-mail always goes; it starts the address' wait and day.
            domain::accounts::activation::mark_sent(&mut tx, station.id, email).await?;
            Some(
                confirmation::send_activation(
                    &mut tx,
                    &state,
                    &station,
                    user_id,
                    email,
                    &account.name,
                )
                .await?,
            )
        }
        _ => None,
    };
    tx.commit().await?;
    tracing::info!(station_id = station.id, user_id, "participant signed up");

    Ok((
        StatusCode::CREATED,
        Json(ParticipantCreated {
            user: find_user(&state, user_id).await?,
            confirmation: Confirmation {
                sent: job_id.is_some(),
                job_id,
                resend_in: state.config.confirmation_resend_seconds,
            },
        }),
    ))
}

// --- The simple sign-up ----------------------------------------------------------------

#[derive(Debug, Deserialize, ToSchema)]
struct SimpleSignup {
    station: StationField,
    cpf: Option<String>,
    /// Only on no-CPF stations, where the account needs another identifier.
    email: Option<String>,
    birthday: Option<String>,
    state: Option<String>,
    #[serde(rename = "firstName")]
    first_name: Option<String>,
    #[serde(rename = "lastName")]
    last_name: Option<String>,
    #[serde(rename = "phoneNumber")]
    phone_number: Option<String>,
    captcha: Option<String>,
    member_get_member: Option<MemberGetMember>,
}

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
        (status = 201, description = "Created and signed in", body = LoginResponse),
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
    Json(request): Json<SimpleSignup>,
) -> ApiResult<Response> {
    let station = load_station(&state, request.station.id()).await?;
    // Without this, anyone could open an active, password-less account on a station that
    // asks for confirmation (multi-step) or only admits its roster (affiliated).
    if station.signup_flow != "simple" || station.affiliated {
        return Err(ApiError::invalid(WRONG_SIGNUP_FLOW));
    }
    let mut problems = Problems::default();
    let cpf = signup::cpf(
        &mut problems,
        request.cpf.as_deref().filter(|_| !station.no_cpf),
        !station.no_cpf,
    );
    let email = signup::email(&mut problems, request.email.as_deref(), station.no_cpf);
    let today = Utc::now().date_naive();
    let birthday = signup::birthday(
        &mut problems,
        request.birthday.as_deref(),
        true,
        Some(today),
    );
    let uf = signup::state(&mut problems, request.state.as_deref(), true);
    let first_name = signup::name(&mut problems, request.first_name.as_deref());
    let last_name = signup::name(&mut problems, request.last_name.as_deref());
    let tel = signup::phone(&mut problems, request.phone_number.as_deref(), true);
    reject(problems)?;
    check_captcha(&state, request.captcha.as_deref(), ip).await?;
    refuse_taken(&state, station.id, email.as_deref(), cpf.as_deref()).await?;

    let mut tx = state.db.begin().await?;
    let account = NewAccount {
        station_id: station.id,
        name: format!(
            "{} {}",
            first_name.unwrap_or_default(),
            last_name.unwrap_or_default()
        ),
        email,
        cpf,
        tel,
        birthday,
        state: uf,
        type_id: 2,
        active: true,
        establishment_id: signup::establishment_for(&mut *tx, station.id, None).await?,
        ..NewAccount::default()
    };
    let user_id = create_account(&mut tx, &account).await?;
    record_invitation(&mut tx, station.id, user_id, request.member_get_member).await?;
    // Active at once: the confirmed account's rewards are queued now.
    jobs::kinds::PointsCredit::for_confirmed_account(&mut tx, user_id).await?;
    // In the same transaction: no account is left without the session it was created for.
    let session = start_session_in(&mut tx, user_id, "simple sign-up").await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, session).into_response())
}

/// The login refusal. With the right password of an account not activated yet it carries
/// `affiliate`, what the form's step 2 needs to send a code.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PendingActivation {
    messages: Vec<String>,
    #[schema(required = false)]
    affiliate: PendingAccount,
}

/// The account waiting for activation, its contacts masked.
#[derive(Debug, Serialize, ToSchema)]
struct PendingAccount {
    id: i64,
    email: Option<String>,
    celular: Option<String>,
    tel: Option<String>,
    #[serde(rename = "isFiliado")]
    is_filiado: bool,
}

/// The login answer for the right password of an account that is not activated yet: 401
/// with what the form's step 2 needs to send a code. `None` for an activated account.
pub(crate) async fn pending_activation(
    state: &AppState,
    user_id: i64,
    station: &Station,
) -> ApiResult<Option<Response>> {
    let user = find_user(state, user_id).await?;
    if user.active != 0 {
        return Ok(None);
    }
    let tel = user.tel.as_deref().and_then(signup::mask_phone);
    let body = PendingActivation {
        messages: vec![confirmation::CONFIRM_TO_LOG_IN.into()],
        affiliate: PendingAccount {
            id: user.id,
            email: user.email.as_deref().map(signup::mask_email),
            celular: tel.clone(),
            tel,
            is_filiado: station.affiliated,
        },
    };
    Ok(Some((StatusCode::UNAUTHORIZED, Json(body)).into_response()))
}
