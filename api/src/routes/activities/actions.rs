//! The member's activities (docs/api-activities.md): the list and the featured carousel,
//! one activity, the name search, and `POST /raw-content-participation`, which records a
//! raw content view through the participation rules and queues its credit with it.

use crate::member::own_scope;
use app::activities::participation::Taken;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use domain::activities::ActivityType;
use domain::activities::catalogue::{self, Filter};
use domain::activities::participation::{Participated, Refused};
use domain::activities::videos;
use domain::shared::ids::ActivityId;
use domain::shared::paging::Page;
use domain::shared::validate;
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::videos::UserVideo;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::member::Member;
use crate::paging::{self, PageQuery, Paged};
use crate::state::AppState;

pub const SEARCH_TERM_MISSING: &str = "Informe o termo da busca.";

/// Whether the caller may take part now, in the order the rules are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Availability {
    DateMissing,
    NotStarted,
    Ended,
    LimitReached,
    Open,
}

impl From<catalogue::Availability> for Availability {
    fn from(availability: catalogue::Availability) -> Self {
        match availability {
            catalogue::Availability::DateMissing => Self::DateMissing,
            catalogue::Availability::NotStarted => Self::NotStarted,
            catalogue::Availability::Ended => Self::Ended,
            catalogue::Availability::LimitReached => Self::LimitReached,
            catalogue::Availability::Open => Self::Open,
        }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RedirectLink {
    pub url: String,
}

impl From<catalogue::RedirectLink> for RedirectLink {
    fn from(link: catalogue::RedirectLink) -> Self {
        let catalogue::RedirectLink { url } = link;
        Self { url }
    }
}

/// An activity this one requires, `done` when the caller has taken part in it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RequiredActivity {
    pub id: i64,
    pub name: String,
    pub done: bool,
}

impl From<catalogue::RequiredActivity> for RequiredActivity {
    fn from(required: catalogue::RequiredActivity) -> Self {
        let catalogue::RequiredActivity { id, name, done } = required;
        Self {
            id: id.0,
            name,
            done,
        }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Prerequisites {
    pub action_has_prerequisites: bool,
    pub user_done_prerequisites: bool,
    pub action_prerequisites: Vec<RequiredActivity>,
}

impl From<catalogue::Prerequisites> for Prerequisites {
    fn from(prerequisites: catalogue::Prerequisites) -> Self {
        let catalogue::Prerequisites {
            any,
            all_done,
            activities,
        } = prerequisites;
        Self {
            action_has_prerequisites: any,
            user_done_prerequisites: all_done,
            action_prerequisites: activities.into_iter().map(RequiredActivity::from).collect(),
        }
    }
}

/// What rows, grids and search results show of an activity.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ActivityCard {
    pub id: i64,
    pub name: String,
    pub image: Option<String>,
    #[serde(rename = "featuredImage")]
    pub featured_image: Option<String>,
    #[schema(value_type = i16)]
    pub type_id: ActivityType,
    #[serde(rename = "type")]
    pub type_name: String,
    pub points: i32,
    pub additional_cashback: i32,
    /// `points` + `additional_cashback`.
    pub cashback: i64,
    pub click_me_label: Option<String>,
    pub redirect_links: Vec<RedirectLink>,
    #[serde(rename = "participationStart")]
    pub participation_start: Option<DateTime<Utc>>,
    #[serde(rename = "participationEnd")]
    pub participation_end: Option<DateTime<Utc>>,
    #[serde(rename = "limitPerUser")]
    pub limit_per_user: Option<i32>,
    /// The caller's participations in it (0 for visitors).
    #[serde(rename = "userActions")]
    pub user_actions: i64,
    pub availability: Availability,
    pub prerequisites: Prerequisites,
    pub priority: i32,
    #[serde(rename = "priorityCarousel")]
    pub priority_carousel: i32,
    pub featured: bool,
    pub public: bool,
}

impl From<catalogue::ActivityCard> for ActivityCard {
    fn from(card: catalogue::ActivityCard) -> Self {
        let catalogue::ActivityCard {
            id,
            name,
            image,
            featured_image,
            type_id,
            type_name,
            points,
            additional_cashback,
            cashback,
            click_me_label,
            redirect_links,
            participation_start,
            participation_end,
            limit_per_user,
            participations,
            availability,
            prerequisites,
            priority,
            priority_carousel,
            featured,
            public,
        } = card;
        Self {
            id: id.0,
            name,
            image,
            featured_image,
            type_id,
            type_name,
            points,
            additional_cashback,
            cashback,
            click_me_label,
            redirect_links: redirect_links.into_iter().map(RedirectLink::from).collect(),
            participation_start,
            participation_end,
            limit_per_user,
            user_actions: participations,
            availability: availability.into(),
            prerequisites: prerequisites.into(),
            priority,
            priority_carousel,
            featured,
            public,
        }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ActivityContent)]
pub struct Content {
    pub text: Option<String>,
    pub link: Option<String>,
}

impl From<catalogue::Content> for Content {
    fn from(content: catalogue::Content) -> Self {
        let catalogue::Content { text, link } = content;
        Self { text, link }
    }
}

/// An agreement activity's terms (type 15): the checkbox the member ticks and the button
/// that records the participation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = ActivityAgreement)]
pub struct Agreement {
    pub checkbox: String,
    pub button: String,
}

impl From<catalogue::Agreement> for Agreement {
    fn from(agreement: catalogue::Agreement) -> Self {
        let catalogue::Agreement { checkbox, button } = agreement;
        Self { checkbox, button }
    }
}

/// A quiz's or survey's research (types 6 to 12), as the detail names it: the questions
/// come from `GET /research/{id}`, without the answer key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = ActivityResearch)]
pub struct ResearchRef {
    pub id: i64,
    pub name: String,
    pub question_count: i64,
}

impl From<catalogue::ResearchRef> for ResearchRef {
    fn from(research: catalogue::ResearchRef) -> Self {
        let catalogue::ResearchRef {
            id,
            name,
            question_count,
        } = research;
        Self {
            id,
            name,
            question_count,
        }
    }
}

/// Where the web plays a video from.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Video {
    /// A custom video's `/api/media/...` address, or the YouTube or Vimeo page.
    pub url: String,
    /// True for a file of ours, played by the page itself.
    pub custom: bool,
    /// The provider's player for an iframe (`www.youtube-nocookie.com/embed/{id}` or
    /// `player.vimeo.com/video/{id}`); null for a custom video.
    pub embed_url: Option<String>,
}

impl From<videos::Video> for Video {
    fn from(video: videos::Video) -> Self {
        let videos::Video {
            url,
            custom,
            embed_url,
        } = video;
        Self {
            url,
            custom,
            embed_url,
        }
    }
}

/// One of an activity's videos, as the detail answers it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ActionVideo {
    pub video_id: i64,
    pub name: String,
    pub description: String,
    pub required: bool,
    /// Its length, shown as mm:ss.
    pub duration_seconds: i32,
    pub video: Video,
}

impl From<videos::ActionVideo> for ActionVideo {
    fn from(video: videos::ActionVideo) -> Self {
        let videos::ActionVideo {
            video_id,
            name,
            description,
            required,
            duration_seconds,
            video,
        } = video;
        Self {
            video_id,
            name,
            description,
            required,
            duration_seconds,
            video: video.into(),
        }
    }
}

/// An activity's detail: its card and what only the detail page shows.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Activity {
    #[serde(flatten)]
    pub card: ActivityCard,
    pub station_id: i64,
    /// Sanitised HTML.
    pub description: String,
    /// Sanitised HTML.
    pub rules: String,
    /// Whether `rules` has any visible text (`<p></p>` has none).
    pub has_rules: bool,
    pub feedback_message: Option<String>,
    pub feedback_lottie_id: Option<i64>,
    pub comments_and_likes_enabled: bool,
    pub contents: Vec<Content>,
    /// An agreement activity's terms (type 15), in order; empty for other types.
    pub agreements: Vec<Agreement>,
    /// A quiz's or survey's research (types 6 to 12); empty for other types.
    pub researches: Vec<ResearchRef>,
    pub partner_id: Option<i64>,
    /// Its videos, in order.
    pub action_videos: Vec<ActionVideo>,
    /// The member's views of them (none for a visitor), in the videos' order.
    pub user_videos: Vec<UserVideo>,
    /// A product subscription's recurrences (type 21), weekly first; empty for other types.
    pub action_subscriptions: Vec<ActionSubscription>,
}

/// One recurrence a type 21 activity's products are subscribed with.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ActionSubscription {
    pub id: i64,
    /// `weekly`, `biweekly`, `monthly`, `bimonthly`, `quarterly`, `halfyearly`, `yearly`.
    pub recurrence: String,
    pub description: String,
}

impl Activity {
    /// The activity with its type 21 recurrences read (the conversion leaves them empty).
    pub async fn with_subscriptions(mut self, state: &AppState) -> ApiResult<Self> {
        let mut conn = state.db.acquire().await?;
        self.action_subscriptions = domain::subscriptions::views::action_subscriptions(
            &mut conn,
            domain::shared::ids::StationId(self.station_id),
            self.card.id,
        )
        .await?
        .into_iter()
        .map(
            |domain::subscriptions::views::ActionSubscription {
                 id,
                 recurrence,
                 description,
             }| {
                ActionSubscription {
                    id,
                    recurrence,
                    description,
                }
            },
        )
        .collect();
        Ok(self)
    }
}

impl From<catalogue::Activity> for Activity {
    fn from(activity: catalogue::Activity) -> Self {
        let catalogue::Activity {
            card,
            station_id,
            description,
            rules,
            has_rules,
            feedback_message,
            feedback_lottie_id,
            comments_and_likes_enabled,
            contents,
            agreements,
            researches,
            partner_id,
            videos,
            views,
        } = activity;
        Self {
            card: card.into(),
            station_id: station_id.0,
            description,
            rules,
            has_rules,
            feedback_message,
            feedback_lottie_id,
            comments_and_likes_enabled,
            contents: contents.into_iter().map(Content::from).collect(),
            agreements: agreements.into_iter().map(Agreement::from).collect(),
            researches: researches.into_iter().map(ResearchRef::from).collect(),
            partner_id,
            action_videos: videos.into_iter().map(ActionVideo::from).collect(),
            user_videos: views.into_iter().map(UserVideo::from).collect(),
            action_subscriptions: Vec::new(),
        }
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(actions))
        .routes(routes!(action))
        .routes(routes!(actions_by_name))
        .routes(routes!(establishment_actions))
        .routes(routes!(raw_content_participation))
        .routes(routes!(agreement))
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
) -> ApiResult<Paged<ActivityCard>> {
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
    page: Page,
) -> ApiResult<Paged<ActivityCard>> {
    let listed = catalogue::list(
        &state.db,
        member.station(),
        Some(member.user()),
        filter,
        page,
    )
    .await?
    .ok_or_else(|| anyhow::anyhow!("the member's station {} is gone", member.station_id))?;
    Ok(Paged::from(listed))
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
    let activity = catalogue::detail(
        &state.db,
        member.station(),
        Some(member.user()),
        ActivityId(id),
    )
    .await?
    .ok_or(Refused::Unavailable)?;
    Ok(Json(
        Activity::from(activity).with_subscriptions(&state).await?,
    ))
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
) -> ApiResult<Paged<ActivityCard>> {
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
        member.station(),
        Some(member.user()),
        Filter::default(),
    )
    .await?;
    Ok(Json(cards.into_iter().map(ActivityCard::from).collect()))
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
