//! A member's own data and the public member-card check.

use crate::common;
use crate::common::{app, call, get};
use axum::http::StatusCode;
use seed::demo;
use serde_json::json;
use sqlx::PgPool;

#[testkit::db_test]
async fn a_member_reads_their_own_data_and_card(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db);

    let own = call(
        &app,
        "GET",
        &format!("/api/users-web/{}", demo.member_id),
        Some(&token),
        &[],
    )
    .await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.text);
    let user = own.json();
    assert_eq!(user["id"], demo.member_id);
    assert_eq!(user["email"], demo::MEMBER_EMAIL);
    assert!(user.get("password_hash").is_none());

    let card = call(
        &app,
        "GET",
        &format!("/api/users/{}", demo.member_id),
        Some(&token),
        &[],
    )
    .await;
    assert_eq!(card.status, StatusCode::OK);
    assert_eq!(card.json()[0]["id"], demo.member_id);
    assert_eq!(card.json().as_array().map(Vec::len), Some(1));
}

#[testkit::db_test]
async fn nobody_reads_someone_elses_data(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let outsider = common::insert_member(
        &db,
        common::insert_station(&db, "outro").await,
        "fora@example.com",
    )
    .await;
    let token = domain::accounts::session::create(&db, demo.member_id)
        .await
        .expect("session");
    let app = app(db);

    for other in [demo.staff_id, outsider, 999_999] {
        for uri in [
            format!("/api/users-web/{other}"),
            format!("/api/users/{other}"),
        ] {
            let answer = call(&app, "GET", &uri, Some(&token), &[]).await;
            assert_eq!(answer.status, StatusCode::FORBIDDEN, "{uri}");
            assert_eq!(
                answer.json(),
                json!({ "messages": ["Você não possui autorização para acessar esta página."] })
            );
        }
    }
    let anonymous = get(&app, &format!("/api/users-web/{}", demo.member_id)).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn anyone_can_check_a_member_card_and_learns_only_validity(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let app = app(db.clone());
    let check = async |id: i64| {
        let answer = get(&app, &format!("/api/users/{id}/validation")).await;
        assert_eq!(answer.status, StatusCode::OK);
        answer.json()
    };

    assert_eq!(check(demo.member_id).await, json!({ "isValid": true }));
    assert_eq!(check(999_999).await, json!({ "isValid": false }));
    sqlx::query("UPDATE users SET deleted_at = now() WHERE id = $1")
        .bind(demo.member_id)
        .execute(&db)
        .await
        .expect("block");
    assert_eq!(check(demo.member_id).await, json!({ "isValid": false }));
}
