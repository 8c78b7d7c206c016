//! The mailing list: `PUT /api/e-mail-subscribe` and `PUT /api/e-mail-unsubscribe`.

use crate::common;
use crate::common::{app_with, send_json};
use axum::Router;
use axum::http::StatusCode;
use seed::demo;
use serde_json::{Value, json};
use sqlx::PgPool;

const KEY: &str = "chave-de-teste-das-listas";

async fn put(app: &Router, path: &str, body: Value) -> common::Answer {
    send_json(app, "PUT", path, None, &[], &body).await
}

async fn subscribed(db: &PgPool, user_id: i64) -> bool {
    sqlx::query_scalar("SELECT mailing_subscribed FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(db)
        .await
        .expect("user")
}

#[testkit::db_test]
async fn the_signed_links_unsubscribe_and_subscribe_again(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let app = app_with(db.clone(), &[("FILIA_SIGNING_KEY", KEY)]);
    let links = domain::accounts::mailing::links(KEY, "http://127.0.0.1:8080", demo.member_id);
    let hash = links
        .unsubscribe
        .rsplit('/')
        .next()
        .expect("hash")
        .to_string();
    assert_eq!(
        links.unsubscribe,
        format!(
            "http://127.0.0.1:8080/email/desinscricao/{}/{hash}",
            demo.member_id
        )
    );

    let out = put(
        &app,
        "/api/e-mail-unsubscribe",
        json!({ "id": demo.member_id, "hash": hash }),
    )
    .await;
    assert_eq!(out.status, StatusCode::OK);
    assert_eq!(out.json(), json!([1]));
    assert!(!subscribed(&db, demo.member_id).await);

    // The page reads the id from its URL: text works as well as a number.
    let back = put(
        &app,
        "/api/e-mail-subscribe",
        json!({ "id": demo.member_id.to_string(), "hash": hash }),
    )
    .await;
    assert_eq!(back.status, StatusCode::NO_CONTENT);
    assert_eq!(back.text, "");
    assert!(subscribed(&db, demo.member_id).await);
}

#[testkit::db_test]
async fn a_bad_hash_or_id_changes_nothing(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let app = app_with(db.clone(), &[("FILIA_SIGNING_KEY", KEY)]);
    let good = domain::accounts::mailing::hash(KEY, demo.member_id);
    let mut tampered = good.clone();
    tampered.replace_range(0..1, if good.starts_with('0') { "1" } else { "0" });
    let someone_elses = domain::accounts::mailing::hash(KEY, demo.staff_id);
    let other_key = domain::accounts::mailing::hash("outra-chave", demo.member_id);

    let bad_links = [
        json!({ "id": demo.member_id, "hash": tampered }),
        json!({ "id": demo.member_id, "hash": someone_elses }),
        json!({ "id": demo.member_id, "hash": other_key }),
        json!({ "id": demo.member_id, "hash": "" }),
        json!({ "id": 999_999, "hash": domain::accounts::mailing::hash(KEY, 999_999) }),
        json!({ "id": "abc", "hash": good }),
    ];
    for link in bad_links {
        let out = put(&app, "/api/e-mail-unsubscribe", link.clone()).await;
        assert_eq!(out.status, StatusCode::OK, "{link}");
        assert_eq!(out.json(), json!([0]), "{link}");
        assert!(subscribed(&db, demo.member_id).await);
    }

    sqlx::query("UPDATE users SET mailing_subscribed = false WHERE id = $1")
        .bind(demo.member_id)
        .execute(&db)
        .await
        .expect("unsubscribe");
    for link in [
        json!({ "id": demo.member_id, "hash": tampered }),
        json!({ "id": demo.member_id, "hash": someone_elses }),
        json!({ "id": 999_999, "hash": domain::accounts::mailing::hash(KEY, 999_999) }),
    ] {
        let back = put(&app, "/api/e-mail-subscribe", link.clone()).await;
        assert_eq!(back.status, StatusCode::UNPROCESSABLE_ENTITY, "{link}");
        assert_eq!(back.json(), json!({ "messages": ["Link inválido."] }));
    }
    assert!(!subscribed(&db, demo.member_id).await);
}
