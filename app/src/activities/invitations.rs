//! A member invites people to join (member-get-member), one e-mail per address.

use chrono::{DateTime, Utc};
use sqlx::PgPool;

use domain::activities::invitations::{self, Invitation, NotSent, Sent};

use crate::outbox::Outbox;

/// Records the invitation and queues its e-mails on the same transaction.
pub async fn send(
    db: &PgPool,
    outbox: &impl Outbox,
    public_url: &str,
    signing_key: &str,
    invitation: Invitation<'_>,
    now: DateTime<Utc>,
) -> Result<Sent, NotSent> {
    let mut tx = db.begin().await?;
    let mut sent = invitations::send(&mut tx, public_url, signing_key, invitation, now).await?;
    crate::mail::send(outbox, &mut tx, std::mem::take(&mut sent.mails)).await?;
    tx.commit().await?;
    Ok(sent)
}
