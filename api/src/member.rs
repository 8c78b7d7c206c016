//! Who is calling: the `Authorization: Bearer <token>` header checked against the sessions
//! table. [`SignedIn`] is any live session (for logout and token validation); [`Member`] is
//! an activated, unblocked account, and closes a handler to anyone else.

use axum::extract::{FromRequestParts, OptionalFromRequestParts};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use domain::accounts::session::{self, SessionUser};
use domain::shared::ids::{StationId, UserId};

use crate::error::ApiError;
use crate::state::AppState;

/// The spec's 401 text for a page the visitor may not see.
pub use domain::shared::NOT_AUTHORIZED;
/// The spec's blocked-account text (its spelling kept).
pub const ACCESS_SUSPENDED: &str = "O seu acesso está supenso...";

/// The bearer token of the request, if it has one.
pub fn bearer_token(parts: &Parts) -> Option<&str> {
    parts
        .headers
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|token| !token.is_empty())
}

/// A live session, whatever the state of its account.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub token: String,
    pub user: SessionUser,
}

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let unauthorized = || ApiError::Unauthorized(NOT_AUTHORIZED.into());
        let token = bearer_token(parts).ok_or_else(unauthorized)?;
        let user = session::authenticate(&state.db, token)
            .await?
            .ok_or_else(unauthorized)?;
        Ok(Self {
            token: token.to_string(),
            user,
        })
    }
}

/// No token, or one that opens no session: `None`. Only a database failure is an error.
impl OptionalFromRequestParts<AppState> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Option<Self>, ApiError> {
        let Some(token) = bearer_token(parts) else {
            return Ok(None);
        };
        let user = session::authenticate(&state.db, token).await?;
        Ok(user.map(|user| Self {
            token: token.to_string(),
            user,
        }))
    }
}

/// A member who may use the member area: signed in, activated, not blocked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    pub user_id: i64,
    pub station_id: i64,
}

impl Member {
    /// The member's id, typed for the rules and use cases.
    pub fn user(&self) -> UserId {
        UserId(self.user_id)
    }

    /// The member's station, typed for the rules and use cases.
    pub fn station(&self) -> StationId {
        StationId(self.station_id)
    }
}

impl FromRequestParts<AppState> for Member {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let SignedIn { user, .. } =
            <SignedIn as FromRequestParts<AppState>>::from_request_parts(parts, state).await?;
        if user.blocked {
            return Err(ApiError::Forbidden(ACCESS_SUSPENDED.into()));
        }
        if !user.active {
            return Err(ApiError::Unauthorized(NOT_AUTHORIZED.into()));
        }
        Ok(Self {
            user_id: user.user_id.0,
            station_id: user.station_id.0,
        })
    }
}

/// `where[station_id]` and `where[user_id]` as the spec's screens send them: absent, the
/// caller's; anything else is refused, never answered with another's data.
pub fn own_scope(
    member: Member,
    station_id: Option<i64>,
    user_id: Option<i64>,
) -> Result<(), ApiError> {
    let others_station = station_id.is_some_and(|id| id != member.station_id);
    let others_user = user_id.is_some_and(|id| id != member.user_id);
    if others_station || others_user {
        Err(ApiError::Forbidden(NOT_AUTHORIZED.into()))
    } else {
        Ok(())
    }
}
