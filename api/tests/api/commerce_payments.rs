//! Paying orders by card and PIX over HTTP against the real database and the sandbox
//! provider: the order call charging the gateway, the webhook endpoint and `payment.sync`,
//! "Verificar pagamento", `pix.expire`, a PIX paid after its expiry, a thousand random
//! webhook deliveries, and the sandbox's routes (absent in Pagar.me mode). Jobs run through
//! their real handlers, called here as a worker would.

use crate::common;
use std::time::Instant;

use crate::common::{call, post_webhook, run_jobs, send_json};
use axum::Router;
use axum::http::StatusCode;
use domain::commerce::payment;
use jobs::kinds::{PaymentSync, PixExpire};
use jobs::{Job, JobContext};
use payments::Gateway;
use payments::sandbox::{PixPayment, Sandbox};
use serde_json::{Value, json};
use sqlx::PgPool;

const FORBIDDEN: &str = "Você não possui autorização para acessar esta página.";

struct Shop {
    app: Router,
    db: PgPool,
    token: String,
    member_id: i64,
    station_id: i64,
    action_id: i64,
    product_id: i64,
    sandbox: Sandbox,
}

/// The demo station and member (30 points: R$ 30,00 in the wallet), a digital product of
/// R$ 50,00 with `stock` units, and the sandbox the app uses.
async fn shop(db: &PgPool, stock: i32) -> Shop {
    shop_with(db, stock, &[]).await
}

/// [`shop`] with some settings of the app overridden.
async fn shop_with(db: &PgPool, stock: i32, settings: &[(&str, &str)]) -> Shop {
    let (demo, token) = common::demo_member_session(db).await;
    let app = common::app_with(db.clone(), settings);
    let action_id: i64 = sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, points, digital_product, allow_installments)
         VALUES ($1, 14, 'Loja do clube', 2, true, true) RETURNING id",
    )
    .bind(demo.station_id)
    .fetch_one(db)
    .await
    .expect("action");
    let product_id: i64 = sqlx::query_scalar(
        "INSERT INTO products (station_id, action_id, name, value, stock, limit_per_user)
         VALUES ($1, $2, 'Camiseta', 5000, $3, 10) RETURNING id",
    )
    .bind(demo.station_id)
    .bind(action_id)
    .bind(stock)
    .fetch_one(db)
    .await
    .expect("product");
    Shop {
        app,
        db: db.clone(),
        token,
        member_id: demo.member_id,
        station_id: demo.station_id,
        action_id,
        product_id,
        sandbox: common::sandbox(db),
    }
}

async fn send(app: &Router, method: &str, uri: &str, token: &str, body: Value) -> common::Answer {
    send_json(app, method, uri, Some(token), &[], &body).await
}

impl Shop {
    /// Holds `quantity` units and places the order paying the rest with `payment`.
    async fn order(&self, quantity: i64, payment: Value) -> common::Answer {
        self.order_as(&self.token, quantity, payment).await
    }

    async fn order_as(&self, token: &str, quantity: i64, payment: Value) -> common::Answer {
        self.order_with(token, quantity, payment, None).await
    }

    /// [`Shop::order_as`] with a coupon code on the order call.
    async fn order_with(
        &self,
        token: &str,
        quantity: i64,
        payment: Value,
        coupon: Option<&str>,
    ) -> common::Answer {
        let hold = send(
            &self.app,
            "POST",
            "/api/single-product-orders",
            token,
            json!({ format!("product-{}", self.product_id): quantity }),
        )
        .await;
        assert_eq!(hold.status, StatusCode::OK, "{}", hold.text);
        send(
            &self.app,
            "POST",
            "/api/cupom-product-order-cart",
            token,
            json!({ "cart": [{ "action_id": self.action_id }], "payment": payment,
                    "coupon_code": coupon }),
        )
        .await
    }

    async fn read_order(&self, order_id: i64) -> Value {
        let answer = call(
            &self.app,
            "GET",
            &format!("/api/product-orders/?where[id]={order_id}"),
            Some(&self.token),
            &[],
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        answer.json()[0].clone()
    }

    async fn check(&self, order_id: i64) -> common::Answer {
        self.check_as(&self.token, order_id).await
    }

    async fn check_as(&self, token: &str, order_id: i64) -> common::Answer {
        call(
            &self.app,
            "POST",
            &format!("/api/product-orders/{order_id}/check-payment"),
            Some(token),
            &[],
        )
        .await
    }

    /// Makes the order's last read from the provider a minute old, past the reuse window.
    async fn age_reads(&self, order_id: i64) {
        sqlx::query(
            "UPDATE payments SET charge_read_at = now() - interval '1 minute' WHERE order_id = $1",
        )
        .bind(order_id)
        .execute(&self.db)
        .await
        .expect("age the reads");
    }

    async fn simulate_pix(&self, charge_id: &str) -> common::Answer {
        call(
            &self.app,
            "POST",
            &format!("/api/sandbox/pix/{charge_id}/pay"),
            Some(&self.token),
            &[],
        )
        .await
    }

    /// Posts every due sandbox delivery to the webhook endpoint, as `sandbox.deliver` does
    /// (in-process), then runs the `payment.sync` jobs they made. Answers the deliveries.
    async fn deliver(&self) -> usize {
        let due = common::deliver_webhooks(&self.app, &self.sandbox, 1).await;
        run_jobs::<PaymentSync>(&self.db, "payment.sync", false).await;
        due.len()
    }

    async fn stock(&self) -> (i32, i32) {
        sqlx::query_as("SELECT stock, reserved FROM products WHERE id = $1")
            .bind(self.product_id)
            .fetch_one(&self.db)
            .await
            .expect("stock")
    }

    async fn balance(&self) -> i64 {
        domain::wallet::ledger::balance(&self.db, self.member_id)
            .await
            .expect("balance")
            .balance
    }

    /// Moves the order's PIX charge, its part and its hold to a second ago (as if its time
    /// had run out), at the sandbox too.
    async fn run_out(&self, order_id: i64, charge_id: &str) {
        sqlx::query(
            "UPDATE payments SET expires_at = now() - interval '1 second' WHERE order_id = $1;",
        )
        .bind(order_id)
        .execute(&self.db)
        .await
        .expect("part");
        sqlx::query(
            "UPDATE checkouts SET expires_at = now() - interval '1 second'
              WHERE id = (SELECT checkout_id FROM orders WHERE id = $1)",
        )
        .bind(order_id)
        .execute(&self.db)
        .await
        .expect("hold");
        sqlx::query(
            "UPDATE sandbox_charges SET expires_at = now() - interval '1 second' WHERE id = $1",
        )
        .bind(charge_id)
        .execute(&self.db)
        .await
        .expect("charge");
    }
}

fn order_id(order: &Value) -> i64 {
    order["id"].as_i64().expect("order id")
}

fn charge_of(order: &Value) -> String {
    order["gateway_charge"]["charge_id"]
        .as_str()
        .expect("charge id")
        .to_string()
}

async fn count(db: &PgPool, sql: &str, order_id: i64) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
        .bind(order_id)
        .fetch_one(db)
        .await
        .expect("count")
}

#[testkit::db_test]
async fn wallet_and_pix_simulated_payment_pays_the_order_once(db: PgPool) {
    let shop = shop(&db, 10).await;
    let placed = shop.order(1, json!({ "type": "pix" })).await;
    assert_eq!(placed.status, StatusCode::OK, "{}", placed.text);
    let order = placed.json();
    assert_eq!(order["status"], "Aguardando pagamento");
    assert_eq!(order["wallet_value"], 3000);
    assert_eq!(order["credit_card_value"], 2000);
    let code = order["gateway_charge"]["pix_qr_code"]
        .as_str()
        .expect("BR Code");
    assert!(code.starts_with("000201"), "{code}");
    assert!(code.contains("540520.00"), "{code}");
    let expires: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(order["gateway_charge"]["expiration_date"].clone()).expect("date");
    let minutes = (expires - chrono::Utc::now()).num_minutes();
    assert!((29..=30).contains(&minutes), "{minutes}");
    // The hold lasts as long as the charge, and the expiry job waits for it.
    let hold_until: chrono::DateTime<chrono::Utc> = sqlx::query_scalar(
        "SELECT c.expires_at FROM checkouts c JOIN orders o ON o.checkout_id = c.id WHERE o.id = $1",
    )
    .bind(order_id(&order))
    .fetch_one(&db)
    .await
    .expect("hold");
    assert_eq!(hold_until.timestamp(), expires.timestamp());
    let expiry_jobs = count(
        &db,
        "SELECT count(*) FROM apalis.jobs WHERE job_type = 'pix.expire' AND run_at > now() AND $1 > 0",
        1,
    )
    .await;
    assert_eq!(expiry_jobs, 1);
    assert_eq!(shop.stock().await, (10, 1));

    // The same call again answers the same order and makes no second charge.
    let again = send(
        &shop.app,
        "POST",
        "/api/cupom-product-order-cart",
        &shop.token,
        json!({ "cart": [{ "action_id": shop.action_id }], "payment": { "type": "pix" } }),
    )
    .await;
    assert_eq!(again.json()["id"], order["id"]);
    assert_eq!(charge_of(&again.json()), charge_of(&order));
    let charges: i64 = sqlx::query_scalar("SELECT count(*) FROM sandbox_charges")
        .fetch_one(&db)
        .await
        .expect("charges");
    assert_eq!(charges, 1);

    // Not paid yet: the check says so.
    let checked = shop.check(order_id(&order)).await;
    assert_eq!(checked.json()["status"], "Aguardando pagamento");

    let paid = shop.simulate_pix(&charge_of(&order)).await;
    assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);
    assert_eq!(paid.json()["status"], "paid");
    let deliver_jobs = count(
        &db,
        "SELECT count(*) FROM apalis.jobs WHERE job_type = 'sandbox.deliver' AND $1 > 0",
        1,
    )
    .await;
    assert_eq!(deliver_jobs, 1);
    assert_eq!(shop.deliver().await, 1);
    let order = shop.read_order(order_id(&order)).await;
    assert_eq!(order["status"], "Pagamento confirmado");
    assert_eq!(shop.stock().await, (9, 0));

    // The same event delivered twice more, and the expiry job running anyway: nothing more.
    let event: String = sqlx::query_scalar("SELECT event_id FROM sandbox_webhooks LIMIT 1")
        .fetch_one(&db)
        .await
        .expect("event");
    shop.sandbox.redeliver(&event, 0).await.expect("again");
    shop.sandbox.redeliver(&event, 0).await.expect("again");
    assert_eq!(shop.deliver().await, 2);
    let results = run_jobs::<PixExpire>(&db, "pix.expire", true).await;
    assert_eq!(results.len(), 1);
    assert!(
        results[0]["applied"]
            .as_str()
            .expect("applied")
            .starts_with("Unchanged")
    );
    let twice = shop.simulate_pix(&charge_of(&order)).await;
    assert_eq!(twice.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(shop.stock().await, (9, 0));
    assert_eq!(shop.balance().await, 0);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM payments WHERE order_id = $1 AND status = 'paid'",
            order_id(&order)
        )
        .await,
        2
    );
    assert_eq!(
        count(&db, "SELECT count(*) FROM payment_events WHERE $1 > 0", 1).await,
        1
    );
}

#[testkit::db_test]
async fn cards_approved_declined_and_processing_then_paid(db: PgPool) {
    let shop = shop(&db, 10).await;

    // Declined: a token from the sandbox's tokeniser for a ...0028 card.
    let token = send(
        &shop.app,
        "POST",
        "/api/sandbox/card-tokens",
        &shop.token,
        json!({ "number": "4000 0000 0000 0028", "holder_name": "MARIA S", "expiry": "1230", "cvv": "123" }),
    )
    .await;
    assert_eq!(token.status, StatusCode::OK, "{}", token.text);
    let card_token = token.json()["card_token"]
        .as_str()
        .expect("token")
        .to_string();
    let declined = shop
        .order(
            1,
            common::with_billing_address(
                json!({ "type": "credit_card", "card_token": card_token, "installments": 1 }),
            ),
        )
        .await;
    assert_eq!(
        declined.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        declined.text
    );
    assert_eq!(
        declined.json()["messages"],
        json!(["Transação não autorizada pelo emissor"])
    );
    let last: i64 = sqlx::query_scalar("SELECT max(id) FROM orders")
        .fetch_one(&db)
        .await
        .expect("order");
    let order = shop.read_order(last).await;
    assert_eq!(order["status"], "Pagamento recusado");
    assert_eq!(
        order["payments"][1]["failure_reason"],
        "Transação não autorizada pelo emissor"
    );
    // The hold and the wallet part are given back, and the product is in the cart again
    // for another way to pay.
    assert_eq!(shop.stock().await, (10, 0));
    assert_eq!(shop.balance().await, 3000);
    let cart = call(
        &shop.app,
        "GET",
        "/api/user-shopping-cart",
        Some(&shop.token),
        &[],
    )
    .await;
    assert_eq!(cart.json()[0]["product_id"], shop.product_id);
    assert_eq!(cart.json()[0]["quantity"], 1);

    // Approved: in the sandbox a raw number is tokenised for the demo.
    let approved = shop
        .order(
            1,
            common::with_billing_address(
                json!({ "type": "credit_card", "number": "4000000000000010", "name": "MARIA S",
                          "expiry": "12/30", "cvv": "123", "installments": 2 }),
            ),
        )
        .await;
    assert_eq!(approved.status, StatusCode::OK, "{}", approved.text);
    assert_eq!(approved.json()["status"], "Pagamento confirmado");
    assert_eq!(
        approved.json()["gateway_charge"]["payment_method"],
        "credit_card"
    );
    assert_eq!(shop.stock().await, (9, 0));
    assert_eq!(shop.balance().await, 0);

    // Processing, then paid: pending until the provider decides; the check confirms it and
    // the webhook that follows changes nothing.
    let processing = shop
        .order(
            1,
            common::with_billing_address(
                json!({ "type": "credit_card", "number": "4000000000000036", "name": "MARIA S",
                          "expiry": "12/30", "cvv": "123" }),
            ),
        )
        .await;
    assert_eq!(processing.status, StatusCode::OK, "{}", processing.text);
    let order = processing.json();
    assert_eq!(order["status"], "Aguardando pagamento");
    assert_eq!(
        shop.check(order_id(&order)).await.json()["status"],
        "Aguardando pagamento"
    );
    sqlx::query("UPDATE sandbox_charges SET settle_at = now() - interval '1 second' WHERE id = $1")
        .bind(charge_of(&order))
        .execute(&db)
        .await
        .expect("settle");
    // A check within seconds of the last read answers that read; this one comes later.
    shop.age_reads(order_id(&order)).await;
    let checked = shop.check(order_id(&order)).await;
    assert_eq!(checked.json()["status"], "Pagamento confirmado");
    shop.deliver().await;
    assert_eq!(
        shop.read_order(order_id(&order)).await["status"],
        "Pagamento confirmado"
    );
    assert_eq!(shop.stock().await, (8, 0));

    // No card at all, and a new card without its billing address (the provider does not
    // tokenise it) or with a wrong CEP, are refused before anything is charged.
    let none = shop.order(1, json!({ "type": "credit_card" })).await;
    assert_eq!(none.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        none.json()["messages"],
        json!(["Informe os dados do cartão."])
    );
    let unbilled = shop
        .order(
            1,
            json!({ "type": "credit_card", "card_token": "tok_whatever", "installments": 1 }),
        )
        .await;
    assert_eq!(unbilled.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        unbilled.json()["messages"],
        json!(["Informe o endereço de cobrança do cartão."])
    );
    let mut bad_cep = common::with_billing_address(
        json!({ "type": "credit_card", "card_token": "tok_whatever", "installments": 1 }),
    );
    bad_cep["cep"] = json!("88010-40");
    let bad_cep = shop.order(1, bad_cep).await;
    assert_eq!(bad_cep.json()["messages"], json!(["CEP inválido"]));
    // Nothing sold nor charged: the hold waits for the corrected form.
    assert_eq!(shop.stock().await, (8, 1));
    let charges: i64 = sqlx::query_scalar("SELECT count(*) FROM sandbox_charges")
        .fetch_one(&db)
        .await
        .expect("charges");
    assert_eq!(
        charges, 3,
        "the declined, approved and processing cards only"
    );
}

#[testkit::db_test]
async fn the_pix_expiry_expires_an_unpaid_order_and_confirms_one_just_paid(db: PgPool) {
    let shop = shop(&db, 10).await;
    let order = shop.order(2, json!({ "type": "pix" })).await.json();
    assert_eq!(shop.balance().await, 0);
    shop.run_out(order_id(&order), &charge_of(&order)).await;
    let results = run_jobs::<PixExpire>(&db, "pix.expire", true).await;
    assert!(
        results[0]["applied"]
            .as_str()
            .expect("applied")
            .starts_with("Expired")
    );
    let expired = shop.read_order(order_id(&order)).await;
    assert_eq!(expired["status"], "Pagamento expirado");
    assert_eq!(expired["payments"][1]["status"], "expired");
    assert_eq!(shop.stock().await, (10, 0));
    assert_eq!(shop.balance().await, 3000);
    let status: String = sqlx::query_scalar("SELECT status FROM sandbox_charges WHERE id = $1")
        .bind(charge_of(&order))
        .fetch_one(&db)
        .await
        .expect("charge");
    assert_eq!(status, "canceled");

    // Paid a moment before the expiry job runs, webhook not yet delivered: confirmed.
    let order = shop.order(1, json!({ "type": "pix" })).await.json();
    shop.sandbox
        .pay_pix(&charge_of(&order), &PixPayment::default())
        .await
        .expect("paid");
    shop.run_out(order_id(&order), &charge_of(&order)).await;
    run_jobs::<PixExpire>(&db, "pix.expire", true).await;
    assert_eq!(
        shop.read_order(order_id(&order)).await["status"],
        "Pagamento confirmado"
    );
    shop.deliver().await;
    assert_eq!(shop.stock().await, (9, 0));
    assert_eq!(shop.balance().await, 0);
}

#[testkit::db_test]
async fn a_pix_paid_after_its_expiry_completes_what_it_can(db: PgPool) {
    let shop = shop(&db, 10).await;
    // Stock still there: the order is completed, the wallet part spent again.
    let order = shop.order(1, json!({ "type": "pix" })).await.json();
    shop.run_out(order_id(&order), &charge_of(&order)).await;
    run_jobs::<PixExpire>(&db, "pix.expire", true).await;
    assert_eq!(shop.balance().await, 3000);
    let paid = shop.simulate_pix(&charge_of(&order)).await;
    assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);
    shop.deliver().await;
    let late = shop.read_order(order_id(&order)).await;
    assert_eq!(late["status"], "Pagamento confirmado");
    assert_eq!(shop.stock().await, (9, 0));
    assert_eq!(shop.balance().await, 0);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM refunds WHERE order_id = $1",
            order_id(&order)
        )
        .await,
        0
    );

    // Sold out meanwhile: the late money goes back with its reason, and the member is told.
    let (other_id, other_token) = {
        let id = common::insert_member(&db, shop.station_id, "outra@example.com").await;
        (
            id,
            domain::accounts::session::create(&db, id)
                .await
                .expect("session"),
        )
    };
    let order = shop
        .order_as(&other_token, 2, json!({ "type": "pix" }))
        .await
        .json();
    assert_eq!(order["user_id"], other_id);
    shop.run_out(order_id(&order), &charge_of(&order)).await;
    run_jobs::<PixExpire>(&db, "pix.expire", true).await;
    sqlx::query("UPDATE products SET stock = reserved + 1 WHERE id = $1")
        .bind(shop.product_id)
        .execute(&db)
        .await
        .expect("sold out");
    shop.sandbox
        .pay_pix(&charge_of(&order), &PixPayment::default())
        .await
        .expect("late payment");
    shop.deliver().await;
    let (status, percentage): (String, String) =
        sqlx::query_as("SELECT status, refunded_percentage::text FROM orders WHERE id = $1")
            .bind(order_id(&order))
            .fetch_one(&db)
            .await
            .expect("order");
    assert_eq!(status, "refunded");
    assert_eq!(percentage, "100.00");
    // What went back is on the order (the receipt shows it), and the line earns nothing.
    let (refunded_value, cashback_share): (i64, i64) = sqlx::query_as(
        "SELECT o.refunded_value, l.cashback_share FROM orders o
           JOIN order_lines l ON l.order_id = o.id WHERE o.id = $1",
    )
    .bind(order_id(&order))
    .fetch_one(&db)
    .await
    .expect("order");
    assert_eq!((refunded_value, cashback_share), (10000, 0));
    let (amount, reason, refund_status): (i64, String, String) = sqlx::query_as(
        "SELECT amount, reason, status FROM refunds WHERE order_id = $1 AND origin = 'late_payment'",
    )
    .bind(order_id(&order))
    .fetch_one(&db)
    .await
    .expect("refund");
    assert_eq!(amount, 10000);
    assert!(reason.contains("após o prazo"), "{reason}");
    assert_eq!(refund_status, "done");
    let sandbox_refunds: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM sandbox_refunds WHERE charge_id = $1 AND amount_cents = 10000",
    )
    .bind(charge_of(&order))
    .fetch_one(&db)
    .await
    .expect("refunds");
    assert_eq!(sandbox_refunds, 1);
    // Each late payment told its member: the first completed, this one given back.
    let mails: (i64, i64) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE convert_from(job, 'UTF8') LIKE '%seu pedido foi confirmado%'),
                count(*) FILTER (WHERE convert_from(job, 'UTF8') LIKE '%R$ 100,00 será devolvido%')
           FROM apalis.jobs WHERE job_type = 'mail.send'",
    )
    .fetch_one(&db)
    .await
    .expect("mail");
    assert_eq!(mails, (1, 1));
    // Nothing was sold twice: one unit left (the one the sold-out update kept).
    assert_eq!(shop.stock().await.0 - shop.stock().await.1, 1);
}

#[testkit::db_test]
async fn a_late_pix_confirmed_from_every_side_at_once_is_handled_once(db: PgPool) {
    let shop = shop(&db, 10).await;
    let late_mails = |needle: &'static str| {
        let db = db.clone();
        async move {
            sqlx::query_scalar::<_, i64>(
                "SELECT count(*) FROM apalis.jobs
                  WHERE job_type = 'mail.send' AND convert_from(job, 'UTF8') LIKE $1",
            )
            .bind(format!("%{needle}%"))
            .fetch_one(&db)
            .await
            .expect("mails")
        }
    };

    let shop = &shop;
    // A PIX order whose time runs out and is ended.
    let expired_order = || async {
        let order = shop.order(1, json!({ "type": "pix" })).await.json();
        shop.run_out(order_id(&order), &charge_of(&order)).await;
        run_jobs::<PixExpire>(&db, "pix.expire", true).await;
        order
    };
    // Paid late, then two browser checks and the webhook at once.
    let pay_late_from_every_side = |order: Value| async move {
        shop.sandbox
            .pay_pix(&charge_of(&order), &PixPayment::default())
            .await
            .expect("late payment");
        let (first, second, _) = tokio::join!(
            shop.check(order_id(&order)),
            shop.check(order_id(&order)),
            shop.deliver()
        );
        assert_eq!(first.status, StatusCode::OK, "{}", first.text);
        assert_eq!(second.status, StatusCode::OK, "{}", second.text);
        shop.deliver().await;
    };

    // Stock still there: the unit is re-claimed once.
    let order = expired_order().await;
    pay_late_from_every_side(order.clone()).await;
    assert_eq!(
        shop.read_order(order_id(&order)).await["status"],
        "Pagamento confirmado"
    );
    assert_eq!(shop.stock().await, (9, 0), "one unit re-claimed, once");
    assert_eq!(shop.balance().await, 0, "the wallet part spent again, once");
    assert_eq!(late_mails("seu pedido foi confirmado").await, 1);

    // Sold out meanwhile: the same three at once give the money back once.
    let order = expired_order().await;
    sqlx::query("UPDATE products SET stock = reserved WHERE id = $1")
        .bind(shop.product_id)
        .execute(&db)
        .await
        .expect("sold out");
    pay_late_from_every_side(order.clone()).await;
    let refunds: (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM refunds WHERE order_id = $1),
                (SELECT count(*) FROM sandbox_refunds WHERE charge_id = $2)",
    )
    .bind(order_id(&order))
    .bind(charge_of(&order))
    .fetch_one(&db)
    .await
    .expect("refunds");
    assert_eq!(refunds, (1, 1), "one refund, one return of the money");
    assert_eq!(late_mails("será devolvido").await, 1);
    assert_eq!(
        shop.balance().await,
        0,
        "the wallet part was not spent twice"
    );
}

/// [`shop`] whose activity is `payment_only` (the wallet pays nothing, so what a late
/// payment completes turns on the coupon and the limit alone), with a coupon of R$ 10,00.
async fn coupon_shop(db: &PgPool, code: &str, max_uses: Option<i32>) -> Shop {
    let shop = shop(db, 10).await;
    sqlx::query("UPDATE actions SET payment_option = 'payment_only' WHERE id = $1")
        .bind(shop.action_id)
        .execute(db)
        .await
        .expect("payment only");
    sqlx::query(
        "INSERT INTO coupons (station_id, code, discount_value, max_uses) VALUES ($1, $2, 1000, $3)",
    )
    .bind(shop.station_id)
    .bind(code)
    .bind(max_uses)
    .execute(db)
    .await
    .expect("coupon");
    shop
}

/// Another member of the shop's station with a session.
async fn other_member(shop: &Shop, email: &str) -> (i64, String) {
    let id = common::insert_member(&shop.db, shop.station_id, email).await;
    let token = domain::accounts::session::create(&shop.db, id)
        .await
        .expect("session");
    (id, token)
}

impl Shop {
    /// One unit ordered by PIX (with `coupon`), its time run out and ended by `pix.expire`.
    async fn expired_pix(&self, token: &str, coupon: Option<&str>) -> Value {
        let placed = self
            .order_with(token, 1, json!({ "type": "pix" }), coupon)
            .await;
        assert_eq!(placed.status, StatusCode::OK, "{}", placed.text);
        let order = placed.json();
        self.run_out(order_id(&order), &charge_of(&order)).await;
        run_jobs::<PixExpire>(&self.db, "pix.expire", true).await;
        let status: String = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
            .bind(order_id(&order))
            .fetch_one(&self.db)
            .await
            .expect("order");
        assert_eq!(status, "expired");
        order
    }

    /// The order's status and its late-payment refund (amount, reason), if any.
    async fn late_outcome(&self, order_id: i64) -> (String, Option<(i64, String)>) {
        let status: String = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
            .bind(order_id)
            .fetch_one(&self.db)
            .await
            .expect("order");
        let refund: Option<(i64, String)> = sqlx::query_as(
            "SELECT amount, reason FROM refunds WHERE order_id = $1 AND origin = 'late_payment'",
        )
        .bind(order_id)
        .fetch_optional(&self.db)
        .await
        .expect("refund");
        (status, refund)
    }

    /// The coupon's counted uses, the live uses recorded, and the paid orders it discounts.
    async fn coupon_counts(&self, code: &str) -> (i32, i64, i64) {
        sqlx::query_as(
            "SELECT c.uses,
                    (SELECT count(*) FROM coupon_uses u
                      WHERE u.coupon_id = c.id AND u.released_at IS NULL),
                    (SELECT count(*) FROM orders o
                      WHERE o.coupon_id = c.id AND o.status IN ('paid', 'partially_refunded'))
               FROM coupons c WHERE c.station_id = $1 AND c.code = $2",
        )
        .bind(self.station_id)
        .bind(code)
        .fetch_one(&self.db)
        .await
        .expect("coupon")
    }
}

#[testkit::db_test]
async fn a_late_pix_takes_its_coupon_use_again_or_goes_back_whole(db: PgPool) {
    let shop = coupon_shop(&db, "UMAVEZ", None).await;
    // Once per member: the expired order gave its use back, and a second order took it.
    let first = shop.expired_pix(&shop.token, Some("UMAVEZ")).await;
    let second = shop
        .order_with(&shop.token, 1, json!({ "type": "pix" }), Some("UMAVEZ"))
        .await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text);
    assert_eq!(second.json()["credit_card_value"], 4000);
    assert_eq!(
        shop.simulate_pix(&charge_of(&second.json())).await.status,
        StatusCode::OK
    );
    shop.deliver().await;
    assert_eq!(shop.coupon_counts("UMAVEZ").await, (1, 1, 1));
    // The first order's PIX paid now: the coupon cannot be used twice, so it all goes back.
    assert_eq!(
        shop.simulate_pix(&charge_of(&first)).await.status,
        StatusCode::OK
    );
    shop.deliver().await;
    assert_eq!(
        shop.late_outcome(order_id(&first)).await,
        (
            "refunded".to_string(),
            Some((4000, payment::LATE_COUPON_REASON.to_string()))
        )
    );
    assert_eq!(shop.coupon_counts("UMAVEZ").await, (1, 1, 1));
    assert_eq!(shop.stock().await, (9, 0), "only the second order's unit");
    let refunded: i64 = sqlx::query_scalar(
        "SELECT coalesce(sum(amount_cents), 0)::bigint FROM sandbox_refunds WHERE charge_id = $1",
    )
    .bind(charge_of(&first))
    .fetch_one(&db)
    .await
    .expect("refunds");
    assert_eq!(refunded, 4000);

    // A use that is still free is taken again: the order completes at its discounted price,
    // and the member cannot use the coupon on another order after it.
    sqlx::query(
        "INSERT INTO coupons (station_id, code, discount_value) VALUES ($1, 'DENOVO', 1000)",
    )
    .bind(shop.station_id)
    .execute(&db)
    .await
    .expect("coupon");
    let late = shop.expired_pix(&shop.token, Some("DENOVO")).await;
    assert_eq!(shop.coupon_counts("DENOVO").await, (0, 0, 0));
    shop.simulate_pix(&charge_of(&late)).await;
    shop.deliver().await;
    assert_eq!(
        shop.late_outcome(order_id(&late)).await,
        ("paid".to_string(), None)
    );
    assert_eq!(shop.coupon_counts("DENOVO").await, (1, 1, 1));
    let again = shop
        .order_with(&shop.token, 1, json!({ "type": "pix" }), Some("DENOVO"))
        .await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        again.json()["messages"],
        json!(["Você já utilizou este cupom."])
    );
}

/// A coupon the member took off before ordering is not the order's: its PIX paid late
/// takes no use of it.
#[testkit::db_test]
async fn a_late_pix_takes_no_coupon_its_order_did_not_carry(db: PgPool) {
    let shop = coupon_shop(&db, "TIRADO", None).await;
    let hold = send(
        &shop.app,
        "POST",
        "/api/single-product-orders",
        &shop.token,
        json!({ format!("product-{}", shop.product_id): 1 }),
    )
    .await;
    assert_eq!(hold.status, StatusCode::OK, "{}", hold.text);
    for (uri, body) in [
        ("/api/cart/apply-coupon", json!({ "coupon_code": "TIRADO" })),
        ("/api/cart/remove-coupon", json!({})),
    ] {
        let answer = send(&shop.app, "POST", uri, &shop.token, body).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
    let placed = send(
        &shop.app,
        "POST",
        "/api/cupom-product-order-cart",
        &shop.token,
        json!({ "cart": [{ "action_id": shop.action_id }], "payment": { "type": "pix" } }),
    )
    .await;
    assert_eq!(placed.status, StatusCode::OK, "{}", placed.text);
    let order = placed.json();
    assert_eq!(order["credit_card_value"], 5000);
    shop.run_out(order_id(&order), &charge_of(&order)).await;
    run_jobs::<PixExpire>(&db, "pix.expire", true).await;

    shop.simulate_pix(&charge_of(&order)).await;
    shop.deliver().await;
    assert_eq!(
        shop.late_outcome(order_id(&order)).await,
        ("paid".to_string(), None)
    );
    assert_eq!(shop.coupon_counts("TIRADO").await, (0, 0, 0));
}

#[testkit::db_test]
async fn a_late_pix_never_takes_a_coupon_past_its_uses(db: PgPool) {
    let shop = coupon_shop(&db, "ULTIMO", Some(1)).await;
    let (_, other_token) = other_member(&shop, "outra@example.com").await;
    // The demo member's order gave the one use back; another member's order took it.
    let first = shop.expired_pix(&shop.token, Some("ULTIMO")).await;
    let theirs = shop
        .order_with(&other_token, 1, json!({ "type": "pix" }), Some("ULTIMO"))
        .await;
    assert_eq!(theirs.status, StatusCode::OK, "{}", theirs.text);
    shop.sandbox
        .pay_pix(&charge_of(&theirs.json()), &PixPayment::default())
        .await
        .expect("paid");
    shop.deliver().await;
    assert_eq!(shop.coupon_counts("ULTIMO").await, (1, 1, 1));
    shop.simulate_pix(&charge_of(&first)).await;
    shop.deliver().await;
    assert_eq!(
        shop.late_outcome(order_id(&first)).await,
        (
            "refunded".to_string(),
            Some((4000, payment::LATE_COUPON_REASON.to_string()))
        )
    );
    assert_eq!(shop.coupon_counts("ULTIMO").await, (1, 1, 1));
}

#[testkit::db_test]
async fn a_late_pix_keeps_the_member_within_the_product_limit(db: PgPool) {
    let shop = coupon_shop(&db, "NENHUM", None).await;
    sqlx::query("UPDATE products SET limit_per_user = 1 WHERE id = $1")
        .bind(shop.product_id)
        .execute(&db)
        .await
        .expect("limit");
    // The expired order no longer counts, so a second order took the member's one unit.
    let first = shop.expired_pix(&shop.token, None).await;
    let second = shop.order(1, json!({ "type": "pix" })).await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text);
    shop.simulate_pix(&charge_of(&second.json())).await;
    shop.deliver().await;
    shop.simulate_pix(&charge_of(&first)).await;
    shop.deliver().await;
    assert_eq!(
        shop.late_outcome(order_id(&first)).await,
        (
            "refunded".to_string(),
            Some((5000, payment::LATE_LIMIT_REASON.to_string()))
        )
    );
    let units: i64 = sqlx::query_scalar(
        "SELECT coalesce(sum(l.quantity - l.refunded_quantity), 0)::bigint
           FROM order_lines l JOIN orders o ON o.id = l.order_id
          WHERE o.user_id = $1 AND o.status IN ('paid', 'partially_refunded')",
    )
    .bind(shop.member_id)
    .fetch_one(&db)
    .await
    .expect("units");
    assert_eq!(units, 1, "the member holds the limit, no more");
    assert_eq!(shop.stock().await, (9, 0));

    // A unit held for the member (confirmed, no order yet) counts too: placing its order
    // does not check the limit again.
    sqlx::query("UPDATE products SET limit_per_user = 2 WHERE id = $1")
        .bind(shop.product_id)
        .execute(&db)
        .await
        .expect("limit");
    let third = shop.expired_pix(&shop.token, None).await;
    let hold = send(
        &shop.app,
        "POST",
        "/api/single-product-orders",
        &shop.token,
        json!({ format!("product-{}", shop.product_id): 1 }),
    )
    .await;
    assert_eq!(hold.status, StatusCode::OK, "{}", hold.text);
    shop.simulate_pix(&charge_of(&third)).await;
    shop.deliver().await;
    assert_eq!(
        shop.late_outcome(order_id(&third)).await,
        (
            "refunded".to_string(),
            Some((5000, payment::LATE_LIMIT_REASON.to_string()))
        )
    );
    let held = send(
        &shop.app,
        "POST",
        "/api/cupom-product-order-cart",
        &shop.token,
        json!({ "cart": [{ "action_id": shop.action_id }], "payment": { "type": "pix" } }),
    )
    .await;
    assert_eq!(held.status, StatusCode::OK, "{}", held.text);

    // Another member's late payment is not held to the demo member's units.
    let (other_id, other_token) = other_member(&shop, "outra@example.com").await;
    let theirs = shop.expired_pix(&other_token, None).await;
    assert_eq!(theirs["user_id"], other_id);
    shop.sandbox
        .pay_pix(&charge_of(&theirs), &PixPayment::default())
        .await
        .expect("paid");
    shop.deliver().await;
    assert_eq!(
        shop.late_outcome(order_id(&theirs)).await,
        ("paid".to_string(), None)
    );
}

#[testkit::db_test]
async fn two_late_pix_at_once_share_the_last_coupon_use_once(db: PgPool) {
    let shop = coupon_shop(&db, "ROUND0", Some(1)).await;
    let (_, other_token) = other_member(&shop, "outra@example.com").await;
    for round in 0..3 {
        let code = format!("ROUND{round}");
        if round > 0 {
            sqlx::query(
                "INSERT INTO coupons (station_id, code, discount_value, max_uses)
                 VALUES ($1, $2, 1000, 1)",
            )
            .bind(shop.station_id)
            .bind(&code)
            .execute(&db)
            .await
            .expect("coupon");
        }
        // Each order took the one use in turn and gave it back when its PIX ran out.
        let ours = shop.expired_pix(&shop.token, Some(&code)).await;
        let theirs = shop.expired_pix(&other_token, Some(&code)).await;
        shop.sandbox
            .pay_pix(&charge_of(&ours), &PixPayment::default())
            .await
            .expect("paid");
        shop.sandbox
            .pay_pix(&charge_of(&theirs), &PixPayment::default())
            .await
            .expect("paid");
        shop.age_reads(order_id(&ours)).await;
        shop.age_reads(order_id(&theirs)).await;
        let (a, b) = tokio::join!(
            shop.check_as(&shop.token, order_id(&ours)),
            shop.check_as(&other_token, order_id(&theirs))
        );
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        assert_eq!(b.status, StatusCode::OK, "{}", b.text);
        shop.deliver().await;
        let mut outcomes = vec![
            shop.late_outcome(order_id(&ours)).await,
            shop.late_outcome(order_id(&theirs)).await,
        ];
        outcomes.sort();
        assert_eq!(
            outcomes,
            vec![
                ("paid".to_string(), None),
                (
                    "refunded".to_string(),
                    Some((4000, payment::LATE_COUPON_REASON.to_string()))
                ),
            ],
            "round {round}"
        );
        assert_eq!(shop.coupon_counts(&code).await, (1, 1, 1), "round {round}");
    }
}

#[testkit::db_test]
async fn the_browser_check_racing_the_webhook_confirms_once(db: PgPool) {
    let shop = shop(&db, 10).await;
    for round in 0..5 {
        let order = shop.order(1, json!({ "type": "pix" })).await.json();
        let paid = shop.simulate_pix(&charge_of(&order)).await;
        assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);
        let (checked, _) = tokio::join!(shop.check(order_id(&order)), shop.deliver());
        assert_eq!(checked.status, StatusCode::OK, "{}", checked.text);
        assert_eq!(
            shop.read_order(order_id(&order)).await["status"],
            "Pagamento confirmado"
        );
        assert_eq!(shop.stock().await, (9 - round, 0));
        assert_eq!(
            count(
                &db,
                "SELECT count(*) FROM payments WHERE order_id = $1 AND status = 'paid'",
                order_id(&order)
            )
            .await,
            if round == 0 { 2 } else { 1 }
        );
    }
}

/// splitmix64: a seeded sequence, so a failing run can be repeated with its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[testkit::db_test]
#[allow(clippy::print_stdout)] // the seed, so a failing run can be repeated
async fn a_thousand_random_webhook_deliveries_never_pay_twice_nor_an_unpaid_order(db: PgPool) {
    let seed = std::env::var("FILIA_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
    println!("seed: {seed} (FILIA_TEST_SEED={seed} repeats this run)");
    let mut rng = Rng(seed);
    let shop = shop(&db, 100).await;
    // Members with one PIX order each (no wallet: other members have no points); half of
    // them pay.
    let mut orders = Vec::new();
    for n in 0..8 {
        let id = common::insert_member(&db, shop.station_id, &format!("m{n}@example.com")).await;
        let token = domain::accounts::session::create(&db, id)
            .await
            .expect("session");
        let order = shop
            .order_as(&token, 1, json!({ "type": "pix" }))
            .await
            .json();
        let pays = n % 2 == 0;
        if pays {
            shop.sandbox
                .pay_pix(&charge_of(&order), &PixPayment::default())
                .await
                .expect("paid");
        }
        orders.push((order_id(&order), charge_of(&order), pays));
    }
    let events: Vec<(String, String)> =
        sqlx::query_as("SELECT body, event_id FROM sandbox_webhooks ORDER BY id")
            .fetch_all(&db)
            .await
            .expect("events");
    assert_eq!(events.len(), 4);
    let started = Instant::now();
    let (mut good, mut bad) = (0, 0);
    let mut accepted = std::collections::HashSet::new();
    for _ in 0..1000 {
        let (body, signature) = match rng.below(4) {
            // A real event again (a duplicate, late or out of order).
            0 | 1 => {
                let (body, _) = &events[rng.below(events.len())];
                (body.clone(), shop.sandbox.sign(body.as_bytes()))
            }
            // A signed event about a charge nobody has, or about an unpaid one.
            2 => {
                let charge = if rng.below(2) == 0 {
                    format!("ch_unknown{}", rng.next())
                } else {
                    orders[2 * rng.below(4) + 1].1.clone()
                };
                let body = json!({ "id": format!("hook_r{}", rng.next()), "type": "charge.paid",
                                   "data": { "id": charge, "status": "paid" } })
                .to_string();
                let signature = shop.sandbox.sign(body.as_bytes());
                (body, signature)
            }
            // A body someone changed after signing.
            _ => {
                let (body, _) = &events[rng.below(events.len())];
                let signature = shop.sandbox.sign(body.as_bytes());
                (body.replace("paid", "pa1d"), signature)
            }
        };
        let answer = post_webhook(&shop.app, &body, &signature).await;
        if answer.status == StatusCode::OK {
            let event: Value = serde_json::from_str(&body).expect("event");
            accepted.insert(event["id"].as_str().expect("id").to_string());
            good += 1;
        } else {
            assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.text);
            bad += 1;
        }
        if rng.below(50) == 0 {
            run_jobs::<PaymentSync>(&db, "payment.sync", false).await;
        }
    }
    run_jobs::<PaymentSync>(&db, "payment.sync", false).await;
    println!(
        "1000 deliveries ({good} taken, {bad} refused) in {:?}",
        started.elapsed()
    );
    for (id, _, pays) in &orders {
        let (status, paid_parts): (String, i64) = sqlx::query_as(
            "SELECT o.status, (SELECT count(*) FROM payments p WHERE p.order_id = o.id AND p.status = 'paid')
               FROM orders o WHERE o.id = $1",
        )
        .bind(id)
        .fetch_one(&db)
        .await
        .expect("order");
        if *pays {
            assert_eq!((status.as_str(), paid_parts), ("paid", 1), "order {id}");
        } else {
            assert_eq!((status.as_str(), paid_parts), ("pending", 0), "order {id}");
        }
    }
    // Each accepted event recorded once; nothing of a refused one.
    let recorded: i64 = sqlx::query_scalar("SELECT count(*) FROM payment_events")
        .fetch_one(&db)
        .await
        .expect("events");
    assert_eq!(recorded, accepted.len() as i64);
    // Four units sold, once each; four still held.
    assert_eq!(shop.stock().await, (96, 4));
}

/// PostgreSQL refuses NUL in text: a signed event whose id or charge holds one is unreadable
/// (400 in the envelope), never a 500 the provider would retry for ever.
#[testkit::db_test]
async fn a_signed_event_holding_a_nul_is_unreadable(db: PgPool) {
    let shop = shop(&db, 1).await;
    for (id, charge) in [("hook\\u0000one", "ch_1"), ("hook_two", "ch\\u0000two")] {
        let body = format!(
            r#"{{"id": "{id}", "type": "charge.paid", "data": {{"id": "{charge}", "status": "paid"}}}}"#
        );
        let answer = post_webhook(&shop.app, &body, &shop.sandbox.sign(body.as_bytes())).await;

        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.text);
        assert_eq!(
            answer.json(),
            json!({ "messages": ["Aviso de pagamento ilegível."] })
        );
    }
    assert_eq!(
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM payment_events")
            .fetch_one(&db)
            .await
            .expect("events"),
        0
    );
}

#[testkit::db_test]
async fn another_members_order_is_not_checked_nor_paid(db: PgPool) {
    let shop = shop(&db, 10).await;
    let order = shop.order(1, json!({ "type": "pix" })).await.json();
    let other = common::insert_member(&db, shop.station_id, "outra@example.com").await;
    let other_token = domain::accounts::session::create(&db, other)
        .await
        .expect("session");
    let checked = call(
        &shop.app,
        "POST",
        &format!("/api/product-orders/{}/check-payment", order_id(&order)),
        Some(&other_token),
        &[],
    )
    .await;
    assert_eq!(checked.status, StatusCode::FORBIDDEN);
    assert_eq!(checked.json()["messages"], json!([FORBIDDEN]));
    let paid = call(
        &shop.app,
        "POST",
        &format!("/api/sandbox/pix/{}/pay", charge_of(&order)),
        Some(&other_token),
        &[],
    )
    .await;
    assert_eq!(paid.status, StatusCode::NOT_FOUND);
    let missing = shop.check(999_999).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    let cards = call(
        &shop.app,
        "GET",
        &format!("/api/user-credit-cards/{}", shop.member_id),
        Some(&other_token),
        &[],
    )
    .await;
    assert_eq!(cards.status, StatusCode::FORBIDDEN);
    // Whatever the provider has to tell is delivered first: still nothing was paid.
    shop.deliver().await;
    assert_eq!(
        shop.read_order(order_id(&order)).await["status"],
        "Aguardando pagamento"
    );
}

#[testkit::db_test]
async fn installments_follow_the_activity(db: PgPool) {
    let shop = shop(&db, 10).await;
    let options = send(
        &shop.app,
        "POST",
        "/api/calculate-installments",
        &shop.token,
        json!({ "action_id": shop.action_id, "amount": 2000 }),
    )
    .await;
    assert_eq!(options.status, StatusCode::OK, "{}", options.text);
    assert_eq!(options.json().as_array().map(Vec::len), Some(4));
    assert_eq!(
        options.json()[3],
        json!({ "installment": 4, "installment_amount": 500 })
    );
    sqlx::query("UPDATE actions SET allow_installments = false WHERE id = $1")
        .bind(shop.action_id)
        .execute(&db)
        .await
        .expect("action");
    let one = send(
        &shop.app,
        "POST",
        "/api/calculate-installments",
        &shop.token,
        json!({ "action_id": shop.action_id, "amount": 2000 }),
    )
    .await;
    assert_eq!(
        one.json(),
        json!([{ "installment": 1, "installment_amount": 2000 }])
    );
}

#[testkit::db_test]
async fn the_order_takes_only_the_installments_offered(db: PgPool) {
    let shop = shop_with(&db, 10, &[("FILIA_ORDERS_MAX_PER_MEMBER", "50")]).await;
    let card = |installments: Value| {
        common::with_billing_address(json!({
            "type": "credit_card", "number": "4000000000000010", "name": "MARIA S",
            "expiry": "12/30", "cvv": "123", "installments": installments }))
    };
    let refused = |answer: common::Answer, text: &str| {
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            answer.text
        );
        assert_eq!(answer.json(), json!({ "messages": [text] }));
    };
    // R$ 50,00 less the wallet's R$ 30,00: R$ 20,00 by card, offered 1x to 4x.
    refused(
        shop.order(1, card(json!(0))).await,
        "Número de parcelas inválido.",
    );
    refused(
        shop.order(1, card(json!("dois"))).await,
        "Número de parcelas inválido.",
    );
    refused(
        shop.order(1, card(json!(5))).await,
        "Este valor pode ser parcelado em até 4x (parcela mínima de R$ 5,00).",
    );
    let charges: i64 = sqlx::query_scalar("SELECT count(*) FROM sandbox_charges")
        .fetch_one(&db)
        .await
        .expect("charges");
    assert_eq!(charges, 0, "a refused count charges nothing");
    assert_eq!(shop.balance().await, 3000, "and spends nothing");
    let three = shop.order(1, card(json!(3))).await;
    assert_eq!(three.status, StatusCode::OK, "{}", three.text);
    assert_eq!(three.json()["status"], "Pagamento confirmado");
    assert_eq!(three.json()["payments"][1]["installments"], 3);
    let charged: Option<i32> =
        sqlx::query_scalar("SELECT installments FROM sandbox_charges WHERE method = 'credit_card'")
            .fetch_one(&db)
            .await
            .expect("charge");
    assert_eq!(charged, Some(3));

    // R$ 8,00 by card (payment_only): no two installments of R$ 5,00.
    sqlx::query("UPDATE actions SET payment_option = 'payment_only' WHERE id = $1")
        .bind(shop.action_id)
        .execute(&db)
        .await
        .expect("payment only");
    sqlx::query("UPDATE products SET value = 800 WHERE id = $1")
        .bind(shop.product_id)
        .execute(&db)
        .await
        .expect("price");
    refused(
        shop.order(1, card(json!(2))).await,
        "Este valor não pode ser parcelado: a parcela mínima é de R$ 5,00.",
    );

    // R$ 1.000,00 by card: 12x at most.
    sqlx::query("UPDATE products SET value = 100000 WHERE id = $1")
        .bind(shop.product_id)
        .execute(&db)
        .await
        .expect("price");
    refused(
        shop.order(1, card(json!(13))).await,
        "Este valor pode ser parcelado em até 12x (parcela mínima de R$ 5,00).",
    );
    let twelve = shop.order(1, card(json!("12"))).await;
    assert_eq!(twelve.status, StatusCode::OK, "{}", twelve.text);
    assert_eq!(twelve.json()["payments"][0]["installments"], 12);

    // The activity allows no installments: 1x only. PIX has none, whatever is sent.
    sqlx::query("UPDATE actions SET allow_installments = false WHERE id = $1")
        .bind(shop.action_id)
        .execute(&db)
        .await
        .expect("no installments");
    refused(
        shop.order(1, card(json!(2))).await,
        "Esta compra não pode ser parcelada: escolha o pagamento em 1x.",
    );
    let once = shop.order(1, card(json!(1))).await;
    assert_eq!(once.status, StatusCode::OK, "{}", once.text);
    assert_eq!(once.json()["payments"][0]["installments"], 1);
    let pix = shop
        .order(1, json!({ "type": "pix", "installments": 6 }))
        .await;
    assert_eq!(pix.status, StatusCode::OK, "{}", pix.text);
    assert_eq!(pix.json()["payments"][0]["installments"], 1);
}

#[testkit::db_test]
async fn the_sandbox_routes_are_absent_with_pagarme(db: PgPool) {
    let key = include_str!("../../../domain/tests/fixtures/pagarme_test_public.pem");
    let app = common::app_with(
        db.clone(),
        &[
            ("FILIA_PAYMENTS", "pagarme"),
            ("FILIA_PAGARME_SECRET_KEY", "sk_test_x"),
            ("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY", key),
            ("FILIA_PAGARME_PUBLIC_KEY", "pk_test_x"),
        ],
    );
    let (_, token) = common::demo_member_session(&db).await;
    let tokens = send(
        &app,
        "POST",
        "/api/sandbox/card-tokens",
        &token,
        json!({ "number": "4000000000000010", "holder_name": "A", "cvv": "1" }),
    )
    .await;
    assert_eq!(tokens.status, StatusCode::NOT_FOUND);
    let pay = call(&app, "POST", "/api/sandbox/pix/ch_x/pay", Some(&token), &[]).await;
    assert_eq!(pay.status, StatusCode::NOT_FOUND);
    // A card's number never reaches us with Pagar.me: an order carrying one is refused.
    let raw = send(
        &app,
        "POST",
        "/api/cupom-product-order-cart",
        &token,
        json!({ "cart": [], "payment": common::with_billing_address(json!({
            "type": "credit_card", "number": "4000000000000010", "name": "MARIA S",
            "expiry": "12/30", "cvv": "123" })) }),
    )
    .await;
    assert_eq!(raw.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", raw.text);
    assert_eq!(
        raw.json()["messages"],
        json!(["Os dados do cartão devem ser enviados pelo tokenizador do meio de pagamento."])
    );
    let hook = post_webhook(&app, "{}", "sha256=00").await;
    assert_eq!(hook.status, StatusCode::NOT_FOUND);
    // Pagar.me's own endpoint refuses an unsigned body and records nothing.
    let unsigned = common::post_json(
        &app,
        "/api/payments/webhooks/pagarme",
        "{\"id\":\"hook_1\"}",
    )
    .await;
    assert_eq!(unsigned.status, StatusCode::UNAUTHORIZED);
    let events: i64 = sqlx::query_scalar("SELECT count(*) FROM payment_events")
        .fetch_one(&db)
        .await
        .expect("events");
    assert_eq!(events, 0);
}

#[testkit::db_test]
async fn sandbox_deliver_posts_the_outbox_to_the_running_api(db: PgPool) {
    // The real server on a loopback port, its public URL pointing at itself.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("port");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    let overrides = [("FILIA_PUBLIC_URL", url.as_str())];
    let served = common::app_with(db.clone(), &overrides);
    tokio::spawn(async move { axum::serve(listener, served).await.expect("serve") });
    let shop = shop(&db, 10).await;
    let order = shop.order(1, json!({ "type": "pix" })).await.json();
    let paid = shop.simulate_pix(&charge_of(&order)).await;
    assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);

    // The job the simulation enqueued, run as a worker of that deployment would.
    let queued: Vec<(String, Value)> = sqlx::query_as(
        "SELECT id, convert_from(job, 'UTF8')::jsonb FROM apalis.jobs
          WHERE job_type = 'sandbox.deliver' AND status = 'Pending'",
    )
    .fetch_all(&db)
    .await
    .expect("jobs");
    assert_eq!(queued.len(), 1);
    let services =
        jobs::Services::new(db.clone(), common::config_with(&overrides)).expect("services");
    let job: jobs::kinds::SandboxDeliver =
        serde_json::from_value(queued[0].1["args"].clone()).expect("payload");
    let result = job
        .run(JobContext {
            id: queued[0].0.clone(),
            attempt: 1,
            worker: "test".into(),
            taken_at: None,
            services,
        })
        .await
        .expect("delivery");
    assert_eq!(result, json!({ "delivered": 1, "refused": 0 }));
    let delivered: i64 =
        sqlx::query_scalar("SELECT count(*) FROM sandbox_webhooks WHERE delivered_at IS NOT NULL")
            .fetch_one(&db)
            .await
            .expect("outbox");
    assert_eq!(delivered, 1);
    // The endpoint recorded the event and queued its sync, which pays the order.
    run_jobs::<PaymentSync>(&db, "payment.sync", false).await;
    assert_eq!(
        shop.read_order(order_id(&order)).await["status"],
        "Pagamento confirmado"
    );
}

#[testkit::db_test]
async fn a_card_saved_at_payment_pays_the_next_order(db: PgPool) {
    let shop = shop(&db, 10).await;
    let first = shop
        .order(
            1,
            common::with_billing_address(
                json!({ "type": "credit_card", "number": "5500000000000010", "name": "MARIA S",
                          "expiry": "12/30", "cvv": "123", "save": true }),
            ),
        )
        .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let cards = call(
        &shop.app,
        "GET",
        &format!("/api/user-credit-cards/{}", shop.member_id),
        Some(&shop.token),
        &[],
    )
    .await;
    assert_eq!(cards.status, StatusCode::OK, "{}", cards.text);
    let card = cards.json()[0].clone();
    assert_eq!(card["last_digits"], "0010");
    // Saved through the port, with the expiry the tokeniser knew.
    assert_eq!(card["expiration_date"], "12/30");
    assert_eq!(cards.json().as_array().map(Vec::len), Some(1));
    let second = shop
        .order(
            1,
            json!({ "type": "credit_card", "selected_card": card["id"] }),
        )
        .await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text);
    assert_eq!(second.json()["status"], "Pagamento confirmado");
    assert_eq!(shop.stock().await, (8, 0));

    // Another member naming that card's id pays nothing with it.
    let other = common::insert_member(&db, shop.station_id, "outra@example.com").await;
    let other_token = domain::accounts::session::create(&db, other)
        .await
        .expect("session");
    let charges_before: i64 = sqlx::query_scalar("SELECT count(*) FROM sandbox_charges")
        .fetch_one(&db)
        .await
        .expect("charges");
    let borrowed = shop
        .order_as(
            &other_token,
            1,
            json!({ "type": "credit_card", "selected_card": card["id"] }),
        )
        .await;
    assert_eq!(
        borrowed.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        borrowed.text
    );
    assert_eq!(
        borrowed.json()["messages"],
        json!(["Informe os dados do cartão."])
    );
    let charges_after: i64 = sqlx::query_scalar("SELECT count(*) FROM sandbox_charges")
        .fetch_one(&db)
        .await
        .expect("charges");
    assert_eq!(charges_after, charges_before);
}

#[testkit::db_test]
async fn a_removed_card_is_never_charged_again(db: PgPool) {
    let shop = shop(&db, 10).await;
    let first = shop
        .order(
            1,
            common::with_billing_address(
                json!({ "type": "credit_card", "number": "5500000000000010", "name": "MARIA S",
                          "expiry": "12/30", "cvv": "123", "save": true }),
            ),
        )
        .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let card_id: i64 = sqlx::query_scalar(
        "SELECT id FROM saved_cards WHERE user_id = $1 AND last_digits = '0010'
          ORDER BY id DESC LIMIT 1",
    )
    .bind(shop.member_id)
    .fetch_one(&db)
    .await
    .expect("saved at payment");
    let removed = call(
        &shop.app,
        "DELETE",
        &format!("/api/user-credit-cards/{card_id}"),
        Some(&shop.token),
        &[],
    )
    .await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.text);
    let charges_before: i64 = sqlx::query_scalar("SELECT count(*) FROM sandbox_charges")
        .fetch_one(&db)
        .await
        .expect("charges");
    let refused = shop
        .order(
            1,
            json!({ "type": "credit_card", "selected_card": card_id }),
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert_eq!(
        refused.json()["messages"],
        json!(["Informe os dados do cartão."])
    );
    // Nor by anything that still knows its provider id: the sandbox deleted it.
    let gateway_id: String =
        sqlx::query_scalar("SELECT gateway_card_id FROM saved_cards WHERE id = $1")
            .bind(card_id)
            .fetch_one(&db)
            .await
            .expect("gateway id");
    let direct = domain::commerce::gateway::PaymentGateway::create_card_charge(
        &shop.sandbox,
        &domain::commerce::gateway::CardChargeRequest {
            amount_cents: 1000,
            installments: 1,
            source: domain::commerce::gateway::CardSource::SavedCard(gateway_id),
            billing_address: None,
            reference: "TESTE".into(),
            idempotency_key: "removed-card".into(),
            customer: domain::commerce::payment::customer(
                &mut db.acquire().await.expect("conn"),
                shop.member_id,
            )
            .await
            .expect("customer"),
        },
    )
    .await;
    assert!(
        matches!(
            direct,
            Err(domain::commerce::gateway::GatewayError::Rejected(_))
        ),
        "{direct:?}"
    );
    let charges_after: i64 = sqlx::query_scalar("SELECT count(*) FROM sandbox_charges")
        .fetch_one(&db)
        .await
        .expect("charges");
    assert_eq!(charges_after, charges_before);
}

#[testkit::db_test]
async fn a_card_order_left_uncharged_by_a_crash_is_completed_once(db: PgPool) {
    use app::commerce::charge;
    use domain::commerce::gateway::CardSource;
    use domain::commerce::orders::{self, Method, PlaceOrder};
    use domain::commerce::payment;
    use domain::shared::ids::{StationId, UserId};
    use jobs::JobOutbox;

    let shop = shop(&db, 10).await;
    let hold = send(
        &shop.app,
        "POST",
        "/api/single-product-orders",
        &shop.token,
        json!({ format!("product-{}", shop.product_id): 1 }),
    )
    .await;
    assert_eq!(hold.status, StatusCode::OK, "{}", hold.text);
    let token = send(
        &shop.app,
        "POST",
        "/api/sandbox/card-tokens",
        &shop.token,
        json!({ "number": "4000000000000010", "holder_name": "MARIA S", "cvv": "123" }),
    )
    .await
    .json()["card_token"]
        .as_str()
        .expect("token")
        .to_string();
    // The order call's first transaction, as the handler makes it; then the process dies
    // before asking the gateway.
    let mut tx = db.begin().await.expect("tx");
    let placed = orders::place(
        &mut tx,
        StationId(shop.station_id),
        UserId(shop.member_id),
        &PlaceOrder {
            method: Some(Method::CreditCard),
            installments: 1,
            ..PlaceOrder::default()
        },
    )
    .await
    .expect("placed");
    let part = payment::part_of_order(&mut tx, placed.order_id)
        .await
        .expect("part")
        .expect("a card part");
    let address = domain::commerce::cards::billing_address(
        "88010400",
        "Rua Felipe Schmidt",
        "515",
        "Florianópolis",
        "SC",
    )
    .expect("address");
    payment::keep_card_source(
        &mut tx,
        part.payment_id,
        &CardSource::Token(token),
        Some(&address),
    )
    .await
    .expect("source");
    charge::schedule_recovery(&JobOutbox, &mut tx, &part)
        .await
        .expect("recovery");
    tx.commit().await.expect("commit");
    assert_eq!(
        shop.read_order(placed.order_id).await["status"],
        "Aguardando pagamento"
    );
    // What the recovery job will ask the provider: the same card and billing address.
    let mut conn = db.acquire().await.expect("conn");
    let kept = payment::part_of_order(&mut conn, placed.order_id)
        .await
        .expect("part")
        .expect("a card part");
    drop(conn);
    let source = kept.card_source().expect("the card kept");
    let customer = domain::commerce::gateway::Customer {
        name: "Maria".into(),
        email: "maria@example.com".into(),
        document: "52998224725".into(),
        phone: None,
    };
    let request = kept.card_request(customer, source);
    assert_eq!(request.billing_address, Some(address.clone()));

    // The recovery job charges it; the member's retry finds it paid; one charge in all.
    let results = run_jobs::<PaymentSync>(&db, "payment.sync", true).await;
    assert_eq!(results.len(), 1);
    assert_eq!(
        shop.read_order(placed.order_id).await["status"],
        "Pagamento confirmado"
    );
    let gateway = Gateway::from_config(&common::config_with(&[]), db.clone()).expect("gateway");
    let again = charge::charge_order(&db, &gateway, &JobOutbox, placed.order_id)
        .await
        .expect("retry");
    assert_eq!(again, charge::Charged::Paid);
    let charges: i64 = sqlx::query_scalar("SELECT count(*) FROM sandbox_charges")
        .fetch_one(&db)
        .await
        .expect("charges");
    assert_eq!(charges, 1);
    assert_eq!(shop.stock().await, (9, 0));
    // The card's token and billing address were kept for the charge only.
    let (source, address): (Option<String>, Option<Value>) =
        sqlx::query_as("SELECT charge_source, billing_address FROM payments WHERE id = $1")
            .bind(part.payment_id)
            .fetch_one(&db)
            .await
            .expect("payment");
    assert_eq!((source, address), (None, None));
}

#[testkit::db_test]
async fn a_refund_the_bank_starts_is_undone_once(db: PgPool) {
    let shop = shop(&db, 10).await;
    let order = shop.order(1, json!({ "type": "pix" })).await.json();
    shop.simulate_pix(&charge_of(&order)).await;
    shop.deliver().await;
    assert_eq!(
        shop.read_order(order_id(&order)).await["status"],
        "Pagamento confirmado"
    );
    // MED: the payer's bank takes the money back; nobody asked us.
    shop.sandbox
        .bank_refund(&charge_of(&order), None)
        .await
        .expect("bank refund");
    shop.deliver().await;
    let (status, refunded, gateway_status): (String, i64, String) = sqlx::query_as(
        "SELECT status, gateway_refunded_cents, gateway_status FROM payments
          WHERE order_id = $1 AND method = 'pix'",
    )
    .bind(order_id(&order))
    .fetch_one(&db)
    .await
    .expect("part");
    assert_eq!(
        (status.as_str(), refunded, gateway_status.as_str()),
        ("refunded", 2000, "refunded")
    );
    // Undone like a staff refund: the whole order, its unit back on sale.
    assert_eq!(
        shop.read_order(order_id(&order)).await["status"],
        "Estornada"
    );
    assert_eq!(shop.stock().await, (10, 0));
    // Reading the refunded charge again (the member's check) changes nothing.
    shop.check(order_id(&order)).await;
    assert_eq!(shop.stock().await, (10, 0));
    let refunds: i64 = sqlx::query_scalar("SELECT count(*) FROM refunds WHERE order_id = $1")
        .bind(order_id(&order))
        .fetch_one(&db)
        .await
        .expect("refunds");
    assert_eq!(refunds, 1);
}

/// How many times the sandbox was asked for the charge.
async fn provider_reads(db: &PgPool, charge_id: &str) -> i32 {
    sqlx::query_scalar("SELECT reads FROM sandbox_charges WHERE id = $1")
        .bind(charge_id)
        .fetch_one(db)
        .await
        .expect("reads")
}

fn assert_throttled(answer: &common::Answer, message: &str) {
    assert_eq!(
        answer.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        answer.text
    );
    assert_eq!(answer.json()["messages"], json!([message]));
    let retry_after: u64 = answer.headers["retry-after"]
        .to_str()
        .expect("header")
        .parse()
        .expect("seconds");
    assert!((1..=600).contains(&retry_after), "{retry_after}");
}

#[testkit::db_test]
async fn calls_that_reach_the_provider_are_limited_per_member(db: PgPool) {
    let shop = shop_with(
        &db,
        20,
        &[
            ("FILIA_ORDERS_MAX_PER_MEMBER", "2"),
            ("FILIA_PAYMENT_CHECKS_MAX_PER_MEMBER", "3"),
            ("FILIA_SANDBOX_CALLS_MAX_PER_MEMBER", "2"),
        ],
    )
    .await;
    let other = common::insert_member(&db, shop.station_id, "outra@demo.filia.com.br").await;
    let other = common::session_of(&db, other).await;
    let orders = || async {
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM orders")
            .fetch_one(&db)
            .await
            .expect("orders")
    };

    // Orders: two, then the third is refused before anything is placed or charged.
    let first = shop.order(1, json!({ "type": "pix" })).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let first = first.json();
    let second = shop.order(1, json!({ "type": "pix" })).await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text);
    let charges_before = count(&db, "SELECT count(*) FROM sandbox_charges WHERE $1 > 0", 1).await;
    let third = shop.order(1, json!({ "type": "pix" })).await;
    assert_throttled(
        &third,
        "Muitos pedidos em pouco tempo. Aguarde alguns minutos e tente novamente.",
    );
    assert_eq!(orders().await, 2);
    assert_eq!(
        count(&db, "SELECT count(*) FROM sandbox_charges WHERE $1 > 0", 1).await,
        charges_before
    );
    // Another member's orders are their own count.
    let others = shop.order_as(&other, 1, json!({ "type": "pix" })).await;
    assert_eq!(others.status, StatusCode::OK, "{}", others.text);
    let others = others.json();

    // "Verificar pagamento": three, then 429, whatever the order; bad input counts too.
    let not_a_number = call(
        &shop.app,
        "POST",
        "/api/product-orders/999999/check-payment",
        Some(&shop.token),
        &[],
    )
    .await;
    assert_eq!(not_a_number.status, StatusCode::NOT_FOUND);
    for _ in 0..2 {
        let checked = shop.check(order_id(&first)).await;
        assert_eq!(checked.status, StatusCode::OK, "{}", checked.text);
    }
    assert_throttled(
        &shop.check(order_id(&first)).await,
        "Muitas verificações de pagamento em pouco tempo. Aguarde alguns minutos e tente novamente.",
    );
    // Another member is not held back by it, nor reads this member's orders through it.
    let theirs = call(
        &shop.app,
        "POST",
        &format!("/api/product-orders/{}/check-payment", order_id(&others)),
        Some(&other),
        &[],
    )
    .await;
    assert_eq!(theirs.status, StatusCode::OK, "{}", theirs.text);
    let not_theirs = call(
        &shop.app,
        "POST",
        &format!("/api/product-orders/{}/check-payment", order_id(&first)),
        Some(&other),
        &[],
    )
    .await;
    assert_eq!(not_theirs.status, StatusCode::FORBIDDEN);

    // The sandbox's routes: a card token and a simulated payment, then 429.
    let card = json!({ "number": "4000000000000010", "holder_name": "MARIA S", "cvv": "123" });
    let token = send(
        &shop.app,
        "POST",
        "/api/sandbox/card-tokens",
        &shop.token,
        card.clone(),
    )
    .await;
    assert_eq!(token.status, StatusCode::OK, "{}", token.text);
    let paid = shop.simulate_pix(&charge_of(&first)).await;
    assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);
    assert_throttled(
        &shop.simulate_pix(&charge_of(&first)).await,
        "Muitas ações em pouco tempo. Aguarde alguns minutos e tente novamente.",
    );
    assert_throttled(
        &send(
            &shop.app,
            "POST",
            "/api/sandbox/card-tokens",
            &shop.token,
            card.clone(),
        )
        .await,
        "Muitas ações em pouco tempo. Aguarde alguns minutos e tente novamente.",
    );
    let theirs = send(
        &shop.app,
        "POST",
        "/api/sandbox/card-tokens",
        &other,
        card.clone(),
    )
    .await;
    assert_eq!(theirs.status, StatusCode::OK, "{}", theirs.text);
    // The sandbox's tokeniser is a member's, at the checkout.
    let anonymous =
        common::post_json(&shop.app, "/api/sandbox/card-tokens", &card.to_string()).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn a_charge_just_read_is_not_read_again_for_a_few_seconds(db: PgPool) {
    let shop = shop(&db, 10).await;
    let order = shop.order(1, json!({ "type": "pix" })).await.json();
    let charge = charge_of(&order);
    assert_eq!(provider_reads(&db, &charge).await, 0, "creating is no read");

    let checked = shop.check(order_id(&order)).await;
    assert_eq!(checked.status, StatusCode::OK, "{}", checked.text);
    assert_eq!(checked.json()["status"], "Aguardando pagamento");
    assert_eq!(provider_reads(&db, &charge).await, 1);
    for _ in 0..3 {
        let again = shop.check(order_id(&order)).await;
        assert_eq!(again.json()["status"], "Aguardando pagamento");
    }
    assert_eq!(provider_reads(&db, &charge).await, 1, "reused");

    // Once the read is older than the window: checks at once through two API processes
    // read it once between them.
    shop.age_reads(order_id(&order)).await;
    let second_process = common::app(db.clone());
    let check_elsewhere = || async {
        call(
            &second_process,
            "POST",
            &format!("/api/product-orders/{}/check-payment", order_id(&order)),
            Some(&shop.token),
            &[],
        )
        .await
    };
    let answers = tokio::join!(
        shop.check(order_id(&order)),
        check_elsewhere(),
        shop.check(order_id(&order)),
        check_elsewhere(),
    );
    for answer in [answers.0, answers.1, answers.2, answers.3] {
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
    assert_eq!(provider_reads(&db, &charge).await, 2);

    // The webhook's job (`payment.sync`) reads the charge whatever the window (an event says
    // it changed), and a check right after it answers what that read found.
    shop.age_reads(order_id(&order)).await;
    app::commerce::charge::sync_charge(
        &db,
        &Gateway::Sandbox(shop.sandbox.clone()),
        &jobs::JobOutbox,
        "http://127.0.0.1:8080",
        &charge,
    )
    .await
    .expect("the webhook's read");
    assert_eq!(provider_reads(&db, &charge).await, 3);
    let after = shop.check(order_id(&order)).await;
    assert_eq!(after.json()["status"], "Aguardando pagamento");
    assert_eq!(provider_reads(&db, &charge).await, 3);
}

/// The units of the order's line whose vouchers exist: (unit, used).
async fn voucher_units(db: &PgPool, order_id: i64) -> Vec<(i32, bool)> {
    sqlx::query_as(
        "SELECT v.unit, v.validated <> '0' FROM vouchers v
           JOIN order_lines l ON l.id = v.order_line_id
          WHERE l.order_id = $1 ORDER BY v.unit",
    )
    .bind(order_id)
    .fetch_all(db)
    .await
    .expect("vouchers")
}

#[testkit::db_test]
async fn a_bank_refund_takes_unused_vouchers_first_and_a_used_one_only_whole(db: PgPool) {
    let shop = shop(&db, 10).await;
    sqlx::query("UPDATE actions SET sell_vouchers = true WHERE id = $1")
        .bind(shop.action_id)
        .execute(&db)
        .await
        .expect("vouchers");
    let order = shop.order(2, json!({ "type": "pix" })).await.json();
    let id = order_id(&order);
    shop.simulate_pix(&charge_of(&order)).await;
    shop.deliver().await;
    let made = send(
        &shop.app,
        "POST",
        "/api/create-vouchers-product-order",
        &shop.token,
        json!({ "should_contact": true, "product_orders": id, "user_id": shop.member_id }),
    )
    .await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.text);
    // The second unit's voucher was used at the door.
    sqlx::query(
        "UPDATE vouchers SET validated = '1' WHERE unit = 2
            AND order_line_id = (SELECT id FROM order_lines WHERE order_id = $1)",
    )
    .bind(id)
    .execute(&db)
    .await
    .expect("used");

    // The bank takes one unit's price back: the unit refunded is the unused one.
    shop.sandbox
        .bank_refund(&charge_of(&order), Some(5000))
        .await
        .expect("bank refund");
    shop.deliver().await;
    assert_eq!(voucher_units(&db, id).await, vec![(2, true)]);
    assert_eq!(
        shop.read_order(id).await["status"],
        "Parcialmente estornada"
    );
    assert_eq!(shop.stock().await.0, 9, "the unused unit is back in stock");
    let balance = || async {
        let answer = call(
            &shop.app,
            "GET",
            &format!("/api/users-points/{}", shop.member_id),
            Some(&shop.token),
            &[],
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        answer.json()["points_cents"].as_i64().expect("balance")
    };
    let before = balance().await;
    // Then the rest of the charge: a chargeback is not refused, the used unit is refunded
    // too and its voucher stays, used, as the record of its use. Its goods left with the
    // member: no stock comes back, and the R$ 30,00 the wallet paid towards it stays spent.
    assert_eq!(order["wallet_value"], 3000);
    shop.sandbox
        .bank_refund(&charge_of(&order), None)
        .await
        .expect("bank refund");
    shop.deliver().await;
    assert_eq!(shop.read_order(id).await["status"], "Estornada");
    assert_eq!(voucher_units(&db, id).await, vec![(2, true)]);
    assert_eq!(
        shop.stock().await.0,
        9,
        "the used unit is not back in stock"
    );
    assert_eq!(
        balance().await,
        before,
        "the wallet's part of the used unit stays spent"
    );
    let refunded: i32 =
        sqlx::query_scalar("SELECT refunded_quantity FROM order_lines WHERE order_id = $1")
            .bind(id)
            .fetch_one(&db)
            .await
            .expect("line");
    assert_eq!(refunded, 2);
}
