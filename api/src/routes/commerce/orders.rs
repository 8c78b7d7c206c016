//! The member's orders: `GET /product-orders-user/{userId}` and
//! `GET /product-orders/?where[id]={id}` (a list of one, as the spec reads its first
//! element).

use axum::extract::State;
use domain::commerce::ORDER_NOT_FOUND;
use domain::commerce::order_view::{self, Order};
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::own;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::member::Member;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(orders_of_user))
        .routes(routes!(order_by_id))
}

/// The caller's orders, newest first
#[utoipa::path(
    get,
    path = "/product-orders-user/{userId}",
    tag = "commerce",
    security(("member" = [])),
    params(("userId" = i64, Path, description = "The caller's own id")),
    responses(
        (status = 200, description = "The orders", body = Vec<Order>),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "The id is not the caller's", body = Messages),
    )
)]
async fn orders_of_user(
    State(state): State<AppState>,
    member: Member,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<Vec<Order>>> {
    let user_id = own(member, user_id)?;
    let mut conn = state.db.acquire().await?;
    Ok(Json(order_view::of_member(&mut conn, user_id).await?))
}

#[derive(Debug, Deserialize)]
struct OrderQuery {
    #[serde(rename = "where[id]")]
    id: i64,
}

/// One of the caller's orders, as a list of one
#[utoipa::path(
    get,
    path = "/product-orders/",
    tag = "commerce",
    security(("member" = [])),
    params(("where[id]" = i64, Query, description = "The order's id")),
    responses(
        (status = 200, description = "The order, alone in a list", body = Vec<Order>),
        (status = 400, description = "where[id] is missing or not a number", body = Messages),
        (status = 404, description = "No such order of the caller (another member's included)", body = ErrorMessage),
    )
)]
async fn order_by_id(
    State(state): State<AppState>,
    member: Member,
    Query(query): Query<OrderQuery>,
) -> ApiResult<Json<Vec<Order>>> {
    let mut conn = state.db.acquire().await?;
    // Another member's order is answered as missing, so its id is not confirmed.
    let order = order_view::order(&mut conn, member.station_id, query.id)
        .await?
        .filter(|order| order.user_id == member.user_id)
        .ok_or_else(|| ApiError::not_found(ORDER_NOT_FOUND))?;
    Ok(Json(vec![order]))
}
