//! The member's orders: `GET /product-orders-user/{userId}` and
//! `GET /product-orders/?where[id]={id}` (a list of one, as the spec reads its first
//! element).

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::commerce::ORDER_NOT_FOUND;
use domain::commerce::order_view;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
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

#[derive(Debug, Serialize, ToSchema)]
pub struct OrderAction {
    pub id: i64,
    pub name: String,
    pub type_id: i16,
    pub sell_vouchers: bool,
    #[serde(rename = "familiarVoucher")]
    pub familiar_voucher: bool,
}

impl From<order_view::OrderAction> for OrderAction {
    fn from(action: order_view::OrderAction) -> Self {
        let order_view::OrderAction {
            id,
            name,
            type_id,
            sell_vouchers,
            familiar_voucher,
        } = action;
        Self {
            id,
            name,
            type_id,
            sell_vouchers,
            familiar_voucher,
        }
    }
}

/// The card or PIX part, with the older names the spec reads.
#[derive(Debug, Serialize, ToSchema)]
pub struct GatewayCharge {
    pub payment_method: String,
    /// The provider's charge id (the sandbox's "simulate payment" names it).
    pub charge_id: Option<String>,
    pub pix_qr_code: Option<String>,
    pub expiration_date: Option<DateTime<Utc>>,
}

impl From<order_view::GatewayCharge> for GatewayCharge {
    fn from(charge: order_view::GatewayCharge) -> Self {
        let order_view::GatewayCharge {
            payment_method,
            charge_id,
            pix_qr_code,
            expiration_date,
        } = charge;
        Self {
            payment_method,
            charge_id,
            pix_qr_code,
            expiration_date,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrderDeliveryLocation {
    pub name: String,
    pub price: i64,
}

impl From<order_view::OrderDeliveryLocation> for OrderDeliveryLocation {
    fn from(location: order_view::OrderDeliveryLocation) -> Self {
        let order_view::OrderDeliveryLocation { name, price } = location;
        Self {
            name,
            price: price.into(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrderDelivery {
    pub action_id: i64,
    pub delivery_location_id: Option<i64>,
    pub delivery_location_name: Option<String>,
    pub delivery: Option<bool>,
    pub price: i64,
    pub discount: i64,
    pub zipcode: Option<String>,
    pub address: Option<String>,
    pub number: Option<String>,
    pub reference: Option<String>,
}

impl From<order_view::OrderDelivery> for OrderDelivery {
    fn from(delivery: order_view::OrderDelivery) -> Self {
        let order_view::OrderDelivery {
            action_id,
            delivery_location_id,
            delivery_location_name,
            delivery,
            price,
            discount,
            zipcode,
            address,
            number,
            reference,
        } = delivery;
        Self {
            action_id,
            delivery_location_id,
            delivery_location_name,
            delivery,
            price: price.into(),
            discount: discount.into(),
            zipcode,
            address,
            number,
            reference,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrderProduct {
    pub id: i64,
    pub name: String,
    pub image: Option<String>,
    pub value: i64,
    pub discount_value: i64,
}

impl From<order_view::OrderProduct> for OrderProduct {
    fn from(product: order_view::OrderProduct) -> Self {
        let order_view::OrderProduct {
            id,
            name,
            image,
            value,
            discount_value,
        } = product;
        Self {
            id,
            name,
            image,
            value: value.into(),
            discount_value: discount_value.into(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrderLine {
    pub id: i64,
    pub product_id: i64,
    pub action_id: i64,
    pub quantity: i32,
    pub unit_price: i64,
    pub refunded_quantity: i32,
    pub product: OrderProduct,
}

impl From<order_view::OrderLine> for OrderLine {
    fn from(line: order_view::OrderLine) -> Self {
        let order_view::OrderLine {
            id,
            product_id,
            action_id,
            quantity,
            unit_price,
            refunded_quantity,
            product,
        } = line;
        Self {
            id,
            product_id,
            action_id,
            quantity,
            unit_price: unit_price.into(),
            refunded_quantity,
            product: product.into(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrderPayment {
    pub id: i64,
    /// wallet, card or pix.
    pub method: String,
    pub amount: i64,
    /// pending, paid, failed, expired, cancelled or refunded.
    pub status: String,
    pub installments: i32,
    pub expires_at: Option<DateTime<Utc>>,
    pub failure_reason: Option<String>,
}

impl From<order_view::OrderPayment> for OrderPayment {
    fn from(payment: order_view::OrderPayment) -> Self {
        let order_view::OrderPayment {
            id,
            method,
            amount,
            status,
            installments,
            expires_at,
            failure_reason,
        } = payment;
        Self {
            id,
            method,
            amount: amount.into(),
            status,
            installments,
            expires_at,
            failure_reason,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Order {
    pub id: i64,
    pub code: String,
    pub user_id: i64,
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
    /// As members read it: 'Aguardando pagamento', 'Pagamento confirmado', ...
    pub status: String,
    /// pending, paid, expired, declined, cancelled, refunded, partially_refunded.
    pub status_code: String,
    #[schema(value_type = f64)]
    pub refunded_percentage: Decimal,
    pub create_vouchers: bool,
    pub action: Option<OrderAction>,
    pub gateway_charge: Option<GatewayCharge>,
    pub product_items_sum_value: i64,
    pub delivery_tax_value: i64,
    pub additional_discount_value: i64,
    pub total_final_value: i64,
    pub final_value: i64,
    pub wallet_value: i64,
    pub credit_card_value: i64,
    pub total_credit_card_value: i64,
    pub cashback_value: i64,
    pub delivery_location_id: Option<i64>,
    pub delivery_location: Option<OrderDeliveryLocation>,
    pub address: Option<String>,
    pub reference: Option<String>,
    pub zipcode: Option<String>,
    pub single_product_orders: Vec<OrderLine>,
    pub deliveries: Vec<OrderDelivery>,
    pub payments: Vec<OrderPayment>,
    pub paid_at: Option<DateTime<Utc>>,
}

impl From<order_view::Order> for Order {
    fn from(order: order_view::Order) -> Self {
        let order_view::Order {
            id,
            code,
            user_id,
            created_at,
            status,
            status_code,
            refunded_percentage,
            create_vouchers,
            action,
            gateway_charge,
            product_items_sum_value,
            delivery_tax_value,
            additional_discount_value,
            total_final_value,
            final_value,
            wallet_value,
            credit_card_value,
            total_credit_card_value,
            cashback_value,
            delivery_location_id,
            delivery_location,
            address,
            reference,
            zipcode,
            single_product_orders,
            deliveries,
            payments,
            paid_at,
        } = order;
        Self {
            id,
            code,
            user_id,
            created_at,
            status,
            status_code,
            refunded_percentage,
            create_vouchers,
            action: action.map(OrderAction::from),
            gateway_charge: gateway_charge.map(GatewayCharge::from),
            product_items_sum_value: product_items_sum_value.into(),
            delivery_tax_value: delivery_tax_value.into(),
            additional_discount_value: additional_discount_value.into(),
            total_final_value: total_final_value.into(),
            final_value: final_value.into(),
            wallet_value: wallet_value.into(),
            credit_card_value: credit_card_value.into(),
            total_credit_card_value: total_credit_card_value.into(),
            cashback_value: cashback_value.into(),
            delivery_location_id,
            delivery_location: delivery_location.map(OrderDeliveryLocation::from),
            address,
            reference,
            zipcode,
            single_product_orders: single_product_orders
                .into_iter()
                .map(OrderLine::from)
                .collect(),
            deliveries: deliveries.into_iter().map(OrderDelivery::from).collect(),
            payments: payments.into_iter().map(OrderPayment::from).collect(),
            paid_at,
        }
    }
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
    let orders = order_view::of_member(&mut conn, user_id).await?;
    Ok(Json(orders.into_iter().map(Order::from).collect()))
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
    Ok(Json(vec![order.into()]))
}
