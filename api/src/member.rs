//! The signed-in member of a request: the `Authorization: Bearer <token>` header checked
//! against the sessions table. A handler that takes [`Member`] is closed to anyone else.

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use domain::session::{self, SessionUser};

use crate::error::ApiError;
use crate::state::AppState;

/// The spec's 401 text for a page the visitor may not see.
pub const NOT_AUTHORIZED: &str = "Você não possui autorização para acessar esta página.";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    pub user_id: i64,
    pub station_id: i64,
}

impl FromRequestParts<AppState> for Member {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = parts
            .headers
            .get(AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix("Bearer "))
            .map(str::trim)
            .filter(|token| !token.is_empty())
            .ok_or_else(|| ApiError::Unauthorized(NOT_AUTHORIZED.into()))?;
        let SessionUser {
            user_id,
            station_id,
        } = session::authenticate(&state.db, token)
            .await?
            .ok_or_else(|| ApiError::Unauthorized(NOT_AUTHORIZED.into()))?;
        Ok(Self {
            user_id,
            station_id,
        })
    }
}
