//! What `video.transcode` asks of the rules: whether a probed file is a video the feed
//! shows, a fresh folder per attempt, and the upload made ready (its posts published).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use sqlx::PgConnection;

use super::{
    MAX_DURATION_MS, MAX_SIDE, NOT_A_VIDEO, REMOVED, TOO_BIG, TOO_LONG, VIDEO_COLUMNS, Video,
    entries, remove_dir, work_began, work_prefix,
};
use crate::feed::probe::Probe;

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
}
