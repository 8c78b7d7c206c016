//! Share links: a visit to a member's shared activity, and the credit it earns its sharer.

use sqlx::PgPool;

use domain::activities::sharing::{self, Visit};
use domain::wallet::rewards;

use crate::outbox::Outbox;

/// Records a visit; a new one queues the sharer's credit (when the activity pays one, within
/// the daily cap) on the same transaction. `false` when the visitor was counted before.
pub async fn record_visit(
    db: &PgPool,
    outbox: &impl Outbox,
    visit: &Visit<'_>,
) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let recorded = sharing::record_visit(&mut *tx, visit).await?;
    if recorded && let Some(credit) = rewards::on_share_visit(&mut tx, visit).await? {
        outbox.credit_points(&mut tx, credit).await?;
    }
    tx.commit().await?;
    Ok(recorded)
}
