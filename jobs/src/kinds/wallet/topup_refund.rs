//! `topup.refund {topup_id}`: refunds whole, at the provider, the charge of a top-up staff
//! rejected (under review) or refunded (`app::wallet::topups::send_owed_refund`), a minute
//! after the decision, which tries it at once too: this job is what asks again while the
//! provider does not take it. Queued on the decision's transaction, keyed
//! `refund:topup:{id}`; the provider's refund is keyed the same, so a re-run never refunds
//! twice. A refund already taken (`refund_sent_at`) is left alone.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use app::wallet::topups;
use domain::commerce::gateway::GatewayError;
use domain::wallet::topups::{TopUp, TopUpError};

use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};
use crate::kinds::commerce::gateway;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopUpRefund {
    pub topup_id: i64,
}

/// The decision's own try comes first; the job follows it by this much.
const AFTER_DECISION: chrono::Duration = chrono::Duration::minutes(1);

impl TopUpRefund {
    /// Enqueued on the transaction that rejected or refunded the top-up: once per top-up.
    pub async fn enqueue(tx: &mut PgConnection, topup: &TopUp) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self { topup_id: topup.id })
            .owner(topup.station_id, Some(topup.user_id))
            .about("topup", topup.id)
            .run_at(chrono::Utc::now() + AFTER_DECISION)
            .idempotency_key(format!("refund:{}", topup.charge_key()))
            .push(tx)
            .await
    }
}

const NOT_REFUNDED: &str =
    "O estorno da recarga não foi aceito pelo meio de pagamento; nova tentativa em breve.";
const REFUSED: &str = "O meio de pagamento recusou o estorno da recarga.";

impl Job for TopUpRefund {
    const QUEUE: &'static str = "topup.refund";
    const MAX_ATTEMPTS: i32 = 12;
    const CONCURRENCY: usize = 1;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(60),
        max: Duration::from_secs(6 * 3600),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let gateway = gateway(&ctx)?;
        let sent = topups::send_owed_refund(ctx.db(), &gateway, self.topup_id)
            .await
            .map_err(|err| match err {
                TopUpError::NotFound | TopUpError::Gateway(GatewayError::Rejected(_)) => {
                    JobError::permanent(REFUSED, err)
                }
                other => JobError::retry(NOT_REFUNDED, other),
            })?;
        Ok(json!({ "topup_id": self.topup_id, "refunded": sent }))
    }
}
