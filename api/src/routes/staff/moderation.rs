//! `/api/ops/reports`: staff read what members reported in the feed and decide on it
//! (docs/api-feed.md, "Moderation"): keep shows it again, hide keeps it hidden, remove
//! takes it away for good. Viewers read; support decides, audited with the decision.

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::feed::reports::{self, ReportedItem};
use domain::feed::videos;
use domain::infra::objects::Objects;
use domain::shared::ids::StationId;
use domain::shared::paging::Listed;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::params::{BAD_STATE, BAD_STATION, given, invalid_if_any, parse_page};
use crate::error::{ApiError, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::routes::feed::posts::Author;
use crate::routes::feed::videos::VideoAnswer;
use crate::staff::{OpsError, OpsResult, Staff};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_reported_content))
        .routes(routes!(review_reported_content))
}

/// What members report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = ReportedKind)]
pub enum ContentKind {
    Post,
    Comment,
}

impl From<reports::ContentKind> for ContentKind {
    fn from(kind: reports::ContentKind) -> Self {
        match kind {
            reports::ContentKind::Post => Self::Post,
            reports::ContentKind::Comment => Self::Comment,
        }
    }
}

impl From<ContentKind> for reports::ContentKind {
    fn from(kind: ContentKind) -> Self {
        match kind {
            ContentKind::Post => Self::Post,
            ContentKind::Comment => Self::Comment,
        }
    }
}

/// Staff's decision on a reported item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = ReviewDecision)]
pub enum Decision {
    /// Shown again (if reports hid it).
    Keep,
    /// Hidden from the feed; a later review may show it again.
    Hide,
    /// Taken away for good.
    Remove,
}

impl From<reports::Decision> for Decision {
    fn from(decision: reports::Decision) -> Self {
        match decision {
            reports::Decision::Keep => Self::Keep,
            reports::Decision::Hide => Self::Hide,
            reports::Decision::Remove => Self::Remove,
        }
    }
}

impl From<Decision> for reports::Decision {
    fn from(decision: Decision) -> Self {
        match decision {
            Decision::Keep => Self::Keep,
            Decision::Hide => Self::Hide,
            Decision::Remove => Self::Remove,
        }
    }
}

/// Which reported items a list wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReportState {
    /// With a report no one reviewed yet.
    Open,
    /// Every report reviewed.
    Reviewed,
}

impl From<ReportState> for reports::ReportState {
    fn from(state: ReportState) -> Self {
        match state {
            ReportState::Open => Self::Open,
            ReportState::Reviewed => Self::Reviewed,
        }
    }
}

/// A reported post or comment (docs/api-feed.md, "ReportedItem").
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ReportedItem)]
struct ReportedItemAnswer {
    kind: ContentKind,
    id: i64,
    station_id: i64,
    description: String,
    /// A post's image URL; null once removed.
    image: Option<String>,
    /// A post's video; null once removed.
    video: Option<VideoAnswer>,
    author: Author,
    /// Every report of it, reviewed or not.
    reports: i64,
    /// The reasons members gave, oldest first.
    reasons: Vec<String>,
    hidden: bool,
    removed: bool,
    first_reported_at: DateTime<Utc>,
    /// The latest review and its decision.
    reviewed_at: Option<DateTime<Utc>>,
    decision: Option<Decision>,
}

impl From<ReportedItem> for ReportedItemAnswer {
    fn from(item: ReportedItem) -> Self {
        let ReportedItem {
            kind,
            id,
            station_id,
            description,
            image_key,
            video,
            author,
            reports,
            reasons,
            hidden,
            removed,
            first_reported_at,
            reviewed_at,
            decision,
        } = item;
        // A removed post's media are deleted from the store: no dead links.
        let shown = !removed;
        Self {
            kind: kind.into(),
            id,
            station_id: station_id.0,
            description,
            image: image_key.as_deref().filter(|_| shown).map(Objects::url),
            video: video.filter(|_| shown).map(VideoAnswer::from),
            author: author.into(),
            reports,
            reasons,
            hidden,
            removed,
            first_reported_at,
            reviewed_at,
            decision: decision.map(Decision::from),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ReportedItemList)]
struct ReportedList {
    items: Vec<ReportedItemAnswer>,
    /// How many items match, on every page.
    total: i64,
}

/// Read as text, so each bad value gets its own message; empty means no filter.
#[derive(Debug, Deserialize)]
struct ListParams {
    station_id: Option<String>,
    state: Option<String>,
    page: Option<String>,
}

/// What members reported in the grant's scope
///
/// Items with open reports first (oldest report first), then the reviewed ones (latest
/// review first); 50 a page.
#[utoipa::path(
    get,
    path = "/reports",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("station_id" = Option<i64>, Query, description = "A station in the grant's scope"),
        ("state" = Option<String>, Query, description = "`open`: with reports not reviewed yet; `reviewed`: every report reviewed; absent: both"),
        ("page" = Option<i64>, Query, description = "From 1 (the default)"),
    ),
    responses(
        (status = 200, description = "A page of reported items and how many there are", body = ReportedList),
        (status = 400, description = "The query cannot be read", body = Messages),
        (status = 422, description = "A bad station, state or page (one message per kind)", body = Messages),
    )
)]
async fn list_reported_content(
    State(state): State<AppState>,
    staff: Staff,
    Query(params): Query<ListParams>,
) -> OpsResult<Json<ReportedList>> {
    let mut messages = Vec::new();
    let station_id = given(params.station_id).and_then(|id| {
        id.parse::<i64>()
            .map_err(|_| messages.push(BAD_STATION))
            .ok()
    });
    let wanted = given(params.state).and_then(|wanted| {
        serde_json::from_value::<ReportState>(serde_json::Value::String(wanted))
            .map_err(|_| messages.push(BAD_STATE))
            .ok()
    });
    // The console's page size; the contract gives no `per_page` here.
    let (page, per_page) = parse_page(params.page, None, &mut messages);
    invalid_if_any(messages)?;
    let listed = reports::reported(
        &state.db,
        staff.scope(),
        station_id.map(StationId),
        wanted.map(reports::ReportState::from),
        page,
        per_page,
    )
    .await?;
    let Listed { items, total } = listed.map(ReportedItemAnswer::from);
    Ok(Json(ReportedList { items, total }))
}

#[derive(Debug, Deserialize, ToSchema)]
struct ReviewRequest {
    decision: Decision,
}

/// Decides on a reported post or comment
///
/// keep shows it again, hide keeps it hidden (a later review may show it), remove takes it
/// away for good, a post's image or video deleted from the store with it. Every open report
/// of the item is closed with the decision; recorded in the audit log (`content.keep`,
/// `content.hide`, `content.remove`). Support staff only, within the grant's stations.
#[utoipa::path(
    post,
    path = "/reports/{kind}/{id}/review",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("kind" = ContentKind, Path, description = "`post` or `comment`"),
        ("id" = i64, Path, description = "The post's or comment's id"),
    ),
    request_body = ReviewRequest,
    responses(
        (status = 200, description = "Decided; the item as it is now", body = ReportedItemAnswer),
        (status = 403, description = "a viewer (reads only)", body = ErrorMessage),
        (status = 404, description = "No such reported item in the grant's scope", body = ErrorMessage),
        (status = 409, description = "Removed already", body = ErrorMessage),
    )
)]
async fn review_reported_content(
    State(state): State<AppState>,
    staff: Staff,
    Path((kind, id)): Path<(String, i64)>,
    Json(request): Json<ReviewRequest>,
) -> OpsResult<Json<ReportedItemAnswer>> {
    staff.require_support()?;
    let not_found = || OpsError::from(ApiError::not_found(reports::ITEM_NOT_FOUND));
    let kind = serde_json::from_value::<ContentKind>(serde_json::Value::String(kind))
        .map_err(|_| not_found())?;
    let item = reports::review(
        &state.db,
        staff.scope(),
        staff.user_id(),
        kind.into(),
        id,
        request.decision.into(),
    )
    .await?;
    tracing::info!(
        staff_id = staff.user_id(),
        kind = ?kind,
        id,
        decision = ?request.decision,
        "reported content reviewed"
    );
    if item.removed {
        delete_media(&state, &item).await;
    }
    Ok(Json(item.into()))
}

/// Deletes a removed post's image, or its video's MP4 and poster, so /api/media serves them
/// no more; after the commit, as the author's delete does. A failed delete is logged: the
/// decision stands.
async fn delete_media(state: &AppState, item: &ReportedItem) {
    if let Some(key) = &item.image_key {
        domain::infra::variants::delete_with_copies(&state.db, &state.objects, key).await;
    }
    if let Some(video) = &item.video {
        videos::delete_files(&state.objects, video).await;
    }
}
