//! `GET /giveaway-numbers/{userId}` (spec 001 "Lucky numbers"): the member's numbers per
//! giveaway campaign, where the station shows lucky numbers.

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::activities::lucky_numbers;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::member::Member;
use crate::member::own_scope;
use crate::state::AppState;

pub const LUCKY_NUMBERS_UNAVAILABLE: &str = "Números da sorte não disponíveis.";

/// A number a member holds.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LuckyNumber {
    /// Zero-padded to the campaign's width ("04217").
    pub number: String,
    pub participation_id: i64,
    pub action_id: i64,
    /// The activity whose participation gave it.
    pub action_name: String,
    /// When the participation was completed.
    pub participated_at: DateTime<Utc>,
    /// When the number was given.
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
}

impl From<lucky_numbers::LuckyNumber> for LuckyNumber {
    fn from(number: lucky_numbers::LuckyNumber) -> Self {
        Self {
            number: number.number,
            participation_id: number.participation_id,
            action_id: number.action_id.0,
            action_name: number.action_name,
            participated_at: number.participated_at,
            created_at: number.granted_at,
        }
    }
}

/// A campaign as the member's screen shows it, with the member's numbers in it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CampaignNumbers {
    pub id: i64,
    pub name: String,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub publish_at: DateTime<Utc>,
    /// "Os números da sorte serão publicados até 01/02/2023 às 16h." (the station's time).
    pub publication_text: String,
    /// The member's numbers, in the order they were given.
    pub numbers: Vec<LuckyNumber>,
}

impl From<lucky_numbers::CampaignNumbers> for CampaignNumbers {
    fn from(campaign: lucky_numbers::CampaignNumbers) -> Self {
        Self {
            id: campaign.id,
            name: campaign.name,
            starts_at: campaign.starts_at,
            ends_at: campaign.ends_at,
            publish_at: campaign.publish_at,
            publication_text: campaign.publication_text,
            numbers: campaign
                .numbers
                .into_iter()
                .map(LuckyNumber::from)
                .collect(),
        }
    }
}

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
    lucky_numbers::of_member(&state.db, member.station(), member.user())
        .await?
        .map(|campaigns| Json(campaigns.into_iter().map(CampaignNumbers::from).collect()))
        .ok_or_else(|| ApiError::not_found(LUCKY_NUMBERS_UNAVAILABLE))
}
