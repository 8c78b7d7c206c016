//! The videos members upload to the feed: a resumable upload into the upload area, then
//! `video.transcode` makes the MP4 and poster the feed plays.
//!
//! The upload area (`FILIA_DATA_DIR/uploads`, one folder the API and the workers share)
//! holds `{id}.part`, the bytes received so far, and `{id}.work-{ulid}/`, one transcode
//! attempt's output (the ULID says when the attempt began). A row's `received` is what is
//! durably in its part file: an append writes and syncs the bytes before recording them,
//! under the row's lock, and cuts back whatever a failed earlier write left past
//! `received`. Objects are recorded only once stored, under keys of their own, so an
//! attempt that dies half-way leaves nothing served; a video no post carries any more is
//! removed with its objects ([`discard_unposted`], and [`sweep`] for the rest).
//!
//! The upload itself is in `upload`, the transcode's side in `processing`, and the removal
//! of what no one needs any more in `sweep`; this module holds the row they share and the
//! upload area's files.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};

use crate::infra::config::Config;
use crate::infra::objects::Objects;
use crate::infra::uploads::{FileKind, kind_of};
use crate::shared::ids::{StationId, UserId};

mod processing;
mod sweep;
mod upload;

pub use processing::*;
pub use sweep::*;
pub use upload::*;

/// Where an upload is, as `feed_videos.status` stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "lowercase")]
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

/// One upload, as its owner and the feed see it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Video {
    pub id: i64,
    pub station_id: i64,
    pub user_id: i64,
    pub original_name: String,
    pub size: i64,
    pub received: i64,
    pub status: VideoStatus,
    pub job_id: Option<String>,
    pub video_key: Option<String>,
    pub poster_key: Option<String>,
    pub duration_ms: Option<i32>,
    pub width: Option<i32>,
    pub height: Option<i32>,
    pub failure: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The columns of [`Video`], for queries that read one (`SELECT {VIDEO_COLUMNS} FROM
/// feed_videos v ...`).
pub const VIDEO_COLUMNS: &str = "v.id, v.station_id, v.user_id, v.original_name, v.size, \
     v.received, v.status, v.job_id, v.video_key, v.poster_key, v.duration_ms, v.width, \
     v.height, v.failure, v.created_at, v.updated_at";

/// The spec's limit for a video post: 200 MB.
pub const MAX_VIDEO_BYTES: i64 = 200_000_000;
/// The most one resumable chunk carries.
pub const MAX_CHUNK_BYTES: usize = 8 * 1024 * 1024;
/// Uploads a member may start in a rolling day, and have unfinished at once.
pub const STARTS_PER_DAY: i64 = 10;
pub const UNFINISHED_AT_ONCE: i64 = 3;
/// An unfinished upload holds one of those places only while bytes come: one left alone
/// this long (a closed tab, a crashed browser) no longer counts, though it may still go on.
pub const UNFINISHED_IDLE_MINUTES: i32 = 60;
/// An upload that received nothing for this long is abandoned (`uploads-cleanup`).
pub const ABANDONED_AFTER_HOURS: i64 = 24;
/// A video processing this long has lost its transcode: three attempts with their pauses
/// take under two hours. Nor does any transcode attempt's folder live this long.
pub const STUCK_AFTER_HOURS: i64 = 6;
/// A whole video (ready or failed) that no post carries is removed after this long.
pub const UNPOSTED_AFTER_HOURS: i64 = 24;
/// Rows one `uploads-cleanup` run takes on per kind of leftover (videos and member
/// uploads alike); the next run goes on.
pub const SWEEP_BATCH: i64 = 1000;
/// The longest video we show, and the largest picture side we read.
pub const MAX_DURATION_MS: u64 = 10 * 60 * 1000;
pub const MAX_SIDE: u32 = 4096;
/// The MP4 the feed plays fits this box.
pub const PLAYED_BOX: (u32, u32) = (1280, 720);

/// The member reads these on a failed upload (`failure`) and on the failed job.
pub const NOT_A_VIDEO: &str = "O arquivo não é um vídeo que possamos exibir.";
pub const TOO_LONG: &str = "O vídeo deve ter no máximo 10 minutos.";
pub const TOO_BIG: &str = "A imagem do vídeo é grande demais (máximo 4096 pixels de lado).";
/// The failure of a video whose post staff removed while it was processing.
pub const REMOVED: &str = "Esta publicação foi removida pela moderação.";
pub const NOT_PROCESSED: &str = "Não foi possível processar o vídeo. Envie-o novamente.";
/// Another member's or station's upload, or one that is gone.
pub const NOT_FOUND: &str = "Vídeo não encontrado.";

/// The upload area of this deployment.
pub fn upload_area(config: &Config) -> PathBuf {
    config.data_dir.join("uploads")
}

/// The bytes of upload `id` received so far.
pub fn part_path(area: &Path, id: i64) -> PathBuf {
    area.join(format!("{id}.part"))
}

/// The member's own upload; another member's or station's is not found.
pub async fn find_own(
    db: impl PgExecutor<'_>,
    station_id: StationId,
    user_id: UserId,
    id: i64,
) -> sqlx::Result<Option<Video>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {VIDEO_COLUMNS} FROM feed_videos v
          WHERE v.id = $1 AND v.user_id = $2 AND v.station_id = $3"
    )))
    .bind(id)
    .bind(user_id)
    .bind(station_id)
    .fetch_optional(db)
    .await
}

/// Any upload, by id (for its job).
pub async fn find(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<Video>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {VIDEO_COLUMNS} FROM feed_videos v WHERE v.id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await
}

/// The kind of a part file by its first bytes.
pub async fn kind_of_part(path: &Path) -> std::io::Result<Option<FileKind>> {
    let path = path.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut head = Vec::with_capacity(16);
        std::fs::File::open(path)?.take(16).read_to_end(&mut head)?;
        Ok(kind_of(&head))
    })
    .await?
}

/// Fails upload `id` with `failure` (the member's text) and removes its bytes, if it is
/// still `from`: an upload refused or broken while being received, or one the transcode
/// cannot make a video of. Answers whether it did.
pub async fn fail(
    db: &PgPool,
    area: &Path,
    id: i64,
    from: VideoStatus,
    failure: &str,
) -> sqlx::Result<bool> {
    let failed = sqlx::query(
        "UPDATE feed_videos SET status = 'failed', failure = $3, updated_at = now()
          WHERE id = $1 AND status = $2",
    )
    .bind(id)
    .bind(from)
    .bind(failure)
    .execute(db)
    .await?
    .rows_affected()
        > 0;
    if failed {
        remove_part(area, id).await;
    }
    Ok(failed)
}

/// Removes the part file of upload `id`; one already gone is fine.
pub async fn remove_part(area: &Path, id: i64) {
    let path = part_path(area, id);
    match tokio::fs::remove_file(&path).await {
        Ok(()) => {}
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => tracing::warn!(video_id = id, error = %err, "part file not removed"),
    }
}

/// The stored MP4 and poster of `video`, deleted; a failure is logged (an object left
/// behind costs storage, not correctness). For a video whose post is gone or removed.
pub async fn delete_files(objects: &Objects, video: &Video) {
    for key in [&video.video_key, &video.poster_key].into_iter().flatten() {
        if let Err(err) = objects.delete(key).await {
            tracing::warn!(video_id = video.id, key, error = %err, "video object not deleted");
        }
    }
}

fn work_prefix(id: i64) -> String {
    format!("{id}.work-")
}

/// When the attempt of work folder `name` began: its ULID's time, or the folder's last
/// change for a name without one.
fn work_began(name: &str, modified: Option<SystemTime>) -> Option<SystemTime> {
    let (_, ulid) = name.split_once(".work-")?;
    ulid::Ulid::from_string(&ulid.to_uppercase())
        .map(|ulid| ulid.datetime())
        .ok()
        .or(modified)
}

/// Removes a folder and what it holds; one already gone is fine.
pub async fn remove_dir(dir: &Path) {
    match tokio::fs::remove_dir_all(dir).await {
        Ok(()) => {}
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => tracing::warn!(dir = %dir.display(), error = %err, "folder not removed"),
    }
}

/// The names in `dir` with their last change; none when it does not exist yet.
async fn entries(dir: &Path) -> std::io::Result<Vec<(String, Option<SystemTime>)>> {
    let mut found = Vec::new();
    let mut read = match tokio::fs::read_dir(dir).await {
        Ok(read) => read,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(err) => return Err(err),
    };
    while let Some(entry) = read.next_entry().await? {
        let modified = entry.metadata().await.ok().and_then(|m| m.modified().ok());
        if let Ok(name) = entry.file_name().into_string() {
            found.push((name, modified));
        }
    }
    Ok(found)
}
