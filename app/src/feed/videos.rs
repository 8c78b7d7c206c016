//! A member's video upload: started within their limits, its bytes received (in chunks, or
//! in one request), cancelled. The change that makes an upload whole queues its
//! `video.transcode` on the same transaction and records the job on the upload.

use std::path::{Path, PathBuf};

use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use sqlx::{PgConnection, PgPool};

use domain::feed::videos::{
    self, Appended, Cancel, NotAppended, NotStarted, NotUploaded, PartWriter, Video, VideoStatus,
};
use domain::infra::uploads::{FILE_INVALID, UPLOAD_FAILED};
use domain::shared::ids::{StationId, UserId};

use crate::outbox::Outbox;

/// Starts a resumable upload of `size` bytes (`POST /uploads/videos`).
pub async fn start(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    name: &str,
    size: i64,
) -> Result<Video, NotStarted> {
    let mut tx = db.begin().await?;
    let video = videos::start(&mut tx, station_id, user_id, name, size).await?;
    tx.commit().await?;
    tracing::info!(
        user_id = %user_id,
        video_id = video.id,
        size = video.size,
        "video upload started"
    );
    Ok(video)
}

/// Appends a chunk at `offset` to the member's upload (`PATCH /uploads/videos/{id}`); the
/// chunk that makes it whole queues its transcode.
#[allow(clippy::too_many_arguments)]
pub async fn append(
    db: &PgPool,
    outbox: &impl Outbox,
    area: &Path,
    station_id: StationId,
    user_id: UserId,
    id: i64,
    offset: i64,
    bytes: Bytes,
) -> Result<Video, NotAppended> {
    let mut tx = db.begin().await?;
    let appended = videos::append(&mut tx, area, station_id, user_id, id, offset, bytes).await?;
    settle(tx, outbox, appended).await
}

/// Uploads a video in one request (`POST /upload-video`): started with the largest size,
/// its bytes written to the part file as they come (refused past the limit), then made
/// whole with its real size. If the call ends before it is settled (the request's
/// connection dropped), the upload is failed and its bytes removed, so it does not hold one
/// of the member's unfinished places for a day.
pub async fn upload<S>(
    db: &PgPool,
    outbox: &impl Outbox,
    area: &Path,
    station_id: StationId,
    user_id: UserId,
    name: &str,
    mut chunks: S,
) -> Result<Video, NotUploaded>
where
    S: Stream<Item = Result<Bytes, &'static str>> + Unpin,
{
    let video = start(db, station_id, user_id, name, videos::MAX_VIDEO_BYTES).await?;
    let receiving = Receiving {
        db: db.clone(),
        area: area.to_owned(),
        id: Some(video.id),
    };
    let mut part = PartWriter::create(area, video.id)
        .await
        .map_err(anyhow::Error::from)
        .map_err(NotAppended::from)?;
    while let Some(chunk) = chunks.next().await {
        let chunk = match chunk {
            Ok(chunk) => chunk,
            Err(broken) => return Err(receiving.refuse(broken).await.into()),
        };
        match part.write(&chunk).await {
            Ok(Ok(())) => {}
            Ok(Err(videos::TooLarge)) => return Err(receiving.refuse(FILE_INVALID).await.into()),
            Err(err) => return Err(NotAppended::from(anyhow::Error::from(err)).into()),
        }
    }
    let size = part
        .finish()
        .await
        .map_err(anyhow::Error::from)
        .map_err(NotAppended::from)?;
    let finished = async {
        let mut tx = db.begin().await?;
        let appended =
            videos::finish_plain(&mut tx, area, station_id, user_id, video.id, size).await?;
        settle(tx, outbox, appended).await
    }
    .await;
    // A breakage rolled back: the upload is failed as a broken transfer.
    if !matches!(finished, Err(NotAppended::Internal(_))) {
        receiving.settled();
    }
    Ok(finished?)
}

/// Cancels the member's upload while it still receives bytes (`DELETE
/// /uploads/videos/{id}`); one already whole is left as it is.
pub async fn cancel(
    db: &PgPool,
    area: &Path,
    station_id: StationId,
    user_id: UserId,
    id: i64,
) -> Result<Cancel, NotAppended> {
    let cancelled = videos::cancel(db, area, station_id, user_id, id).await?;
    if cancelled == Cancel::Cancelled {
        tracing::info!(user_id = %user_id, video_id = id, "video upload cancelled");
    }
    Ok(cancelled)
}

/// Commits what an append (or a plain upload's end) made: a whole upload with its
/// transcode queued, a failed one with its failure (refused with it).
async fn settle(
    mut tx: sqlx::Transaction<'_, sqlx::Postgres>,
    outbox: &impl Outbox,
    appended: Appended,
) -> Result<Video, NotAppended> {
    let video = match appended {
        Appended::Partial(video) => video,
        Appended::Whole(video) => transcode(&mut tx, outbox, &video).await?,
        Appended::Failed(video) => {
            tx.commit().await?;
            tracing::info!(video_id = video.id, failure = ?video.failure, "video upload refused");
            return Err(NotAppended::Failed(
                video.failure.unwrap_or_else(|| FILE_INVALID.into()),
            ));
        }
    };
    tx.commit().await?;
    if video.status == VideoStatus::Processing {
        tracing::info!(video_id = video.id, job_id = ?video.job_id, size = video.size, "video upload whole");
    }
    Ok(video)
}

/// Queues the transcode of a whole upload and records its job on the upload.
async fn transcode(
    tx: &mut PgConnection,
    outbox: &impl Outbox,
    video: &Video,
) -> sqlx::Result<Video> {
    let queued = outbox.transcode_video(&mut *tx, video).await?;
    videos::set_job(tx, video.id, &queued.job_id).await
}

/// A plain upload being received: dropped before it is settled, it fails the upload as a
/// broken transfer.
struct Receiving {
    db: PgPool,
    area: PathBuf,
    id: Option<i64>,
}

impl Receiving {
    /// Fails the upload with `failure`, the member's text it is refused with.
    async fn refuse(mut self, failure: &'static str) -> NotAppended {
        if let Some(id) = self.id.take()
            && let Err(err) =
                videos::fail(&self.db, &self.area, id, VideoStatus::Uploading, failure).await
        {
            return err.into();
        }
        NotAppended::Failed(failure.into())
    }

    fn settled(mut self) {
        self.id = None;
    }
}

impl Drop for Receiving {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            let (db, area) = (self.db.clone(), self.area.clone());
            tokio::spawn(async move {
                if let Err(err) =
                    videos::fail(&db, &area, id, VideoStatus::Uploading, UPLOAD_FAILED).await
                {
                    tracing::warn!(video_id = id, error = %err, "broken video upload not failed");
                }
            });
        }
    }
}
