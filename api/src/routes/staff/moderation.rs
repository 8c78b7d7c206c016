//! `/api/ops/reports`: staff read what members reported in the feed and decide on it
//! (docs/api-feed.md, "Moderation"): keep shows it again, hide keeps it hidden, remove
//! takes it away for good. Viewers read; support decides, audited with the decision.

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::feed::reports::{self, ContentKind, Decision, ReportState, ReportedItem};
use domain::feed::videos;
use domain::infra::objects::Objects;
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
        // A removed post's media are deleted from the store: no dead links.
        let shown = !item.removed;
        Self {
            kind: item.kind,
            id: item.id,
            station_id: item.station_id,
            description: item.description,
            image: item
                .image_key
                .as_deref()
                .filter(|_| shown)
                .map(Objects::url),
            video: item.video.filter(|_| shown).map(VideoAnswer::from),
            author: item.author.into(),
            reports: item.reports,
            reasons: item.reasons,
            hidden: item.hidden,
            removed: item.removed,
            first_reported_at: item.first_reported_at,
            reviewed_at: item.reviewed_at,
            decision: item.decision,
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
    let (items, total) =
        reports::reported(&state.db, staff.scope(), station_id, wanted, page, per_page).await?;
    Ok(Json(ReportedList {
        items: items.into_iter().map(ReportedItemAnswer::from).collect(),
        total,
    }))
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
        kind,
        id,
        request.decision,
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
    if let Some(key) = &item.image_key
        && let Err(err) = state.objects.delete(key).await
    {
        tracing::warn!(error = %err, key, "removed post's image not deleted");
    }
    if let Some(video) = &item.video {
        videos::delete_files(&state.objects, video).await;
    }
}
