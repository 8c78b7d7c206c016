//! The member's vouchers and coupon purchases: `GET /user-vouchers/{userId}` (the list of
//! `/homepage/vouchers`), `GET /user-bought-cupoms/{userId}` (`/homepage/minhas-compras`)
//! and `POST /create-vouchers-product-order` (spec 002; `order.confirm` makes them too,
//! so the call answers the order's vouchers, idempotently).

use axum::extract::State;
use domain::commerce::vouchers::{self, CouponPurchase, NOT_CREATED, VoucherView};
use domain::shared::ids::OrderId;
use jobs::JobOutbox;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{own, own_body, whole};
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::member::Member;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(vouchers_of_user))
        .routes(routes!(bought_coupons))
        .routes(routes!(create_vouchers))
}

/// The caller's vouchers, newest first
#[utoipa::path(
    get,
    path = "/user-vouchers/{userId}",
    tag = "commerce",
    security(("member" = [])),
    params(("userId" = i64, Path, description = "The caller's own id")),
    responses(
        (status = 200, description = "The vouchers", body = Vec<VoucherView>),
        (status = 403, description = "The id is not the caller's", body = Messages),
    )
)]
async fn vouchers_of_user(
    State(state): State<AppState>,
    member: Member,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<Vec<VoucherView>>> {
    let user_id = own(member, user_id)?;
    let mut conn = state.db.acquire().await?;
    Ok(Json(vouchers::of_member(&mut conn, user_id).await?))
}

/// The caller's coupon purchases (paid lines of type 3 activities), newest first
#[utoipa::path(
    get,
    path = "/user-bought-cupoms/{userId}",
    tag = "commerce",
    security(("member" = [])),
    params(("userId" = i64, Path, description = "The caller's own id")),
    responses(
        (status = 200, description = "The purchases", body = Vec<CouponPurchase>),
        (status = 403, description = "The id is not the caller's", body = Messages),
    )
)]
async fn bought_coupons(
    State(state): State<AppState>,
    member: Member,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<Vec<CouponPurchase>>> {
    let user_id = own(member, user_id)?;
    let mut conn = state.db.acquire().await?;
    Ok(Json(vouchers::coupon_purchases(&mut conn, user_id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
struct CreateVouchers {
    /// Sent as `true` by the web app; not used.
    #[serde(default)]
    #[allow(dead_code)]
    should_contact: Option<Value>,
    /// The order's id (a number or a numeric string).
    #[schema(value_type = i64)]
    product_orders: Value,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    user_id: Option<Value>,
}

/// The vouchers of one of the caller's paid orders, made if not yet made
#[utoipa::path(
    post,
    path = "/create-vouchers-product-order",
    tag = "commerce",
    security(("member" = [])),
    request_body = CreateVouchers,
    responses(
        (status = 200, description = "Every voucher of the order (the same ones on every call)", body = Vec<VoucherView>),
        (status = 403, description = "Another member's order", body = Messages),
        (status = 404, description = "No such order in the caller's station", body = ErrorMessage),
        (status = 422, description = "'Erro ao gerar os vouchers.' (the order is not paid, or the order id is not one)", body = Messages),
    )
)]
async fn create_vouchers(
    State(state): State<AppState>,
    member: Member,
    Json(body): Json<CreateVouchers>,
) -> ApiResult<Json<Vec<VoucherView>>> {
    own_body(member, body.user_id.as_ref())?;
    let order_id = whole(&body.product_orders).ok_or_else(|| ApiError::invalid(NOT_CREATED))?;
    let views = app::commerce::vouchers::create_for_member_order(
        &state.db,
        &JobOutbox,
        member.station(),
        member.user(),
        OrderId(order_id),
    )
    .await?;
    Ok(Json(views))
}
