//! `order.confirm` `{order_id}`: after an order is paid, runs its confirmation
//! (`app::commerce::fulfilment::confirm_order`): creates its vouchers once, credits the
//! cashback of each line through `points.credit` (keyed by the line), e-mails the receipt
//! and enqueues `receipt.pdf` and one `voucher.pdf` per voucher, all on one transaction.
//! Idempotent: one job per order (keyed by it), and a re-run finds the vouchers made, and
//! every job it would enqueue already keyed, so nothing doubles.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use app::commerce::fulfilment;
use domain::commerce::CommerceError;

use crate::JobOutbox;
use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderConfirm {
    pub order_id: i64,
}

impl OrderConfirm {
    /// Enqueues the confirmation of a paid order on the caller's transaction (the one that
    /// made it paid). One job per order, however often called.
    pub async fn enqueue(
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        order_id: i64,
    ) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self { order_id })
            .owner(station_id, Some(user_id))
            .about("order", order_id)
            .idempotency_key(format!("order:{order_id}"))
            .push(tx)
            .await
    }
}

const NOT_CONFIRMED: &str =
    "A confirmação do pedido não pôde ser concluída; nova tentativa em breve.";

impl Job for OrderConfirm {
    const QUEUE: &'static str = "order.confirm";
    const MAX_ATTEMPTS: i32 = 12;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(5),
        max: Duration::from_secs(900),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let confirmed = fulfilment::confirm_order(
            ctx.db(),
            &JobOutbox,
            &ctx.services.config.public_url,
            self.order_id,
        )
        .await
        .map_err(|err| match err {
            CommerceError::Db(err) => JobError::retry(NOT_CONFIRMED, err),
            other => JobError::permanent(NOT_CONFIRMED, other),
        })?;
        let Some(confirmed) = confirmed else {
            return Ok(json!({ "order_id": self.order_id, "paid": false }));
        };
        Ok(json!({
            "order_id": self.order_id,
            "paid": true,
            "vouchers": confirmed.voucher_ids,
            "credits": confirmed.credits,
            "receipt_job": confirmed.receipt_job,
            "voucher_jobs": confirmed.voucher_jobs,
        }))
    }
}
