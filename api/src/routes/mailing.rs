//! The mailing list: `PUT /api/e-mail-subscribe` and `PUT /api/e-mail-unsubscribe`, through
//! the signed links of e-mails (domain::accounts::mailing). No session: the hash is the proof. The
//! answers are the spec's: subscribe says success with an empty 204, unsubscribe with `[1]`.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::put;
use domain::accounts::mailing;
use serde::Deserialize;

use crate::error::{ApiError, ApiResult};
use crate::extract::Json;
use crate::state::AppState;

pub const LINK_INVALID: &str = "Link inválido.";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/e-mail-subscribe", put(subscribe))
        .route("/e-mail-unsubscribe", put(unsubscribe))
}

/// The page reads `id` from its URL, so it may arrive as a number or as text.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum UserId {
    Number(i64),
    Text(String),
}

#[derive(Debug, Deserialize)]
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
    let Some(user_id) =
        user_id.filter(|id| mailing::verify(state.config.signing_key.expose(), *id, &link.hash))
    else {
        return Ok(false);
    };
    Ok(mailing::set_subscribed(&state.db, user_id, subscribed).await?)
}

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

async fn unsubscribe(
    State(state): State<AppState>,
    Json(link): Json<SignedLink>,
) -> ApiResult<Json<[u8; 1]>> {
    let done = apply(&state, &link, false).await?;
    Ok(Json([u8::from(done)]))
}
