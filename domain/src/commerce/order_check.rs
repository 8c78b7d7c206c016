//! The order a receipt's QR code opens (`{host}/validador/pedido/{code}`, spec 002: a
//! partner's host when the order's activity has a partner, else the app's): whether it is
//! paid, what was bought and where it goes, for whoever hands it over. A partner's staff
//! (`partner_staff`) of one of the order's activities may read it, and so may the member
//! who bought it; nobody else learns more than that it is not theirs to see.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgConnection;

use super::orders::status_label;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct OrderCheck {
    pub code: String,
    /// The order's status as members read it ('Pagamento confirmado', ...).
    pub status: String,
    /// Paid and not wholly refunded: what was bought may be handed over.
    pub paid: bool,
    pub member_name: String,
    pub created_at: DateTime<Utc>,
    pub lines: Vec<OrderCheckLine>,
    pub deliveries: Vec<OrderCheckDelivery>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct OrderCheckLine {
    pub product: String,
    /// Units bought and not refunded.
    pub quantity: i32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct OrderCheckDelivery {
    pub location: String,
    pub pickup: bool,
    /// Where it goes (home delivery) or where it is picked up.
    pub address: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotShown {
    NotFound,
    NotAllowed,
}

#[derive(sqlx::FromRow)]
struct OrderRow {
    id: i64,
    user_id: i64,
    code: String,
    status: String,
    created_at: DateTime<Utc>,
    member_name: String,
}

/// The order of `code` in the station, if `viewer_id` may see it: its member, or staff of
/// a partner of one of its activities.
pub async fn for_viewer(
    conn: &mut PgConnection,
    station_id: i64,
    viewer_id: i64,
    code: &str,
) -> sqlx::Result<Result<OrderCheck, NotShown>> {
    let order: Option<OrderRow> = sqlx::query_as(
        "SELECT o.id, o.user_id, o.code, o.status, o.created_at, u.name AS member_name
           FROM orders o JOIN users u ON u.id = o.user_id
          WHERE o.station_id = $1 AND o.code = $2",
    )
    .bind(station_id)
    .bind(code.trim())
    .fetch_optional(&mut *conn)
    .await?;
    let Some(order) = order else {
        return Ok(Err(NotShown::NotFound));
    };
    let partner: bool = sqlx::query_scalar(
        "SELECT EXISTS (
            SELECT 1 FROM order_lines l
              JOIN actions a ON a.id = l.action_id
              JOIN partner_staff s ON s.partner_id = a.partner_id
             WHERE l.order_id = $1 AND s.user_id = $2)",
    )
    .bind(order.id)
    .bind(viewer_id)
    .fetch_one(&mut *conn)
    .await?;
    if order.user_id != viewer_id && !partner {
        return Ok(Err(NotShown::NotAllowed));
    }
    let lines: Vec<OrderCheckLine> = sqlx::query_as(
        "SELECT p.name AS product, l.quantity - l.refunded_quantity AS quantity
           FROM order_lines l JOIN products p ON p.id = l.product_id
          WHERE l.order_id = $1 AND l.quantity > l.refunded_quantity ORDER BY l.id",
    )
    .bind(order.id)
    .fetch_all(&mut *conn)
    .await?;
    let deliveries = super::fulfilment::order_deliveries(conn, order.id)
        .await?
        .into_iter()
        .map(|d| OrderCheckDelivery {
            location: d.location,
            pickup: d.pickup,
            address: d.address,
        })
        .collect();
    Ok(Ok(OrderCheck {
        paid: matches!(order.status.as_str(), "paid" | "partially_refunded"),
        status: status_label(&order.status).to_string(),
        code: order.code,
        member_name: order.member_name,
        created_at: order.created_at,
        lines,
        deliveries,
    }))
}
