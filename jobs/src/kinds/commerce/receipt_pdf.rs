//! `receipt.pdf` `{order_id}`: renders an order's receipt as it stands (off the async
//! threads), stores it under an unguessable key and records the key on the order; a refund
//! forgets the key, so the receipt is made again with what was refunded. The screens follow this
//! job (`GET /api/jobs/{id}`) and then download through the owner-checked route. A run
//! that finds the receipt stored answers it; two racing runs keep the first one recorded.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use domain::commerce::fulfilment;

use super::pdf::{self, NOT_MADE};
use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReceiptPdf {
    pub order_id: i64,
}

impl ReceiptPdf {
    /// One job per order and refunded amount (a refund makes a new receipt); one that
    /// failed for good or was cancelled is put back in its queue, so asking again (the
    /// download route) makes the receipt after all.
    pub async fn enqueue(
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        order_id: i64,
    ) -> sqlx::Result<Enqueued> {
        let key = match fulfilment::refunded_cents(tx, order_id).await? {
            0 => format!("order:{order_id}"),
            cents => format!("order:{order_id}:refunded:{cents}"),
        };
        let enqueued = Enqueue::new(Self { order_id })
            .owner(station_id, Some(user_id))
            .about("order", order_id)
            .idempotency_key(key)
            .push(&mut *tx)
            .await?;
        pdf::rearm_if_failed(tx, enqueued).await
    }
}

impl Job for ReceiptPdf {
    const QUEUE: &'static str = "receipt.pdf";
    const MAX_ATTEMPTS: i32 = 8;
    const CONCURRENCY: usize = 2;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(10),
        max: Duration::from_secs(1800),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let retry = |err: sqlx::Error| JobError::retry(NOT_MADE, err);
        let mut conn = ctx.db().acquire().await.map_err(retry)?;
        let document = fulfilment::receipt_document(&mut conn, self.order_id)
            .await
            .map_err(|err| JobError::retry(NOT_MADE, err))?
            .ok_or_else(|| {
                JobError::permanent(NOT_MADE, anyhow::anyhow!("order {} is gone", self.order_id))
            })?;
        if document.stored.is_some() {
            return Ok(json!({ "order_id": self.order_id, "ready": true }));
        }
        let order_id = self.order_id;
        let refunded = document.data.refunded_cents.unwrap_or(0);
        // A receipt a refund has made out of date meanwhile is not kept (an empty key:
        // `make` deletes the file); the next download asks for the new one.
        pdf::make(
            &ctx,
            "receipts",
            document.logo_key.as_deref(),
            document.data,
            async |key: &str| {
                let kept = fulfilment::record_receipt(&mut conn, order_id, key, refunded).await?;
                Ok(kept.unwrap_or_default())
            },
        )
        .await?;
        Ok(json!({ "order_id": self.order_id, "ready": true }))
    }
}
