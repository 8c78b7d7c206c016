//! The shop's jobs: releasing a checkout's hold at its expiry, and paying an order's card
//! or PIX part (`charge`: the calls to the gateway and what records their answers, shared
//! by the API and the jobs; `pix.expire`, `payment.sync`, `sandbox.deliver`).

pub mod charge;
pub mod payment_sync;
pub mod pix_expire;
pub mod reservation_release;
pub mod sandbox_delivery;

use sqlx::PgConnection;

/// The single hook of an order turning paid, called on the transaction that made it paid,
/// wherever that happens: the wallet covering the whole order, a card approved at once, the
/// webhook's or the member's check confirming a PIX or a processing card, a late PIX that
/// completed some lines. For now it enqueues nothing; when the fulfilment branch is merged
/// it enqueues `order.confirm {order_id}` here (vouchers, cashback, receipt e-mail, PDFs),
/// on this same transaction, so a paid order always has its confirmation job.
pub async fn after_paid(_tx: &mut PgConnection, _order_id: i64) -> sqlx::Result<()> {
    Ok(())
}

/// The configured payment provider, for a job. Built per run from the process'
/// configuration: the sandbox is a handle on the pool, Pagar.me an HTTP client.
pub(crate) fn gateway(
    ctx: &crate::job::JobContext,
) -> Result<domain::infra::payments::Gateway, crate::job::JobError> {
    domain::infra::payments::Gateway::from_config(&ctx.services.config, ctx.db().clone()).map_err(
        |err| crate::job::JobError::permanent("O meio de pagamento não está configurado.", err),
    )
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
