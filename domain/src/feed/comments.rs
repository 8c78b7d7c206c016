//! Comments on posts and on activities (docs/api-feed.md, "Comments"): up to 200
//! characters; an activity's root comment takes one level of replies; only the author
//! deletes one.
//!
//! A post's `comment_count` counts its visible comments (neither hidden nor removed): it
//! changes in the statement that adds or deletes a comment, and in the report or review
//! that hides or shows one again. Whatever changes a post's comments locks the post's row
//! first, then the comment's, so a post's delete (which takes its comments) never
//! deadlocks with them.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};

use super::posts::{self, Author, VISIBLE};
use crate::activities::participation::UNAVAILABLE;
use crate::shared::NOT_AUTHORIZED;
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{PostId, StationId, UserId};

pub const TEXT_MAX_CHARS: usize = 200;
pub const TEXT_REQUIRED: &str = "O comentário não pode ficar vazio.";
pub const TEXT_TOO_LONG: &str = "O comentário deve ter no máximo 200 caracteres.";
pub const NOT_FOUND: &str = "Comentário não encontrado.";

/// The activities of station `$1` (of `actions a`) members may comment on and like:
/// published, with comments and likes on.
pub(super) const OPEN_ACTIVITY: &str =
    "a.station_id = $1 AND a.active AND a.comments_and_likes_enabled";

/// Comments members see (of `comments c`).
const SHOWN: &str = "c.hidden_at IS NULL AND c.removed_at IS NULL";

/// A comment as one member sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    pub id: i64,
    pub description: String,
    pub author: Author,
    /// Whether the member who sees it wrote it.
    pub user_author: bool,
    /// The root comment this one answers (activities only).
    pub parent_id: Option<i64>,
    pub created_at: DateTime<Utc>,
    /// An activity's root comment's replies, oldest first; empty elsewhere.
    pub replies: Vec<Comment>,
}

/// Why a comment call (or a like, or a report of what they refuse) is refused, as the
/// member reads it.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error("{TEXT_REQUIRED}")]
    TextRequired,
    #[error("{TEXT_TOO_LONG}")]
    TextTooLong,
    /// The post is unknown, another station's or not visible to the caller.
    #[error("{}", posts::NOT_FOUND)]
    PostNotFound,
    /// The comment (or the root a reply answers) is unknown, another station's or hidden.
    #[error("{NOT_FOUND}")]
    CommentNotFound,
    /// Not a published activity of the station with comments and likes on.
    #[error("{UNAVAILABLE}")]
    ActivityUnavailable,
    /// The comment is on a post and the station's feed is closed.
    #[error("{NOT_AUTHORIZED}")]
    FeedClosed,
    #[error("{}", posts::NOT_AUTHOR)]
    NotAuthor,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for Refused {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

/// The text is the member's to fix; what they may not touch is forbidden, and what they
/// do not see is not found.
impl IntoFailure for Refused {
    fn into_failure(self) -> Failure {
        match self {
            Self::TextRequired | Self::TextTooLong => Failure::invalid(self.to_string()),
            Self::FeedClosed | Self::NotAuthor => Failure::Forbidden(self.to_string()),
            Self::PostNotFound | Self::CommentNotFound | Self::ActivityUnavailable => {
                Failure::NotFound(self.to_string())
            }
            Self::Internal(err) => Failure::Internal(err),
        }
    }
}

/// The comment's text, trimmed, when it holds: not empty, at most 200 characters.
pub fn text(description: &str) -> Result<&str, Refused> {
    let description = description.trim();
    if description.is_empty() {
        Err(Refused::TextRequired)
    } else if description.chars().count() > TEXT_MAX_CHARS {
        Err(Refused::TextTooLong)
    } else {
        Ok(description)
    }
}

/// The visible comments of post `post_id`, oldest first; refused when member `viewer` of
/// `station_id` does not see the post.
pub async fn of_post(
    db: &PgPool,
    station_id: StationId,
    viewer: UserId,
    post_id: PostId,
) -> Result<Vec<Comment>, Refused> {
    let mut conn = db.acquire().await?;
    let seen: bool = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT EXISTS (SELECT 1 FROM feed_posts p WHERE p.id = $3 AND {VISIBLE})"
    )))
    .bind(station_id)
    .bind(viewer)
    .bind(post_id)
    .fetch_one(&mut *conn)
    .await?;
    if !seen {
        return Err(Refused::PostNotFound);
    }
    let rows = select(&mut conn, viewer, "c.post_id = $2", post_id.into()).await?;
    Ok(rows.into_iter().map(CommentRow::into_comment).collect())
}

/// The visible root comments of activity `action_id`, oldest first, each with its visible
/// replies; refused when it is not an activity of `station_id` open to comments.
pub async fn of_action(
    db: &PgPool,
    station_id: StationId,
    viewer: UserId,
    action_id: i64,
) -> Result<Vec<Comment>, Refused> {
    let mut conn = db.acquire().await?;
    if !activity_open(&mut conn, station_id, action_id).await? {
        return Err(Refused::ActivityUnavailable);
    }
    let rows = select(&mut conn, viewer, "c.action_id = $2", action_id).await?;
    let (roots, replies): (Vec<CommentRow>, Vec<CommentRow>) =
        rows.into_iter().partition(|row| row.parent_id.is_none());
    let mut roots: Vec<Comment> = roots.into_iter().map(CommentRow::into_comment).collect();
    // Both lists are oldest first, so each root's replies are too; a reply whose root is
    // hidden goes with it.
    for reply in replies {
        if let Some(root) = roots
            .iter_mut()
            .find(|root| Some(root.id) == reply.parent_id)
        {
            root.replies.push(reply.into_comment());
        }
    }
    Ok(roots)
}

/// Comments on post `post_id` (one member `user_id` sees) and counts it into the post.
pub async fn on_post(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    post_id: PostId,
    description: &str,
) -> Result<Comment, Refused> {
    let description = text(description)?;
    let mut tx = db.begin().await?;
    if !lock_post(&mut tx, station_id, user_id, post_id).await? {
        return Err(Refused::PostNotFound);
    }
    let id: i64 = sqlx::query_scalar(
        "WITH added AS (
             INSERT INTO comments (station_id, user_id, post_id, description)
             VALUES ($1, $2, $3, $4) RETURNING id
         ), counted AS (
             UPDATE feed_posts SET comment_count = comment_count + (SELECT count(*) FROM added)
              WHERE id = $3
         )
         SELECT id FROM added",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(post_id)
    .bind(description)
    .fetch_one(&mut *tx)
    .await?;
    let comment = load(&mut tx, user_id, id).await?;
    tx.commit().await?;
    Ok(comment)
}

/// Comments on activity `action_id`, or answers its root comment `parent_id`.
pub async fn on_action(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    action_id: i64,
    parent_id: Option<i64>,
    description: &str,
) -> Result<Comment, Refused> {
    let description = text(description)?;
    let mut tx = db.begin().await?;
    if !activity_open(&mut tx, station_id, action_id).await? {
        return Err(Refused::ActivityUnavailable);
    }
    if let Some(parent_id) = parent_id {
        // Held until commit: a root deleted meanwhile would fail the reply's insert.
        let root: Option<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT c.id FROM comments c
              WHERE c.id = $1 AND c.action_id = $2 AND c.parent_id IS NULL AND {SHOWN}
                FOR KEY SHARE"
        )))
        .bind(parent_id)
        .bind(action_id)
        .fetch_optional(&mut *tx)
        .await?;
        if root.is_none() {
            return Err(Refused::CommentNotFound);
        }
    }
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO comments (station_id, user_id, action_id, parent_id, description)
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(action_id)
    .bind(parent_id)
    .bind(description)
    .fetch_one(&mut *tx)
    .await?;
    let comment = load(&mut tx, user_id, id).await?;
    tx.commit().await?;
    Ok(comment)
}

/// Deletes comment `comment_id` by its author (an activity's root takes its replies), and
/// counts it out of its post.
pub async fn delete(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    comment_id: i64,
) -> Result<(), Refused> {
    let mut tx = db.begin().await?;
    let comment = lock(&mut tx, station_id, user_id, comment_id).await?;
    if comment.user_id != user_id {
        return Err(Refused::NotAuthor);
    }
    // Only a visible comment is locked, so it leaves the count.
    sqlx::query(
        "WITH deleted AS (DELETE FROM comments WHERE id = $1 RETURNING post_id)
         UPDATE feed_posts SET comment_count = comment_count - (SELECT count(*) FROM deleted)
          WHERE id = (SELECT post_id FROM deleted)",
    )
    .bind(comment_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// A visible comment, locked.
#[derive(Debug, Clone, Copy)]
pub(super) struct Locked {
    pub id: i64,
    pub user_id: UserId,
    pub post_id: Option<PostId>,
}

/// Locks comment `comment_id` of station `station_id` when member `viewer` sees it: shown,
/// its root too (for a reply), on a post they see (locked first) in an open feed, or on an
/// activity open to comments.
pub(super) async fn lock(
    conn: &mut PgConnection,
    station_id: StationId,
    viewer: UserId,
    comment_id: i64,
) -> Result<Locked, Refused> {
    let on: Option<(Option<PostId>, Option<i64>)> =
        sqlx::query_as("SELECT post_id, action_id FROM comments WHERE id = $1 AND station_id = $2")
            .bind(comment_id)
            .bind(station_id)
            .fetch_optional(&mut *conn)
            .await?;
    match on {
        None => return Err(Refused::CommentNotFound),
        Some((Some(post_id), _)) => {
            if !posts::feed_open(&mut *conn, station_id).await? {
                return Err(Refused::FeedClosed);
            }
            if !lock_post(&mut *conn, station_id, viewer, post_id).await? {
                return Err(Refused::CommentNotFound);
            }
        }
        Some((None, action_id)) => {
            let open = match action_id {
                Some(action_id) => activity_open(&mut *conn, station_id, action_id).await?,
                None => false,
            };
            if !open {
                return Err(Refused::ActivityUnavailable);
            }
        }
    }
    let locked: Option<(UserId, Option<PostId>)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT c.user_id, c.post_id FROM comments c
          WHERE c.id = $1 AND c.station_id = $2 AND {SHOWN}
            AND (c.parent_id IS NULL OR EXISTS (
                 SELECT 1 FROM comments root
                  WHERE root.id = c.parent_id
                    AND root.hidden_at IS NULL AND root.removed_at IS NULL))
            FOR UPDATE OF c"
    )))
    .bind(comment_id)
    .bind(station_id)
    .fetch_optional(&mut *conn)
    .await?;
    locked
        .map(|(user_id, post_id)| Locked {
            id: comment_id,
            user_id,
            post_id,
        })
        .ok_or(Refused::CommentNotFound)
}

/// Locks post `post_id` when member `viewer` of `station_id` sees it (its counts change
/// next); false when they do not.
pub(super) async fn lock_post(
    conn: &mut PgConnection,
    station_id: StationId,
    viewer: UserId,
    post_id: PostId,
) -> sqlx::Result<bool> {
    let locked: Option<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT p.id FROM feed_posts p WHERE p.id = $3 AND {VISIBLE} FOR NO KEY UPDATE"
    )))
    .bind(station_id)
    .bind(viewer)
    .bind(post_id)
    .fetch_optional(conn)
    .await?;
    Ok(locked.is_some())
}

/// Whether `action_id` is an activity of `station_id` open to comments and likes.
async fn activity_open(
    conn: &mut PgConnection,
    station_id: StationId,
    action_id: i64,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT EXISTS (SELECT 1 FROM actions a WHERE a.id = $2 AND {OPEN_ACTIVITY})"
    )))
    .bind(station_id)
    .bind(action_id)
    .fetch_one(conn)
    .await
}

#[derive(sqlx::FromRow)]
struct CommentRow {
    id: i64,
    description: String,
    user_id: UserId,
    user_name: String,
    user_image: Option<String>,
    parent_id: Option<i64>,
    created_at: DateTime<Utc>,
    user_author: bool,
}

impl CommentRow {
    fn into_comment(self) -> Comment {
        Comment {
            id: self.id,
            description: self.description,
            author: Author {
                id: self.user_id,
                name: self.user_name,
                image: self.user_image,
            },
            user_author: self.user_author,
            parent_id: self.parent_id,
            created_at: self.created_at,
            replies: Vec::new(),
        }
    }
}

/// The shown comments `filter` (on `$2`) keeps, as member `$1` sees them, oldest first.
async fn select(
    conn: &mut PgConnection,
    viewer: UserId,
    filter: &str,
    id: i64,
) -> sqlx::Result<Vec<CommentRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT c.id, c.description, c.user_id, u.name AS user_name, u.image AS user_image,
                c.parent_id, c.created_at, c.user_id = $1 AS user_author
           FROM comments c JOIN users u ON u.id = c.user_id
          WHERE {filter} AND {SHOWN}
          ORDER BY c.created_at, c.id"
    )))
    .bind(viewer)
    .bind(id)
    .fetch_all(conn)
    .await
}

/// Comment `id` just written, as its author sees it.
async fn load(conn: &mut PgConnection, viewer: UserId, id: i64) -> sqlx::Result<Comment> {
    select(conn, viewer, "c.id = $2", id)
        .await?
        .pop()
        .map(CommentRow::into_comment)
        .ok_or(sqlx::Error::RowNotFound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_trimmed_required_and_bounded() {
        assert_eq!(text("  Que legal!  ").ok(), Some("Que legal!"));
        assert!(matches!(text(" \n "), Err(Refused::TextRequired)));
        assert_eq!(
            text(&"ç".repeat(200)).map(|t| t.chars().count()).ok(),
            Some(200)
        );
        assert!(matches!(text(&"ç".repeat(201)), Err(Refused::TextTooLong)));
    }
}
