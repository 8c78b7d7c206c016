//! Comments on posts (`GET /comments/post/{postId}`, `POST /comments`) and on activities
//! (`GET /comments/action/{id}`, `POST /comments-action`, `POST /sub-comments-action`),
//! the author's delete and members' reports (docs/api-feed.md, "Comments").

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use domain::feed::comments;
use domain::feed::reports;
use domain::shared::ids::PostId;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::posts::{self, Author, ReportAnswer, ReportLimit, ReportRequest, open_feed};
use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::member::Member;
use crate::member_throttle::{MemberLimit, throttle};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(post_comments))
        .routes(routes!(comment_on_post))
        .routes(routes!(action_comments))
        .routes(routes!(comment_on_action))
        .routes(routes!(reply_on_action))
        .routes(routes!(delete_comment))
        .routes(routes!(report_comment))
}

/// Comments and replies of any kind: 30 per 10 minutes.
struct CommentLimit;

impl MemberLimit for CommentLimit {
    const NAME: &'static str = "feed-comments";
    fn limit(_: &domain::Config) -> (u32, u64) {
        (30, 600)
    }
}

/// A comment as one member sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = FeedComment)]
pub struct Comment {
    pub id: i64,
    pub description: String,
    pub user: Author,
    pub user_author: bool,
    /// The root comment this one answers (activities only).
    pub parent_id: Option<i64>,
    pub created_at: DateTime<Utc>,
    /// An activity's root comment's replies, oldest first; empty elsewhere.
    #[schema(no_recursion)]
    pub replies: Vec<Comment>,
}

impl From<comments::Comment> for Comment {
    fn from(comment: comments::Comment) -> Self {
        let comments::Comment {
            id,
            description,
            author,
            user_author,
            parent_id,
            created_at,
            replies,
        } = comment;
        Self {
            id,
            description,
            user: author.into(),
            user_author,
            parent_id,
            created_at,
            replies: replies.into_iter().map(Comment::from).collect(),
        }
    }
}

/// The spec's payload; its `user` is ignored (the author is the caller).
#[derive(Debug, Deserialize, ToSchema)]
struct PostComment {
    /// Up to 200 characters.
    #[serde(default)]
    description: String,
    /// The post.
    post: i64,
}

/// The spec's payload; its `user` is ignored.
#[derive(Debug, Deserialize, ToSchema)]
struct ActionComment {
    /// Up to 200 characters.
    #[serde(default)]
    description: String,
    /// The activity.
    action: i64,
}

/// The spec's payload; its `user` is ignored.
#[derive(Debug, Deserialize, ToSchema)]
struct ActionReply {
    /// Up to 200 characters.
    #[serde(default)]
    description: String,
    /// The activity.
    action: i64,
    /// The root comment of that activity this answers.
    comment_id: i64,
}

/// A post's comments, oldest first
#[utoipa::path(
    get,
    path = "/comments/post/{postId}",
    tag = "feed",
    security(("member" = [])),
    params(("postId" = i64, Path, description = "The post")),
    responses(
        (status = 200, description = "The visible comments, oldest first", body = [Comment]),
        (status = 403, description = "The station's feed is closed", body = Messages),
        (status = 404, description = "No such post the caller sees", body = ErrorMessage),
    )
)]
async fn post_comments(
    State(state): State<AppState>,
    member: Member,
    Path(post_id): Path<i64>,
) -> ApiResult<Json<Vec<Comment>>> {
    open_feed(&state, &member, member.station_id).await?;
    let comments =
        comments::of_post(&state.db, member.station(), member.user(), PostId(post_id)).await?;
    Ok(Json(comments.into_iter().map(Comment::from).collect()))
}

/// Comments on a post
#[utoipa::path(
    post,
    path = "/comments",
    tag = "feed",
    security(("member" = [])),
    request_body = PostComment,
    responses(
        (status = 201, description = "Commented", body = Comment),
        (status = 403, description = "The station's feed is closed", body = Messages),
        (status = 404, description = "No such post the caller sees", body = ErrorMessage),
        (status = 422, description = "No text, or more than 200 characters", body = Messages),
        (status = 429, description = "More than 30 comments in 10 minutes", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn comment_on_post(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<PostComment>,
) -> ApiResult<(StatusCode, Json<Comment>)> {
    throttle::<CommentLimit>(&state, &member).await?;
    open_feed(&state, &member, member.station_id).await?;
    let comment = comments::on_post(
        &state.db,
        member.station(),
        member.user(),
        PostId(request.post),
        &request.description,
    )
    .await?;
    tracing::info!(
        user_id = member.user_id,
        post_id = request.post,
        comment_id = comment.id,
        "post comment"
    );
    Ok((StatusCode::CREATED, Json(comment.into())))
}

/// An activity's comments: the roots, oldest first, each with its replies
#[utoipa::path(
    get,
    path = "/comments/action/{id}",
    tag = "feed",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The activity")),
    responses(
        (status = 200, description = "The visible root comments with their replies, oldest first", body = [Comment]),
        (status = 404, description = "Unknown, unpublished, another station's, or comments and likes off", body = ErrorMessage),
    )
)]
async fn action_comments(
    State(state): State<AppState>,
    member: Member,
    Path(action_id): Path<i64>,
) -> ApiResult<Json<Vec<Comment>>> {
    let comments =
        comments::of_action(&state.db, member.station(), member.user(), action_id).await?;
    Ok(Json(comments.into_iter().map(Comment::from).collect()))
}

/// Comments on an activity
#[utoipa::path(
    post,
    path = "/comments-action",
    tag = "feed",
    security(("member" = [])),
    request_body = ActionComment,
    responses(
        (status = 201, description = "Commented", body = Comment),
        (status = 404, description = "Unknown, unpublished, another station's, or comments and likes off", body = ErrorMessage),
        (status = 422, description = "No text, or more than 200 characters", body = Messages),
        (status = 429, description = "More than 30 comments in 10 minutes", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn comment_on_action(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<ActionComment>,
) -> ApiResult<(StatusCode, Json<Comment>)> {
    throttle::<CommentLimit>(&state, &member).await?;
    let comment = comments::on_action(
        &state.db,
        member.station(),
        member.user(),
        request.action,
        None,
        &request.description,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(comment.into())))
}

/// Answers a root comment of an activity (ours)
///
/// One level of replies: the comment answered must be a root comment of that activity.
#[utoipa::path(
    post,
    path = "/sub-comments-action",
    tag = "feed",
    security(("member" = [])),
    request_body = ActionReply,
    responses(
        (status = 201, description = "Answered", body = Comment),
        (status = 404, description = "The activity is unavailable (as for comments), or the comment is not a visible root comment of it", body = ErrorMessage),
        (status = 422, description = "No text, or more than 200 characters", body = Messages),
        (status = 429, description = "More than 30 comments in 10 minutes", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn reply_on_action(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<ActionReply>,
) -> ApiResult<(StatusCode, Json<Comment>)> {
    throttle::<CommentLimit>(&state, &member).await?;
    let comment = comments::on_action(
        &state.db,
        member.station(),
        member.user(),
        request.action,
        Some(request.comment_id),
        &request.description,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(comment.into())))
}

/// Deletes one of the caller's comments
///
/// An activity's root comment takes its replies with it.
#[utoipa::path(
    delete,
    path = "/comments/{id}",
    tag = "feed",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The comment")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 403, description = "Another member's comment; or a post's comment and the station's feed is closed", body = Messages),
        (status = 404, description = "No such comment the caller sees, or its activity is unavailable", body = ErrorMessage),
    )
)]
async fn delete_comment(
    State(state): State<AppState>,
    member: Member,
    Path(comment_id): Path<i64>,
) -> ApiResult<StatusCode> {
    comments::delete(&state.db, member.station(), member.user(), comment_id).await?;
    tracing::info!(user_id = member.user_id, comment_id, "comment deleted");
    Ok(StatusCode::NO_CONTENT)
}

/// Reports a comment (ours)
///
/// As a post's report: once per member, hidden at the station's threshold until staff
/// review it.
#[utoipa::path(
    post,
    path = "/comments/{id}/report",
    tag = "feed",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The comment")),
    request_body = ReportRequest,
    responses(
        (status = 201, description = "Reported", body = ReportAnswer),
        (status = 200, description = "Reported before by the caller; counted once", body = ReportAnswer),
        (status = 403, description = "A post's comment and the station's feed is closed", body = Messages),
        (status = 404, description = "No such comment the caller sees, or its activity is unavailable", body = ErrorMessage),
        (status = 422, description = "A reason over 500 characters", body = Messages),
        (status = 429, description = "More than 20 reports in an hour", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn report_comment(
    State(state): State<AppState>,
    member: Member,
    Path(comment_id): Path<i64>,
    Json(request): Json<ReportRequest>,
) -> ApiResult<(StatusCode, Json<ReportAnswer>)> {
    throttle::<ReportLimit>(&state, &member).await?;
    let first = reports::report_comment(
        &state.db,
        member.station(),
        member.user(),
        comment_id,
        request.reason.as_deref().unwrap_or_default(),
    )
    .await?;
    tracing::info!(
        user_id = member.user_id,
        comment_id,
        first,
        "comment reported"
    );
    Ok(posts::reported(first))
}
