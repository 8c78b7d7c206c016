//! Saved cards over HTTP (`POST /user-credit-cards`, `GET /user-credit-cards/{id}`) against
//! the sandbox, and Pagar.me's customer and card wallet against a loopback stand-in; the
//! sandbox's shared clock (`POST /sandbox/clock`).

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};
use domain::commerce::gateway::PaymentGateway;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::{self, Answer, call, send_json};

const CARD_REFUSED: &str =
    "Não foi possível usar este cartão. Confira os dados ou use outro cartão.";

async fn post(app: &Router, uri: &str, token: &str, body: Value) -> Answer {
    send_json(app, "POST", uri, Some(token), &[], &body).await
}

/// A sandbox token for `number` (the browser's tokeniser in the demo).
async fn card_token(app: &Router, token: &str, number: &str) -> String {
    let answer = post(
        app,
        "/api/sandbox/card-tokens",
        token,
        json!({ "number": number, "holder_name": "MARIA DEMO", "expiry": "12/30", "cvv": "123" }),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer.json()["card_token"]
        .as_str()
        .expect("token")
        .to_string()
}

/// The credit card form with a card token.
fn form(card_token: &str) -> Value {
    json!({
        "card_token": card_token, "name": "Maria Demo", "cpf": "529.982.247-25",
        "birthday": "10/05/1990", "phone": "(48) 99999-8888", "cep": "88.010-400",
        "street": "Rua Felipe Schmidt", "street_number": "515", "city": "Florianópolis",
        "state": "SC"
    })
}

async fn cards_of(app: &Router, token: &str, user_id: i64) -> Answer {
    call(
        app,
        "GET",
        &format!("/api/user-credit-cards/{user_id}"),
        Some(token),
        &[],
    )
    .await
}

async fn saved_cards(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM saved_cards")
        .fetch_one(db)
        .await
        .expect("count")
}

#[testkit::db_test]
async fn a_member_saves_a_tokenised_card_and_lists_it_with_its_expiry(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = common::app(db.clone());
    let before = saved_cards(&db).await;
    let card = card_token(&app, &token, "4000000000000010").await;
    let saved = post(&app, "/api/user-credit-cards", &token, form(&card)).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let body = saved.json();
    assert_eq!(
        (
            &body["brand"],
            &body["last_digits"],
            &body["issuing"],
            &body["expiration_date"]
        ),
        (
            &json!("visa"),
            &json!("0010"),
            &json!("visa"),
            &json!("12/30")
        )
    );
    let id = body["id"].as_i64().expect("id");

    let listed = cards_of(&app, &token, demo.member_id).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    let listed = listed.json();
    let mine = listed
        .as_array()
        .expect("list")
        .iter()
        .find(|c| c["id"] == json!(id))
        .cloned()
        .expect("listed");
    assert_eq!(mine, body);

    // The same card again: the same row.
    let again = post(&app, "/api/user-credit-cards", &token, form(&card)).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json()["id"], json!(id));
    assert_eq!(saved_cards(&db).await, before + 1);

    // Another member cannot list them, nor take the card by its token.
    let other = common::insert_member(&db, demo.station_id, "outra@example.com").await;
    let other_token = common::session_of(&db, other).await;
    assert_eq!(
        cards_of(&app, &other_token, demo.member_id).await.status,
        StatusCode::FORBIDDEN
    );
    let taken = post(&app, "/api/user-credit-cards", &other_token, form(&card)).await;
    assert_eq!(
        taken.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        taken.text
    );
    assert_eq!(taken.json()["messages"], json!([CARD_REFUSED]));
    let others = cards_of(&app, &other_token, other).await;
    assert_eq!(others.json(), json!([]));
    assert_eq!(saved_cards(&db).await, before + 1);

    // The saved card pays: charged off-session at the sandbox by its id.
    let gateway_id: String =
        sqlx::query_scalar("SELECT gateway_card_id FROM saved_cards WHERE id = $1")
            .bind(id)
            .fetch_one(&db)
            .await
            .expect("gateway id");
    assert!(gateway_id.starts_with("card_"), "{gateway_id}");
}

#[testkit::db_test]
async fn a_card_the_sandbox_declines_or_does_not_know_is_not_saved(db: PgPool) {
    let (_, token) = common::demo_member_session(&db).await;
    let app = common::app(db.clone());
    let before = saved_cards(&db).await;
    let declined = card_token(&app, &token, "4000000000000028").await;
    for card in [declined.as_str(), "tok_nobody"] {
        let refused = post(&app, "/api/user-credit-cards", &token, form(card)).await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.text
        );
        assert_eq!(refused.json()["messages"], json!([CARD_REFUSED]));
    }
    assert_eq!(saved_cards(&db).await, before);
}

#[testkit::db_test]
async fn bad_card_forms_are_refused_with_the_forms_texts(db: PgPool) {
    let (_, token) = common::demo_member_session(&db).await;
    let app = common::app(db.clone());
    let messages = async |body: Value| {
        let answer = post(&app, "/api/user-credit-cards", &token, body).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            answer.text
        );
        answer.json()["messages"].clone()
    };
    assert_eq!(
        messages(json!({})).await,
        json!([
            "Informe os dados do cartão.",
            "Informe o nome do titular do cartão.",
            "CPF inválido",
            "Informe o endereço de cobrança do cartão."
        ])
    );
    let mut raw = form("tok_x");
    raw["number"] = json!("4000000000000010");
    assert_eq!(
        messages(raw).await,
        json!(["Os dados do cartão devem ser enviados pelo tokenizador do meio de pagamento."])
    );
    for (field, value, text) in [
        ("cpf", "111.111.111-11", "CPF inválido"),
        ("birthday", "31/02/1990", "Data Inválida!"),
        ("cep", "8801040", "CEP inválido"),
        ("city", "CEP inválido", "CEP inválido"),
        ("state", "XX", "Estado inválido"),
        ("street", " ", "Informe o endereço de cobrança do cartão."),
    ] {
        let mut body = form("tok_x");
        body[field] = json!(value);
        assert_eq!(messages(body).await, json!([text]), "{field}");
    }
    let mut long = form("tok_x");
    long["street"] = json!("R".repeat(201));
    assert_eq!(
        messages(long).await,
        json!(["Endereço de cobrança longo demais."])
    );
    // Signed out: nothing read.
    let anonymous = send_json(
        &app,
        "POST",
        "/api/user-credit-cards",
        None,
        &[],
        &form("tok_x"),
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert_eq!(saved_cards(&db).await, 0);
}

#[testkit::db_test]
async fn support_staff_move_the_shared_clock_for_every_process(db: PgPool) {
    let (demo, member) = common::demo_member_session(&db).await;
    let app = common::app(db.clone());
    let support = common::session_of(&db, demo.staff_id).await;
    let viewer = common::session_of(&db, demo.viewer_id).await;
    let advance = json!({ "advance_days": 31 });
    for (token, status) in [
        (Some(member.as_str()), StatusCode::FORBIDDEN),
        (Some(viewer.as_str()), StatusCode::FORBIDDEN),
        (None, StatusCode::FORBIDDEN),
    ] {
        let answer = send_json(&app, "POST", "/api/sandbox/clock", token, &[], &advance).await;
        assert_eq!(answer.status, status, "{}", answer.text);
    }
    for days in [json!(0), json!(401), json!(1.5), json!("x"), Value::Null] {
        let answer = post(
            &app,
            "/api/sandbox/clock",
            &support,
            json!({ "advance_days": days }),
        )
        .await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{days}: {}",
            answer.text
        );
    }
    // Support staff of one station do not move every station's time.
    let scoped: i64 = sqlx::query_scalar(
        "INSERT INTO users (station_id, name, email, password_hash, type_id, role)
         SELECT station_id, 'Equipe Local', 'local@demo.test', password_hash, 1, 'staff'
           FROM users WHERE id = $1 RETURNING id",
    )
    .bind(demo.staff_id)
    .fetch_one(&db)
    .await
    .expect("scoped staff");
    sqlx::query(
        "INSERT INTO staff_grants (user_id, role, station_id)
         SELECT $1, 'support', station_id FROM users WHERE id = $1",
    )
    .bind(scoped)
    .execute(&db)
    .await
    .expect("scoped grant");
    let local = common::session_of(&db, scoped).await;
    let refused = post(&app, "/api/sandbox/clock", &local, advance.clone()).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    // A gateway of another process (a worker) reads the moved clock.
    let worker =
        payments::Gateway::from_config(&common::config_with(&[]), db.clone()).expect("gateway");
    let before = worker.now().await.expect("now");
    let moved = post(&app, "/api/sandbox/clock", &support, advance.clone()).await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.text);
    let now: DateTime<Utc> = serde_json::from_value(moved.json()["now"].clone()).expect("a time");
    assert!(now - before >= Duration::days(31), "{before} {now}");
    let seen = worker.now().await.expect("now");
    assert!(
        seen >= now && seen - now < Duration::seconds(5),
        "{seen} {now}"
    );
}

#[testkit::db_test]
async fn the_clock_is_absent_with_pagarme(db: PgPool) {
    let (demo, _) = common::demo_member_session(&db).await;
    let settings = pagarme_settings("http://127.0.0.1:9/core/v5");
    let app = common::app_with(db.clone(), &as_pairs(&settings));
    let support = common::session_of(&db, demo.staff_id).await;
    let answer = post(
        &app,
        "/api/sandbox/clock",
        &support,
        json!({ "advance_days": 31 }),
    )
    .await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
    let offset: i64 = sqlx::query_scalar("SELECT offset_seconds FROM sandbox_clock")
        .fetch_one(&db)
        .await
        .expect("offset");
    assert_eq!(offset, 0);
}

fn pagarme_settings(url: &str) -> Vec<(&'static str, String)> {
    let key = include_str!("../../../domain/tests/fixtures/pagarme_test_public.pem");
    vec![
        ("FILIA_PAYMENTS", "pagarme".into()),
        ("FILIA_PAGARME_URL", url.into()),
        ("FILIA_PAGARME_SECRET_KEY", "sk_test_x".into()),
        ("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY", key.into()),
        ("FILIA_PAGARME_PUBLIC_KEY", "pk_test_x".into()),
    ]
}

fn as_pairs<'a>(settings: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    settings.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

/// What a stand-in of Pagar.me's customer and card API was asked: (path, body).
type Asked = Arc<Mutex<Vec<(String, Value)>>>;

#[testkit::db_test]
async fn with_pagarme_the_member_is_made_a_customer_once(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let (url, asked) = pagarme_stand_in(0).await;
    let settings = pagarme_settings(&url);
    let app = common::app_with(db.clone(), &as_pairs(&settings));

    let first = post(&app, "/api/user-credit-cards", &token, form("tok_one")).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(
        (&first.json()["brand"], &first.json()["expiration_date"]),
        (&json!("visa"), &json!("08/31"))
    );
    let second = post(&app, "/api/user-credit-cards", &token, form("tok_two")).await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text);
    assert_ne!(first.json()["id"], second.json()["id"]);

    assert_eq!(
        asked_paths(&asked),
        [
            "POST /customers",
            "POST /customers/cus_0000000000000001/cards",
            "POST /customers/cus_0000000000000001/cards"
        ]
    );
    let asked = asked.lock().expect("lock").clone();
    // The customer is the card's holder as the form gave it.
    assert_eq!(asked[0].1["document"], "52998224725");
    assert_eq!(asked[0].1["name"], "Maria Demo");
    assert_eq!(asked[1].1["token"], "tok_one");
    let (customer, cards): (String, i64) = sqlx::query_as(
        "SELECT c.customer_id, (SELECT count(*) FROM saved_cards s
                                 WHERE s.user_id = c.user_id AND s.provider = 'pagarme')
           FROM payment_customers c WHERE c.user_id = $1 AND c.provider = 'pagarme'",
    )
    .bind(demo.member_id)
    .fetch_one(&db)
    .await
    .expect("customer");
    assert_eq!((customer.as_str(), cards), ("cus_0000000000000001", 2));
    let listed = cards_of(&app, &token, demo.member_id).await.json();
    assert_eq!(listed.as_array().map(Vec::len), Some(2));
}

#[testkit::db_test]
async fn the_same_card_saved_eight_times_at_once_is_one_card(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = common::app(db.clone());
    let card = card_token(&app, &token, "5555444433331111").await;
    let saves = (0..8).map(|_| post(&app, "/api/user-credit-cards", &token, form(&card)));
    let answers = futures_util::future::join_all(saves).await;
    let mut ids: Vec<Value> = answers
        .iter()
        .map(|answer| {
            assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
            answer.json()["id"].clone()
        })
        .collect();
    ids.dedup();
    assert_eq!(ids.len(), 1, "{ids:?}");
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM saved_cards WHERE user_id = $1")
        .bind(demo.member_id)
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(rows, 1);
}

async fn remove(app: &Router, token: &str, card_id: &Value) -> Answer {
    call(
        app,
        "DELETE",
        &format!("/api/user-credit-cards/{card_id}"),
        Some(token),
        &[],
    )
    .await
}

async fn make_default(app: &Router, token: &str, card_id: &Value) -> Answer {
    call(
        app,
        "PUT",
        &format!("/api/user-credit-cards/{card_id}/default"),
        Some(token),
        &[],
    )
    .await
}

/// Saves a sandbox card numbered `number` for the member of `token`: its listed answer.
async fn saved(app: &Router, token: &str, number: &str) -> Value {
    let card = card_token(app, token, number).await;
    let answer = post(app, "/api/user-credit-cards", token, form(&card)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer.json()
}

fn ids(list: &Value) -> Vec<(Value, Value)> {
    list.as_array()
        .expect("list")
        .iter()
        .map(|card| (card["id"].clone(), card["is_default"].clone()))
        .collect()
}

#[testkit::db_test]
async fn a_member_chooses_the_default_and_removes_cards_for_good(db: PgPool) {
    let (demo, _) = common::demo_member_session(&db).await;
    let app = common::app(db.clone());
    // A member of their own, without the demo's subscription cards.
    let member = common::insert_member(&db, demo.station_id, "cartoes@example.com").await;
    let token = common::session_of(&db, member).await;
    let first = saved(&app, &token, "4000000000000010").await;
    assert_eq!(
        first["is_default"],
        json!(true),
        "the first card is the default"
    );
    let second = saved(&app, &token, "5555444433331111").await;
    assert_eq!(second["is_default"], json!(false));
    let (first_id, second_id) = (first["id"].clone(), second["id"].clone());

    let chosen = make_default(&app, &token, &second_id).await;
    assert_eq!(chosen.status, StatusCode::OK, "{}", chosen.text);
    assert_eq!(
        ids(&chosen.json()),
        [
            (second_id.clone(), json!(true)),
            (first_id.clone(), json!(false))
        ]
    );

    // Another member's card is not there for them: not removed, not chosen.
    let other = common::insert_member(&db, demo.station_id, "outra@example.com").await;
    let other_token = common::session_of(&db, other).await;
    for answer in [
        remove(&app, &other_token, &second_id).await,
        make_default(&app, &other_token, &second_id).await,
    ] {
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
        assert_eq!(answer.json()["error"], "Cartão não encontrado");
    }

    // Removing the default: gone from the list, the other card is the default now.
    let removed = remove(&app, &token, &second_id).await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.text);
    assert_eq!(ids(&removed.json()), [(first_id.clone(), json!(true))]);
    assert_eq!(
        ids(&cards_of(&app, &token, member).await.json()),
        [(first_id.clone(), json!(true))]
    );
    // Deleted at the provider too: the sandbox refuses charges of it.
    let at_sandbox: bool = sqlx::query_scalar(
        "SELECT s.saved FROM sandbox_cards s JOIN saved_cards c ON c.gateway_card_id = s.id
          WHERE c.id = $1",
    )
    .bind(second_id.as_i64())
    .fetch_one(&db)
    .await
    .expect("sandbox card");
    assert!(!at_sandbox);
    // Once only: a removed card is not found again, nor made the default.
    assert_eq!(
        remove(&app, &token, &second_id).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        make_default(&app, &token, &second_id).await.status,
        StatusCode::NOT_FOUND
    );
    // The last card removed eight times at once: removed once, the others find nothing.
    let removals = (0..8).map(|_| remove(&app, &token, &first_id));
    let answers = futures_util::future::join_all(removals).await;
    let statuses: Vec<StatusCode> = answers.iter().map(|answer| answer.status).collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == StatusCode::OK).count(),
        1,
        "{statuses:?}"
    );
    assert!(
        statuses
            .iter()
            .all(|s| *s == StatusCode::OK || *s == StatusCode::NOT_FOUND)
    );
    assert_eq!(cards_of(&app, &token, member).await.json(), json!([]));
    // Signed out: nothing.
    let anonymous = call(&app, "DELETE", "/api/user-credit-cards/1", None, &[]).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn the_card_of_a_live_subscription_is_not_removed(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = common::app(db.clone());
    // A plan bought with a new card, kept among the member's cards.
    let plan_id: i64 = sqlx::query_scalar(
        "INSERT INTO plans (station_id, name, description, amount, discount, days)
         VALUES ($1, 'Essencial', 'Plano do clube', 2990, 0, 30) RETURNING id",
    )
    .bind(demo.station_id)
    .fetch_one(&db)
    .await
    .expect("plan");
    let bought = post(
        &app,
        "/api/subscriptions",
        &token,
        json!({
            "plan_id": plan_id, "card_number": "4000000000000010",
            "card_holder_name": "MARIA DEMO", "card_expiration_date": "09/31", "card_cvv": "123",
            "cpf": "529.982.247-25", "birthday": "1990-05-17", "phone": "(48) 9 9999-8888",
            "zipcode": "88.010-400", "street": "Rua Felipe Schmidt", "street_number": "515",
            "neighborhood": "Centro", "state": "SC", "city": "Florianópolis", "save": true
        }),
    )
    .await;
    assert_eq!(bought.status, StatusCode::CREATED, "{}", bought.text);
    let (card_id, subscription_id): (i64, i64) = sqlx::query_as(
        "SELECT saved_card_id, id FROM subscriptions
          WHERE user_id = $1 AND plan_id = $2 AND status = 'active'",
    )
    .bind(demo.member_id)
    .bind(plan_id)
    .fetch_one(&db)
    .await
    .expect("the plan's card");
    let refused = remove(&app, &token, &json!(card_id)).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    assert_eq!(
        refused.json()["error"],
        "Este cartão paga a sua assinatura Essencial. Cadastre outro cartão na assinatura antes de removê-lo."
    );
    let listed = cards_of(&app, &token, demo.member_id).await.json();
    assert!(
        ids(&listed).iter().any(|(id, _)| *id == json!(card_id)),
        "{listed}"
    );

    // A removed card is never given to a live subscription, however the two race.
    let spare = saved(&app, &token, "5555444433331111").await;
    let removed = remove(&app, &token, &spare["id"]).await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.text);
    let given = sqlx::query("UPDATE subscriptions SET saved_card_id = $2 WHERE id = $1")
        .bind(subscription_id)
        .bind(spare["id"].as_i64())
        .execute(&db)
        .await;
    let err = given.expect_err("a removed card refused");
    assert!(err.to_string().contains("was removed"), "{err}");
}

/// Pagar.me's customer, card, card removal and order API on loopback: each request's
/// method and path with its body, in order. The first `delete_failures` card removals
/// answer 500.
async fn pagarme_stand_in(delete_failures: usize) -> (String, Asked) {
    use axum::extract::{Path, State};
    use axum::routing::{delete, post};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let asked: Asked = Arc::default();
    let failures = Arc::new(AtomicUsize::new(delete_failures));
    let app = Router::new()
        .route(
            "/core/v5/customers",
            post(
                async |State(asked): State<Asked>, axum::Json(body): axum::Json<Value>| {
                    asked
                        .lock()
                        .expect("lock")
                        .push(("POST /customers".into(), body));
                    axum::Json(json!({ "id": "cus_0000000000000001" }))
                },
            ),
        )
        .route(
            "/core/v5/customers/{id}/cards",
            post(
                async |State(asked): State<Asked>,
                       Path(customer): Path<String>,
                       axum::Json(body): axum::Json<Value>| {
                    let mut asked = asked.lock().expect("lock");
                    // A card token is single use: a second save with it is refused.
                    let used = asked.iter().any(|(path, earlier)| {
                        path.ends_with("/cards") && earlier["token"] == body["token"]
                    });
                    asked.push((format!("POST /customers/{customer}/cards"), body));
                    if used {
                        return (
                            StatusCode::UNPROCESSABLE_ENTITY,
                            axum::Json(json!({
                                "message": "The request is invalid.",
                                "errors": { "card.token": ["The token has already been used."] }
                            })),
                        );
                    }
                    (
                        StatusCode::OK,
                        axum::Json(json!({
                            "id": format!("card_{:016}", asked.len()), "brand": "Visa",
                            "last_four_digits": "4242", "exp_month": 8, "exp_year": 2031,
                            "status": "active"
                        })),
                    )
                },
            ),
        )
        .route(
            "/core/v5/customers/{id}/cards/{card}",
            delete(
                async move |State(asked): State<Asked>,
                            Path((customer, card)): Path<(String, String)>| {
                    asked.lock().expect("lock").push((
                        format!("DELETE /customers/{customer}/cards/{card}"),
                        Value::Null,
                    ));
                    let failing = failures
                        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                        .is_ok();
                    if failing {
                        return (
                            StatusCode::INTERNAL_SERVER_ERROR,
                            axum::Json(json!({ "message": "An error has occurred." })),
                        );
                    }
                    (
                        StatusCode::OK,
                        axum::Json(json!({ "id": card, "status": "deleted" })),
                    )
                },
            ),
        )
        .route(
            "/core/v5/orders",
            post(
                async |State(asked): State<Asked>, axum::Json(body): axum::Json<Value>| {
                    let amount = body.pointer("/items/0/amount").cloned().unwrap_or_default();
                    let code = body["code"].clone();
                    asked.lock().expect("lock").push(("POST /orders".into(), body));
                    axum::Json(json!({ "id": "or_1", "code": code, "status": "paid", "charges": [{
                        "id": "ch_0000000000000001", "code": code, "amount": amount,
                        "paid_amount": amount, "status": "paid", "payment_method": "credit_card",
                        "paid_at": "2026-11-26T12:00:05Z",
                        "last_transaction": { "id": "tran_1", "status": "captured", "amount": amount }
                    }]}))
                },
            ),
        )
        .with_state(asked.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/core/v5"), asked)
}

fn asked_paths(asked: &Asked) -> Vec<String> {
    asked
        .lock()
        .expect("lock")
        .iter()
        .map(|(path, _)| path.clone())
        .collect()
}

#[testkit::db_test]
async fn with_pagarme_a_removed_card_is_deleted_from_its_customer(db: PgPool) {
    let (demo, _) = common::demo_member_session(&db).await;
    let member = common::insert_member(&db, demo.station_id, "cartoes@example.com").await;
    let token = common::session_of(&db, member).await;
    let (url, asked) = pagarme_stand_in(0).await;
    let settings = pagarme_settings(&url);
    let app = common::app_with(db.clone(), &as_pairs(&settings));
    let card = post(&app, "/api/user-credit-cards", &token, form("tok_one")).await;
    assert_eq!(card.status, StatusCode::OK, "{}", card.text);
    let removed = remove(&app, &token, &card.json()["id"]).await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.text);
    assert_eq!(removed.json(), json!([]));
    assert_eq!(
        asked_paths(&asked),
        [
            "POST /customers",
            "POST /customers/cus_0000000000000001/cards",
            "DELETE /customers/cus_0000000000000001/cards/card_0000000000000002",
        ]
    );
    // Deleted at once: its job, when it runs, asks nothing more.
    let card_id = card.json()["id"].as_i64().expect("id");
    assert!(deleted_at_provider(&db, card_id).await);
    let results = run_card_deletes(&db, &as_pairs(&settings)).await;
    assert_eq!(results, [json!({ "card_id": card_id, "deleted": false })]);
    assert_eq!(asked_paths(&asked).len(), 3);
}

/// A digital product of R$ 50,00 on sale at the demo station: (action, product).
async fn product(db: &PgPool, station_id: i64) -> (i64, i64) {
    let action_id: i64 = sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, points, digital_product, payment_option)
         VALUES ($1, 14, 'Loja do clube', 2, true, 'payment_only') RETURNING id",
    )
    .bind(station_id)
    .fetch_one(db)
    .await
    .expect("action");
    let product_id: i64 = sqlx::query_scalar(
        "INSERT INTO products (station_id, action_id, name, value, stock, limit_per_user)
         VALUES ($1, $2, 'Camiseta', 5000, 10, 10) RETURNING id",
    )
    .bind(station_id)
    .bind(action_id)
    .fetch_one(db)
    .await
    .expect("product");
    (action_id, product_id)
}

#[testkit::db_test]
async fn with_pagarme_the_checkout_saves_the_card_first_then_charges_it(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let member = demo.member_id;
    let (url, asked) = pagarme_stand_in(0).await;
    let settings = pagarme_settings(&url);
    let app = common::app_with(db.clone(), &as_pairs(&settings));
    let (action_id, product_id) = product(&db, demo.station_id).await;
    let hold = post(
        &app,
        "/api/single-product-orders",
        &token,
        json!({ format!("product-{product_id}"): 1 }),
    )
    .await;
    assert_eq!(hold.status, StatusCode::OK, "{}", hold.text);
    let payment = common::with_billing_address(json!({
        "type": "credit_card", "card_token": "tok_single_use", "save": true
    }));
    let request = json!({ "cart": [{ "action_id": action_id }], "payment": payment });
    let order = post(
        &app,
        "/api/cupom-product-order-cart",
        &token,
        request.clone(),
    )
    .await;
    assert_eq!(order.status, StatusCode::OK, "{}", order.text);
    assert_eq!(order.json()["status"], "Pagamento confirmado");
    // The same request again (a lost answer, a double click) answers the paid order: its
    // spent single-use token is not saved again.
    let replayed = post(&app, "/api/cupom-product-order-cart", &token, request).await;
    assert_eq!(replayed.status, StatusCode::OK, "{}", replayed.text);
    assert_eq!(replayed.json()["id"], order.json()["id"]);
    assert_eq!(replayed.json()["status"], "Pagamento confirmado");
    // The token was spent once, on the save; the order charged the saved card.
    assert_eq!(
        asked_paths(&asked),
        [
            "POST /customers",
            "POST /customers/cus_0000000000000001/cards",
            "POST /orders"
        ]
    );
    let charged = asked.lock().expect("lock")[2].1.clone();
    assert_eq!(charged["customer_id"], "cus_0000000000000001");
    let card = charged.pointer("/payments/0/credit_card").expect("card");
    assert_eq!(card["card_id"], "card_0000000000000002");
    assert!(card.get("card_token").is_none(), "{card}");
    let listed = cards_of(&app, &token, member).await.json();
    assert_eq!(listed[0]["last_digits"], "4242");
    assert_eq!(listed[0]["is_default"], true);
}

/// Runs the queued `cards.delete` jobs as a worker would, with the app's settings.
async fn run_card_deletes(db: &PgPool, settings: &[(&str, &str)]) -> Vec<Value> {
    use jobs::{Job, JobContext};
    let queued: Vec<(String, Value)> = sqlx::query_as(
        "SELECT id, convert_from(job, 'UTF8')::jsonb FROM apalis.jobs
          WHERE job_type = 'cards.delete' AND status = 'Pending' ORDER BY id",
    )
    .fetch_all(db)
    .await
    .expect("jobs");
    let services =
        jobs::Services::new(db.clone(), common::config_with(settings)).expect("services");
    let mut results = Vec::new();
    for (id, payload) in queued {
        let job: jobs::kinds::CardDelete =
            serde_json::from_value(payload["args"].clone()).expect("payload");
        let context = JobContext {
            id: id.clone(),
            attempt: 1,
            worker: "test".into(),
            taken_at: None,
            services: services.clone(),
        };
        results.push(job.run(context).await.expect("job"));
    }
    results
}

async fn deleted_at_provider(db: &PgPool, card_id: i64) -> bool {
    sqlx::query_scalar("SELECT provider_deleted_at IS NOT NULL FROM saved_cards WHERE id = $1")
        .bind(card_id)
        .fetch_one(db)
        .await
        .expect("card")
}

#[testkit::db_test]
async fn a_card_the_provider_could_not_delete_is_deleted_by_its_job(db: PgPool) {
    let (demo, _) = common::demo_member_session(&db).await;
    let member = common::insert_member(&db, demo.station_id, "cartoes@example.com").await;
    let token = common::session_of(&db, member).await;
    let (url, asked) = pagarme_stand_in(1).await;
    let settings = pagarme_settings(&url);
    let app = common::app_with(db.clone(), &as_pairs(&settings));
    let card = post(&app, "/api/user-credit-cards", &token, form("tok_one")).await;
    assert_eq!(card.status, StatusCode::OK, "{}", card.text);
    let card_id = card.json()["id"].as_i64().expect("id");

    // The provider fails: the card is removed here all the same, and its job is queued.
    let removed = remove(&app, &token, &json!(card_id)).await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.text);
    assert_eq!(removed.json(), json!([]));
    assert!(!deleted_at_provider(&db, card_id).await);
    let later: bool = sqlx::query_scalar(
        "SELECT run_at > now() + interval '30 seconds' FROM apalis.jobs
          WHERE job_type = 'cards.delete'",
    )
    .fetch_one(&db)
    .await
    .expect("the job");
    assert!(later, "the job follows the removal's own try");

    let results = run_card_deletes(&db, &as_pairs(&settings)).await;
    assert_eq!(results, [json!({ "card_id": card_id, "deleted": true })]);
    assert!(deleted_at_provider(&db, card_id).await);
    // A job run again asks nothing.
    let again = run_card_deletes(&db, &as_pairs(&settings)).await;
    assert_eq!(again, [json!({ "card_id": card_id, "deleted": false })]);
    let deletes = asked_paths(&asked)
        .iter()
        .filter(|path| path.starts_with("DELETE "))
        .count();
    assert_eq!(deletes, 2);
}
