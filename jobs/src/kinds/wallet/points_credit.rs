//! `points.credit`: writes one credit lot into a member's wallet. Every credit goes through
//! this job, enqueued in the transaction of the event that earns it; the lot's unique key
//! (and the job's idempotency key, the same string) make a retried or duplicated credit a
//! no-op; enqueueing a credit whose job failed for good or was cancelled re-arms that job.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use domain::shared::ids::{ActivityId, StationId, UserId};
use domain::wallet::ledger::{self, Credit, LedgerError, SourceKind};

use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};
use crate::state::{self, JobState};

/// The credit to write: [`Credit`]'s fields. Optional ones have defaults so older or
/// hand-made payloads still parse; a payload missing who, what or how much fails alone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointsCredit {
    pub user_id: UserId,
    pub station_id: StationId,
    pub source_kind: SourceKind,
    pub source_id: String,
    pub rule: String,
    /// Hundredths of a point.
    pub amount: i64,
    #[serde(default = "default_description")]
    pub description: String,
    #[serde(default)]
    pub action_id: Option<ActivityId>,
}

fn default_description() -> String {
    "Crédito".into()
}

impl From<Credit> for PointsCredit {
    fn from(credit: Credit) -> Self {
        Self {
            user_id: credit.user_id,
            station_id: credit.station_id,
            source_kind: credit.source_kind,
            source_id: credit.source_id,
            rule: credit.rule,
            amount: credit.amount,
            description: credit.description,
            action_id: credit.action_id,
        }
    }
}

impl From<PointsCredit> for Credit {
    fn from(job: PointsCredit) -> Self {
        Self {
            user_id: job.user_id,
            station_id: job.station_id,
            source_kind: job.source_kind,
            source_id: job.source_id,
            rule: job.rule,
            amount: job.amount,
            description: job.description,
            action_id: job.action_id,
        }
    }
}

impl PointsCredit {
    /// Enqueues the credit on the caller's transaction, owned by its member and keyed by
    /// the credit's own key: the same credit enqueued twice is one job. When that job
    /// failed for good or was cancelled, it is put back in its queue (a re-run), or the
    /// key would block the credit forever; the lot's unique key still makes it one credit.
    pub async fn enqueue(tx: &mut PgConnection, credit: Credit) -> sqlx::Result<Enqueued> {
        Ok(Self::enqueue_counted(tx, credit).await?.0)
    }

    /// [`Self::enqueue`], and whether the call queued anything: a new job or a re-armed one.
    pub(crate) async fn enqueue_counted(
        tx: &mut PgConnection,
        credit: Credit,
    ) -> sqlx::Result<(Enqueued, bool)> {
        let key = credit.key();
        let enqueued = Enqueue::new(Self::from(credit.clone()))
            .owner(credit.station_id.0, Some(credit.user_id.0))
            .about("credit", &key)
            .idempotency_key(key)
            .push(&mut *tx)
            .await?;
        if enqueued.created {
            return Ok((enqueued, true));
        }
        let existing = state::find(&mut *tx, &enqueued.id).await?;
        let rearmed = match existing.map(|job| job.state) {
            Some(JobState::Failed | JobState::Cancelled) => {
                state::rerun_in(tx, &enqueued.id).await?.is_some()
            }
            // Waiting, running or retrying: it will write the lot. Succeeded: it did.
            _ => false,
        };
        if rearmed {
            tracing::info!(job = %enqueued.id, "points.credit job re-armed");
        }
        Ok((enqueued, rearmed))
    }
}

const NOT_CREDITED: &str = "Os pontos não puderam ser creditados.";

impl Job for PointsCredit {
    const QUEUE: &'static str = "points.credit";
    const MAX_ATTEMPTS: i32 = 12;
    /// 5 s, 10 s, 20 s ... at most 15 minutes: a database hiccup is over long before the
    /// attempts are, and the member sees the points soon after.
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(5),
        max: Duration::from_secs(900),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let credit = Credit::from(self);
        let retry = |err: sqlx::Error| JobError::retry(NOT_CREDITED, err);
        let mut tx = ctx.db().begin().await.map_err(retry)?;
        let credited = ledger::credit(&mut tx, &credit, Some(&ctx.id))
            .await
            .map_err(|err| match err {
                // A constraint the payload breaks (blank source, bad rule name, unknown
                // activity) will break it on every attempt.
                LedgerError::Db(sqlx::Error::Database(db))
                    if db.code().is_some_and(|code| code.starts_with("23")) =>
                {
                    JobError::permanent(NOT_CREDITED, sqlx::Error::Database(db))
                }
                LedgerError::Db(err) => retry(err),
                other => JobError::permanent(NOT_CREDITED, other),
            })?;
        tx.commit().await.map_err(retry)?;
        Ok(json!({
            "lot_id": credited.lot_id,
            "created": credited.created,
            "state": credited.state,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_payloads_without_the_optional_fields_still_parse() {
        let job: PointsCredit = serde_json::from_value(json!({
            "user_id": 7, "station_id": 1, "source_kind": "activity", "source_id": "7",
            "rule": "signup", "amount": 5000, "unknown": true
        }))
        .expect("parses");
        assert_eq!(job.description, "Crédito");
        assert_eq!(job.action_id, None);
        let credit = Credit::from(job.clone());
        assert_eq!(credit.key(), "activity:7:signup");
        assert_eq!(PointsCredit::from(credit), job);
    }
}
