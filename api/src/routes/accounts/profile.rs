//! A member's own profile: the onboarding wizard's data (`PUT /api/auth/update-participant/{id}`),
//! the profile image (`PUT /api/update-user-profile-image/{id}`), and the public reads of
//! stored objects (`GET /api/media/{*key}`).

use axum::extract::rejection::PathRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::header::{
    ACCEPT_RANGES, CACHE_CONTROL, CONTENT_RANGE, CONTENT_TYPE, RANGE, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use domain::accounts::profile::{self, ParticipantUpdate};
use domain::accounts::user::User;
use serde::de::IgnoredAny;
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
    let checked = profile::check_update(&state.db, user_id, update).await?;
    let mut tx = state.db.begin().await?;
    let user = profile::save_update(&mut tx, user_id, checked, &signed_in.token).await?;
    tx.commit().await?;
    Ok(Json(Updated {
        message: PROFILE_UPDATED,
        user,
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
    let user = profile::replace_picture(&state.db, &state.objects, user_id, upload.base64).await?;
    Ok(Json(Updated {
        message: IMAGE_UPDATED,
        user,
    }))
}

/// A stored object (an image, a video, an animation)
///
/// Public. Keys are unguessable; a replaced object gets a new key, so an object never
/// changes and may be cached for good. Whatever is not a stored object's key (not UTF-8,
/// over-long, malformed) is simply not found. One byte range (`Range: bytes=...`) is
/// answered with 206, so video players can seek; any other `Range` gets the whole object.
#[utoipa::path(
    get,
    path = "/media/{*key}",
    tag = "accounts",
    params(
        ("key" = String, Path, description = "The object's key, slashes included, as in the URL a record holds"),
        ("Range" = Option<String>, Header, description = "One byte range, `bytes=first-last`, `bytes=first-` or `bytes=-suffix`"),
    ),
    responses(
        (status = 200, description = "The object's bytes: an image (JPEG, PNG, WebP, GIF), a video (MP4) or JSON", content_type = "application/octet-stream"),
        (status = 206, description = "The range asked for, with `Content-Range`", content_type = "application/octet-stream"),
        (status = 404, description = "No such object", body = ErrorMessage),
        (status = 416, description = "The range starts past the object's end (`Content-Range: bytes */size`)"),
    )
)]
async fn media(
    State(state): State<AppState>,
    key: Result<axum::extract::Path<String>, PathRejection>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let not_found = || ApiError::not_found(MEDIA_NOT_FOUND);
    let Ok(axum::extract::Path(key)) = key else {
        return Err(not_found());
    };
    let wanted = headers.get(RANGE).and_then(|value| value.to_str().ok());
    let (status, bytes, content_type, content_range) = match wanted {
        None => {
            let object = state.objects.get(&key).await?.ok_or_else(not_found)?;
            (StatusCode::OK, object.bytes, object.content_type, None)
        }
        Some(wanted) => {
            let (size, content_type) = state.objects.head(&key).await?.ok_or_else(not_found)?;
            match byte_range(wanted, size) {
                Ranged::Whole => {
                    let object = state.objects.get(&key).await?.ok_or_else(not_found)?;
                    (StatusCode::OK, object.bytes, content_type, None)
                }
                Ranged::Part(range) => {
                    let part = format!("bytes {}-{}/{size}", range.start, range.end - 1);
                    let bytes = state
                        .objects
                        .get_range(&key, range)
                        .await?
                        .ok_or_else(not_found)?;
                    (StatusCode::PARTIAL_CONTENT, bytes, content_type, Some(part))
                }
                Ranged::Unsatisfiable => {
                    let unsatisfiable = format!("bytes */{size}");
                    return Ok((
                        StatusCode::RANGE_NOT_SATISFIABLE,
                        [(CONTENT_RANGE, unsatisfiable)],
                    )
                        .into_response());
                }
            }
        }
    };
    let mut response = (status, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    if let Some(part) = content_range.and_then(|part| HeaderValue::try_from(part).ok()) {
        headers.insert(CONTENT_RANGE, part);
    }
    headers.insert(
        CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    Ok(response)
}

/// What a `Range` header asks of an object of `size` bytes.
#[derive(Debug, PartialEq, Eq)]
enum Ranged {
    /// No single byte range we read (several ranges, another unit, bad syntax): the whole
    /// object, as HTTP allows a server to answer.
    Whole,
    /// These bytes, end exclusive.
    Part(std::ops::Range<u64>),
    /// It starts at or past the end.
    Unsatisfiable,
}

fn byte_range(header: &str, size: u64) -> Ranged {
    let Some((first, last)) = header
        .trim()
        .strip_prefix("bytes=")
        .filter(|spec| !spec.contains(','))
        .and_then(|spec| spec.split_once('-'))
    else {
        return Ranged::Whole;
    };
    let number = |text: &str| text.trim().parse::<u64>().ok();
    let (start, end) = match (first.trim().is_empty(), number(first), number(last)) {
        // `bytes=-n`: the last n bytes.
        (true, _, Some(suffix)) if suffix > 0 => (size.saturating_sub(suffix), size),
        (true, _, Some(_)) => return Ranged::Unsatisfiable,
        (false, Some(start), None) if last.trim().is_empty() => (start, size),
        (false, Some(start), Some(last)) if last >= start => {
            (start, last.saturating_add(1).min(size))
        }
        _ => return Ranged::Whole,
    };
    if start >= size {
        Ranged::Unsatisfiable
    } else {
        Ranged::Part(start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_byte_range_is_read_in_each_of_its_forms() {
        assert_eq!(byte_range("bytes=0-99", 1000), Ranged::Part(0..100));
        assert_eq!(byte_range("bytes=900-", 1000), Ranged::Part(900..1000));
        assert_eq!(byte_range("bytes=-100", 1000), Ranged::Part(900..1000));
        assert_eq!(byte_range("bytes=-5000", 1000), Ranged::Part(0..1000));
        assert_eq!(byte_range("bytes=990-5000", 1000), Ranged::Part(990..1000));
        assert_eq!(byte_range("bytes=1000-", 1000), Ranged::Unsatisfiable);
        assert_eq!(byte_range("bytes=-0", 1000), Ranged::Unsatisfiable);
        for whole in [
            "bytes=0-1,5-9",
            "items=0-1",
            "bytes=9-1",
            "bytes=a-b",
            "bytes",
        ] {
            assert_eq!(byte_range(whole, 1000), Ranged::Whole, "{whole}");
        }
    }
}
