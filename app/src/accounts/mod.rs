//! The accounts' use cases. The rules (`domain::accounts`) run on the caller's transaction
//! and hand back what the change needs ([`FollowUp`]); [`follow_up`] queues it there.

use sqlx::PgConnection;

use domain::accounts::change::FollowUp;

use crate::outbox::Outbox;

/// Queues what a change needs on the change's transaction: its e-mails and credits.
/// Answers the e-mails' job ids.
pub async fn follow_up(
    outbox: &impl Outbox,
    tx: &mut PgConnection,
    follow_up: FollowUp,
) -> sqlx::Result<Vec<String>> {
    let mail_jobs = crate::mail::send(outbox, &mut *tx, follow_up.mails).await?;
    crate::wallet::credit_all(outbox, tx, follow_up.credits).await?;
    Ok(mail_jobs)
}
