//! `voucher.pdf` `{voucher_id}`: renders a voucher (off the async threads) with the QR code
//! of its validator link, stores it under an unguessable key and records the key on the
//! voucher. Like `receipt.pdf`, a run that finds the PDF stored answers it.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use domain::commerce::vouchers;

use super::pdf::{self, NOT_MADE};
use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoucherPdf {
    pub voucher_id: i64,
}

impl VoucherPdf {
    /// One job per voucher; a failed or cancelled one is put back in its queue.
    pub async fn enqueue(
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        voucher_id: i64,
    ) -> sqlx::Result<Enqueued> {
        let enqueued = Enqueue::new(Self { voucher_id })
            .owner(station_id, Some(user_id))
            .about("voucher", voucher_id)
            .idempotency_key(format!("voucher:{voucher_id}"))
            .push(&mut *tx)
            .await?;
        pdf::rearm_if_failed(tx, enqueued).await
    }
}

impl Job for VoucherPdf {
    const QUEUE: &'static str = "voucher.pdf";
    const MAX_ATTEMPTS: i32 = 8;
    const CONCURRENCY: usize = 2;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(10),
        max: Duration::from_secs(1800),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let retry = |err: sqlx::Error| JobError::retry(NOT_MADE, err);
        let mut conn = ctx.db().acquire().await.map_err(retry)?;
        let document = vouchers::voucher_document(&mut conn, self.voucher_id)
            .await
            .map_err(retry)?
            .ok_or_else(|| {
                JobError::permanent(
                    NOT_MADE,
                    anyhow::anyhow!("voucher {} is gone", self.voucher_id),
                )
            })?;
        if document.stored.is_some() {
            return Ok(json!({ "voucher_id": self.voucher_id, "ready": true }));
        }
        let voucher_id = self.voucher_id;
        pdf::make(
            &ctx,
            "vouchers",
            document.logo_key.as_deref(),
            document.data,
            async |key: &str| vouchers::record_pdf(&mut conn, voucher_id, key).await,
        )
        .await?;
        Ok(json!({ "voucher_id": self.voucher_id, "ready": true }))
    }
}
