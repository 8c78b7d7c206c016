//! Vouchers: made for a member's paid order, validated at the partner's counter.

use sqlx::PgPool;

use domain::commerce::vouchers::{self, Found, NotCreated, NotValidated, VoucherView};
use domain::shared::ids::{OrderId, StationId, UserId};

use crate::outbox::Outbox;

/// The vouchers of the member's paid order, made now if the confirmation has not made them
/// yet, each with its PDF asked for; answers every voucher of the order.
pub async fn create_for_member_order(
    db: &PgPool,
    outbox: &impl Outbox,
    station_id: StationId,
    user_id: UserId,
    order_id: OrderId,
) -> Result<Vec<VoucherView>, NotCreated> {
    let mut tx = db.begin().await?;
    let ids = vouchers::create_for_member_order(&mut tx, station_id, user_id, order_id).await?;
    for voucher_id in ids {
        outbox
            .make_voucher(&mut tx, station_id.0, user_id.0, voucher_id)
            .await?;
    }
    let views = vouchers::of_order(&mut tx, order_id.0).await?;
    tx.commit().await?;
    Ok(views)
}

/// Uses a voucher now, as the partner's staff member `staff_user_id`.
pub async fn validate(
    db: &PgPool,
    station_id: StationId,
    staff_user_id: UserId,
    code: &str,
) -> Result<Found, NotValidated> {
    let mut tx = db.begin().await?;
    let found = vouchers::validate(&mut tx, station_id, staff_user_id, code).await?;
    tx.commit().await?;
    Ok(found)
}
