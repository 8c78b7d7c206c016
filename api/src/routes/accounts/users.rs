//! A member's own data: `GET /api/users-web/{id}` (the web app's user), `GET /api/users/{id}`
//! (the member card, a one-element list), and the public card check
//! `GET /api/users/{id}/validation` behind the card's QR code.

use axum::extract::State;
use domain::accounts::user::{self, User};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, Messages};
use crate::extract::{Json, Path};
use crate::member::{Member, NOT_AUTHORIZED};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(user_data))
        .routes(routes!(member_card_user))
        .routes(routes!(member_card_validation))
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

/// The caller's own account, as the web app keeps it
#[utoipa::path(
    get,
    path = "/users-web/{id}",
    tag = "accounts",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    responses(
        (status = 200, description = "The account", body = User),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "the id is not the caller's", body = Messages),
    )
)]
async fn user_data(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Json<User>> {
    own_user(&state, member, id).await.map(Json)
}

/// The caller's member card data (a one-element list)
#[utoipa::path(
    get,
    path = "/users/{id}",
    tag = "accounts",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    responses(
        (status = 200, description = "The account, alone in a list", body = Vec<User>),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "the id is not the caller's", body = Messages),
    )
)]
async fn member_card_user(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Json<Vec<User>>> {
    own_user(&state, member, id)
        .await
        .map(|user| Json(vec![user]))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MemberCardValidation)]
struct Validation {
    #[serde(rename = "isValid")]
    is_valid: bool,
}

/// Whether a member card is valid
///
/// Open to anyone who scans the card: answers only whether it is valid, no personal data.
#[utoipa::path(
    get,
    path = "/users/{id}/validation",
    tag = "accounts",
    params(("id" = i64, Path, description = "The user id on the card")),
    responses(
        (status = 200, description = "Whether the card is valid", body = Validation),
        (status = 400, description = "The id is not a number", body = Messages),
    )
)]
async fn member_card_validation(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<Validation>> {
    let is_valid = user::is_valid_member(&state.db, id).await?;
    Ok(Json(Validation { is_valid }))
}
