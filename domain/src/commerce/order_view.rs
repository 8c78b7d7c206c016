//! The order as the member reads it (spec 002 section 3, "Product order"), with the spec's
//! field names; amounts in centavos.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use sqlx::PgConnection;

use super::status::OrderStatus;
use crate::infra::objects::Objects;
use crate::shared::ids::Cents;

#[derive(Debug, Clone)]
pub struct OrderAction {
    pub id: i64,
    pub name: String,
    pub type_id: i16,
    pub sell_vouchers: bool,
    pub familiar_voucher: bool,
}

/// The card or PIX part, with the older names the spec reads.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GatewayCharge {
    pub payment_method: String,
    /// The provider's charge id (the sandbox's "simulate payment" names it).
    pub charge_id: Option<String>,
    pub pix_qr_code: Option<String>,
    pub expiration_date: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone)]
pub struct OrderDeliveryLocation {
    pub name: String,
    pub price: Cents,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OrderDelivery {
    pub action_id: i64,
    pub delivery_location_id: Option<i64>,
    pub delivery_location_name: Option<String>,
    pub delivery: Option<bool>,
    pub price: Cents,
    pub discount: Cents,
    pub zipcode: Option<String>,
    pub address: Option<String>,
    pub number: Option<String>,
    pub reference: Option<String>,
}

#[derive(Debug, Clone)]
pub struct OrderProduct {
    pub id: i64,
    pub name: String,
    pub image: Option<String>,
    pub value: Cents,
    pub discount_value: Cents,
}

#[derive(Debug, Clone)]
pub struct OrderLine {
    pub id: i64,
    pub product_id: i64,
    pub action_id: i64,
    pub quantity: i32,
    pub unit_price: Cents,
    pub refunded_quantity: i32,
    pub product: OrderProduct,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OrderPayment {
    pub id: i64,
    /// wallet, card or pix.
    pub method: String,
    pub amount: Cents,
    /// pending, paid, failed, expired, cancelled or refunded.
    pub status: String,
    pub installments: i32,
    pub expires_at: Option<DateTime<Utc>>,
    pub failure_reason: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Order {
    pub id: i64,
    pub code: String,
    pub user_id: i64,
    pub created_at: DateTime<Utc>,
    /// As members read it: 'Aguardando pagamento', 'Pagamento confirmado', ...
    pub status: String,
    /// pending, paid, expired, declined, cancelled, refunded, partially_refunded.
    pub status_code: String,
    pub refunded_percentage: Decimal,
    pub create_vouchers: bool,
    pub action: Option<OrderAction>,
    pub gateway_charge: Option<GatewayCharge>,
    pub product_items_sum_value: Cents,
    pub delivery_tax_value: Cents,
    pub additional_discount_value: Cents,
    pub total_final_value: Cents,
    pub final_value: Cents,
    pub wallet_value: Cents,
    pub credit_card_value: Cents,
    pub total_credit_card_value: Cents,
    pub cashback_value: Cents,
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

#[derive(Debug, sqlx::FromRow)]
struct OrderRow {
    id: i64,
    code: String,
    user_id: i64,
    created_at: DateTime<Utc>,
    status: OrderStatus,
    refunded_percentage: Decimal,
    create_vouchers: bool,
    product_items_sum_value: Cents,
    delivery_tax_value: Cents,
    additional_discount_value: Cents,
    total_final_value: Cents,
    wallet_value: Cents,
    credit_card_value: Cents,
    cashback_value: Cents,
    paid_at: Option<DateTime<Utc>>,
}

#[derive(Debug, sqlx::FromRow)]
struct LineRow {
    id: i64,
    product_id: i64,
    action_id: i64,
    quantity: i32,
    unit_price: Cents,
    refunded_quantity: i32,
    name: String,
    image_key: Option<String>,
    value: Cents,
    discount_value: Cents,
    action_name: String,
    type_id: i16,
    sell_vouchers: bool,
    familiar_voucher: bool,
}

const ORDER_COLUMNS: &str = "id, code, user_id, created_at, status, refunded_percentage,
    create_vouchers, product_items_sum_value, delivery_tax_value, additional_discount_value,
    total_final_value, wallet_value, credit_card_value, cashback_value, paid_at";

async fn assemble(conn: &mut PgConnection, row: OrderRow) -> sqlx::Result<Order> {
    let lines: Vec<LineRow> = sqlx::query_as(
        "SELECT l.id, l.product_id, l.action_id, l.quantity, l.unit_price, l.refunded_quantity,
                p.name, p.image_key, p.value, p.discount_value, a.name AS action_name,
                a.type_id, a.sell_vouchers, a.familiar_voucher
           FROM order_lines l JOIN products p ON p.id = l.product_id
           JOIN actions a ON a.id = l.action_id
          WHERE l.order_id = $1 ORDER BY l.id",
    )
    .bind(row.id)
    .fetch_all(&mut *conn)
    .await?;
    let deliveries: Vec<OrderDelivery> = sqlx::query_as(
        "SELECT d.action_id, d.delivery_location_id, dl.name AS delivery_location_name,
                dl.delivery, d.price, d.discount, d.zipcode, d.address, d.number, d.reference
           FROM order_deliveries d LEFT JOIN delivery_locations dl ON dl.id = d.delivery_location_id
          WHERE d.order_id = $1 ORDER BY d.action_id",
    )
    .bind(row.id)
    .fetch_all(&mut *conn)
    .await?;
    let payments: Vec<OrderPayment> = sqlx::query_as(
        "SELECT id, method, amount, status, installments, expires_at, failure_reason
           FROM payments WHERE order_id = $1 ORDER BY id",
    )
    .bind(row.id)
    .fetch_all(&mut *conn)
    .await?;
    let charge: Option<GatewayCharge> = sqlx::query_as(
        "SELECT CASE method WHEN 'card' THEN 'credit_card' ELSE method END AS payment_method,
                gateway_charge_id AS charge_id, pix_qr_code, expires_at AS expiration_date
           FROM payments WHERE order_id = $1 AND method <> 'wallet' ORDER BY id DESC LIMIT 1",
    )
    .bind(row.id)
    .fetch_optional(&mut *conn)
    .await?;
    let action = lines.first().map(|line| OrderAction {
        id: line.action_id,
        name: line.action_name.clone(),
        type_id: line.type_id,
        sell_vouchers: line.sell_vouchers,
        familiar_voucher: line.familiar_voucher,
    });
    let first = deliveries.first();
    Ok(Order {
        id: row.id,
        code: row.code,
        user_id: row.user_id,
        created_at: row.created_at,
        status: row.status.label().into(),
        status_code: row.status.as_str().into(),
        refunded_percentage: row.refunded_percentage,
        create_vouchers: row.create_vouchers,
        action,
        gateway_charge: charge,
        product_items_sum_value: row.product_items_sum_value,
        delivery_tax_value: row.delivery_tax_value,
        additional_discount_value: row.additional_discount_value,
        total_final_value: row.total_final_value,
        final_value: row.total_final_value,
        wallet_value: row.wallet_value,
        credit_card_value: row.credit_card_value,
        total_credit_card_value: row.credit_card_value,
        cashback_value: row.cashback_value,
        delivery_location_id: first.and_then(|d| d.delivery_location_id),
        delivery_location: first.and_then(|d| {
            d.delivery_location_name
                .clone()
                .map(|name| OrderDeliveryLocation {
                    name,
                    price: d.price,
                })
        }),
        address: first.and_then(|d| d.address.clone()),
        reference: first.and_then(|d| d.reference.clone()),
        zipcode: first.and_then(|d| d.zipcode.clone()),
        single_product_orders: lines
            .into_iter()
            .map(|line| OrderLine {
                id: line.id,
                product_id: line.product_id,
                action_id: line.action_id,
                quantity: line.quantity,
                unit_price: line.unit_price,
                refunded_quantity: line.refunded_quantity,
                product: OrderProduct {
                    id: line.product_id,
                    name: line.name,
                    image: line.image_key.as_deref().map(Objects::url),
                    value: line.value,
                    discount_value: line.discount_value,
                },
            })
            .collect(),
        deliveries,
        payments,
        paid_at: row.paid_at,
    })
}

/// One order of the station, with its owner's id (the caller checks it is the member's).
pub async fn order(
    conn: &mut PgConnection,
    station_id: i64,
    order_id: i64,
) -> sqlx::Result<Option<Order>> {
    let row: Option<OrderRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {ORDER_COLUMNS} FROM orders WHERE id = $1 AND station_id = $2"
    )))
    .bind(order_id)
    .bind(station_id)
    .fetch_optional(&mut *conn)
    .await?;
    match row {
        Some(row) => Ok(Some(assemble(conn, row).await?)),
        None => Ok(None),
    }
}

/// The member's orders, newest first.
pub async fn of_member(conn: &mut PgConnection, user_id: i64) -> sqlx::Result<Vec<Order>> {
    let rows: Vec<OrderRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {ORDER_COLUMNS} FROM orders WHERE user_id = $1 ORDER BY id DESC"
    )))
    .bind(user_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut orders = Vec::with_capacity(rows.len());
    for row in rows {
        orders.push(assemble(conn, row).await?);
    }
    Ok(orders)
}
