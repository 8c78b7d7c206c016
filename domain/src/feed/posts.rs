//! The wall feed's posts (docs/api-feed.md, "Posts"): text up to 320 characters, an image
//! or a video of the member's own upload; the feed, newest first, paged by a keyset on
//! (created_at, id); the author's delete.
//!
//! A member sees the published posts of their station that are neither hidden nor removed,
//! and their own video posts still waiting for their video. `published_at` is set at once
//! for text and images, and for a video post when its video is ready: here when it already
//! is, otherwise by `video.transcode`.

use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, PgPool};

use super::videos::{self, VIDEO_COLUMNS, Video, VideoStatus};
use crate::infra::images::{self, Encoded, ImageCodec};
use crate::infra::uploads::{self, FileKind};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{PostId, StationId, UserId};

pub const TEXT_MAX_CHARS: usize = 320;
pub const TEXT_TOO_LONG: &str = "O texto deve ter no máximo 320 caracteres.";
pub const TEXT_REQUIRED: &str = "Escreva algo ou escolha uma imagem ou um vídeo.";
/// The spec's limit for a post image, decoded.
pub const IMAGE_MAX_BYTES: usize = 1_200_000;
/// Stored images fit this box: wide enough for the feed on any screen.
pub const IMAGE_MAX_SIDE: u32 = 1600;
pub const NOT_FOUND: &str = "Publicação não encontrada.";
pub const NOT_AUTHOR: &str = "Apenas o autor pode apagar.";
pub const VIDEO_FAILED: &str = "Este vídeo não pôde ser processado. Envie outro vídeo.";
pub const VIDEO_TAKEN: &str = "Este vídeo já está em outra publicação.";

/// Posts a feed page holds unless the caller asks otherwise (the spec's page of 3).
pub const PAGE_DEFAULT: i64 = 3;
pub const PAGE_MAX: i64 = 30;
/// The most posts `posts-limit` answers at once.
pub const LIMIT_MAX: i64 = 60;

/// The posts member `$2` sees in station `$1` (of `feed_posts p`): published ones, and their
/// own whose video is not ready; never hidden or removed ones.
pub(super) const VISIBLE: &str = "p.station_id = $1 AND p.hidden_at IS NULL \
     AND p.removed_at IS NULL AND (p.published_at IS NOT NULL OR p.user_id = $2)";

/// Who wrote a post or a comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Author {
    pub id: UserId,
    pub name: String,
    /// The member's picture (a URL), if any.
    pub image: Option<String>,
}

/// A post as one member sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Post {
    pub id: PostId,
    pub station_id: StationId,
    pub author: Author,
    pub description: String,
    pub image_key: Option<String>,
    pub video: Option<Video>,
    pub likes: i32,
    pub comments: i32,
    pub user_liked: bool,
    pub user_author: bool,
    /// False only for the author's own video post whose video is not ready.
    pub published: bool,
    pub created_at: DateTime<Utc>,
}

/// Where the next page of the feed starts: below this post, in (created_at, id) order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    created_at: DateTime<Utc>,
    id: PostId,
}

impl Cursor {
    /// Opaque to the client: it only hands it back.
    pub fn encode(self) -> String {
        URL_SAFE_NO_PAD.encode(format!(
            "{}:{}",
            self.created_at.timestamp_micros(),
            self.id
        ))
    }

    pub fn decode(text: &str) -> Option<Self> {
        let bytes = URL_SAFE_NO_PAD.decode(text.trim()).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        let (micros, id) = text.split_once(':')?;
        Some(Self {
            created_at: DateTime::from_timestamp_micros(micros.parse().ok()?)?,
            id: PostId(id.parse().ok()?),
        })
    }
}

/// A page of the feed and where the next one starts (`None` at the end).
#[derive(Debug, Clone)]
pub struct FeedPage {
    pub posts: Vec<Post>,
    pub next: Option<Cursor>,
}

/// Why a post is refused, as the member reads it.
#[derive(Debug, thiserror::Error)]
pub enum NotPosted {
    #[error("{TEXT_TOO_LONG}")]
    TextTooLong,
    #[error("{TEXT_REQUIRED}")]
    TextRequired,
    /// Not a JPEG or PNG, or too large.
    #[error("{}", uploads::FILE_INVALID)]
    MediaInvalid,
    /// Unknown, or another member's or station's upload.
    #[error("{}", videos::NOT_FOUND)]
    VideoNotFound,
    #[error("{VIDEO_FAILED}")]
    VideoFailed,
    /// On another post already.
    #[error("{VIDEO_TAKEN}")]
    VideoTaken,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for NotPosted {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

/// An upload not the member's is not found; the rest is the member's to fix.
impl IntoFailure for NotPosted {
    fn into_failure(self) -> Failure {
        match self {
            Self::Internal(err) => Failure::Internal(err),
            Self::VideoNotFound => Failure::NotFound(self.to_string()),
            refused => Failure::invalid(refused.to_string()),
        }
    }
}

/// What an author's delete leaves for the caller to remove once it has committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deleted {
    /// The post's image object.
    pub image_key: Option<String>,
    /// The post's upload, which no post carries any more.
    pub video_id: Option<i64>,
}

/// Why a delete is refused.
#[derive(Debug, thiserror::Error)]
pub enum NotDeleted {
    /// Unknown, another station's, or not visible to the caller.
    #[error("{NOT_FOUND}")]
    NotFound,
    #[error("{NOT_AUTHOR}")]
    NotAuthor,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for NotDeleted {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

impl IntoFailure for NotDeleted {
    fn into_failure(self) -> Failure {
        match self {
            Self::NotFound => Failure::NotFound(self.to_string()),
            Self::NotAuthor => Failure::Forbidden(self.to_string()),
            Self::Internal(err) => Failure::Internal(err),
        }
    }
}

/// Whether the station's feed is open (`feed_access`); an unknown station's is not.
pub async fn feed_open(db: impl PgExecutor<'_>, station_id: StationId) -> sqlx::Result<bool> {
    let open: Option<bool> = sqlx::query_scalar("SELECT feed_access FROM stations WHERE id = $1")
        .bind(station_id)
        .fetch_optional(db)
        .await?;
    Ok(open.unwrap_or(false))
}

/// The post's text, trimmed, when it holds: at most 320 characters, and not empty without
/// an image or a video.
pub fn text(description: &str, has_media: bool) -> Result<&str, NotPosted> {
    let description = description.trim();
    if description.chars().count() > TEXT_MAX_CHARS {
        Err(NotPosted::TextTooLong)
    } else if description.is_empty() && !has_media {
        Err(NotPosted::TextRequired)
    } else {
        Ok(description)
    }
}

/// A post's image from base64: a JPEG or PNG by its content, at most [`IMAGE_MAX_BYTES`]
/// decoded, re-encoded to fit [`IMAGE_MAX_SIDE`] (which drops its metadata).
pub async fn image(codec: &dyn ImageCodec, base64: &str) -> Result<Encoded, NotPosted> {
    images::accept(
        codec,
        base64,
        IMAGE_MAX_BYTES,
        &[FileKind::Jpeg, FileKind::Png],
        IMAGE_MAX_SIDE,
    )
    .await?
    .map_err(|_| NotPosted::MediaInvalid)
}

/// Publishes a text post, or an image post when `image_key` names its stored image.
pub async fn create(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    description: &str,
    image_key: Option<&str>,
) -> Result<Post, NotPosted> {
    let mut tx = db.begin().await?;
    let post = create_in(&mut tx, station_id, user_id, description, image_key).await?;
    tx.commit().await?;
    Ok(post)
}

/// [`create`] on the caller's transaction, for one that asks for the image's work with it.
pub async fn create_in(
    tx: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    description: &str,
    image_key: Option<&str>,
) -> Result<Post, NotPosted> {
    let description = text(description, image_key.is_some())?;
    let id: PostId = sqlx::query_scalar(
        "INSERT INTO feed_posts (station_id, user_id, description, image_key, published_at)
         VALUES ($1, $2, $3, $4, now()) RETURNING id",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(description)
    .bind(image_key)
    .fetch_one(&mut *tx)
    .await?;
    Ok(created(tx, station_id, user_id, id).await?)
}

/// A post of the member's own upload `video_id`, published at once when the video is ready
/// and otherwise when `video.transcode` makes it so. The video's row is locked first: the
/// job changes that row before it publishes the video's post, so either it is ready here,
/// or the job's publishing runs after this post is committed and finds it.
pub async fn create_with_video(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    description: &str,
    video_id: i64,
) -> Result<Post, NotPosted> {
    let description = text(description, true)?;
    let mut tx = db.begin().await?;
    let video: Option<Video> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {VIDEO_COLUMNS} FROM feed_videos v
          WHERE v.id = $1 AND v.user_id = $2 AND v.station_id = $3 FOR UPDATE"
    )))
    .bind(video_id)
    .bind(user_id)
    .bind(station_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(video) = video else {
        return Err(NotPosted::VideoNotFound);
    };
    if video.status == VideoStatus::Failed {
        return Err(NotPosted::VideoFailed);
    }
    let taken: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM feed_posts WHERE video_id = $1)")
            .bind(video_id)
            .fetch_one(&mut *tx)
            .await?;
    if taken {
        return Err(NotPosted::VideoTaken);
    }
    let id: PostId = sqlx::query_scalar(
        "INSERT INTO feed_posts (station_id, user_id, description, video_id, published_at)
         VALUES ($1, $2, $3, $4, CASE WHEN $5 THEN now() END) RETURNING id",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(description)
    .bind(video_id)
    .bind(video.status == VideoStatus::Ready)
    .fetch_one(&mut *tx)
    .await?;
    let post = created(&mut tx, station_id, user_id, id).await?;
    tx.commit().await?;
    Ok(post)
}

/// The post just inserted, as its author sees it.
async fn created(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    id: PostId,
) -> sqlx::Result<Post> {
    find(conn, station_id, user_id, id)
        .await?
        .ok_or(sqlx::Error::RowNotFound)
}

/// Deletes post `post_id` by its author; its likes, comments and reports go with it.
/// Answers its image and its video, which the caller removes once this has committed (the
/// video's row has to outlive the post's, which refers to it).
pub async fn delete(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    post_id: PostId,
) -> Result<Deleted, NotDeleted> {
    let mut tx = db.begin().await?;
    let found: Option<(UserId, Option<String>, Option<i64>)> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT p.user_id, p.image_key, p.video_id FROM feed_posts p
              WHERE p.id = $3 AND {VISIBLE} FOR UPDATE"
        )))
        .bind(station_id)
        .bind(user_id)
        .bind(post_id)
        .fetch_optional(&mut *tx)
        .await?;
    let Some((author, image_key, video_id)) = found else {
        return Err(NotDeleted::NotFound);
    };
    if author != user_id {
        return Err(NotDeleted::NotAuthor);
    }
    sqlx::query("DELETE FROM feed_posts WHERE id = $1")
        .bind(post_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Deleted {
        image_key,
        video_id,
    })
}

/// A page of station `station_id`'s feed as member `viewer` sees it: up to `limit` posts
/// older than `before` (the newest without it), newest first.
pub async fn page(
    db: &PgPool,
    station_id: StationId,
    viewer: UserId,
    before: Option<Cursor>,
    limit: i64,
) -> sqlx::Result<FeedPage> {
    let mut conn = db.acquire().await?;
    let mut rows: Vec<PostRow> = sqlx::query_as(sqlx::AssertSqlSafe(select_posts(
        "($3::timestamptz IS NULL OR (p.created_at, p.id) < ($3, $4))
         ORDER BY p.created_at DESC, p.id DESC LIMIT $5",
    )))
    .bind(station_id)
    .bind(viewer)
    .bind(before.map(|cursor| cursor.created_at))
    .bind(before.map(|cursor| cursor.id))
    .bind(limit + 1)
    .fetch_all(&mut *conn)
    .await?;
    let more = rows.len() > usize::try_from(limit).unwrap_or(usize::MAX);
    rows.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    let next = rows.last().filter(|_| more).map(|last| Cursor {
        created_at: last.created_at,
        id: last.id,
    });
    let posts = with_videos(&mut conn, rows, viewer).await?;
    Ok(FeedPage { posts, next })
}

/// Post `post_id` as member `viewer` of `station_id` sees it, or `None` when they do not.
pub async fn find(
    conn: &mut PgConnection,
    station_id: StationId,
    viewer: UserId,
    post_id: PostId,
) -> sqlx::Result<Option<Post>> {
    let row: Option<PostRow> = sqlx::query_as(sqlx::AssertSqlSafe(select_posts("p.id = $3")))
        .bind(station_id)
        .bind(viewer)
        .bind(post_id)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(with_videos(conn, row.into_iter().collect(), viewer)
        .await?
        .pop())
}

/// The visible posts of station `$1` for member `$2` that `filter` keeps.
fn select_posts(filter: &str) -> String {
    format!(
        "SELECT p.id, p.station_id, p.user_id, u.name AS user_name, u.image AS user_image,
                p.description, p.image_key, p.video_id, p.like_count, p.comment_count,
                p.published_at IS NOT NULL AS published, p.created_at,
                EXISTS (SELECT 1 FROM feed_likes l
                         WHERE l.post_id = p.id AND l.user_id = $2) AS user_liked
           FROM feed_posts p JOIN users u ON u.id = p.user_id
          WHERE {VISIBLE} AND {filter}"
    )
}

#[derive(sqlx::FromRow)]
struct PostRow {
    id: PostId,
    station_id: StationId,
    user_id: UserId,
    user_name: String,
    user_image: Option<String>,
    description: String,
    image_key: Option<String>,
    video_id: Option<i64>,
    like_count: i32,
    comment_count: i32,
    published: bool,
    created_at: DateTime<Utc>,
    user_liked: bool,
}

async fn with_videos(
    conn: &mut PgConnection,
    rows: Vec<PostRow>,
    viewer: UserId,
) -> sqlx::Result<Vec<Post>> {
    let ids: Vec<i64> = rows.iter().filter_map(|row| row.video_id).collect();
    let mut videos = videos_by_id(conn, &ids).await?;
    Ok(rows
        .into_iter()
        .map(|row| Post {
            id: row.id,
            station_id: row.station_id,
            author: Author {
                id: row.user_id,
                name: row.user_name,
                image: row.user_image,
            },
            description: row.description,
            image_key: row.image_key,
            video: row.video_id.and_then(|id| videos.remove(&id)),
            likes: row.like_count,
            comments: row.comment_count,
            user_liked: row.user_liked,
            user_author: row.user_id == viewer,
            published: row.published,
            created_at: row.created_at,
        })
        .collect())
}

/// The uploads `ids` name, by id.
pub(super) async fn videos_by_id(
    conn: &mut PgConnection,
    ids: &[i64],
) -> sqlx::Result<HashMap<i64, Video>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let videos: Vec<Video> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {VIDEO_COLUMNS} FROM feed_videos v WHERE v.id = ANY ($1)"
    )))
    .bind(ids)
    .fetch_all(conn)
    .await?;
    Ok(videos.into_iter().map(|video| (video.id, video)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_trimmed_bounded_and_required_without_media() {
        assert_eq!(text("  Bom dia  ", false).ok(), Some("Bom dia"));
        assert_eq!(text(&"é".repeat(320), false).map(str::len).ok(), Some(640));
        assert!(matches!(
            text(&"é".repeat(321), true),
            Err(NotPosted::TextTooLong)
        ));
        assert!(matches!(text("   ", false), Err(NotPosted::TextRequired)));
        assert_eq!(text("", true).ok(), Some(""));
    }

    #[test]
    fn a_cursor_reads_back_and_garbage_is_refused() {
        let cursor = Cursor {
            created_at: DateTime::from_timestamp_micros(1_795_000_000_123_456).expect("time"),
            id: PostId(41),
        };
        assert_eq!(Cursor::decode(&cursor.encode()), Some(cursor));
        assert_eq!(Cursor::decode("não é"), None);
        assert_eq!(Cursor::decode(&URL_SAFE_NO_PAD.encode("12:x")), None);
    }
}
