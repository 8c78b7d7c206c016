//! The videos members upload: `POST /upload-video` (one multipart request), the resumable
//! upload (`POST /uploads/videos`, `PATCH /uploads/videos/{id}`, and `DELETE` to cancel
//! it) and `GET /videos/{id}`.
//! The bytes go to the upload area as they come, never whole in memory; a whole upload is
//! queued for `video.transcode` on the transaction that made it whole.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use domain::feed::videos::{self, NotAppended, NotUploaded, Video};
use domain::infra::objects::Objects;
use domain::infra::uploads::UPLOAD_FAILED;
use futures_util::TryStreamExt;
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use super::uploads::FileForm;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Multipart, Path};
use crate::member::Member;
use crate::state::AppState;
use crate::upload_form::{broken, file_field};

/// A plain upload's limit plus room for the multipart envelope and the parser's read-ahead,
/// so the file's own count refuses it first (with the spec's text).
const PLAIN_BODY_LIMIT: usize = videos::MAX_VIDEO_BYTES as usize + 16 * 1024 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(upload_video).layer(DefaultBodyLimit::max(PLAIN_BODY_LIMIT)))
        .routes(routes!(start_video_upload))
        .routes(
            routes!(append_video_upload, cancel_video_upload)
                .layer(DefaultBodyLimit::max(videos::MAX_CHUNK_BYTES)),
        )
        .routes(routes!(get_video))
}

/// Where an upload is, as `feed_videos.status` stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum VideoStatus {
    /// Bytes still coming.
    Uploading,
    /// Whole, queued for or running `video.transcode`.
    Processing,
    /// The MP4 and its poster are stored.
    Ready,
    /// Not a video we can show; `failure` says why.
    Failed,
}

impl From<videos::VideoStatus> for VideoStatus {
    fn from(status: videos::VideoStatus) -> Self {
        match status {
            videos::VideoStatus::Uploading => Self::Uploading,
            videos::VideoStatus::Processing => Self::Processing,
            videos::VideoStatus::Ready => Self::Ready,
            videos::VideoStatus::Failed => Self::Failed,
        }
    }
}

/// A member's upload (docs/api-feed.md, "Video"); also a video post's `video`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VideoAnswer {
    id: i64,
    status: VideoStatus,
    size: i64,
    received: i64,
    /// The MP4, once ready.
    url: Option<String>,
    /// The poster image, once ready.
    poster: Option<String>,
    duration_ms: Option<i32>,
    /// The `video.transcode` job (`GET /jobs/{id}`: state and percent).
    job_id: Option<String>,
    /// Why the video cannot be shown, as the member reads it.
    failure: Option<String>,
}

impl From<Video> for VideoAnswer {
    fn from(video: Video) -> Self {
        let Video {
            id,
            station_id: _,
            user_id: _,
            original_name: _,
            size,
            received,
            status,
            job_id,
            video_key,
            poster_key,
            duration_ms,
            width: _,
            height: _,
            failure,
            created_at: _,
            updated_at: _,
        } = video;
        Self {
            id,
            status: status.into(),
            size,
            received,
            url: video_key.as_deref().map(Objects::url),
            poster: poster_key.as_deref().map(Objects::url),
            duration_ms,
            job_id,
            failure,
        }
    }
}

/// A chunk sent at an offset that is not where the upload is.
#[derive(Debug, Serialize, ToSchema)]
struct OffsetConflict {
    messages: Vec<String>,
    /// Where the upload is: the next chunk goes at this offset.
    received: i64,
}

/// 409 with where the upload is, so the client goes on from there; any other refusal
/// answers as it says.
fn offset_conflict(received: i64) -> Response {
    (
        StatusCode::CONFLICT,
        Json(OffsetConflict {
            messages: vec![NotAppended::Offset { received }.to_string()],
            received,
        }),
    )
        .into_response()
}

/// Uploads a video in one request
///
/// Multipart, the file in `file`: MP4, QuickTime, WebM or WMV by content, at most
/// 200 000 000 bytes (refused as it streams past). Whole, it is queued for
/// `video.transcode` (`jobId`); `GET /videos/{id}` follows it to `ready` with its `url`.
/// The per-member limits: 10 uploads started a day, 3 unfinished at once.
#[utoipa::path(
    post,
    path = "/upload-video",
    tag = "feed",
    security(("member" = [])),
    request_body(content = FileForm, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "Received and queued for processing", body = VideoAnswer),
        (status = 403, description = "The station's feed is closed", body = Messages),
        (status = 422, description = "Too large, empty or not a video by content ('Tamanho ou formato inválido'); a broken transfer ('Erro no upload')", body = Messages),
        (status = 429, description = "Too many uploads started today, or unfinished", body = Messages),
    )
)]
async fn upload_video(
    State(state): State<AppState>,
    member: Member,
    Multipart(mut multipart): Multipart,
) -> ApiResult<Response> {
    let (field, name) = file_field!(multipart)?;
    let chunks = field.map_err(|err| broken(&err));
    let area = videos::upload_area(&state.config);
    let uploaded = app::feed::videos::upload(
        &state.db,
        &JobOutbox,
        &area,
        member.station(),
        member.user(),
        &name,
        chunks,
    )
    .await;
    match uploaded {
        Err(NotUploaded::NotAppended(NotAppended::Offset { received })) => {
            Ok(offset_conflict(received))
        }
        uploaded => Ok((StatusCode::CREATED, Json(VideoAnswer::from(uploaded?))).into_response()),
    }
}

/// A resumable upload to start.
#[derive(Debug, Deserialize, ToSchema)]
struct NewUpload {
    /// The file's name, kept as it came (at most 255 characters).
    #[serde(default)]
    name: String,
    /// The file's size in bytes: 1 to 200 000 000.
    size: i64,
}

/// Starts a resumable video upload (ours)
///
/// Then `PATCH /uploads/videos/{id}` sends the bytes in order; after a dropped connection,
/// `GET /videos/{id}` says how many arrived (`received`). At most 10 uploads started a
/// day and 3 unfinished at once per member (an upload that received nothing for an hour no
/// longer counts, and `DELETE /uploads/videos/{id}` frees its place at once); one that
/// receives nothing for a day is removed.
#[utoipa::path(
    post,
    path = "/uploads/videos",
    tag = "feed",
    security(("member" = [])),
    request_body = NewUpload,
    responses(
        (status = 201, description = "Started: `uploading`, `received` 0", body = VideoAnswer),
        (status = 403, description = "The station's feed is closed", body = Messages),
        (status = 422, description = "No size, or over 200 000 000 bytes ('Tamanho ou formato inválido')", body = Messages),
        (status = 429, description = "Too many uploads started today, or unfinished", body = Messages),
    )
)]
async fn start_video_upload(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<NewUpload>,
) -> ApiResult<(StatusCode, Json<VideoAnswer>)> {
    let video = app::feed::videos::start(
        &state.db,
        member.station(),
        member.user(),
        &request.name,
        request.size,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(video.into())))
}

/// Sends the next bytes of a resumable upload (ours)
///
/// Header `Upload-Offset`: where these bytes go, which must be the upload's `received`;
/// the body (`application/offset+octet-stream`) at most 8 MiB and not past the declared
/// size. The chunk that completes the upload is checked by content (a video, or the upload
/// fails with 'Tamanho ou formato inválido') and queues it for `video.transcode`.
#[utoipa::path(
    patch,
    path = "/uploads/videos/{id}",
    tag = "feed",
    security(("member" = [])),
    params(
        ("id" = i64, Path, description = "The caller's upload"),
        ("Upload-Offset" = i64, Header, description = "The offset of these bytes: the upload's `received`"),
    ),
    request_body(content_type = "application/offset+octet-stream", description = "The bytes, as they are"),
    responses(
        (status = 200, description = "Appended; `processing` once whole", body = VideoAnswer),
        (status = 400, description = "No `Upload-Offset`, or not a number", body = Messages),
        (status = 404, description = "Not the caller's upload", body = ErrorMessage),
        (status = 409, description = "The offset is not `received` (or the upload is whole): go on from `received`", body = OffsetConflict),
        (status = 413, description = "A chunk over 8 MiB", body = ErrorMessage),
        (status = 422, description = "Bytes past the declared size, or a whole upload that is not a video ('Tamanho ou formato inválido')", body = Messages),
    )
)]
async fn append_video_upload(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let offset = headers
        .get("upload-offset")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<i64>().ok())
        .filter(|offset| *offset >= 0)
        .ok_or_else(|| ApiError::BadRequest(UPLOAD_FAILED.into()))?;
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::PayloadTooLarge
        } else {
            ApiError::invalid(UPLOAD_FAILED)
        }
    })?;
    let area = videos::upload_area(&state.config);
    let appended = app::feed::videos::append(
        &state.db,
        &JobOutbox,
        &area,
        member.station(),
        member.user(),
        id,
        offset,
        bytes,
    )
    .await;
    match appended {
        Err(NotAppended::Offset { received }) => Ok(offset_conflict(received)),
        appended => Ok(Json(VideoAnswer::from(appended?)).into_response()),
    }
}

/// Cancels a resumable upload (ours)
///
/// For an upload the member abandons (the page left mid-upload, or given up): one still
/// receiving bytes is failed ('Erro no upload') and its bytes removed, so it no longer
/// holds one of the member's 3 unfinished places. An upload already whole (processing,
/// ready or failed) is left as it is, also 204: a cancel that crosses the last chunk
/// changes nothing.
#[utoipa::path(
    delete,
    path = "/uploads/videos/{id}",
    tag = "feed",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's upload")),
    responses(
        (status = 204, description = "Cancelled, or whole already (unchanged)"),
        (status = 404, description = "Not the caller's upload", body = ErrorMessage),
    )
)]
async fn cancel_video_upload(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    let area = videos::upload_area(&state.config);
    app::feed::videos::cancel(&state.db, &area, member.station(), member.user(), id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// One of the caller's video uploads
///
/// Its state, `received` (where a resumable upload goes on), and once `ready` the MP4's
/// `url` and `poster`. Another member's or station's upload is not found.
#[utoipa::path(
    get,
    path = "/videos/{id}",
    tag = "feed",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's upload")),
    responses(
        (status = 200, description = "The upload", body = VideoAnswer),
        (status = 404, description = "Not the caller's upload", body = ErrorMessage),
    )
)]
async fn get_video(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Json<VideoAnswer>> {
    videos::find_own(&state.db, member.station(), member.user(), id)
        .await?
        .map(|video| Json(video.into()))
        .ok_or_else(|| ApiError::not_found(videos::NOT_FOUND))
}
