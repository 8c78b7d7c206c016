//! A state's cities (`GET /states/{uf}/cities`) against a loopback stand-in of an
//! IBGE-localidades-like provider that counts what it is asked: a state's cities are asked
//! once then read from the cache, a code that is not one of the 27 states is never asked, a
//! provider that is down is a 503 unless the state is cached, and lookups are limited per
//! client address.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;

use crate::common::{self, Answer, call};

/// An IBGE stand-in on loopback: its base URL and how many lookups it answered. It knows
/// SP and AC, answers 500 for RJ and an empty list for RR.
async fn ibge_stand_in() -> (String, Arc<AtomicUsize>) {
    use axum::extract::{Path, State};
    use axum::routing::get;
    let asked = Arc::new(AtomicUsize::new(0));
    let app = Router::new()
        .route(
            "/api/v1/localidades/estados/{uf}/municipios",
            get(
                async |State(asked): State<Arc<AtomicUsize>>, Path(uf): Path<String>| {
                    asked.fetch_add(1, Ordering::SeqCst);
                    let region = json!({ "id": 3, "sigla": "SE", "nome": "Sudeste" });
                    match uf.as_str() {
                        "SP" => (
                            StatusCode::OK,
                            axum::Json(json!([
                                { "id": 3550308, "nome": "São Paulo",
                                  "microrregiao": { "id": 35061, "nome": "São Paulo",
                                    "mesorregiao": { "id": 3515, "UF": { "sigla": "SP", "regiao": region } } } },
                                { "id": 3500709, "nome": "Águas de Lindóia" },
                                { "id": 3500105, "nome": "Adamantina" },
                                { "id": 3509502, "nome": "Campinas" }
                            ])),
                        ),
                        "AC" => (
                            StatusCode::OK,
                            axum::Json(json!([{ "id": 1200401, "nome": "Rio Branco" }])),
                        ),
                        "RR" => (StatusCode::OK, axum::Json(json!([]))),
                        _ => (
                            StatusCode::INTERNAL_SERVER_ERROR,
                            axum::Json(json!({ "message": "down" })),
                        ),
                    }
                },
            ),
        )
        .with_state(asked.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}"), asked)
}

async fn cities(app: &Router, uf: &str) -> Answer {
    call(app, "GET", &format!("/api/states/{uf}/cities"), None, &[]).await
}

fn prefix() -> String {
    format!("filia-test:{}:", ulid::Ulid::generate())
}

async fn ttl(prefix: &str, state: &str) -> i64 {
    let client = redis::Client::open(
        std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into()),
    )
    .expect("redis");
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .expect("redis connection");
    redis::cmd("TTL")
        .arg(format!("{prefix}cities:{state}"))
        .query_async(&mut conn)
        .await
        .expect("ttl")
}

#[testkit::db_test]
async fn a_states_cities_are_asked_once_then_read_from_the_cache(db: PgPool) {
    let (url, asked) = ibge_stand_in().await;
    let prefix = prefix();
    let app = common::app_with(
        db.clone(),
        &[("FILIA_IBGE_URL", &url), ("FILIA_REDIS_PREFIX", &prefix)],
    );
    let found = cities(&app, "SP").await;
    assert_eq!(found.status, StatusCode::OK, "{}", found.text);
    assert_eq!(
        found.json(),
        json!([
            { "name": "Adamantina", "ibge": "3500105" },
            { "name": "Águas de Lindóia", "ibge": "3500709" },
            { "name": "Campinas", "ibge": "3509502" },
            { "name": "São Paulo", "ibge": "3550308" }
        ])
    );
    // In lower case: the same state, from the cache.
    let again = cities(&app, "sp").await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json(), found.json());
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    let kept = ttl(&prefix, "SP").await;
    assert!(kept > 7 * 24 * 3600, "{kept}");

    // Not one of the 27: 422 with the form's text, and the provider is not asked.
    for bad in ["XX", "S", "SPP", "12", "s%20p", "%C3%A1", "..", "EX"] {
        let refused = cities(&app, bad).await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad}: {}",
            refused.text
        );
        assert_eq!(refused.json()["messages"], json!(["Estado inválido"]));
    }
    assert_eq!(asked.load(Ordering::SeqCst), 1);
}

#[testkit::db_test]
async fn a_provider_down_is_a_503_unless_the_state_is_cached(db: PgPool) {
    let (url, asked) = ibge_stand_in().await;
    let prefix = prefix();
    let up = common::app_with(
        db.clone(),
        &[("FILIA_IBGE_URL", &url), ("FILIA_REDIS_PREFIX", &prefix)],
    );
    assert_eq!(cities(&up, "AC").await.status, StatusCode::OK);
    // The provider answering 500, or no city at all: nothing is cached, so it is asked again.
    for uf in ["RJ", "RJ", "RR", "RR"] {
        let failed = cities(&up, uf).await;
        assert_eq!(
            failed.status,
            StatusCode::SERVICE_UNAVAILABLE,
            "{uf}: {}",
            failed.text
        );
        assert_eq!(
            failed.json()["error"],
            "Não foi possível carregar as cidades agora. Tente novamente em alguns minutos."
        );
    }
    assert_eq!(asked.load(Ordering::SeqCst), 5);
    // Nobody listening: the cached state still answers, another one cannot.
    let down = common::app_with(
        db.clone(),
        &[
            ("FILIA_IBGE_URL", "http://127.0.0.1:9"),
            ("FILIA_REDIS_PREFIX", &prefix),
        ],
    );
    let cached = cities(&down, "AC").await;
    assert_eq!(cached.status, StatusCode::OK, "{}", cached.text);
    assert_eq!(
        cached.json(),
        json!([{ "name": "Rio Branco", "ibge": "1200401" }])
    );
    let missing = cities(&down, "SP").await;
    assert_eq!(
        missing.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        missing.text
    );
}

#[testkit::db_test]
async fn lookups_are_limited_per_client_address(db: PgPool) {
    let (url, _) = ibge_stand_in().await;
    let app = common::app_with(
        db.clone(),
        &[
            ("FILIA_IBGE_URL", &url),
            ("FILIA_REDIS_PREFIX", &prefix()),
            ("FILIA_CITIES_LOOKUPS_MAX", "2"),
            ("FILIA_TRUST_FORWARDED_FOR", "true"),
        ],
    );
    let from = |ip: &'static str| [("x-forwarded-for", ip)];
    let get = async |ip: &'static str, uf: &str| {
        call(
            &app,
            "GET",
            &format!("/api/states/{uf}/cities"),
            None,
            &from(ip),
        )
        .await
    };
    // Cached answers and refused codes count too.
    assert_eq!(get("203.0.113.7", "SP").await.status, StatusCode::OK);
    assert_eq!(
        get("203.0.113.7", "XX").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let refused = get("203.0.113.7", "SP").await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.text
    );
    assert_eq!(
        refused.json()["messages"],
        json!(["Muitas tentativas. Aguarde alguns minutos e tente novamente."])
    );
    assert!(refused.headers.contains_key("retry-after"));
    // Another address has a count of its own.
    assert_eq!(get("198.51.100.4", "SP").await.status, StatusCode::OK);
}
