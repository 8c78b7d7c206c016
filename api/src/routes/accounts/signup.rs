//! Joining a station: the sign-up variants, the credentials check, the confirmation method,
//! activation and member-get-member codes. The rules are `domain::accounts::signup`'s; the
//! station's flags decide which apply (public, affiliated, promotional, no CPF).

mod admin;
mod confirmation;
mod mgm;

use axum::extract::State;
use axum::http::StatusCode;
use domain::accounts::signup as rules;
use domain::accounts::signup::participant;
use jobs::JobOutbox;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::client_ip::ClientIp;
use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::ip_throttle::SignupThrottle;
use crate::routes::accounts::auth::NewSession;
use crate::routes::accounts::users::User;
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

/// The invite a sign-up came with: the offer and inviter `validate-mgm-code` answered, and
/// the full code `{code}-U{inviterId}-E{stationId}` that proves the inviter handed it out.
#[derive(Debug, Clone, Deserialize, ToSchema)]
struct MemberGetMember {
    action_id: i64,
    inviter_id: i64,
    code: Option<String>,
}

impl From<MemberGetMember> for rules::MemberGetMember {
    fn from(invite: MemberGetMember) -> Self {
        Self {
            action_id: invite.action_id,
            inviter_id: invite.inviter_id,
            code: invite.code,
        }
    }
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

impl From<CredentialsCheck> for participant::CredentialsCheck {
    fn from(form: CredentialsCheck) -> Self {
        Self {
            station_id: form.station_id,
            email: form.email,
            cpf: form.cpf,
            name: form.name,
            tel: form.tel,
        }
    }
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

impl From<participant::Credentials> for Credentials {
    fn from(credentials: participant::Credentials) -> Self {
        Self {
            email: credentials.email,
            celular: credentials.celular,
            is_filiado: credentials.is_filiado,
            id: credentials.id,
            tel: credentials.tel,
        }
    }
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
    Json(form): Json<CredentialsCheck>,
) -> ApiResult<Json<Credentials>> {
    let credentials = participant::check_credentials(&state.db, &form.into()).await?;
    Ok(Json(credentials.into()))
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

impl From<ParticipantSignup> for participant::ParticipantSignup {
    fn from(form: ParticipantSignup) -> Self {
        Self {
            station_id: form.station_id,
            email: form.email,
            cpf: form.cpf,
            name: form.name,
            tel: form.tel,
            birthday: form.birthday,
            state: form.state,
            city: form.city,
            password: form.password,
            password_confirmation: form.password_confirmation,
            establishment_id: form.establishment_id,
            member_get_member: form.member_get_member.map(Into::into),
            captcha: form.captcha,
        }
    }
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
    Json(form): Json<ParticipantSignup>,
) -> ApiResult<(StatusCode, Json<ParticipantCreated>)> {
    let joined = app::accounts::signup::participant(
        &state.db,
        &JobOutbox,
        &*state.captcha,
        ip,
        &state.config.public_url,
        form.into(),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(ParticipantCreated {
            user: joined.user.into(),
            confirmation: Confirmation {
                sent: joined.mail_job.is_some(),
                job_id: joined.mail_job,
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
    /// The account type and the station's subdomain, sent as the spec's generic sign-up
    /// sends them and never read: this form makes participants (2) of `station`.
    #[serde(rename = "type")]
    #[schema(value_type = Option<i64>)]
    _type: Option<IgnoredAny>,
    #[serde(rename = "subdomain")]
    #[schema(value_type = Option<String>)]
    _subdomain: Option<IgnoredAny>,
}

impl From<SimpleSignup> for domain::accounts::signup::simple::SimpleSignup {
    fn from(form: SimpleSignup) -> Self {
        Self {
            station_id: form.station.id(),
            cpf: form.cpf,
            email: form.email,
            birthday: form.birthday,
            state: form.state,
            first_name: form.first_name,
            last_name: form.last_name,
            phone_number: form.phone_number,
            captcha: form.captcha,
            member_get_member: form.member_get_member.map(Into::into),
        }
    }
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
    let session =
        app::accounts::signup::simple(&state.db, &JobOutbox, &*state.captcha, ip, form.into())
            .await?;
    Ok((StatusCode::CREATED, Json(session.into())))
}
