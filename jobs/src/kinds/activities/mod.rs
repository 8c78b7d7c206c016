//! The activities' jobs: granting trophies, on each participation and nightly, and lucky
//! numbers on each participation a giveaway campaign counts.

pub mod lucky_numbers_grant;
pub mod trophies_grant;

use sqlx::PgConnection;

use crate::enqueue::Enqueued;
use crate::kinds::PointsCredit;
use lucky_numbers_grant::LuckyNumbersGrant;
use trophies_grant::TrophiesGrant;

/// The single hook of a participation recorded (or found again by a call sent twice),
/// called on the transaction that recorded it, wherever that happens: it enqueues the
/// participation's credit, the member's trophies and its lucky numbers (when a campaign
/// counts it), all keyed by the participation, so a second call for it is a no-op. Answers
/// the credit's job (`None` when the activity pays no points, or the participation earns
/// nothing).
pub async fn after_participation(
    tx: &mut PgConnection,
    participation_id: i64,
) -> sqlx::Result<Option<Enqueued>> {
    TrophiesGrant::for_participation(&mut *tx, participation_id).await?;
    LuckyNumbersGrant::for_participation(&mut *tx, participation_id).await?;
    PointsCredit::for_participation(tx, participation_id).await
}
