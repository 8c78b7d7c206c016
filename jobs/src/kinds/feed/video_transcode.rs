//! `video.transcode`: turns a member's whole upload into what the feed plays. ffprobe first
//! says whether it is a video we show (a video stream, up to 10 minutes, sides up to 4096);
//! ffmpeg then makes an H.264/AAC MP4 that fits 1280x720 (`+faststart`) and a JPEG poster
//! in a fresh folder of this attempt, reporting its percent on the job; both are stored
//! under new keys and only then recorded, with the upload ready and its posts published,
//! in one transaction. A file that is not such a video (ffprobe refuses it, or ffmpeg
//! fails on it after a good probe) fails for good with the reason on the upload; anything
//! else (disk, store, database) is retried, and the last attempt fails the upload. The
//! inner time limits add up to well under the job's [`Job::TIMEOUT`], so an attempt ends
//! by its own failure path rather than the fleet's; an attempt ended from outside (or one
//! whose failure could not be recorded) is settled by `uploads-cleanup`. An attempt killed
//! half-way leaves a folder a later one (or the cleanup) removes, and nothing recorded.

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;
use tokio::sync::watch;

use domain::feed::videos::{self, Processed, Video, VideoStatus};
use domain::infra::objects::Objects;
use media::ffmpeg::{self, Container, FfmpegError};

use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Job, JobContext, JobError};

/// ffprobe reads headers only: a file that keeps it longer is not one we want.
const PROBE_TIMEOUT: Duration = Duration::from_secs(60);
/// The longest ffmpeg may take on one video (10 minutes of it, on a busy machine).
const TRANSCODE_TIMEOUT: Duration = Duration::from_secs(25 * 60);
/// One poster frame (taken at most twice).
const POSTER_TIMEOUT: Duration = Duration::from_secs(60);
/// Storing the MP4 (at most [`MAX_OUTPUT_BYTES`]) and its poster.
const STORE_TIMEOUT: Duration = Duration::from_secs(3 * 60);
/// The MP4 never grows past this, whatever the input holds.
const MAX_OUTPUT_BYTES: u64 = 400_000_000;
/// ffmpeg's encoder threads: the worker's other jobs keep a core.
const FFMPEG_THREADS: u32 = 2;
/// The poster is the frame at 1 s (past a fade-in), or the first of a shorter video.
const POSTER_AT: Duration = Duration::from_secs(1);
/// Progress is written at most once per this many percent.
const PROGRESS_STEP: u8 = 5;

// Two probes, the transcode, two poster frames and the store, with room to spare for the
// database: an attempt ends by its own failure path, never by the fleet's timeout.
const _: () = assert!(
    PROBE_TIMEOUT.as_secs() * 2
        + TRANSCODE_TIMEOUT.as_secs()
        + POSTER_TIMEOUT.as_secs() * 2
        + STORE_TIMEOUT.as_secs()
        + 60
        < <VideoTranscode as Job>::TIMEOUT.as_secs()
);

const RETRYING: &str = "O vídeo ainda não pôde ser processado; nova tentativa em breve.";
const TOO_SLOW: &str = "O vídeo demorou demais para ser processado. Envie um vídeo menor.";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VideoTranscode {
    pub video_id: i64,
}

impl VideoTranscode {
    /// Enqueues the transcode of a whole upload on the transaction that made it whole,
    /// keyed by the upload (`app::feed::videos` records the job on it).
    pub async fn for_video(tx: &mut PgConnection, video: &Video) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self { video_id: video.id })
            .owner(video.station_id, Some(video.user_id))
            .about("feed_video", video.id)
            .idempotency_key(format!("video:{}", video.id))
            .push(&mut *tx)
            .await
    }
}

/// Why an attempt did not make the video.
#[derive(Debug)]
enum Failure {
    /// The file is not a video we show: the member's text.
    Refused(&'static str, anyhow::Error),
    /// Something around the file failed; another attempt may succeed.
    Transient(anyhow::Error),
}

fn transient(err: impl Into<anyhow::Error>) -> Failure {
    Failure::Transient(err.into())
}

impl Job for VideoTranscode {
    const QUEUE: &'static str = "video.transcode";
    const MAX_ATTEMPTS: i32 = 3;
    /// ffmpeg takes every core it is given: one video at a time per worker process.
    const CONCURRENCY: usize = 1;
    const TIMEOUT: Duration = Duration::from_secs(35 * 60);

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let retry = |err: sqlx::Error| JobError::retry(RETRYING, err);
        let Some(video) = videos::find(ctx.db(), self.video_id).await.map_err(retry)? else {
            return Ok(json!({ "skipped": "the upload is gone" }));
        };
        match video.status {
            VideoStatus::Processing => {}
            VideoStatus::Ready => return Ok(ready(&video)),
            VideoStatus::Failed => return Ok(json!({ "skipped": video.failure })),
            VideoStatus::Uploading => {
                return Err(JobError::permanent(
                    NOT_WHOLE,
                    anyhow::anyhow!("video {} is still uploading", video.id),
                ));
            }
        }
        let area = videos::upload_area(&ctx.services.config);
        let failure = match make(&ctx, &area, &video).await {
            Ok(done) => return Ok(done),
            Err(failure) => failure,
        };
        let last = ctx.attempt >= Self::MAX_ATTEMPTS as u32;
        let (summary, detail, fail_upload) = match failure {
            Failure::Refused(summary, detail) => (summary, detail, true),
            Failure::Transient(detail) if last => (videos::NOT_PROCESSED, detail, true),
            Failure::Transient(detail) => return Err(JobError::retry(RETRYING, detail)),
        };
        if fail_upload {
            videos::fail(ctx.db(), &area, video.id, VideoStatus::Processing, summary)
                .await
                .map_err(retry)?;
            tracing::info!(video_id = video.id, summary, "video refused");
        }
        Err(JobError::permanent(summary, detail))
    }
}

const NOT_WHOLE: &str = "O envio do vídeo não foi concluído.";

fn ready(video: &Video) -> Value {
    json!({
        "url": video.video_key.as_deref().map(Objects::url),
        "poster": video.poster_key.as_deref().map(Objects::url),
        "durationMs": video.duration_ms,
    })
}

/// One attempt, in a work folder of its own that is removed whatever happens (a killed
/// attempt's is removed by a later one once past the job's timeout, by the attempt that
/// makes the video ready, or by the cleanup).
async fn make(ctx: &JobContext, area: &Path, video: &Video) -> Result<Value, Failure> {
    let part = videos::part_path(area, video.id);
    // A part file missing here is a volume not shared (or not mounted yet): retried.
    let kind = videos::kind_of_part(&part).await.map_err(transient)?;
    let container = kind.and_then(Container::of).ok_or_else(|| {
        Failure::Refused(
            videos::NOT_A_VIDEO,
            anyhow::anyhow!("not a video signature: {kind:?}"),
        )
    })?;
    let work = videos::new_work_dir(area, video.id, VideoTranscode::TIMEOUT)
        .await
        .map_err(transient)?;
    let made = make_in(ctx, video, &part, container, &work).await;
    videos::remove_dir(&work).await;
    if made.is_ok() {
        videos::remove_part(area, video.id).await;
        if let Err(err) = videos::remove_work_dirs(area, video.id).await {
            tracing::warn!(video_id = video.id, error = %err, "earlier attempts' folders not removed");
        }
    }
    made
}

async fn make_in(
    ctx: &JobContext,
    video: &Video,
    part: &Path,
    container: Container,
    work: &Path,
) -> Result<Value, Failure> {
    let progress = |percent| async move { ctx.progress(percent).await.map_err(transient) };
    let probe = ffmpeg::probe(part, container, PROBE_TIMEOUT)
        .await
        .map_err(|err| match err {
            FfmpegError::Io { .. } => transient(err),
            err => Failure::Refused(videos::NOT_A_VIDEO, err.into()),
        })?;
    let duration_ms = videos::check(&probe)
        .map_err(|summary| Failure::Refused(summary, anyhow::anyhow!("probed: {probe:?}")))?;
    progress(1).await?;

    let mp4 = work.join("video.mp4");
    let (box_width, box_height) = videos::PLAYED_BOX;
    // The header's duration, a second more for rounding, never past the longest we show:
    // data that runs on past what the header says is not transcoded.
    let max_duration = Duration::from_millis((duration_ms + 1000).min(videos::MAX_DURATION_MS));
    let job = ffmpeg::Transcode {
        input: part,
        container,
        output: &mp4,
        duration_ms,
        max_duration,
        max_bytes: MAX_OUTPUT_BYTES,
        threads: FFMPEG_THREADS,
        max_width: box_width,
        max_height: box_height,
        timeout: TRANSCODE_TIMEOUT,
    };
    let (sender, mut percent) = watch::channel(0u8);
    let transcoded = {
        let run = ffmpeg::transcode(&job, &sender);
        tokio::pin!(run);
        let mut reported = 0u8;
        loop {
            tokio::select! {
                done = &mut run => break done,
                Ok(()) = percent.changed() => {
                    // ffmpeg's share of the work is 1 to 90 percent.
                    let now = 1 + u8::try_from(u16::from(*percent.borrow_and_update()) * 89 / 99)
                        .unwrap_or(89);
                    if now >= reported + PROGRESS_STEP {
                        reported = now;
                        progress(now).await?;
                    }
                }
            }
        }
    };
    // ffmpeg failing on a file ffprobe took (corrupt or truncated data, a codec it cannot
    // decode) fails the same way every time: refused, not three full transcodes.
    transcoded.map_err(|err| match err {
        FfmpegError::TimedOut { .. } => Failure::Refused(TOO_SLOW, err.into()),
        err if err.is_refusal() => Failure::Refused(videos::NOT_A_VIDEO, err.into()),
        err => transient(err),
    })?;
    progress(90).await?;

    // What the feed plays, read back from the MP4 itself.
    let made = ffmpeg::probe(&mp4, Container::Mov, PROBE_TIMEOUT)
        .await
        .map_err(transient)?;
    let Some((_, width, height)) = made.video else {
        return Err(transient(anyhow::anyhow!("the MP4 has no video: {made:?}")));
    };
    let poster = work.join("poster.jpg");
    let at = if duration_ms > 1500 {
        POSTER_AT
    } else {
        Duration::ZERO
    };
    ffmpeg::poster(&mp4, at, &poster, POSTER_TIMEOUT)
        .await
        .map_err(transient)?;
    progress(92).await?;

    let objects = Objects::from_config(&ctx.services.config).map_err(transient)?;
    let video_key = Objects::new_key("feed/videos", "mp4");
    let poster_key = format!("{}.jpg", video_key.trim_end_matches(".mp4"));
    let done = Processed {
        video_key,
        poster_key,
        duration_ms: i32::try_from(made.duration_ms.unwrap_or(duration_ms)).unwrap_or(i32::MAX),
        width: i32::try_from(width).unwrap_or(i32::MAX),
        height: i32::try_from(height).unwrap_or(i32::MAX),
    };
    if !store_and_record(ctx, &objects, video.id, &done, &mp4, &poster).await? {
        tracing::info!(
            video_id = video.id,
            "video no longer processing; result dropped"
        );
        return Ok(json!({ "skipped": "no longer processing" }));
    }
    progress(100).await?;
    tracing::info!(
        video_id = video.id,
        duration_ms = done.duration_ms,
        width,
        height,
        "video ready"
    );
    Ok(json!({
        "url": Objects::url(&done.video_key),
        "poster": Objects::url(&done.poster_key),
        "durationMs": done.duration_ms,
    }))
}

/// Stores the MP4 and poster, then records them: the upload ready and its posts published
/// in one transaction. False when the upload was no longer processing, or its post was
/// removed by staff meanwhile (`videos::mark_ready`). What was stored but
/// is surely not recorded is deleted (after a failed commit it may be: it stays).
async fn store_and_record(
    ctx: &JobContext,
    objects: &Objects,
    id: i64,
    done: &Processed,
    mp4: &Path,
    poster: &Path,
) -> Result<bool, Failure> {
    let recorded = async {
        let store = async {
            objects.put_file(&done.video_key, mp4).await?;
            objects.put_file(&done.poster_key, poster).await
        };
        tokio::time::timeout(STORE_TIMEOUT, store)
            .await
            .map_err(|_| anyhow::anyhow!("storing took longer than {STORE_TIMEOUT:?}"))??;
        let mut tx = ctx.db().begin().await?;
        let recorded = videos::mark_ready(&mut tx, id, done).await?;
        Ok::<_, anyhow::Error>((tx, recorded))
    }
    .await;
    match recorded {
        Ok((tx, true)) => {
            tx.commit().await.map_err(transient)?;
            Ok(true)
        }
        Ok((tx, false)) => {
            // What mark_ready changed instead (a removed post's video failed) is kept.
            tx.commit().await.map_err(transient)?;
            delete_quietly(objects, done).await;
            Ok(false)
        }
        Err(err) => {
            delete_quietly(objects, done).await;
            Err(transient(err))
        }
    }
}

async fn delete_quietly(objects: &Objects, done: &Processed) {
    for key in [&done.video_key, &done.poster_key] {
        if let Err(err) = objects.delete(key).await {
            tracing::warn!(key, error = %err, "unrecorded video object not deleted");
        }
    }
}
