//! `order.refund` `{refund_id}`: makes one refund that support staff asked for in the
//! console (`app::commerce::refunds::make`). The card or PIX part goes back through the
//! gateway first (idempotency key `refund:{id}`, so a re-run never refunds twice at the
//! provider), then the refund is applied once on one transaction (per refunded line its
//! cashback reversed, stock and unused vouchers given back; the coupon use released when
//! nothing is left; the wallet part and the kept units' cashback credited through
//! `points.credit`). A refund the provider refuses ends `failed` and its units may be
//! refunded again.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use app::commerce::refunds::{self, NotRefunded};
use domain::commerce::refunds::Requested;
use payments::Gateway;

use crate::JobOutbox;
use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderRefund {
    pub refund_id: i64,
}

impl OrderRefund {
    /// Enqueues the making of a refund just requested, on the transaction that recorded it.
    pub async fn enqueue(tx: &mut PgConnection, requested: &Requested) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self {
            refund_id: requested.refund_id,
        })
        .owner(requested.station_id, Some(requested.user_id))
        .about("order", requested.order_id)
        .idempotency_key(format!("refund:{}", requested.refund_id))
        .push(tx)
        .await
    }
}

const NOT_REFUNDED: &str = "O estorno não pôde ser concluído; nova tentativa em breve.";
const REFUSED: &str = "O meio de pagamento recusou o estorno.";
const NO_PROVIDER: &str = "O meio de pagamento não está configurado.";

impl Job for OrderRefund {
    const QUEUE: &'static str = "order.refund";
    const MAX_ATTEMPTS: i32 = 10;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(10),
        max: Duration::from_secs(1800),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let gateway = || Gateway::from_config(&ctx.services.config, ctx.db().clone());
        let applied = refunds::make(ctx.db(), gateway, &JobOutbox, self.refund_id)
            .await
            .map_err(|err| match err {
                NotRefunded::NoProvider(cause) => JobError::permanent(NO_PROVIDER, cause),
                NotRefunded::Refused(cause) => JobError::permanent(REFUSED, anyhow::anyhow!(cause)),
                NotRefunded::Unavailable(_) | NotRefunded::Db(_) => {
                    JobError::retry(NOT_REFUNDED, err)
                }
                NotRefunded::Broken(..) | NotRefunded::Rule(_) => {
                    JobError::permanent(NOT_REFUNDED, err)
                }
            })?;
        let Some(applied) = applied else {
            return Ok(json!({ "refund_id": self.refund_id, "applied": false }));
        };
        Ok(json!({
            "refund_id": self.refund_id,
            "applied": true,
            "order_id": applied.order_id,
            "status": applied.status,
            "reversed_lots": applied.reversed_lots,
        }))
    }
}
