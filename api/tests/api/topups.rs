//! Money into the wallet over HTTP (issue 29, docs/api-wallet.md "Top-ups") against the
//! real database and the sandbox provider: PIX top-ups credited once whatever races them,
//! card top-ups (saved, new, declined, removed), the limits, transfer requests and the
//! console's confirm, reject and refund, the expiry job. Jobs run through their real
//! handlers, called here as a worker would.

use axum::Router;
use axum::http::StatusCode;
use domain::shared::ids::{StationId, UserId};
use domain::staff::{Role, Scope};
use domain::wallet::ledger::{self, Spend, SpendKind};
use domain::wallet::topups::{BankDetails, set_bank_details};
use jobs::kinds::{PaymentSync, PointsCredit, TopUpExpire, TopUpRefund};
use jobs::{Job, JobContext};
use payments::Gateway;
use payments::sandbox::Sandbox;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::build;

use crate::common::{self, Answer, call, send_json, session_of};

const FORBIDDEN: &str = "Você não possui autorização para acessar esta página.";
const APPROVES: &str = "4000000000000010";
const DECLINES: &str = "4000000000000028";

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    /// A member with an empty wallet and no top-ups.
    member_id: i64,
    token: String,
    other_token: String,
    sandbox: Sandbox,
}

async fn world(db: PgPool) -> World {
    world_with(db, &[]).await
}

async fn world_with(db: PgPool, settings: &[(&str, &str)]) -> World {
    let (demo, _) = common::demo_member_session(&db).await;
    let app = common::app_with(db.clone(), settings);
    let member_id = common::insert_member(&db, demo.station_id, "recarga@example.com").await;
    let other_id = common::insert_member(&db, demo.station_id, "vizinho@example.com").await;
    let sandbox = match Gateway::from_config(&common::config_with(&[]), db.clone()).expect("gw") {
        Gateway::Sandbox(sandbox) => sandbox,
        Gateway::Pagarme(_) => panic!("the tests run the sandbox"),
    };
    World {
        app,
        station_id: demo.station_id,
        member_id,
        token: session_of(&db, member_id).await,
        other_token: session_of(&db, other_id).await,
        db,
        sandbox,
    }
}

async fn post(app: &Router, uri: &str, token: &str, body: Value) -> Answer {
    send_json(app, "POST", uri, Some(token), &[], &body).await
}

fn messages(answer: &Answer) -> Vec<String> {
    serde_json::from_value(answer.json()["messages"].clone()).expect("messages")
}

impl World {
    async fn buy(&self, body: Value) -> Answer {
        post(
            &self.app,
            "/api/user-buy-points-transaction",
            &self.token,
            body,
        )
        .await
    }

    async fn pix(&self, points: f64) -> Value {
        let answer = self.buy(json!({ "points": points, "method": "pix" })).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        answer.json()
    }

    async fn card_token(&self, number: &str) -> String {
        let answer = post(
            &self.app,
            "/api/sandbox/card-tokens",
            &self.token,
            json!({ "number": number, "holder_name": "MARIA DEMO", "expiry": "12/30", "cvv": "123" }),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        answer.json()["card_token"].as_str().expect("token").into()
    }

    /// Saves a card of the member's through `POST /user-credit-cards`; answers its id.
    async fn saved_card(&self, number: &str) -> i64 {
        let token = self.card_token(number).await;
        let form = common::with_billing_address(json!({
            "card_token": token, "name": "Maria Demo", "cpf": "529.982.247-25"
        }));
        let saved = post(&self.app, "/api/user-credit-cards", &self.token, form).await;
        assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
        saved.json()["id"].as_i64().expect("card id")
    }

    async fn balance(&self) -> i64 {
        ledger::balance(&self.db, self.member_id)
            .await
            .expect("balance")
            .balance
    }

    async fn staff(&self, email: &str, role: Role, scope: Scope) -> String {
        let id = build::member(self.station_id)
            .name("Equipe")
            .email(email)
            .staff()
            .insert(&self.db)
            .await;
        domain::staff::set_grant(&self.db, id, role, scope)
            .await
            .expect("grant");
        session_of(&self.db, id).await
    }

    /// A support staff member of the station (the console's confirm, reject and refund).
    async fn support(&self) -> String {
        self.staff(
            "suporte@example.com",
            Role::Support,
            Scope::Station(self.station_id),
        )
        .await
    }

    /// Staff's `confirm`, `reject` or `refund` of a top-up.
    async fn decide(&self, staff: &str, topup_id: i64, decision: &str) -> Answer {
        call(
            &self.app,
            "POST",
            &format!("/api/ops/topups/{topup_id}/{decision}"),
            Some(staff),
            &[],
        )
        .await
    }

    async fn bank_details(&self) {
        let mut conn = self.db.acquire().await.expect("conn");
        set_bank_details(
            &mut conn,
            self.station_id,
            &BankDetails {
                bank_name: "Banco do Brasil".into(),
                agency: "1234-5".into(),
                account: "67890-1".into(),
                holder: "Clube Filia Demo".into(),
                document: "12.345.678/0001-90".into(),
                pix_key: Some("financeiro@demo.filia.com.br".into()),
            },
        )
        .await
        .expect("bank details");
    }

    async fn transfer(&self, points: f64) -> Answer {
        post(
            &self.app,
            "/api/transfer-request",
            &self.token,
            json!({ "user_id": self.member_id, "type_id": 5, "points": points }),
        )
        .await
    }
}

/// Runs the queue's pending jobs through their handler, as a worker would, and marks them
/// done; answers how many ran.
async fn run_jobs<J: Job + DeserializeOwned>(db: &PgPool, queue: &str) -> usize {
    let queued: Vec<(String, Value)> = sqlx::query_as(
        "SELECT id, convert_from(job, 'UTF8')::jsonb FROM apalis.jobs
          WHERE job_type = $1 AND status = 'Pending' ORDER BY id",
    )
    .bind(queue)
    .fetch_all(db)
    .await
    .expect("jobs");
    let services = jobs::Services::new(db.clone(), common::config_with(&[])).expect("services");
    for (id, payload) in &queued {
        let job: J = serde_json::from_value(payload["args"].clone()).expect("payload");
        let context = JobContext {
            id: id.clone(),
            attempt: 1,
            worker: "test".into(),
            taken_at: None,
            services: services.clone(),
        };
        job.run(context).await.expect("job");
        sqlx::query("UPDATE apalis.jobs SET status = 'Done', done_at = now() WHERE id = $1")
            .bind(id)
            .execute(db)
            .await
            .expect("done");
    }
    queued.len()
}

/// Jobs of a queue whose idempotency key starts with `key`.
async fn jobs_keyed(db: &PgPool, queue: &str, key: &str) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM apalis.jobs WHERE job_type = $1 AND idempotency_key LIKE $2 || '%'",
    )
    .bind(queue)
    .bind(key)
    .fetch_one(db)
    .await
    .expect("jobs")
}

async fn topup_lots(db: &PgPool, topup_id: i64) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM credit_lots WHERE source_kind = 'topup' AND source_id = $1",
    )
    .bind(topup_id.to_string())
    .fetch_one(db)
    .await
    .expect("lots")
}

#[testkit::db_test]
async fn a_pix_top_up_is_credited_once_under_a_thousand_webhooks_and_checks_at_once(db: PgPool) {
    let w = world_with(
        db,
        &[
            ("FILIA_PAYMENT_CHECKS_MAX_PER_MEMBER", "1000"),
            ("FILIA_PAYMENT_READ_REUSE_SECONDS", "0"),
        ],
    )
    .await;
    let topup = w.pix(50.5).await;
    assert_eq!(
        (
            &topup["status"],
            &topup["points"],
            &topup["amount_cents"],
            &topup["method"]
        ),
        (&json!("pending"), &json!(50.5), &json!(5050), &json!("pix"))
    );
    let id = topup["id"].as_i64().expect("id");
    let charge_id = topup["pix"]["charge_id"]
        .as_str()
        .expect("charge")
        .to_string();
    assert!(
        topup["pix"]["pix_qr_code"]
            .as_str()
            .expect("code")
            .starts_with("000201")
    );
    // 'Simular pagamento' of the member's own top-up.
    let paid = call(
        &w.app,
        "POST",
        &format!("/api/sandbox/pix/{charge_id}/pay"),
        Some(&w.token),
        &[],
    )
    .await;
    assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);
    let (real_body, _): (String, String) =
        sqlx::query_as("SELECT body, event_id FROM sandbox_webhooks WHERE charge_id = $1")
            .bind(&charge_id)
            .fetch_one(&w.db)
            .await
            .expect("event");
    // 1 000 deliveries at once: half the real event again, half new signed events naming
    // the charge, with 40 browser checks among them.
    let mut tasks = tokio::task::JoinSet::new();
    for n in 0..1000 {
        let app = w.app.clone();
        let body = if n % 2 == 0 {
            real_body.clone()
        } else {
            json!({ "id": format!("hook_topup_{n}"), "type": "charge.paid",
                    "data": { "id": charge_id, "status": "paid" } })
            .to_string()
        };
        let signature = w.sandbox.sign(body.as_bytes());
        tasks.spawn(async move { common::post_webhook(&app, &body, &signature).await.status });
        if n % 25 == 0 {
            let app = w.app.clone();
            let token = w.token.clone();
            tasks.spawn(async move {
                let uri = format!("/api/user-buy-points-transaction/{id}/check-payment");
                call(&app, "POST", &uri, Some(&token), &[]).await.status
            });
        }
    }
    while let Some(status) = tasks.join_next().await {
        assert_eq!(status.expect("task"), StatusCode::OK);
    }
    // The webhooks' syncs, two workers at once, and a last check racing them.
    let db = w.db.clone();
    let check_uri = format!("/api/user-buy-points-transaction/{id}/check-payment");
    let (synced_a, synced_b, check) = tokio::join!(
        run_jobs::<PaymentSync>(&db, "payment.sync"),
        run_jobs::<PaymentSync>(&db, "payment.sync"),
        call(&w.app, "POST", &check_uri, Some(&w.token), &[]),
    );
    assert!(synced_a + synced_b >= 500, "{synced_a} + {synced_b}");
    assert_eq!(check.json()["status"], "credited");
    assert_eq!(
        jobs_keyed(&w.db, "points.credit", &format!("topup:{id}:")).await,
        1
    );
    run_jobs::<PointsCredit>(&w.db, "points.credit").await;
    assert_eq!(topup_lots(&w.db, id).await, 1);
    assert_eq!(w.balance().await, 5050);
    // The credited e-mail, once.
    assert_eq!(
        jobs_keyed(&w.db, "mail.send", &format!("topup-credited:{id}")).await,
        1
    );
    let one = call(
        &w.app,
        "GET",
        &format!("/api/user-buy-points-transaction/{id}"),
        Some(&w.token),
        &[],
    )
    .await
    .json();
    assert_eq!(one["status"], "credited");
    assert!(one["credited_at"].is_string());
    // The statement shows it as a top-up.
    let statement = call(
        &w.app,
        "GET",
        "/api/earn-points-transactions/",
        Some(&w.token),
        &[],
    )
    .await
    .json();
    assert_eq!(statement[0]["source_kind"], "topup");
    assert_eq!(
        statement[0]["action"]["name"],
        "Recarga de créditos por PIX"
    );
}

#[testkit::db_test]
async fn another_members_top_ups_and_pix_are_not_found(db: PgPool) {
    let w = world(db).await;
    let topup = w.pix(20.0).await;
    let id = topup["id"].as_i64().expect("id");
    let charge_id = topup["pix"]["charge_id"].as_str().expect("charge");
    for (method, uri) in [
        ("GET", format!("/api/user-buy-points-transaction/{id}")),
        (
            "POST",
            format!("/api/user-buy-points-transaction/{id}/check-payment"),
        ),
        ("POST", format!("/api/sandbox/pix/{charge_id}/pay")),
    ] {
        let answer = call(&w.app, method, &uri, Some(&w.other_token), &[]).await;
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "{uri}: {}",
            answer.text
        );
    }
    let theirs = call(
        &w.app,
        "GET",
        "/api/user-buy-points-transaction",
        Some(&w.other_token),
        &[],
    )
    .await
    .json();
    assert_eq!(theirs, json!([]));
    let mine = call(
        &w.app,
        "GET",
        "/api/user-buy-points-transaction",
        Some(&w.token),
        &[],
    )
    .await
    .json();
    assert_eq!(mine[0]["id"], id);
    let anonymous = call(&w.app, "GET", "/api/user-buy-points-transaction", None, &[]).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn a_saved_card_pays_at_once_and_a_declined_or_removed_card_credits_nothing(db: PgPool) {
    let w = world(db).await;
    let card_id = w.saved_card(APPROVES).await;
    let paid = w
        .buy(json!({ "points": 100, "method": "card", "card_id": card_id }))
        .await;
    assert_eq!(paid.status, StatusCode::CREATED, "{}", paid.text);
    let paid = paid.json();
    assert_eq!(
        (&paid["status"], &paid["method"]),
        (&json!("credited"), &json!("card"))
    );
    run_jobs::<PointsCredit>(&w.db, "points.credit").await;
    assert_eq!(w.balance().await, 10000);

    // A new card the provider declines: failed with its reason, nothing credited.
    let token = w.card_token(DECLINES).await;
    let declined = w
        .buy(json!({ "points": 30, "method": "card", "card_token": token }))
        .await;
    assert_eq!(
        declined.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        declined.text
    );
    assert!(!messages(&declined)[0].is_empty());
    let failed: (String, Option<String>) = sqlx::query_as(
        "SELECT status, failure_reason FROM topups WHERE user_id = $1 ORDER BY id DESC LIMIT 1",
    )
    .bind(w.member_id)
    .fetch_one(&w.db)
    .await
    .expect("top-up");
    assert_eq!(failed.0, "failed");
    assert_eq!(failed.1.as_deref(), Some(messages(&declined)[0].as_str()));

    // Unknown, another member's and removed cards are refused before any charge.
    let card_not_found = "Cartão não encontrado. Escolha outro cartão ou cadastre um novo.";
    let unknown = w
        .buy(json!({ "points": 30, "method": "card", "card_id": 999_999 }))
        .await;
    assert_eq!(messages(&unknown), [card_not_found]);
    let theirs = post(
        &w.app,
        "/api/user-buy-points-transaction",
        &w.other_token,
        json!({ "points": 30, "method": "card", "card_id": card_id }),
    )
    .await;
    assert_eq!(messages(&theirs), [card_not_found]);
    let removal = call(
        &w.app,
        "DELETE",
        &format!("/api/user-credit-cards/{card_id}"),
        Some(&w.token),
        &[],
    )
    .await;
    assert_eq!(removal.status, StatusCode::OK, "{}", removal.text);
    let removed = w
        .buy(json!({ "points": 30, "method": "card", "card_id": card_id }))
        .await;
    assert_eq!(removed.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(messages(&removed), [card_not_found]);
    let no_card = w.buy(json!({ "points": 30, "method": "card" })).await;
    assert_eq!(
        messages(&no_card),
        ["Escolha um cartão salvo ou informe um novo cartão."]
    );
    run_jobs::<PointsCredit>(&w.db, "points.credit").await;
    assert_eq!(w.balance().await, 10000);

    // A new card charged once without saving it.
    let cards_before: i64 = sqlx::query_scalar("SELECT count(*) FROM saved_cards")
        .fetch_one(&w.db)
        .await
        .expect("cards");
    let token = w.card_token(APPROVES).await;
    let once = w
        .buy(json!({ "points": 10, "method": "card", "card_token": token }))
        .await;
    assert_eq!(once.status, StatusCode::CREATED, "{}", once.text);
    assert_eq!(once.json()["status"], "credited");
    let cards_after: i64 = sqlx::query_scalar("SELECT count(*) FROM saved_cards")
        .fetch_one(&w.db)
        .await
        .expect("cards");
    assert_eq!(cards_after, cards_before);
    // Saving asks for the billing address.
    let token = w.card_token(APPROVES).await;
    let no_address = w
        .buy(json!({ "points": 10, "method": "card", "card_token": token, "save_card": true }))
        .await;
    assert_eq!(no_address.status, StatusCode::UNPROCESSABLE_ENTITY);
    // A new card saved first, then charged as a saved card.
    let token = w.card_token(APPROVES).await;
    let address = common::with_billing_address(json!({}));
    let saved = w
        .buy(
            json!({ "points": 10, "method": "card", "card_token": token, "save_card": true,
                     "billing_address": address }),
        )
        .await;
    assert_eq!(saved.status, StatusCode::CREATED, "{}", saved.text);
    let card: Option<i64> = sqlx::query_scalar("SELECT saved_card_id FROM topups WHERE id = $1")
        .bind(saved.json()["id"].as_i64().expect("id"))
        .fetch_one(&w.db)
        .await
        .expect("card");
    assert!(card.is_some());
}

#[testkit::db_test]
async fn each_limit_refuses_with_its_message(db: PgPool) {
    let w = world(db).await;
    let below = w.buy(json!({ "points": 9.99, "method": "pix" })).await;
    assert_eq!(below.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(messages(&below), ["O valor mínimo é R$ 10,00."]);
    let above = w.buy(json!({ "points": 5000.01, "method": "pix" })).await;
    assert_eq!(
        messages(&above),
        ["O valor máximo por pedido é R$ 5.000,00."]
    );
    for bad in [json!(-10), json!("dez"), json!(10.123), json!(null)] {
        let answer = w.buy(json!({ "points": bad, "method": "pix" })).await;
        assert_eq!(messages(&answer), ["Informe um valor válido."], "{bad}");
    }
    w.pix(5000.0).await;
    w.pix(4000.0).await;
    let settings = call(
        &w.app,
        "GET",
        "/api/wallet/topup-settings",
        Some(&w.token),
        &[],
    )
    .await
    .json();
    assert_eq!(
        (
            &settings["min_cents"],
            &settings["max_cents"],
            &settings["daily_max_cents"],
            &settings["daily_left_cents"],
            &settings["review_above_cents"],
            &settings["bank"],
        ),
        (
            &json!(1000),
            &json!(500000),
            &json!(1000000),
            &json!(100000),
            &json!(100000),
            &json!(null)
        )
    );
    let daily = w.buy(json!({ "points": 2000, "method": "pix" })).await;
    assert_eq!(
        messages(&daily),
        ["Limite diário de recarga atingido: você ainda pode pedir R$ 1.000,00."]
    );
    // A PIX left unpaid past its expiry no longer counts.
    sqlx::query("UPDATE topups SET expires_at = now() - interval '1 second' WHERE amount = 500000")
        .execute(&w.db)
        .await
        .expect("expired");
    let after = w.buy(json!({ "points": 2000, "method": "pix" })).await;
    assert_eq!(after.status, StatusCode::CREATED, "{}", after.text);
}

#[testkit::db_test]
async fn a_top_up_above_the_review_threshold_waits_for_staff(db: PgPool) {
    let w = world(db).await;
    let card_id = w.saved_card(APPROVES).await;
    let review = w
        .buy(json!({ "points": 1500, "method": "card", "card_id": card_id }))
        .await;
    assert_eq!(review.status, StatusCode::ACCEPTED, "{}", review.text);
    let id = review.json()["id"].as_i64().expect("id");
    assert_eq!(review.json()["status"], "review");
    assert_eq!(
        jobs_keyed(&w.db, "points.credit", &format!("topup:{id}:")).await,
        0
    );
    let support = w.support().await;
    let confirmed = w.decide(&support, id, "confirm").await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text);
    assert_eq!(confirmed.json()["status"], "credited");
    run_jobs::<PointsCredit>(&w.db, "points.credit").await;
    assert_eq!(w.balance().await, 150_000);

    // Another one rejected: its charge refunded whole at the provider, nothing credited.
    let second = w
        .buy(json!({ "points": 1200, "method": "card", "card_id": card_id }))
        .await;
    let second_id = second.json()["id"].as_i64().expect("id");
    let rejected = w.decide(&support, second_id, "reject").await;
    assert_eq!(rejected.status, StatusCode::OK, "{}", rejected.text);
    assert_eq!(rejected.json()["status"], "rejected");
    let charge = rejected.json()["gateway_charge_id"]
        .as_str()
        .expect("charge")
        .to_string();
    let refunded: i64 = sqlx::query_scalar(
        "SELECT coalesce(sum(amount_cents), 0)::bigint FROM sandbox_refunds WHERE charge_id = $1",
    )
    .bind(&charge)
    .fetch_one(&w.db)
    .await
    .expect("refunds");
    assert_eq!(refunded, 120_000);
    assert_eq!(w.balance().await, 150_000);
    let audit: Vec<String> =
        sqlx::query_scalar("SELECT action FROM staff_audit WHERE station_id = $1 ORDER BY id")
            .bind(w.station_id)
            .fetch_all(&w.db)
            .await
            .expect("audit");
    assert_eq!(audit, ["topup.confirm", "topup.reject"]);

    // A PIX above the threshold, once paid, waits too.
    let pix = w.pix(2000.0).await;
    let pix_id = pix["id"].as_i64().expect("id");
    w.sandbox
        .pay_pix(
            pix["pix"]["charge_id"].as_str().expect("charge"),
            &payments::sandbox::PixPayment::default(),
        )
        .await
        .expect("paid");
    let checked = call(
        &w.app,
        "POST",
        &format!("/api/user-buy-points-transaction/{pix_id}/check-payment"),
        Some(&w.token),
        &[],
    )
    .await;
    assert_eq!(checked.json()["status"], "review");
    assert_eq!(
        jobs_keyed(&w.db, "points.credit", &format!("topup:{pix_id}:")).await,
        0
    );
}

#[testkit::db_test]
async fn a_transfer_request_confirmed_twice_at_once_credits_once(db: PgPool) {
    let w = world(db).await;
    let none = w.transfer(100.0).await;
    assert_eq!(
        messages(&none),
        ["Esta estação não recebe transferências bancárias."]
    );
    w.bank_details().await;
    let theirs = post(
        &w.app,
        "/api/transfer-request",
        &w.other_token,
        json!({ "user_id": w.member_id, "type_id": 5, "points": 100 }),
    )
    .await;
    assert_eq!(theirs.status, StatusCode::FORBIDDEN);
    assert_eq!(messages(&theirs), [FORBIDDEN]);
    let wrong_type = post(
        &w.app,
        "/api/transfer-request",
        &w.token,
        json!({ "user_id": w.member_id, "type_id": 4, "points": 100 }),
    )
    .await;
    assert_eq!(messages(&wrong_type), ["Tipo de pedido inválido."]);
    let small = w.transfer(5.0).await;
    assert_eq!(messages(&small), ["O valor mínimo é R$ 10,00."]);
    let created = w.transfer(100.0).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let request = created.json();
    assert_eq!(request["status"]["name"], "Aguardando confirmação");
    assert!(request["expiresAt"].is_string());
    let id = request["id"].as_i64().expect("id");
    let list_uri = format!("/api/transfer-request/?where[user_id]={}", w.member_id);
    let list = call(&w.app, "GET", &list_uri, Some(&w.token), &[])
        .await
        .json();
    assert_eq!(list[0]["id"], id);
    let other_list = call(&w.app, "GET", &list_uri, Some(&w.other_token), &[]).await;
    assert_eq!(other_list.status, StatusCode::FORBIDDEN);
    let settings = call(
        &w.app,
        "GET",
        "/api/wallet/topup-settings",
        Some(&w.token),
        &[],
    )
    .await
    .json();
    assert_eq!(settings["bank"]["bank_name"], "Banco do Brasil");

    // Staff of another station, and a viewer, cannot act on it.
    let other_station = common::insert_station(&w.db, "outro").await;
    let stranger = w
        .staff(
            "estranho@example.com",
            Role::Support,
            Scope::Station(other_station),
        )
        .await;
    let uri = format!("/api/ops/topups/{id}/confirm");
    let refused = call(&w.app, "POST", &uri, Some(&stranger), &[]).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{}", refused.text);
    let listed = call(
        &w.app,
        "GET",
        &format!("/api/ops/stations/{}/topups", w.station_id),
        Some(&stranger),
        &[],
    )
    .await;
    assert_eq!(listed.status, StatusCode::NOT_FOUND);
    let viewer = w
        .staff(
            "leitor@example.com",
            Role::Viewer,
            Scope::Station(w.station_id),
        )
        .await;
    assert_eq!(
        call(&w.app, "POST", &uri, Some(&viewer), &[]).await.status,
        StatusCode::FORBIDDEN
    );
    let support = w.support().await;
    let (first, second) = tokio::join!(
        call(&w.app, "POST", &uri, Some(&support), &[]),
        call(&w.app, "POST", &uri, Some(&support), &[]),
    );
    let mut statuses = [first.status, second.status];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::OK, StatusCode::CONFLICT],
        "{} {}",
        first.text,
        second.text
    );
    assert_eq!(
        jobs_keyed(&w.db, "points.credit", &format!("topup:{id}:")).await,
        1
    );
    assert_eq!(
        jobs_keyed(&w.db, "mail.send", &format!("topup-credited:{id}")).await,
        1
    );
    run_jobs::<PointsCredit>(&w.db, "points.credit").await;
    assert_eq!(w.balance().await, 10000);
    let list = call(&w.app, "GET", &list_uri, Some(&w.token), &[])
        .await
        .json();
    assert_eq!(list[0]["status"]["name"], "Confirmado");
    let console = call(
        &w.app,
        "GET",
        &format!(
            "/api/ops/stations/{}/topups?method=transfer&status=credited",
            w.station_id
        ),
        Some(&support),
        &[],
    )
    .await
    .json();
    assert_eq!(console[0]["id"], id);
    assert_eq!(console[0]["user_email"], "recarga@example.com");
    assert!(console[0]["decided_by"].is_i64());
    // The filters filter, an empty one is none, an unknown word is refused.
    let filtered = |query: &'static str| {
        let uri = format!("/api/ops/stations/{}/topups?{query}", w.station_id);
        let (app, support) = (w.app.clone(), support.clone());
        async move { call(&app, "GET", &uri, Some(&support), &[]).await }
    };
    assert_eq!(filtered("method=pix").await.json(), json!([]));
    assert_eq!(filtered("status=pending").await.json(), json!([]));
    assert_eq!(filtered("status=&method=").await.json()[0]["id"], id);
    for query in ["status=paid", "method=boleto"] {
        let refused = filtered(query).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(messages(&refused), ["Filtro inválido."], "{query}");
    }
    // A transfer cannot be refunded.
    let refund = w.decide(&support, id, "refund").await;
    assert_eq!(refund.status, StatusCode::CONFLICT);
}

#[testkit::db_test]
async fn a_refund_takes_back_what_is_unspent_and_the_spent_part_becomes_a_debt(db: PgPool) {
    let w = world(db).await;
    let card_id = w.saved_card(APPROVES).await;
    let paid = w
        .buy(json!({ "points": 100, "method": "card", "card_id": card_id }))
        .await;
    let id = paid.json()["id"].as_i64().expect("id");
    let mut conn = w.db.acquire().await.expect("conn");
    run_jobs::<PointsCredit>(&w.db, "points.credit").await;
    ledger::spend(
        &mut conn,
        &Spend {
            user_id: UserId(w.member_id),
            station_id: StationId(w.station_id),
            kind: SpendKind::Purchase,
            source_id: "pedido-teste".into(),
            amount: 3000,
            description: "Pedido de teste".into(),
            action_id: None,
        },
    )
    .await
    .expect("spend");
    drop(conn);
    assert_eq!(w.balance().await, 7000);
    let support = w.support().await;
    let refunded = w.decide(&support, id, "refund").await;
    assert_eq!(refunded.status, StatusCode::OK, "{}", refunded.text);
    assert_eq!(refunded.json()["status"], "refunded");
    assert_eq!(w.balance().await, 0);
    assert_eq!(ledger::debt(&w.db, w.member_id).await.expect("debt"), 3000);
    let at_provider: i64 = sqlx::query_scalar(
        "SELECT coalesce(sum(amount_cents), 0)::bigint FROM sandbox_refunds
          WHERE charge_id = (SELECT gateway_charge_id FROM topups WHERE id = $1)",
    )
    .bind(id)
    .fetch_one(&w.db)
    .await
    .expect("refunds");
    assert_eq!(at_provider, 10000);
    // Twice: a conflict, nothing taken again.
    let again = w.decide(&support, id, "refund").await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(ledger::debt(&w.db, w.member_id).await.expect("debt"), 3000);
    let audit: Vec<(String, Value)> =
        sqlx::query_as("SELECT action, details FROM staff_audit WHERE station_id = $1")
            .bind(w.station_id)
            .fetch_all(&w.db)
            .await
            .expect("audit");
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0].0, "topup.refund");
    assert_eq!(
        (&audit[0].1["taken_cents"], &audit[0].1["owed_cents"]),
        (&json!(7000), &json!(3000))
    );
}

/// A top-up opening holds its saved card (`FOR KEY SHARE`) until it commits: the card's
/// removal waits for it, so a card is never charged after a removal that committed first.
#[testkit::db_test]
async fn a_card_being_used_by_an_opening_top_up_cannot_be_removed_under_it(db: PgPool) {
    let w = world(db).await;
    let card_id = w.saved_card(APPROVES).await;
    let mut opening = w.db.begin().await.expect("tx");
    let held = domain::commerce::cards::hold_gateway_card_id(
        &mut opening,
        w.member_id,
        "sandbox",
        card_id,
    )
    .await
    .expect("held");
    assert!(held.is_some());
    let mut removal = w.db.begin().await.expect("tx");
    sqlx::query("SET LOCAL lock_timeout = '300ms'")
        .execute(&mut *removal)
        .await
        .expect("timeout");
    let blocked =
        domain::commerce::cards::remove(&mut removal, w.member_id, "sandbox", card_id).await;
    assert!(
        matches!(
            blocked,
            Err(domain::commerce::cards::RemoveRefusal::Db(ref err))
                if err.as_database_error().and_then(|e| e.code()).as_deref() == Some("55P03")
        ),
        "the removal waits for the opening top-up: {blocked:?}"
    );
    drop(removal);
    opening.commit().await.expect("opened");
    // Removed first (through the route), the card refuses the next top-up.
    let removal = call(
        &w.app,
        "DELETE",
        &format!("/api/user-credit-cards/{card_id}"),
        Some(&w.token),
        &[],
    )
    .await;
    assert_eq!(removal.status, StatusCode::OK, "{}", removal.text);
    let refused = w
        .buy(json!({ "points": 30, "method": "card", "card_id": card_id }))
        .await;
    assert_eq!(
        messages(&refused),
        ["Cartão não encontrado. Escolha outro cartão ou cadastre um novo."]
    );
    // A card id that is not a number is the contract's 400, on both card routes.
    for (method, uri) in [
        ("DELETE", "/api/user-credit-cards/abc"),
        ("PUT", "/api/user-credit-cards/abc/default"),
    ] {
        let answer = call(&w.app, method, uri, Some(&w.token), &[]).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{method} {uri}");
    }
}

#[testkit::db_test]
async fn a_refund_the_provider_did_not_take_is_asked_again_by_its_job_once(db: PgPool) {
    let w = world(db).await;
    let card_id = w.saved_card(APPROVES).await;
    let paid = w
        .buy(json!({ "points": 100, "method": "card", "card_id": card_id }))
        .await;
    let id = paid.json()["id"].as_i64().expect("id");
    run_jobs::<PointsCredit>(&w.db, "points.credit").await;
    let support = w.support().await;
    let refunded = w.decide(&support, id, "refund").await;
    assert_eq!(refunded.status, StatusCode::OK, "{}", refunded.text);
    // The console shows when the provider took it; its job was queued with the decision.
    assert!(refunded.json()["refund_sent_at"].is_string());
    assert_eq!(
        jobs_keyed(&w.db, "topup.refund", &format!("refund:topup:{id}")).await,
        1
    );
    // As if the provider had not taken it: the job asks again, under the same key.
    sqlx::query("UPDATE topups SET refund_sent_at = NULL WHERE id = $1")
        .bind(id)
        .execute(&w.db)
        .await
        .expect("owed");
    let list = call(
        &w.app,
        "GET",
        &format!("/api/ops/stations/{}/topups", w.station_id),
        Some(&support),
        &[],
    )
    .await
    .json();
    assert_eq!(list[0]["refund_sent_at"], Value::Null);
    assert_eq!(run_jobs::<TopUpRefund>(&w.db, "topup.refund").await, 1);
    let (sent, refunds): (bool, i64) = sqlx::query_as(
        "SELECT t.refund_sent_at IS NOT NULL,
                (SELECT coalesce(sum(r.amount_cents), 0)::bigint FROM sandbox_refunds r
                  WHERE r.charge_id = t.gateway_charge_id)
           FROM topups t WHERE t.id = $1",
    )
    .bind(id)
    .fetch_one(&w.db)
    .await
    .expect("refund");
    assert!(sent);
    assert_eq!(refunds, 10000, "refunded once at the provider");
}

#[testkit::db_test]
async fn the_expiry_job_expires_pending_transfers_which_staff_may_still_confirm(db: PgPool) {
    let w = world(db).await;
    w.bank_details().await;
    let pending = w.transfer(50.0).await.json()["id"].as_i64().expect("id");
    let confirmed = w.transfer(60.0).await.json()["id"].as_i64().expect("id");
    let support = w.support().await;
    let ok = w.decide(&support, confirmed, "confirm").await;
    assert_eq!(ok.status, StatusCode::OK);
    sqlx::query("UPDATE topups SET expires_at = now() - interval '1 second'")
        .execute(&w.db)
        .await
        .expect("time ran out");
    // Read before the job runs: expired already.
    let list_uri = format!("/api/transfer-request/?where[user_id]={}", w.member_id);
    let list = call(&w.app, "GET", &list_uri, Some(&w.token), &[])
        .await
        .json();
    assert_eq!(list[1]["status"]["name"], "Expirado");
    assert_eq!(run_jobs::<TopUpExpire>(&w.db, "topup.expire").await, 2);
    let statuses: Vec<(i64, String)> = sqlx::query_as("SELECT id, status FROM topups ORDER BY id")
        .fetch_all(&w.db)
        .await
        .expect("statuses");
    assert_eq!(
        statuses,
        [
            (pending, "expired".to_string()),
            (confirmed, "credited".to_string())
        ]
    );
    assert_eq!(
        jobs_keyed(&w.db, "mail.send", &format!("topup-expired:{pending}")).await,
        1
    );
    assert_eq!(jobs_keyed(&w.db, "mail.send", "topup-expired:").await, 1);

    // The member paid late and wrote to support (as the expiry e-mail says): staff may
    // still confirm the expired request, once, audited as after its expiry.
    let late = w.decide(&support, pending, "confirm").await;
    assert_eq!(late.status, StatusCode::OK, "{}", late.text);
    assert_eq!(late.json()["status"], "credited");
    let again = w.decide(&support, pending, "confirm").await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    let audited: Vec<Value> = sqlx::query_scalar(
        "SELECT details FROM staff_audit WHERE action = 'topup.confirm' ORDER BY id",
    )
    .fetch_all(&w.db)
    .await
    .expect("audit");
    assert_eq!(audited.len(), 2);
    assert_eq!(audited[0]["after_expiry"], false);
    assert_eq!(audited[1]["after_expiry"], true);
    assert_eq!(audited[1]["topup_id"], pending);
    // An expired PIX is no transfer: nothing for staff to confirm.
    let pix = w.pix(10.0).await["id"].as_i64().expect("id");
    sqlx::query("UPDATE topups SET status = 'expired' WHERE id = $1")
        .bind(pix)
        .execute(&w.db)
        .await
        .expect("expired");
    let not_transfer = w.decide(&support, pix, "confirm").await;
    assert_eq!(not_transfer.status, StatusCode::CONFLICT);
}

#[testkit::db_test]
async fn creating_top_ups_is_limited_per_member(db: PgPool) {
    let w = world_with(db, &[("FILIA_ORDERS_MAX_PER_MEMBER", "2")]).await;
    w.pix(10.0).await;
    w.pix(10.0).await;
    let third = w.buy(json!({ "points": 10, "method": "pix" })).await;
    assert_eq!(third.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(third.headers.contains_key("retry-after"));
    // Another member has their own count.
    let theirs = post(
        &w.app,
        "/api/user-buy-points-transaction",
        &w.other_token,
        json!({ "points": 10, "method": "pix" }),
    )
    .await;
    assert_eq!(theirs.status, StatusCode::CREATED);
}

// Money the bank takes back of a top-up (docs/decisions.md, "Top-ups: money the bank takes
// back"): each through the provider's webhook and the `payment.sync` job, as in production.

impl World {
    /// Posts every due sandbox webhook to the API, each `times` over (the provider delivering
    /// an event again), then runs the `payment.sync` jobs they queued; answers how many ran.
    async fn deliver(&self, times: usize) -> usize {
        for delivery in self.sandbox.due_webhooks(1000).await.expect("outbox") {
            for _ in 0..times {
                let answer =
                    common::post_webhook(&self.app, &delivery.body, &delivery.signature).await;
                assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
            }
            self.sandbox
                .mark_delivered(delivery.id)
                .await
                .expect("delivered");
        }
        run_jobs::<PaymentSync>(&self.db, "payment.sync").await
    }

    /// A card top-up of `points` with the member's saved card, its credit written; answers
    /// its id and its charge.
    async fn credited_card_topup(&self, card_id: i64, points: i64) -> (i64, String) {
        let paid = self
            .buy(json!({ "points": points, "method": "card", "card_id": card_id }))
            .await;
        assert_eq!(paid.json()["status"], "credited", "{}", paid.text);
        self.deliver(1).await;
        run_jobs::<PointsCredit>(&self.db, "points.credit").await;
        let id = paid.json()["id"].as_i64().expect("id");
        (id, self.charge_of(id).await)
    }

    /// The top-up's charge at the provider (the console's field, read here directly).
    async fn charge_of(&self, id: i64) -> String {
        sqlx::query_scalar("SELECT gateway_charge_id FROM topups WHERE id = $1")
            .bind(id)
            .fetch_one(&self.db)
            .await
            .expect("charge")
    }

    async fn spend(&self, amount: i64) {
        let mut conn = self.db.acquire().await.expect("conn");
        ledger::spend(
            &mut conn,
            &Spend {
                user_id: UserId(self.member_id),
                station_id: StationId(self.station_id),
                kind: SpendKind::Purchase,
                source_id: format!("pedido-{amount}"),
                amount,
                description: "Pedido de teste".into(),
                action_id: None,
            },
        )
        .await
        .expect("spend");
    }

    async fn topup_status(&self, id: i64) -> Value {
        let one = call(
            &self.app,
            "GET",
            &format!("/api/user-buy-points-transaction/{id}"),
            Some(&self.token),
            &[],
        )
        .await;
        assert_eq!(one.status, StatusCode::OK, "{}", one.text);
        one.json()["status"].clone()
    }

    async fn debt(&self) -> i64 {
        ledger::debt(&self.db, self.member_id).await.expect("debt")
    }

    /// The wallet's invariants hold (balance and debt are their ledgers' sums).
    async fn ledger_consistent(&self) {
        let mismatches = ledger::check(&self.db, self.member_id)
            .await
            .expect("check");
        assert!(mismatches.is_empty(), "{mismatches:?}");
    }
}

#[testkit::db_test]
async fn a_card_top_up_charged_back_after_part_was_spent_leaves_the_spent_part_as_debt(db: PgPool) {
    let w = world(db).await;
    let card_id = w.saved_card(APPROVES).await;
    let (id, charge) = w.credited_card_topup(card_id, 100).await;
    w.spend(3000).await;
    assert_eq!(w.balance().await, 7000);

    w.sandbox.chargeback(&charge).await.expect("chargeback");
    // The provider delivers the event three times: one sync, one reversal.
    assert_eq!(w.deliver(3).await, 1);
    assert_eq!(w.topup_status(id).await, "refunded");
    assert_eq!(w.balance().await, 0);
    assert_eq!(w.debt().await, 3000);
    w.ledger_consistent().await;
    let reversed: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM credit_lots
          WHERE source_kind = 'topup' AND source_id = $1 AND state = 'reversed'",
    )
    .bind(id.to_string())
    .fetch_one(&w.db)
    .await
    .expect("lots");
    assert_eq!(reversed, 1);
    // Staff cannot refund it again: the bank has the money back already, nothing is sent.
    let support = w.support().await;
    let again = w.decide(&support, id, "refund").await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    let refunds: i64 =
        sqlx::query_scalar("SELECT count(*) FROM sandbox_refunds WHERE charge_id = $1")
            .bind(&charge)
            .fetch_one(&w.db)
            .await
            .expect("refunds");
    assert_eq!(refunds, 0);
    assert_eq!(w.debt().await, 3000);
}

#[testkit::db_test]
async fn a_pix_top_up_the_bank_refunds_whole_takes_its_credit_back(db: PgPool) {
    let w = world(db).await;
    let pix = w.pix(50.0).await;
    let id = pix["id"].as_i64().expect("id");
    let charge = pix["pix"]["charge_id"]
        .as_str()
        .expect("charge")
        .to_string();
    w.sandbox
        .pay_pix(&charge, &payments::sandbox::PixPayment::default())
        .await
        .expect("paid");
    w.deliver(1).await;
    run_jobs::<PointsCredit>(&w.db, "points.credit").await;
    assert_eq!(w.topup_status(id).await, "credited");
    assert_eq!(w.balance().await, 5000);

    // MED: the payer's bank returns it all, on its own.
    w.sandbox.bank_refund(&charge, None).await.expect("MED");
    w.deliver(2).await;
    assert_eq!(w.topup_status(id).await, "refunded");
    assert_eq!((w.balance().await, w.debt().await), (0, 0));
    w.ledger_consistent().await;
}

#[testkit::db_test]
async fn a_partial_bank_refund_takes_back_that_much_of_the_credit(db: PgPool) {
    let w = world(db).await;
    let card_id = w.saved_card(APPROVES).await;
    let (id, charge) = w.credited_card_topup(card_id, 100).await;
    w.spend(3000).await;

    // R$ 20,00 of R$ 100,00 given back: R$ 20,00 of the credit leaves, the top-up stays
    // credited; the report replayed takes nothing more.
    w.sandbox
        .bank_refund(&charge, Some(2000))
        .await
        .expect("partial");
    w.deliver(3).await;
    assert_eq!(w.topup_status(id).await, "credited");
    assert_eq!((w.balance().await, w.debt().await), (5000, 0));
    w.ledger_consistent().await;

    // R$ 60,00 more (R$ 80,00 in all): R$ 20,00 kept, R$ 30,00 spent: R$ 10,00 owed.
    w.sandbox
        .bank_refund(&charge, Some(6000))
        .await
        .expect("partial");
    w.deliver(2).await;
    assert_eq!(w.topup_status(id).await, "credited");
    assert_eq!((w.balance().await, w.debt().await), (0, 1000));
    w.ledger_consistent().await;

    // The rest: the whole top-up is given back, what was spent of it is owed.
    w.sandbox.bank_refund(&charge, None).await.expect("rest");
    w.deliver(2).await;
    assert_eq!(w.topup_status(id).await, "refunded");
    assert_eq!((w.balance().await, w.debt().await), (0, 3000));
    w.ledger_consistent().await;
    assert_eq!(w.balance().await, 0);
}

#[testkit::db_test]
async fn twenty_chargeback_webhooks_at_once_take_the_credit_back_once(db: PgPool) {
    let w = world(db).await;
    let card_id = w.saved_card(APPROVES).await;
    let (id, charge) = w.credited_card_topup(card_id, 100).await;
    w.spend(4000).await;
    w.sandbox.chargeback(&charge).await.expect("chargeback");
    let deliveries = w.sandbox.due_webhooks(10).await.expect("outbox");
    assert_eq!(deliveries.len(), 1);
    let real = deliveries[0].body.clone();
    // 20 at once: the real event again and again, and new events naming the charge.
    let mut tasks = tokio::task::JoinSet::new();
    for n in 0..20 {
        let app = w.app.clone();
        let body = if n % 2 == 0 {
            real.clone()
        } else {
            json!({ "id": format!("hook_chargeback_{n}"), "type": "charge.chargedback",
                    "data": { "id": charge, "status": "chargedback" } })
            .to_string()
        };
        let signature = w.sandbox.sign(body.as_bytes());
        tasks.spawn(async move { common::post_webhook(&app, &body, &signature).await.status });
    }
    while let Some(status) = tasks.join_next().await {
        assert_eq!(status.expect("task"), StatusCode::OK);
    }
    // Two workers run the syncs at once.
    let db = w.db.clone();
    let (a, b) = tokio::join!(
        run_jobs::<PaymentSync>(&db, "payment.sync"),
        run_jobs::<PaymentSync>(&db, "payment.sync"),
    );
    assert!(a + b >= 11, "{a} + {b}");
    assert_eq!(w.topup_status(id).await, "refunded");
    assert_eq!((w.balance().await, w.debt().await), (0, 4000));
    let debts: i64 = sqlx::query_scalar("SELECT count(*) FROM wallet_debts WHERE user_id = $1")
        .bind(w.member_id)
        .fetch_one(&w.db)
        .await
        .expect("debts");
    assert_eq!(debts, 1);
    w.ledger_consistent().await;
}

#[testkit::db_test]
async fn a_top_up_under_review_charged_back_is_never_credited(db: PgPool) {
    let w = world(db).await;
    let card_id = w.saved_card(APPROVES).await;
    let review = w
        .buy(json!({ "points": 1500, "method": "card", "card_id": card_id }))
        .await;
    assert_eq!(review.json()["status"], "review", "{}", review.text);
    let id = review.json()["id"].as_i64().expect("id");
    let charge = w.charge_of(id).await;
    w.deliver(1).await;
    w.sandbox.chargeback(&charge).await.expect("chargeback");
    w.deliver(2).await;
    assert_eq!(w.topup_status(id).await, "refunded");

    // Staff decide too late: neither confirmed nor rejected (no refund sent for money the
    // bank has back), nothing credited, ever.
    let support = w.support().await;
    for decision in ["confirm", "reject", "refund"] {
        let answer = w.decide(&support, id, decision).await;
        assert_eq!(
            answer.status,
            StatusCode::CONFLICT,
            "{decision}: {}",
            answer.text
        );
    }
    // A replayed paid report, or a check, credits nothing either.
    w.deliver(1).await;
    assert_eq!(
        jobs_keyed(&w.db, "points.credit", &format!("topup:{id}:")).await,
        0
    );
    run_jobs::<PointsCredit>(&w.db, "points.credit").await;
    assert_eq!(topup_lots(&w.db, id).await, 0);
    assert_eq!((w.balance().await, w.debt().await), (0, 0));
    let refunds: i64 =
        sqlx::query_scalar("SELECT count(*) FROM sandbox_refunds WHERE charge_id = $1")
            .bind(&charge)
            .fetch_one(&w.db)
            .await
            .expect("refunds");
    assert_eq!(refunds, 0);

    // A PIX under review the bank refunds whole (MED) ends the same way.
    let pix = w.pix(2000.0).await;
    let pix_id = pix["id"].as_i64().expect("id");
    let pix_charge = pix["pix"]["charge_id"]
        .as_str()
        .expect("charge")
        .to_string();
    w.sandbox
        .pay_pix(&pix_charge, &payments::sandbox::PixPayment::default())
        .await
        .expect("paid");
    w.deliver(1).await;
    assert_eq!(w.topup_status(pix_id).await, "review");
    w.sandbox.bank_refund(&pix_charge, None).await.expect("MED");
    w.deliver(1).await;
    assert_eq!(w.topup_status(pix_id).await, "refunded");
    let confirm = w.decide(&support, pix_id, "confirm").await;
    assert_eq!(confirm.status, StatusCode::CONFLICT, "{}", confirm.text);
    assert_eq!(w.balance().await, 0);

    // One the bank gives part of back before staff decide is rejected and the rest refunded:
    // staff cannot credit money the member was partly given back.
    let third = w
        .buy(json!({ "points": 1200, "method": "card", "card_id": card_id }))
        .await;
    let third_id = third.json()["id"].as_i64().expect("id");
    let third_charge = w.charge_of(third_id).await;
    w.deliver(1).await;
    w.sandbox
        .bank_refund(&third_charge, Some(20_000))
        .await
        .expect("partial");
    w.deliver(2).await;
    assert_eq!(w.topup_status(third_id).await, "rejected");
    let given_back: i64 = sqlx::query_scalar(
        "SELECT coalesce(sum(amount_cents), 0)::bigint FROM sandbox_refunds WHERE charge_id = $1",
    )
    .bind(&third_charge)
    .fetch_one(&w.db)
    .await
    .expect("refunds");
    assert_eq!(given_back, 120_000);
    // Our refund's report, replayed, asks nothing more.
    w.deliver(3).await;
    let refunds: i64 =
        sqlx::query_scalar("SELECT count(*) FROM sandbox_refunds WHERE charge_id = $1")
            .bind(&third_charge)
            .fetch_one(&w.db)
            .await
            .expect("refunds");
    assert_eq!(refunds, 2);
    let confirm = w.decide(&support, third_id, "confirm").await;
    assert_eq!(confirm.status, StatusCode::CONFLICT, "{}", confirm.text);
    assert_eq!((w.balance().await, w.debt().await), (0, 0));
}

#[testkit::db_test]
async fn staff_refunding_a_top_up_the_bank_partly_refunded_gives_back_the_rest_only(db: PgPool) {
    let w = world(db).await;
    let card_id = w.saved_card(APPROVES).await;
    let (id, charge) = w.credited_card_topup(card_id, 100).await;
    w.spend(3000).await;
    w.sandbox
        .bank_refund(&charge, Some(2000))
        .await
        .expect("partial");
    w.deliver(1).await;
    assert_eq!((w.balance().await, w.debt().await), (5000, 0));

    let support = w.support().await;
    let refunded = w.decide(&support, id, "refund").await;
    assert_eq!(refunded.status, StatusCode::OK, "{}", refunded.text);
    assert_eq!(refunded.json()["status"], "refunded");
    // What the bank left (R$ 80,00) is taken back: R$ 50,00 unspent, R$ 30,00 owed.
    assert_eq!((w.balance().await, w.debt().await), (0, 3000));
    let at_provider: i64 = sqlx::query_scalar(
        "SELECT coalesce(sum(amount_cents), 0)::bigint FROM sandbox_refunds WHERE charge_id = $1",
    )
    .bind(&charge)
    .fetch_one(&w.db)
    .await
    .expect("refunds");
    assert_eq!(at_provider, 10_000);
    // The provider's report of our refund changes nothing more.
    w.deliver(2).await;
    assert_eq!(w.topup_status(id).await, "refunded");
    assert_eq!((w.balance().await, w.debt().await), (0, 3000));
    w.ledger_consistent().await;
}
