//! `GET /api/media/{*key}`: the stored objects every area keeps (profile pictures, logos,
//! activity pictures and videos, feedback animations), public behind unguessable keys.
//! Objects are streamed from the store, never held whole in memory, and one byte range is
//! answered with 206 so video players can seek.

use axum::body::Body;
use axum::extract::State;
use axum::extract::rejection::PathRejection;
use axum::http::header::{
    ACCEPT_RANGES, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_RANGE, CONTENT_TYPE, RANGE,
    X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use domain::infra::objects::{Objects, Opened};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorMessage};
use crate::extract::Json;
use crate::state::AppState;

const MEDIA_NOT_FOUND: &str = "Arquivo não encontrado";
const RANGE_REFUSED: &str = "O intervalo pedido começa depois do fim do arquivo";

/// A 206 carries at most this many bytes, whatever the range asked: a player asks for
/// `bytes=0-` and then for what it still lacks, so one viewer never pins a whole video.
const RANGE_CHUNK: u64 = 2 * 1024 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(media))
}

/// A stored object (an image, a video, an animation); never a member's document
///
/// Public. Keys are unguessable; a replaced object gets a new key, so an object never
/// changes and may be cached for good. Whatever is not a stored object's key (not UTF-8,
/// over-long, malformed) is simply not found. One byte range (`Range: bytes=...`) is
/// answered with 206 and at most 2 MiB (`Content-Range` says which bytes); any other
/// `Range` gets the whole object.
#[utoipa::path(
    get,
    path = "/media/{*key}",
    tag = "media",
    params(
        ("key" = String, Path, description = "The object's key, slashes included, as in the URL a record holds"),
        ("Range" = Option<String>, Header, description = "One byte range, `bytes=first-last`, `bytes=first-` or `bytes=-suffix`"),
    ),
    responses(
        (status = 200, description = "The object's bytes: an image (JPEG, PNG, WebP, GIF), a video (MP4) or JSON", content_type = "application/octet-stream"),
        (status = 206, description = "Part of the range asked for, with `Content-Range`", content_type = "application/octet-stream"),
        (status = 404, description = "No such object", body = ErrorMessage),
        (status = 416, description = "The range starts past the object's end (`Content-Range: bytes */size`)", body = ErrorMessage),
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
    // A member's documents have routes of their own that check who asks.
    if !Objects::is_public(&key) {
        return Err(not_found());
    }
    let wanted = headers.get(RANGE).and_then(|value| value.to_str().ok());
    let range = match wanted {
        None => None,
        Some(wanted) => {
            let (size, _) = state.objects.head(&key).await?.ok_or_else(not_found)?;
            match byte_range(wanted, size) {
                Ranged::Whole => None,
                Ranged::Part(range) => Some(range.start..range.end.min(range.start + RANGE_CHUNK)),
                Ranged::Unsatisfiable => {
                    let mut refused = (
                        StatusCode::RANGE_NOT_SATISFIABLE,
                        [(CONTENT_RANGE, format!("bytes */{size}"))],
                        Json(ErrorMessage {
                            error: RANGE_REFUSED.into(),
                        }),
                    )
                        .into_response();
                    refused
                        .headers_mut()
                        .insert(ACCEPT_RANGES, HeaderValue::from_static("bytes"));
                    return Ok(refused);
                }
            }
        }
    };
    let partial = range.is_some();
    let opened = state
        .objects
        .open(&key, range)
        .await?
        .ok_or_else(not_found)?;
    Ok(answer(opened, partial))
}

fn answer(opened: Opened, partial: bool) -> Response {
    let Opened {
        size,
        range,
        content_type,
        bytes,
    } = opened;
    let status = if partial {
        StatusCode::PARTIAL_CONTENT
    } else {
        StatusCode::OK
    };
    let mut response = (status, Body::from_stream(bytes)).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(CONTENT_LENGTH, HeaderValue::from(range.end - range.start));
    headers.insert(ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    if partial
        && let Ok(part) =
            HeaderValue::try_from(format!("bytes {}-{}/{size}", range.start, range.end - 1))
    {
        headers.insert(CONTENT_RANGE, part);
    }
    headers.insert(
        CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
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
