//! The home's rows (docs/api-activities.md): journeys, now playing, and categories, each
//! with the published activities of the caller's station in it.

use axum::extract::State;
use domain::activities::rows;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::actions::ActivityCard;
use crate::error::{ApiResult, Messages};
use crate::extract::{Json, Query};
use crate::member::Member;
use crate::member::own_scope;
use crate::paging::{self, PageQuery};
use crate::state::AppState;

/// A journey's activity, with whether the caller has done it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct JourneyActivity {
    #[serde(flatten)]
    pub card: ActivityCard,
    #[serde(rename = "hasDone")]
    pub has_done: bool,
}

impl From<rows::JourneyActivity> for JourneyActivity {
    fn from(activity: rows::JourneyActivity) -> Self {
        let rows::JourneyActivity { card, has_done } = activity;
        Self {
            card: card.into(),
            has_done,
        }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Journey {
    pub id: i64,
    pub name: String,
    /// How many of its activities the caller has done.
    pub completed: usize,
    /// In the journey's order, the done ones first.
    pub actions: Vec<JourneyActivity>,
}

impl From<rows::Journey> for Journey {
    fn from(journey: rows::Journey) -> Self {
        let rows::Journey {
            id,
            name,
            completed,
            activities,
        } = journey;
        Self {
            id,
            name,
            completed,
            actions: activities.into_iter().map(JourneyActivity::from).collect(),
        }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NowPlaying {
    pub id: i64,
    pub title: String,
    pub actions: Vec<ActivityCard>,
}

impl From<rows::NowPlaying> for NowPlaying {
    fn from(playing: rows::NowPlaying) -> Self {
        let rows::NowPlaying {
            id,
            title,
            activities,
        } = playing;
        Self {
            id,
            title,
            actions: activities.into_iter().map(ActivityCard::from).collect(),
        }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CategoryAction {
    pub action: ActivityCard,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ParticipantCategory {
    pub id: i64,
    pub name: String,
    pub icon: Option<String>,
    /// Its published activities, whatever the page.
    pub actions_count: i64,
    /// The page of its published activities, in the category's order.
    pub category_actions: Vec<CategoryAction>,
}

impl From<rows::Category> for ParticipantCategory {
    fn from(category: rows::Category) -> Self {
        let rows::Category {
            id,
            name,
            icon,
            activity_count,
            activities,
        } = category;
        Self {
            id,
            name,
            icon,
            actions_count: activity_count,
            category_actions: activities
                .into_iter()
                .map(|card| CategoryAction {
                    action: card.into(),
                })
                .collect(),
        }
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(journeys))
        .routes(routes!(now_playing))
        .routes(routes!(participant_categories))
}

/// The station's journeys
///
/// Each journey's activities in their order with the ones the caller has done moved first;
/// `completed` counts them.
#[utoipa::path(
    get,
    path = "/journeys",
    tag = "activities",
    security(("member" = [])),
    responses(
        (status = 200, description = "The journeys", body = Vec<Journey>),
    )
)]
async fn journeys(State(state): State<AppState>, member: Member) -> ApiResult<Json<Vec<Journey>>> {
    let journeys = rows::journeys(&state.db, member.station(), member.user()).await?;
    Ok(Json(journeys.into_iter().map(Journey::from).collect()))
}

/// The station's now-playing rows
#[utoipa::path(
    get,
    path = "/now-playing",
    tag = "activities",
    security(("member" = [])),
    responses(
        (status = 200, description = "The rows", body = Vec<NowPlaying>),
    )
)]
async fn now_playing(
    State(state): State<AppState>,
    member: Member,
) -> ApiResult<Json<Vec<NowPlaying>>> {
    let playing = rows::now_playing(&state.db, member.station(), member.user()).await?;
    Ok(Json(playing.into_iter().map(NowPlaying::from).collect()))
}

#[derive(Debug, Deserialize)]
struct CategoriesQuery {
    #[serde(rename = "where[station_id]")]
    station_id: Option<i64>,
    #[serde(rename = "where[user_id]")]
    user_id: Option<i64>,
    #[serde(rename = "where[id]")]
    id: Option<i64>,
}

/// The station's categories and their activities
///
/// `where[id]` narrows the answer to one category (another station's answers `[]`).
/// `limit` and `offset` page each category's published activities, in the category's
/// order (all of them without `limit`); `actions_count` is how many it has in all.
#[utoipa::path(
    get,
    path = "/participant-categories/",
    tag = "activities",
    security(("member" = [])),
    params(
        ("where[station_id]" = Option<i64>, Query, description = "The caller's station (the default)"),
        ("where[user_id]" = Option<i64>, Query, description = "The caller's own id (the default)"),
        ("where[id]" = Option<i64>, Query, description = "Only this category"),
        ("limit" = Option<i64>, Query, minimum = 1, maximum = 100, description = "At most this many activities per category (1 to 100); absent, the first 500"),
        ("offset" = Option<i64>, Query, minimum = 0, description = "Skip this many of each category's activities first (0 by default)"),
    ),
    responses(
        (status = 200, description = "The categories", body = Vec<ParticipantCategory>),
        (status = 400, description = "A parameter is not a number, or `limit` or `offset` is out of range", body = Messages),
        (status = 403, description = "the station or user is not the caller's", body = Messages),
    )
)]
async fn participant_categories(
    State(state): State<AppState>,
    member: Member,
    Query(categories): Query<CategoriesQuery>,
    Query(page): Query<PageQuery>,
) -> ApiResult<Json<Vec<ParticipantCategory>>> {
    own_scope(member, categories.station_id, categories.user_id)?;
    let page = paging::page(page)?;
    let found = rows::categories(
        &state.db,
        member.station(),
        member.user(),
        categories.id,
        page,
    )
    .await?;
    Ok(Json(
        found.into_iter().map(ParticipantCategory::from).collect(),
    ))
}
