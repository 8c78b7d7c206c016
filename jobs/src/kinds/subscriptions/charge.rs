//! `subscriptions.charge`: one try of a subscription's period at the provider
//! (`app::subscriptions::billing::charge_try`). Queued by the dispatcher (or a card change)
//! once per period, try and moment the try fell due. A retried run (a provider timeout, a
//! worker killed mid-call) resumes the same try with the same idempotency key: the
//! provider answers the charge it made, never a second one.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use app::subscriptions::billing;
use domain::subscriptions::billing::DueCharge;

use crate::JobOutbox;
use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};
use crate::kinds::commerce::gateway;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionCharge {
    pub period_id: i64,
    /// The try this job was queued for; a period already past it is not charged again.
    #[serde(default)]
    pub attempt: Option<i32>,
}

impl SubscriptionCharge {
    /// The idempotency key of a period's try queued at `due_at`.
    pub fn key(due: &DueCharge) -> String {
        format!(
            "subscription-charge:{}:{}:{}",
            due.period_id,
            due.attempt,
            due.due_at.timestamp_micros()
        )
    }

    pub async fn enqueue(tx: &mut PgConnection, due: &DueCharge) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self {
            period_id: due.period_id,
            attempt: Some(due.attempt),
        })
        .owner(due.station_id, Some(due.user_id))
        .about("subscription", due.subscription_id)
        .idempotency_key(Self::key(due))
        .push(tx)
        .await
    }
}

const NOT_CHARGED: &str = "A cobrança da assinatura não pôde ser feita; nova tentativa em breve.";

impl Job for SubscriptionCharge {
    const QUEUE: &'static str = "subscriptions.charge";
    const MAX_ATTEMPTS: i32 = 12;
    /// Each run mostly waits on the provider.
    const CONCURRENCY: usize = 8;
    const TIMEOUT: Duration = Duration::from_secs(90);
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(15),
        max: Duration::from_secs(900),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let gateway = gateway(&ctx)?;
        let outcome =
            billing::charge_try(ctx.db(), &gateway, &JobOutbox, self.period_id, self.attempt)
                .await
                .map_err(|err| JobError::retry(NOT_CHARGED, err))?;
        Ok(json!({ "period_id": self.period_id, "outcome": format!("{outcome:?}") }))
    }
}
