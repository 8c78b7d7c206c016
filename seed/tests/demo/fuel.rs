//! The demo fuel campaign: the setting on, three open campaigns with stored pictures that
//! the member sees; a second seed changes nothing.

use chrono::Utc;
use domain::fuel::campaigns;
use domain::infra::objects::Objects;
use domain::shared::ids::{StationId, UserId};
use seed::demo::{self, fuel};
use sqlx::PgPool;

#[testkit::db_test]
async fn the_demo_station_offers_three_fuel_campaigns_seeded_once(db: PgPool) {
    let dir = std::env::temp_dir().join(format!("filia-demo-fuel-{}", ulid::Ulid::generate()));
    let objects = Objects::local(&dir).expect("objects");
    let station = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    fuel::seed(&db, &objects, &station).await.expect("first");
    fuel::seed(&db, &objects, &station).await.expect("second");

    let count: i64 =
        sqlx::query_scalar("SELECT count(*) FROM fuel_campaigns WHERE station_id = $1")
            .bind(station.station_id)
            .fetch_one(&db)
            .await
            .expect("count");
    assert_eq!(count, 3, "seeded once");
    let on: bool = sqlx::query_scalar("SELECT fuel_campaign_access FROM stations WHERE id = $1")
        .bind(station.station_id)
        .fetch_one(&db)
        .await
        .expect("flag");
    assert!(on);

    let open = campaigns::open(
        &db,
        StationId(station.station_id),
        UserId(station.member_id),
        Utc::now(),
    )
    .await
    .expect("open campaigns");
    assert_eq!(open.len(), 3);
    assert!(
        open.iter()
            .any(|campaign| campaign.name == fuel::FIRST_CAMPAIGN)
    );
    for campaign in &open {
        assert!(!campaign.taken);
        let key = campaign
            .image
            .as_deref()
            .and_then(Objects::key_of_url)
            .expect("a stored picture");
        assert!(dir.join(key).is_file(), "{key} is stored");
    }
    let _ = std::fs::remove_dir_all(dir);
}
