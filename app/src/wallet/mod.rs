//! The wallet's use cases: credits a change earns, queued on its transaction.

use sqlx::PgConnection;

use domain::wallet::ledger::Credit;

use crate::outbox::Outbox;

/// Queues each credit; answers how many this call queued (a credit queued before is one
/// job, so a repeated change queues none).
pub async fn credit_all(
    outbox: &impl Outbox,
    tx: &mut PgConnection,
    credits: Vec<Credit>,
) -> sqlx::Result<usize> {
    let mut queued = 0;
    for credit in credits {
        if outbox.credit_points(&mut *tx, credit).await?.new {
            queued += 1;
        }
    }
    Ok(queued)
}
