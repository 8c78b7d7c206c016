//! `POST /user-donates` (spec 001, type 20): the member donates part of the wallet to a
//! donation activity; the donation is the participation, and earns the activity's points.

use app::activities::participation::{self, Taken};
use axum::extract::State;
use axum::http::StatusCode;
use chrono::Utc;
use domain::shared::ids::ActivityId;
use domain::shared::money::parse_reais;
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::member::Member;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(donate))
}

/// The spec's payload: `points` is the amount in reais (a wallet point is R$ 1,00), a
/// number or a decimal text ("10.50", "10,50").
#[derive(Debug, Deserialize, ToSchema)]
struct DonationRequest {
    action_id: i64,
    #[schema(value_type = f64, examples(25.5))]
    points: Value,
}

#[derive(Debug, Serialize, ToSchema)]
struct Donation {
    participation_id: i64,
    action_id: i64,
    /// What was donated, in centavos.
    amount: i64,
    /// The activity's points and `points` + `additional_cashback`, as the member earns them.
    points: i32,
    cashback: i64,
    /// The `points.credit` job of the participation; null when the activity pays no points.
    job_id: Option<String>,
}

const AMOUNT_INVALID: &str = "Informe o valor da doação.";

/// Donates part of the caller's wallet to a donation activity (type 20)
///
/// Through the participation rules (station, window, limit, prerequisites): the donation is
/// recorded as a participation and spent from the wallet on one transaction; the activity's
/// points are credited keyed by that participation. Between R$ 0,50 and R$ 10.000,00.
#[utoipa::path(
    post,
    path = "/user-donates",
    tag = "activities",
    security(("member" = [])),
    request_body = DonationRequest,
    responses(
        (status = 201, description = "Donated", body = Donation),
        (status = 404, description = "Unknown, unpublished, another station's or not a donation activity", body = ErrorMessage),
        (status = 422, description = "The amount out of bounds or past the balance; outside the window, a date missing, the limit reached or a prerequisite not done", body = Messages),
    )
)]
async fn donate(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<DonationRequest>,
) -> ApiResult<(StatusCode, Json<Donation>)> {
    let amount = match &request.points {
        Value::Number(number) => parse_reais(&number.to_string()),
        Value::String(text) => parse_reais(text),
        _ => None,
    }
    .ok_or_else(|| ApiError::invalid(AMOUNT_INVALID))?;
    let Taken {
        taken: donated,
        credit_job: job,
    } = participation::donate(
        &state.db,
        &JobOutbox,
        member.user(),
        member.station(),
        ActivityId(request.action_id),
        amount,
        Utc::now(),
    )
    .await?;
    tracing::info!(
        user_id = member.user_id,
        action_id = donated.action_id.0,
        participation_id = donated.participation_id,
        "donation"
    );
    Ok((
        StatusCode::CREATED,
        Json(Donation {
            participation_id: donated.participation_id,
            action_id: donated.action_id.0,
            amount: donated.amount_cents,
            points: donated.points,
            cashback: donated.cashback,
            job_id: job.map(|job| job.job_id),
        }),
    ))
}
