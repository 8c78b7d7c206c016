//! Our own short links: `POST /api/short-links` and `GET /s/{code}`.

use crate::common;
use crate::common::{app, call, send_json};
use axum::Router;
use axum::http::StatusCode;
use futures_util::future::join_all;
use seed::demo::DemoStation;
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::build;

const NOT_FOUND: &str = "Compartilhamento não encontrado";

async fn action(db: &PgPool, station_id: i64, type_id: i16, name: &str) -> i64 {
    let id = build::activity(station_id)
        .type_id(type_id)
        .name(name)
        .no_dates()
        .insert(db)
        .await;
    sqlx::query(
        "INSERT INTO action_contents (action_id, position, text, link)
         VALUES ($1, 0, 'Conheça o clube', 'https://clube.example.com/promo')",
    )
    .bind(id)
    .execute(db)
    .await
    .expect("contents");
    id
}

async fn seed(db: &PgPool) -> (DemoStation, String, i64) {
    let (demo, token) = common::demo_member_session(db).await;
    let share = action(db, demo.station_id, 5, "Compartilhe o clube").await;
    (demo, token, share)
}

async fn take_link(app: &Router, token: Option<&str>, body: &Value) -> common::Answer {
    send_json(app, "POST", "/api/short-links", token, &[], body).await
}

async fn open(app: &Router, code: &str, address: Option<&str>) -> common::Answer {
    let headers: Vec<(&str, &str)> = address
        .map(|address| vec![("x-forwarded-for", address)])
        .unwrap_or_default();
    call(app, "GET", &format!("/s/{code}"), None, &headers).await
}

async fn clicks(db: &PgPool, code: &str) -> i64 {
    sqlx::query_scalar("SELECT clicks FROM short_links WHERE code = $1")
        .bind(code)
        .fetch_one(db)
        .await
        .expect("clicks")
}

async fn links(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM short_links")
        .fetch_one(db)
        .await
        .expect("count")
}

async fn code_of(app: &Router, token: &str, share: i64) -> String {
    let answer = take_link(app, Some(token), &json!({ "action_id": share })).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer.json()["code"].as_str().expect("a code").to_string()
}

#[testkit::db_test]
async fn a_member_gets_one_code_per_activity_however_many_calls_at_once(db: PgPool) {
    let (demo, token, share) = seed(&db).await;
    let app = app(db.clone());
    let body = json!({ "action_id": share });

    let answers = join_all((0..8).map(|_| take_link(&app, Some(&token), &body))).await;
    let mut codes = Vec::new();
    for answer in &answers {
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        codes.push(answer.json()["code"].as_str().expect("code").to_string());
    }
    codes.dedup();
    assert_eq!(codes.len(), 1, "{codes:?}");
    let code = &codes[0];
    assert_eq!(code.len(), 8);
    assert_eq!(
        answers[0].json(),
        json!({
            "code": code,
            "url": format!("http://127.0.0.1:8080/s/{code}"),
            "target": format!("/compartilhamento?source={}&campaign={share}", demo.member_id),
        })
    );
    assert_eq!(links(&db).await, 1);
    assert_eq!(code_of(&app, &token, share).await, *code, "asked again");

    // Another member has a link of their own, and so has the member for another share.
    let colleague = common::insert_member(&db, demo.station_id, "colega@example.com").await;
    let colleague_token = common::session_of(&db, colleague).await;
    assert_ne!(code_of(&app, &colleague_token, share).await, *code);
    let other_share = action(&db, demo.station_id, 5, "Outra campanha").await;
    assert_ne!(code_of(&app, &token, other_share).await, *code);
    assert_eq!(links(&db).await, 3);
    assert_eq!(
        common::participations(&db, share).await,
        0,
        "taking a link is no participation"
    );
}

#[testkit::db_test]
async fn the_code_redirects_to_the_share_page_and_counts_every_opening(db: PgPool) {
    let (demo, token, share) = seed(&db).await;
    let app = app(db.clone());
    let code = code_of(&app, &token, share).await;
    assert_eq!(clicks(&db, &code).await, 0);

    let openings = join_all((0..20).map(|_| open(&app, &code, None))).await;
    let target = format!(
        "/compartilhamento?source={}&campaign={share}",
        demo.member_id
    );
    for answer in &openings {
        assert_eq!(answer.status, StatusCode::FOUND, "{}", answer.text);
        assert_eq!(answer.headers["location"], target.as_str());
        assert_eq!(answer.headers["cache-control"], "no-store");
    }
    assert_eq!(clicks(&db, &code).await, 20);

    // The share page's visit credit still works with what the redirect carries.
    let query = target.split_once('?').expect("a query").1;
    let param = |name: &str| -> i64 {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix(&format!("{name}=")))
            .expect("the parameter")
            .parse()
            .expect("an id")
    };
    let visit = send_json(
        &app,
        "POST",
        "/api/validate-sharing",
        None,
        &[("user-agent", "Firefox")],
        &json!({ "user_id": param("source"), "action_id": param("campaign"),
                 "visitor_id": "8f14e45f-ceea-467a-9b75-3c8e1d2f6a10" }),
    )
    .await;
    assert_eq!(visit.status, StatusCode::OK, "{}", visit.text);
    assert_eq!(
        visit.json()["action"]["contents"][0]["link"],
        "https://clube.example.com/promo"
    );
    let (visits, credits): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM share_visits WHERE action_id = $1 AND sharer_user_id = $2),
                (SELECT count(*) FROM share_credits WHERE action_id = $1 AND sharer_user_id = $2)",
    )
    .bind(share)
    .bind(demo.member_id)
    .fetch_one(&db)
    .await
    .expect("visits");
    assert_eq!((visits, credits), (1, 1));
}

#[testkit::db_test]
async fn an_unknown_code_is_not_found(db: PgPool) {
    let (_, token, share) = seed(&db).await;
    let app = app(db.clone());
    let code = code_of(&app, &token, share).await;
    let unknown = if code == "ZZZZZZZZ" {
        "YYYYYYYY"
    } else {
        "ZZZZZZZZ"
    };
    for not_ours in [unknown, "abc", "zzzzzzzz", "ZZZZZZZZZ", "%27%20OR%201%3D1"] {
        let answer = open(&app, not_ours, None).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{not_ours}");
        assert!(answer.headers.get("location").is_none(), "{not_ours}");
    }
    assert_eq!(clicks(&db, &code).await, 0);
    // The path without a code is the web app's, as before.
    assert_ne!(open(&app, "", None).await.status, StatusCode::FOUND);
}

#[testkit::db_test]
async fn only_an_open_share_of_the_member_s_station_gets_a_link(db: PgPool) {
    let (demo, token, _) = seed(&db).await;
    let quiz = action(&db, demo.station_id, 6, "Quiz").await;
    let other_station = common::insert_station(&db, "outro").await;
    let foreign_share = action(&db, other_station, 5, "Compartilhe o outro").await;
    let unpublished = action(&db, demo.station_id, 5, "Rascunho").await;
    let ended = action(&db, demo.station_id, 5, "Campanha encerrada").await;
    sqlx::query("UPDATE actions SET active = false WHERE id = $1")
        .bind(unpublished)
        .execute(&db)
        .await
        .expect("unpublish");
    sqlx::query(
        "UPDATE actions SET participation_start = now() - interval '10 days',
                            participation_end = now() - interval '1 day' WHERE id = $1",
    )
    .bind(ended)
    .execute(&db)
    .await
    .expect("end");
    let app = app(db.clone());

    for action_id in [foreign_share, quiz, unpublished, ended, 999_999] {
        let answer = take_link(&app, Some(&token), &json!({ "action_id": action_id })).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{action_id}");
        assert_eq!(answer.json(), json!({ "error": NOT_FOUND }));
    }
    assert_eq!(links(&db).await, 0);
}

#[testkit::db_test]
async fn a_visitor_cannot_take_a_link_and_bad_input_is_refused(db: PgPool) {
    let (_, token, share) = seed(&db).await;
    let app = app(db.clone());

    let visitor = take_link(&app, None, &json!({ "action_id": share })).await;
    assert_eq!(visitor.status, StatusCode::UNAUTHORIZED, "{}", visitor.text);
    let forged = take_link(&app, Some("not-a-token"), &json!({ "action_id": share })).await;
    assert_eq!(forged.status, StatusCode::UNAUTHORIZED);
    for bad in [
        json!({}),
        json!({ "action_id": "um" }),
        json!({ "action_id": null }),
    ] {
        let answer = take_link(&app, Some(&token), &bad).await;
        assert!(answer.status.is_client_error(), "{bad}: {}", answer.status);
        assert_ne!(answer.status, StatusCode::OK);
    }
    assert_eq!(links(&db).await, 0);
}

#[testkit::db_test]
async fn openings_from_one_address_past_the_limit_are_answered_429(db: PgPool) {
    let (_, token, share) = seed(&db).await;
    let app = common::app_with(
        db.clone(),
        &[
            ("FILIA_TRUST_FORWARDED_FOR", "true"),
            ("FILIA_SHARE_MAX_PER_IP", "3"),
        ],
    );
    let code = code_of(&app, &token, share).await;

    for _ in 0..3 {
        let answer = open(&app, &code, Some("203.0.113.7")).await;
        assert_eq!(answer.status, StatusCode::FOUND, "{}", answer.text);
    }
    let refused = open(&app, &code, Some("203.0.113.7")).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        refused.json(),
        json!({ "messages": ["Muitos acessos a partir deste endereço. Aguarde alguns minutos e tente novamente."] })
    );
    assert!(refused.headers.contains_key("retry-after"));
    // Unknown codes count too: guessing codes is limited alike.
    assert_eq!(
        open(&app, "ZZZZZZZZ", Some("203.0.113.7")).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        clicks(&db, &code).await,
        3,
        "refused openings are not counted"
    );

    // Another address is counted apart, and the share page's own limit is untouched.
    let elsewhere = open(&app, &code, Some("198.51.100.1")).await;
    assert_eq!(elsewhere.status, StatusCode::FOUND);
    assert_eq!(clicks(&db, &code).await, 4);
}
