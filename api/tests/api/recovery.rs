//! Password recovery: `POST /api/auth/validate-email-forgot-pass` and
//! `POST /api/auth/update-password`.

use crate::common;
use crate::common::{app, call, post_json};
use crate::signup_support::mails;
use axum::Router;
use axum::http::StatusCode;
use seed::demo::{self, DemoStation};
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::build;

const SENT: &str = "Sucesso! Verifique sua caixa de e-mails";
const CHANGED: &str = "Sucesso! Você já pode logar com a nova senha";
const LINK_INVALID: &str = "Link de redefinição inválido ou expirado. Solicite um novo.";
const NEW_PASSWORD: &str = "NovaSenha9";

async fn seed(db: &PgPool) -> DemoStation {
    demo::seed(db, "http://127.0.0.1:8080").await.expect("seed")
}

async fn ask_for_link(app: &Router, station_id: i64, email: &str) -> common::Answer {
    post_json(
        app,
        "/api/auth/validate-email-forgot-pass",
        &json!({ "email": email, "station_id": station_id }).to_string(),
    )
    .await
}

/// The (token, e-mail) of the reset link in a mail: `/redefinir-senha/{token}/{email}`.
fn link_of(mail: &Value) -> (String, String) {
    let text = mail["text"].as_str().expect("text");
    let start = text.find("/redefinir-senha/").expect("a reset link") + "/redefinir-senha/".len();
    let link = text[start..].split_whitespace().next().expect("link");
    let (token, email) = link.split_once('/').expect("token/email");
    (token.to_string(), email.to_string())
}

async fn reset(
    app: &Router,
    station_id: i64,
    token: &str,
    email: &str,
    password: &str,
    confirmation: &str,
) -> common::Answer {
    post_json(
        app,
        "/api/auth/update-password",
        &json!({
            "password": password,
            "password_confirmation": confirmation,
            "userHash": token,
            "userEmail": email,
            "station_id": station_id,
        })
        .to_string(),
    )
    .await
}

/// The usual case: [`NEW_PASSWORD`] in both fields.
async fn set_new_password(
    app: &Router,
    station_id: i64,
    token: &str,
    email: &str,
) -> common::Answer {
    reset(app, station_id, token, email, NEW_PASSWORD, NEW_PASSWORD).await
}

async fn login(app: &Router, station_id: i64, email: &str, password: &str) -> StatusCode {
    post_json(
        app,
        &format!("/api/auth/login/establishment/{station_id}"),
        &json!({ "email": email, "password": password }).to_string(),
    )
    .await
    .status
}

/// The demo member's login with this password.
async fn member_login(app: &Router, demo: &DemoStation, password: &str) -> StatusCode {
    login(app, demo.station_id, demo::MEMBER_EMAIL, password).await
}

fn invalid(messages: &[&str]) -> Value {
    json!({ "messages": messages })
}

#[testkit::db_test]
async fn the_mailed_link_sets_a_new_password_once_and_ends_every_session(db: PgPool) {
    let demo = seed(&db).await;
    let old_session = domain::accounts::session::create(&db, demo.member_id)
        .await
        .expect("session");
    let app = app(db.clone());

    let asked = ask_for_link(&app, demo.station_id, " Membro@Demo.filia.com.br ").await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.text);
    assert_eq!(asked.json(), json!({ "message": SENT }));

    let sent = mails(&db).await;
    assert_eq!(sent.len(), 1);
    let mail = &sent[0];
    assert_eq!(mail["to"], demo::MEMBER_EMAIL);
    assert_eq!(mail["subject"], "Redefinição de senha");
    assert!(
        mail["html"]
            .as_str()
            .expect("html")
            .contains("http://127.0.0.1:8080/redefinir-senha/"),
        "the link is on the station's url"
    );
    let (token, email) = link_of(mail);
    assert_eq!(token.len(), 64);
    assert_eq!(email, demo::MEMBER_EMAIL);
    let stored: Vec<u8> = sqlx::query_scalar("SELECT token_hash FROM password_resets")
        .fetch_one(&db)
        .await
        .expect("reset row");
    assert_eq!(
        stored,
        domain::accounts::session::hash_token(&token).to_vec()
    );
    let owner: (i64, i64) = sqlx::query_as("SELECT station_id, user_id FROM job_records")
        .fetch_one(&db)
        .await
        .expect("job record");
    assert_eq!(owner, (demo.station_id, demo.member_id));

    let done = set_new_password(&app, demo.station_id, &token, &email).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert_eq!(done.json(), json!({ "message": CHANGED }));

    let again = reset(
        &app,
        demo.station_id,
        &token,
        &email,
        "Outra1234",
        "Outra1234",
    )
    .await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(again.json(), invalid(&[LINK_INVALID]));

    let validity = call(
        &app,
        "GET",
        "/api/auth/validate-token",
        Some(&old_session),
        &[],
    )
    .await;
    assert_eq!(
        validity.json()["valid"],
        false,
        "the old session is revoked"
    );
    assert_eq!(
        member_login(&app, &demo, demo::MEMBER_PASSWORD).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        member_login(&app, &demo, NEW_PASSWORD).await,
        StatusCode::OK
    );
}

#[testkit::db_test]
async fn unknown_and_blocked_accounts_get_the_same_answer_and_no_mail(db: PgPool) {
    let demo = seed(&db).await;
    let app = app(db.clone());

    for email in ["ninguem@example.com", demo::BLOCKED_EMAIL] {
        let asked = ask_for_link(&app, demo.station_id, email).await;
        assert_eq!(asked.status, StatusCode::OK, "{email}");
        assert_eq!(asked.json(), json!({ "message": SENT }));
    }
    assert!(mails(&db).await.is_empty());

    let malformed = ask_for_link(&app, demo.station_id, "sem-arroba").await;
    assert_eq!(malformed.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(malformed.json(), invalid(&["Email inválido"]));
    let empty = ask_for_link(&app, demo.station_id, " ").await;
    assert_eq!(empty.json(), invalid(&["Esse campo é obrigatório"]));
    let no_station = ask_for_link(&app, 999_999, demo::MEMBER_EMAIL).await;
    assert_eq!(no_station.status, StatusCode::NOT_FOUND);
}

#[testkit::db_test]
async fn one_mail_a_minute_and_a_newer_link_voids_the_older(db: PgPool) {
    let demo = seed(&db).await;
    let app = app(db.clone());

    ask_for_link(&app, demo.station_id, demo::MEMBER_EMAIL).await;
    let second = ask_for_link(&app, demo.station_id, demo::MEMBER_EMAIL).await;
    assert_eq!(second.json(), json!({ "message": SENT }));
    assert_eq!(
        mails(&db).await.len(),
        1,
        "a second request within a minute sends nothing"
    );

    sqlx::query("UPDATE password_resets SET created_at = created_at - interval '61 seconds'")
        .execute(&db)
        .await
        .expect("age the link");
    ask_for_link(&app, demo.station_id, demo::MEMBER_EMAIL).await;
    let sent = mails(&db).await;
    assert_eq!(sent.len(), 2);
    let (older, email) = link_of(&sent[0]);
    let (newer, _) = link_of(&sent[1]);

    let voided = set_new_password(&app, demo.station_id, &older, &email).await;
    assert_eq!(voided.json(), invalid(&[LINK_INVALID]));
    let done = set_new_password(&app, demo.station_id, &newer, &email).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
}

#[testkit::db_test]
async fn a_link_works_only_within_the_hour_for_its_station_and_address(db: PgPool) {
    let demo = seed(&db).await;
    let other_station = common::insert_station(&db, "outro").await;
    let app = app(db.clone());
    ask_for_link(&app, demo.station_id, demo::MEMBER_EMAIL).await;
    let (token, email) = link_of(&mails(&db).await[0]);

    for (station_id, email) in [
        (other_station, email.as_str()),
        (demo.station_id, demo::STAFF_EMAIL),
        (demo.station_id, "ninguem@example.com"),
    ] {
        let answer = set_new_password(&app, station_id, &token, email).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{email}");
        assert_eq!(answer.json(), invalid(&[LINK_INVALID]));
    }
    let forged = set_new_password(&app, demo.station_id, &"ab".repeat(32), &email).await;
    assert_eq!(forged.json(), invalid(&[LINK_INVALID]));

    sqlx::query("UPDATE password_resets SET expires_at = now() - interval '1 second'")
        .execute(&db)
        .await
        .expect("expire");
    let expired = set_new_password(&app, demo.station_id, &token, &email).await;
    assert_eq!(expired.json(), invalid(&[LINK_INVALID]));
    assert_eq!(
        member_login(&app, &demo, demo::MEMBER_PASSWORD).await,
        StatusCode::OK,
        "the password is unchanged"
    );
}

#[testkit::db_test]
async fn the_new_password_follows_the_rule_and_matches_its_confirmation(db: PgPool) {
    let demo = seed(&db).await;
    let app = app(db.clone());
    ask_for_link(&app, demo.station_id, demo::MEMBER_EMAIL).await;
    let (token, email) = link_of(&mails(&db).await[0]);

    let weak = reset(&app, demo.station_id, &token, &email, "fraca", "fraca").await;
    assert_eq!(weak.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        weak.json(),
        invalid(&[
            "Senha precisa ter: uma letra maiúscula, uma letra minúscula, um número e tamanho entre 8 - 20."
        ])
    );
    let differ = reset(
        &app,
        demo.station_id,
        &token,
        &email,
        NEW_PASSWORD,
        "NovaSenha8",
    )
    .await;
    assert_eq!(differ.json(), invalid(&["As senhas não conferem."]));
    let missing = reset(&app, demo.station_id, &token, &email, "", "").await;
    assert_eq!(missing.json(), invalid(&["Esse campo é obrigatório"]));

    let done = set_new_password(&app, demo.station_id, &token, &email).await;
    assert_eq!(
        done.status,
        StatusCode::OK,
        "refusals do not use the link up"
    );
}

#[testkit::db_test]
async fn resetting_activates_a_pending_account(db: PgPool) {
    let demo = seed(&db).await;
    let pending = build::member(demo.station_id)
        .name("Pendente")
        .email("pendente@example.com")
        .inactive()
        .insert(&db)
        .await;
    let app = app(db.clone());

    ask_for_link(&app, demo.station_id, "pendente@example.com").await;
    let (token, email) = link_of(&mails(&db).await[0]);
    let done = set_new_password(&app, demo.station_id, &token, &email).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);

    let active: bool = sqlx::query_scalar("SELECT active FROM users WHERE id = $1")
        .bind(pending)
        .fetch_one(&db)
        .await
        .expect("user");
    assert!(active);
    assert_eq!(
        login(&app, demo.station_id, "pendente@example.com", NEW_PASSWORD).await,
        StatusCode::OK
    );
}
