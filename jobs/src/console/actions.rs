//! What staff do from the console, each a whole change: the job or queue rows, the job it
//! needs, and its `staff_audit` entry commit in one transaction or not at all. The caller
//! has already checked that the grant may act (`support`, and all stations for a pause).

use std::collections::BTreeMap;

use domain::staff::{self, Action, AuditRecord, Scope};
use serde_json::json;
use sqlx::PgPool;

use super::{BulkRerun, Change, JobFilter, QueueOverview};
use crate::Enqueue;
use crate::kinds::CashbackRelease;

/// A staff member acting within their grant's scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Actor {
    pub user_id: i64,
    pub scope: Scope,
}

/// Pauses or resumes a queue; the queue as it is now, or `None` when there is no such queue.
pub async fn set_paused(
    db: &PgPool,
    actor: Actor,
    queue: &str,
    pause: bool,
) -> sqlx::Result<Option<QueueOverview>> {
    let mut tx = db.begin().await?;
    if !super::set_paused(&mut tx, queue, pause.then_some(actor.user_id)).await? {
        return Ok(None);
    }
    let action = if pause {
        Action::QueuePause
    } else {
        Action::QueueResume
    };
    record(&mut tx, actor, action, None, &[], json!({ "queue": queue })).await?;
    tx.commit().await?;
    Ok(super::queues(db, actor.scope, Some(queue)).await?.pop())
}

/// What staff may do to one job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobAction {
    Rerun,
    Cancel,
}

/// Re-runs or cancels one job in the actor's scope.
pub async fn act_on_job(
    db: &PgPool,
    actor: Actor,
    id: &str,
    action: JobAction,
) -> sqlx::Result<Change> {
    let mut tx = db.begin().await?;
    let (change, audited) = match action {
        JobAction::Rerun => (
            super::rerun(&mut tx, actor.scope, id).await?,
            Action::JobRerun,
        ),
        JobAction::Cancel => (
            super::cancel(&mut tx, actor.scope, id).await?,
            Action::JobCancel,
        ),
    };
    let Change::Done { before, job } = &change else {
        return Ok(change);
    };
    // `before` is the state the action found under its row lock, not an earlier read.
    let details = json!({ "queue": job.queue, "state_before": before });
    record(
        &mut tx,
        actor,
        audited,
        job.station_id,
        std::slice::from_ref(&job.id),
        details,
    )
    .await?;
    tx.commit().await?;
    Ok(change)
}

/// Re-runs every re-runnable job `filter` matches, if they are still `expected` many (see
/// [`super::rerun_matching`]). The audit gets one entry per station among the jobs (and
/// one for unowned jobs), so each station's staff see the re-runs of their jobs; a re-run
/// that matched nothing is still recorded once, in the filter's scope.
pub async fn rerun_matching(
    db: &PgPool,
    actor: Actor,
    filter: &JobFilter,
    expected: i64,
) -> sqlx::Result<BulkRerun> {
    let mut tx = db.begin().await?;
    let outcome = super::rerun_matching(&mut tx, actor.scope, filter, expected).await?;
    let BulkRerun::Done(rerun) = &outcome else {
        return Ok(outcome);
    };
    let total = rerun.len();
    let mut by_station: BTreeMap<Option<i64>, Vec<String>> = BTreeMap::new();
    for job in rerun {
        by_station
            .entry(job.station_id)
            .or_default()
            .push(job.id.clone());
    }
    if by_station.is_empty() {
        // Staff of every station may filter by any id: one that names no station stays in
        // the entry's details only, as the audit's station must be one.
        let filtered = match filter.station_id {
            Some(id) => domain::stations::station::find(&mut *tx, id)
                .await?
                .map(|_| id),
            None => None,
        };
        by_station.insert(actor.scope.station_id().or(filtered), Vec::new());
    }
    for (station_id, job_ids) in &by_station {
        // `count` is the entry's share, `total` the whole action's.
        let details = json!({ "filter": filter, "count": job_ids.len(), "total": total });
        record(
            &mut tx,
            actor,
            Action::JobsRerun,
            *station_id,
            job_ids,
            details,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(outcome)
}

/// Queues a release of `station_id`'s due cashback now; the job's id, or `None` when the
/// station is not in the actor's scope.
pub async fn release_cashback(
    db: &PgPool,
    actor: Actor,
    station_id: i64,
) -> sqlx::Result<Option<String>> {
    if staff::stations(db, actor.scope, Some(station_id))
        .await?
        .is_empty()
    {
        return Ok(None);
    }
    let mut tx = db.begin().await?;
    let job = Enqueue::new(CashbackRelease {
        station_id,
        tick: None,
        requested_by: Some(actor.user_id),
    })
    .owner(station_id, None)
    .about("station", station_id)
    .push(&mut tx)
    .await?;
    let details = json!({ "station_id": station_id, "job": job.id });
    record(
        &mut tx,
        actor,
        Action::CashbackRelease,
        Some(station_id),
        std::slice::from_ref(&job.id),
        details,
    )
    .await?;
    tx.commit().await?;
    Ok(Some(job.id))
}

async fn record(
    tx: &mut sqlx::PgConnection,
    actor: Actor,
    action: Action,
    station_id: Option<i64>,
    job_ids: &[String],
    details: serde_json::Value,
) -> sqlx::Result<i64> {
    let entry = AuditRecord {
        user_id: actor.user_id,
        action,
        station_id,
        job_ids,
        details,
    };
    staff::record(tx, entry).await
}
