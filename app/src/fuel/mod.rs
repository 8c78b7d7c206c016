//! The fuel campaign: a member takes a campaign's voucher. The voucher and the campaign's
//! count commit together, or neither does (a refusal rolls the count back).

use chrono::Utc;
use sqlx::PgPool;

use domain::fuel::FuelRefused;
use domain::fuel::vouchers::{self, Voucher};
use domain::shared::ids::{StationId, UserId};

/// Takes a voucher of `campaign_id` for the member (`POST /fuel-campaigns`).
pub async fn take_voucher(
    db: &PgPool,
    station: StationId,
    user: UserId,
    campaign_id: Option<i64>,
) -> Result<Voucher, FuelRefused> {
    let mut tx = db.begin().await?;
    let voucher = vouchers::take(&mut tx, station, user, campaign_id, Utc::now()).await?;
    tx.commit().await?;
    tracing::info!(
        station_id = station.0,
        user_id = user.0,
        campaign_id = voucher.campaign_id,
        voucher_id = voucher.id,
        "fuel voucher taken"
    );
    Ok(voucher)
}
