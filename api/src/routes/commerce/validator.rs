//! The partner's validator (the QR code of a voucher opens `{host}/validador/{code}`):
//! `GET /validator/vouchers/{code}` shows the voucher and `POST` marks it used, once. Only
//! an account a partner granted (`partner_staff`) for the voucher's activity may do
//! either; a second use answers 409 'Este voucher já foi utilizado!'. A receipt's QR code
//! opens `{host}/validador/pedido/{code}`: `GET /validator/orders/{code}` shows the order to
//! its partner's staff and to its own member, and `POST
//! /validator/orders/{code}/lines/{line_id}/handover` lets the partner's staff hand a line
//! over, once (a second answers 409 'Este item já foi entregue.').

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use domain::commerce::order_check;
use domain::commerce::vouchers::{self, NotValidated};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::vouchers::VoucherView;

use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::member::Member;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(show, validate))
        .routes(routes!(order))
        .routes(routes!(hand_over))
}

#[derive(Debug, Serialize, ToSchema)]
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

impl From<order_check::OrderCheck> for OrderCheck {
    fn from(order: order_check::OrderCheck) -> Self {
        let order_check::OrderCheck {
            code,
            status,
            paid,
            refunded,
            member_name,
            created_at,
            hands_over,
            lines,
            deliveries,
        } = order;
        Self {
            code,
            status,
            paid,
            refunded,
            member_name,
            created_at,
            hands_over,
            lines: lines.into_iter().map(OrderCheckLine::from).collect(),
            deliveries: deliveries
                .into_iter()
                .map(OrderCheckDelivery::from)
                .collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
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

impl From<order_check::OrderCheckLine> for OrderCheckLine {
    fn from(line: order_check::OrderCheckLine) -> Self {
        let order_check::OrderCheckLine {
            id,
            product,
            quantity,
            vouchers,
            handed_over,
        } = line;
        Self {
            id,
            product,
            quantity,
            vouchers,
            handed_over: handed_over.map(Handover::from),
        }
    }
}

/// A line handed over at the partner's counter.
#[derive(Debug, Serialize, ToSchema)]
pub struct Handover {
    /// Units handed over.
    pub quantity: i32,
    /// The name of the partner's staff member who handed it over.
    pub by: String,
    pub at: DateTime<Utc>,
}

impl From<order_check::Handover> for Handover {
    fn from(handover: order_check::Handover) -> Self {
        let order_check::Handover { quantity, by, at } = handover;
        Self { quantity, by, at }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrderCheckDelivery {
    pub location: String,
    pub pickup: bool,
    /// Where it goes (home delivery) or where it is picked up.
    pub address: Option<String>,
}

impl From<order_check::OrderCheckDelivery> for OrderCheckDelivery {
    fn from(delivery: order_check::OrderCheckDelivery) -> Self {
        let order_check::OrderCheckDelivery {
            location,
            pickup,
            address,
        } = delivery;
        Self {
            location,
            pickup,
            address,
        }
    }
}

/// The validator's answer to a voucher not used now. A spent voucher's 409 carries its text
/// in the `messages` envelope (spec 002's validator reads it there), not the `error` one
/// every other conflict has.
fn refused(reason: NotValidated) -> ApiResult<Response> {
    if reason.is_spent() {
        let messages = vec![reason.to_string()];
        return Ok((StatusCode::CONFLICT, axum::Json(Messages { messages })).into_response());
    }
    Err(reason.into())
}

/// A voucher, as its partner's validator sees it
#[utoipa::path(
    get,
    path = "/validator/vouchers/{code}",
    tag = "commerce",
    security(("member" = [])),
    params(("code" = String, Path, description = "The voucher's code (the QR code's link ends with it)")),
    responses(
        (status = 200, description = "The voucher; `validated` '0' is unused", body = VoucherView),
        (status = 403, description = "The caller validates for no partner of this activity", body = Messages),
        (status = 404, description = "No such voucher in the caller's station", body = ErrorMessage),
    )
)]
async fn show(
    State(state): State<AppState>,
    member: Member,
    Path(code): Path<String>,
) -> ApiResult<Response> {
    let mut conn = state.db.acquire().await?;
    match vouchers::for_partner(&mut conn, member.station(), member.user(), &code).await {
        Ok(found) => Ok(Json(VoucherView::from(found.view)).into_response()),
        Err(reason) => refused(reason),
    }
}

/// Marks a voucher used, once
#[utoipa::path(
    post,
    path = "/validator/vouchers/{code}",
    tag = "commerce",
    security(("member" = [])),
    params(("code" = String, Path, description = "The voucher's code")),
    responses(
        (status = 200, description = "Used now; `validated` is '1'", body = VoucherView),
        (status = 403, description = "The caller validates for no partner of this activity", body = Messages),
        (status = 404, description = "No such voucher in the caller's station", body = ErrorMessage),
        (status = 409, description = "'Este voucher já foi utilizado!', or 'Este voucher foi estornado e não pode mais ser utilizado.' (its unit refunded or in a refund under way)", body = Messages),
    )
)]
async fn validate(
    State(state): State<AppState>,
    member: Member,
    Path(code): Path<String>,
) -> ApiResult<Response> {
    match app::commerce::vouchers::validate(&state.db, member.station(), member.user(), &code).await
    {
        Ok(found) => Ok(Json(VoucherView::from(found.view)).into_response()),
        Err(reason) => refused(reason),
    }
}

/// An order, as the one handing it over sees it
///
/// Where a receipt's QR code leads: whether the order is paid, what was bought (less what
/// was refunded) and where it goes. For staff of a partner of one of its activities, and
/// for the member who bought it.
#[utoipa::path(
    get,
    path = "/validator/orders/{code}",
    tag = "commerce",
    security(("member" = [])),
    params(("code" = String, Path, description = "The order's code (the QR code's link ends with it)")),
    responses(
        (status = 200, description = "The order", body = OrderCheck),
        (status = 403, description = "Neither the order's member nor its partner's staff", body = Messages),
        (status = 404, description = "No such order in the caller's station", body = ErrorMessage),
    )
)]
async fn order(
    State(state): State<AppState>,
    member: Member,
    Path(code): Path<String>,
) -> ApiResult<Json<OrderCheck>> {
    let mut conn = state.db.acquire().await?;
    let order = order_check::for_viewer(&mut conn, member.station(), member.user(), &code).await?;
    Ok(Json(order.into()))
}

/// Hands a line of an order over, once
///
/// At the partner's counter, on the page a receipt's QR code opens: records who handed the
/// line's units (those not refunded) over and when. Only staff of the line's activity's
/// partner, never the order's own member; lines of activities that sell vouchers are handed
/// over by their vouchers.
#[utoipa::path(
    post,
    path = "/validator/orders/{code}/lines/{line_id}/handover",
    tag = "commerce",
    security(("member" = [])),
    params(
        ("code" = String, Path, description = "The order's code"),
        ("line_id" = i64, Path, description = "The order line's id (`lines[].id`)"),
    ),
    responses(
        (status = 200, description = "Handed over now: the order, the line's `handed_over` set", body = OrderCheck),
        (status = 403, description = "Not staff of the line's partner, or the order's own member", body = Messages),
        (status = 404, description = "No such order in the caller's station, or no such line in it", body = ErrorMessage),
        (status = 409, description = "'Este item já foi entregue.'", body = ErrorMessage),
        (status = 422, description = "Not paid, every unit refunded, a refund of the line under way, or a line handed over by its vouchers", body = Messages),
    )
)]
async fn hand_over(
    State(state): State<AppState>,
    member: Member,
    Path((code, line_id)): Path<(String, i64)>,
) -> ApiResult<Json<OrderCheck>> {
    let order = app::commerce::orders::hand_over(
        &state.db,
        member.station(),
        member.user(),
        &code,
        line_id,
    )
    .await?;
    Ok(Json(order.into()))
}
