//! `cards.delete` `{card_id}`: deletes a card its member removed at the payment provider
//! (`app::commerce::cards::delete_at_provider`), a minute after the removal, which tries it
//! at once too: this job is what asks again while the provider cannot be reached. A card
//! already deleted there, or saved again since, is left alone.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use app::commerce::cards;
use domain::commerce::gateway::GatewayError;

use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};
use crate::kinds::commerce::gateway;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardDelete {
    pub card_id: i64,
}

/// The removal's own try comes first; the job follows it by this much.
const AFTER_REMOVAL: chrono::Duration = chrono::Duration::minutes(1);

impl CardDelete {
    /// Enqueued on the transaction that removed the card: once per removal.
    pub async fn enqueue(
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        card_id: i64,
        removed_at: DateTime<Utc>,
    ) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self { card_id })
            .owner(station_id, Some(user_id))
            .about("saved_card", card_id)
            .run_at(removed_at + AFTER_REMOVAL)
            .idempotency_key(format!(
                "card-delete:{card_id}:{}",
                removed_at.timestamp_micros()
            ))
            .push(tx)
            .await
    }
}

const NOT_DELETED: &str =
    "O cartão removido não pôde ser apagado no meio de pagamento; nova tentativa em breve.";
const REFUSED: &str = "O meio de pagamento recusou apagar o cartão removido.";

impl Job for CardDelete {
    const QUEUE: &'static str = "cards.delete";
    const MAX_ATTEMPTS: i32 = 12;
    const CONCURRENCY: usize = 1;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(60),
        max: Duration::from_secs(6 * 3600),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let gateway = gateway(&ctx)?;
        let asked = cards::delete_at_provider(ctx.db(), &gateway, self.card_id)
            .await
            .map_err(|err| match err {
                GatewayError::Rejected(_) => JobError::permanent(REFUSED, err),
                other => JobError::retry(NOT_DELETED, other),
            })?;
        Ok(json!({ "card_id": self.card_id, "deleted": asked }))
    }
}
