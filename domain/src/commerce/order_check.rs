//! The order a receipt's QR code opens (`{host}/validador/pedido/{code}`, spec 002: a
//! partner's host when the order's activity has a partner, else the app's): whether it is
//! paid, what was bought and where it goes, for whoever hands it over. The member who
//! bought it sees all of it; a partner's staff (`partner_staff`) see the lines and
//! deliveries of their partners' activities only (an order may mix partners, and a home
//! address is none of another partner's business); anyone else learns only that it is not
//! theirs to see. The partner's staff hand each line over once ([`hand_over`]); lines of
//! activities that sell vouchers are handed over by their vouchers, one per unit.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::status::OrderStatus;
use crate::shared::NOT_AUTHORIZED;
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{OrderId, StationId, UserId};

#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// The viewer is its partner's staff, not the member who bought it: they hand its
    /// lines over (`POST .../lines/{line_id}/handover`).
    pub hands_over: bool,
    pub lines: Vec<OrderCheckLine>,
    pub deliveries: Vec<OrderCheckDelivery>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderCheckLine {
    /// The order line's id (what a handover names).
    pub id: i64,
    pub product: String,
    /// Units bought and not refunded.
    pub quantity: i32,
    /// The activity sells vouchers: each unit is handed over by its voucher, not here.
    pub vouchers: bool,
    /// When and by whom the line was handed over; `null` while it was not.
    pub handed_over: Option<Handover>,
}

/// A line handed over at the partner's counter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handover {
    /// Units handed over.
    pub quantity: i32,
    /// The name of the partner's staff member who handed it over.
    pub by: String,
    pub at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct LineRow {
    id: i64,
    product: String,
    quantity: i32,
    vouchers: bool,
    handed_quantity: Option<i32>,
    handed_by_name: Option<String>,
    handed_at: Option<DateTime<Utc>>,
}

impl From<LineRow> for OrderCheckLine {
    fn from(row: LineRow) -> Self {
        let handed_over = match (row.handed_quantity, row.handed_by_name, row.handed_at) {
            (Some(quantity), Some(by), Some(at)) => Some(Handover { quantity, by, at }),
            _ => None,
        };
        Self {
            id: row.id,
            product: row.product,
            quantity: row.quantity,
            vouchers: row.vouchers,
            handed_over,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderCheckDelivery {
    pub location: String,
    pub pickup: bool,
    /// Where it goes (home delivery) or where it is picked up.
    pub address: Option<String>,
}

/// Why an order is not shown to its viewer.
#[derive(Debug, thiserror::Error)]
pub enum NotShown {
    /// No such order in the station (404).
    #[error("{}", super::ORDER_NOT_FOUND)]
    NotFound,
    /// Neither the order's member nor staff of a partner of its activities (403).
    #[error("{}", NOT_AUTHORIZED)]
    NotAllowed,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl IntoFailure for NotShown {
    fn into_failure(self) -> Failure {
        match self {
            Self::NotFound => Failure::NotFound(self.to_string()),
            Self::NotAllowed => Failure::Forbidden(self.to_string()),
            Self::Database(err) => err.into_failure(),
        }
    }
}

#[derive(sqlx::FromRow)]
struct OrderRow {
    id: OrderId,
    user_id: UserId,
    code: String,
    status: OrderStatus,
    created_at: DateTime<Utc>,
    member_name: String,
}

/// The order of `code` in the station, if `viewer_id` may see it: its member (all of it),
/// or staff of a partner of one of its activities (those activities' part).
pub async fn for_viewer(
    conn: &mut PgConnection,
    station_id: StationId,
    viewer_id: UserId,
    code: &str,
) -> Result<OrderCheck, NotShown> {
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
        return Err(NotShown::NotFound);
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
        return Err(NotShown::NotAllowed);
    }
    // Units refunded, or in a refund under way, are not to be handed over.
    let lines: Vec<LineRow> = sqlx::query_as(
        "SELECT l.id, p.name AS product,
                (l.quantity - l.refunded_quantity - coalesce((
                    SELECT sum(rl.quantity) FROM refund_lines rl JOIN refunds r ON r.id = rl.refund_id
                     WHERE rl.order_line_id = l.id AND r.status = 'pending'
                       AND r.origin <> 'late_payment'), 0))::int AS quantity,
                a.sell_vouchers AS vouchers, h.quantity AS handed_quantity, h.handed_by_name,
                h.handed_at
           FROM order_lines l JOIN products p ON p.id = l.product_id
           JOIN actions a ON a.id = l.action_id
           LEFT JOIN order_handovers h ON h.order_line_id = l.id
          WHERE l.order_id = $1 AND l.action_id = ANY ($2) ORDER BY l.id",
    )
    .bind(order.id)
    .bind(&shown)
    .fetch_all(&mut *conn)
    .await?;
    let lines = lines
        .into_iter()
        .filter(|line| line.quantity > 0)
        .map(OrderCheckLine::from)
        .collect();
    let deliveries = super::fulfilment::order_deliveries(conn, order.id.0)
        .await?
        .into_iter()
        .filter(|d| shown.contains(&d.action_id))
        .map(|d| OrderCheckDelivery {
            location: d.location,
            pickup: d.pickup,
            address: d.address,
        })
        .collect();
    Ok(OrderCheck {
        paid: order.status.is_paid(),
        refunded: order.status == OrderStatus::Refunded,
        hands_over: order.user_id != viewer_id,
        status: order.status.label().to_string(),
        code: order.code,
        member_name: order.member_name,
        created_at: order.created_at,
        lines,
        deliveries,
    })
}

/// Spec-style texts of a refused handover.
pub const ALREADY_HANDED_OVER: &str = "Este item já foi entregue.";
pub const HANDOVER_NOT_PAID: &str = "Este pedido não está pago: não entregue os produtos.";
pub const HANDOVER_REFUNDED: &str = "Este item foi estornado: não há o que entregar.";
pub const HANDOVER_BY_VOUCHER: &str =
    "Este item é entregue pelos vouchers do pedido: valide cada voucher.";
pub const HANDOVER_REFUND_PENDING: &str =
    "Há um estorno em andamento para este item: entregue quando ele terminar.";
pub const LINE_NOT_FOUND: &str = "Item do pedido não encontrado.";

/// Why a line was not handed over.
#[derive(Debug, thiserror::Error)]
pub enum NotHandedOver {
    /// No such order in the station (404).
    #[error("{}", super::ORDER_NOT_FOUND)]
    OrderNotFound,
    /// No such line in the order (404).
    #[error("{}", LINE_NOT_FOUND)]
    LineNotFound,
    /// Not staff of the line's activity's partner, or the order's own member (403).
    #[error("{}", NOT_AUTHORIZED)]
    NotAllowed,
    /// [`ALREADY_HANDED_OVER`] (409).
    #[error("{}", ALREADY_HANDED_OVER)]
    AlreadyHandedOver,
    /// [`HANDOVER_NOT_PAID`] (422).
    #[error("{}", HANDOVER_NOT_PAID)]
    NotPaid,
    /// [`HANDOVER_REFUNDED`]: no unit left, all refunded or in a refund under way (422).
    #[error("{}", HANDOVER_REFUNDED)]
    Refunded,
    /// [`HANDOVER_BY_VOUCHER`] (422).
    #[error("{}", HANDOVER_BY_VOUCHER)]
    ByVoucher,
    /// [`HANDOVER_REFUND_PENDING`]: a refund of the line is under way (422). Handed over
    /// now, a refund the provider then refuses would leave the member's unit behind the
    /// line's one handover.
    #[error("{}", HANDOVER_REFUND_PENDING)]
    RefundPending,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl IntoFailure for NotHandedOver {
    fn into_failure(self) -> Failure {
        let text = self.to_string();
        match self {
            Self::OrderNotFound | Self::LineNotFound => Failure::NotFound(text),
            Self::NotAllowed => Failure::Forbidden(text),
            Self::AlreadyHandedOver => Failure::Conflict(text),
            Self::NotPaid | Self::Refunded | Self::ByVoucher | Self::RefundPending => {
                Failure::invalid(text)
            }
            Self::Database(err) => err.into_failure(),
        }
    }
}

/// Hands line `line_id` of the order of `code` over, once, on the caller's transaction:
/// by staff of its activity's partner (`partner_staff`), never the order's own member. The
/// order's row is taken first (`FOR UPDATE`), as a refund's request takes it, so two
/// counters pressing at once, or a refund asked meanwhile, queue there; the line's unique
/// handover backs it. Answers the order as the staff member now sees it.
pub async fn hand_over(
    conn: &mut PgConnection,
    station_id: StationId,
    staff_user_id: UserId,
    code: &str,
    line_id: i64,
) -> Result<OrderCheck, NotHandedOver> {
    let order: Option<(OrderId, UserId, OrderStatus)> = sqlx::query_as(
        "SELECT id, user_id, status FROM orders WHERE station_id = $1 AND code = $2 FOR UPDATE",
    )
    .bind(station_id)
    .bind(code.trim())
    .fetch_optional(&mut *conn)
    .await?;
    let Some((order_id, member_id, status)) = order else {
        return Err(NotHandedOver::OrderNotFound);
    };
    let line: Option<(Option<i64>, bool)> = sqlx::query_as(
        "SELECT a.partner_id, a.sell_vouchers FROM order_lines l
           JOIN actions a ON a.id = l.action_id
          WHERE l.id = $1 AND l.order_id = $2",
    )
    .bind(line_id)
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((partner_id, sells_vouchers)) = line else {
        return Err(NotHandedOver::LineNotFound);
    };
    let granted: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM partner_staff WHERE user_id = $1 AND partner_id = $2)",
    )
    .bind(staff_user_id)
    .bind(partner_id)
    .fetch_one(&mut *conn)
    .await?;
    if !granted || member_id == staff_user_id {
        return Err(NotHandedOver::NotAllowed);
    }
    let handed: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM order_handovers WHERE order_line_id = $1)",
    )
    .bind(line_id)
    .fetch_one(&mut *conn)
    .await?;
    if handed {
        return Err(NotHandedOver::AlreadyHandedOver);
    }
    if !status.is_paid() {
        return Err(NotHandedOver::NotPaid);
    }
    if sells_vouchers {
        return Err(NotHandedOver::ByVoucher);
    }
    if super::refunds::refund_under_way(conn, line_id).await? {
        return Err(NotHandedOver::RefundPending);
    }
    let units = super::refunds::units_open(conn, line_id).await?;
    if units <= 0 {
        return Err(NotHandedOver::Refunded);
    }
    let inserted = sqlx::query(
        "INSERT INTO order_handovers (order_line_id, quantity, handed_by, handed_by_name)
         SELECT $1, $2, id, name FROM users WHERE id = $3
         ON CONFLICT (order_line_id) DO NOTHING",
    )
    .bind(line_id)
    .bind(units)
    .bind(staff_user_id)
    .execute(&mut *conn)
    .await?;
    if inserted.rows_affected() == 0 {
        return Err(NotHandedOver::AlreadyHandedOver);
    }
    match for_viewer(conn, station_id, staff_user_id, code).await {
        Ok(order) => Ok(order),
        Err(NotShown::Database(err)) => Err(err.into()),
        Err(NotShown::NotFound | NotShown::NotAllowed) => Err(NotHandedOver::NotAllowed),
    }
}
