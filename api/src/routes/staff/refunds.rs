//! `POST /api/ops/orders/{id}/refunds`: support staff refund all or part of an order from
//! the console. The refund is recorded with its `order.refund` job and its audit entry in
//! one transaction; the job does the rest (docs/api-commerce.md, "Refunds").

use axum::extract::State;
use axum::http::StatusCode;
use domain::commerce::refunds::RefundRequest;
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::staff::{OpsResult, Staff};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(refund_order))
}

#[derive(Debug, Deserialize, ToSchema)]
struct RefundLine {
    /// An order line's id.
    order_line_id: i64,
    quantity: i32,
}

#[derive(Debug, Deserialize, ToSchema)]
struct RefundBody {
    /// The units to refund; absent or null: everything still paid for.
    #[serde(default)]
    lines: Option<Vec<RefundLine>>,
    /// Why (kept with the refund and in the audit log).
    #[serde(default)]
    reason: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct RefundQueued {
    refund_id: i64,
    /// Centavos: card or PIX part first, the rest to the wallet.
    amount: i64,
    gateway_cents: i64,
    wallet_cents: i64,
    /// The `order.refund` job; follow it in the console.
    job_id: String,
}

/// Refunds all or part of an order
#[utoipa::path(
    post,
    path = "/orders/{id}/refunds",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The order's id")),
    request_body = RefundBody,
    responses(
        (status = 202, description = "The refund is recorded and its job queued", body = RefundQueued),
        (status = 403, description = "a viewer (reads only)", body = ErrorMessage),
        (status = 404, description = "No such order in the grant's scope", body = ErrorMessage),
        (status = 422, description = "Not paid, a bad line or quantity, nothing left to refund, or more units than the line has unused vouchers ('Só unidades com voucher ainda não utilizado podem ser estornadas.')", body = Messages),
    )
)]
async fn refund_order(
    State(state): State<AppState>,
    staff: Staff,
    Path(order_id): Path<i64>,
    Json(body): Json<RefundBody>,
) -> OpsResult<(StatusCode, Json<RefundQueued>)> {
    staff.require_support()?;
    let wanted = RefundRequest {
        lines: body.lines.map(|lines| {
            lines
                .into_iter()
                .map(|l| (l.order_line_id, l.quantity))
                .collect()
        }),
        reason: body.reason,
    };
    let queued = app::commerce::refunds::request(
        &state.db,
        &JobOutbox,
        staff.user_id(),
        staff.scope(),
        order_id,
        &wanted,
    )
    .await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(RefundQueued {
            refund_id: queued.requested.refund_id,
            amount: queued.requested.amount,
            gateway_cents: queued.requested.gateway_cents,
            wallet_cents: queued.requested.wallet_cents,
            job_id: queued.job_id,
        }),
    ))
}
