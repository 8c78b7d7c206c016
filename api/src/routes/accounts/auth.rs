//! `/api/auth`: login to a station, logout, token validation and hand-over login tokens.
//! Sessions are opaque bearer tokens (domain::accounts::session).

use axum::extract::State;
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use domain::accounts::login::{self, LogIn};
use domain::accounts::session;
use domain::accounts::user::{self, LoginId};
use domain::shared::cpf::Cpf;
use domain::shared::validate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::client_ip::ClientIp;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::login_throttle::{LoginThrottle, TOO_MANY_ATTEMPTS};
use crate::member::{Member, SignedIn, bearer_token};
use crate::routes::accounts::users::User;
use crate::state::AppState;

/// One message for an unknown account and a wrong password, so it cannot be used to find
/// out who is a member.
pub const BAD_CREDENTIALS: &str = "E-mail, CPF ou senha incorretos.";

/// A login token that is unknown, used or expired.
pub const LOGIN_TOKEN_INVALID: &str = "Este link de acesso é inválido ou expirou. Entre novamente.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login))
        .routes(routes!(logout))
        .routes(routes!(validate_token))
        .routes(routes!(login_with_token))
        .routes(routes!(issue_login_token))
}

/// Identifier is the e-mail or the CPF, depending on the station.
#[derive(Debug, Deserialize, ToSchema)]
struct LoginRequest {
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    cpf: Option<String>,
    password: String,
}

/// A new session: its bearer token and the user as the web app keeps it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = LoginResponse)]
pub struct NewSession {
    pub token: String,
    pub user: User,
}

impl From<session::NewSession> for NewSession {
    fn from(session: session::NewSession) -> Self {
        Self {
            token: session.token,
            user: session.user.into(),
        }
    }
}

/// A login token as handed to its user, once.
#[derive(Debug, Serialize, ToSchema)]
struct LoginToken {
    token: String,
    expires_at: DateTime<Utc>,
}

/// The account waiting for activation, its contacts masked.
#[derive(Debug, Serialize, ToSchema)]
pub struct PendingAccount {
    id: i64,
    email: Option<String>,
    celular: Option<String>,
    tel: Option<String>,
    #[serde(rename = "isFiliado")]
    is_filiado: bool,
}

impl From<login::PendingAccount> for PendingAccount {
    fn from(account: login::PendingAccount) -> Self {
        Self {
            id: account.id,
            email: account.email,
            celular: account.celular,
            tel: account.tel,
            is_filiado: account.is_filiado,
        }
    }
}

/// The login refusal. With the right password of an account not activated yet it carries
/// `affiliate`, what the form's step 2 needs to send a code.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PendingActivation {
    messages: Vec<String>,
    #[schema(required = false)]
    affiliate: PendingAccount,
}

/// Signs in to a station with e-mail or CPF and password
#[utoipa::path(
    post,
    path = "/auth/login/establishment/{station_id}",
    tag = "accounts",
    params(("station_id" = i64, Path, description = "The station signed in to")),
    request_body = LoginRequest,
    responses(
        (status = 200, description = "Signed in", body = NewSession),
        (status = 400, description = "The station id is not a number", body = Messages),
        (status = 401, description = "Wrong e-mail, CPF or password (`messages` only); or the right password of an account not activated yet: `affiliate` carries what the confirmation step needs", body = PendingActivation),
        (status = 404, description = "No such station", body = ErrorMessage),
        (status = 422, description = "No e-mail or CPF, a malformed one, or no password", body = Messages),
        (status = 429, description = "Too many failed logins for this account or address", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(station_id): Path<i64>,
    Json(request): Json<LoginRequest>,
) -> ApiResult<Response> {
    let login_id = login_id(&request)?;
    if request.password.is_empty() {
        return Err(ApiError::invalid("Esse campo é obrigatório"));
    }
    let station = domain::stations::station::named(&state.db, station_id).await?;
    let throttle = LoginThrottle::new(&state, station_id, &login_id.normalized(), ip);
    if let Err(seconds) = throttle.reserve(&state).await {
        tracing::info!(station_id, "login refused: too many failures");
        return Err(ApiError::TooManyRequests {
            message: TOO_MANY_ATTEMPTS.into(),
            retry_after: seconds,
        });
    }
    let outcome = login::log_in(&state.db, &station, &login_id, request.password).await;
    match &outcome {
        // The reserved try is the failure's count.
        Ok(LogIn::WrongCredentials) => {}
        Ok(_) => throttle.succeeded(&state).await,
        Err(_) => throttle.give_back(&state).await,
    }
    Ok(match outcome? {
        LogIn::WrongCredentials => return Err(ApiError::Unauthorized(BAD_CREDENTIALS.into())),
        LogIn::AwaitingActivation(account) => {
            let body = PendingActivation {
                messages: vec![login::CONFIRM_TO_LOG_IN.into()],
                affiliate: account.into(),
            };
            (StatusCode::UNAUTHORIZED, Json(body)).into_response()
        }
        LogIn::SignedIn(session) => {
            let mut session = NewSession::from(*session);
            session.user = session.user.with_subscription(&state).await?;
            Json(session).into_response()
        }
    })
}

/// Ends the caller's session
///
/// The token stops working everywhere at once.
#[utoipa::path(
    post,
    path = "/auth/logout",
    tag = "accounts",
    security(("session" = [])),
    responses(
        (status = 204, description = "Signed out"),
    )
)]
async fn logout(State(state): State<AppState>, signed_in: SignedIn) -> ApiResult<StatusCode> {
    session::revoke(&state.db, &signed_in.token).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Serialize, ToSchema)]
struct TokenValidity {
    valid: bool,
    user: Option<User>,
}

/// Whether the stored token still opens a session
///
/// With the user as it is now (the web app clears its stored user when `valid` is false).
/// Never an error for a missing or bad token.
#[utoipa::path(
    get,
    path = "/auth/validate-token",
    tag = "accounts",
    security((), ("session" = [])),
    responses((status = 200, description = "Whether the token is valid", body = TokenValidity))
)]
async fn validate_token(
    State(state): State<AppState>,
    signed_in: Option<SignedIn>,
) -> ApiResult<Json<TokenValidity>> {
    let user = match signed_in {
        Some(signed_in) => match user::find(&state.db, signed_in.user.user_id).await? {
            Some(user) => Some(User::from(user).with_subscription(&state).await?),
            None => None,
        },
        None => None,
    };
    Ok(Json(TokenValidity {
        valid: user.is_some(),
        user,
    }))
}

/// Redeems a hand-over login token for a session
///
/// `/login-token/{token}`: the page sends the hand-over token (not a session) as its bearer
/// token and gets a session of its own. Each login token works once.
#[utoipa::path(
    post,
    path = "/auth/login-token",
    tag = "accounts",
    security(("login_token" = [])),
    responses(
        (status = 200, description = "Signed in", body = NewSession),
        (status = 401, description = "The login token is unknown, used or expired", body = Messages),
    )
)]
async fn login_with_token(
    State(state): State<AppState>,
    parts: Parts,
) -> ApiResult<Json<NewSession>> {
    let invalid = || ApiError::Unauthorized(LOGIN_TOKEN_INVALID.into());
    let login_token = bearer_token(&parts).ok_or_else(invalid)?;
    let session = session::log_in_with_token(&state.db, login_token)
        .await?
        .ok_or_else(invalid)?;
    Ok(Json(session.into()))
}

/// Issues a single-use login token
///
/// For handing the signed-in member over to another host of the station (its app, its
/// management site), which redeems it at `POST /api/auth/login-token`.
#[utoipa::path(
    post,
    path = "/auth/login-token/issue",
    tag = "accounts",
    security(("member" = [])),
    responses(
        (status = 200, description = "The token", body = LoginToken),
    )
)]
async fn issue_login_token(
    State(state): State<AppState>,
    member: Member,
) -> ApiResult<Json<LoginToken>> {
    let issued = session::issue_login_token(&state.db, member.user_id).await?;
    Ok(Json(LoginToken {
        token: issued.token,
        expires_at: issued.expires_at,
    }))
}

fn login_id(request: &LoginRequest) -> ApiResult<LoginId> {
    match (present(&request.email), present(&request.cpf)) {
        (Some(email), _) if validate::email(email).is_ok() => {
            Ok(LoginId::Email(email.to_lowercase()))
        }
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
