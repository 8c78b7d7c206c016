//! A member's own profile: the onboarding wizard's data (`PUT /api/auth/update-participant/{id}`),
//! the profile image (`PUT /api/update-user-profile-image/{id}`), and the public reads of
//! stored objects (`GET /api/media/{*key}`).

use axum::extract::rejection::PathRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::HeaderValue;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS};
use axum::response::{IntoResponse, Response};
use domain::accounts::profile::{self, AccountState, ApplyError, ParticipantUpdate};
use domain::accounts::session;
use domain::accounts::user::{self, User};
use domain::infra::images::{self, ImageError};
use domain::infra::objects::Objects;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::member::{Member, NOT_AUTHORIZED, SignedIn};
use crate::state::AppState;

pub const PROFILE_UPDATED: &str = "Cadastro atualizado com sucesso";
pub const IMAGE_UPDATED: &str = "Você atualizou a seu perfil com sucesso";
const MEDIA_NOT_FOUND: &str = "Arquivo não encontrado";
/// The largest side of a stored profile image.
const PROFILE_IMAGE_SIDE: u32 = 512;
/// Bodies up to this size are read, so an image a little over 1 MB gets the spec's message
/// rather than a bare 413 (the web app lets a 3 MB photo through in one wizard).
const IMAGE_BODY_LIMIT: usize = 8 * 1024 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(update_participant))
        .routes(routes!(update_image).layer(DefaultBodyLimit::max(IMAGE_BODY_LIMIT)))
        .routes(routes!(media))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ProfileUpdated)]
struct Updated {
    #[schema(value_type = String)]
    message: &'static str,
    user: User,
}

/// Only the caller's own account; any other id is refused like `GET /users-web/{id}`.
fn own_id(member: Member, id: i64) -> ApiResult<i64> {
    if id == member.user_id {
        Ok(id)
    } else {
        Err(ApiError::Forbidden(NOT_AUTHORIZED.into()))
    }
}

async fn updated(
    state: &AppState,
    user_id: i64,
    message: &'static str,
) -> ApiResult<Json<Updated>> {
    let user = user::find(&state.db, user_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("user {user_id} vanished during an update"))?;
    Ok(Json(Updated { message, user }))
}

/// Updates the caller's own profile (the onboarding wizard's data)
///
/// Changing the e-mail or password of an account that has a password needs
/// `current_password`; a new password signs out every other session.
#[utoipa::path(
    put,
    path = "/auth/update-participant/{id}",
    tag = "accounts",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    request_body = ParticipantUpdate,
    responses(
        (status = 200, description = "Updated", body = Updated),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 401, description = "No valid session, or the account is not activated", body = Messages),
        (status = 403, description = "The account is suspended, or the id is not the caller's", body = Messages),
        (status = 422, description = "A field breaks a rule, the e-mail or CPF belongs to another account, the current password is missing or wrong, or the account changed in another session meanwhile", body = Messages),
    )
)]
async fn update_participant(
    State(state): State<AppState>,
    member: Member,
    signed_in: SignedIn,
    Path(id): Path<i64>,
    Json(mut update): Json<ParticipantUpdate>,
) -> ApiResult<Json<Updated>> {
    let user_id = own_id(member, id)?;
    let current_password = update.current_password.take();
    let before = profile::credentials(&state.db, user_id).await?;
    let today = chrono::Local::now().date_naive();
    let account = AccountState {
        has_password: before.password_hash.is_some(),
        has_email: before.email.is_some(),
    };
    let changes = profile::validate(update, account, today).map_err(ApiError::Invalid)?;
    if profile::needs_current_password(&changes, account.has_password, before.email.as_deref()) {
        let current = current_password
            .filter(|password| !password.is_empty())
            .ok_or_else(|| ApiError::invalid(profile::CURRENT_PASSWORD_NEEDED))?;
        if !domain::accounts::password::verify_off_thread(current, before.password_hash.clone())
            .await?
        {
            return Err(ApiError::invalid(profile::CURRENT_PASSWORD_WRONG));
        }
    }
    let password_hash = match changes.password.clone() {
        Some(password) => Some(domain::accounts::password::hash_off_thread(password).await?),
        None => None,
    };
    // The checks above ran without a connection; under the lock they must still hold.
    let mut tx = state.db.begin().await?;
    if profile::lock_credentials(&mut tx, user_id).await? != before {
        return Err(ApiError::invalid(profile::CHANGED_MEANWHILE));
    }
    profile::apply(&mut tx, user_id, &changes, password_hash.as_deref())
        .await
        .map_err(|err| match err {
            ApplyError::Taken(message) => ApiError::invalid(message),
            ApplyError::Database(err) => err.into(),
        })?;
    if password_hash.is_some() {
        // Whoever else holds a session (a lost phone, a thief) is signed out; this device stays.
        session::revoke_others(&mut *tx, user_id, &signed_in.token).await?;
    }
    tx.commit().await?;
    updated(&state, user_id, PROFILE_UPDATED).await
}

/// The body also carries `imageType`, which is ignored: the content decides the type.
#[derive(Debug, Deserialize, ToSchema)]
struct ImageUpload {
    /// A JPEG, PNG, WebP or GIF, base64-encoded (a `data:` URL prefix is accepted).
    base64: String,
}

/// Replaces the caller's profile image
#[utoipa::path(
    put,
    path = "/update-user-profile-image/{id}",
    tag = "accounts",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    request_body = ImageUpload,
    responses(
        (status = 200, description = "Updated", body = Updated),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 401, description = "No valid session, or the account is not activated", body = Messages),
        (status = 403, description = "The account is suspended, or the id is not the caller's", body = Messages),
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
    let encoded = images::process(upload.base64, PROFILE_IMAGE_SIDE)
        .await?
        .map_err(|err: ImageError| ApiError::invalid(err.to_string()))?;

    let key = Objects::new_key(&format!("users/{user_id}"), encoded.extension);
    state.objects.put(&key, encoded.bytes).await?;
    let previous = profile::replace_image(&state.db, user_id, &Objects::url(&key)).await?;
    // The old picture is no longer referenced; failing to remove it only leaves a file.
    if let Some(old_key) = previous.as_deref().and_then(Objects::key_of_url)
        && let Err(err) = state.objects.delete(old_key).await
    {
        tracing::warn!(error = ?err, "could not delete a replaced profile image");
    }
    updated(&state, user_id, IMAGE_UPDATED).await
}

/// A stored object (an uploaded image)
///
/// Public. Keys are unguessable; a replaced object gets a new key, so an object never
/// changes and may be cached for good. Whatever is not a stored object's key (not UTF-8,
/// over-long, malformed) is simply not found.
#[utoipa::path(
    get,
    path = "/media/{*key}",
    tag = "accounts",
    params(("key" = String, Path, description = "The object's key, slashes included, as in the URL a record holds")),
    responses(
        (status = 200, description = "The object's bytes: a JPEG, PNG, WebP or GIF", content_type = "image/*"),
        (status = 404, description = "No such object", body = ErrorMessage),
    )
)]
async fn media(
    State(state): State<AppState>,
    key: Result<axum::extract::Path<String>, PathRejection>,
) -> ApiResult<Response> {
    let Ok(axum::extract::Path(key)) = key else {
        return Err(ApiError::not_found(MEDIA_NOT_FOUND));
    };
    let object = state
        .objects
        .get(&key)
        .await?
        .ok_or_else(|| ApiError::not_found(MEDIA_NOT_FOUND))?;
    let mut response = object.bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(object.content_type));
    headers.insert(
        CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    Ok(response)
}
