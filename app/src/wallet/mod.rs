//! The wallet's use cases: credits a change earns, queued on its transaction, and the
//! credits a member claims for participations not credited yet.

use sqlx::{PgConnection, PgPool};

use domain::wallet::ledger::Credit;
use domain::wallet::rewards::{self, ClaimRefused};

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

/// Queues the credits of the member's completed participations not credited yet, once the
/// CPF given (either of two fields) and the establishment are the member's; answers how
/// many this call queued.
pub async fn claim_participation_credits(
    db: &PgPool,
    outbox: &impl Outbox,
    user_id: i64,
    station_id: i64,
    cpf_given: [Option<&str>; 2],
    establishment_id: Option<i64>,
) -> Result<usize, ClaimRefused> {
    let mut tx = db.begin().await?;
    let credits = rewards::claim_participation_credits(
        &mut tx,
        user_id,
        station_id,
        cpf_given,
        establishment_id,
    )
    .await?;
    let queued = credit_all(outbox, &mut tx, credits).await?;
    tx.commit().await?;
    Ok(queued)
}
pub mod topups;
