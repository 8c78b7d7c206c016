//! The Pagar.me provider against a loopback stand-in: an axum app on 127.0.0.1:0 that
//! checks each request's Basic auth, `Idempotency-Key` and body, and answers with Pagar.me
//! v5's documented shapes (orders with charges and `last_transaction`, charge reads,
//! DELETE for cancels and partial refunds, 401/404/422/500 and a hang for timeouts).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use domain::commerce::gateway::{
    BillingAddress, CardChargeRequest, CardExpiry, CardSource, ChargeStatus, Customer,
    GatewayError, PaymentGateway, PaymentMethod, PixChargeRequest, RefundStatus, SaveCardRequest,
    WebhookKind,
};
use payments::pagarme::{Pagarme, SIGNATURE_HEADER, WebhookKey};
use secrecy::SecretString;
use serde_json::{Value, json};

const SECRET_KEY: &str = "sk_test_filia";
const PRIVATE_KEY: &str = include_str!("../fixtures/pagarme_test_private.pem");
const PUBLIC_KEY: &str = include_str!("../../../domain/tests/fixtures/pagarme_test_public.pem");
const QR_CODE: &str = "00020101021226820014br.gov.bcb.pix2560pix.stone.com.br/pix/v2/0b1c2d3e-4f5a-6b7c-8d9e-0f1a2b3c4d5e5204000053039865406123.455802BR5912PAGARME TEST6009SAO PAULO62070503***6304ABCD";

/// What the stand-in saw of one request.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    path: String,
    idempotency_key: Option<String>,
    body: Value,
}

#[derive(Default)]
struct StandIn {
    seen: Vec<Seen>,
    charges: HashMap<String, Value>,
    next: u32,
}

type Shared = Arc<Mutex<StandIn>>;

fn authorised(headers: &HeaderMap) -> bool {
    let expected = format!("Basic {}", STANDARD.encode(format!("{SECRET_KEY}:")));
    headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == expected)
}

fn record(state: &Shared, method: &str, path: String, headers: &HeaderMap, body: Value) {
    let key = headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    state.lock().expect("lock").seen.push(Seen {
        method: method.into(),
        path,
        idempotency_key: key,
        body,
    });
}

fn unauthorised() -> (StatusCode, Json<Value>) {
    (
        StatusCode::UNAUTHORIZED,
        Json(json!({"message": "Authorization has been denied for this request."})),
    )
}

async fn create_order(
    State(state): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    record(&state, "POST", "/orders".into(), &headers, body.clone());
    if !authorised(&headers) {
        return unauthorised();
    }
    if headers.get("idempotency-key").is_none() {
        return (StatusCode::BAD_REQUEST, Json(json!({"message": "no key"})));
    }
    let amount = body
        .pointer("/items/0/amount")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    match amount {
        42_200 => {
            return (
                StatusCode::UNPROCESSABLE_ENTITY,
                Json(json!({
                    "message": "The request is invalid.",
                    "errors": {"order.customer.document": ["The document field is invalid."]}
                })),
            );
        }
        50_000 => {
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                Json(json!({"message": "An error has occurred."})),
            );
        }
        77_700 => tokio::time::sleep(Duration::from_secs(3)).await,
        _ => {}
    }
    let method = body
        .pointer("/payments/0/payment_method")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let mut stand_in = state.lock().expect("lock");
    stand_in.next += 1;
    let id = format!("ch_{:016}", stand_in.next);
    let charge = if method == "pix" {
        json!({
            "id": id, "code": body["code"], "amount": amount, "status": "pending",
            "payment_method": "pix", "currency": "BRL",
            "last_transaction": {
                "id": "tran_pix", "transaction_type": "pix", "status": "waiting_payment",
                "amount": amount, "qr_code": QR_CODE,
                "qr_code_url": "https://api.pagar.me/core/v5/transactions/tran_pix/qrcode?payment_method=pix",
                "expires_at": "2026-11-26T12:30:00Z"
            }
        })
    } else if body.pointer("/payments/0/credit_card/card_token") == Some(&json!("tok_declined")) {
        json!({
            "id": id, "code": body["code"], "amount": amount, "status": "failed",
            "payment_method": "credit_card",
            "last_transaction": {
                "id": "tran_card", "transaction_type": "credit_card", "status": "not_authorized",
                "amount": amount, "acquirer_message": "Transação não autorizada",
                "gateway_response": {"code": "200", "errors": []}
            }
        })
    } else {
        json!({
            "id": id, "code": body["code"], "amount": amount, "paid_amount": amount,
            "status": "paid", "payment_method": "credit_card",
            "paid_at": "2026-11-26T12:00:05Z",
            "last_transaction": {
                "id": "tran_card", "transaction_type": "credit_card", "status": "captured",
                "amount": amount, "installments": body.pointer("/payments/0/credit_card/installments")
            }
        })
    };
    stand_in.charges.insert(id.clone(), charge.clone());
    let status = charge["status"].clone();
    (
        StatusCode::OK,
        Json(json!({"id": "or_1", "code": body["code"], "status": status, "charges": [charge]})),
    )
}

async fn read_charge(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> (StatusCode, Json<Value>) {
    record(
        &state,
        "GET",
        format!("/charges/{id}"),
        &headers,
        Value::Null,
    );
    if !authorised(&headers) {
        return unauthorised();
    }
    match state.lock().expect("lock").charges.get(&id) {
        Some(charge) => (StatusCode::OK, Json(charge.clone())),
        None => (
            StatusCode::NOT_FOUND,
            Json(json!({"message": "Charge not found."})),
        ),
    }
}

async fn delete_charge(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: String,
) -> (StatusCode, Json<Value>) {
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    record(
        &state,
        "DELETE",
        format!("/charges/{id}"),
        &headers,
        body.clone(),
    );
    if !authorised(&headers) {
        return unauthorised();
    }
    let mut stand_in = state.lock().expect("lock");
    let Some(charge) = stand_in.charges.get_mut(&id) else {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({"message": "Charge not found."})),
        );
    };
    let paid = charge["paid_amount"].as_i64().unwrap_or(0);
    if paid == 0 {
        charge["status"] = json!("canceled");
    } else {
        let before = charge["canceled_amount"].as_i64().unwrap_or(0);
        // Without an amount, what is left is refunded.
        let refund = body["amount"].as_i64().unwrap_or(paid - before);
        let canceled = before + refund;
        charge["canceled_amount"] = json!(canceled);
        charge["status"] = json!(if canceled >= paid { "canceled" } else { "paid" });
        charge["last_transaction"] = json!({
            "id": format!("tran_refund_{canceled}"), "transaction_type": "credit_card",
            "status": "refunded", "amount": refund
        });
    }
    (StatusCode::OK, Json(charge.clone()))
}

async fn create_customer(
    State(state): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    record(&state, "POST", "/customers".into(), &headers, body.clone());
    if !authorised(&headers) {
        return unauthorised();
    }
    let mut stand_in = state.lock().expect("lock");
    stand_in.next += 1;
    let id = format!("cus_{:016}", stand_in.next);
    (
        StatusCode::OK,
        Json(
            json!({"id": id, "name": body["name"], "email": body["email"],
                    "document": body["document"], "type": "individual"}),
        ),
    )
}

async fn create_card(
    State(state): State<Shared>,
    Path(customer_id): Path<String>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    record(
        &state,
        "POST",
        format!("/customers/{customer_id}/cards"),
        &headers,
        body.clone(),
    );
    if !authorised(&headers) {
        return unauthorised();
    }
    if body["token"] == json!("tok_refused") {
        return (
            StatusCode::UNPROCESSABLE_ENTITY,
            Json(json!({"message": "The request is invalid.",
                        "errors": {"card": ["Card verification failed."]}})),
        );
    }
    let mut stand_in = state.lock().expect("lock");
    stand_in.next += 1;
    let id = format!("card_{:016}", stand_in.next);
    (
        StatusCode::OK,
        Json(json!({
            "id": id, "first_six_digits": "400000", "last_four_digits": "0010",
            "brand": "Visa", "holder_name": "ANA SOUZA", "exp_month": 7, "exp_year": 2031,
            "status": "active", "type": "credit",
            "billing_address": body["billing_address"],
            "customer": {"id": customer_id}
        })),
    )
}

async fn stand_in() -> (String, Shared) {
    let state: Shared = Arc::default();
    let app = Router::new()
        .route("/core/v5/orders", post(create_order))
        .route("/core/v5/customers", post(create_customer))
        .route("/core/v5/customers/{id}/cards", post(create_card))
        .route(
            "/core/v5/charges/{id}",
            get(read_charge).delete(delete_charge),
        )
        .with_state(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/core/v5"), state)
}

fn provider(base_url: &str, secret: &str) -> Pagarme {
    Pagarme::new(
        base_url,
        SecretString::from(secret),
        WebhookKey::from_pem(PUBLIC_KEY).expect("public key"),
        Duration::from_secs(1),
    )
    .expect("client")
}

fn customer() -> Customer {
    Customer {
        name: "Ana Souza".into(),
        email: "ana@example.com".into(),
        document: "52998224725".into(),
        phone: Some("48999998888".into()),
    }
}

fn pix(amount_cents: i64, key: &str) -> PixChargeRequest {
    PixChargeRequest {
        amount_cents,
        expires_in_seconds: 1800,
        reference: "PED-7".into(),
        idempotency_key: key.into(),
        customer: customer(),
    }
}

fn card(amount_cents: i64, source: CardSource, key: &str) -> CardChargeRequest {
    // A new card (a token) carries the payment form's billing address; a saved card has its own.
    let billing_address = matches!(source, CardSource::Token(_)).then(|| BillingAddress {
        zip_code: "88010400".into(),
        street: "Rua Felipe Schmidt".into(),
        number: "515".into(),
        city: "Florianópolis".into(),
        state: "SC".into(),
    });
    CardChargeRequest {
        amount_cents,
        installments: 3,
        source,
        billing_address,
        reference: "PED-8".into(),
        idempotency_key: key.into(),
        customer: customer(),
    }
}

fn seen(state: &Shared) -> Vec<Seen> {
    state.lock().expect("lock").seen.clone()
}

#[tokio::test]
async fn a_pix_order_sends_the_documented_body_and_reads_the_qr_code() {
    let (url, state) = stand_in().await;
    let pagarme = provider(&url, SECRET_KEY);
    let charge = pagarme
        .create_pix_charge(&pix(12_345, "order-7-pix"))
        .await
        .expect("created");
    assert_eq!(charge.status, ChargeStatus::Pending);
    assert_eq!(charge.br_code, QR_CODE);
    assert!(charge.qr_code_url.expect("url").starts_with("https://"));
    assert_eq!(charge.expires_at.to_rfc3339(), "2026-11-26T12:30:00+00:00");

    let request = &seen(&state)[0];
    assert_eq!(request.idempotency_key.as_deref(), Some("order-7-pix"));
    let body = &request.body;
    assert_eq!(body["code"], "PED-7");
    assert_eq!(body["items"][0]["amount"], 12_345);
    assert_eq!(body["items"][0]["quantity"], 1);
    assert_eq!(
        body["payments"][0],
        json!({"payment_method": "pix", "pix": {"expires_in": 1800}})
    );
    assert_eq!(body["customer"]["document"], "52998224725");
    assert_eq!(
        body["customer"]["phones"]["mobile_phone"]["area_code"],
        "48"
    );
    assert_eq!(
        body["customer"]["phones"]["mobile_phone"]["number"],
        "999998888"
    );

    let read = pagarme.get_charge(&charge.charge_id).await.expect("read");
    assert_eq!(
        (read.method, read.status),
        (PaymentMethod::Pix, ChargeStatus::Pending)
    );
    assert_eq!(read.reference.as_deref(), Some("PED-7"));
    assert_eq!(seen(&state)[1].idempotency_key, None);

    // Cancel reads first and deletes a pending charge, with its own key.
    let canceled = pagarme
        .cancel_charge(&charge.charge_id, "cancel-7")
        .await
        .expect("canceled");
    assert_eq!(canceled.status, ChargeStatus::Canceled);
    let calls = seen(&state);
    assert_eq!(
        calls[2..]
            .iter()
            .map(|s| s.method.as_str())
            .collect::<Vec<_>>(),
        vec!["GET", "DELETE"]
    );
    assert_eq!(calls[3].idempotency_key.as_deref(), Some("cancel-7"));
    assert_eq!(calls[3].path, format!("/charges/{}", charge.charge_id));
}

#[tokio::test]
async fn cards_paid_declined_refunded_in_part_and_in_full() {
    let (url, state) = stand_in().await;
    let pagarme = provider(&url, SECRET_KEY);
    let paid = pagarme
        .create_card_charge(&card(30_000, CardSource::Token("tok_ok".into()), "c1"))
        .await
        .expect("paid");
    assert_eq!(paid.status, ChargeStatus::Paid);
    let body = &seen(&state)[0].body;
    assert_eq!(
        body["payments"][0]["credit_card"],
        json!({
            "installments": 3, "statement_descriptor": "FILIA", "card_token": "tok_ok",
            "card": {"billing_address": {
                "line_1": "515, Rua Felipe Schmidt", "zip_code": "88010400",
                "city": "Florianópolis", "state": "SC", "country": "BR"
            }}
        })
    );

    let saved = pagarme
        .create_card_charge(&card(1_000, CardSource::SavedCard("card_abc".into()), "c2"))
        .await
        .expect("paid");
    assert_eq!(saved.status, ChargeStatus::Paid);
    let saved_card = &seen(&state)[1].body["payments"][0]["credit_card"];
    assert_eq!(saved_card["card_id"], "card_abc");
    assert!(saved_card.get("card").is_none(), "{saved_card}");

    let declined = pagarme
        .create_card_charge(&card(1_000, CardSource::Token("tok_declined".into()), "c3"))
        .await
        .expect("answered");
    assert_eq!(declined.status, ChargeStatus::Failed);
    assert_eq!(
        declined.failure_reason.as_deref(),
        Some("Transação não autorizada")
    );

    // Cancel on a paid charge reads it and does not DELETE (that would refund it).
    let before = seen(&state).len();
    let still = pagarme
        .cancel_charge(&paid.charge_id, "x")
        .await
        .expect("read");
    assert_eq!(still.status, ChargeStatus::Paid);
    assert_eq!(seen(&state).len(), before + 1);

    let partial = pagarme
        .refund(&paid.charge_id, Some(10_000), "r1")
        .await
        .expect("refunded");
    assert_eq!(
        (partial.status, partial.amount_cents),
        (RefundStatus::Done, 10_000)
    );
    let delete = seen(&state).last().cloned().expect("seen");
    assert_eq!(delete.method, "DELETE");
    assert_eq!(delete.idempotency_key.as_deref(), Some("r1"));
    assert_eq!(delete.body, json!({"amount": 10_000}));
    let read = pagarme.get_charge(&paid.charge_id).await.expect("read");
    assert_eq!(
        (
            read.status,
            read.paid_amount_cents,
            read.refunded_amount_cents
        ),
        (ChargeStatus::PartiallyRefunded, 30_000, 10_000)
    );

    let rest = pagarme
        .refund(&paid.charge_id, None, "r2")
        .await
        .expect("rest");
    assert_eq!(
        (rest.status, rest.amount_cents),
        (RefundStatus::Done, 20_000)
    );
    assert_eq!(seen(&state).last().expect("seen").body, Value::Null);
    let read = pagarme.get_charge(&paid.charge_id).await.expect("read");
    assert_eq!(
        (read.status, read.refunded_amount_cents),
        (ChargeStatus::Refunded, 30_000)
    );
}

#[tokio::test]
async fn error_answers_become_clear_errors() {
    let (url, _state) = stand_in().await;
    let pagarme = provider(&url, SECRET_KEY);
    match pagarme.create_pix_charge(&pix(42_200, "bad")).await {
        Err(GatewayError::Rejected(message)) => {
            assert!(message.contains("document field is invalid"), "{message}");
        }
        other => panic!("expected a rejection, got {other:?}"),
    }
    assert!(matches!(
        pagarme.create_pix_charge(&pix(50_000, "boom")).await,
        Err(GatewayError::Unavailable(message)) if message == "HTTP 500"
    ));
    assert!(matches!(
        pagarme.create_pix_charge(&pix(77_700, "slow")).await,
        Err(GatewayError::Unavailable(message)) if message == "timeout"
    ));
    assert!(matches!(
        pagarme.get_charge("ch_missing").await,
        Err(GatewayError::NotFound)
    ));
    assert!(matches!(
        provider(&url, "sk_wrong").get_charge("ch_1").await,
        Err(GatewayError::Unauthorized)
    ));
    // Nobody listening.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let closed = format!("http://{}/core/v5", listener.local_addr().expect("addr"));
    drop(listener);
    assert!(matches!(
        provider(&closed, SECRET_KEY).get_charge("ch_1").await,
        Err(GatewayError::Unavailable(_))
    ));
}

fn sign(body: &[u8]) -> String {
    let der: String = PRIVATE_KEY
        .lines()
        .filter(|line| !line.starts_with("-----"))
        .collect();
    let der = STANDARD.decode(der).expect("der");
    let key = ring::signature::RsaKeyPair::from_pkcs8(&der).expect("key");
    let mut signature = vec![0; key.public().modulus_len()];
    key.sign(
        &ring::signature::RSA_PKCS1_SHA256,
        &ring::rand::SystemRandom::new(),
        body,
        &mut signature,
    )
    .expect("signed");
    STANDARD.encode(signature)
}

#[tokio::test]
async fn webhooks_are_verified_with_rs256_over_the_raw_body() {
    let pagarme = provider("http://127.0.0.1:9/core/v5", SECRET_KEY);
    let body = br#"{"id":"hook_RyEKQO789TRpZjv5","account":{"id":"acc_1"},"type":"charge.paid","created_at":"2026-11-26T12:01:00Z","data":{"id":"ch_0000000000000001","status":"paid","amount":12345}}"#;
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(SIGNATURE_HEADER, sign(body).parse().expect("header"));
    let event = pagarme.verify_webhook(body, &headers).expect("verified");
    assert_eq!(event.provider, "pagarme");
    assert_eq!(event.event_id, "hook_RyEKQO789TRpZjv5");
    assert_eq!(event.kind, WebhookKind::Paid);
    assert_eq!(event.charge_id.as_deref(), Some("ch_0000000000000001"));

    let mut prefixed = reqwest::header::HeaderMap::new();
    prefixed.insert(
        SIGNATURE_HEADER,
        format!("sha256={}", sign(body)).parse().expect("header"),
    );
    assert!(pagarme.verify_webhook(body, &prefixed).is_ok());

    let tampered = String::from_utf8_lossy(body).replace("12345", "99999");
    assert!(matches!(
        pagarme.verify_webhook(tampered.as_bytes(), &headers),
        Err(GatewayError::InvalidSignature)
    ));
    assert!(matches!(
        pagarme.verify_webhook(body, &reqwest::header::HeaderMap::new()),
        Err(GatewayError::InvalidSignature)
    ));
    let mut garbage = reqwest::header::HeaderMap::new();
    garbage.insert(SIGNATURE_HEADER, "not-base64!".parse().expect("header"));
    assert!(matches!(
        pagarme.verify_webhook(body, &garbage),
        Err(GatewayError::InvalidSignature)
    ));

    // An order event names its charge through the order's charges.
    let order =
        br#"{"id":"hook_2","type":"order.paid","data":{"id":"or_1","charges":[{"id":"ch_9"}]}}"#;
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(SIGNATURE_HEADER, sign(order).parse().expect("header"));
    let event = pagarme.verify_webhook(order, &headers).expect("verified");
    assert_eq!(
        (event.kind, event.charge_id.as_deref()),
        (WebhookKind::Paid, Some("ch_9"))
    );
}

fn billing_address() -> BillingAddress {
    BillingAddress {
        zip_code: "88010400".into(),
        street: "Rua Felipe Schmidt".into(),
        number: "515".into(),
        city: "Florianópolis".into(),
        state: "SC".into(),
    }
}

fn save(token: &str, customer_id: Option<&str>) -> SaveCardRequest {
    SaveCardRequest {
        customer: customer(),
        customer_id: customer_id.map(str::to_string),
        token: token.into(),
        billing_address: billing_address(),
        idempotency_key: "customer-7".into(),
    }
}

#[tokio::test]
async fn a_card_is_saved_in_the_customers_wallet_and_charged_off_session() {
    let (url, state) = stand_in().await;
    let pagarme = provider(&url, SECRET_KEY);

    // The member's first card makes the customer, then keeps the card in its wallet.
    let first = pagarme
        .save_card(&save("tok_first", None))
        .await
        .expect("saved");
    let customer_id = first.customer_id.clone().expect("a customer");
    assert!(customer_id.starts_with("cus_"), "{customer_id}");
    assert!(first.card_id.starts_with(&format!("{customer_id}/card_")));
    assert_eq!(
        (
            first.brand.as_str(),
            first.last_digits.as_str(),
            first.expiry
        ),
        (
            "visa",
            "0010",
            Some(CardExpiry {
                month: 7,
                year: 2031
            })
        )
    );
    let calls = seen(&state);
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].method.as_str(), calls[0].path.as_str()),
        ("POST", "/customers")
    );
    assert_eq!(
        calls[0].idempotency_key.as_deref(),
        Some("customer-7:customer")
    );
    assert_eq!(calls[0].body["document"], "52998224725");
    assert_eq!(calls[0].body["document_type"], "CPF");
    assert_eq!(calls[1].path, format!("/customers/{customer_id}/cards"));
    assert_eq!(
        calls[1].body,
        json!({"token": "tok_first", "billing_address": {
            "line_1": "515, Rua Felipe Schmidt", "zip_code": "88010400",
            "city": "Florianópolis", "state": "SC", "country": "BR"
        }})
    );

    // A second card of the same member: the customer is not made again.
    let second = pagarme
        .save_card(&save("tok_second", Some(&customer_id)))
        .await
        .expect("saved");
    assert_eq!(second.customer_id.as_deref(), Some(customer_id.as_str()));
    assert_ne!(second.card_id, first.card_id);
    let calls = seen(&state);
    assert_eq!(calls.len(), 3);
    assert_eq!(calls[2].path, format!("/customers/{customer_id}/cards"));

    // Charged off-session: the order names the card and the customer it belongs to.
    let charged = pagarme
        .create_card_charge(&card(
            2_990,
            CardSource::SavedCard(first.card_id.clone()),
            "subscription-charge-1",
        ))
        .await
        .expect("charged");
    assert_eq!(charged.status, ChargeStatus::Paid);
    let order = seen(&state).last().cloned().expect("order");
    assert_eq!(order.path, "/orders");
    assert_eq!(
        order.idempotency_key.as_deref(),
        Some("subscription-charge-1")
    );
    assert_eq!(order.body["customer_id"], json!(customer_id));
    assert!(order.body.get("customer").is_none(), "{}", order.body);
    let card_id = first.card_id.split_once('/').expect("pair").1;
    assert_eq!(order.body["payments"][0]["credit_card"]["card_id"], card_id);
    assert!(
        order.body["payments"][0]["credit_card"]
            .get("card")
            .is_none()
    );

    // A card the provider refuses, and a customer id that cannot go into a path.
    assert!(matches!(
        pagarme.save_card(&save("tok_refused", Some(&customer_id))).await,
        Err(GatewayError::Rejected(message)) if message.contains("Card verification failed")
    ));
    assert!(matches!(
        pagarme.save_card(&save("tok_x", Some("../orders"))).await,
        Err(GatewayError::NotFound)
    ));

    // Secrets never print: the key, the token, the CPF, the address.
    let printed = format!("{pagarme:?} {:?}", save("tok_first", None));
    for secret in [SECRET_KEY, "tok_first", "52998224725", "Felipe Schmidt"] {
        assert!(!printed.contains(secret), "{secret} in {printed}");
    }
}
