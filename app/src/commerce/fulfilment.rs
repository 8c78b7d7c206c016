//! Confirming a paid order (the `order.confirm` job's use case).

use sqlx::PgPool;

use domain::accounts::change::Mail;
use domain::commerce::{CommerceError, fulfilment};

use crate::outbox::Outbox;

/// What one confirmation queued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderConfirmed {
    /// Every voucher of the order (new or made before).
    pub voucher_ids: Vec<i64>,
    /// The cashback credits asked for, one per line that earns any.
    pub credits: usize,
    pub receipt_job: String,
    pub voucher_jobs: Vec<String>,
}

/// Creates a paid order's vouchers once, credits each line's cashback, e-mails the receipt
/// and has the receipt's and every voucher's PDF made, all on one transaction. `None` when
/// the order is not paid. Idempotent: a second run finds the vouchers made and every effect
/// already keyed, so nothing doubles.
pub async fn confirm_order(
    db: &PgPool,
    outbox: &impl Outbox,
    public_url: &str,
    order_id: i64,
) -> Result<Option<OrderConfirmed>, CommerceError> {
    let mut tx = db.begin().await?;
    let Some(confirmed) = fulfilment::confirm(&mut tx, order_id, public_url).await? else {
        tx.commit().await?;
        return Ok(None);
    };
    let (station_id, user_id) = (confirmed.station_id, confirmed.user_id);
    let credits = confirmed.credits.len();
    crate::wallet::credit_all(outbox, &mut tx, confirmed.credits).await?;
    if let Some(mail) = confirmed.mail {
        let mail = Mail {
            mail,
            station_id,
            user_id: Some(user_id),
            about: ("order", order_id),
        };
        crate::mail::send_once(outbox, &mut tx, mail, format!("order:{order_id}:receipt")).await?;
    }
    let receipt = outbox
        .make_receipt(&mut tx, station_id, user_id, order_id)
        .await?;
    let mut voucher_jobs = Vec::new();
    for voucher_id in &confirmed.voucher_ids {
        let job = outbox
            .make_voucher(&mut tx, station_id, user_id, *voucher_id)
            .await?;
        voucher_jobs.push(job.job_id);
    }
    tx.commit().await?;
    Ok(Some(OrderConfirmed {
        voucher_ids: confirmed.voucher_ids,
        credits,
        receipt_job: receipt.job_id,
        voucher_jobs,
    }))
}
