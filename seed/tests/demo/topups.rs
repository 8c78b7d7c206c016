//! The demo's money-in: bank details for transfers and one confirmed transfer top-up
//! credited to the demo member, made once.

use seed::demo;
use sqlx::PgPool;

#[testkit::db_test]
async fn the_demo_has_bank_details_and_one_credited_top_up_made_once(db: PgPool) {
    let station = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    demo::topups::seed(&db, &station).await.expect("first");
    demo::topups::seed(&db, &station).await.expect("second");
    let topups: Vec<(String, String, i64, Option<i64>)> =
        sqlx::query_as("SELECT method, status, amount, decided_by FROM topups WHERE user_id = $1")
            .bind(station.member_id)
            .fetch_all(&db)
            .await
            .expect("top-ups");
    assert_eq!(
        topups,
        [(
            "transfer".to_string(),
            "credited".to_string(),
            demo::topups::DEMO_TOPUP_CENTS,
            Some(station.staff_id)
        )]
    );
    let lots: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM credit_lots WHERE user_id = $1 AND source_kind = 'topup'
            AND state = 'available'",
    )
    .bind(station.member_id)
    .fetch_one(&db)
    .await
    .expect("lots");
    assert_eq!(lots, 1);
    let mut conn = db.acquire().await.expect("conn");
    let bank = domain::wallet::topups::bank_details(&mut conn, station.station_id)
        .await
        .expect("bank");
    assert_eq!(bank, Some(demo::topups::bank_details()));
}
