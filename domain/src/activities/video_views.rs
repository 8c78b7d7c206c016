//! Watching an activity's videos (spec 001 "Videos", types 15, 16 and 18) and the video
//! playlist's participation. A video counts as viewed at 80% played; the server does not
//! take the player's word for it: the player reports the ranges it played, and a "viewed"
//! claim is accepted only when they cover 80% of the video's stored length *and* at least
//! that long has passed on the server's clock since the member started watching. A claim
//! faster than the video itself is refused, whatever the ranges say. An external video
//! (YouTube, Vimeo) plays in its provider's frame, which reports nothing: only the clock
//! judges it.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use sqlx::PgConnection;

use super::ActivityType;
use super::participation::{self, Participated, Refused};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{ActivityId, StationId, UserId};

/// The share of a video that makes it viewed: 4/5.
const VIEWED_NUMERATOR: i64 = 4;
const VIEWED_DENOMINATOR: i64 = 5;
/// How far the server's clock may lag the player's (request latency, a paused tab's last
/// report), in milliseconds: at most this, and at most a tenth of the time judged.
pub const CLOCK_TOLERANCE_MS: i64 = 2_000;
/// Ranges in one report: a player that seeks back and forth reports a few; more is abuse.
pub const MAX_RANGES: usize = 100;

/// The spec gives none of these texts (docs/decisions.md "Videos (issue 14)").
pub const NOT_WATCHED: &str = "Assista a pelo menos 80% do vídeo para marcá-lo como visto.";
pub const LOCKED: &str = "Assista antes aos vídeos obrigatórios anteriores.";
pub const PLAYLIST_UNWATCHED: &str = "Assista a todos os vídeos para concluir a atividade.";
pub const RANGES_INVALID: &str = "Os trechos assistidos informados são inválidos.";

/// What the player says: whether the member marks the video viewed (at 80% or by the
/// checkbox), and the ranges played so far, in seconds from the start.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WatchReport {
    pub has_viewed: bool,
    /// `(start, end)` pairs in seconds; the browser's `video.played` ranges.
    pub played: Vec<(f64, f64)>,
}

/// Why a report was refused.
#[derive(Debug, thiserror::Error)]
pub enum NotViewed {
    /// The activity's rules (unknown video, another station's, window, prerequisites).
    #[error("{}", .0.message())]
    Refused(Refused),
    /// A required video before it is not viewed yet.
    #[error("{LOCKED}")]
    Locked,
    /// Claimed viewed before 80% was played, or faster than the server's clock allows.
    #[error("{NOT_WATCHED}")]
    NotWatched,
    #[error("{RANGES_INVALID}")]
    RangesInvalid,
    /// A playlist participation asked before every video was viewed.
    #[error("{PLAYLIST_UNWATCHED}")]
    PlaylistUnwatched,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

participation::through_the_rules!(NotViewed);

impl IntoFailure for NotViewed {
    fn into_failure(self) -> Failure {
        match self {
            Self::Refused(refused) => refused.into_failure(),
            Self::Internal(err) => Failure::Internal(err),
            other => Failure::invalid(other.to_string()),
        }
    }
}

/// A member's view of one video (spec 001 "user_videos item"; the detail reads it from its
/// query's JSON).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, sqlx::FromRow)]
pub struct UserVideo {
    pub action_id: i64,
    pub video_id: i64,
    pub viewed_once: bool,
    pub has_viewed: bool,
}

#[derive(Debug, sqlx::FromRow)]
struct VideoRow {
    action_id: ActivityId,
    position: i32,
    duration_seconds: i32,
    custom: bool,
}

#[derive(Debug, sqlx::FromRow)]
struct WatchRow {
    started_at: DateTime<Utc>,
    viewed_at: Option<DateTime<Utc>>,
    played_ms: i64,
}

/// Milliseconds of `(start, end)` seconds, or `None` for a range no player reports.
fn ranges_ms(played: &[(f64, f64)]) -> Option<(Vec<i32>, Vec<i32>)> {
    if played.len() > MAX_RANGES {
        return None;
    }
    let mut starts = Vec::with_capacity(played.len());
    let mut ends = Vec::with_capacity(played.len());
    for &(start, end) in played {
        // A day is far past any video; the bound keeps the cast exact.
        let valid =
            start.is_finite() && end.is_finite() && 0.0 <= start && start <= end && end < 86_400.0;
        if !valid {
            return None;
        }
        starts.push((start * 1000.0).floor() as i32);
        ends.push((end * 1000.0).ceil() as i32);
    }
    Some((starts, ends))
}

/// 80% of a video of `duration_ms`: what a view needs played, and as long on the clock.
fn needed_ms(duration_ms: i64) -> i64 {
    duration_ms * VIEWED_NUMERATOR / VIEWED_DENOMINATOR
}

/// Whether `elapsed_ms` on the server's clock covers `needed_ms`, less the tolerance.
fn clock_covers(elapsed_ms: i64, needed_ms: i64) -> bool {
    elapsed_ms + CLOCK_TOLERANCE_MS.min(needed_ms / 10) >= needed_ms
}

/// Whether a watch of `played_ms` within `elapsed_ms` on the server's clock views a video
/// of `duration_ms`: 80% played (for a custom video, whose player reports its ranges), and
/// at least 80% of its length elapsed (less the tolerance) in every case.
pub fn watched_enough(custom: bool, duration_ms: i64, played_ms: i64, elapsed_ms: i64) -> bool {
    let needed = needed_ms(duration_ms);
    (!custom || played_ms >= needed) && clock_covers(elapsed_ms, needed)
}

/// Records what the player reports of video `video_id` of activity `action_id`, watched by
/// `user_id` of `station_id` now, on the caller's transaction (roll it back on a refusal).
/// Through the activity's rules ([`participation::admit`], which takes the member's lock:
/// a member's reports are judged one after the other). A report on a video locked behind
/// a required one is refused; the first report starts the watch; ranges add up; a viewed
/// claim is judged by [`watched_enough`] once per view, and later toggles only set
/// `has_viewed`.
pub async fn report(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
    video_id: i64,
    action_id: ActivityId,
    report: &WatchReport,
    now: DateTime<Utc>,
) -> Result<UserVideo, NotViewed> {
    let Some((starts, ends)) = ranges_ms(&report.played) else {
        return Err(NotViewed::RangesInvalid);
    };
    let video: Option<VideoRow> = sqlx::query_as(
        "SELECT action_id, position, duration_seconds, object_key IS NOT NULL AS custom
           FROM action_videos WHERE id = $1 AND action_id = $2",
    )
    .bind(video_id)
    .bind(action_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(video) = video else {
        return Err(NotViewed::Refused(Refused::Unavailable));
    };
    participation::admit(
        &mut *conn,
        user_id,
        station_id,
        video.action_id,
        &ActivityType::WITH_VIDEOS,
        now,
    )
    .await?;
    let locked: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM action_videos r
                         WHERE r.action_id = $1 AND r.position < $2 AND r.required
                           AND NOT EXISTS (SELECT 1 FROM video_views w
                                            WHERE w.user_id = $3 AND w.video_id = r.id
                                              AND w.viewed_once))",
    )
    .bind(video.action_id)
    .bind(video.position)
    .bind(user_id)
    .fetch_one(&mut *conn)
    .await?;
    if locked {
        return Err(NotViewed::Locked);
    }
    let duration_ms = i64::from(video.duration_seconds) * 1000;
    // One statement: the watch starts if none runs, and the reported ranges (clipped to
    // the video) join the played ones.
    let watch: WatchRow = sqlx::query_as(
        "WITH reported AS (
             SELECT coalesce(range_agg(int4range(s, e)), '{}') * int4multirange(int4range(0, $6))
                      AS ranges
               FROM unnest($4::int4[], $5::int4[]) AS t(s, e))
         INSERT INTO video_views AS w (user_id, video_id, action_id, started_at, played)
         SELECT $1, $2, $3, $7, ranges FROM reported
         ON CONFLICT (user_id, video_id) DO UPDATE
            SET started_at = coalesce(w.started_at, EXCLUDED.started_at),
                played = w.played + EXCLUDED.played
         RETURNING started_at, viewed_at,
                   (SELECT coalesce(sum(upper(r) - lower(r)), 0)::int8 FROM unnest(played) r)
                     AS played_ms",
    )
    .bind(user_id)
    .bind(video_id)
    .bind(video.action_id)
    .bind(&starts)
    .bind(&ends)
    .bind(duration_ms as i32)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    if report.has_viewed && watch.viewed_at.is_none() {
        let elapsed_ms = (now - watch.started_at).num_milliseconds();
        if !watched_enough(video.custom, duration_ms, watch.played_ms, elapsed_ms) {
            return Err(NotViewed::NotWatched);
        }
        // One member watches one video at a time: this watch counts from its own start or
        // from the last view accepted in the activity, whichever is later, so videos started
        // side by side (two tabs, a script, one started days before) are viewed one after
        // the other, never in the time of the longest.
        let last_viewed: Option<DateTime<Utc>> = sqlx::query_scalar(
            "SELECT max(viewed_at) FROM video_views
              WHERE user_id = $1 AND action_id = $2 AND video_id <> $3",
        )
        .bind(user_id)
        .bind(video.action_id)
        .bind(video_id)
        .fetch_one(&mut *conn)
        .await?;
        let from = last_viewed.map_or(watch.started_at, |at| at.max(watch.started_at));
        if !clock_covers((now - from).num_milliseconds(), needed_ms(duration_ms)) {
            return Err(NotViewed::NotWatched);
        }
    }
    let view = sqlx::query_as(
        "UPDATE video_views
            SET has_viewed = $3,
                viewed_once = viewed_once OR $3,
                viewed_at = CASE WHEN $3 THEN coalesce(viewed_at, $4) ELSE viewed_at END
          WHERE user_id = $1 AND video_id = $2
         RETURNING action_id, video_id, viewed_once, has_viewed",
    )
    .bind(user_id)
    .bind(video_id)
    .bind(report.has_viewed)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    Ok(view)
}

/// The member's views of the activity's videos, in the videos' order.
pub async fn of_member(
    conn: &mut PgConnection,
    user_id: i64,
    action_id: i64,
) -> sqlx::Result<Vec<UserVideo>> {
    sqlx::query_as(
        "SELECT w.action_id, w.video_id, w.viewed_once, w.has_viewed
           FROM video_views w JOIN action_videos v ON v.id = w.video_id
          WHERE w.user_id = $1 AND w.action_id = $2
          ORDER BY v.position, v.id",
    )
    .bind(user_id)
    .bind(action_id)
    .fetch_all(conn)
    .await
}

/// The playlist participation (type 18): every video of the playlist viewed. Through the
/// participation rules; without a `limitPerUser` the first is the one participation and
/// later calls answer it again. With a limit, each participation spends the views it used
/// (the next needs the videos watched again), so a limit of 3 is three watches, not three
/// calls.
pub async fn take_playlist(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
    action_id: ActivityId,
    now: DateTime<Utc>,
) -> Result<Participated, NotViewed> {
    let admitted = participation::admit(
        &mut *conn,
        user_id,
        station_id,
        action_id,
        &[ActivityType::VideoPlaylist],
        now,
    )
    .await?;
    if let Some(earlier) = admitted.answered_before() {
        return Ok(earlier);
    }
    let (videos, viewed): (i64, i64) = sqlx::query_as(
        "SELECT count(*),
                count(*) FILTER (WHERE EXISTS (SELECT 1 FROM video_views w
                                                WHERE w.video_id = v.id AND w.user_id = $2
                                                  AND w.viewed_at IS NOT NULL))
           FROM action_videos v WHERE v.action_id = $1",
    )
    .bind(action_id)
    .bind(user_id)
    .fetch_one(&mut *conn)
    .await?;
    if videos == 0 {
        return Err(NotViewed::Refused(Refused::Unavailable));
    }
    if viewed < videos {
        return Err(NotViewed::PlaylistUnwatched);
    }
    let replayable = admitted.limit_per_user().is_some();
    let recorded = admitted.participated(0, true);
    let participation_id = participation::record(&mut *conn, admitted).await?;
    if replayable {
        sqlx::query(
            "UPDATE video_views
                SET started_at = NULL, played = '{}', viewed_at = NULL, has_viewed = false
              WHERE user_id = $1 AND action_id = $2",
        )
        .bind(user_id)
        .bind(action_id)
        .execute(&mut *conn)
        .await?;
    }
    Ok(Participated {
        participation_id,
        ..recorded
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_custom_video_needs_80_percent_played_and_as_long_on_the_clock() {
        let minute = 60_000;
        assert!(watched_enough(true, minute, 48_000, 48_000));
        assert!(
            !watched_enough(true, minute, 47_999, 60_000),
            "played short"
        );
        // The whole video claimed played within 10 s of starting it.
        assert!(
            !watched_enough(true, minute, minute, 10_000),
            "faster than the video"
        );
        assert!(watched_enough(
            true,
            minute,
            minute,
            48_000 - CLOCK_TOLERANCE_MS
        ));
        assert!(!watched_enough(
            true,
            minute,
            minute,
            48_000 - CLOCK_TOLERANCE_MS - 1
        ));
        // A short clip's tolerance is a tenth of the time judged: 2 s would be most of it.
        assert!(watched_enough(true, 5_000, 4_000, 3_600));
        assert!(!watched_enough(true, 5_000, 4_000, 3_599));
    }

    #[test]
    fn an_external_video_is_judged_by_the_clock_alone() {
        assert!(watched_enough(false, 60_000, 0, 48_000));
        assert!(!watched_enough(false, 60_000, 0, 30_000));
    }

    #[test]
    fn ranges_are_read_in_milliseconds_and_nonsense_is_refused() {
        assert_eq!(
            ranges_ms(&[(0.0, 1.5), (2.0004, 3.0)]),
            Some((vec![0, 2000], vec![1500, 3000]))
        );
        for bad in [
            (-1.0, 2.0),
            (3.0, 2.0),
            (f64::NAN, 1.0),
            (0.0, f64::INFINITY),
            (0.0, 90_000.0),
        ] {
            assert_eq!(ranges_ms(&[bad]), None, "{bad:?}");
        }
        assert_eq!(ranges_ms(&vec![(0.0, 1.0); MAX_RANGES + 1]), None);
    }
}
