//! The political-union page: a member's 'Sugerir tema'. The suggestion, the e-mail to the
//! political desk and the acknowledgement to the member commit together, or none does.

use sqlx::PgPool;

use domain::political::{self, PoliticalRefused, Suggestion, mail};
use domain::services::{self, Desk};
use domain::shared::ids::{StationId, UserId};
use domain::stations::station;

use crate::outbox::Outbox;

/// Sends a member's suggestion (`POST /political`): refused where the station does not
/// offer the desk, then the description checked; then, in one transaction, the member's
/// hourly allowance counted on the stored suggestions, the suggestion stored, and its
/// e-mails queued: to the desk's address when it has one (else the console alone has it),
/// and the acknowledgement to the member when the account has an address.
pub async fn suggest(
    db: &PgPool,
    outbox: &impl Outbox,
    public_url: &str,
    station_id: StationId,
    user_id: UserId,
    description: Option<&str>,
) -> Result<Suggestion, PoliticalRefused> {
    services::offered(db, station_id, Desk::Political).await?;
    let description = political::check(description)?;
    let mut tx = db.begin().await?;
    political::within_limit(&mut tx, user_id).await?;
    let station = station::find(&mut *tx, station_id.0)
        .await?
        .ok_or(sqlx::Error::RowNotFound)?;
    let author = political::author(&mut *tx, station_id, user_id)
        .await?
        .ok_or(sqlx::Error::RowNotFound)?;
    let suggestion = political::insert(&mut *tx, station_id, user_id, &description).await?;
    match services::desk_email(&mut *tx, station_id, Desk::Political).await? {
        Some(to) => {
            let (mail, key) = mail::to_desk(&station, public_url, &suggestion, &author, &to);
            crate::mail::send_once(outbox, &mut tx, mail, key).await?;
        }
        None => tracing::warn!(
            station_id = station_id.0,
            suggestion_id = suggestion.id,
            "political suggestion kept for the console only: the desk has no address"
        ),
    }
    if let Some(to) = author.email.as_deref() {
        let (mail, key) = mail::received(&station, public_url, &suggestion, &author, to);
        crate::mail::send_once(outbox, &mut tx, mail, key).await?;
    }
    tx.commit().await?;
    tracing::info!(
        station_id = station_id.0,
        user_id = user_id.0,
        suggestion_id = suggestion.id,
        "political theme suggested"
    );
    Ok(suggestion)
}
