//! Sending e-mail, for every area: a change renders its messages (`domain`), and this queues
//! each one for delivery on the change's transaction.

use sqlx::PgConnection;

use domain::accounts::change::Mail;

use crate::outbox::Outbox;

/// Queues each e-mail for delivery; answers their jobs' ids, in order.
pub async fn send(
    outbox: &impl Outbox,
    tx: &mut PgConnection,
    mails: impl IntoIterator<Item = Mail>,
) -> sqlx::Result<Vec<String>> {
    let mut job_ids = Vec::new();
    for mail in mails {
        job_ids.push(outbox.send_mail(&mut *tx, mail, None).await?.job_id);
    }
    Ok(job_ids)
}

/// Queues an e-mail that goes at most once per `key`, however often its change is applied
/// (a receipt, a late payment's notice).
pub async fn send_once(
    outbox: &impl Outbox,
    tx: &mut PgConnection,
    mail: Mail,
    key: String,
) -> sqlx::Result<String> {
    Ok(outbox.send_mail(tx, mail, Some(key)).await?.job_id)
}
