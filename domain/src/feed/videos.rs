//! The videos members upload to the feed: a resumable upload into the upload area, then
//! `video.transcode` makes the MP4 and poster the feed plays.
//!
//! The upload area (`FILIA_DATA_DIR/uploads`, one folder the API and the workers share)
//! holds `{id}.part`, the bytes received so far, and `{id}.work-{ulid}/`, one transcode
//! attempt's output. A row's `received` is what is durably in its part file: an append
//! writes and syncs the bytes before recording them, under the row's lock, and cuts back
//! whatever a failed earlier write left past `received`. Objects are recorded only once
//! stored, under keys of their own, so an attempt that dies half-way leaves nothing served.

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use bytes::Bytes;
use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgConnection, PgExecutor, PgPool};

use super::uploads::{FILE_INVALID, UPLOAD_FAILED};
use crate::infra::config::Config;
use crate::infra::ffmpeg::Probe;
use crate::infra::uploads::{FileKind, kind_of};

/// Where an upload is, as `feed_videos.status` stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, sqlx::Type, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
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
/// An upload that received nothing for this long is abandoned (`uploads-cleanup`).
pub const ABANDONED_AFTER_HOURS: i64 = 24;
/// The longest video we show, and the largest picture side we read.
pub const MAX_DURATION_MS: u64 = 10 * 60 * 1000;
pub const MAX_SIDE: u32 = 4096;
/// The MP4 the feed plays fits this box.
pub const PLAYED_BOX: (u32, u32) = (1280, 720);

/// The member reads these on a failed upload (`failure`) and on the failed job.
pub const NOT_A_VIDEO: &str = "O arquivo não é um vídeo que possamos exibir.";
pub const TOO_LONG: &str = "O vídeo deve ter no máximo 10 minutos.";
pub const TOO_BIG: &str = "A imagem do vídeo é grande demais (máximo 4096 pixels de lado).";
pub const NOT_PROCESSED: &str = "Não foi possível processar o vídeo. Envie-o novamente.";

/// The upload area of this deployment.
pub fn upload_area(config: &Config) -> PathBuf {
    config.data_dir.join("uploads")
}

/// The bytes of upload `id` received so far.
pub fn part_path(area: &Path, id: i64) -> PathBuf {
    area.join(format!("{id}.part"))
}

/// Why an upload was not started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotStarted {
    /// No size, or over [`MAX_VIDEO_BYTES`].
    Invalid,
    /// The station's feed is closed.
    FeedClosed,
    /// Past [`STARTS_PER_DAY`] or [`UNFINISHED_AT_ONCE`]; try again after this long.
    TooMany { retry_after_seconds: u64 },
}

/// Starts an upload of `size` bytes for the member, on the caller's transaction. The
/// member's uploads are counted under a lock of the member's own, so two starts at once
/// cannot both take the last place.
pub async fn start(
    tx: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    name: &str,
    size: i64,
) -> sqlx::Result<Result<Video, NotStarted>> {
    if size <= 0 || size > MAX_VIDEO_BYTES {
        return Ok(Err(NotStarted::Invalid));
    }
    let open: Option<bool> = sqlx::query_scalar("SELECT feed_access FROM stations WHERE id = $1")
        .bind(station_id)
        .fetch_optional(&mut *tx)
        .await?;
    if open != Some(true) {
        return Ok(Err(NotStarted::FeedClosed));
    }
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('feed.videos:' || $1, 0))")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    let (unfinished, today, retry_after): (i64, i64, Option<f64>) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE status = 'uploading'),
                count(*) FILTER (WHERE created_at > now() - interval '1 day'),
                extract(epoch FROM min(created_at) FILTER (WHERE created_at > now() - interval '1 day')
                                 + interval '1 day' - now())::float8
           FROM feed_videos WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_one(&mut *tx)
    .await?;
    if today >= STARTS_PER_DAY {
        let seconds = retry_after.unwrap_or(60.0).ceil().max(1.0) as u64;
        return Ok(Err(NotStarted::TooMany {
            retry_after_seconds: seconds,
        }));
    }
    if unfinished >= UNFINISHED_AT_ONCE {
        // A place frees up when one of them is finished, which the member controls.
        return Ok(Err(NotStarted::TooMany {
            retry_after_seconds: 60,
        }));
    }
    let name: String = name.trim().chars().take(255).collect();
    let video = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "INSERT INTO feed_videos AS v (station_id, user_id, original_name, size)
         VALUES ($1, $2, $3, $4) RETURNING {VIDEO_COLUMNS}"
    )))
    .bind(station_id)
    .bind(user_id)
    .bind(name)
    .bind(size)
    .fetch_one(&mut *tx)
    .await?;
    Ok(Ok(video))
}

/// The member's own upload; another member's or station's is not found.
pub async fn find_own(
    db: impl PgExecutor<'_>,
    station_id: i64,
    user_id: i64,
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

async fn lock_own(
    tx: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    id: i64,
) -> sqlx::Result<Option<Video>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {VIDEO_COLUMNS} FROM feed_videos v
          WHERE v.id = $1 AND v.user_id = $2 AND v.station_id = $3 FOR UPDATE"
    )))
    .bind(id)
    .bind(user_id)
    .bind(station_id)
    .fetch_optional(&mut *tx)
    .await
}

/// What an append (or a plain upload's end) made of the upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Appended {
    /// More bytes to come.
    Partial(Video),
    /// Whole and a video by its first bytes: `processing`, its transcode to be enqueued on
    /// the same transaction.
    Whole(Video),
    /// Failed for good (not a video by content, or its bytes lost); `failure` says why.
    Failed(Video),
}

/// Why bytes were not appended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotAppended {
    NotFound,
    /// The offset is not where the upload is (or the upload is not taking bytes).
    Offset {
        received: i64,
    },
    /// The bytes go past the declared size.
    PastSize,
}

/// Appends `bytes` at `offset` to the member's upload `id`, on the caller's transaction,
/// which holds the row's lock until it ends: two appends at once go one after the other,
/// and the second finds the offset moved. The bytes are on disk (synced) before they are
/// counted. The transaction must be committed whatever the answer, except on an error.
pub async fn append(
    tx: &mut PgConnection,
    area: &Path,
    station_id: i64,
    user_id: i64,
    id: i64,
    offset: i64,
    bytes: Bytes,
) -> anyhow::Result<Result<Appended, NotAppended>> {
    let Some(video) = lock_own(&mut *tx, station_id, user_id, id).await? else {
        return Ok(Err(NotAppended::NotFound));
    };
    if video.status != VideoStatus::Uploading || offset != video.received {
        return Ok(Err(NotAppended::Offset {
            received: video.received,
        }));
    }
    let length = i64::try_from(bytes.len())?;
    if video.received + length > video.size {
        return Ok(Err(NotAppended::PastSize));
    }
    if length == 0 {
        return Ok(Ok(Appended::Partial(video)));
    }
    let path = part_path(area, id);
    let from = u64::try_from(video.received)?;
    let written = tokio::task::spawn_blocking(move || write_at(&path, from, &bytes)).await?;
    match written {
        Ok(()) => {}
        Err(err) if err.kind() == std::io::ErrorKind::UnexpectedEof => {
            // The part file lost bytes already counted: the upload cannot be resumed.
            tracing::warn!(video_id = id, error = %err, "upload lost its received bytes");
            return Ok(Ok(Appended::Failed(
                fail_in(&mut *tx, area, id, UPLOAD_FAILED).await?,
            )));
        }
        Err(err) => return Err(err.into()),
    }
    let video: Video = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE feed_videos v SET received = received + $2, updated_at = now()
          WHERE v.id = $1 RETURNING {VIDEO_COLUMNS}"
    )))
    .bind(id)
    .bind(length)
    .fetch_one(&mut *tx)
    .await?;
    if video.received < video.size {
        return Ok(Ok(Appended::Partial(video)));
    }
    Ok(Ok(whole(&mut *tx, area, video).await?))
}

/// Writes `bytes` at `offset` of the part file and syncs them; whatever lies past `offset`
/// (a failed earlier write) is cut first. A file shorter than `offset` has lost bytes
/// already counted: `UnexpectedEof`.
fn write_at(path: &Path, offset: u64, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)?;
    if file.metadata()?.len() < offset {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            format!("{} is shorter than {offset} bytes", path.display()),
        ));
    }
    file.set_len(offset)?;
    file.seek(SeekFrom::Start(offset))?;
    file.write_all(bytes)?;
    file.sync_data()
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

/// A whole upload: queued for processing when its first bytes are a video's, failed (and
/// its bytes removed) otherwise.
async fn whole(tx: &mut PgConnection, area: &Path, video: Video) -> anyhow::Result<Appended> {
    let kind = kind_of_part(&part_path(area, video.id)).await?;
    if !kind.is_some_and(FileKind::is_video) {
        return Ok(Appended::Failed(
            fail_in(&mut *tx, area, video.id, FILE_INVALID).await?,
        ));
    }
    let video = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE feed_videos v SET status = 'processing', updated_at = now()
          WHERE v.id = $1 RETURNING {VIDEO_COLUMNS}"
    )))
    .bind(video.id)
    .fetch_one(&mut *tx)
    .await?;
    Ok(Appended::Whole(video))
}

/// Fails the upload with `failure` and removes its bytes.
async fn fail_in(
    tx: &mut PgConnection,
    area: &Path,
    id: i64,
    failure: &str,
) -> anyhow::Result<Video> {
    let video = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE feed_videos v SET status = 'failed', failure = $2, updated_at = now()
          WHERE v.id = $1 RETURNING {VIDEO_COLUMNS}"
    )))
    .bind(id)
    .bind(failure)
    .fetch_one(&mut *tx)
    .await?;
    remove_part(area, id).await;
    Ok(video)
}

/// A plain (one request) upload being written to its part file: at most
/// [`MAX_VIDEO_BYTES`], counted as it comes.
#[derive(Debug)]
pub struct PartWriter {
    file: tokio::fs::File,
    written: u64,
}

/// A plain upload went past [`MAX_VIDEO_BYTES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

impl PartWriter {
    /// Creates (or empties) the part file of upload `id`.
    pub async fn create(area: &Path, id: i64) -> std::io::Result<Self> {
        tokio::fs::create_dir_all(area).await?;
        let file = tokio::fs::File::create(part_path(area, id)).await?;
        Ok(Self { file, written: 0 })
    }

    /// `Ok(Err(TooLarge))` once the bytes go past the limit (nothing more is written).
    pub async fn write(&mut self, bytes: &[u8]) -> std::io::Result<Result<(), TooLarge>> {
        use tokio::io::AsyncWriteExt;
        let total = self.written + bytes.len() as u64;
        if total > MAX_VIDEO_BYTES as u64 {
            return Ok(Err(TooLarge));
        }
        self.file.write_all(bytes).await?;
        self.written = total;
        Ok(Ok(()))
    }

    /// Syncs the file; answers its size.
    pub async fn finish(self) -> std::io::Result<u64> {
        self.file.sync_all().await?;
        Ok(self.written)
    }
}

/// Ends a plain upload of `size` bytes (all in its part file) started by [`start`] with
/// the largest size: the upload takes its real size and becomes whole, as the last append
/// of a resumable one does. An empty file fails it.
pub async fn finish_plain(
    tx: &mut PgConnection,
    area: &Path,
    station_id: i64,
    user_id: i64,
    id: i64,
    size: u64,
) -> anyhow::Result<Result<Appended, NotAppended>> {
    let Some(video) = lock_own(&mut *tx, station_id, user_id, id).await? else {
        return Ok(Err(NotAppended::NotFound));
    };
    if video.status != VideoStatus::Uploading || video.received != 0 {
        return Ok(Err(NotAppended::Offset {
            received: video.received,
        }));
    }
    let size = i64::try_from(size)?;
    if size == 0 || size > MAX_VIDEO_BYTES {
        return Ok(Ok(Appended::Failed(
            fail_in(&mut *tx, area, id, FILE_INVALID).await?,
        )));
    }
    let video = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE feed_videos v SET size = $2, received = $2, updated_at = now()
          WHERE v.id = $1 RETURNING {VIDEO_COLUMNS}"
    )))
    .bind(id)
    .bind(size)
    .fetch_one(&mut *tx)
    .await?;
    Ok(Ok(whole(&mut *tx, area, video).await?))
}

/// Records the upload's `video.transcode` job, on the transaction that enqueued it.
pub async fn set_job(tx: &mut PgConnection, id: i64, job_id: &str) -> sqlx::Result<Video> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE feed_videos v SET job_id = $2 WHERE v.id = $1 RETURNING {VIDEO_COLUMNS}"
    )))
    .bind(id)
    .bind(job_id)
    .fetch_one(&mut *tx)
    .await
}

/// The duration of a video the feed can show, or why it cannot (the member's text).
pub fn check(probe: &Probe) -> Result<u64, &'static str> {
    let Some((_, width, height)) = &probe.video else {
        return Err(NOT_A_VIDEO);
    };
    if *width == 0 || *height == 0 {
        return Err(NOT_A_VIDEO);
    }
    if *width > MAX_SIDE || *height > MAX_SIDE {
        return Err(TOO_BIG);
    }
    match probe.duration_ms {
        Some(duration) if duration > MAX_DURATION_MS => Err(TOO_LONG),
        Some(duration) if duration > 0 => Ok(duration),
        _ => Err(NOT_A_VIDEO),
    }
}

/// The MP4 and poster of a processed video, stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Processed {
    pub video_key: String,
    pub poster_key: String,
    pub duration_ms: i32,
    pub width: i32,
    pub height: i32,
}

/// Marks the upload ready with its stored MP4 and poster and publishes the posts that
/// carry it, on the caller's transaction. False (nothing changed) when it is no longer
/// processing: another run got there first.
pub async fn mark_ready(tx: &mut PgConnection, id: i64, done: &Processed) -> sqlx::Result<bool> {
    let updated = sqlx::query(
        "UPDATE feed_videos
            SET status = 'ready', video_key = $2, poster_key = $3, duration_ms = $4, width = $5,
                height = $6, failure = NULL, updated_at = now()
          WHERE id = $1 AND status = 'processing'",
    )
    .bind(id)
    .bind(&done.video_key)
    .bind(&done.poster_key)
    .bind(done.duration_ms)
    .bind(done.width)
    .bind(done.height)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if updated == 0 {
        return Ok(false);
    }
    sqlx::query(
        "UPDATE feed_posts SET published_at = now() WHERE video_id = $1 AND published_at IS NULL",
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    Ok(true)
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

/// A fresh, empty folder for one transcode attempt of upload `id`; the folders of earlier
/// attempts (a killed worker's) are removed first.
pub async fn new_work_dir(area: &Path, id: i64) -> std::io::Result<PathBuf> {
    let prefix = format!("{id}.work-");
    for (name, _) in entries(area).await? {
        if name.starts_with(&prefix) {
            remove_dir(&area.join(name)).await;
        }
    }
    let dir = area.join(format!(
        "{prefix}{}",
        ulid::Ulid::generate().to_string().to_lowercase()
    ));
    tokio::fs::create_dir_all(&dir).await?;
    Ok(dir)
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
async fn entries(dir: &Path) -> std::io::Result<Vec<(String, Option<std::time::SystemTime>)>> {
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

/// What [`sweep`] removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Swept {
    /// Uploads abandoned mid-way: deleted, or failed when a post carries them.
    pub abandoned: u64,
    /// Part files and work folders no upload needs any more.
    pub files: u64,
}

/// Removes the uploads that received nothing since `cutoff` while still uploading (a post
/// that carries one keeps its row, failed), then every file of the upload area no upload
/// needs: a part file of an upload gone, ready or failed, and a work folder of an upload
/// not processing or older than `cutoff` (no attempt runs that long). Any number of runs
/// leave the same.
pub async fn sweep(db: &PgPool, area: &Path, cutoff: DateTime<Utc>) -> anyhow::Result<Swept> {
    let deleted: Vec<i64> = sqlx::query_scalar(
        "DELETE FROM feed_videos v
          WHERE v.status = 'uploading' AND v.updated_at < $1
            AND NOT EXISTS (SELECT 1 FROM feed_posts p WHERE p.video_id = v.id)
         RETURNING v.id",
    )
    .bind(cutoff)
    .fetch_all(db)
    .await?;
    let failed: Vec<i64> = sqlx::query_scalar(
        "UPDATE feed_videos SET status = 'failed', failure = $2, updated_at = now()
          WHERE status = 'uploading' AND updated_at < $1
         RETURNING id",
    )
    .bind(cutoff)
    .bind(UPLOAD_FAILED)
    .fetch_all(db)
    .await?;
    let mut swept = Swept {
        abandoned: (deleted.len() + failed.len()) as u64,
        files: 0,
    };
    for id in deleted.iter().chain(&failed) {
        remove_part(area, *id).await;
    }

    let found = entries(area).await?;
    let id_of = |name: &str| -> Option<i64> {
        let (id, _) = name
            .split_once(".work-")
            .or_else(|| name.strip_suffix(".part").map(|id| (id, "")))?;
        id.parse().ok()
    };
    let ids: Vec<i64> = found.iter().filter_map(|(name, _)| id_of(name)).collect();
    let statuses: Vec<(i64, VideoStatus)> =
        sqlx::query_as("SELECT id, status FROM feed_videos WHERE id = ANY($1)")
            .bind(&ids)
            .fetch_all(db)
            .await?;
    let status_of = |id: i64| {
        statuses
            .iter()
            .find(|(found, _)| *found == id)
            .map(|(_, status)| *status)
    };
    for (name, modified) in found {
        let Some(id) = id_of(&name) else { continue };
        let status = status_of(id);
        let path = area.join(&name);
        if name.ends_with(".part") {
            if !matches!(
                status,
                Some(VideoStatus::Uploading | VideoStatus::Processing)
            ) {
                remove_part(area, id).await;
                swept.files += 1;
            }
        } else {
            let old = modified.is_some_and(|at| DateTime::<Utc>::from(at) < cutoff);
            if old || status != Some(VideoStatus::Processing) {
                remove_dir(&path).await;
                swept.files += 1;
            }
        }
    }
    Ok(swept)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(duration_ms: Option<u64>, size: Option<(u32, u32)>) -> Probe {
        Probe {
            duration_ms,
            video: size.map(|(w, h)| ("h264".to_string(), w, h)),
            audio: None,
        }
    }

    #[test]
    fn only_videos_within_the_limits_are_shown() {
        assert_eq!(check(&probe(Some(6_000), Some((640, 360)))), Ok(6_000));
        assert_eq!(check(&probe(Some(6_000), None)), Err(NOT_A_VIDEO));
        assert_eq!(check(&probe(None, Some((640, 360)))), Err(NOT_A_VIDEO));
        assert_eq!(check(&probe(Some(0), Some((640, 360)))), Err(NOT_A_VIDEO));
        assert_eq!(check(&probe(Some(6_000), Some((0, 0)))), Err(NOT_A_VIDEO));
        assert_eq!(
            check(&probe(Some(MAX_DURATION_MS + 1), Some((640, 360)))),
            Err(TOO_LONG)
        );
        assert_eq!(check(&probe(Some(6_000), Some((4097, 360)))), Err(TOO_BIG));
    }

    #[test]
    fn an_append_cuts_what_a_failed_write_left_and_refuses_lost_bytes() {
        let dir = std::env::temp_dir().join(format!("filia-part-{}", ulid::Ulid::generate()));
        let path = part_path(&dir, 1);
        write_at(&path, 0, b"abcdef").expect("first");
        // A write that failed after "gh" left junk past the 6 bytes recorded.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .and_then(|mut file| file.write_all(b"junk"))
            .expect("junk");
        write_at(&path, 6, b"gh").expect("second");
        assert_eq!(std::fs::read(&path).expect("read"), b"abcdefgh");
        let lost = write_at(&path, 20, b"ij").expect_err("lost");
        assert_eq!(lost.kind(), std::io::ErrorKind::UnexpectedEof);
        std::fs::remove_dir_all(dir).ok();
    }
}
