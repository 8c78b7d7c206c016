//! The member's vouchers and coupon purchases: `GET /user-vouchers/{userId}` (the list of
//! `/homepage/vouchers`), `GET /user-bought-cupoms/{userId}` (`/homepage/minhas-compras`)
//! and `POST /create-vouchers-product-order` (spec 002; `order.confirm` makes them too,
//! so the call answers the order's vouchers, idempotently).

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::commerce::vouchers::{self, NOT_CREATED};
use domain::shared::ids::OrderId;
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
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

/// The activity of a voucher as spec 002 names it (`presential_course`).
#[derive(Debug, Serialize, ToSchema)]
pub struct PresentialCourse {
    pub name: String,
    /// HTML, as staff wrote it.
    pub rules: String,
    pub local: Option<String>,
    pub date: Option<DateTime<Utc>>,
    pub action: VoucherAction,
}

impl From<vouchers::PresentialCourse> for PresentialCourse {
    fn from(course: vouchers::PresentialCourse) -> Self {
        let vouchers::PresentialCourse {
            name,
            rules,
            local,
            date,
            action,
        } = course;
        Self {
            name,
            rules,
            local,
            date,
            action: action.into(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VoucherAction {
    pub id: i64,
    pub name: String,
    pub type_id: i16,
    pub image: Option<String>,
    #[serde(rename = "familiarVoucher")]
    pub familiar_voucher: bool,
}

impl From<vouchers::VoucherAction> for VoucherAction {
    fn from(action: vouchers::VoucherAction) -> Self {
        let vouchers::VoucherAction {
            id,
            name,
            type_id,
            image,
            familiar_voucher,
        } = action;
        Self {
            id,
            name,
            type_id,
            image,
            familiar_voucher,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DependentView {
    pub dependente: String,
    pub parentesco: String,
}

impl From<vouchers::DependentView> for DependentView {
    fn from(dependent: vouchers::DependentView) -> Self {
        let vouchers::DependentView {
            dependente,
            parentesco,
        } = dependent;
        Self {
            dependente,
            parentesco,
        }
    }
}

/// A voucher as the member's list and dialog read it.
#[derive(Debug, Serialize, ToSchema)]
pub struct VoucherView {
    pub id: i64,
    pub code: String,
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
    /// '0': not used; anything else: used.
    pub validated: String,
    pub order_id: i64,
    pub order_code: String,
    pub product: String,
    pub validator_link: String,
    pub presential_course: PresentialCourse,
    /// The member's dependents, for family vouchers; empty otherwise.
    pub dependents: Vec<DependentView>,
}

impl From<vouchers::VoucherView> for VoucherView {
    fn from(view: vouchers::VoucherView) -> Self {
        let vouchers::VoucherView {
            id,
            code,
            created_at,
            validated,
            order_id,
            order_code,
            product,
            validator_link,
            presential_course,
            dependents,
        } = view;
        Self {
            id,
            code,
            created_at,
            validated,
            order_id,
            order_code,
            product,
            validator_link,
            presential_course: presential_course.into(),
            dependents: dependents.into_iter().map(DependentView::from).collect(),
        }
    }
}

/// A coupon purchase as `/homepage/minhas-compras` reads it (spec 002, "Coupon purchase"):
/// one per paid line of a type 3 activity.
#[derive(Debug, Serialize, ToSchema)]
pub struct CouponPurchase {
    pub id: i64,
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
    /// What the line cost, centavos.
    pub price: i64,
    /// The order's code.
    pub code: String,
    pub order_id: i64,
    pub quantity: i32,
    pub presential_course: Option<PresentialCourse>,
    pub cupom: CouponOf,
}

impl From<vouchers::CouponPurchase> for CouponPurchase {
    fn from(purchase: vouchers::CouponPurchase) -> Self {
        let vouchers::CouponPurchase {
            id,
            created_at,
            price,
            code,
            order_id,
            quantity,
            presential_course,
            cupom,
        } = purchase;
        Self {
            id,
            created_at,
            price: price.into(),
            code,
            order_id,
            quantity,
            presential_course: presential_course.map(PresentialCourse::from),
            cupom: cupom.into(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CouponOf {
    pub action: VoucherAction,
    pub is_donation: bool,
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
}

impl From<vouchers::CouponOf> for CouponOf {
    fn from(coupon: vouchers::CouponOf) -> Self {
        let vouchers::CouponOf {
            action,
            is_donation,
            created_at,
        } = coupon;
        Self {
            action: action.into(),
            is_donation,
            created_at,
        }
    }
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
    let views = vouchers::of_member(&mut conn, user_id).await?;
    Ok(Json(views.into_iter().map(VoucherView::from).collect()))
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
    let purchases = vouchers::coupon_purchases(&mut conn, user_id).await?;
    Ok(Json(
        purchases.into_iter().map(CouponPurchase::from).collect(),
    ))
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
    Ok(Json(views.into_iter().map(VoucherView::from).collect()))
}
