//! The demo seed may run at every start: a second run must change nothing.

use domain::demo;
use sqlx::PgPool;

async fn snapshot(db: &PgPool) -> serde_json::Value {
    sqlx::query_scalar(
        "SELECT jsonb_build_object(
             'stations', (SELECT jsonb_agg(s ORDER BY id) FROM stations s),
             'establishments', (SELECT jsonb_agg(e ORDER BY id) FROM establishments e),
             'users', (SELECT jsonb_agg(u ORDER BY id) FROM users u),
             'links', (SELECT jsonb_agg(l ORDER BY user_id) FROM user_establishments l))",
    )
    .fetch_one(db)
    .await
    .expect("snapshot")
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn seeding_twice_changes_nothing(db: PgPool) {
    let first = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("first seed");
    let before = snapshot(&db).await;

    let second = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("second seed");

    assert_eq!(snapshot(&db).await, before);
    assert_eq!(first.station_id, second.station_id);
    assert_eq!(first.member_id, second.member_id);
    assert_eq!(before["users"].as_array().map(Vec::len), Some(2));
}
