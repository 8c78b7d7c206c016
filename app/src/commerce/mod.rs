//! The shop's use cases: saving a card at the provider (`cards`), the cart (`cart`), the hold a checkout keeps and its coupon
//! (`checkout`), placing an order and charging its card or PIX part, applying what the
//! provider says of a charge and receiving its webhook (`charge`), confirming a paid order
//! (`fulfilment`), its vouchers (`vouchers`), its handover and PDFs (`orders`), and refunds,
//! staff's and the bank's (`refunds`).

pub mod address;
pub mod cards;
pub mod cart;
pub mod charge;
pub mod checkout;
pub mod fulfilment;
pub mod orders;
pub mod refunds;
pub mod vouchers;

use sqlx::PgConnection;

use crate::outbox::Outbox;

/// The single hook of an order turning paid, called on the transaction that made it paid,
/// wherever that happens: the wallet covering the whole order, a card approved at once, the
/// webhook's or the member's check confirming a PIX or a processing card, a late PIX that
/// completed some lines. It queues the order's confirmation (vouchers, cashback, receipt
/// e-mail, PDFs) on this same transaction, so a paid order always has its confirmation
/// job; the job's key makes a second call for the same order a no-op.
pub async fn after_paid(
    outbox: &impl Outbox,
    tx: &mut PgConnection,
    order_id: i64,
) -> sqlx::Result<()> {
    let (station_id, user_id) = domain::commerce::fulfilment::order_owner(tx, order_id).await?;
    outbox
        .confirm_order(tx, station_id, user_id, order_id)
        .await?;
    Ok(())
}
