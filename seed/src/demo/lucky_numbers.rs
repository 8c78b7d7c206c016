//! The demo station's lucky numbers: the station shows them, and one giveaway campaign
//! counts the activities of the "Comunidade" category, so the demo member holds the number
//! of the agreement the catalogue seed took part in, given by the same function the
//! `lucky_numbers.grant` job runs. Seeded once (by name); the flag is turned on with it.

use chrono::{Datelike, Duration, TimeZone, Utc};
use sqlx::PgPool;

use super::DemoStation;
use super::activities::CATEGORIES;
use domain::activities::lucky_numbers::{self, NewCampaign, Rule};

pub const CAMPAIGN: &str = "Sorteio de fim de ano";
/// The category whose activities give a number.
pub const CAMPAIGN_CATEGORY: &str = CATEGORIES[2];

pub async fn seed(db: &PgPool, demo: &DemoStation) -> anyhow::Result<()> {
    let station_id = demo.station_id;
    let category: Option<i64> = sqlx::query_scalar(
        "SELECT id FROM participant_categories WHERE station_id = $1 AND name = $2",
    )
    .bind(station_id)
    .bind(CAMPAIGN_CATEGORY)
    .fetch_optional(db)
    .await?;
    let Some(category_id) = category else {
        return Ok(());
    };
    let exists: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM giveaway_campaigns WHERE station_id = $1 AND name = $2)",
    )
    .bind(station_id)
    .bind(CAMPAIGN)
    .fetch_one(db)
    .await?;
    if exists {
        return Ok(());
    }
    let now = Utc::now();
    // Published on 1 February of next year at 16h in Brasília (19h UTC), as the spec's
    // example; the campaign counts participations until the day before.
    let publish_at = Utc
        .with_ymd_and_hms(now.year() + 1, 2, 1, 19, 0, 0)
        .single()
        .unwrap_or(now + Duration::days(365));
    let mut tx = db.begin().await?;
    lucky_numbers::create(
        &mut *tx,
        &NewCampaign {
            station_id,
            name: CAMPAIGN.into(),
            rule: Rule::Category(category_id),
            range_size: 100_000,
            secret: lucky_numbers::new_secret()?,
            starts_at: now - Duration::days(30),
            ends_at: publish_at - Duration::hours(16),
            publish_at,
        },
    )
    .await?;
    sqlx::query("UPDATE stations SET lucky_numbers_access = true WHERE id = $1")
        .bind(station_id)
        .execute(&mut *tx)
        .await?;
    // The numbers the member's earlier participations are owed, as the job would give them.
    let participations: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM participations WHERE user_id = $1 ORDER BY id")
            .bind(demo.member_id)
            .fetch_all(&mut *tx)
            .await?;
    for participation_id in participations {
        lucky_numbers::grant(&mut tx, participation_id).await?;
    }
    tx.commit().await?;
    Ok(())
}
