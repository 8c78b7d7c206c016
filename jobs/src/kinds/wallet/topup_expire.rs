//! `topup.expire {topup_id}`: scheduled at a top-up's expiry when it is opened (a transfer
//! request, a card top-up), when its PIX charge is recorded, or again while its card charge
//! is still processing. Asks the provider first (a PIX paid just now is credited), else
//! cancels the PIX and expires the top-up; a card charge whose answer was lost is asked for
//! again under the top-up's key; an expired transfer request's member is e-mailed once
//! (`app::wallet::topups::expire`). Idempotent: a top-up no longer pending, or whose expiry
//! moved later, is left alone.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use app::wallet::topups;
use domain::wallet::topups::{TopUp, TopUpError};

use crate::JobOutbox;
use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};
use crate::kinds::commerce::gateway;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopUpExpire {
    pub topup_id: i64,
}

impl TopUpExpire {
    /// One job per top-up and expiry, on the transaction that set the expiry.
    pub async fn schedule(
        tx: &mut PgConnection,
        topup: &TopUp,
        expires_at: DateTime<Utc>,
    ) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self { topup_id: topup.id })
            .owner(topup.station_id, Some(topup.user_id))
            .about("topup", topup.id)
            .idempotency_key(format!("topup:{}:{}", topup.id, expires_at.timestamp()))
            .run_at(expires_at)
            .push(tx)
            .await
    }
}

const NOT_EXPIRED: &str = "A recarga não pôde ser encerrada; nova tentativa em breve.";

impl Job for TopUpExpire {
    const QUEUE: &'static str = "topup.expire";
    const MAX_ATTEMPTS: i32 = 12;
    const CONCURRENCY: usize = 2;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(5),
        max: Duration::from_secs(600),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let gateway = gateway(&ctx)?;
        let applied = topups::expire(
            ctx.db(),
            &gateway,
            &JobOutbox,
            &ctx.services.config.public_url,
            self.topup_id,
        )
        .await
        .map_err(|err| match err {
            TopUpError::NotFound => JobError::permanent(NOT_EXPIRED, err),
            other => JobError::retry(NOT_EXPIRED, other),
        })?;
        Ok(json!({ "topup_id": self.topup_id, "applied": format!("{applied:?}") }))
    }
}
