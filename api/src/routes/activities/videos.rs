//! Watching videos (spec 001 "Videos"): `POST` and `PUT /videos/check-videos/{id}` report
//! what the player played and the member's "viewed", judged by the server
//! (`domain::activities::video_views`); `POST /video-playlist-participation` and
//! `/video-youtube-participation` record the playlist's participation once every video is
//! viewed.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::Utc;
use domain::activities::ActivityType;
use domain::activities::video_views;
use domain::shared::ids::ActivityId;
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::actions::{self, ParticipationRecorded};
use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::member::Member;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(start_watching, check_video))
        .routes(routes!(playlist_participation))
        .routes(routes!(youtube_participation))
}

/// What the player says: whether the member marks the video viewed (at 80% or by the
/// checkbox), and the ranges played so far, in seconds from the start.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, ToSchema)]
pub struct WatchReport {
    pub has_viewed: bool,
    /// `[start, end]` pairs in seconds; the browser's `video.played` ranges.
    #[serde(default)]
    #[schema(value_type = Vec<Vec<f64>>, example = json!([[0.0, 4.8]]))]
    pub played: Vec<(f64, f64)>,
}

impl From<WatchReport> for video_views::WatchReport {
    fn from(report: WatchReport) -> Self {
        let WatchReport { has_viewed, played } = report;
        Self { has_viewed, played }
    }
}

/// A member's view of one video (spec 001 "user_videos item").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct UserVideo {
    pub action_id: i64,
    pub video_id: i64,
    pub viewed_once: bool,
    pub has_viewed: bool,
}

impl From<video_views::UserVideo> for UserVideo {
    fn from(view: video_views::UserVideo) -> Self {
        let video_views::UserVideo {
            action_id,
            video_id,
            viewed_once,
            has_viewed,
        } = view;
        Self {
            action_id,
            video_id,
            viewed_once,
            has_viewed,
        }
    }
}

/// The spec's payload (`action_id`, `has_viewed`) and the ranges the player played.
#[derive(Debug, Deserialize, ToSchema)]
struct VideoCheck {
    action_id: i64,
    #[serde(flatten)]
    report: WatchReport,
}

#[derive(Debug, Deserialize, ToSchema)]
struct PlaylistDone {
    action_id: i64,
}

async fn record_report(
    state: &AppState,
    member: &Member,
    video_id: i64,
    check: VideoCheck,
) -> ApiResult<Json<UserVideo>> {
    let view = app::activities::videos::report(
        &state.db,
        member.user(),
        member.station(),
        video_id,
        ActivityId(check.action_id),
        &check.report.into(),
        Utc::now(),
    )
    .await?;
    Ok(Json(view.into()))
}

/// Reports the caller's watch of a video: the first report starts it
///
/// The spec sends it when the member first plays the video. Same as the `PUT`: the ranges
/// played add up, and `has_viewed: true` is judged (80% of the video played, and as long
/// elapsed on the server since the first report).
#[utoipa::path(
    post,
    path = "/videos/check-videos/{id}",
    tag = "activities",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The video (`video_id`)")),
    request_body = VideoCheck,
    responses(
        (status = 200, description = "The member's view of the video", body = UserVideo),
        (status = 404, description = "Unknown video, not of `action_id`, another station's or unpublished", body = ErrorMessage),
        (status = 422, description = "Viewed claimed before 80% was played or faster than the video; locked behind a required video; bad ranges; outside the window or a prerequisite not done", body = Messages),
    )
)]
async fn start_watching(
    State(state): State<AppState>,
    member: Member,
    Path(video_id): Path<i64>,
    Json(check): Json<VideoCheck>,
) -> ApiResult<Json<UserVideo>> {
    record_report(&state, &member, video_id, check).await
}

/// Reports the caller's watch of a video, or toggles its "viewed"
///
/// The player sends the ranges it played and `has_viewed: true` at 80%, or the member
/// ticks or unticks the checkbox. A view is judged once; later toggles set `has_viewed`.
#[utoipa::path(
    put,
    path = "/videos/check-videos/{id}",
    tag = "activities",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The video (`video_id`)")),
    request_body = VideoCheck,
    responses(
        (status = 200, description = "The member's view of the video", body = UserVideo),
        (status = 404, description = "Unknown video, not of `action_id`, another station's or unpublished", body = ErrorMessage),
        (status = 422, description = "Viewed claimed before 80% was played or faster than the video; locked behind a required video; bad ranges; outside the window or a prerequisite not done", body = Messages),
    )
)]
async fn check_video(
    State(state): State<AppState>,
    member: Member,
    Path(video_id): Path<i64>,
    Json(check): Json<VideoCheck>,
) -> ApiResult<Json<UserVideo>> {
    record_report(&state, &member, video_id, check).await
}

async fn take_playlist(
    state: &AppState,
    member: Member,
    action_id: i64,
) -> ApiResult<(StatusCode, Json<ParticipationRecorded>)> {
    let taken = app::activities::participation::take_playlist(
        &state.db,
        &JobOutbox,
        member.user(),
        member.station(),
        ActivityId(action_id),
        Utc::now(),
    )
    .await?;
    Ok(actions::participated(
        &member,
        taken,
        ActivityType::VideoPlaylist,
    ))
}

/// Records the caller's participation in a video playlist (type 18)
///
/// Every video of the playlist must be viewed (`/videos/check-videos`). Through the
/// participation rules; without `limitPerUser` the first is the participation and later
/// calls answer it again (200); with a limit, each participation needs the videos watched
/// again.
#[utoipa::path(
    post,
    path = "/video-playlist-participation",
    tag = "activities",
    security(("member" = [])),
    request_body = PlaylistDone,
    responses(
        (status = 201, description = "The playlist was recorded as a participation", body = ParticipationRecorded),
        (status = 200, description = "An earlier call recorded the participation", body = ParticipationRecorded),
        (status = 404, description = "Unknown, unpublished, another station's, without videos or not a playlist", body = ErrorMessage),
        (status = 422, description = "A video not viewed yet; outside the window, a date missing, the limit reached or a prerequisite not done", body = Messages),
    )
)]
async fn playlist_participation(
    State(state): State<AppState>,
    member: Member,
    Json(done): Json<PlaylistDone>,
) -> ApiResult<(StatusCode, Json<ParticipationRecorded>)> {
    take_playlist(&state, member, done.action_id).await
}

/// Records the caller's participation in a playlist watched in external players
///
/// The spec's call for a playlist of YouTube or Vimeo videos; the same rules as
/// `/video-playlist-participation` (each video's view judged by the server's clock).
#[utoipa::path(
    post,
    path = "/video-youtube-participation",
    tag = "activities",
    security(("member" = [])),
    request_body = PlaylistDone,
    responses(
        (status = 201, description = "The playlist was recorded as a participation", body = ParticipationRecorded),
        (status = 200, description = "An earlier call recorded the participation", body = ParticipationRecorded),
        (status = 404, description = "Unknown, unpublished, another station's, without videos or not a playlist", body = ErrorMessage),
        (status = 422, description = "A video not viewed yet; outside the window, a date missing, the limit reached or a prerequisite not done", body = Messages),
    )
)]
async fn youtube_participation(
    State(state): State<AppState>,
    member: Member,
    Json(done): Json<PlaylistDone>,
) -> ApiResult<(StatusCode, Json<ParticipationRecorded>)> {
    take_playlist(&state, member, done.action_id).await
}
