//! `pix.expire {payment_id}`: scheduled at a PIX charge's expiry when the charge is
//! recorded. Asks the provider first (a payment that just landed is confirmed), else
//! cancels the charge and expires the part, the order and the hold with conditional
//! updates (`app::commerce::charge::expire_pix`). Idempotent: a part no longer pending is left alone.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use domain::commerce::payment::ChargePart;

use app::commerce::charge;

use super::{charge_failure, gateway};
use crate::JobOutbox;
use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PixExpire {
    pub payment_id: i64,
}

impl PixExpire {
    /// One job per part and expiry, on the transaction that recorded the charge.
    pub async fn schedule(
        tx: &mut PgConnection,
        part: &ChargePart,
        expires_at: DateTime<Utc>,
    ) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self {
            payment_id: part.payment_id,
        })
        .owner(part.station_id, Some(part.user_id))
        .about("order", part.order_id)
        .idempotency_key(format!(
            "payment:{}:{}",
            part.payment_id,
            expires_at.timestamp()
        ))
        .run_at(expires_at)
        .push(tx)
        .await
    }
}

const NOT_EXPIRED: &str = "O PIX não pôde ser encerrado; nova tentativa em breve.";

impl Job for PixExpire {
    const QUEUE: &'static str = "pix.expire";
    const MAX_ATTEMPTS: i32 = 12;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(5),
        max: Duration::from_secs(600),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let gateway = gateway(&ctx)?;
        let applied = charge::expire_pix(
            ctx.db(),
            &gateway,
            &JobOutbox,
            &ctx.services.config.public_url,
            self.payment_id,
        )
        .await
        .map_err(|err| charge_failure(NOT_EXPIRED, err))?;
        Ok(json!({ "payment_id": self.payment_id, "applied": format!("{applied:?}") }))
    }
}
