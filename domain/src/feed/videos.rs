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

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgConnection, PgExecutor, PgPool};

use super::probe::Probe;
use crate::infra::config::Config;
use crate::infra::objects::Objects;
use crate::infra::uploads::{FILE_INVALID, FileKind, UPLOAD_FAILED, kind_of};

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
    if !super::posts::feed_open(&mut *tx, station_id).await? {
        return Ok(Err(NotStarted::FeedClosed));
    }
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('feed.videos:' || $1, 0))")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    let (unfinished, today, retry_after): (i64, i64, Option<f64>) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE status = 'uploading'
                                   AND updated_at > now() - make_interval(mins => $2)),
                count(*) FILTER (WHERE created_at > now() - interval '1 day'),
                extract(epoch FROM min(created_at) FILTER (WHERE created_at > now() - interval '1 day')
                                 + interval '1 day' - now())::float8
           FROM feed_videos WHERE user_id = $1",
    )
    .bind(user_id)
    .bind(UNFINISHED_IDLE_MINUTES)
    .fetch_one(&mut *tx)
    .await?;
    if today >= STARTS_PER_DAY {
        let seconds = retry_after.unwrap_or(60.0).ceil().max(1.0) as u64;
        return Ok(Err(NotStarted::TooMany {
            retry_after_seconds: seconds,
        }));
    }
    if unfinished >= UNFINISHED_AT_ONCE {
        // A place frees up when one of them is finished or cancelled, which the member
        // controls, or left alone for an hour.
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

/// What a member's cancel found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cancel {
    /// It was still receiving bytes: now failed, its bytes removed.
    Cancelled,
    /// It was whole already (processing, ready or failed): nothing changed.
    AlreadyWhole,
}

/// Cancels the member's upload `id` while it still receives bytes (the member left the
/// page, or the web app gave up on it): failed as a broken transfer, so it no longer holds one of
/// the member's unfinished places, and its bytes removed once that is committed. `None`:
/// not the member's.
pub async fn cancel(
    db: &PgPool,
    area: &Path,
    station_id: i64,
    user_id: i64,
    id: i64,
) -> anyhow::Result<Option<Cancel>> {
    let mut tx = db.begin().await?;
    let Some(video) = lock_own(&mut tx, station_id, user_id, id).await? else {
        return Ok(None);
    };
    if video.status != VideoStatus::Uploading {
        return Ok(Some(Cancel::AlreadyWhole));
    }
    sqlx::query(
        "UPDATE feed_videos SET status = 'failed', failure = $2, updated_at = now()
          WHERE id = $1",
    )
    .bind(id)
    .bind(UPLOAD_FAILED)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    remove_part(area, id).await;
    Ok(Some(Cancel::Cancelled))
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
    // Staff removed the post while its video was processing: the video is never shown, so
    // it is failed instead and the caller deletes what it stored.
    let removed: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM feed_posts WHERE video_id = $1 AND removed_at IS NOT NULL)",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await?;
    if removed {
        sqlx::query(
            "UPDATE feed_videos SET status = 'failed', failure = $2, updated_at = now()
              WHERE id = $1 AND status = 'processing'",
        )
        .bind(id)
        .bind(REMOVED)
        .execute(&mut *tx)
        .await?;
        return Ok(false);
    }
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

/// The stored MP4 and poster of `video`, deleted; a failure is logged (an object left
/// behind costs storage, not correctness). For a video whose post is gone or removed.
pub async fn delete_files(objects: &Objects, video: &Video) {
    for key in [&video.video_key, &video.poster_key].into_iter().flatten() {
        if let Err(err) = objects.delete(key).await {
            tracing::warn!(video_id = video.id, key, error = %err, "video object not deleted");
        }
    }
}

/// Removes upload `video_id` when no post carries it (its post was deleted, or never
/// made): the row, then, once that is committed, its part file and stored MP4 and poster.
/// Answers whether it did. A post being created with it at the same moment wins: the row
/// stays. A transcode still running finds the row gone and drops what it made.
pub async fn discard_unposted(
    db: &PgPool,
    objects: &Objects,
    area: &Path,
    video_id: i64,
) -> anyhow::Result<bool> {
    match remove(db, video_id, Removal::Discard).await? {
        Removed::Deleted(video) => {
            remove_part(area, video.id).await;
            delete_files(objects, &video).await;
            tracing::info!(video_id, "unposted video removed");
            Ok(true)
        }
        Removed::Failed | Removed::Kept => Ok(false),
    }
}

/// Why a row is removed, which says how it is locked and what must still hold.
#[derive(Debug, Clone, Copy)]
enum Removal {
    /// Its post is gone: any status; waits for a transaction that holds the row.
    Discard,
    /// Still uploading, nothing received since the cutoff; one a post carries is failed
    /// instead.
    Abandoned(DateTime<Utc>),
    /// Ready or failed, unchanged since the cutoff.
    Unposted(DateTime<Utc>),
}

/// What [`remove`] did with a row.
#[derive(Debug)]
enum Removed {
    Deleted(Box<Video>),
    /// Abandoned, but a post carries it: failed.
    Failed,
    /// Not removed: no longer what the removal was for, held by another transaction, or
    /// carried by a post.
    Kept,
}

/// Removes one row on a transaction of its own, so one row that cannot go never holds up
/// the others. The row is locked and its condition checked again first; the sweep skips a
/// row another transaction holds (a post being created with it, a chunk being appended),
/// and a post created meanwhile keeps it (a foreign key violation is tolerated too).
async fn remove(db: &PgPool, id: i64, removal: Removal) -> anyhow::Result<Removed> {
    let (condition, cutoff, wait) = match removal {
        Removal::Discard => ("true", None, ""),
        Removal::Abandoned(cutoff) => (
            "v.status = 'uploading' AND v.updated_at < $2",
            Some(cutoff),
            " SKIP LOCKED",
        ),
        Removal::Unposted(cutoff) => (
            "v.status IN ('ready', 'failed') AND v.updated_at < $2",
            Some(cutoff),
            " SKIP LOCKED",
        ),
    };
    let mut tx = db.begin().await?;
    let lock =
        format!("SELECT v.id FROM feed_videos v WHERE v.id = $1 AND {condition} FOR UPDATE{wait}");
    let mut locking = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(lock)).bind(id);
    if let Some(cutoff) = cutoff {
        locking = locking.bind(cutoff);
    }
    if locking.fetch_optional(&mut *tx).await?.is_none() {
        return Ok(Removed::Kept);
    }
    let deleted: sqlx::Result<Option<Video>> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "DELETE FROM feed_videos v
          WHERE v.id = $1 AND NOT EXISTS (SELECT 1 FROM feed_posts p WHERE p.video_id = v.id)
         RETURNING {VIDEO_COLUMNS}"
    )))
    .bind(id)
    .fetch_optional(&mut *tx)
    .await;
    let removed = match deleted {
        Ok(Some(video)) => Removed::Deleted(Box::new(video)),
        Ok(None) if matches!(removal, Removal::Abandoned(_)) => {
            sqlx::query(
                "UPDATE feed_videos SET status = 'failed', failure = $2, updated_at = now()
                  WHERE id = $1",
            )
            .bind(id)
            .bind(UPLOAD_FAILED)
            .execute(&mut *tx)
            .await?;
            Removed::Failed
        }
        Ok(None) => return Ok(Removed::Kept),
        Err(err)
            if err
                .as_database_error()
                .is_some_and(|db| db.is_foreign_key_violation()) =>
        {
            return Ok(Removed::Kept);
        }
        Err(err) => return Err(err.into()),
    };
    tx.commit().await?;
    Ok(removed)
}

/// A fresh, empty folder for one transcode attempt of upload `id`. The folders of earlier
/// attempts that began more than `attempt_limit` ago (the job's timeout: no attempt runs
/// longer, so they are a killed worker's) are removed first; a younger one may belong to a
/// second run of the job still working, whose output must stay.
pub async fn new_work_dir(
    area: &Path,
    id: i64,
    attempt_limit: Duration,
) -> std::io::Result<PathBuf> {
    let prefix = work_prefix(id);
    let before = SystemTime::now()
        .checked_sub(attempt_limit)
        .unwrap_or(SystemTime::UNIX_EPOCH);
    for (name, modified) in entries(area).await? {
        if name.starts_with(&prefix) && work_began(&name, modified).is_some_and(|at| at < before) {
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

/// Removes every attempt folder of upload `id`: once it is ready, none is needed.
pub async fn remove_work_dirs(area: &Path, id: i64) -> std::io::Result<()> {
    let prefix = work_prefix(id);
    for (name, _) in entries(area).await? {
        if name.starts_with(&prefix) {
            remove_dir(&area.join(name)).await;
        }
    }
    Ok(())
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

/// What [`sweep`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Swept {
    /// Uploads abandoned mid-way: deleted, or failed when a post carries them.
    pub abandoned: u64,
    /// Videos whose transcode ended without settling them (or never will): failed.
    pub stuck: u64,
    /// Whole videos no post carries: deleted with their objects.
    pub unposted: u64,
    /// Part files and work folders no upload needs any more.
    pub files: u64,
}

/// `uploads-cleanup`'s work, counted from `now`: abandoned uploads, stuck videos, unposted
/// videos, then the upload area's leftovers. Each part works row by row and any number of
/// runs leave the same.
pub async fn sweep(
    db: &PgPool,
    objects: &Objects,
    area: &Path,
    now: DateTime<Utc>,
) -> anyhow::Result<Swept> {
    let hours = chrono::Duration::hours;
    Ok(Swept {
        abandoned: remove_abandoned(db, area, now - hours(ABANDONED_AFTER_HOURS)).await?,
        stuck: fail_stuck(db, area, now - hours(STUCK_AFTER_HOURS)).await?,
        unposted: remove_unposted(db, objects, area, now - hours(UNPOSTED_AFTER_HOURS)).await?,
        files: remove_leftovers(db, area, now - hours(STUCK_AFTER_HOURS)).await?,
    })
}

/// Uploads that received nothing since `cutoff` while still uploading: deleted with their
/// bytes, or failed ('Erro no upload') when a post carries them.
async fn remove_abandoned(db: &PgPool, area: &Path, cutoff: DateTime<Utc>) -> anyhow::Result<u64> {
    let found: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM feed_videos
          WHERE status = 'uploading' AND updated_at < $1 ORDER BY id LIMIT $2",
    )
    .bind(cutoff)
    .bind(SWEEP_BATCH)
    .fetch_all(db)
    .await?;
    let mut removed = 0;
    for id in found {
        match remove(db, id, Removal::Abandoned(cutoff)).await? {
            Removed::Deleted(_) | Removed::Failed => {
                remove_part(area, id).await;
                removed += 1;
            }
            Removed::Kept => {}
        }
    }
    Ok(removed)
}

/// Videos still processing that their transcode will not settle, failed with the member's
/// text ('Não foi possível processar o vídeo. Envie-o novamente.') and their bytes removed:
/// the job is over (succeeded, failed on its last attempt, cancelled, or gone) or the video
/// has waited since `cutoff` with no attempt running. An attempt ended from outside (staff
/// cancel, the fleet's timeout, a panic, a worker lost on the last attempt) or one whose own
/// failure could not be recorded never fails the video itself.
async fn fail_stuck(db: &PgPool, area: &Path, cutoff: DateTime<Utc>) -> anyhow::Result<u64> {
    let found: Vec<i64> = sqlx::query_scalar(
        "SELECT v.id FROM feed_videos v LEFT JOIN apalis.jobs j ON j.id = v.job_id
          WHERE v.status = 'processing'
            AND (j.id IS NULL
                 OR j.status IN ('Done', 'Killed')
                 OR (j.status = 'Failed' AND j.attempts >= j.max_attempts)
                 OR (v.updated_at < $1 AND j.status <> 'Running'))
          ORDER BY v.id LIMIT $2",
    )
    .bind(cutoff)
    .bind(SWEEP_BATCH)
    .fetch_all(db)
    .await?;
    let mut failed = 0;
    for id in found {
        if fail(db, area, id, VideoStatus::Processing, NOT_PROCESSED).await? {
            tracing::warn!(
                video_id = id,
                "video left processing by its transcode: failed"
            );
            failed += 1;
        }
    }
    Ok(failed)
}

/// Ready and failed videos unchanged since `cutoff` that no post carries (an upload whose
/// post was never made): deleted, then their objects and bytes.
async fn remove_unposted(
    db: &PgPool,
    objects: &Objects,
    area: &Path,
    cutoff: DateTime<Utc>,
) -> anyhow::Result<u64> {
    let found: Vec<i64> = sqlx::query_scalar(
        "SELECT v.id FROM feed_videos v
          WHERE v.status IN ('ready', 'failed') AND v.updated_at < $1
            AND NOT EXISTS (SELECT 1 FROM feed_posts p WHERE p.video_id = v.id)
          ORDER BY v.id LIMIT $2",
    )
    .bind(cutoff)
    .bind(SWEEP_BATCH)
    .fetch_all(db)
    .await?;
    let mut removed = 0;
    for id in found {
        if let Removed::Deleted(video) = remove(db, id, Removal::Unposted(cutoff)).await? {
            remove_part(area, id).await;
            delete_files(objects, &video).await;
            removed += 1;
        }
    }
    Ok(removed)
}

/// Every file of the upload area no upload needs: a part file of an upload gone, ready or
/// failed, and a work folder of an upload not processing or begun before `cutoff` (no
/// attempt runs that long). Names that are not ours are left alone.
async fn remove_leftovers(db: &PgPool, area: &Path, cutoff: DateTime<Utc>) -> anyhow::Result<u64> {
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
    let mut removed = 0;
    for (name, modified) in found {
        let Some(id) = id_of(&name) else { continue };
        let status = status_of(id);
        if name.ends_with(".part") {
            if !matches!(
                status,
                Some(VideoStatus::Uploading | VideoStatus::Processing)
            ) {
                remove_part(area, id).await;
                removed += 1;
            }
        } else {
            let old =
                work_began(&name, modified).is_none_or(|at| DateTime::<Utc>::from(at) < cutoff);
            if old || status != Some(VideoStatus::Processing) {
                remove_dir(&area.join(&name)).await;
                removed += 1;
            }
        }
    }
    Ok(removed)
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

    #[tokio::test]
    async fn a_new_attempt_removes_only_the_folders_of_attempts_past_the_time_limit() {
        let area = std::env::temp_dir().join(format!("filia-work-{}", ulid::Ulid::generate()));
        let began = |ago: Duration| {
            let ulid = ulid::Ulid::from_datetime(SystemTime::now() - ago);
            let dir = area.join(format!("7.work-{}", ulid.to_string().to_lowercase()));
            std::fs::create_dir_all(&dir).expect("dir");
            std::fs::write(dir.join("video.mp4"), b"half").expect("half");
            dir
        };
        let killed = began(Duration::from_secs(40 * 60));
        let running = began(Duration::from_secs(5 * 60));
        let other_video = area.join("70.work-x");
        std::fs::create_dir_all(&other_video).expect("other");

        let fresh = new_work_dir(&area, 7, Duration::from_secs(35 * 60))
            .await
            .expect("work dir");
        assert!(!killed.exists(), "the killed attempt's folder is removed");
        assert!(running.exists(), "a second run's folder stays");
        assert!(other_video.exists() && fresh.exists());
        assert!(
            work_began(&fresh.file_name().expect("name").to_string_lossy(), None)
                .is_some_and(|at| at > SystemTime::now() - Duration::from_secs(60))
        );

        remove_work_dirs(&area, 7).await.expect("removed");
        assert!(!running.exists() && !fresh.exists() && other_video.exists());
        std::fs::remove_dir_all(area).ok();
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
