//! `POST /api/auth/login/establishment/{stationId}`.

use crate::common::{app, post_json};
use axum::http::StatusCode;
use seed::demo;
use serde_json::json;
use sqlx::PgPool;
use testkit::build;

fn url(station_id: i64) -> String {
    format!("/api/auth/login/establishment/{station_id}")
}

fn credentials(email: &str, password: &str) -> String {
    json!({ "email": email, "password": password }).to_string()
}

#[testkit::db_test]
async fn a_member_logs_in_and_gets_a_token_stored_only_as_a_hash(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let app = app(db.clone());

    let answer = post_json(
        &app,
        &url(demo.station_id),
        &credentials(" Membro@Demo.filia.com.br ", demo::MEMBER_PASSWORD),
    )
    .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let body = answer.json();
    let token = body["token"].as_str().expect("token");
    assert_eq!(token.len(), 64);
    let user = &body["user"];
    assert_eq!(user["id"], demo.member_id);
    assert_eq!(user["email"], demo::MEMBER_EMAIL);
    assert_eq!(user["type_id"], 2);
    assert_eq!(user["active"], 1);
    assert_eq!(user["role"], "member");
    assert_eq!(user["establishment"]["id"], demo.establishment_id);
    assert!(user.get("password_hash").is_none());

    let stored: Vec<Vec<u8>> =
        sqlx::query_scalar("SELECT token_hash FROM sessions WHERE user_id = $1")
            .bind(demo.member_id)
            .fetch_all(&db)
            .await
            .expect("sessions");
    assert_eq!(
        stored,
        vec![domain::accounts::session::hash_token(token).to_vec()]
    );
}

#[testkit::db_test]
async fn staff_log_in_with_their_role(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");

    let answer = post_json(
        &app(db),
        &url(demo.station_id),
        &credentials(demo::STAFF_EMAIL, demo::STAFF_PASSWORD),
    )
    .await;

    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json()["user"]["role"], "staff");
}

#[testkit::db_test]
async fn a_wrong_password_and_an_unknown_account_get_the_same_401(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let app = app(db.clone());

    let wrong_password = post_json(
        &app,
        &url(demo.station_id),
        &credentials(demo::MEMBER_EMAIL, "Errada123"),
    )
    .await;
    let unknown = post_json(
        &app,
        &url(demo.station_id),
        &credentials("ninguem@demo.filia.com.br", "Errada123"),
    )
    .await;

    assert_eq!(wrong_password.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        wrong_password.json(),
        json!({ "messages": ["E-mail, CPF ou senha incorretos."] })
    );
    assert_eq!(unknown.status, StatusCode::UNAUTHORIZED);
    assert_eq!(unknown.json(), wrong_password.json());
    let sessions: i64 = sqlx::query_scalar("SELECT count(*) FROM sessions")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(sessions, 0);
}

#[testkit::db_test]
async fn an_account_belongs_to_its_own_station_only(db: PgPool) {
    demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let other = build::station("azul").insert(&db).await;

    let answer = post_json(
        &app(db),
        &url(other),
        &credentials(demo::MEMBER_EMAIL, demo::MEMBER_PASSWORD),
    )
    .await;

    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn login_by_cpf_checks_the_cpf(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    sqlx::query("UPDATE users SET cpf = '52998224725' WHERE id = $1")
        .bind(demo.member_id)
        .execute(&db)
        .await
        .expect("cpf");
    let app = app(db);

    let body = json!({ "cpf": "529.982.247-25", "password": demo::MEMBER_PASSWORD }).to_string();
    let ok = post_json(&app, &url(demo.station_id), &body).await;
    let body = json!({ "cpf": "529.982.247-24", "password": demo::MEMBER_PASSWORD }).to_string();
    let bad = post_json(&app, &url(demo.station_id), &body).await;

    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text);
    assert_eq!(ok.json()["user"]["id"], demo.member_id);
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad.json(), json!({ "messages": ["CPF inválido"] }));
}

#[testkit::db_test]
async fn login_validates_identifier_and_station(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let app = app(db);

    let no_id = post_json(&app, &url(demo.station_id), r#"{"password":"Membro123"}"#).await;
    let bad_email = post_json(
        &app,
        &url(demo.station_id),
        &credentials("membro-at-demo", "Membro123"),
    )
    .await;
    let no_station = post_json(
        &app,
        &url(987654),
        &credentials(demo::MEMBER_EMAIL, "Membro123"),
    )
    .await;

    assert_eq!(no_id.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(no_id.json()["messages"][0], "Esse campo é obrigatório");
    assert_eq!(bad_email.json()["messages"][0], "Email inválido");
    assert_eq!(no_station.status, StatusCode::NOT_FOUND);
    assert_eq!(no_station.json()["error"], "Estação não encontrada");
}
