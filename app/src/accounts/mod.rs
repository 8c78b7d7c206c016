//! The accounts' use cases: sign-up in its variants, confirmation and activation, password
//! recovery, the profile, its pre-registration change request and the member card's PDF. Each opens its transaction, runs the rules (`domain::accounts`) on
//! it, queues what the change hands back ([`FollowUp`]: e-mails, credits) through the
//! outbox on that same transaction, and commits.

pub mod confirmation;
pub mod member_card;
pub mod pre_registration;
pub mod profile;
pub mod recovery;
pub mod signup;

use sqlx::PgConnection;

use domain::accounts::change::FollowUp;

use crate::outbox::Outbox;

/// Queues what a change needs on the change's transaction: its e-mails and credits.
/// Answers the e-mails' job ids.
async fn follow_up(
    outbox: &impl Outbox,
    tx: &mut PgConnection,
    follow_up: FollowUp,
) -> sqlx::Result<Vec<String>> {
    let mail_jobs = crate::mail::send(outbox, &mut *tx, follow_up.mails).await?;
    crate::wallet::credit_all(outbox, tx, follow_up.credits).await?;
    Ok(mail_jobs)
}
