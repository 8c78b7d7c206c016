//! A member's own profile: the onboarding wizard's data (`PUT /api/auth/update-participant/{id}`)
//! and the profile image (`PUT /api/update-user-profile-image/{id}`), served by
//! `routes::media`, and the pre-registration change request (`POST /api/pre-registration-change`).

use axum::extract::{DefaultBodyLimit, State};
use domain::accounts::{pre_registration, profile};
use domain::shared::ids::UserId;
use jobs::JobOutbox;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::member::{Member, NOT_AUTHORIZED, SignedIn};
use crate::member_throttle::{MemberLimit, throttle};
use crate::routes::accounts::users::User;
use crate::state::AppState;

pub const PROFILE_UPDATED: &str = "Cadastro atualizado com sucesso";
pub const IMAGE_UPDATED: &str = "Você atualizou a seu perfil com sucesso";
/// Bodies up to this size are read, so an image a little over 1 MB gets the spec's message
/// rather than a bare 413 (the web app lets a 3 MB photo through in one wizard).
const IMAGE_BODY_LIMIT: usize = 8 * 1024 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(update_participant))
        .routes(routes!(update_image).layer(DefaultBodyLimit::max(IMAGE_BODY_LIMIT)))
        .routes(routes!(pre_registration_change))
}

/// Each request e-mails the station's registry: a few an hour is plenty for a member.
struct PreRegistrationLimit;

impl MemberLimit for PreRegistrationLimit {
    const NAME: &'static str = "pre-registration";
    fn limit(_: &domain::Config) -> (u32, u64) {
        (3, 3600)
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ProfileUpdated)]
struct Updated {
    #[schema(value_type = String)]
    message: &'static str,
    user: User,
}

/// The wizard's body: every field optional; `null` is the same as absent.
#[derive(Debug, Deserialize, ToSchema)]
struct ParticipantUpdate {
    name: Option<String>,
    cpf: Option<String>,
    tel: Option<String>,
    birthday: Option<String>,
    state: Option<String>,
    city: Option<String>,
    email: Option<String>,
    password: Option<String>,
    password_confirmation: Option<String>,
    zipcode: Option<String>,
    address_line_1: Option<String>,
    address_number: Option<String>,
    address_line_2: Option<String>,
    neighborhood: Option<String>,
    #[serde(rename = "briefingDone")]
    briefing_done: Option<bool>,
    /// Needed to change the e-mail or password of an account that has a password.
    current_password: Option<String>,
}

impl From<ParticipantUpdate> for profile::ParticipantUpdate {
    fn from(form: ParticipantUpdate) -> Self {
        Self {
            name: form.name,
            cpf: form.cpf,
            tel: form.tel,
            birthday: form.birthday,
            state: form.state,
            city: form.city,
            email: form.email,
            password: form.password,
            password_confirmation: form.password_confirmation,
            zipcode: form.zipcode,
            address_line_1: form.address_line_1,
            address_number: form.address_number,
            address_line_2: form.address_line_2,
            neighborhood: form.neighborhood,
            briefing_done: form.briefing_done,
            current_password: form.current_password,
        }
    }
}

/// Only the caller's own account; any other id is refused like `GET /users-web/{id}`.
fn own_id(member: Member, id: i64) -> ApiResult<UserId> {
    if id == member.user_id {
        Ok(member.user())
    } else {
        Err(ApiError::Forbidden(NOT_AUTHORIZED.into()))
    }
}

/// Updates the caller's own profile (the onboarding wizard's data)
///
/// Changing the e-mail or password of an account that has a password needs
/// `current_password`; a new password signs out every other session.
#[utoipa::path(
    put,
    path = "/auth/update-participant/{id}",
    tag = "accounts",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    request_body = ParticipantUpdate,
    responses(
        (status = 200, description = "Updated", body = Updated),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "the id is not the caller's", body = Messages),
        (status = 422, description = "A field breaks a rule, the e-mail or CPF belongs to another account, the current password is missing or wrong, or the account changed in another session meanwhile", body = Messages),
    )
)]
async fn update_participant(
    State(state): State<AppState>,
    member: Member,
    signed_in: SignedIn,
    Path(id): Path<i64>,
    Json(update): Json<ParticipantUpdate>,
) -> ApiResult<Json<Updated>> {
    let user_id = own_id(member, id)?;
    let user =
        app::accounts::profile::update(&state.db, user_id, update.into(), &signed_in.token).await?;
    Ok(Json(Updated {
        message: PROFILE_UPDATED,
        user: User::from(user).with_subscription(&state).await?,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
struct ImageUpload {
    /// A JPEG, PNG, WebP or GIF, base64-encoded (a `data:` URL prefix is accepted).
    base64: String,
    /// Sent as the spec's form sends it and never read: the content decides the type.
    #[serde(rename = "imageType")]
    #[schema(value_type = Option<String>)]
    _image_type: Option<IgnoredAny>,
}

/// Replaces the caller's profile image
#[utoipa::path(
    put,
    path = "/update-user-profile-image/{id}",
    tag = "accounts",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    request_body = ImageUpload,
    responses(
        (status = 200, description = "Updated", body = Updated),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "the id is not the caller's", body = Messages),
        (status = 422, description = "Not an image, an unsupported type, or over 1 MB", body = Messages),
    )
)]
async fn update_image(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
    Json(upload): Json<ImageUpload>,
) -> ApiResult<Json<Updated>> {
    let user_id = own_id(member, id)?;
    let user = app::accounts::profile::replace_picture(
        &state.db,
        &state.objects,
        &media::images::ImageCrate,
        &jobs::JobOutbox,
        user_id,
        upload.base64,
    )
    .await?;
    Ok(Json(Updated {
        message: IMAGE_UPDATED,
        user: User::from(user).with_subscription(&state).await?,
    }))
}

/// The spec's pre-registration change form.
#[derive(Debug, Deserialize, ToSchema)]
struct PreRegistrationChange {
    telefonefixo: Option<String>,
    celular: Option<String>,
    email: Option<String>,
    /// One of `Ativo`, `Aposentado`, `Inativo`, `Pensionista`.
    situacao: Option<String>,
    endereco: Option<String>,
}

impl From<PreRegistrationChange> for pre_registration::ChangeRequest {
    fn from(form: PreRegistrationChange) -> Self {
        Self {
            telefonefixo: form.telefonefixo,
            celular: form.celular,
            email: form.email,
            situacao: form.situacao,
            endereco: form.endereco,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = PreRegistrationSent)]
struct Sent {
    #[schema(value_type = String)]
    message: &'static str,
}

/// Asks the station's registry to change the caller's registration data
///
/// Recorded and e-mailed to the station's contact address; the account itself is not
/// changed. Only where the station offers it.
#[utoipa::path(
    post,
    path = "/pre-registration-change",
    tag = "accounts",
    security(("member" = [])),
    request_body = PreRegistrationChange,
    responses(
        (status = 201, description = "Sent: 'Solicitação enviada com sucesso.'", body = Sent),
        (status = 404, description = "The station does not take these requests", body = ErrorMessage),
        (status = 422, description = "The e-mail is missing or invalid, the situation is not one of the four, a phone or the address is malformed", body = Messages),
        (status = 429, description = "More than 3 requests in an hour", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn pre_registration_change(
    State(state): State<AppState>,
    member: Member,
    Json(form): Json<PreRegistrationChange>,
) -> ApiResult<(axum::http::StatusCode, Json<Sent>)> {
    throttle::<PreRegistrationLimit>(&state, &member).await?;
    app::accounts::pre_registration::request(
        &state.db,
        &JobOutbox,
        &state.config.public_url,
        member.station(),
        member.user(),
        &form.into(),
    )
    .await?;
    Ok((
        axum::http::StatusCode::CREATED,
        Json(Sent {
            message: pre_registration::SENT,
        }),
    ))
}
