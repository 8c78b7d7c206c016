//! Extractors whose rejections are our `ApiError`, so a malformed request gets the error
//! envelope in Portuguese instead of axum's plain-text rejection.

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

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
            return Err(ApiError::UnsupportedMediaType);
        }
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|rejection| match rejection {
                BytesRejection::FailedToBufferBody(_)
                    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE =>
                {
                    ApiError::PayloadTooLarge
                }
                _ => ApiError::BadRequest("Não foi possível ler o corpo da requisição".into()),
            })?;
        parse_json(&bytes).map(Json)
    }
}

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

fn has_json_content_type(req: &Request) -> bool {
    req.headers()
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .map(|mime| {
            let mime = mime.trim().to_ascii_lowercase();
            mime == "application/json"
                || (mime.starts_with("application/") && mime.ends_with("+json"))
        })
        .unwrap_or(false)
}

/// Syntax errors answer 400; a well-formed body with a missing or mistyped field answers 422
/// and names the field, so the form can point at it.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
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
            serde_json::error::Category::Io => {
                ApiError::BadRequest("Não foi possível ler o corpo da requisição".into())
            }
        }
    })
}

/// serde reports a missing field as "missing field `name` at line 1 column 2".
fn missing_field_name(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.split('`').next()
}

/// Path parameters. A parameter of the wrong shape (`/stations/abc`) answers 400.
#[derive(Debug)]
pub struct Path<T>(pub T);

impl<T, S> FromRequestParts<S> for Path<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Path(value)),
            Err(PathRejection::FailedToDeserializePathParams(_)) => {
                Err(ApiError::BadRequest("Parâmetro inválido na URL".into()))
            }
            Err(other) => Err(ApiError::Internal(anyhow::anyhow!(
                "path extraction: {other}"
            ))),
        }
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
    fn malformed_json_is_a_bad_request() {
        let err = parse_json::<Login>(br#"{"email":"#).expect_err("eof");
        assert!(matches!(err, ApiError::BadRequest(_)));
        let err = parse_json::<Login>(b"not json").expect_err("syntax");
        assert_eq!(messages(err), ["JSON inválido no corpo da requisição"]);
    }
}
