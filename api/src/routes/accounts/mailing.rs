//! The mailing list: `PUT /api/e-mail-subscribe` and `PUT /api/e-mail-unsubscribe`, through
//! the signed links of e-mails (domain::accounts::mailing). No session: the hash is the proof. The
//! answers are the spec's: subscribe says success with an empty 204, unsubscribe with `[1]`.

use axum::extract::State;
use axum::http::StatusCode;
use domain::accounts::mailing;
use secrecy::ExposeSecret;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, Messages};
use crate::extract::Json;
use crate::state::AppState;

pub const LINK_INVALID: &str = "Link inválido.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(subscribe))
        .routes(routes!(unsubscribe))
}

/// The page reads `id` from its URL, so it may arrive as a number or as text.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
#[schema(as = MailingUserId)]
enum UserId {
    Number(i64),
    Text(String),
}

/// The user id and signature of an e-mail's mailing-list link.
#[derive(Debug, Deserialize, ToSchema)]
struct SignedLink {
    id: UserId,
    hash: String,
}

/// Sets the choice when the hash is the account's; false for a bad hash or unknown id.
async fn apply(state: &AppState, link: &SignedLink, subscribed: bool) -> ApiResult<bool> {
    let user_id = match &link.id {
        UserId::Number(id) => Some(*id),
        UserId::Text(id) => id.trim().parse().ok(),
    };
    let Some(user_id) = user_id
        .filter(|id| mailing::verify(state.config.signing_key.expose_secret(), *id, &link.hash))
    else {
        return Ok(false);
    };
    Ok(mailing::set_subscribed(&state.db, user_id, subscribed).await?)
}

/// Subscribes an account to the mailing list through a signed link
#[utoipa::path(
    put,
    path = "/e-mail-subscribe",
    tag = "accounts",
    request_body = SignedLink,
    responses(
        (status = 204, description = "Subscribed"),
        (status = 422, description = "The link's signature or id is invalid", body = Messages),
    )
)]
async fn subscribe(
    State(state): State<AppState>,
    Json(link): Json<SignedLink>,
) -> ApiResult<StatusCode> {
    if apply(&state, &link, true).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::invalid(LINK_INVALID))
    }
}

/// Unsubscribes an account from the mailing list through a signed link
///
/// The spec's answer: `[1]` when done, `[0]` for a bad link.
#[utoipa::path(
    put,
    path = "/e-mail-unsubscribe",
    tag = "accounts",
    request_body = SignedLink,
    responses((status = 200, description = "`[1]` unsubscribed, `[0]` an invalid link", body = [u8], content_type = "application/json", example = json!([1])))
)]
async fn unsubscribe(
    State(state): State<AppState>,
    Json(link): Json<SignedLink>,
) -> ApiResult<Json<[u8; 1]>> {
    let done = apply(&state, &link, false).await?;
    Ok(Json([u8::from(done)]))
}
