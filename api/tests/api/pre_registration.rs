//! The profile's pre-registration change request: `POST /api/pre-registration-change`,
//! recorded and e-mailed to the station, where the station offers it.

use crate::common::{self, app, send_json};
use axum::http::StatusCode;
use serde_json::{Value, json};
use sqlx::PgPool;

const URI: &str = "/api/pre-registration-change";

fn valid() -> Value {
    json!({
        "telefonefixo": "(11) 3333-4444",
        "celular": "(11) 91234-5678",
        "email": "maria.nova@example.com",
        "situacao": "Aposentado",
        "endereco": "Rua Nova, 10 - São Paulo - SP",
    })
}

async fn station_mails(db: &PgPool) -> Vec<Value> {
    sqlx::query_scalar(
        "SELECT convert_from(job, 'UTF8')::jsonb -> 'args' -> 'mail' FROM apalis.jobs
          WHERE job_type = 'mail.send' AND convert_from(job, 'UTF8') LIKE '%alteração cadastral%'",
    )
    .fetch_all(db)
    .await
    .expect("mails")
}

#[testkit::db_test]
async fn a_request_is_recorded_and_mailed_to_the_station(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());

    let answer = send_json(&app, "POST", URI, Some(&token), &[], &valid()).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    assert_eq!(
        answer.json(),
        json!({ "message": "Solicitação enviada com sucesso." })
    );

    let (user_id, email, situacao): (i64, String, String) = sqlx::query_as(
        "SELECT user_id, email, situacao FROM pre_registration_changes WHERE station_id = $1",
    )
    .bind(demo.station_id)
    .fetch_one(&db)
    .await
    .expect("recorded");
    assert_eq!(
        (user_id, email.as_str(), situacao.as_str()),
        (demo.member_id, "maria.nova@example.com", "Aposentado")
    );
    let mails = station_mails(&db).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0]["to"], "contato@demo.filia.com.br");
    let text = mails[0]["text"].as_str().expect("text");
    assert!(text.contains("Maria Demo"), "{text}");
    assert!(text.contains("Situação: Aposentado"), "{text}");

    // Nothing of the account itself changes.
    let stored: Option<String> = sqlx::query_scalar("SELECT email FROM users WHERE id = $1")
        .bind(demo.member_id)
        .fetch_one(&db)
        .await
        .expect("user");
    assert_eq!(stored.as_deref(), Some(seed::demo::MEMBER_EMAIL));
}

#[testkit::db_test]
async fn a_bad_request_lists_every_broken_rule(db: PgPool) {
    let (_, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());

    let empty = send_json(&app, "POST", URI, Some(&token), &[], &json!({})).await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        empty.json(),
        json!({ "messages": ["Esse campo é obrigatório"] })
    );

    let wrong = send_json(
        &app,
        "POST",
        URI,
        Some(&token),
        &[],
        &json!({ "telefonefixo": "123", "email": "sem-arroba", "situacao": "Demitido" }),
    )
    .await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        wrong.json(),
        json!({ "messages": ["Telefone inválido", "Email inválido", "Situação inválida"] })
    );
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM pre_registration_changes")
        .fetch_one(&db)
        .await
        .expect("rows");
    assert_eq!(rows, 0);
    assert!(station_mails(&db).await.is_empty());
}

#[testkit::db_test]
async fn only_stations_that_offer_it_take_requests(db: PgPool) {
    let _ = common::demo_member_session(&db).await;
    let other_station = common::insert_station(&db, "outro").await;
    let outsider = common::insert_member(&db, other_station, "fora@example.com").await;
    let token = common::session_of(&db, outsider).await;
    let app = app(db.clone());

    let answer = send_json(&app, "POST", URI, Some(&token), &[], &valid()).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
    assert_eq!(
        answer.json(),
        json!({ "error": "Esta estação não recebe solicitações de alteração cadastral." })
    );
    let anonymous = send_json(&app, "POST", URI, None, &[], &valid()).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn requests_are_throttled_per_member(db: PgPool) {
    let (_, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    for _ in 0..3 {
        let answer = send_json(&app, "POST", URI, Some(&token), &[], &valid()).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    }
    let refused = send_json(&app, "POST", URI, Some(&token), &[], &valid()).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.headers.contains_key("retry-after"));
    assert_eq!(station_mails(&db).await.len(), 3);
}
