//! Confirming an account: its code e-mailed on request (spaced by the resend wait) and its
//! activation by code or by link.

use sqlx::PgPool;

use domain::Config;
use domain::accounts::change::AccountError;
use domain::accounts::confirmation::{self, ActivateRequest, MethodRequest, ResendRequest};

use crate::outbox::Outbox;

/// Sends a code to the station's account the form names, if it waits for activation.
pub async fn send_code_to_account(
    db: &PgPool,
    outbox: &impl Outbox,
    config: &Config,
    form: &MethodRequest,
) -> Result<(), AccountError> {
    let mut tx = db.begin().await?;
    let follow_up = confirmation::send_code_to_account(&mut tx, config, form).await?;
    super::follow_up(outbox, &mut tx, follow_up).await?;
    tx.commit().await?;
    Ok(())
}

/// Sends a new code to the pending account of the form's e-mail, if there is one.
pub async fn send_code_to_address(
    db: &PgPool,
    outbox: &impl Outbox,
    config: &Config,
    form: &ResendRequest,
) -> Result<(), AccountError> {
    let mut tx = db.begin().await?;
    let follow_up = confirmation::send_code_to_address(&mut tx, config, form).await?;
    super::follow_up(outbox, &mut tx, follow_up).await?;
    tx.commit().await?;
    Ok(())
}

/// Activates an account by its code or link; answers its id (also when it was already
/// active). What a confirmed account earns is queued with the activation.
pub async fn activate(
    db: &PgPool,
    outbox: &impl Outbox,
    form: &ActivateRequest,
) -> Result<i64, AccountError> {
    let mut tx = db.begin().await?;
    let checked = confirmation::activate(&mut tx, form).await?;
    super::follow_up(outbox, &mut tx, checked.follow_up).await?;
    // Wrong codes are counted even though the answer is a refusal.
    tx.commit().await?;
    checked.outcome
}
