//! Every failure answers the error envelope, in Portuguese; never axum's plain text.

use crate::common;
use crate::common::{app, get, post_json, send};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use seed::demo;
use serde_json::json;
use sqlx::PgPool;

const LOGIN: &str = "/api/auth/login/establishment/";

async fn login_url(db: &PgPool) -> String {
    let demo = demo::seed(db, "http://127.0.0.1:8080").await.expect("seed");
    format!("{LOGIN}{}", demo.station_id)
}

#[testkit::db_test]
async fn malformed_json_answers_400(db: PgPool) {
    let url = login_url(&db).await;
    let answer = post_json(&app(db), &url, r#"{"email": "membro@demo"#).await;

    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answer.json(),
        json!({ "messages": ["JSON inválido no corpo da requisição"] })
    );
}

#[testkit::db_test]
async fn a_missing_field_answers_422_naming_it(db: PgPool) {
    let url = login_url(&db).await;
    let answer = post_json(&app(db), &url, r#"{"email": "membro@demo.filia.com.br"}"#).await;

    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        answer.json(),
        json!({ "messages": ["O campo \"password\" é obrigatório"] })
    );
}

#[testkit::db_test]
async fn a_wrong_type_answers_422_naming_the_field(db: PgPool) {
    let url = login_url(&db).await;
    let answer = post_json(&app(db), &url, r#"{"email": "a@b.co", "password": 123}"#).await;

    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        answer.json(),
        json!({ "messages": ["O campo \"password\" tem um valor inválido"] })
    );
}

#[testkit::db_test]
async fn a_body_that_is_not_json_answers_415(db: PgPool) {
    let url = login_url(&db).await;
    let request = Request::post(url)
        .header("content-type", "text/plain")
        .body(Body::from("x"))
        .expect("request");
    let answer = send(&app(db), request).await;

    assert_eq!(answer.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(
        answer.json()["messages"][0]
            .as_str()
            .is_some_and(|m| m.contains("JSON"))
    );
}

#[testkit::db_test]
async fn an_oversized_body_answers_413(db: PgPool) {
    let url = login_url(&db).await;
    let huge = format!(
        r#"{{"email":"a@b.co","password":"{}"}}"#,
        "x".repeat(3 * 1024 * 1024)
    );
    let answer = post_json(&app(db), &url, &huge).await;

    assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(answer.json()["error"].is_string());
}

/// A form route reads `multipart/form-data` only: anything else is 415 saying so, and a form
/// whose boundary cannot be read is 400, both in the envelope (axum answers them in plain
/// English text).
#[testkit::db_test]
async fn a_form_route_refuses_other_bodies_and_unreadable_forms_in_the_envelope(db: PgPool) {
    let (_, token) = common::demo_member_session(&db).await;
    let app = app(db);
    for (content_type, status, message) in [
        (
            "application/json",
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Envie o arquivo em um formulário (Content-Type: multipart/form-data)",
        ),
        (
            "multipart/form-data",
            StatusCode::BAD_REQUEST,
            "Formulário inválido no corpo da requisição",
        ),
        (
            "multipart/form-data; charset=utf-8",
            StatusCode::BAD_REQUEST,
            "Formulário inválido no corpo da requisição",
        ),
    ] {
        let request = Request::post("/api/files/actions")
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", content_type)
            .body(Body::from("{}"))
            .expect("request");
        let answer = send(&app, request).await;

        assert_eq!(answer.status, status, "{content_type}: {}", answer.text);
        assert_eq!(
            answer.json(),
            json!({ "messages": [message] }),
            "{content_type}"
        );
    }
}

/// A route that reads its body as bytes (a payment provider's webhook, whose signature is
/// over the raw body) refuses an oversized one in the envelope too.
#[testkit::db_test]
async fn an_oversized_raw_body_answers_413_in_the_envelope(db: PgPool) {
    let huge = "x".repeat(3 * 1024 * 1024);
    let answer = post_json(&app(db), "/api/payments/webhooks/sandbox", &huge).await;

    assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        answer.json(),
        json!({ "error": "O corpo da requisição é grande demais" })
    );
}

/// PostgreSQL refuses NUL in text: a NUL in a path, a query or a JSON text is refused before
/// any handler reads it, never a 500.
#[testkit::db_test]
async fn a_nul_byte_is_refused_before_it_reaches_the_database(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db);
    for uri in [
        "/api/validator/vouchers/AB%00CD",
        "/api/jobs/01J%00",
        "/api/actions-by-name/?where%5Bname%5D=caf%00e",
    ] {
        let answer = common::call(&app, "GET", uri, Some(&token), &[]).await;
        assert_eq!(
            answer.status,
            StatusCode::BAD_REQUEST,
            "{uri}: {}",
            answer.text
        );
        assert_eq!(
            answer.json(),
            json!({ "messages": ["Parâmetro inválido na URL"] }),
            "{uri}"
        );
    }
    let url = format!("{LOGIN}{}", demo.station_id);
    let answer = post_json(
        &app,
        &url,
        r#"{"email": "membro\u0000@demo", "password": "x"}"#,
    )
    .await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.text
    );
    assert_eq!(
        answer.json(),
        json!({ "messages": ["O campo \"email\" tem um valor inválido"] })
    );
}

#[testkit::db_test]
async fn an_unknown_api_route_answers_404(db: PgPool) {
    let answer = get(&app(db), "/api/no-such-thing").await;

    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.json(), json!({ "error": "Rota não encontrada" }));
}

#[testkit::db_test]
async fn a_wrong_method_answers_405(db: PgPool) {
    let url = login_url(&db).await;
    let answer = get(&app(db), &url).await;

    assert_eq!(answer.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(
        answer.json(),
        json!({ "error": "Método não permitido para esta rota" })
    );
}

#[testkit::db_test]
async fn a_server_failure_answers_500_without_its_cause(db: PgPool) {
    let app = app(db.clone());
    db.close().await;

    let answer = get(&app, "/api/stations/1").await;

    assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(
        answer.json(),
        json!({ "error": "Erro interno no servidor" })
    );
}

#[testkit::db_test]
async fn every_answer_carries_a_request_id(db: PgPool) {
    let answer = get(&app(db), "/api/stations/999").await;

    let id = answer
        .headers
        .get("x-request-id")
        .expect("request id")
        .to_str()
        .expect("ascii");
    assert_eq!(id.len(), 36, "a UUID: {id}");
}

/// Collects what a tracing subscriber writes.
#[derive(Clone, Default)]
struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("log buffer").extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The log lines written while `work` runs.
fn logged(work: impl FnOnce()) -> String {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    tracing::subscriber::with_default(subscriber, work);
    let bytes = captured.0.lock().expect("log buffer").clone();
    String::from_utf8(bytes).expect("utf-8")
}

#[testkit::db_test]
async fn database_errors_are_logged_by_code_without_the_data(db: PgPool) {
    use axum::response::IntoResponse;
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    // A duplicate account: PostgreSQL's detail names the e-mail.
    let duplicate = sqlx::query("INSERT INTO users (station_id, name, email) VALUES ($1, 'X', $2)")
        .bind(demo.station_id)
        .bind(demo::MEMBER_EMAIL)
        .execute(&db)
        .await
        .expect_err("taken");
    // A value that is no number: the message itself quotes it.
    let not_a_number = sqlx::query("SELECT $1::bigint")
        .bind("maria@example.com")
        .execute(&db)
        .await
        .expect_err("not a number");

    for (err, code, secret) in [
        (duplicate, "23505", demo::MEMBER_EMAIL),
        (not_a_number, "22P02", "maria@example.com"),
    ] {
        let context = anyhow::Error::from(err).context("saving the account");
        let log = logged(|| {
            let response = api::error::ApiError::Internal(context).into_response();
            assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        });
        assert!(log.contains("request failed"), "{log}");
        assert!(log.contains(code), "{log}");
        assert!(log.contains("saving the account"), "{log}");
        assert!(!log.contains(secret), "{log}");
    }
}
