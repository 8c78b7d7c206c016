//! The hold a checkout keeps: made from the cart with its release scheduled at its expiry,
//! and the coupon put on it or taken off.

use sqlx::PgPool;

use domain::commerce::CommerceResult;
use domain::commerce::cart::Wanted;
use domain::commerce::checkout::{self, CouponApplied, Hold};
use domain::commerce::totals::Totals;
use domain::shared::ids::{StationId, UserId};

use crate::outbox::Outbox;

/// Holds the wanted quantities (none: the cart's lines) for `hold_seconds`, and schedules
/// the hold's release at its expiry on the transaction that made it.
pub async fn hold_cart(
    db: &PgPool,
    outbox: &impl Outbox,
    station_id: StationId,
    user_id: UserId,
    wanted: Vec<Wanted>,
    hold_seconds: i64,
) -> CommerceResult<Hold> {
    let (mut tx, held) =
        checkout::confirm_cart_held_for(db, station_id.0, user_id.0, wanted, hold_seconds).await?;
    outbox
        .release_hold(
            &mut tx,
            station_id.0,
            user_id.0,
            held.checkout_id,
            held.expires_at,
        )
        .await?;
    tx.commit().await?;
    Ok(held)
}

/// Puts a coupon on the member's live hold.
pub async fn apply_coupon(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    code: &str,
) -> CommerceResult<CouponApplied> {
    let mut tx = db.begin().await?;
    let applied = checkout::apply_coupon(&mut tx, station_id.0, user_id.0, code).await?;
    tx.commit().await?;
    Ok(applied)
}

/// Takes the coupon off the member's live hold; answers the hold's totals without it.
pub async fn remove_coupon(db: &PgPool, user_id: UserId) -> CommerceResult<Totals> {
    let mut tx = db.begin().await?;
    let totals = checkout::remove_coupon(&mut tx, user_id.0).await?;
    tx.commit().await?;
    Ok(totals)
}
