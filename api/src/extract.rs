//! Extractors whose rejections are our `ApiError`, so a malformed request gets the error
//! envelope in Portuguese instead of axum's plain-text rejection: every JSON body, form,
//! path and query of `/api` is read through them. They are also where text parameters are
//! refused a NUL byte, which PostgreSQL refuses in text: a handler never sees one.

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::ApiError;

/// A path or query parameter that cannot be read (wrong type, out of range, a NUL byte).
pub const BAD_PARAMETER: &str = "Parâmetro inválido na URL";
const JSON_EXPECTED: &str = "Envie o corpo da requisição em JSON (Content-Type: application/json)";
const FORM_EXPECTED: &str = "Envie o arquivo em um formulário (Content-Type: multipart/form-data)";
const BAD_FORM: &str = "Formulário inválido no corpo da requisição";
const UNREADABLE_BODY: &str = "Não foi possível ler o corpo da requisição";

pub fn bad_parameter() -> ApiError {
    ApiError::BadRequest(BAD_PARAMETER.into())
}

/// A URI holds a NUL byte only percent-encoded, and `%00` is its only encoding: a raw path
/// or query without it has no NUL in any of its decoded parameters.
fn carries_nul(raw: &str) -> bool {
    raw.contains("%00")
}

/// The request's body, whole. Past the route's body limit it is 413; a transfer broken
/// mid-way is 400.
#[derive(Debug, Clone)]
pub struct RawBody(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for RawBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        Bytes::from_request(req, state)
            .await
            .map(RawBody)
            .map_err(|rejection| match rejection {
                BytesRejection::FailedToBufferBody(_)
                    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE =>
                {
                    ApiError::PayloadTooLarge
                }
                _ => ApiError::BadRequest(UNREADABLE_BODY.into()),
            })
    }
}

/// A JSON body. Reads like `axum::Json`, rejects like the rest of the API.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<T, S> FromRequest<S> for Json<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !has_json_content_type(&req) {
            return Err(ApiError::UnsupportedMediaType(JSON_EXPECTED));
        }
        let RawBody(bytes) = RawBody::from_request(req, state).await?;
        parse_json(&bytes).map(Json)
    }
}

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

/// The media type of the request's `Content-Type`, lower case, without its parameters.
fn media_type(req: &Request) -> Option<String> {
    req.headers()
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .map(|mime| mime.trim().to_ascii_lowercase())
}

fn has_json_content_type(req: &Request) -> bool {
    media_type(req).is_some_and(|mime| {
        mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
    })
}

/// Syntax errors answer 400; a well-formed body with a missing or mistyped field, or a text
/// holding a NUL byte, answers 422 and names the field, so the form can point at it.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if let Some(path) = text_with_nul(bytes) {
        return Err(ApiError::invalid(format!(
            "O campo \"{path}\" tem um valor inválido"
        )));
    }
    let deserializer = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(deserializer).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        match inner.classify() {
            serde_json::error::Category::Data => {
                let message = inner.to_string();
                if let Some(field) = missing_field_name(&message) {
                    let field = if path == "." {
                        field.to_string()
                    } else {
                        format!("{path}.{field}")
                    };
                    ApiError::invalid(format!("O campo \"{field}\" é obrigatório"))
                } else {
                    ApiError::invalid(format!("O campo \"{path}\" tem um valor inválido"))
                }
            }
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                ApiError::BadRequest("JSON inválido no corpo da requisição".into())
            }
            serde_json::error::Category::Io => ApiError::BadRequest(UNREADABLE_BODY.into()),
        }
    })
}

/// Where the body's first text (a value or a key) holding a NUL byte is, written as serde
/// names a field (`items[0].name`). JSON writes NUL only as the escape `\u0000`: a body
/// without those six bytes is not parsed twice.
fn text_with_nul(bytes: &[u8]) -> Option<String> {
    const ESCAPED_NUL: &[u8] = b"\\u0000";
    if !bytes
        .windows(ESCAPED_NUL.len())
        .any(|window| window == ESCAPED_NUL)
    {
        return None;
    }
    let value: Value = serde_json::from_slice(bytes).ok()?;
    nul_path(&value, String::new())
}

fn nul_path(value: &Value, path: String) -> Option<String> {
    let at = |path: String| {
        if path.is_empty() {
            ".".to_string()
        } else {
            path
        }
    };
    match value {
        Value::String(text) if text.contains('\0') => Some(at(path)),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(index, item)| nul_path(item, format!("{path}[{index}]"))),
        Value::Object(fields) => fields.iter().find_map(|(name, field)| {
            let inner = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}.{name}")
            };
            if name.contains('\0') {
                Some(at(path.clone()))
            } else {
                nul_path(field, inner)
            }
        }),
        _ => None,
    }
}

/// serde reports a missing field as "missing field `name` at line 1 column 2".
fn missing_field_name(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.split('`').next()
}

/// Path parameters. A parameter of the wrong shape (`/stations/abc`), out of its type's
/// range or holding a NUL byte answers 400.
#[derive(Debug)]
pub struct Path<T>(pub T);

impl<T, S> FromRequestParts<S> for Path<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        if carries_nul(parts.uri.path()) {
            return Err(bad_parameter());
        }
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Path(value)),
            Err(PathRejection::FailedToDeserializePathParams(_)) => Err(bad_parameter()),
            Err(other) => Err(ApiError::Internal(anyhow::anyhow!(
                "path extraction: {other}"
            ))),
        }
    }
}

/// The query string's parameters. One of the wrong shape or holding a NUL byte answers 400.
#[derive(Debug)]
pub struct Query<T>(pub T);

impl<T, S> FromRequestParts<S> for Query<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        if parts.uri.query().is_some_and(carries_nul) {
            return Err(bad_parameter());
        }
        axum::extract::Query::try_from_uri(&parts.uri)
            .map(|axum::extract::Query(value)| Query(value))
            .map_err(|_| bad_parameter())
    }
}

/// A `multipart/form-data` body, read part by part as it arrives. Any other content type
/// answers 415; a form whose boundary cannot be read, 400. (What a part holds, and a
/// transfer broken mid-way, are the route's to judge: see `crate::upload_form`.)
pub struct Multipart(pub axum::extract::Multipart);

impl std::fmt::Debug for Multipart {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Multipart").finish_non_exhaustive()
    }
}

impl<S: Send + Sync> FromRequest<S> for Multipart {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if media_type(&req).as_deref() != Some("multipart/form-data") {
            return Err(ApiError::UnsupportedMediaType(FORM_EXPECTED));
        }
        axum::extract::Multipart::from_request(req, state)
            .await
            .map(Multipart)
            .map_err(|_| ApiError::BadRequest(BAD_FORM.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Login {
        email: String,
        remember: bool,
    }

    fn messages(err: ApiError) -> Vec<String> {
        match err {
            ApiError::Invalid(messages) => messages,
            ApiError::BadRequest(message) => vec![message],
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn names_the_missing_field() {
        let err = parse_json::<Login>(br#"{"email":"a@b.co"}"#).expect_err("missing");
        assert_eq!(messages(err), ["O campo \"remember\" é obrigatório"]);
    }

    #[test]
    fn names_the_mistyped_field() {
        let err = parse_json::<Login>(br#"{"email":"a@b.co","remember":"yes"}"#).expect_err("type");
        assert_eq!(
            messages(err),
            ["O campo \"remember\" tem um valor inválido"]
        );
    }

    #[test]
    fn a_nul_in_a_text_names_its_field() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Post {
            text: String,
            tags: Vec<String>,
        }
        let err = parse_json::<Post>(br#"{"text":"ok","tags":["a","b\u0000"]}"#).expect_err("nul");
        assert_eq!(messages(err), ["O campo \"tags[1]\" tem um valor inválido"]);
        let err = parse_json::<Login>(br#"{"email":"a@b.co","remember":true,"x\u0000":1}"#)
            .expect_err("nul key");
        assert_eq!(messages(err), ["O campo \".\" tem um valor inválido"]);
        // An escaped backslash before `u0000` is text, not a NUL.
        let post: Post = parse_json(br#"{"text":"\\u0000","tags":[]}"#).expect("no nul");
        assert_eq!(post.text, "\\u0000");
    }

    #[test]
    fn malformed_json_is_a_bad_request() {
        let err = parse_json::<Login>(br#"{"email":"#).expect_err("eof");
        assert!(matches!(err, ApiError::BadRequest(_)));
        let err = parse_json::<Login>(b"not json").expect_err("syntax");
        assert_eq!(messages(err), ["JSON inválido no corpo da requisição"]);
    }
}
