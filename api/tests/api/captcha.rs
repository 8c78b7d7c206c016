//! The captcha of public forms, against a loopback server that answers like Cloudflare
//! Turnstile's siteverify.

use crate::common;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use crate::common::{app_with, post_json, send};
use crate::signup_support::*;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::routing::post;
use axum::{Form, Json, Router};
use domain::infra::captcha::{CaptchaVerifier, Turnstile};
use secrecy::SecretString;
use serde_json::{Value, json};
use sqlx::PgPool;

const SECRET: &str = "segredo-de-teste";
const FAILED: &str = "Verificação de segurança inválida. Tente novamente.";

type Seen = Arc<Mutex<Vec<HashMap<String, String>>>>;

/// Passes the token "humano" checked with the right secret; records every form it gets.
pub(crate) async fn fake_turnstile() -> (String, Seen) {
    let seen: Seen = Arc::default();
    let recorder = seen.clone();
    let app = Router::new().route(
        "/siteverify",
        post(move |Form(form): Form<HashMap<String, String>>| {
            let recorder = recorder.clone();
            async move {
                let success = form.get("secret").map(String::as_str) == Some(SECRET)
                    && form.get("response").map(String::as_str) == Some("humano");
                recorder.lock().expect("lock").push(form);
                Json(json!({"success": success, "error-codes": if success { json!([]) } else { json!(["invalid-input-response"]) }}))
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address: SocketAddr = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
    (format!("http://{address}/siteverify"), seen)
}

pub(crate) fn captcha_on(verify_url: &str) -> Vec<(&'static str, String)> {
    vec![
        ("FILIA_CAPTCHA", "turnstile".into()),
        ("FILIA_CAPTCHA_SECRET", SECRET.into()),
        ("FILIA_CAPTCHA_SITE_KEY", "chave-publica".into()),
        ("FILIA_CAPTCHA_VERIFY_URL", verify_url.into()),
        ("FILIA_TRUST_FORWARDED_FOR", "true".into()),
    ]
}

fn app(db: PgPool, vars: &[(&'static str, String)]) -> Router {
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    app_with(db, &vars)
}

fn simple(station_id: i64, cpf: &str, captcha: Value) -> String {
    json!({"station": station_id, "cpf": cpf, "birthday": "1990-01-01 00:00:00", "state": "SP",
           "firstName": "Rui", "lastName": "Lima", "phoneNumber": "(11) 91111-2222",
           "captcha": captcha})
    .to_string()
}

fn messages(answer: &common::Answer) -> Vec<String> {
    serde_json::from_value(answer.json()["messages"].clone()).expect("messages")
}

#[tokio::test]
async fn the_turnstile_verifier_asks_the_provider() {
    let (url, seen) = fake_turnstile().await;
    let verifier = Turnstile::new(SecretString::from(SECRET.to_string()), url);
    let ip = "203.0.113.9".parse().ok();

    assert!(verifier.verify("humano", ip).await.expect("answer"));
    assert!(!verifier.verify("robo", None).await.expect("answer"));
    assert!(!verifier.verify("  ", None).await.expect("no call"));
    let forms = seen.lock().expect("lock").clone();
    assert_eq!(forms.len(), 2, "an empty token is refused without a call");
    assert_eq!(forms[0]["secret"], SECRET);
    assert_eq!(forms[0]["remoteip"], "203.0.113.9");
    assert!(!forms[1].contains_key("remoteip"));

    let down = Turnstile::new(
        SecretString::from(SECRET.to_string()),
        "http://127.0.0.1:9/siteverify".into(),
    );
    assert!(down.verify("humano", None).await.is_err());
}

#[testkit::db_test]
async fn public_forms_need_a_passing_captcha_when_it_is_on(db: PgPool) {
    let (url, seen) = fake_turnstile().await;
    let (station_id, _) = station(
        &db,
        "promo",
        &["promotional = true", "signup_flow = 'simple'"],
    )
    .await;
    let app = app(db.clone(), &captcha_on(&url));

    let robot = post_json(
        &app,
        "/api/auth/signup",
        &simple(station_id, CPF_A, json!("robo")),
    )
    .await;
    assert_eq!(robot.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(messages(&robot), [FAILED]);
    let missing = post_json(
        &app,
        "/api/auth/signup",
        &simple(station_id, CPF_A, Value::Null),
    )
    .await;
    assert_eq!(messages(&missing), [FAILED]);

    let request = Request::post("/api/auth/signup")
        .header("content-type", "application/json")
        .header("x-forwarded-for", "198.51.100.7")
        .body(Body::from(simple(station_id, CPF_A, json!("humano"))))
        .expect("request");
    let human = send(&app, request).await;
    assert_eq!(human.status, StatusCode::CREATED, "{}", human.text);
    let last = seen.lock().expect("lock").last().cloned().expect("a call");
    assert_eq!(last["remoteip"], "198.51.100.7");

    let promo = with(
        participant(station_id, "promo@example.com"),
        json!({"birthday": "1990-01-01", "state": "SP", "city": "Santos", "captcha": "robo"}),
    );
    let promo_robot = post_json(&app, "/api/auth/signup-participant", &promo.to_string()).await;
    assert_eq!(messages(&promo_robot), [FAILED]);
    let promo_human = post_json(
        &app,
        "/api/auth/signup-participant",
        &with(promo, json!({"captcha": "humano"})).to_string(),
    )
    .await;
    assert_eq!(
        promo_human.status,
        StatusCode::CREATED,
        "{}",
        promo_human.text
    );

    let company = json!({
        "name": "Carla", "email": "carla@empresa.com.br", "password": PASSWORD,
        "password_confirmation": PASSWORD, "cnpj": CNPJ, "prettyName": "Empresa",
        "subdomain": "empresa", "main_brand_color": "#123456", "captcha": "robo",
    });
    let admin_robot = post_json(&app, "/api/auth/signup-admin", &company.to_string()).await;
    assert_eq!(messages(&admin_robot), [FAILED]);
    let admin_human = post_json(
        &app,
        "/api/auth/signup-admin",
        &with(company, json!({"captcha": "humano"})).to_string(),
    )
    .await;
    assert_eq!(
        admin_human.status,
        StatusCode::CREATED,
        "{}",
        admin_human.text
    );

    let accounts: i64 = sqlx::query_scalar("SELECT count(*) FROM users")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(accounts, 3, "only the human sign-ups created accounts");
}

#[testkit::db_test]
async fn an_unreachable_provider_fails_the_form_safely(db: PgPool) {
    let (station_id, _) = station(&db, "clube", &["signup_flow = 'simple'"]).await;
    let app = app(db, &captcha_on("http://127.0.0.1:9/siteverify"));
    let answer = post_json(
        &app,
        "/api/auth/signup",
        &simple(station_id, CPF_A, json!("humano")),
    )
    .await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(messages(&answer), [FAILED]);
}

#[testkit::db_test]
async fn with_the_captcha_off_no_token_is_needed(db: PgPool) {
    let (station_id, _) = station(&db, "clube", &["signup_flow = 'simple'"]).await;
    let app = app(db, &[("FILIA_CAPTCHA", "off".into())]);
    for (cpf, captcha) in [(CPF_A, Value::Null), (CPF_B, json!("qualquer"))] {
        let answer = post_json(&app, "/api/auth/signup", &simple(station_id, cpf, captcha)).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    }
}
