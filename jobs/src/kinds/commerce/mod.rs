//! The shop's jobs: releasing a checkout's hold at its expiry; the payment jobs that call
//! `app::commerce::charge` (`pix.expire`, `payment.sync`, `sandbox.deliver`); after payment,
//! confirming the order (`app::commerce::fulfilment`: vouchers, cashback, receipt e-mail)
//! and making its PDFs; refunds; saved cards: a removed card deleted at the provider, the
//! monthly reminder of cards about to expire.

pub mod card_delete;
pub mod card_reminder;
pub mod order_confirm;
pub mod payment_sync;
pub(crate) mod pdf;
pub mod pix_expire;
pub mod receipt_pdf;
pub mod refund;
pub mod reservation_release;
pub mod sandbox_delivery;
pub mod voucher_pdf;

use app::commerce::charge::ChargeError;

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
pub(crate) fn charge_failure(summary: &'static str, err: ChargeError) -> crate::job::JobError {
    match err {
        ChargeError::Commerce(domain::commerce::CommerceError::Refused(_)) => {
            crate::job::JobError::permanent(summary, err)
        }
        other => crate::job::JobError::retry(summary, other),
    }
}
