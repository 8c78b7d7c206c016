//! Likes on posts (`POST /likes-web`, `PUT /likes`) and on activities
//! (`GET /likes/action/{id}`, `POST` and `PUT /likes-action`) (docs/api-feed.md, "Likes").
//! Liking twice or unliking what is not liked changes nothing and answers the state.

use axum::extract::State;
use domain::feed::likes;
use domain::shared::ids::PostId;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::posts::open_feed;
use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::member::Member;
use crate::member_throttle::{MemberLimit, throttle};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(like_post))
        .routes(routes!(unlike_post))
        .routes(routes!(action_likes))
        .routes(routes!(like_action, unlike_action))
}

/// Likes and unlikes of posts and activities together: 120 a minute.
struct LikeLimit;

impl MemberLimit for LikeLimit {
    const NAME: &'static str = "feed-likes";
    fn limit(_: &domain::Config) -> (u32, u64) {
        (120, 60)
    }
}

/// An item's likes and whether the caller is among them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Likes {
    pub likes: i32,
    pub user_liked: bool,
}

impl From<likes::Likes> for Likes {
    fn from(likes: likes::Likes) -> Self {
        let likes::Likes { likes, user_liked } = likes;
        Self { likes, user_liked }
    }
}

/// The spec's payload; its `user` is ignored (the caller likes).
#[derive(Debug, Deserialize, ToSchema)]
struct PostLike {
    /// The post.
    post: i64,
}

/// The spec's payload; its `user` is ignored.
#[derive(Debug, Deserialize, ToSchema)]
struct ActionLike {
    /// The activity.
    action: i64,
}

/// Likes a post
#[utoipa::path(
    post,
    path = "/likes-web",
    tag = "feed",
    security(("member" = [])),
    request_body = PostLike,
    responses(
        (status = 200, description = "The post's likes, the caller's among them", body = Likes),
        (status = 403, description = "The station's feed is closed", body = Messages),
        (status = 404, description = "No such post the caller sees", body = ErrorMessage),
        (status = 429, description = "More than 120 likes and unlikes in a minute", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn like_post(
    State(state): State<AppState>,
    member: Member,
    Json(like): Json<PostLike>,
) -> ApiResult<Json<Likes>> {
    throttle::<LikeLimit>(&state, &member).await?;
    open_feed(&state, &member, member.station_id).await?;
    let likes = likes::like_post(
        &state.db,
        member.station(),
        member.user(),
        PostId(like.post),
    )
    .await?;
    Ok(Json(likes.into()))
}

/// Takes back the caller's like of a post
#[utoipa::path(
    put,
    path = "/likes",
    tag = "feed",
    security(("member" = [])),
    request_body = PostLike,
    responses(
        (status = 200, description = "The post's likes, without the caller's", body = Likes),
        (status = 403, description = "The station's feed is closed", body = Messages),
        (status = 404, description = "No such post the caller sees", body = ErrorMessage),
        (status = 429, description = "More than 120 likes and unlikes in a minute", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn unlike_post(
    State(state): State<AppState>,
    member: Member,
    Json(like): Json<PostLike>,
) -> ApiResult<Json<Likes>> {
    throttle::<LikeLimit>(&state, &member).await?;
    open_feed(&state, &member, member.station_id).await?;
    let likes = likes::unlike_post(
        &state.db,
        member.station(),
        member.user(),
        PostId(like.post),
    )
    .await?;
    Ok(Json(likes.into()))
}

/// An activity's likes
#[utoipa::path(
    get,
    path = "/likes/action/{id}",
    tag = "feed",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The activity")),
    responses(
        (status = 200, description = "The activity's likes and whether the caller's is among them", body = Likes),
        (status = 404, description = "Unknown, unpublished, another station's, or comments and likes off", body = ErrorMessage),
    )
)]
async fn action_likes(
    State(state): State<AppState>,
    member: Member,
    Path(action_id): Path<i64>,
) -> ApiResult<Json<Likes>> {
    let likes = likes::of_action(&state.db, member.station(), member.user(), action_id).await?;
    Ok(Json(likes.into()))
}

/// Likes an activity
#[utoipa::path(
    post,
    path = "/likes-action",
    tag = "feed",
    security(("member" = [])),
    request_body = ActionLike,
    responses(
        (status = 200, description = "The activity's likes, the caller's among them", body = Likes),
        (status = 404, description = "Unknown, unpublished, another station's, or comments and likes off", body = ErrorMessage),
        (status = 429, description = "More than 120 likes and unlikes in a minute", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn like_action(
    State(state): State<AppState>,
    member: Member,
    Json(like): Json<ActionLike>,
) -> ApiResult<Json<Likes>> {
    throttle::<LikeLimit>(&state, &member).await?;
    let likes = likes::like_action(&state.db, member.station(), member.user(), like.action).await?;
    Ok(Json(likes.into()))
}

/// Takes back the caller's like of an activity
#[utoipa::path(
    put,
    path = "/likes-action",
    tag = "feed",
    security(("member" = [])),
    request_body = ActionLike,
    responses(
        (status = 200, description = "The activity's likes, without the caller's", body = Likes),
        (status = 404, description = "Unknown, unpublished, another station's, or comments and likes off", body = ErrorMessage),
        (status = 429, description = "More than 120 likes and unlikes in a minute", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn unlike_action(
    State(state): State<AppState>,
    member: Member,
    Json(like): Json<ActionLike>,
) -> ApiResult<Json<Likes>> {
    throttle::<LikeLimit>(&state, &member).await?;
    let likes =
        likes::unlike_action(&state.db, member.station(), member.user(), like.action).await?;
    Ok(Json(likes.into()))
}
