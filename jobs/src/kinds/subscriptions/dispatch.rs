//! `subscriptions.dispatch` (cron, every minute): at the provider's time (`gateway.now()`,
//! the sandbox's movable clock in a demo), ends the subscriptions cancelled at their
//! period's end, applies waiting downgrades, makes the next periods and queues the charges
//! that fell due (`app::subscriptions::billing::dispatch`), and gives back money owed back
//! that its own run could not (`give_back_owed`).

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use app::subscriptions::billing;
use domain::commerce::gateway::PaymentGateway;

use crate::JobOutbox;
use crate::job::{Backoff, Job, JobContext, JobError};
use crate::kinds::commerce::gateway;

/// Rows per transaction: each batch's locks are short, and a tick of 100 000 renewals is
/// two hundred of them.
pub const BATCH: i64 = 500;
/// Refunds swept per tick (each is a call to the provider).
const REFUNDS_PER_TICK: i64 = 20;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionsDispatch {
    pub tick: DateTime<Utc>,
}

const NOT_DISPATCHED: &str = "Falha ao agendar as cobranças das assinaturas.";

impl Job for SubscriptionsDispatch {
    const QUEUE: &'static str = "subscriptions.dispatch";
    /// The next minute's dispatch does the same work.
    const MAX_ATTEMPTS: i32 = 3;
    const CONCURRENCY: usize = 1;
    const TIMEOUT: Duration = Duration::from_secs(10 * 60);
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(5),
        max: Duration::from_secs(30),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let gateway = gateway(&ctx)?;
        let now = gateway
            .now()
            .await
            .map_err(|err| JobError::retry(NOT_DISPATCHED, err))?;
        let done = billing::dispatch(ctx.db(), &JobOutbox, now, BATCH)
            .await
            .map_err(|err| JobError::retry(NOT_DISPATCHED, err))?;
        // Money owed back that its own run could not return: swept here, a few a minute.
        let given_back = billing::give_back_owed(ctx.db(), &gateway, now, REFUNDS_PER_TICK)
            .await
            .map_err(|err| JobError::retry(NOT_DISPATCHED, err))?;
        Ok(json!({
            "now": now,
            "renewed": done.renewed.created,
            "canceled": done.renewed.canceled,
            "downgraded": done.renewed.downgraded,
            "queued": done.queued,
            "given_back": given_back,
        }))
    }
}
