//! The member's activities (docs/api-activities.md): the list and the featured carousel,
//! one activity, the name search, and `POST /raw-content-participation`, which records a
//! raw content view through the participation rules and queues its credit with it.

use app::activities::participation::Taken;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::Utc;
use domain::activities::ActivityType;
use domain::activities::catalogue::{self, Activity, ActivityCard, Filter};
use domain::activities::participation::{Participated, Refused};
use domain::shared::ids::ActivityId;
use domain::shared::validate;
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::paging::{self, CardsPage, PageQuery};
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::member::{Member, NOT_AUTHORIZED};
use crate::state::AppState;

pub const SEARCH_TERM_MISSING: &str = "Informe o termo da busca.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(actions))
        .routes(routes!(action))
        .routes(routes!(actions_by_name))
        .routes(routes!(establishment_actions))
        .routes(routes!(raw_content_participation))
        .routes(routes!(agreement))
}

/// `where[station_id]` and `where[user_id]` as the spec's screens send them: absent, the
/// caller's; anything else is refused, never answered with another's data.
pub(super) fn own_scope(
    member: Member,
    station_id: Option<i64>,
    user_id: Option<i64>,
) -> ApiResult<()> {
    let others_station = station_id.is_some_and(|id| id != member.station_id);
    let others_user = user_id.is_some_and(|id| id != member.user_id);
    if others_station || others_user {
        Err(ApiError::Forbidden(NOT_AUTHORIZED.into()))
    } else {
        Ok(())
    }
}

#[derive(Debug, Deserialize)]
struct ListQuery {
    #[serde(rename = "where[station_id]")]
    station_id: Option<i64>,
    #[serde(rename = "where[user_id]")]
    user_id: Option<i64>,
    /// `1`: the featured carousel.
    #[serde(rename = "where[featuredPrivate]")]
    featured: Option<i64>,
}

/// The station's published activities, or its featured carousel
///
/// By `priority` (highest first) then id; with `where[featuredPrivate]=1` only the
/// featured ones, by `priorityCarousel` then id. `limit` and `offset` page the list (all
/// of it without `limit`); `X-Total-Count` is the size of the whole list.
#[utoipa::path(
    get,
    path = "/actions/",
    tag = "activities",
    security(("member" = [])),
    params(
        ("where[station_id]" = Option<i64>, Query, description = "The caller's station (the default)"),
        ("where[user_id]" = Option<i64>, Query, description = "The caller's own id (the default)"),
        ("where[featuredPrivate]" = Option<i64>, Query, description = "1: only the featured carousel"),
        ("limit" = Option<i64>, Query, minimum = 1, maximum = 100, description = "At most this many (1 to 100); absent, the first 500"),
        ("offset" = Option<i64>, Query, minimum = 0, description = "Skip this many first (0 by default)"),
    ),
    responses(
        (status = 200, description = "The activities", body = Vec<ActivityCard>,
            headers(("X-Total-Count" = i64, description = "How many activities the whole list holds, whatever the page"))),
        (status = 400, description = "A parameter is not a number, or `limit` or `offset` is out of range", body = Messages),
        (status = 403, description = "the station or user is not the caller's", body = Messages),
    )
)]
async fn actions(
    State(state): State<AppState>,
    member: Member,
    Query(list): Query<ListQuery>,
    Query(page): Query<PageQuery>,
) -> ApiResult<CardsPage> {
    own_scope(member, list.station_id, list.user_id)?;
    let page = paging::page(page)?;
    let filter = Filter {
        featured: list.featured == Some(1),
        ..Filter::default()
    };
    member_page(&state, member, filter, page).await
}

/// A page of the caller's station's list.
async fn member_page(
    state: &AppState,
    member: Member,
    filter: Filter<'_>,
    page: catalogue::Page,
) -> ApiResult<CardsPage> {
    let listed = catalogue::list(
        &state.db,
        member.station_id,
        Some(member.user_id),
        filter,
        page,
    )
    .await?
    .ok_or_else(|| anyhow::anyhow!("the member's station {} is gone", member.station_id))?;
    Ok(CardsPage(listed))
}

#[derive(Debug, Deserialize)]
struct DetailQuery {
    #[serde(rename = "where[user_id]")]
    user_id: Option<i64>,
    /// Accepted as the spec sends it; the answer is the same object.
    #[serde(rename = "flat")]
    _flat: Option<i64>,
}

/// One published activity of the caller's station
#[utoipa::path(
    get,
    path = "/actions/{id}/",
    tag = "activities",
    security(("member" = [])),
    params(
        ("id" = i64, Path, description = "The activity"),
        ("where[user_id]" = Option<i64>, Query, description = "The caller's own id (the default)"),
        ("flat" = Option<i64>, Query, description = "1: the same object (the original left relations out)"),
    ),
    responses(
        (status = 200, description = "The activity", body = Activity),
        (status = 400, description = "The id or a parameter is not a number", body = Messages),
        (status = 403, description = "the user is not the caller", body = Messages),
        (status = 404, description = "Unknown, unpublished or another station's activity", body = ErrorMessage),
    )
)]
async fn action(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
    Query(detail): Query<DetailQuery>,
) -> ApiResult<Json<Activity>> {
    own_scope(member, None, detail.user_id)?;
    let activity = catalogue::detail(&state.db, member.station_id, Some(member.user_id), id)
        .await?
        .ok_or(Refused::Unavailable)?;
    Ok(Json(activity))
}

#[derive(Debug, Deserialize)]
struct SearchQuery {
    #[serde(rename = "where[name]")]
    name: Option<String>,
    #[serde(rename = "where[station_id]")]
    station_id: Option<i64>,
    #[serde(rename = "where[user_id]")]
    user_id: Option<i64>,
}

/// The station's published activities whose name contains the term
///
/// Case and accents are ignored: `cafe` finds "Café". Ordered and paged as `/actions/`.
#[utoipa::path(
    get,
    path = "/actions-by-name/",
    tag = "activities",
    security(("member" = [])),
    params(
        ("where[name]" = String, Query, description = "The search term"),
        ("where[station_id]" = Option<i64>, Query, description = "The caller's station (the default)"),
        ("where[user_id]" = Option<i64>, Query, description = "The caller's own id (the default)"),
        ("limit" = Option<i64>, Query, minimum = 1, maximum = 100, description = "At most this many (1 to 100); absent, the first 500"),
        ("offset" = Option<i64>, Query, minimum = 0, description = "Skip this many first (0 by default)"),
    ),
    responses(
        (status = 200, description = "The activities found", body = Vec<ActivityCard>,
            headers(("X-Total-Count" = i64, description = "How many activities were found, whatever the page"))),
        (status = 400, description = "A parameter is not a number, or `limit` or `offset` is out of range", body = Messages),
        (status = 403, description = "the station or user is not the caller's", body = Messages),
        (status = 422, description = "No search term", body = Messages),
    )
)]
async fn actions_by_name(
    State(state): State<AppState>,
    member: Member,
    Query(search): Query<SearchQuery>,
    Query(page): Query<PageQuery>,
) -> ApiResult<CardsPage> {
    own_scope(member, search.station_id, search.user_id)?;
    let page = paging::page(page)?;
    let term = search.name.as_deref().map(str::trim).unwrap_or_default();
    if term.is_empty() {
        return Err(ApiError::invalid(SEARCH_TERM_MISSING));
    }
    let filter = Filter {
        name: Some(term),
        ..Filter::default()
    };
    member_page(&state, member, filter, page).await
}

/// The published activities of the caller's station, by the caller's id
#[utoipa::path(
    get,
    path = "/actions/establishment/user/{id}",
    tag = "activities",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    responses(
        (status = 200, description = "The activities", body = Vec<ActivityCard>),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "the id is not the caller's", body = Messages),
    )
)]
async fn establishment_actions(
    State(state): State<AppState>,
    member: Member,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<Vec<ActivityCard>>> {
    own_scope(member, None, Some(user_id))?;
    let cards = catalogue::cards(
        &state.db,
        member.station_id,
        Some(member.user_id),
        Filter::default(),
    )
    .await?;
    Ok(Json(cards))
}

#[derive(Debug, Deserialize, ToSchema)]
struct RawContentVisit {
    action_id: i64,
}

/// A participation that is one act (a raw content view, an agreement) as recorded.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ParticipationRecorded {
    /// Whether this call recorded the participation (201); false when it answers an earlier
    /// call's (200), so the web congratulates a member once.
    recorded: bool,
    participation_id: i64,
    action_id: i64,
    points: i32,
    /// `points` + `additional_cashback`.
    cashback: i64,
    /// The `points.credit` job of the participation; null when the activity pays no points.
    job_id: Option<String>,
}

/// Records a one-act participation of the caller in `action_id` of `kind`, with its
/// credit queued on the same transaction, keyed by the participation (so it pays once).
async fn take_part(
    state: &AppState,
    member: Member,
    action_id: i64,
    kind: ActivityType,
) -> ApiResult<(StatusCode, Json<ParticipationRecorded>)> {
    let taken = app::activities::participation::take_part(
        &state.db,
        &JobOutbox,
        member.user(),
        member.station(),
        ActivityId(action_id),
        kind,
        Utc::now(),
    )
    .await?;
    Ok(participated(&member, taken, kind))
}

/// Answers a call that took part: 201, or 200 for an earlier call's participation.
pub(super) fn participated(
    member: &Member,
    Taken {
        taken,
        credit_job: job,
    }: Taken<Participated>,
    kind: ActivityType,
) -> (StatusCode, Json<ParticipationRecorded>) {
    let status = if taken.created {
        tracing::info!(
            user_id = member.user_id,
            action_id = taken.action_id.0,
            participation_id = taken.participation_id,
            type_id = kind.id(),
            "participation"
        );
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    (
        status,
        Json(ParticipationRecorded {
            recorded: taken.created,
            participation_id: taken.participation_id,
            action_id: taken.action_id.0,
            points: taken.points,
            cashback: taken.cashback,
            job_id: job.map(|job| job.job_id),
        }),
    )
}

/// Records the caller's view of a raw content activity (type 16)
///
/// Through the participation rules (station, window, limit, prerequisites). Each view is a
/// participation up to `limitPerUser`; without a limit the first view is the participation
/// and later views answer it again (200) with no new credit. The credit is queued with the
/// participation and keyed by it, so it is paid once.
#[utoipa::path(
    post,
    path = "/raw-content-participation",
    tag = "activities",
    security(("member" = [])),
    request_body = RawContentVisit,
    responses(
        (status = 201, description = "The view was recorded as a participation", body = ParticipationRecorded),
        (status = 200, description = "The view found the participation an earlier view recorded", body = ParticipationRecorded),
        (status = 404, description = "Unknown, unpublished, another station's or not a raw content activity", body = ErrorMessage),
        (status = 422, description = "Outside the participation window, a date missing, the limit reached or a prerequisite not done", body = Messages),
    )
)]
async fn raw_content_participation(
    State(state): State<AppState>,
    member: Member,
    Json(visit): Json<RawContentVisit>,
) -> ApiResult<(StatusCode, Json<ParticipationRecorded>)> {
    take_part(&state, member, visit.action_id, ActivityType::RawContent).await
}

/// The member's acceptance of an agreement activity's terms.
#[derive(Debug, Deserialize, ToSchema)]
struct AgreementAccepted {
    action_id: i64,
    /// The agreement's checkbox, ticked; false or missing is refused (spec 001: required).
    #[serde(default)]
    accepted: Option<bool>,
}

/// Records the caller's acceptance of an agreement activity (type 15)
///
/// The terms' checkbox must be ticked (`accepted: true`). Through the participation rules,
/// as a raw content view: each acceptance is a participation up to `limitPerUser`; without
/// a limit the first is the participation and later ones answer it again (200).
#[utoipa::path(
    post,
    path = "/agreement",
    tag = "activities",
    security(("member" = [])),
    request_body = AgreementAccepted,
    responses(
        (status = 201, description = "The acceptance was recorded as a participation", body = ParticipationRecorded),
        (status = 200, description = "An earlier acceptance was the participation", body = ParticipationRecorded),
        (status = 404, description = "Unknown, unpublished, another station's or not an agreement activity", body = ErrorMessage),
        (status = 422, description = "The checkbox not ticked; outside the window, a date missing, the limit reached or a prerequisite not done", body = Messages),
    )
)]
async fn agreement(
    State(state): State<AppState>,
    member: Member,
    Json(agreement): Json<AgreementAccepted>,
) -> ApiResult<(StatusCode, Json<ParticipationRecorded>)> {
    if agreement.accepted != Some(true) {
        return Err(ApiError::invalid(validate::message::REQUIRED));
    }
    take_part(&state, member, agreement.action_id, ActivityType::Agreement).await
}
