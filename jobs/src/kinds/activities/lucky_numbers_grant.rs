//! `lucky_numbers.grant`: gives a participation its number in every giveaway campaign its
//! station runs that the participation matches. Queued by the participation hook, keyed by
//! the participation; granting skips a campaign the participation already holds a number
//! in, so a retried or duplicated run gives nothing more. Without a participation it is
//! the nightly backfill, for every participation a campaign still owes.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use domain::activities::lucky_numbers;

use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Job, JobContext, JobError};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LuckyNumbersGrant {
    /// `None`: the backfill.
    #[serde(default)]
    pub participation_id: Option<i64>,
}

impl LuckyNumbersGrant {
    /// Enqueues the grant of `participation_id` on its transaction, keyed by it (the
    /// participation use case asks only when a campaign owes it a number).
    pub async fn for_participation(
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        participation_id: i64,
    ) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self {
            participation_id: Some(participation_id),
        })
        .owner(station_id, Some(user_id))
        .about("participation", participation_id)
        .idempotency_key(format!("lucky_numbers:participation:{participation_id}"))
        .push(tx)
        .await
    }
}

impl Job for LuckyNumbersGrant {
    const QUEUE: &'static str = "lucky_numbers.grant";
    const MAX_ATTEMPTS: i32 = 8;
    const CONCURRENCY: usize = 2;
    /// The backfill reads every open campaign's participations.
    const TIMEOUT: Duration = Duration::from_secs(15 * 60);

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let retry = |err: sqlx::Error| {
            JobError::retry("Os números da sorte não puderam ser concedidos.", err)
        };
        let Some(participation_id) = self.participation_id else {
            let given = lucky_numbers::backfill(ctx.db()).await.map_err(retry)?;
            if given > 0 {
                tracing::info!(given, "lucky numbers given by the backfill");
            }
            return Ok(json!({ "backfilled": given }));
        };
        let mut tx = ctx.db().begin().await.map_err(retry)?;
        let granted = lucky_numbers::grant(&mut tx, participation_id)
            .await
            .map_err(retry)?;
        tx.commit().await.map_err(retry)?;
        for number in &granted {
            tracing::info!(
                participation_id,
                campaign_id = number.campaign_id,
                sequence = number.sequence,
                "lucky number given"
            );
        }
        Ok(json!({
            "granted": granted
                .iter()
                .map(|n| json!({ "campaign_id": n.campaign_id, "number": n.number }))
                .collect::<Vec<_>>()
        }))
    }
}
