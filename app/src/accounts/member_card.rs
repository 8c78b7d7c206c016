//! The member's virtual card: the card as it is now, and its PDF asked for.

use sqlx::PgPool;

use domain::accounts::member_card::{self, Card};
use domain::shared::ids::{StationId, UserId};

use crate::outbox::Outbox;

/// What asking for the card's PDF answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pdf {
    /// Made from the card as it is now: the stored file's key.
    Stored(String),
    /// Being made: the job's id.
    Making(String),
}

/// The member's card; `None` where the station shows none.
pub async fn card(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
) -> sqlx::Result<Option<Card>> {
    let mut conn = db.acquire().await?;
    member_card::card(&mut conn, station_id, user_id).await
}

/// The card's PDF when one was made from the card as it is now; otherwise asks for it (again,
/// when its job had failed). `None` where the station shows no card.
pub async fn pdf(
    db: &PgPool,
    outbox: &impl Outbox,
    station_id: StationId,
    user_id: UserId,
) -> sqlx::Result<Option<Pdf>> {
    let mut tx = db.begin().await?;
    let Some(card) = member_card::card(&mut tx, station_id, user_id).await? else {
        return Ok(None);
    };
    if let Some(key) = member_card::stored_pdf(&mut tx, user_id, &card.fingerprint).await? {
        return Ok(Some(Pdf::Stored(key)));
    }
    let job = outbox
        .make_member_card(&mut tx, station_id.0, user_id.0, &card.fingerprint)
        .await?;
    tx.commit().await?;
    Ok(Some(Pdf::Making(job.job_id)))
}
