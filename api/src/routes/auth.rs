//! `/api/auth`: login to a station. Sessions are opaque bearer tokens (domain::session).

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use domain::cpf::Cpf;
use domain::user::{self, LoginId, User};
use domain::{password, session};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult};
use crate::extract::{Json, Path};
use crate::routes::stations::STATION_NOT_FOUND;
use crate::state::AppState;

/// One message for an unknown account and a wrong password, so it cannot be used to find
/// out who is a member.
pub const BAD_CREDENTIALS: &str = "E-mail, CPF ou senha incorretos.";

pub fn router() -> Router<AppState> {
    Router::new().route("/auth/login/establishment/{station_id}", post(login))
}

/// Identifier is the e-mail or the CPF, depending on the station.
#[derive(Debug, Deserialize)]
struct LoginRequest {
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    cpf: Option<String>,
    password: String,
}

#[derive(Debug, Serialize)]
struct LoginResponse {
    token: String,
    user: User,
}

async fn login(
    State(state): State<AppState>,
    Path(station_id): Path<i64>,
    Json(request): Json<LoginRequest>,
) -> ApiResult<Json<LoginResponse>> {
    let login_id = login_id(&request)?;
    if request.password.is_empty() {
        return Err(ApiError::invalid("Esse campo é obrigatório"));
    }
    if domain::station::find(&state.db, station_id)
        .await?
        .is_none()
    {
        return Err(ApiError::not_found(STATION_NOT_FOUND));
    }
    let credentials = user::find_credentials(&state.db, station_id, &login_id).await?;
    let (user_id, stored_hash) = credentials.unzip();
    let password_ok = {
        let password = request.password.clone();
        let stored_hash = stored_hash.flatten();
        // argon2 takes tens of milliseconds of CPU: keep it off the async threads.
        tokio::task::spawn_blocking(move || password::verify(&password, stored_hash.as_deref()))
            .await
            .map_err(anyhow::Error::from)?
    };
    let Some(user_id) = user_id.filter(|_| password_ok) else {
        return Err(ApiError::Unauthorized(BAD_CREDENTIALS.into()));
    };
    let user = user::find(&state.db, user_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("user {user_id} vanished during login"))?;
    let token = session::create(&state.db, user.id).await?;
    tracing::info!(user_id = user.id, station_id, "login");
    Ok(Json(LoginResponse { token, user }))
}

fn login_id(request: &LoginRequest) -> ApiResult<LoginId> {
    match (present(&request.email), present(&request.cpf)) {
        (Some(email), _) if is_plausible_email(email) => Ok(LoginId::Email(email.to_lowercase())),
        (Some(_), _) => Err(ApiError::invalid("Email inválido")),
        (None, Some(cpf)) => cpf
            .parse::<Cpf>()
            .map(LoginId::Cpf)
            .map_err(|err| ApiError::invalid(err.to_string())),
        (None, None) => Err(ApiError::invalid("Esse campo é obrigatório")),
    }
}

fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// The shape check of the spec's e-mail validator; deliverability is proven by activation.
fn is_plausible_email(value: &str) -> bool {
    match value.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !value.contains(char::is_whitespace)
        }
        None => false,
    }
}
