//! `subscriptions.card_reminder` (cron, daily): e-mails the members whose saved card
//! expires before the renewal it pays, once per card and expiry
//! (`app::subscriptions::billing::remind_expiring_cards`).

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use app::subscriptions::billing;
use domain::commerce::gateway::PaymentGateway;

use crate::JobOutbox;
use crate::job::{Backoff, Job, JobContext, JobError};
use crate::kinds::commerce::gateway;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionsCardReminder {
    pub tick: DateTime<Utc>,
}

const NOT_REMINDED: &str = "Falha ao avisar os cartões a vencer.";

impl Job for SubscriptionsCardReminder {
    const QUEUE: &'static str = "subscriptions.card_reminder";
    const MAX_ATTEMPTS: i32 = 5;
    const CONCURRENCY: usize = 1;
    const TIMEOUT: Duration = Duration::from_secs(10 * 60);
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(60),
        max: Duration::from_secs(1800),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let gateway = gateway(&ctx)?;
        let now = gateway
            .now()
            .await
            .map_err(|err| JobError::retry(NOT_REMINDED, err))?;
        let reminded = billing::remind_expiring_cards(ctx.db(), &JobOutbox, now, 500)
            .await
            .map_err(|err| JobError::retry(NOT_REMINDED, err))?;
        Ok(json!({ "reminded": reminded }))
    }
}
