//! What the checkout reads of the member: `GET /dependents/{id}` (family vouchers) and
//! `GET /user-addresses/{id}` (the delivery step), both the caller's own only.

use axum::extract::State;
use domain::commerce::members::{self, Address, Dependent};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::own;
use crate::error::{ApiResult, Messages};
use crate::extract::{Json, Path};
use crate::member::Member;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(dependents))
        .routes(routes!(user_addresses))
}

/// The caller's dependents (dependente, parentesco)
#[utoipa::path(
    get,
    path = "/dependents/{id}",
    tag = "commerce",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    responses(
        (status = 200, description = "The dependents", body = Vec<Dependent>),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "The id is not the caller's", body = Messages),
    )
)]
async fn dependents(
    State(state): State<AppState>,
    member: Member,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<Vec<Dependent>>> {
    let user_id = own(member, user_id)?;
    Ok(Json(members::dependents(&state.db, user_id).await?))
}

/// The caller's saved addresses, the main one first
#[utoipa::path(
    get,
    path = "/user-addresses/{id}",
    tag = "commerce",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    responses(
        (status = 200, description = "The addresses", body = Vec<Address>),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "The id is not the caller's", body = Messages),
    )
)]
async fn user_addresses(
    State(state): State<AppState>,
    member: Member,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<Vec<Address>>> {
    let user_id = own(member, user_id)?;
    Ok(Json(members::addresses(&state.db, user_id).await?))
}
