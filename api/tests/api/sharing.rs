//! Share links: `POST /api/validate-sharing`.

use crate::common;
use crate::common::{app, send_json};
use axum::Router;
use axum::http::StatusCode;
use seed::demo::{self, DemoStation};
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::build;

const VISITOR_A: &str = "8f14e45f-ceea-467a-9b75-3c8e1d2f6a10";
const VISITOR_B: &str = "c9f0f895-fb98-4ab2-8d1c-5e6f7a8b9c0d";

async fn action(db: &PgPool, station_id: i64, type_id: i16, name: &str) -> i64 {
    let id = build::activity(station_id)
        .type_id(type_id)
        .name(name)
        .points(0)
        .no_dates()
        .insert(db)
        .await;
    sqlx::query(
        "INSERT INTO action_contents (action_id, position, text, link)
         VALUES ($1, 0, 'Conheça o clube', 'https://clube.example.com/promo'),
                ($1, 1, 'Segundo', 'https://clube.example.com/outro')",
    )
    .bind(id)
    .execute(db)
    .await
    .expect("contents");
    id
}

async fn visit(
    app: &Router,
    body: Value,
    token: Option<&str>,
    (address, user_agent): (&str, &str),
) -> common::Answer {
    let headers = [("user-agent", user_agent), ("x-forwarded-for", address)];
    send_json(app, "POST", "/api/validate-sharing", token, &headers, &body).await
}

async fn visits(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM share_visits")
        .fetch_one(db)
        .await
        .expect("count")
}

async fn seed(db: &PgPool) -> (DemoStation, i64) {
    let demo = demo::seed(db, "http://127.0.0.1:8080").await.expect("seed");
    let share = action(db, demo.station_id, 5, "Compartilhe o clube").await;
    (demo, share)
}

#[testkit::db_test]
async fn a_share_answers_its_link_and_counts_each_visitor_once(db: PgPool) {
    let (demo, share) = seed(&db).await;
    let app = common::app_with(db.clone(), &[("FILIA_TRUST_FORWARDED_FOR", "true")]);
    let firefox = ("203.0.113.7", "Firefox");
    let body = |visitor: Option<&str>| json!({ "action_id": share, "user_id": demo.member_id, "visitor_id": visitor });

    let first = visit(&app, body(Some(VISITOR_A)), None, firefox).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(
        first.json(),
        json!({ "action": {
            "id": share,
            "name": "Compartilhe o clube",
            "contents": [
                { "text": "Conheça o clube", "link": "https://clube.example.com/promo" },
                { "text": "Segundo", "link": "https://clube.example.com/outro" },
            ],
        } })
    );
    visit(
        &app,
        body(Some(VISITOR_A)),
        None,
        ("198.51.100.1", "Chrome"),
    )
    .await;
    assert_eq!(visits(&db).await, 1, "the same browser counts once");

    visit(&app, body(Some(VISITOR_B)), None, firefox).await;
    assert_eq!(visits(&db).await, 2, "another browser is another visitor");

    // Without a usable id, address and user agent tell visitors apart.
    visit(&app, body(None), None, firefox).await;
    visit(&app, body(Some("1")), None, firefox).await;
    assert_eq!(visits(&db).await, 3);
    visit(&app, body(None), None, ("203.0.113.8", "Firefox")).await;
    assert_eq!(visits(&db).await, 4);

    let row: (i64, i64, i64) =
        sqlx::query_as("SELECT station_id, action_id, sharer_user_id FROM share_visits LIMIT 1")
            .fetch_one(&db)
            .await
            .expect("visit");
    assert_eq!(row, (demo.station_id, share, demo.member_id));
}

#[testkit::db_test]
async fn the_sharer_opening_their_own_link_is_not_a_visit(db: PgPool) {
    let (demo, share) = seed(&db).await;
    let token = domain::accounts::session::create(&db, demo.member_id)
        .await
        .expect("session");
    let staff_token = domain::accounts::session::create(&db, demo.staff_id)
        .await
        .expect("session");
    let app = app(db.clone());
    let body = json!({ "action_id": share, "user_id": demo.member_id, "visitor_id": VISITOR_A });

    let own = visit(&app, body.clone(), Some(&token), ("127.0.0.1", "Firefox")).await;
    assert_eq!(own.status, StatusCode::OK);
    assert_eq!(visits(&db).await, 0);
    let colleague = visit(&app, body, Some(&staff_token), ("127.0.0.1", "Firefox")).await;
    assert_eq!(colleague.status, StatusCode::OK);
    assert_eq!(visits(&db).await, 1, "someone else signed in is a visitor");
}

#[testkit::db_test]
async fn only_an_open_share_of_an_active_sharer_s_own_station_is_found(db: PgPool) {
    let (demo, share) = seed(&db).await;
    let quiz = action(&db, demo.station_id, 6, "Quiz").await;
    let other_station = common::insert_station(&db, "outro").await;
    let foreign_share = action(&db, other_station, 5, "Compartilhe o outro").await;
    let outsider = common::insert_member(&db, other_station, "fora@example.com").await;
    let blocked: i64 = sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(demo::BLOCKED_EMAIL)
        .fetch_one(&db)
        .await
        .expect("blocked");
    let pending = build::member(demo.station_id)
        .name("Pendente")
        .email("p@example.com")
        .inactive()
        .insert(&db)
        .await;
    let unpublished = action(&db, demo.station_id, 5, "Rascunho").await;
    let ended = action(&db, demo.station_id, 5, "Campanha encerrada").await;
    let upcoming = action(&db, demo.station_id, 5, "Campanha futura").await;
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
    sqlx::query(
        "UPDATE actions SET participation_start = now() + interval '1 day',
                            participation_end = now() + interval '10 days' WHERE id = $1",
    )
    .bind(upcoming)
    .execute(&db)
    .await
    .expect("later");
    let app = app(db.clone());

    for (action_id, user_id) in [
        (unpublished, demo.member_id),
        (ended, demo.member_id),
        (upcoming, demo.member_id),
        (foreign_share, demo.member_id),
        (share, outsider),
        (quiz, demo.member_id),
        (999_999, demo.member_id),
        (share, 999_999),
        (share, blocked),
        (share, pending),
    ] {
        let answer = visit(
            &app,
            json!({ "action_id": action_id, "user_id": user_id, "visitor_id": VISITOR_A }),
            None,
            ("127.0.0.1", "Firefox"),
        )
        .await;
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "{action_id} {user_id}"
        );
        assert_eq!(
            answer.json(),
            json!({ "error": "Compartilhamento não encontrado" })
        );
    }
    assert_eq!(visits(&db).await, 0);
}

#[testkit::db_test]
async fn visits_from_one_address_past_the_limit_are_answered_429(db: PgPool) {
    let (demo, share) = seed(&db).await;
    let app = common::app_with(
        db.clone(),
        &[
            ("FILIA_TRUST_FORWARDED_FOR", "true"),
            ("FILIA_SHARE_MAX_PER_IP", "3"),
        ],
    );
    let body = |i: usize| {
        json!({ "action_id": share, "user_id": demo.member_id,
                "visitor_id": format!("visitante-{i:02}-8f14e45fceea467a") })
    };
    for i in 0..3 {
        let answer = visit(&app, body(i), None, ("203.0.113.7", &format!("Agente/{i}"))).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
    let refused = visit(&app, body(3), None, ("203.0.113.7", "Agente/3")).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        refused.json(),
        json!({ "messages": ["Muitos acessos a partir deste endereço. Aguarde alguns minutos e tente novamente."] })
    );
    let retry_after: u64 = refused.headers["retry-after"]
        .to_str()
        .expect("header")
        .parse()
        .expect("seconds");
    assert!((1..=600).contains(&retry_after), "{retry_after}");
    assert_eq!(visits(&db).await, 3, "the refused visit is not recorded");

    // Another address is counted apart; an IPv6 client by its /64.
    let elsewhere = visit(&app, body(4), None, ("198.51.100.1", "Agente/4")).await;
    assert_eq!(elsewhere.status, StatusCode::OK);
    for i in 5..8 {
        let address = format!("2001:db8:1:2::{i}");
        let answer = visit(&app, body(i), None, (&address, "Agente")).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
    let rotated = visit(&app, body(8), None, ("2001:db8:1:2::99", "Agente")).await;
    assert_eq!(rotated.status, StatusCode::TOO_MANY_REQUESTS);
}
