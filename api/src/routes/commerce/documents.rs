//! The member's PDFs: `GET /product-orders/{id}/receipt` and `GET /vouchers/{code}/pdf`.
//! A stored PDF is streamed to its owner (200, `application/pdf`); one not made yet
//! answers 202 with the id of the job making it (enqueued again if it had failed), which
//! the web app follows at `GET /api/jobs/{id}` before downloading; an order not paid
//! answers 409. Another member's order or voucher is refused.

use app::commerce::orders;
use axum::body::Body;
use axum::extract::State;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use domain::commerce::vouchers::{self, VOUCHER_NOT_FOUND};
use domain::commerce::{ORDER_NOT_FOUND, fulfilment};
use domain::shared::ids::OrderId;
use jobs::JobOutbox;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::own;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::Path;
use crate::member::Member;
use crate::state::AppState;

/// 409: the order has no receipt until it is paid.
pub const RECEIPT_NOT_YET: &str = "O comprovante fica disponível após a confirmação do pagamento.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(receipt))
        .routes(routes!(voucher_pdf))
}

/// The PDF is being made: follow the job, then ask again.
#[derive(Debug, Serialize, ToSchema)]
pub struct Making {
    pub job_id: String,
}

/// Streams a stored PDF to its owner, never cached on the way.
pub(crate) async fn stream_pdf(
    state: &AppState,
    key: &str,
    file_name: &str,
) -> ApiResult<Response> {
    let opened = state
        .objects
        .open(key, None)
        .await?
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("stored PDF {key} is missing")))?;
    let mut response = (StatusCode::OK, Body::from_stream(opened.bytes)).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/pdf"));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\"")) {
        headers.insert(CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

/// 202: the PDF is being made by this job.
pub(crate) fn making(job_id: String) -> Response {
    (StatusCode::ACCEPTED, axum::Json(Making { job_id })).into_response()
}

/// The receipt of one of the caller's orders, as a PDF
#[utoipa::path(
    get,
    path = "/product-orders/{id}/receipt",
    tag = "commerce",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The order's id")),
    responses(
        (status = 200, description = "The receipt", content_type = "application/pdf", body = Vec<u8>),
        (status = 202, description = "Being made: follow the job at /api/jobs/{job_id}, then ask again", body = Making),
        (status = 403, description = "Another member's order", body = Messages),
        (status = 404, description = "No such order in the caller's station", body = ErrorMessage),
        (status = 409, description = "The order is not paid", body = ErrorMessage),
    )
)]
async fn receipt(
    State(state): State<AppState>,
    member: Member,
    Path(order_id): Path<i64>,
) -> ApiResult<Response> {
    let mut conn = state.db.acquire().await?;
    let order = fulfilment::receipt_state(&mut conn, member.station_id, order_id)
        .await?
        .ok_or_else(|| ApiError::not_found(ORDER_NOT_FOUND))?;
    drop(conn);
    own(member, order.user_id)?;
    if let Some(key) = &order.receipt_key {
        return stream_pdf(&state, key, &format!("pedido-{}.pdf", order.code)).await;
    }
    if !order.has_receipt() {
        return Ok((
            StatusCode::CONFLICT,
            axum::Json(ErrorMessage {
                error: RECEIPT_NOT_YET.into(),
            }),
        )
            .into_response());
    }
    let job = orders::make_receipt(
        &state.db,
        &JobOutbox,
        member.station(),
        member.user(),
        OrderId(order_id),
    )
    .await?;
    Ok(making(job))
}

/// One of the caller's vouchers, as a PDF
#[utoipa::path(
    get,
    path = "/vouchers/{code}/pdf",
    tag = "commerce",
    security(("member" = [])),
    params(("code" = String, Path, description = "The voucher's code")),
    responses(
        (status = 200, description = "The voucher", content_type = "application/pdf", body = Vec<u8>),
        (status = 202, description = "Being made: follow the job at /api/jobs/{job_id}, then ask again", body = Making),
        (status = 403, description = "Another member's voucher", body = Messages),
        (status = 404, description = "No such voucher in the caller's station", body = ErrorMessage),
    )
)]
async fn voucher_pdf(
    State(state): State<AppState>,
    member: Member,
    Path(code): Path<String>,
) -> ApiResult<Response> {
    let mut conn = state.db.acquire().await?;
    let found = vouchers::by_code(&mut conn, member.station_id, &code)
        .await?
        .ok_or_else(|| ApiError::not_found(VOUCHER_NOT_FOUND))?;
    drop(conn);
    own(member, found.user_id)?;
    if let Some(key) = &found.pdf_key {
        return stream_pdf(&state, key, &format!("voucher-{}.pdf", found.view.code)).await;
    }
    let job = orders::make_voucher(
        &state.db,
        &JobOutbox,
        member.station(),
        member.user(),
        found.voucher_id,
    )
    .await?;
    Ok(making(job))
}
