//! `payment.sync`: what the provider says of a charge, applied. Enqueued by the webhook
//! endpoint for each new event (`charge_id`), and at placing time as the recovery look at a
//! part whose charge might never have been recorded (`payment_id`). Re-reads the charge
//! from the provider (a webhook's body is never trusted) and applies it through the one
//! idempotent confirmation (`app::commerce::charge::sync_charge`): paid confirms (or takes
//! the late path), failed declines, canceled expires, a refund or chargeback the provider
//! made is recorded on the part for the refunds job.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use app::commerce::charge;
use domain::commerce::payment::ChargePart;

use super::{charge_failure, gateway};
use crate::JobOutbox;
use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentSync {
    #[serde(default)]
    pub charge_id: Option<String>,
    #[serde(default)]
    pub payment_id: Option<i64>,
}

impl PaymentSync {
    /// Enqueues the sync of a charge a webhook named, on the transaction that recorded the
    /// event (so a recorded event always has its job).
    pub async fn for_charge(tx: &mut PgConnection, charge_id: &str) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self {
            charge_id: Some(charge_id.to_string()),
            payment_id: None,
        })
        .about("charge", charge_id)
        .priority(10)
        .push(tx)
        .await
    }

    /// Schedules the recovery look at a part at `at`, on the transaction that placed its
    /// order; one per part.
    pub async fn recover(
        tx: &mut PgConnection,
        part: &ChargePart,
        at: DateTime<Utc>,
    ) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self {
            charge_id: None,
            payment_id: Some(part.payment_id),
        })
        .owner(part.station_id, Some(part.user_id))
        .about("order", part.order_id)
        .idempotency_key(format!("recover:{}", part.payment_id))
        .run_at(at)
        .push(tx)
        .await
    }
}

const NOT_SYNCED: &str = "O pagamento não pôde ser verificado; nova tentativa em breve.";

impl Job for PaymentSync {
    const QUEUE: &'static str = "payment.sync";
    const MAX_ATTEMPTS: i32 = 15;
    const CONCURRENCY: usize = 8;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(5),
        max: Duration::from_secs(900),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let gateway = gateway(&ctx)?;
        let public_url = &ctx.services.config.public_url;
        let failed = |err| charge_failure(NOT_SYNCED, err);
        if let Some(charge_id) = &self.charge_id {
            let applied =
                charge::sync_charge(ctx.db(), &gateway, &JobOutbox, public_url, charge_id)
                    .await
                    .map_err(failed)?;
            return Ok(json!({ "charge_id": charge_id, "applied": format!("{applied:?}") }));
        }
        if let Some(payment_id) = self.payment_id {
            let applied =
                charge::recover_part(ctx.db(), &gateway, &JobOutbox, public_url, payment_id)
                    .await
                    .map_err(failed)?;
            return Ok(json!({ "payment_id": payment_id, "applied": format!("{applied:?}") }));
        }
        Err(JobError::permanent(
            NOT_SYNCED,
            anyhow::anyhow!("payment.sync without charge_id or payment_id"),
        ))
    }
}
