//! The feed's posts (docs/api-feed.md, "Posts"): the feed page by keyset
//! (`GET /posts/{station}`) and the spec's growing limit (`GET /posts-limit/...`),
//! publishing text, image and video posts, the author's delete, and members' reports.

use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use domain::feed::posts::{self, Cursor, FeedPage, Post};
use domain::feed::reports;
use domain::feed::videos;
use domain::infra::objects::Objects;
use domain::shared::ids::{PostId, StationId};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use super::videos::VideoAnswer;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query, bad_parameter};
use crate::member::{Member, NOT_AUTHORIZED};
use crate::member_throttle::{MemberLimit, throttle};
use crate::state::AppState;

/// A body holding an image a little over the limit is still read, so it gets the
/// contract's message rather than a bare 413 (base64 adds a third).
const IMAGE_BODY_LIMIT: usize = 4 * 1024 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(feed_posts_page, delete_post))
        .routes(routes!(feed_posts_up_to))
        .routes(routes!(create_text_post))
        .routes(routes!(create_image_post).layer(DefaultBodyLimit::max(IMAGE_BODY_LIMIT)))
        .routes(routes!(create_video_post))
        .routes(routes!(report_post))
}

/// Posts of any kind: 10 per 10 minutes.
struct PostLimit;

impl MemberLimit for PostLimit {
    const NAME: &'static str = "feed-posts";
    fn limit(_: &domain::Config) -> (u32, u64) {
        (10, 600)
    }
}

/// Reports of posts and comments: 20 per hour.
pub(super) struct ReportLimit;

impl MemberLimit for ReportLimit {
    const NAME: &'static str = "feed-reports";
    fn limit(_: &domain::Config) -> (u32, u64) {
        (20, 3600)
    }
}

/// Refuses a station other than the caller's, and a station whose feed is closed, alike
/// (403, the spec's text for a page the member may not see).
pub(super) async fn open_feed(state: &AppState, member: &Member, station_id: i64) -> ApiResult<()> {
    if station_id != member.station_id
        || !posts::feed_open(&state.db, StationId(station_id)).await?
    {
        return Err(ApiError::Forbidden(NOT_AUTHORIZED.into()));
    }
    Ok(())
}

/// Who wrote a post or a comment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = FeedAuthor)]
pub struct Author {
    pub id: i64,
    pub name: String,
    /// The member's picture (a URL), if any.
    pub image: Option<String>,
}

impl From<posts::Author> for Author {
    fn from(author: posts::Author) -> Self {
        let posts::Author { id, name, image } = author;
        Self {
            id: id.0,
            name,
            image,
        }
    }
}

/// A post as the caller sees it (docs/api-feed.md, "Post").
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = FeedPost)]
struct PostAnswer {
    id: i64,
    description: String,
    user: Author,
    /// The image's URL.
    image: Option<String>,
    video: Option<VideoAnswer>,
    likes: i32,
    comments: i32,
    user_liked: bool,
    user_author: bool,
    /// False only for the caller's own video post whose video is not ready (or failed).
    published: bool,
    created_at: DateTime<Utc>,
}

impl From<Post> for PostAnswer {
    fn from(post: Post) -> Self {
        let Post {
            id,
            station_id: _,
            author,
            description,
            image_key,
            video,
            likes,
            comments,
            user_liked,
            user_author,
            published,
            created_at,
        } = post;
        Self {
            id: id.0,
            description,
            user: author.into(),
            image: image_key.as_deref().map(Objects::url),
            video: video.map(VideoAnswer::from),
            likes,
            comments,
            user_liked,
            user_author,
            published,
            created_at,
        }
    }
}

/// A page of the feed (docs/api-feed.md, "FeedPage").
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = FeedPage)]
struct FeedPageAnswer {
    posts: Vec<PostAnswer>,
    /// The next page's `before`; null at the end of the feed.
    next: Option<String>,
}

impl From<FeedPage> for FeedPageAnswer {
    fn from(page: FeedPage) -> Self {
        let FeedPage { posts, next } = page;
        Self {
            posts: posts.into_iter().map(PostAnswer::from).collect(),
            next: next.map(Cursor::encode),
        }
    }
}

/// Read as text, so a bad value gets the API's own 400.
#[derive(Debug, Deserialize)]
struct PageQuery {
    before: Option<String>,
    limit: Option<String>,
}

/// The feed, newest first, a page at a time
///
/// A page after `next` holds only posts older than the last one answered, so posts
/// published meanwhile never repeat or shift what follows. Hidden and removed posts are
/// left out; the caller's own video posts show while their video is processed.
#[utoipa::path(
    get,
    path = "/posts/{id}",
    tag = "feed",
    security(("member" = [])),
    params(
        ("id" = i64, Path, description = "The caller's station (the spec's `{station}`)"),
        ("before" = Option<String>, Query, description = "The previous page's `next`; absent for the newest posts"),
        ("limit" = Option<i64>, Query, description = "1 to 30 posts, 3 by default"),
    ),
    responses(
        (status = 200, description = "A page of posts and the next page's cursor", body = FeedPageAnswer),
        (status = 400, description = "A bad station, cursor or limit", body = Messages),
        (status = 403, description = "Another station, or the station's feed is closed", body = Messages),
    )
)]
async fn feed_posts_page(
    State(state): State<AppState>,
    member: Member,
    Path(station_id): Path<i64>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<FeedPageAnswer>> {
    let before = query
        .before
        .filter(|before| !before.trim().is_empty())
        .map(|before| Cursor::decode(&before).ok_or_else(bad_parameter))
        .transpose()?;
    let limit = match query.limit.filter(|limit| !limit.trim().is_empty()) {
        None => posts::PAGE_DEFAULT,
        Some(limit) => limit
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|limit| (1..=posts::PAGE_MAX).contains(limit))
            .ok_or_else(bad_parameter)?,
    };
    open_feed(&state, &member, station_id).await?;
    let page = posts::page(&state.db, member.station(), member.user(), before, limit).await?;
    Ok(Json(page.into()))
}

/// The newest posts, up to a growing limit
///
/// The spec's infinite scroll asks 3 posts, then 6, 9...; `next` lets a client page on by
/// keyset (`GET /posts/{station}?before=`) instead.
#[utoipa::path(
    get,
    path = "/posts-limit/{station}/{page}",
    tag = "feed",
    security(("member" = [])),
    params(
        ("station" = i64, Path, description = "The caller's station"),
        ("page" = i64, Path, description = "How many posts: 1 to 60"),
    ),
    responses(
        (status = 200, description = "The newest posts and the cursor after them", body = FeedPageAnswer),
        (status = 400, description = "A bad station or limit", body = Messages),
        (status = 403, description = "Another station, or the station's feed is closed", body = Messages),
    )
)]
async fn feed_posts_up_to(
    State(state): State<AppState>,
    member: Member,
    Path((station_id, limit)): Path<(i64, i64)>,
) -> ApiResult<Json<FeedPageAnswer>> {
    if !(1..=posts::LIMIT_MAX).contains(&limit) {
        return Err(bad_parameter());
    }
    open_feed(&state, &member, station_id).await?;
    let page = posts::page(&state.db, member.station(), member.user(), None, limit).await?;
    Ok(Json(page.into()))
}

/// The spec's payload; its `user` is ignored (the author is the caller).
#[derive(Debug, Deserialize, ToSchema)]
struct TextPostRequest {
    #[serde(default)]
    description: String,
    /// The caller's station.
    station_id: i64,
}

/// The spec's payload; its `imageType` is ignored (the content decides), and so is `user`.
#[derive(Debug, Deserialize, ToSchema)]
struct ImagePostRequest {
    /// The image, JPEG or PNG (by content), at most 1 200 000 bytes decoded; with or
    /// without a `data:` prefix.
    base64: String,
    #[serde(default)]
    description: String,
    /// The caller's station.
    station_id: i64,
}

/// The spec's payload; its `user` is ignored.
#[derive(Debug, Deserialize, ToSchema)]
struct VideoPostRequest {
    #[serde(default)]
    description: String,
    /// The caller's own upload (`POST /uploads/videos` or `/upload-video`).
    video_id: i64,
    /// The caller's station.
    station_id: i64,
}

/// Publishes a text post
#[utoipa::path(
    post,
    path = "/posts",
    tag = "feed",
    security(("member" = [])),
    request_body = TextPostRequest,
    responses(
        (status = 201, description = "Published", body = PostAnswer),
        (status = 403, description = "Another station, or the station's feed is closed", body = Messages),
        (status = 422, description = "No text, or more than 320 characters", body = Messages),
        (status = 429, description = "More than 10 posts in 10 minutes", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn create_text_post(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<TextPostRequest>,
) -> ApiResult<(StatusCode, Json<PostAnswer>)> {
    throttle::<PostLimit>(&state, &member).await?;
    open_feed(&state, &member, request.station_id).await?;
    let post = posts::create(
        &state.db,
        member.station(),
        member.user(),
        &request.description,
        None,
    )
    .await?;
    tracing::info!(user_id = member.user_id, post_id = %post.id, "feed post");
    Ok((StatusCode::CREATED, Json(post.into())))
}

/// Publishes an image post
///
/// The image is known by its content (JPEG or PNG), stored re-encoded to fit 1600 px,
/// which drops its metadata.
#[utoipa::path(
    post,
    path = "/posts-image",
    tag = "feed",
    security(("member" = [])),
    request_body = ImagePostRequest,
    responses(
        (status = 201, description = "Published", body = PostAnswer),
        (status = 403, description = "Another station, or the station's feed is closed", body = Messages),
        (status = 422, description = "More than 320 characters; not a JPEG or PNG, or over 1 200 000 bytes", body = Messages),
        (status = 429, description = "More than 10 posts in 10 minutes", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn create_image_post(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<ImagePostRequest>,
) -> ApiResult<(StatusCode, Json<PostAnswer>)> {
    throttle::<PostLimit>(&state, &member).await?;
    open_feed(&state, &member, request.station_id).await?;
    let post = app::feed::posts::publish_image(
        &state.db,
        &state.objects,
        &jobs::JobOutbox,
        &media::images::ImageCrate,
        member.station(),
        member.user(),
        &request.description,
        &request.base64,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(post.into())))
}

/// Publishes a video post
///
/// The video is the caller's own upload, not failed and not on another post. The post is
/// published when the video is ready: at once if it is, otherwise when `video.transcode`
/// succeeds; until then only the caller sees it (`published` false).
#[utoipa::path(
    post,
    path = "/posts-vimeo",
    tag = "feed",
    security(("member" = [])),
    request_body = VideoPostRequest,
    responses(
        (status = 201, description = "Created; published once the video is ready", body = PostAnswer),
        (status = 403, description = "Another station, or the station's feed is closed", body = Messages),
        (status = 404, description = "No such upload of the caller's", body = ErrorMessage),
        (status = 422, description = "More than 320 characters; the video failed or is on another post", body = Messages),
        (status = 429, description = "More than 10 posts in 10 minutes", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn create_video_post(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<VideoPostRequest>,
) -> ApiResult<(StatusCode, Json<PostAnswer>)> {
    throttle::<PostLimit>(&state, &member).await?;
    open_feed(&state, &member, request.station_id).await?;
    let post = posts::create_with_video(
        &state.db,
        member.station(),
        member.user(),
        &request.description,
        request.video_id,
    )
    .await?;
    tracing::info!(
        user_id = member.user_id,
        post_id = %post.id,
        video_id = request.video_id,
        published = post.published,
        "feed video post"
    );
    Ok((StatusCode::CREATED, Json(post.into())))
}

/// Deletes one of the caller's posts
///
/// Its likes, comments and reports go with it, and its media: the image, or the video's
/// upload and files.
#[utoipa::path(
    delete,
    path = "/posts/{id}",
    tag = "feed",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The post")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 403, description = "Another member's post; or the station's feed is closed", body = Messages),
        (status = 404, description = "No such post the caller sees", body = ErrorMessage),
    )
)]
async fn delete_post(
    State(state): State<AppState>,
    member: Member,
    Path(post_id): Path<i64>,
) -> ApiResult<StatusCode> {
    open_feed(&state, &member, member.station_id).await?;
    let area = videos::upload_area(&state.config);
    app::feed::posts::delete(
        &state.db,
        &state.objects,
        &area,
        member.station(),
        member.user(),
        PostId(post_id),
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Why the member reports an item; optional.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub(super) struct ReportRequest {
    /// Up to 500 characters.
    #[serde(default)]
    pub reason: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ReportAnswer {
    reported: bool,
}

/// 201 for the member's first report of an item, 200 for a repeat (counted once).
pub(super) fn reported(first: bool) -> (StatusCode, Json<ReportAnswer>) {
    let status = if first {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    (status, Json(ReportAnswer { reported: true }))
}

/// Reports a post (ours)
///
/// Once per member: a repeat answers 200 and counts nothing. When the station's threshold
/// of members (`feed_report_threshold`, 3 by default) have reported it, the post is hidden
/// until staff review it.
#[utoipa::path(
    post,
    path = "/posts/{id}/report",
    tag = "feed",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The post")),
    request_body = ReportRequest,
    responses(
        (status = 201, description = "Reported", body = ReportAnswer),
        (status = 200, description = "Reported before by the caller; counted once", body = ReportAnswer),
        (status = 403, description = "The station's feed is closed", body = Messages),
        (status = 404, description = "No such post the caller sees", body = ErrorMessage),
        (status = 422, description = "A reason over 500 characters", body = Messages),
        (status = 429, description = "More than 20 reports in an hour", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn report_post(
    State(state): State<AppState>,
    member: Member,
    Path(post_id): Path<i64>,
    Json(request): Json<ReportRequest>,
) -> ApiResult<(StatusCode, Json<ReportAnswer>)> {
    throttle::<ReportLimit>(&state, &member).await?;
    open_feed(&state, &member, member.station_id).await?;
    let first = reports::report_post(
        &state.db,
        member.station(),
        member.user(),
        PostId(post_id),
        request.reason.as_deref().unwrap_or_default(),
    )
    .await?;
    tracing::info!(
        user_id = member.user_id,
        post_id,
        first,
        "feed post reported"
    );
    Ok(reported(first))
}
