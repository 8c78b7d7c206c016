//! `cards.expiry_reminder` (cron, monthly): e-mails every member whose saved card expires
//! this month or next, once per card and expiry, at the provider's clock
//! (`app::commerce::cards::remind_expiring_cards`). A card that pays a subscription is
//! reminded once between this job and `subscriptions.card_reminder`.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use app::commerce::cards;
use domain::commerce::gateway::PaymentGateway;

use crate::JobOutbox;
use crate::job::{Backoff, Job, JobContext, JobError};
use crate::kinds::commerce::gateway;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardsExpiryReminder {
    pub tick: DateTime<Utc>,
}

const NOT_REMINDED: &str = "Falha ao avisar os cartões salvos a vencer.";

impl Job for CardsExpiryReminder {
    const QUEUE: &'static str = "cards.expiry_reminder";
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
        let reminded =
            cards::remind_expiring_cards(ctx.db(), &JobOutbox, gateway.provider(), now, 500)
                .await
                .map_err(|err| JobError::retry(NOT_REMINDED, err))?;
        Ok(json!({ "reminded": reminded }))
    }
}
