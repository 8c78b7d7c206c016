//! Likes on posts and on activities (docs/api-feed.md, "Likes"): one row per member and
//! item, and a count on the item that changes in the statement that adds or removes the
//! row, so it never drifts from the rows however many likes arrive at once. Liking twice or
//! unliking what is not liked changes nothing.

use sqlx::PgPool;

use super::comments::{OPEN_ACTIVITY, Refused};
use super::posts::VISIBLE;
use crate::shared::ids::{PostId, StationId, UserId};

/// An item's likes and whether the caller is among them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Likes {
    pub likes: i32,
    pub user_liked: bool,
}

/// What members like.
#[derive(Debug, Clone, Copy)]
enum Item {
    Post,
    Action,
}

/// The statement of a like (or unlike) of item `$3` by member `$2` of station `$1`:
/// `target` is the item when the member may like it, `changed` the like row added or
/// removed, counted into the item in the same statement. Answers the new count, or no row
/// when the member may not like the item. The item's row is locked first, as its delete
/// (which takes its likes) locks it: an unlike holding its like row never waits for a
/// delete that waits for that row.
fn toggle_sql(item: Item, like: bool) -> String {
    let (target, items, likes, column) = match item {
        Item::Post => (
            format!(
                "SELECT p.id FROM feed_posts p WHERE p.id = $3 AND {VISIBLE} FOR NO KEY UPDATE"
            ),
            "feed_posts",
            "feed_likes",
            "post_id",
        ),
        Item::Action => (
            format!(
                "SELECT a.id FROM actions a WHERE a.id = $3 AND {OPEN_ACTIVITY} FOR NO KEY UPDATE"
            ),
            "actions",
            "action_likes",
            "action_id",
        ),
    };
    let (changed, sign) = if like {
        (
            format!(
                "INSERT INTO {likes} ({column}, user_id) SELECT id, $2 FROM target
                 ON CONFLICT DO NOTHING RETURNING {column}"
            ),
            '+',
        )
    } else {
        (
            format!(
                "DELETE FROM {likes} WHERE {column} = (SELECT id FROM target) AND user_id = $2
                 RETURNING {column}"
            ),
            '-',
        )
    };
    format!(
        "WITH target AS ({target}), changed AS ({changed})
         UPDATE {items} SET like_count = like_count {sign} (SELECT count(*) FROM changed)
          WHERE id = (SELECT id FROM target) RETURNING like_count"
    )
}

/// Likes post `post_id` (one the member sees) as `user_id`; refused when they do not see it.
pub async fn like_post(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    post_id: PostId,
) -> Result<Likes, Refused> {
    toggle(db, station_id, user_id, post_id.into(), Item::Post, true).await
}

/// Takes back `user_id`'s like of post `post_id`; refused when they do not see the post.
pub async fn unlike_post(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    post_id: PostId,
) -> Result<Likes, Refused> {
    toggle(db, station_id, user_id, post_id.into(), Item::Post, false).await
}

/// Likes activity `action_id` (of the station, published, with comments and likes on);
/// refused when it is not such an activity.
pub async fn like_action(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    action_id: i64,
) -> Result<Likes, Refused> {
    toggle(db, station_id, user_id, action_id, Item::Action, true).await
}

/// Takes back `user_id`'s like of activity `action_id`; refused as [`like_action`].
pub async fn unlike_action(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    action_id: i64,
) -> Result<Likes, Refused> {
    toggle(db, station_id, user_id, action_id, Item::Action, false).await
}

/// Activity `action_id`'s likes as `user_id` sees them; refused as [`like_action`].
pub async fn of_action(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    action_id: i64,
) -> Result<Likes, Refused> {
    let found: Option<(i32, bool)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT a.like_count,
                EXISTS (SELECT 1 FROM action_likes l
                         WHERE l.action_id = a.id AND l.user_id = $2)
           FROM actions a WHERE a.id = $3 AND {OPEN_ACTIVITY}"
    )))
    .bind(station_id)
    .bind(user_id)
    .bind(action_id)
    .fetch_optional(db)
    .await?;
    found
        .map(|(likes, user_liked)| Likes { likes, user_liked })
        .ok_or(Refused::ActivityUnavailable)
}

async fn toggle(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    id: i64,
    item: Item,
    like: bool,
) -> Result<Likes, Refused> {
    let counted: Option<i32> = sqlx::query_scalar(sqlx::AssertSqlSafe(toggle_sql(item, like)))
        .bind(station_id)
        .bind(user_id)
        .bind(id)
        .fetch_optional(db)
        .await?;
    let unseen = match item {
        Item::Post => Refused::PostNotFound,
        Item::Action => Refused::ActivityUnavailable,
    };
    counted
        .map(|likes| Likes {
            likes,
            user_liked: like,
        })
        .ok_or(unseen)
}
