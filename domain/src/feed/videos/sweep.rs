//! Removing what no one needs any more: a video whose post is gone, and `uploads-cleanup`'s
//! sweep of abandoned uploads, stuck videos, unposted videos and the upload area's
//! leftovers.

use std::path::Path;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgPool;

use super::{
    ABANDONED_AFTER_HOURS, NOT_PROCESSED, STUCK_AFTER_HOURS, SWEEP_BATCH, UNPOSTED_AFTER_HOURS,
    VIDEO_COLUMNS, Video, VideoStatus, delete_files, entries, fail, remove_dir, remove_part,
    work_began,
};
use crate::infra::objects::Objects;
use crate::infra::uploads::UPLOAD_FAILED;

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
