//! The one error type of the API. Every failure becomes the envelope of the architecture
//! page: `{"messages": [...]}` for what the member can fix, `{"error": "..."}` otherwise.
//! A 5xx never says more than "Erro interno no servidor"; its cause goes to the log, inside
//! the request's span, so the line carries the request id.

use axum::Json;
use axum::http::HeaderValue;
use axum::http::StatusCode;
use axum::http::header::RETRY_AFTER;
use axum::response::{IntoResponse, Response};
use domain::shared::failure::{Failure, IntoFailure};
use serde::Serialize;
use utoipa::ToSchema;

pub const INTERNAL_ERROR: &str = "Erro interno no servidor";

/// The envelope of what the member can fix (or retry): one message per problem, in
/// Portuguese, shown as they are.
#[derive(Debug, Serialize, ToSchema)]
pub struct Messages {
    pub messages: Vec<String>,
}

/// The envelope of a failure the member cannot fix: not found, not allowed, internal.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorMessage {
    pub error: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request could not be read (bad JSON or form, a bad path or query parameter).
    #[error("bad request: {0}")]
    BadRequest(String),
    /// The request was read but breaks a rule; one message per broken rule.
    #[error("invalid: {0:?}")]
    Invalid(Vec<String>),
    #[error("unauthorized: {0}")]
    Unauthorized(String),
    /// Signed in, but this account may not do this.
    #[error("forbidden: {0}")]
    Forbidden(String),
    /// Too many attempts; try again after this many seconds.
    #[error("too many requests")]
    TooManyRequests { message: String, retry_after: u64 },
    #[error("not found: {0}")]
    NotFound(String),
    /// The resource's state does not allow this (again).
    #[error("conflict: {0}")]
    Conflict(String),
    #[error("method not allowed")]
    MethodNotAllowed,
    #[error("payload too large")]
    PayloadTooLarge,
    /// The body is not of the type the route reads; the text says which it reads.
    #[error("unsupported media type")]
    UnsupportedMediaType(&'static str),
    /// A provider we depend on is down and nothing stands in for it.
    #[error("unavailable: {0}")]
    Unavailable(String),
    #[error(transparent)]
    Internal(anyhow::Error),
}

pub type ApiResult<T> = Result<T, ApiError>;

/// The one conversion from what a use case or a rule answers to what the API answers:
/// refusals say their own kind (`domain::shared::failure`), breakages (`sqlx`, `anyhow`)
/// are internal, so `?` works on all of them.
impl<E: IntoFailure> From<E> for ApiError {
    fn from(err: E) -> Self {
        match err.into_failure() {
            Failure::BadRequest(message) => Self::BadRequest(message),
            Failure::Invalid(messages) => Self::Invalid(messages),
            Failure::Unauthorized(message) => Self::Unauthorized(message),
            Failure::Forbidden(message) => Self::Forbidden(message),
            Failure::NotFound(message) => Self::NotFound(message),
            Failure::Conflict(message) => Self::Conflict(message),
            Failure::Unavailable(message) => Self::Unavailable(message),
            Failure::TooMany {
                message,
                retry_after,
            } => Self::TooManyRequests {
                message,
                retry_after,
            },
            Failure::Internal(cause) => Self::Internal(cause),
        }
    }
}

impl ApiError {
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::Invalid(vec![message.into()])
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::NotFound(message.into())
    }

    fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let retry_after = match &self {
            Self::TooManyRequests { retry_after, .. } => Some(*retry_after),
            _ => None,
        };
        let messages =
            |messages: Vec<String>| (status, Json(Messages { messages })).into_response();
        let error = |error: &str| {
            let error = error.to_string();
            (status, Json(ErrorMessage { error })).into_response()
        };
        let mut response = match self {
            Self::BadRequest(message)
            | Self::Unauthorized(message)
            | Self::Forbidden(message)
            | Self::TooManyRequests { message, .. } => messages(vec![message]),
            Self::Invalid(list) => messages(list),
            Self::NotFound(message) | Self::Conflict(message) | Self::Unavailable(message) => {
                error(&message)
            }
            Self::MethodNotAllowed => error("Método não permitido para esta rota"),
            Self::PayloadTooLarge => error("O corpo da requisição é grande demais"),
            Self::UnsupportedMediaType(expected) => messages(vec![expected.into()]),
            Self::Internal(cause) => {
                let cause: &(dyn std::error::Error + 'static) = cause.as_ref();
                tracing::error!(error = %domain::infra::telemetry::Loggable(cause), "request failed");
                error(INTERNAL_ERROR)
            }
        };
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
