//! `/healthz`, `/readyz` and `/metrics`.

use crate::common;
use crate::common::{app, app_with, call, get};
use axum::http::StatusCode;
use sqlx::PgPool;

#[testkit::db_test]
async fn healthz_answers_while_the_process_lives(db: PgPool) {
    let answer = get(&app(db), "/healthz").await;
    assert_eq!(answer.status, StatusCode::OK);
}

#[testkit::db_test]
async fn readyz_answers_200_when_postgres_and_redis_answer(db: PgPool) {
    let answer = get(&app(db), "/readyz").await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(
        answer.json()["checks"],
        serde_json::json!({ "postgres": "ok", "redis": "ok" })
    );
}

#[testkit::db_test]
async fn readyz_answers_503_when_redis_is_down(db: PgPool) {
    // Port 1 on loopback: nothing listens there, as with a stopped Redis.
    let app = app_with(db, &[("REDIS_URL", "redis://127.0.0.1:1")]);

    let answer = get(&app, "/readyz").await;

    assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
    let body = answer.json();
    assert_eq!(
        body["checks"],
        serde_json::json!({ "postgres": "ok", "redis": "unavailable" })
    );
    assert_eq!(body["error"], "Serviço indisponível");
}

#[testkit::db_test]
async fn readyz_answers_503_when_postgres_is_down(db: PgPool) {
    let app = app(db.clone());
    db.close().await;

    let answer = get(&app, "/readyz").await;

    assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(answer.json()["checks"]["postgres"], "unavailable");
}

const TOKEN: &str = "segredo-das-metricas";

#[testkit::db_test]
async fn metrics_count_requests_by_route_pattern_and_status(db: PgPool) {
    let app = app_with(db, &[("FILIA_METRICS_TOKEN", TOKEN)]);
    get(&app, "/api/stations/424242").await;
    get(&app, "/api/stations/434343").await;

    let answer = call(&app, "GET", "/metrics", Some(TOKEN), &[]).await;

    assert_eq!(answer.status, StatusCode::OK);
    assert!(
        answer.text.contains(
            r#"http_requests_total{method="GET",route="/api/stations/{id}",status="404"} 2"#
        ),
        "{}",
        answer.text
    );
    assert!(answer.text.contains(
        "http_request_duration_seconds_bucket{method=\"GET\",route=\"/api/stations/{id}\""
    ));
    assert!(
        !answer.text.contains("424242"),
        "raw paths must not become labels"
    );
}

#[testkit::db_test]
async fn metrics_are_not_served_publicly_unless_configured(db: PgPool) {
    let answer = get(&app(db), "/metrics").await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.json()["error"], "Rota não encontrada");
}

#[testkit::db_test]
async fn metrics_with_a_token_need_it_as_bearer(db: PgPool) {
    let app = app_with(db, &[("FILIA_METRICS_TOKEN", TOKEN)]);
    for token in [None, Some("outro"), Some("")] {
        let answer = call(&app, "GET", "/metrics", token, &[]).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{token:?}");
        assert!(!answer.text.contains("http_requests_total"));
    }
    let answer = call(&app, "GET", "/metrics", Some(TOKEN), &[]).await;
    assert_eq!(answer.status, StatusCode::OK);
}

#[testkit::db_test]
async fn metrics_with_their_own_address_are_served_only_there(db: PgPool) {
    let config = common::config_with(&[("FILIA_METRICS_BIND", "127.0.0.1:9187")]);
    let state = api::AppState::new(config, db).expect("state");
    let public = api::app(state.clone());
    let private = api::metrics_app(state);
    get(&public, "/api/stations/424242").await;

    assert_eq!(get(&public, "/metrics").await.status, StatusCode::NOT_FOUND);
    let answer = get(&private, "/metrics").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(
        answer.text.contains("route=\"/api/stations/{id}\""),
        "{}",
        answer.text
    );
    assert_eq!(
        get(&private, "/healthz").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get(&private, "/api/config").await.status,
        StatusCode::NOT_FOUND
    );
}
