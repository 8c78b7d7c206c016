//! Recording a participation, for every kind of activity that records one in a single
//! call: each runs the area's rules on one transaction and, when a participation is
//! recorded (or found again), queues what it earns ([`after_participation`]) on that same
//! transaction. A refusal rolls everything back.

use chrono::{DateTime, Utc};
use sqlx::PgPool;

use domain::activities::ActivityType;
use domain::activities::donation::{self, Donated, NotDonated};
use domain::activities::participation::{self, NotTaken, Participated};
use domain::activities::research::{self, Form, NotSubmitted, ResearchResult, Submission};
use domain::activities::video_views::{self, NotViewed};
use domain::shared::ids::{ActivityId, StationId, UserId};

use super::after_participation;
use crate::outbox::{Outbox, Queued};

/// A participation recorded, and the job of the credit it earns (`None` when it earns
/// none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken<T> {
    pub taken: T,
    pub credit_job: Option<Queued>,
}

/// The member takes part in a one-act activity of `kind` (a raw content view, an
/// agreement accepted).
pub async fn take_part(
    db: &PgPool,
    outbox: &impl Outbox,
    user_id: UserId,
    station_id: StationId,
    action_id: ActivityId,
    kind: ActivityType,
    now: DateTime<Utc>,
) -> Result<Taken<Participated>, NotTaken> {
    let mut tx = db.begin().await?;
    let taken =
        participation::take_part(&mut tx, user_id, station_id, action_id, kind, now).await?;
    let credit_job = after_participation(outbox, &mut tx, taken.participation_id).await?;
    tx.commit().await?;
    Ok(Taken { taken, credit_job })
}

/// The member takes part in a playlist activity, every video of it watched.
pub async fn take_playlist(
    db: &PgPool,
    outbox: &impl Outbox,
    user_id: UserId,
    station_id: StationId,
    action_id: ActivityId,
    now: DateTime<Utc>,
) -> Result<Taken<Participated>, NotViewed> {
    let mut tx = db.begin().await?;
    let taken = video_views::take_playlist(&mut tx, user_id, station_id, action_id, now).await?;
    let credit_job = after_participation(outbox, &mut tx, taken.participation_id).await?;
    tx.commit().await?;
    Ok(Taken { taken, credit_job })
}

/// The member donates `amount_cents` of their balance to a donation activity.
pub async fn donate(
    db: &PgPool,
    outbox: &impl Outbox,
    user_id: UserId,
    station_id: StationId,
    action_id: ActivityId,
    amount_cents: i64,
    now: DateTime<Utc>,
) -> Result<Taken<Donated>, NotDonated> {
    let mut tx = db.begin().await?;
    let taken =
        donation::donate(&mut tx, user_id, station_id, action_id, amount_cents, now).await?;
    let credit_job = after_participation(outbox, &mut tx, taken.participation_id).await?;
    tx.commit().await?;
    Ok(Taken { taken, credit_job })
}

/// The member submits a quiz or survey attempt. A submission sent again answers the first
/// result and changes nothing; a new one records the participation, and its result
/// carries the credit's job.
pub async fn submit_research(
    db: &PgPool,
    outbox: &impl Outbox,
    user_id: UserId,
    station_id: StationId,
    form: Form,
    submission: &Submission,
    now: DateTime<Utc>,
) -> Result<ResearchResult, NotSubmitted> {
    let mut tx = db.begin().await?;
    let mut result = research::submit(&mut tx, user_id, station_id, form, submission, now).await?;
    if !result.recorded {
        return Ok(result);
    }
    if let Some(participation_id) = result.participation_id {
        let credit_job = after_participation(outbox, &mut tx, participation_id).await?;
        result.job_id = credit_job.map(|job| job.job_id);
    }
    tx.commit().await?;
    Ok(result)
}
