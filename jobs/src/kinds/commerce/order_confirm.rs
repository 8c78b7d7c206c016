//! `order.confirm` `{order_id}`: after an order is paid, creates its vouchers once, credits
//! the cashback of each line through `points.credit` (keyed by the line), e-mails the
//! receipt and enqueues `receipt.pdf` and one `voucher.pdf` per voucher, all on one
//! transaction. Idempotent: one job per order (keyed by it), and a re-run finds the
//! vouchers made, and every job it would enqueue already keyed, so nothing doubles.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use domain::commerce::CommerceError;
use domain::commerce::fulfilment;

use super::receipt_pdf::ReceiptPdf;
use super::voucher_pdf::VoucherPdf;
use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};
use crate::kinds::{MailSend, PointsCredit};

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
        let retry = |err: sqlx::Error| JobError::retry(NOT_CONFIRMED, err);
        let mut tx = ctx.db().begin().await.map_err(retry)?;
        let confirmed =
            fulfilment::confirm(&mut tx, self.order_id, &ctx.services.config.public_url)
                .await
                .map_err(|err| match err {
                    CommerceError::Db(err) => retry(err),
                    other => JobError::permanent(NOT_CONFIRMED, other),
                })?;
        let Some(confirmed) = confirmed else {
            tx.commit().await.map_err(retry)?;
            return Ok(json!({ "order_id": self.order_id, "paid": false }));
        };
        let credits = confirmed.credits.len();
        PointsCredit::enqueue_all(&mut tx, confirmed.credits)
            .await
            .map_err(retry)?;
        if let Some(mail) = confirmed.mail {
            Enqueue::new(MailSend::new(mail))
                .owner(confirmed.station_id, Some(confirmed.user_id))
                .about("order", self.order_id)
                .idempotency_key(format!("order:{}:receipt", self.order_id))
                .push(&mut tx)
                .await
                .map_err(retry)?;
        }
        let receipt = ReceiptPdf::enqueue(
            &mut tx,
            confirmed.station_id,
            confirmed.user_id,
            self.order_id,
        )
        .await
        .map_err(retry)?;
        let mut voucher_jobs = Vec::new();
        for voucher_id in &confirmed.voucher_ids {
            let job = VoucherPdf::enqueue(
                &mut tx,
                confirmed.station_id,
                confirmed.user_id,
                *voucher_id,
            )
            .await
            .map_err(retry)?;
            voucher_jobs.push(job.id);
        }
        tx.commit().await.map_err(retry)?;
        Ok(json!({
            "order_id": self.order_id,
            "paid": true,
            "vouchers": confirmed.voucher_ids,
            "credits": credits,
            "receipt_job": receipt.id,
            "voucher_jobs": voucher_jobs,
        }))
    }
}
