//! The console's top-ups (docs/api-wallet.md "Console"): a station's top-ups, and staff's
//! confirm (a pending transfer request or a paid top-up under review), reject (the same;
//! a review top-up's charge is refunded) and refund (a credited PIX or card top-up: what is
//! unspent is taken back, what was spent becomes a debt). Actions need the `support` role
//! and are audited (`topup.confirm`, `topup.reject`, `topup.refund`).

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::stations::StationError;
use domain::wallet::topups::{self, ConsoleTopUp, Method, Status};
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::params::given;
use crate::error::{ApiError, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::routes::wallet::topups::TopUpView;
use crate::staff::{OpsResult, Staff};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(station_topups))
        .routes(routes!(confirm_topup))
        .routes(routes!(reject_topup))
        .routes(routes!(refund_topup))
}

/// The newest top-ups a page shows.
const LIMIT: i64 = 200;

#[derive(Debug, Deserialize)]
struct TopUpsQuery {
    status: Option<String>,
    method: Option<String>,
}

const BAD_FILTER: &str = "Filtro inválido.";

/// A filter's word as the domain names it (`pending`, `pix`, ...).
fn named<T: serde::de::DeserializeOwned>(text: String) -> OpsResult<T> {
    serde_json::from_value(serde_json::Value::String(text))
        .map_err(|_| ApiError::BadRequest(BAD_FILTER.into()).into())
}

/// A top-up as the console shows it: its member, its charge, and staff's decision.
#[derive(Debug, Serialize, ToSchema)]
struct OpsTopUp {
    #[serde(flatten)]
    topup: TopUpView,
    user_id: i64,
    user_name: String,
    user_email: Option<String>,
    /// The provider's charge id, as its dashboard names it.
    gateway_charge_id: Option<String>,
    paid_at: Option<DateTime<Utc>>,
    /// The staff member who confirmed, rejected or refunded it.
    decided_by: Option<i64>,
    decided_at: Option<DateTime<Utc>>,
    /// When the provider took the refund of a rejected or refunded top-up's charge; null
    /// while it is owed (a `topup.refund` job asks again).
    refund_sent_at: Option<DateTime<Utc>>,
}

impl From<ConsoleTopUp> for OpsTopUp {
    fn from(row: ConsoleTopUp) -> Self {
        let ConsoleTopUp {
            topup,
            user_name,
            user_email,
        } = row;
        Self {
            user_id: topup.user_id,
            user_name,
            user_email,
            gateway_charge_id: topup.gateway_charge_id.clone(),
            paid_at: topup.paid_at,
            decided_by: topup.decided_by,
            decided_at: topup.decided_at,
            refund_sent_at: topup.refund_sent_at,
            topup: topup.into(),
        }
    }
}

/// A station's top-ups
///
/// The newest 200, filtered by `status` (pending, review, credited, failed, expired,
/// rejected, refunded) and `method` (pix, card, transfer). Viewers and support staff,
/// within the grant's stations.
#[utoipa::path(
    get,
    path = "/stations/{id}/topups",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("id" = i64, Path, description = "The station id"),
        ("status" = Option<String>, Query, description = "Only this status"),
        ("method" = Option<String>, Query, description = "Only this method"),
    ),
    responses(
        (status = 200, description = "The top-ups, newest first", body = Vec<OpsTopUp>),
        (status = 400, description = "A parameter is not a number, or an unknown status or method ('Filtro inválido.')", body = Messages),
        (status = 404, description = "No such station in the grant's scope", body = ErrorMessage),
    )
)]
async fn station_topups(
    State(state): State<AppState>,
    staff: Staff,
    Path(station_id): Path<i64>,
    Query(query): Query<TopUpsQuery>,
) -> OpsResult<Json<Vec<OpsTopUp>>> {
    if !staff.scope().covers_station(station_id) {
        return Err(StationError::NotFound.into());
    }
    let status: Option<Status> = given(query.status).map(named).transpose()?;
    let method: Option<Method> = given(query.method).map(named).transpose()?;
    let mut conn = state.db.acquire().await?;
    let list = topups::of_station(&mut conn, station_id, status, method, LIMIT).await?;
    Ok(Json(list.into_iter().map(OpsTopUp::from).collect()))
}

async fn answer(state: &AppState, topup_id: i64) -> OpsResult<Json<OpsTopUp>> {
    let mut conn = state.db.acquire().await?;
    let topup = topups::console_one(&mut conn, topup_id)
        .await?
        .ok_or(topups::TopUpError::NotFound)?;
    Ok(Json(topup.into()))
}

/// Confirms a top-up
///
/// A pending transfer request (not past its expiry) or a paid top-up under review becomes
/// credited: its points are queued, its member e-mailed. Two confirmations at once credit
/// once (the second is 409). Support staff only; audited (`topup.confirm`).
#[utoipa::path(
    post,
    path = "/topups/{id}/confirm",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The top-up's id")),
    responses(
        (status = 200, description = "Credited", body = OpsTopUp),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "a viewer (reads only)", body = ErrorMessage),
        (status = 404, description = "No such top-up in the grant's scope", body = ErrorMessage),
        (status = 409, description = "Not a pending transfer request nor a top-up under review", body = ErrorMessage),
    )
)]
async fn confirm_topup(
    State(state): State<AppState>,
    staff: Staff,
    Path(topup_id): Path<i64>,
) -> OpsResult<Json<OpsTopUp>> {
    staff.require_support()?;
    app::wallet::topups::confirm(
        &state.db,
        &JobOutbox,
        &state.config.public_url,
        staff.scope(),
        staff.user_id(),
        topup_id,
    )
    .await?;
    answer(&state, topup_id).await
}

/// Rejects a top-up
///
/// A pending transfer request or a top-up under review is refused; a review top-up's
/// charge is refunded whole at the provider (asking again re-sends a refund the provider
/// did not take). Support staff only; audited (`topup.reject`).
#[utoipa::path(
    post,
    path = "/topups/{id}/reject",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The top-up's id")),
    responses(
        (status = 200, description = "Rejected", body = OpsTopUp),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "a viewer (reads only)", body = ErrorMessage),
        (status = 404, description = "No such top-up in the grant's scope", body = ErrorMessage),
        (status = 409, description = "Not a pending transfer request nor a top-up under review", body = ErrorMessage),
    )
)]
async fn reject_topup(
    State(state): State<AppState>,
    staff: Staff,
    Path(topup_id): Path<i64>,
) -> OpsResult<Json<OpsTopUp>> {
    staff.require_support()?;
    app::wallet::topups::reject(
        &state.db,
        &state.gateway,
        &JobOutbox,
        staff.scope(),
        staff.user_id(),
        topup_id,
    )
    .await?;
    answer(&state, topup_id).await
}

/// Refunds a credited top-up
///
/// A credited PIX or card top-up: its charge is refunded whole at the provider, what is
/// unspent of its credit is taken out of the wallet and what the member already spent
/// becomes a wallet debt. Support staff only; audited (`topup.refund`).
#[utoipa::path(
    post,
    path = "/topups/{id}/refund",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The top-up's id")),
    responses(
        (status = 200, description = "Refunded", body = OpsTopUp),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "a viewer (reads only)", body = ErrorMessage),
        (status = 404, description = "No such top-up in the grant's scope", body = ErrorMessage),
        (status = 409, description = "Not a credited PIX or card top-up", body = ErrorMessage),
    )
)]
async fn refund_topup(
    State(state): State<AppState>,
    staff: Staff,
    Path(topup_id): Path<i64>,
) -> OpsResult<Json<OpsTopUp>> {
    staff.require_support()?;
    app::wallet::topups::refund(
        &state.db,
        &state.gateway,
        &JobOutbox,
        staff.scope(),
        staff.user_id(),
        topup_id,
    )
    .await?;
    answer(&state, topup_id).await
}
