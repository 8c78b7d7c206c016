//! Drives the real router (the one `api serve` runs) against a per-test database.

#![allow(dead_code)]

use std::collections::HashMap;

use api::AppState;
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use domain::Config;
use http_body_util::BodyExt;
use serde_json::Value;
use sqlx::PgPool;
use testkit::build;
use tower::ServiceExt;

/// The configuration of the test process, with some variables overridden. Each call gets
/// a Redis prefix of its own: counters (failed logins, throttles) outlive a test's database
/// and ids repeat across test databases, so a shared prefix would leak one run into the next.
pub fn config_with(overrides: &[(&str, &str)]) -> Config {
    let mut overrides: HashMap<String, String> = overrides
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    overrides
        .entry("FILIA_REDIS_PREFIX".into())
        .or_insert_with(|| format!("filia-test:{}:", ulid::Ulid::generate()));
    // Stored files (profile images, logos) go to the system's temporary folder, not the clone.
    overrides.entry("FILIA_DATA_DIR".into()).or_insert_with(|| {
        std::env::temp_dir()
            .join("filia-api-tests")
            .display()
            .to_string()
    });
    Config::from_lookup(|name| {
        overrides
            .get(name)
            .cloned()
            .or_else(|| std::env::var(name).ok().filter(|v| !v.is_empty()))
    })
    .expect("test configuration")
}

pub fn app(db: PgPool) -> Router {
    app_with(db, &[])
}

pub fn app_with(db: PgPool, overrides: &[(&str, &str)]) -> Router {
    api::app(AppState::new(config_with(overrides), db).expect("state"))
}

#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub text: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text)
            .unwrap_or_else(|err| panic!("not JSON ({err}): {:?}", self.text))
    }
}

pub async fn send(app: &Router, request: Request<Body>) -> Answer {
    let response = app.clone().oneshot(request).await.expect("infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    Answer {
        status,
        headers,
        text: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

pub async fn get(app: &Router, uri: &str) -> Answer {
    send(app, Request::get(uri).body(Body::empty()).expect("request")).await
}

pub async fn post_json(app: &Router, uri: &str, body: &str) -> Answer {
    let request = Request::post(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_owned()))
        .expect("request");
    send(app, request).await
}

/// A request with an optional bearer token and extra headers, and no body.
pub async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
) -> Answer {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    send(app, request.body(Body::empty()).expect("request")).await
}

/// An activated member of `station_id` with no password, for authorization cases.
pub async fn insert_member(db: &PgPool, station_id: i64, email: &str) -> i64 {
    build::member(station_id)
        .name("Outra Pessoa")
        .email(email)
        .insert(db)
        .await
}

/// A second station, besides the demo one.
pub async fn insert_station(db: &PgPool, subdomain: &str) -> i64 {
    build::station(subdomain)
        .name("Outro Clube")
        .url("https://outro.example.com")
        .insert(db)
        .await
}

/// A request with a JSON body, any method, an optional bearer token and extra headers.
pub async fn send_json(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
    body: &Value,
) -> Answer {
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    send(
        app,
        request.body(Body::from(body.to_string())).expect("request"),
    )
    .await
}

/// The demo station, seeded, and a session of its member.
pub async fn demo_member_session(db: &PgPool) -> (seed::demo::DemoStation, String) {
    let demo = seed::demo::seed(db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let token = domain::accounts::session::create(db, demo.member_id)
        .await
        .expect("session");
    (demo, token)
}

/// A new card's payment form with the billing address the form asks (spec 002 section 3).
pub fn with_billing_address(mut payment: serde_json::Value) -> serde_json::Value {
    let address = serde_json::json!({
        "cep": "88.010-400", "street": "Rua Felipe Schmidt", "street_number": "515",
        "city": "Florianópolis", "state": "SC"
    });
    if let (Some(form), Some(fields)) = (payment.as_object_mut(), address.as_object()) {
        form.extend(fields.clone());
    }
    payment
}

/// A session (its bearer token) of `user_id`.
pub async fn session_of(db: &PgPool, user_id: i64) -> String {
    domain::accounts::session::create(db, user_id)
        .await
        .expect("session")
}

/// How many participations activity `action_id` has.
pub async fn participations(db: &PgPool, action_id: i64) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM participations WHERE action_id = $1")
        .bind(action_id)
        .fetch_one(db)
        .await
        .expect("participations")
}

/// How many `points.credit` jobs are queued for activity `action_id`'s participations.
pub async fn credit_jobs(db: &PgPool, action_id: i64) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM apalis.jobs j
          WHERE j.job_type = 'points.credit'
            AND (convert_from(j.job, 'UTF8')::jsonb -> 'args' ->> 'action_id')::bigint = $1",
    )
    .bind(action_id)
    .fetch_one(db)
    .await
    .expect("credit jobs")
}

/// The committed API contract, `docs/openapi.json`.
pub fn contract() -> &'static Value {
    static CONTRACT: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/openapi.json");
        let text = std::fs::read_to_string(path).expect("docs/openapi.json");
        serde_json::from_str(&text).expect("the contract is JSON")
    });
    &CONTRACT
}

/// Why a refusal (a 4xx or 5xx) is not what the contract says operation `method path`
/// (`"get"`, `"/api/users/{id}"`) answers: a status it does not list, or not the error
/// envelope (`{"messages": [...]}` or `{"error": "..."}`) it gives that status. `None` when it is.
pub fn off_contract(method: &str, path: &str, answer: &Answer) -> Option<String> {
    let status = answer.status.as_str();
    let documented = &contract()["paths"][path][method]["responses"][status];
    if !documented.is_object() {
        return Some(format!("{status} is not in its contract: {}", answer.text));
    }
    let content_type = answer
        .headers
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let body = serde_json::from_str::<Value>(&answer.text).unwrap_or_default();
    if !content_type.starts_with("application/json") {
        return Some(format!("{status} {content_type}: {}", answer.text));
    }
    let messages = body["messages"]
        .as_array()
        .is_some_and(|list| !list.is_empty() && list.iter().all(Value::is_string));
    let error = body["error"].is_string();
    let schema = &documented["content"]["application/json"]["schema"];
    let envelopes: Vec<&str> = match schema["oneOf"].as_array() {
        Some(variants) => variants.iter().filter_map(|v| v["$ref"].as_str()).collect(),
        None => schema["$ref"].as_str().into_iter().collect(),
    };
    fn name<'a>(reference: &&'a str) -> &'a str {
        reference.trim_start_matches("#/components/schemas/")
    }
    let fits = |reference: &&str| match name(reference) {
        "Messages" => messages,
        "ErrorMessage" => error,
        // An answer of a shape of its own (a conflict's offsets) is its route's tests' to check.
        _ => true,
    };
    let own_shape = !envelopes.is_empty()
        && envelopes
            .iter()
            .all(|reference| !matches!(name(reference), "Messages" | "ErrorMessage"));
    if !(own_shape || messages || error) {
        return Some(format!(
            "{status} is not the error envelope: {}",
            answer.text
        ));
    }
    if !envelopes.is_empty() && !envelopes.iter().any(fits) {
        let names = envelopes.join(" or ");
        return Some(format!(
            "{status} is not the envelope its contract gives ({names}): {}",
            answer.text
        ));
    }
    None
}

/// The sandbox the app's gateway is (the same database, the same clock).
pub fn sandbox(db: &PgPool) -> payments::sandbox::Sandbox {
    match payments::Gateway::from_config(&config_with(&[]), db.clone()).expect("gateway") {
        payments::Gateway::Sandbox(sandbox) => sandbox,
        payments::Gateway::Pagarme(_) => panic!("the tests run the sandbox"),
    }
}

/// Posts a signed event to the sandbox's webhook endpoint, as the provider does.
pub async fn post_webhook(app: &Router, body: &str, signature: &str) -> Answer {
    let request = Request::post("/api/payments/webhooks/sandbox")
        .header("content-type", "application/json")
        .header(payments::sandbox::SIGNATURE_HEADER, signature)
        .body(Body::from(body.to_owned()))
        .expect("request");
    send(app, request).await
}

/// Posts every due sandbox webhook to the API, each `times` over (the provider delivering an
/// event again), checks each is accepted and marks it delivered. Answers the deliveries.
pub async fn deliver_webhooks(
    app: &Router,
    sandbox: &payments::sandbox::Sandbox,
    times: usize,
) -> Vec<payments::sandbox::WebhookDelivery> {
    let due = sandbox.due_webhooks(1000).await.expect("outbox");
    for delivery in &due {
        for _ in 0..times {
            let answer = post_webhook(app, &delivery.body, &delivery.signature).await;
            assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        }
        sandbox
            .mark_delivered(delivery.id)
            .await
            .expect("delivered");
    }
    due
}

/// Runs the queue's pending jobs through their handler (due ones, or all when `all`), as a
/// worker would, and marks them done. Answers their results.
pub async fn run_jobs<J: jobs::Job + serde::de::DeserializeOwned>(
    db: &PgPool,
    queue: &str,
    all: bool,
) -> Vec<Value> {
    let queued: Vec<(String, Value)> = sqlx::query_as(
        "SELECT id, convert_from(job, 'UTF8')::jsonb FROM apalis.jobs
          WHERE job_type = $1 AND status = 'Pending' AND ($2 OR run_at <= now()) ORDER BY id",
    )
    .bind(queue)
    .bind(all)
    .fetch_all(db)
    .await
    .expect("jobs");
    let services = jobs::Services::new(db.clone(), config_with(&[])).expect("services");
    let mut results = Vec::new();
    for (id, payload) in queued {
        let job: J = serde_json::from_value(payload["args"].clone()).expect("payload");
        let context = jobs::JobContext {
            id: id.clone(),
            attempt: 1,
            worker: "test".into(),
            taken_at: None,
            services: services.clone(),
        };
        results.push(job.run(context).await.expect("job"));
        sqlx::query("UPDATE apalis.jobs SET status = 'Done', done_at = now() WHERE id = $1")
            .bind(&id)
            .execute(db)
            .await
            .expect("done");
    }
    results
}
