//! Watching the videos of a video or playlist activity (the playlist's participation is
//! `participation::take_playlist`).

use chrono::{DateTime, Utc};
use sqlx::PgPool;

use domain::activities::video_views::{self, NotViewed, UserVideo, WatchReport};
use domain::shared::ids::{ActivityId, StationId, UserId};

/// Adds a report of the member's watch of a video, judging whether it now counts as seen.
pub async fn report(
    db: &PgPool,
    user_id: UserId,
    station_id: StationId,
    video_id: i64,
    action_id: ActivityId,
    report: &WatchReport,
    now: DateTime<Utc>,
) -> Result<UserVideo, NotViewed> {
    let mut tx = db.begin().await?;
    let view = video_views::report(
        &mut tx, user_id, station_id, video_id, action_id, report, now,
    )
    .await?;
    tx.commit().await?;
    Ok(view)
}
