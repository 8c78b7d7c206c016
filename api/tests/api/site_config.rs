//! `GET /api/config`: which station a host name belongs to.

use crate::common::{app, app_with, send};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use seed::demo;
use sqlx::PgPool;
use testkit::build;

async fn station_for(app: &axum::Router, host: &str) -> (StatusCode, serde_json::Value) {
    let request = Request::get("/api/config")
        .header("host", host)
        .body(Body::empty())
        .expect("request");
    let answer = send(app, request).await;
    (answer.status, answer.json())
}

async fn other_station(db: &PgPool) -> i64 {
    build::station("azul")
        .custom_host("clube.azul.com.br")
        .insert(db)
        .await
}

#[testkit::db_test]
async fn hosts_resolve_by_custom_host_then_subdomain_then_default(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let azul = other_station(&db).await;
    let app = app(db);

    assert_eq!(
        station_for(&app, "clube.azul.com.br").await.1["station_id"],
        azul
    );
    assert_eq!(
        station_for(&app, "AZUL.filia.app:8443").await.1["station_id"],
        azul
    );
    assert_eq!(
        station_for(&app, "demo.localhost:8080").await.1["station_id"],
        demo.station_id
    );
    assert_eq!(
        station_for(&app, "127.0.0.1:8080").await.1["station_id"],
        demo.station_id
    );
    assert_eq!(
        station_for(&app, "elsewhere.example.com").await.1["station_id"],
        demo.station_id
    );
}

#[testkit::db_test]
async fn the_default_station_can_be_an_id(db: PgPool) {
    let azul = other_station(&db).await;
    let app = app_with(db, &[("FILIA_DEFAULT_STATION", &azul.to_string())]);

    assert_eq!(station_for(&app, "127.0.0.1").await.1["station_id"], azul);
}

#[testkit::db_test]
async fn no_matching_station_answers_404(db: PgPool) {
    let app = app_with(db, &[("FILIA_DEFAULT_STATION", "none")]);

    let (status, body) = station_for(&app, "127.0.0.1").await;

    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"], "Estação não encontrada");
}

#[testkit::db_test]
async fn the_captcha_widget_follows_the_configuration(db: PgPool) {
    demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let off = app_with(db.clone(), &[("FILIA_CAPTCHA", "off")]);
    let (_, body) = station_for(&off, "demo.localhost").await;
    assert_eq!(
        body["captcha"],
        serde_json::json!({"provider": "off", "site_key": null})
    );

    let on = app_with(
        db,
        &[
            ("FILIA_CAPTCHA", "turnstile"),
            ("FILIA_CAPTCHA_SECRET", "server-only-secret"),
            ("FILIA_CAPTCHA_SITE_KEY", "0x4AAAAAAA-site"),
        ],
    );
    let (_, body) = station_for(&on, "demo.localhost").await;
    assert_eq!(
        body["captcha"],
        serde_json::json!({"provider": "turnstile", "site_key": "0x4AAAAAAA-site"})
    );
    assert!(!body.to_string().contains("server-only-secret"));
}

#[testkit::db_test]
async fn the_config_tells_whether_payments_run_on_the_sandbox(db: PgPool) {
    demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let sandbox = app(db.clone());
    let (_, body) = station_for(&sandbox, "127.0.0.1").await;
    assert_eq!(body["payments_sandbox"], true);
    // The sandbox tokenises through our own API: no provider's tokeniser.
    assert_eq!(body["card_tokenizer"], serde_json::Value::Null);

    let key = include_str!("../../../domain/tests/fixtures/pagarme_test_public.pem");
    let pagarme = app_with(
        db,
        &[
            ("FILIA_PAYMENTS", "pagarme"),
            ("FILIA_PAGARME_SECRET_KEY", "sk_test_x"),
            ("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY", key),
            ("FILIA_PAGARME_PUBLIC_KEY", "pk_test_x"),
            ("FILIA_PAGARME_URL", "https://pagarme.example/core/v5"),
        ],
    );
    let (_, body) = station_for(&pagarme, "127.0.0.1").await;
    assert_eq!(body["payments_sandbox"], false);
    // The browser sends a new card straight to Pagar.me with our public key, never the
    // secret one.
    assert_eq!(
        body["card_tokenizer"],
        serde_json::json!({"url": "https://pagarme.example/core/v5/tokens", "app_id": "pk_test_x"})
    );
    assert!(!body.to_string().contains("sk_test_x"));
}

#[testkit::db_test]
async fn the_config_says_when_this_is_a_test_environment(db: PgPool) {
    demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    // The sandbox, staging behind https or not: nothing paid is real.
    for vars in [
        vec![],
        vec![
            ("FILIA_PUBLIC_URL", "https://teste.clube.example"),
            ("FILIA_STAGING", "true"),
        ],
    ] {
        let (status, body) = station_for(&app_with(db.clone(), &vars), "127.0.0.1").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["test_environment"], true, "{vars:?}");
    }

    let key = include_str!("../../../domain/tests/fixtures/pagarme_test_public.pem");
    let pagarme = |secret: &'static str| {
        app_with(
            db.clone(),
            &[
                ("FILIA_PAYMENTS", "pagarme"),
                ("FILIA_PAGARME_SECRET_KEY", secret),
                ("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY", key),
                ("FILIA_PAGARME_PUBLIC_KEY", "pk_test_x"),
            ],
        )
    };
    // Pagar.me's test keys charge nobody either; its live keys do.
    let (_, body) = station_for(&pagarme("sk_test_x"), "127.0.0.1").await;
    assert_eq!(body["test_environment"], true);
    let (_, body) = station_for(&pagarme("sk_live_x"), "127.0.0.1").await;
    assert_eq!(body["test_environment"], false);
}
