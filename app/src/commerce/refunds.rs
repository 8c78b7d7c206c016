//! Refunds' use cases.

use sqlx::PgConnection;

use domain::commerce::refunds::{self, Applied, RefundError};

use crate::outbox::Outbox;

/// A refund the bank started (MED) on a card or PIX payment part, applied on the caller's
/// transaction (the payment webhook's): see `commerce::refunds::apply_bank_refund`; the
/// credits it owes are queued on the same transaction. Pass the charge's refunded total
/// as the provider reports it: calling again with the same total changes nothing.
pub async fn apply_bank_refund(
    outbox: &impl Outbox,
    tx: &mut PgConnection,
    payment_id: i64,
    charge_refunded_cents: i64,
) -> Result<Option<Applied>, RefundError> {
    let applied = refunds::apply_bank_refund(tx, payment_id, charge_refunded_cents).await?;
    if let Some(applied) = &applied {
        crate::wallet::credit_all(outbox, tx, applied.credits.clone()).await?;
    }
    Ok(applied)
}
