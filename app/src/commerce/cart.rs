//! The cart's changes, each on its own transaction.

use sqlx::PgPool;

use domain::commerce::CommerceResult;
use domain::commerce::cart::{self, Wanted};
use domain::shared::ids::{StationId, UserId};

/// Adds the items to the member's cart (`POST /add-products-to-shopping-cart`).
pub async fn add(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    items: &[Wanted],
) -> CommerceResult<()> {
    let mut tx = db.begin().await?;
    cart::add(&mut tx, station_id.0, user_id.0, items).await?;
    tx.commit().await?;
    Ok(())
}

/// Sets the quantities of the member's cart lines, 0 removing a line.
pub async fn update(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    items: &[Wanted],
) -> CommerceResult<()> {
    let mut tx = db.begin().await?;
    cart::update(&mut tx, station_id.0, user_id.0, items).await?;
    tx.commit().await?;
    Ok(())
}
