//! An upload's life while its bytes come: started within the member's limits, appended
//! chunk by chunk (or written in one request), cancelled, and made whole.

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use bytes::Bytes;
use sqlx::{PgConnection, PgPool};

use super::{
    MAX_VIDEO_BYTES, NOT_FOUND, STARTS_PER_DAY, UNFINISHED_AT_ONCE, UNFINISHED_IDLE_MINUTES,
    VIDEO_COLUMNS, Video, VideoStatus, kind_of_part, part_path, remove_part,
};
use crate::infra::uploads::{FILE_INVALID, FileKind, UPLOAD_FAILED};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{StationId, UserId};
use crate::shared::{NOT_AUTHORIZED, TOO_MANY_ACTIONS};

/// Why an upload was not started, as the member reads it.
#[derive(Debug, thiserror::Error)]
pub enum NotStarted {
    /// No size, or over [`MAX_VIDEO_BYTES`].
    #[error("{FILE_INVALID}")]
    Invalid,
    /// The station's feed is closed.
    #[error("{NOT_AUTHORIZED}")]
    FeedClosed,
    /// Past [`STARTS_PER_DAY`] or [`UNFINISHED_AT_ONCE`]; try again after this long.
    #[error("{TOO_MANY_ACTIONS}")]
    TooMany { retry_after_seconds: u64 },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for NotStarted {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

impl IntoFailure for NotStarted {
    fn into_failure(self) -> Failure {
        match self {
            Self::Invalid => Failure::invalid(self.to_string()),
            Self::FeedClosed => Failure::Forbidden(self.to_string()),
            Self::TooMany {
                retry_after_seconds,
            } => Failure::TooMany {
                message: self.to_string(),
                retry_after: retry_after_seconds,
            },
            Self::Internal(err) => Failure::Internal(err),
        }
    }
}

/// Starts an upload of `size` bytes for the member, on the caller's transaction. The
/// member's uploads are counted under a lock of the member's own, so two starts at once
/// cannot both take the last place.
pub async fn start(
    tx: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    name: &str,
    size: i64,
) -> Result<Video, NotStarted> {
    if size <= 0 || size > MAX_VIDEO_BYTES {
        return Err(NotStarted::Invalid);
    }
    if !crate::feed::posts::feed_open(&mut *tx, station_id).await? {
        return Err(NotStarted::FeedClosed);
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
        return Err(NotStarted::TooMany {
            retry_after_seconds: seconds,
        });
    }
    if unfinished >= UNFINISHED_AT_ONCE {
        // A place frees up when one of them is finished or cancelled, which the member
        // controls, or left alone for an hour.
        return Err(NotStarted::TooMany {
            retry_after_seconds: 60,
        });
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
    Ok(video)
}

async fn lock_own(
    tx: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
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

/// Why bytes were not appended, as the member reads it.
#[derive(Debug, thiserror::Error)]
pub enum NotAppended {
    #[error("{NOT_FOUND}")]
    NotFound,
    /// The offset is not where the upload is (or the upload is not taking bytes). The API
    /// answers it with `received` beside the text, so the client goes on from there.
    #[error("{UPLOAD_FAILED}")]
    Offset { received: i64 },
    /// The bytes go past the declared size.
    #[error("{FILE_INVALID}")]
    PastSize,
    /// Whole (or cut short), but failed for good: not a video by content, too large, its
    /// bytes lost or its transfer broken. The text is the upload's `failure`.
    #[error("{0}")]
    Failed(String),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for NotAppended {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

impl IntoFailure for NotAppended {
    fn into_failure(self) -> Failure {
        match self {
            Self::NotFound => Failure::NotFound(self.to_string()),
            Self::Offset { .. } => Failure::Conflict(self.to_string()),
            Self::PastSize | Self::Failed(_) => Failure::invalid(self.to_string()),
            Self::Internal(err) => Failure::Internal(err),
        }
    }
}

/// Why an upload in one request did not go through: not started, or its bytes refused.
#[derive(Debug, thiserror::Error)]
pub enum NotUploaded {
    #[error(transparent)]
    NotStarted(#[from] NotStarted),
    #[error(transparent)]
    NotAppended(#[from] NotAppended),
}

impl From<sqlx::Error> for NotUploaded {
    fn from(err: sqlx::Error) -> Self {
        Self::NotAppended(err.into())
    }
}

impl IntoFailure for NotUploaded {
    fn into_failure(self) -> Failure {
        match self {
            Self::NotStarted(not) => not.into_failure(),
            Self::NotAppended(not) => not.into_failure(),
        }
    }
}

/// Appends `bytes` at `offset` to the member's upload `id`, on the caller's transaction,
/// which holds the row's lock until it ends: two appends at once go one after the other,
/// and the second finds the offset moved. The bytes are on disk (synced) before they are
/// counted. The transaction must be committed whatever the answer, except on an error.
pub async fn append(
    tx: &mut PgConnection,
    area: &Path,
    station_id: StationId,
    user_id: UserId,
    id: i64,
    offset: i64,
    bytes: Bytes,
) -> Result<Appended, NotAppended> {
    let Some(video) = lock_own(&mut *tx, station_id, user_id, id).await? else {
        return Err(NotAppended::NotFound);
    };
    if video.status != VideoStatus::Uploading || offset != video.received {
        return Err(NotAppended::Offset {
            received: video.received,
        });
    }
    let length = i64::try_from(bytes.len()).map_err(anyhow::Error::from)?;
    if video.received + length > video.size {
        return Err(NotAppended::PastSize);
    }
    if length == 0 {
        return Ok(Appended::Partial(video));
    }
    let path = part_path(area, id);
    let from = u64::try_from(video.received).map_err(anyhow::Error::from)?;
    let written = tokio::task::spawn_blocking(move || write_at(&path, from, &bytes))
        .await
        .map_err(anyhow::Error::from)?;
    match written {
        Ok(()) => {}
        Err(err) if err.kind() == std::io::ErrorKind::UnexpectedEof => {
            // The part file lost bytes already counted: the upload cannot be resumed.
            tracing::warn!(video_id = id, error = %err, "upload lost its received bytes");
            return Ok(Appended::Failed(
                fail_in(&mut *tx, area, id, UPLOAD_FAILED).await?,
            ));
        }
        Err(err) => return Err(anyhow::Error::from(err).into()),
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
        return Ok(Appended::Partial(video));
    }
    Ok(whole(&mut *tx, area, video).await?)
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
    station_id: StationId,
    user_id: UserId,
    id: i64,
    size: u64,
) -> Result<Appended, NotAppended> {
    let Some(video) = lock_own(&mut *tx, station_id, user_id, id).await? else {
        return Err(NotAppended::NotFound);
    };
    if video.status != VideoStatus::Uploading || video.received != 0 {
        return Err(NotAppended::Offset {
            received: video.received,
        });
    }
    let size = i64::try_from(size).map_err(anyhow::Error::from)?;
    if size == 0 || size > MAX_VIDEO_BYTES {
        return Ok(Appended::Failed(
            fail_in(&mut *tx, area, id, FILE_INVALID).await?,
        ));
    }
    let video = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE feed_videos v SET size = $2, received = $2, updated_at = now()
          WHERE v.id = $1 RETURNING {VIDEO_COLUMNS}"
    )))
    .bind(id)
    .bind(size)
    .fetch_one(&mut *tx)
    .await?;
    Ok(whole(&mut *tx, area, video).await?)
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
/// the member's unfinished places, and its bytes removed once that is committed. Not the
/// member's: [`NotAppended::NotFound`].
pub async fn cancel(
    db: &PgPool,
    area: &Path,
    station_id: StationId,
    user_id: UserId,
    id: i64,
) -> Result<Cancel, NotAppended> {
    let mut tx = db.begin().await?;
    let Some(video) = lock_own(&mut tx, station_id, user_id, id).await? else {
        return Err(NotAppended::NotFound);
    };
    if video.status != VideoStatus::Uploading {
        return Ok(Cancel::AlreadyWhole);
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
    Ok(Cancel::Cancelled)
}

#[cfg(test)]
mod tests {
    use super::*;

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
