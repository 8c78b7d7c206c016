//! Password recovery: the e-mailed reset link, and the new password set through it.

use sqlx::PgPool;

use domain::accounts::change::AccountError;
use domain::accounts::recovery::{self, LinkRequest, NewPassword};

use crate::outbox::Outbox;

/// Issues a reset link for the form's e-mail and queues its e-mail, if the address has an
/// account that may have one now.
pub async fn send_link(
    db: &PgPool,
    outbox: &impl Outbox,
    public_url: &str,
    form: &LinkRequest,
) -> Result<(), AccountError> {
    let mut tx = db.begin().await?;
    let follow_up = recovery::send_link(&mut tx, public_url, form).await?;
    super::follow_up(outbox, &mut tx, follow_up).await?;
    tx.commit().await?;
    Ok(())
}

/// Sets a new password through a live link (hashed with no transaction open); a pending
/// account it confirms earns what a confirmation earns.
pub async fn reset_password(
    db: &PgPool,
    outbox: &impl Outbox,
    form: NewPassword,
) -> Result<(), AccountError> {
    let checked = recovery::check_reset(db, form).await?;
    let mut tx = db.begin().await?;
    let follow_up = recovery::reset(&mut tx, checked).await?;
    super::follow_up(outbox, &mut tx, follow_up).await?;
    tx.commit().await?;
    Ok(())
}
