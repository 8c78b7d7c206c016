//! A member's own data: `GET /api/users-web/{id}` (the web app's user), `GET /api/users/{id}`
//! (the member card, a one-element list), and the public card check
//! `GET /api/users/{id}/validation` behind the card's QR code.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use domain::accounts::user::{self, User};
use serde::Serialize;

use crate::error::{ApiError, ApiResult};
use crate::extract::{Json, Path};
use crate::member::{Member, NOT_AUTHORIZED};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/users-web/{id}", get(user_data))
        .route("/users/{id}", get(member_card_user))
        .route("/users/{id}/validation", get(validation))
}

/// A member reads only their own account: any other id, in this station or another, is
/// refused the same way.
async fn own_user(state: &AppState, member: Member, id: i64) -> ApiResult<User> {
    if id != member.user_id {
        return Err(ApiError::Forbidden(NOT_AUTHORIZED.into()));
    }
    user::find(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::Forbidden(NOT_AUTHORIZED.into()))
}

async fn user_data(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Json<User>> {
    own_user(&state, member, id).await.map(Json)
}

async fn member_card_user(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Json<Vec<User>>> {
    own_user(&state, member, id)
        .await
        .map(|user| Json(vec![user]))
}

#[derive(Debug, Serialize)]
struct Validation {
    #[serde(rename = "isValid")]
    is_valid: bool,
}

/// Open to anyone who scans the card: answers only whether it is valid, no personal data.
async fn validation(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<Validation>> {
    let is_valid = user::is_valid_member(&state.db, id).await?;
    Ok(Json(Validation { is_valid }))
}
