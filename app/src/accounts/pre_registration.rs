//! The profile's pre-registration change request: recorded and e-mailed to the station.

use sqlx::PgPool;

use domain::accounts::change::AccountError;
use domain::accounts::pre_registration::{self, ChangeRequest};
use domain::shared::ids::{StationId, UserId};

use crate::outbox::Outbox;

/// Records the member's request and queues its e-mail to the station, on one transaction.
pub async fn request(
    db: &PgPool,
    outbox: &impl Outbox,
    public_url: &str,
    station_id: StationId,
    user_id: UserId,
    request: &ChangeRequest,
) -> Result<(), AccountError> {
    let mut tx = db.begin().await?;
    let follow_up =
        pre_registration::request(&mut tx, station_id, user_id, request, public_url).await?;
    super::follow_up(outbox, &mut tx, follow_up).await?;
    tx.commit().await?;
    Ok(())
}
