//! `GET /giveaway-numbers/{userId}` (spec 001 "Lucky numbers"): the member's numbers per
//! giveaway campaign, where the station shows lucky numbers.

use axum::extract::State;
use domain::activities::lucky_numbers::{self, CampaignNumbers};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::actions::own_scope;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::member::Member;
use crate::state::AppState;

pub const LUCKY_NUMBERS_UNAVAILABLE: &str = "Números da sorte não disponíveis.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(giveaway_numbers))
}

/// The caller's lucky numbers
///
/// The station's active giveaway campaigns and any the caller holds numbers in, latest
/// publication first, each with its publication text and the caller's numbers in the order
/// they were given. `{userId}` must be the caller's.
#[utoipa::path(
    get,
    path = "/giveaway-numbers/{userId}",
    tag = "activities",
    security(("member" = [])),
    params(("userId" = i64, Path, description = "The caller's own id")),
    responses(
        (status = 200, description = "The campaigns and the caller's numbers", body = [CampaignNumbers]),
        (status = 403, description = "The id is not the caller's", body = Messages),
        (status = 404, description = "The station does not show lucky numbers", body = ErrorMessage),
    )
)]
async fn giveaway_numbers(
    State(state): State<AppState>,
    member: Member,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<Vec<CampaignNumbers>>> {
    own_scope(member, None, Some(user_id))?;
    lucky_numbers::of_member(&state.db, member.station_id, member.user_id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found(LUCKY_NUMBERS_UNAVAILABLE))
}
