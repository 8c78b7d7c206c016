//! The shop's jobs: releasing a checkout's hold at its expiry; paying an order's card or
//! PIX part (`charge`: the calls to the gateway and what records their answers, shared by
//! the API and the jobs; `pix.expire`, `payment.sync`, `sandbox.deliver`); after payment,
//! confirming the order (vouchers, cashback, receipt e-mail) and making its PDFs; refunds.

pub mod charge;
pub mod order_confirm;
pub mod payment_sync;
mod pdf;
pub mod pix_expire;
pub mod receipt_pdf;
pub mod refund;
pub mod reservation_release;
pub mod sandbox_delivery;
pub mod voucher_pdf;

use sqlx::PgConnection;

use order_confirm::OrderConfirm;

/// The single hook of an order turning paid, called on the transaction that made it paid,
/// wherever that happens: the wallet covering the whole order, a card approved at once, the
/// webhook's or the member's check confirming a PIX or a processing card, a late PIX that
/// completed some lines. It enqueues `order.confirm {order_id}` (vouchers, cashback,
/// receipt e-mail, PDFs) on this same transaction, so a paid order always has its
/// confirmation job; the job's key makes a second call for the same order a no-op.
pub async fn after_paid(tx: &mut PgConnection, order_id: i64) -> sqlx::Result<()> {
    let (station_id, user_id) = domain::commerce::fulfilment::order_owner(tx, order_id).await?;
    OrderConfirm::enqueue(tx, station_id, user_id, order_id).await?;
    Ok(())
}

/// The configured payment provider, for a job. Built per run from the process'
/// configuration: the sandbox is a handle on the pool, Pagar.me an HTTP client.
pub(crate) fn gateway(
    ctx: &crate::job::JobContext,
) -> Result<payments::Gateway, crate::job::JobError> {
    payments::Gateway::from_config(&ctx.services.config, ctx.db().clone()).map_err(|err| {
        crate::job::JobError::permanent("O meio de pagamento não está configurado.", err)
    })
}

/// A payment job's failure: the provider or the database may come back, so it is retried;
/// a broken rule is not.
pub(crate) fn charge_failure(
    summary: &'static str,
    err: charge::ChargeError,
) -> crate::job::JobError {
    match err {
        charge::ChargeError::Commerce(domain::commerce::CommerceError::Refused(_)) => {
            crate::job::JobError::permanent(summary, err)
        }
        other => crate::job::JobError::retry(summary, other),
    }
}
