//! The demo seed may run at every start: a second run must change nothing.

use seed::demo;
use sqlx::PgPool;

async fn snapshot(db: &PgPool) -> serde_json::Value {
    sqlx::query_scalar(
        "SELECT jsonb_build_object(
             'stations', (SELECT jsonb_agg(s ORDER BY id) FROM stations s),
             'establishments', (SELECT jsonb_agg(e ORDER BY id) FROM establishments e),
             'users', (SELECT jsonb_agg(u ORDER BY id) FROM users u),
             'links', (SELECT jsonb_agg(l ORDER BY user_id) FROM user_establishments l),
             'mgm_rules', (SELECT jsonb_agg(r ORDER BY id) FROM mgm_rules r),
             'actions', (SELECT jsonb_agg(a ORDER BY id) FROM actions a),
             'contents', (SELECT jsonb_agg(c ORDER BY id) FROM action_contents c),
             'grants', (SELECT jsonb_agg(g ORDER BY user_id) FROM staff_grants g),
             'desk_grants', (SELECT jsonb_agg(g ORDER BY user_id, service)
                             FROM service_desk_grants g),
             'wallets', (SELECT jsonb_agg(w ORDER BY user_id) FROM wallets w),
             'lots', (SELECT jsonb_agg(l ORDER BY id) FROM credit_lots l),
             'spends', (SELECT jsonb_agg(p ORDER BY id) FROM spends p))",
    )
    .fetch_one(db)
    .await
    .expect("snapshot")
}

#[testkit::db_test]
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
    // Member, support staff, read-only staff, the legal desk's lawyer and the suspended
    // member; each with its invite code.
    let users = before["users"].as_array().expect("users");
    assert_eq!(users.len(), 5);
    assert!(users.iter().all(|u| u["invite_code"].is_string()));
    assert_eq!(before["mgm_rules"].as_array().map(Vec::len), Some(1));
    assert_eq!(before["contents"].as_array().map(Vec::len), Some(1));
    // The lawyer has the legal desk and no console grant.
    let desk_grants = before["desk_grants"].as_array().expect("desk grants");
    assert_eq!(desk_grants.len(), 1);
    assert_eq!(desk_grants[0]["service"], "legal");
    let console_grants = before["grants"].as_array().expect("grants");
    assert!(
        console_grants
            .iter()
            .all(|grant| grant["user_id"] != desk_grants[0]["user_id"])
    );
}

/// The second demo station (every flag on) is seeded once: a second run finds it and its
/// member as they are.
#[testkit::db_test]
async fn the_full_station_is_seeded_once(db: PgPool) {
    let first = demo::full_station::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("first seed");
    let before = snapshot(&db).await;

    let second = demo::full_station::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("second seed");

    assert_eq!(snapshot(&db).await, before);
    assert_eq!(first.station_id, second.station_id);
    assert_eq!(first.member_id, second.member_id);
    let (subdomain, age_gate): (String, bool) =
        sqlx::query_as("SELECT subdomain, age_gate FROM stations WHERE id = $1")
            .bind(first.station_id)
            .fetch_one(&db)
            .await
            .expect("station");
    assert_eq!(subdomain, demo::full_station::FULL_SUBDOMAIN);
    assert!(!age_gate);
}
