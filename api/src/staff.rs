//! Who may use the support console (`/api/ops`): [`Staff`] is a signed-in, activated
//! account with role `staff` and a grant. Everyone else, with a token or without, gets 403
//! before anything else is read. Console answers carry `{"error": ...}` ([`OpsError`]).

use axum::extract::FromRequestParts;
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use domain::accounts::session;
use domain::shared::failure::IntoFailure;
use domain::staff::{Grant, Scope};
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::member::bearer_token;
use crate::state::AppState;

pub const STAFF_ONLY: &str = "Acesso restrito à equipe de suporte.";
pub const READ_ONLY: &str = "Seu perfil permite apenas consultar.";

/// A console failure: the API's own errors, or a refusal whose body is `{"error": ...}`
/// plus any extra fields (the 409 of a bulk re-run carries the new count).
#[derive(Debug)]
pub enum OpsError {
    Api(ApiError),
    Refused { status: StatusCode, body: Value },
}

impl OpsError {
    pub fn forbidden(message: &str) -> Self {
        Self::Refused {
            status: StatusCode::FORBIDDEN,
            body: json!({ "error": message }),
        }
    }

    pub fn conflict(body: Value) -> Self {
        Self::Refused {
            status: StatusCode::CONFLICT,
            body,
        }
    }
}

impl From<ApiError> for OpsError {
    fn from(err: ApiError) -> Self {
        Self::Api(err)
    }
}

/// Refusals and breakages take the API's one conversion (`domain::shared::failure`).
impl<E: IntoFailure> From<E> for OpsError {
    fn from(err: E) -> Self {
        Self::Api(err.into())
    }
}

impl IntoResponse for OpsError {
    fn into_response(self) -> Response {
        match self {
            Self::Api(err) => err.into_response(),
            Self::Refused { status, body } => (status, axum::Json(body)).into_response(),
        }
    }
}

pub type OpsResult<T> = Result<T, OpsError>;

/// A staff member with a console grant.
#[derive(Debug, Clone)]
pub struct Staff(pub Grant);

impl Staff {
    pub fn scope(&self) -> Scope {
        self.0.scope
    }

    pub fn user_id(&self) -> i64 {
        self.0.user_id.0
    }

    /// Actions need role `support`; a viewer only reads.
    pub fn require_support(&self) -> OpsResult<()> {
        if self.0.can_act() {
            Ok(())
        } else {
            Err(OpsError::forbidden(READ_ONLY))
        }
    }
}

impl FromRequestParts<AppState> for Staff {
    type Rejection = OpsError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> OpsResult<Self> {
        let refused = || OpsError::forbidden(STAFF_ONLY);
        let token = bearer_token(parts).ok_or_else(refused)?;
        let user = session::authenticate(&state.db, token)
            .await?
            .ok_or_else(refused)?;
        if !user.is_member_in_good_standing() {
            return Err(refused());
        }
        let grant = domain::staff::grant_of(&state.db, user.user_id)
            .await?
            .ok_or_else(refused)?;
        Ok(Self(grant))
    }
}
