//! The activities' use cases: recording a participation (`participation`) and what every
//! participation earns, wherever it is recorded ([`after_participation`]); quiz and survey
//! answers (`research`), video watches (`videos`), invitations and share visits.

pub mod invitations;
pub mod participation;
pub mod research;
pub mod sharing;
pub mod videos;

use sqlx::PgConnection;

use domain::activities::lucky_numbers;
use domain::wallet::rewards;

use crate::outbox::{Outbox, Queued};

/// The single hook of a participation recorded (or found again by a call sent twice),
/// called on the transaction that recorded it, wherever that happens: it queues the
/// participation's credit, the member's trophies and its lucky numbers (when a campaign
/// counts it), all keyed by the participation, so a second call for it is a no-op. Answers
/// the credit's job (`None` when the activity pays no points, or the participation earns
/// nothing).
pub async fn after_participation(
    outbox: &impl Outbox,
    tx: &mut PgConnection,
    participation_id: i64,
) -> sqlx::Result<Option<Queued>> {
    let (user_id, station_id) =
        domain::activities::participation::owner(&mut *tx, participation_id).await?;
    outbox
        .grant_trophies(&mut *tx, station_id.0, user_id.0, participation_id)
        .await?;
    // Most stations run no giveaway campaign: no job then.
    if lucky_numbers::owed(&mut *tx, participation_id).await? {
        outbox
            .grant_lucky_numbers(&mut *tx, station_id.0, user_id.0, participation_id)
            .await?;
    }
    match rewards::on_participation(&mut *tx, participation_id).await? {
        Some(credit) => Ok(Some(outbox.credit_points(tx, credit).await?)),
        None => Ok(None),
    }
}
