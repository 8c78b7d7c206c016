//! An order after payment: a line handed over at the partner's counter, its PDFs asked for.

use sqlx::PgPool;

use domain::commerce::order_check::{self, NotHandedOver, OrderCheck};
use domain::shared::ids::{OrderId, StationId, UserId};

use crate::outbox::Outbox;

/// Records that the partner's staff member `staff_user_id` handed a line's units over.
pub async fn hand_over(
    db: &PgPool,
    station_id: StationId,
    staff_user_id: UserId,
    code: &str,
    line_id: i64,
) -> Result<OrderCheck, NotHandedOver> {
    let mut tx = db.begin().await?;
    let order = order_check::hand_over(&mut tx, station_id, staff_user_id, code, line_id).await?;
    tx.commit().await?;
    Ok(order)
}

/// Asks for the order's receipt PDF (again, when one failed); answers its job's id.
pub async fn make_receipt(
    db: &PgPool,
    outbox: &impl Outbox,
    station_id: StationId,
    user_id: UserId,
    order_id: OrderId,
) -> sqlx::Result<String> {
    let mut tx = db.begin().await?;
    let job = outbox
        .make_receipt(&mut tx, station_id.0, user_id.0, order_id.0)
        .await?;
    tx.commit().await?;
    Ok(job.job_id)
}

/// Asks for a voucher's PDF (again, when one failed); answers its job's id.
pub async fn make_voucher(
    db: &PgPool,
    outbox: &impl Outbox,
    station_id: StationId,
    user_id: UserId,
    voucher_id: i64,
) -> sqlx::Result<String> {
    let mut tx = db.begin().await?;
    let job = outbox
        .make_voucher(&mut tx, station_id.0, user_id.0, voucher_id)
        .await?;
    tx.commit().await?;
    Ok(job.job_id)
}
