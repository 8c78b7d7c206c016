//! The address of a CEP (`POST /get-address-zip-code`) against a loopback stand-in of a
//! ViaCEP-like provider that counts what it is asked: cached answers (found and unknown)
//! are not asked again, a malformed CEP is never asked, a provider that is down is a 503
//! unless the answer is cached, and lookups are limited per member.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::http::StatusCode;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::{self, Answer, send_json};

/// A ViaCEP stand-in on loopback: its base URL and how many lookups it answered.
async fn viacep_stand_in() -> (String, Arc<AtomicUsize>) {
    use axum::extract::{Path, State};
    use axum::routing::get;
    let asked = Arc::new(AtomicUsize::new(0));
    let app = Router::new()
        .route(
            "/ws/{cep}/json/",
            get(
                async |State(asked): State<Arc<AtomicUsize>>, Path(cep): Path<String>| {
                    asked.fetch_add(1, Ordering::SeqCst);
                    match cep.as_str() {
                        "01310100" => (
                            StatusCode::OK,
                            axum::Json(json!({
                                "cep": "01310-100", "logradouro": "Avenida Paulista",
                                "complemento": "de 612 a 1510 - lado par", "unidade": "",
                                "bairro": "Bela Vista", "localidade": "São Paulo", "uf": "SP",
                                "estado": "São Paulo", "ibge": "3550308", "ddd": "11"
                            })),
                        ),
                        "00000000" => (
                            StatusCode::INTERNAL_SERVER_ERROR,
                            axum::Json(json!({ "message": "down" })),
                        ),
                        _ => (StatusCode::OK, axum::Json(json!({ "erro": "true" }))),
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
    (format!("http://{addr}/ws"), asked)
}

async fn lookup(app: &Router, token: Option<&str>, zip_code: Value) -> Answer {
    send_json(
        app,
        "POST",
        "/api/get-address-zip-code",
        token,
        &[],
        &json!({ "zip_code": zip_code }),
    )
    .await
}

async fn ttl(prefix: &str, digits: &str) -> i64 {
    let client = redis::Client::open(
        std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into()),
    )
    .expect("redis");
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .expect("redis connection");
    redis::cmd("TTL")
        .arg(format!("{prefix}cep:{digits}"))
        .query_async(&mut conn)
        .await
        .expect("ttl")
}

fn prefix() -> String {
    format!("filia-test:{}:", ulid::Ulid::generate())
}

#[testkit::db_test]
async fn a_cep_is_looked_up_once_then_read_from_the_cache(db: PgPool) {
    let (_, token) = common::demo_member_session(&db).await;
    let (url, asked) = viacep_stand_in().await;
    let prefix = prefix();
    let app = common::app_with(
        db.clone(),
        &[("FILIA_CEP_URL", &url), ("FILIA_REDIS_PREFIX", &prefix)],
    );
    let found = lookup(&app, Some(&token), json!("01310100")).await;
    assert_eq!(found.status, StatusCode::OK, "{}", found.text);
    assert_eq!(
        found.json(),
        json!({
            "cep": "01310-100", "street": "Avenida Paulista",
            "complement": "de 612 a 1510 - lado par", "neighborhood": "Bela Vista",
            "city": "São Paulo", "state": "SP", "ibge": "3550308"
        })
    );
    // Masked, and asked by a visitor: the same CEP, from the cache.
    let again = lookup(&app, None, json!("01.310-100")).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json(), found.json());
    assert_eq!(asked.load(Ordering::SeqCst), 1);

    // An unknown CEP: 404, cached too, for a shorter time.
    for _ in 0..2 {
        let unknown = lookup(&app, Some(&token), json!("99999-999")).await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.text);
        assert_eq!(unknown.json()["error"], "CEP não encontrado");
    }
    assert_eq!(asked.load(Ordering::SeqCst), 2);
    let (found_ttl, unknown_ttl) = (
        ttl(&prefix, "01310100").await,
        ttl(&prefix, "99999999").await,
    );
    assert!(found_ttl > 24 * 3600, "{found_ttl}");
    assert!((1..=24 * 3600).contains(&unknown_ttl), "{unknown_ttl}");

    // Malformed: 422 with the form's text, and the provider is not asked.
    for bad in [
        json!("0131010"),
        json!("01310-1000"),
        json!("abcdefgh"),
        json!(null),
        json!("../../x"),
    ] {
        let refused = lookup(&app, Some(&token), bad.clone()).await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad}: {}",
            refused.text
        );
        assert_eq!(refused.json()["messages"], json!(["CEP inválido"]));
    }
    assert_eq!(asked.load(Ordering::SeqCst), 2);
}

#[testkit::db_test]
async fn a_provider_down_is_a_503_unless_the_answer_is_cached(db: PgPool) {
    let (_, token) = common::demo_member_session(&db).await;
    let (url, asked) = viacep_stand_in().await;
    let prefix = prefix();
    let up = common::app_with(
        db.clone(),
        &[("FILIA_CEP_URL", &url), ("FILIA_REDIS_PREFIX", &prefix)],
    );
    assert_eq!(
        lookup(&up, Some(&token), json!("01310100")).await.status,
        StatusCode::OK
    );
    // The provider answering 500 for one CEP: nothing is cached for it.
    for _ in 0..2 {
        let failed = lookup(&up, Some(&token), json!("00000000")).await;
        assert_eq!(
            failed.status,
            StatusCode::SERVICE_UNAVAILABLE,
            "{}",
            failed.text
        );
        assert_eq!(
            failed.json()["error"],
            "Não foi possível consultar o CEP agora. Tente novamente em alguns minutos."
        );
    }
    assert_eq!(asked.load(Ordering::SeqCst), 3);
    // Nobody listening: the cached CEP still answers, another one cannot.
    let down = common::app_with(
        db.clone(),
        &[
            ("FILIA_CEP_URL", "http://127.0.0.1:9/ws"),
            ("FILIA_REDIS_PREFIX", &prefix),
        ],
    );
    let cached = lookup(&down, Some(&token), json!("01310100")).await;
    assert_eq!(cached.status, StatusCode::OK, "{}", cached.text);
    assert_eq!(cached.json()["city"], "São Paulo");
    let missing = lookup(&down, Some(&token), json!("88010400")).await;
    assert_eq!(
        missing.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        missing.text
    );
}

#[testkit::db_test]
async fn lookups_are_limited_per_member(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let (url, _) = viacep_stand_in().await;
    let app = common::app_with(
        db.clone(),
        &[("FILIA_CEP_URL", &url), ("FILIA_CEP_LOOKUPS_MAX", "2")],
    );
    for _ in 0..2 {
        assert_eq!(
            lookup(&app, Some(&token), json!("01310100")).await.status,
            StatusCode::OK
        );
    }
    let refused = lookup(&app, Some(&token), json!("01310100")).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.text
    );
    assert!(refused.headers.contains_key("retry-after"));
    // Another member has a count of their own.
    let other = common::insert_member(&db, demo.station_id, "outra@example.com").await;
    let other_token = common::session_of(&db, other).await;
    assert_eq!(
        lookup(&app, Some(&other_token), json!("01310100"))
            .await
            .status,
        StatusCode::OK
    );
}
