//! The order a receipt's QR code opens (`{host}/validador/pedido/{code}`, spec 002: a
//! partner's host when the order's activity has a partner, else the app's): whether it is
//! paid, what was bought and where it goes, for whoever hands it over. The member who
//! bought it sees all of it; a partner's staff (`partner_staff`) see the lines and
//! deliveries of their partners' activities only (an order may mix partners, and a home
//! address is none of another partner's business); anyone else learns only that it is not
//! theirs to see.

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
    /// Wholly refunded: nothing is to be handed over.
    pub refunded: bool,
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

/// The order of `code` in the station, if `viewer_id` may see it: its member (all of it),
/// or staff of a partner of one of its activities (those activities' part).
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
    // The order's activities the viewer hands over for; all of them for its member.
    let shown: Vec<i64> = sqlx::query_scalar(
        "SELECT DISTINCT l.action_id FROM order_lines l
           JOIN actions a ON a.id = l.action_id
          WHERE l.order_id = $1
            AND ($3 OR EXISTS (SELECT 1 FROM partner_staff s
                                WHERE s.partner_id = a.partner_id AND s.user_id = $2))",
    )
    .bind(order.id)
    .bind(viewer_id)
    .bind(order.user_id == viewer_id)
    .fetch_all(&mut *conn)
    .await?;
    if shown.is_empty() {
        return Ok(Err(NotShown::NotAllowed));
    }
    // Units refunded, or in a refund under way, are not to be handed over.
    let lines: Vec<OrderCheckLine> = sqlx::query_as(
        "SELECT p.name AS product,
                (l.quantity - l.refunded_quantity - coalesce((
                    SELECT sum(rl.quantity) FROM refund_lines rl JOIN refunds r ON r.id = rl.refund_id
                     WHERE rl.order_line_id = l.id AND r.status = 'pending'), 0))::int AS quantity
           FROM order_lines l JOIN products p ON p.id = l.product_id
          WHERE l.order_id = $1 AND l.action_id = ANY ($2) ORDER BY l.id",
    )
    .bind(order.id)
    .bind(&shown)
    .fetch_all(&mut *conn)
    .await?;
    let lines = lines.into_iter().filter(|line| line.quantity > 0).collect();
    let deliveries = super::fulfilment::order_deliveries(conn, order.id)
        .await?
        .into_iter()
        .filter(|d| shown.contains(&d.action_id))
        .map(|d| OrderCheckDelivery {
            location: d.location,
            pickup: d.pickup,
            address: d.address,
        })
        .collect();
    Ok(Ok(OrderCheck {
        paid: matches!(order.status.as_str(), "paid" | "partially_refunded"),
        refunded: order.status == "refunded",
        status: status_label(&order.status).to_string(),
        code: order.code,
        member_name: order.member_name,
        created_at: order.created_at,
        lines,
        deliveries,
    }))
}
