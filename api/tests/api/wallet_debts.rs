//! Cashback already spent when its purchase is refunded (issue 26), over HTTP against the
//! real database and the sandbox provider: a staff refund and a refund the bank starts
//! record the spent part as a debt (the balance stays at zero, the statement shows it), the
//! next credits pay it first, a repeated refund or webhook records it once, a refund racing
//! a spend of the same cashback never leaves both the goods and the cashback, and another
//! member's wallet is untouched. Jobs run through their real handlers, as a worker would.

use crate::common;
use crate::common::{call, post_webhook, send_json};
use axum::Router;
use axum::http::StatusCode;
use domain::commerce::fulfilment;
use domain::shared::ids::{StationId, UserId};
use domain::wallet::ledger::{self, Credit, SourceKind, Spend, SpendKind};
use domain::wallet::release::release_batch;
use jobs::kinds::{OrderRefund, PaymentSync, PointsCredit};
use jobs::{Job, JobContext};
use payments::Gateway;
use payments::sandbox::Sandbox;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use sqlx::PgPool;

/// The cashback of one order of the shirt: 20 points.
const CASHBACK: i64 = 2000;
/// The mug, bought with part of that cashback.
const MUG: i64 = 1500;
const DEBT_TEXT: &str = "Estorno de crédito já utilizado";
const PAYMENT_TEXT: &str = "Quitação de débito";

struct Shop {
    app: Router,
    db: PgPool,
    token: String,
    member_id: i64,
    station_id: i64,
    staff_token: String,
    other_id: i64,
    other_token: String,
    shirt_action: i64,
    shirt: i64,
    mug_action: i64,
    mug: i64,
    sandbox: Sandbox,
}

/// The demo station and member with an empty wallet; purchase cashback available at once
/// (no holding period, so it can be spent before the refund); a shirt of R$ 50,00 earning
/// 20 points, a mug of R$ 15,00 earning nothing; another member of the station with 10
/// points of their own; a support staff session.
async fn shop(db: &PgPool) -> Shop {
    let (demo, token) = common::demo_member_session(db).await;
    // The rounds of the race place more orders than a member may in a few minutes.
    let app = common::app_with(
        db.clone(),
        &[
            ("FILIA_ORDERS_MAX_PER_MEMBER", "1000"),
            ("FILIA_SANDBOX_CALLS_MAX_PER_MEMBER", "1000"),
        ],
    );
    let mut tx = db.begin().await.expect("tx");
    let balance = ledger::spendable(&mut tx, UserId(demo.member_id))
        .await
        .expect("balance");
    if balance > 0 {
        ledger::spend(
            &mut tx,
            &Spend {
                user_id: UserId(demo.member_id),
                station_id: StationId(demo.station_id),
                kind: SpendKind::Adjustment,
                source_id: "empty-the-wallet".into(),
                amount: balance,
                description: "Ajuste".into(),
                action_id: None,
            },
        )
        .await
        .expect("empty the wallet");
    }
    tx.commit().await.expect("commit");
    sqlx::query(
        "INSERT INTO credit_rules (station_id, rule, instant) VALUES ($1, 'purchase.cashback', true)",
    )
    .bind(demo.station_id)
    .execute(db)
    .await
    .expect("instant cashback");
    let action = |name: &'static str, points: i32| {
        sqlx::query_scalar::<_, i64>(
            "INSERT INTO actions (station_id, type_id, name, points, digital_product)
             VALUES ($1, 14, $2, $3, true) RETURNING id",
        )
        .bind(demo.station_id)
        .bind(name)
        .bind(points)
        .fetch_one(db)
    };
    let shirt_action = action("Loja do clube", 20).await.expect("action");
    let mug_action = action("Canecas", 0).await.expect("action");
    let product = |action_id: i64, name: &'static str, value: i64| {
        sqlx::query_scalar::<_, i64>(
            "INSERT INTO products (station_id, action_id, name, value, stock, limit_per_user)
             VALUES ($1, $2, $3, $4, 100, 100) RETURNING id",
        )
        .bind(demo.station_id)
        .bind(action_id)
        .bind(name)
        .bind(value)
        .fetch_one(db)
    };
    let shirt = product(shirt_action, "Camiseta", 5000)
        .await
        .expect("shirt");
    let mug = product(mug_action, "Caneca", MUG).await.expect("mug");
    let other_id = common::insert_member(db, demo.station_id, "outra@example.com").await;
    let other_token = common::session_of(db, other_id).await;
    let mut tx = db.begin().await.expect("tx");
    ledger::credit(
        &mut tx,
        &adjustment(other_id, demo.station_id, "outra", 1000),
        None,
    )
    .await
    .expect("the other member's points");
    tx.commit().await.expect("commit");
    let sandbox = common::sandbox(db);
    Shop {
        app,
        db: db.clone(),
        token,
        member_id: demo.member_id,
        station_id: demo.station_id,
        staff_token: common::session_of(db, demo.staff_id).await,
        other_id,
        other_token,
        shirt_action,
        shirt,
        mug_action,
        mug,
        sandbox,
    }
}

fn adjustment(user_id: i64, station_id: i64, key: &str, amount: i64) -> Credit {
    Credit {
        user_id: UserId(user_id),
        station_id: StationId(station_id),
        source_kind: SourceKind::Adjustment,
        source_id: key.into(),
        rule: "adjustment".into(),
        amount,
        description: "Ajuste".into(),
        action_id: None,
    }
}

async fn send(app: &Router, method: &str, uri: &str, token: &str, body: Value) -> common::Answer {
    send_json(app, method, uri, Some(token), &[], &body).await
}

async fn get(app: &Router, uri: &str, token: &str) -> common::Answer {
    call(app, "GET", uri, Some(token), &[]).await
}

impl Shop {
    /// Holds one unit of `product` and places its order, the wallet paying what it can and
    /// PIX the rest.
    async fn order(&self, product: i64, action: i64) -> common::Answer {
        let hold = send(
            &self.app,
            "POST",
            "/api/single-product-orders",
            &self.token,
            json!({ format!("product-{product}"): 1 }),
        )
        .await;
        assert_eq!(hold.status, StatusCode::OK, "{}", hold.text);
        send(
            &self.app,
            "POST",
            "/api/cupom-product-order-cart",
            &self.token,
            json!({ "cart": [{ "action_id": action }], "payment": { "type": "pix" } }),
        )
        .await
    }

    /// A shirt bought and paid by PIX, its cashback credited (available at once). Answers
    /// the order's id and its PIX charge.
    async fn paid_shirt(&self) -> (i64, String) {
        let order = self.order(self.shirt, self.shirt_action).await;
        assert_eq!(order.status, StatusCode::OK, "{}", order.text);
        let order = order.json();
        let order_id = order["id"].as_i64().expect("order id");
        let charge = order["gateway_charge"]["charge_id"]
            .as_str()
            .expect("charge")
            .to_string();
        let paid = call(
            &self.app,
            "POST",
            &format!("/api/sandbox/pix/{charge}/pay"),
            Some(&self.token),
            &[],
        )
        .await;
        assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);
        self.deliver().await;
        let status: String = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
            .bind(order_id)
            .fetch_one(&self.db)
            .await
            .expect("order");
        assert_eq!(status, "paid");
        // The cashback its `points.credit` job writes, written here at once.
        let mut tx = self.db.begin().await.expect("tx");
        let credits = fulfilment::line_credits(&mut tx, order_id)
            .await
            .expect("credits");
        assert_eq!(credits.iter().map(|c| c.amount).sum::<i64>(), CASHBACK);
        for credit in &credits {
            ledger::credit(&mut tx, credit, None)
                .await
                .expect("cashback");
        }
        tx.commit().await.expect("commit");
        (order_id, charge)
    }

    /// A mug bought with the wallet (all of it from the cashback).
    async fn mug_with_cashback(&self) -> common::Answer {
        self.order(self.mug, self.mug_action).await
    }

    /// Posts every due sandbox delivery to the webhook endpoint, then runs the
    /// `payment.sync` jobs they made. Answers the deliveries.
    async fn deliver(&self) -> Vec<(String, String)> {
        let due = common::deliver_webhooks(&self.app, &self.sandbox, 1).await;
        run_jobs::<PaymentSync>(&self.db, "payment.sync").await;
        due.into_iter()
            .map(|delivery| (delivery.body, delivery.signature))
            .collect()
    }

    async fn staff_refund(&self, order_id: i64) -> common::Answer {
        send(
            &self.app,
            "POST",
            &format!("/api/ops/orders/{order_id}/refunds"),
            &self.staff_token,
            json!({ "reason": "Produto com defeito" }),
        )
        .await
    }

    async fn wallet(&self, user_id: i64, token: &str) -> Value {
        let answer = get(&self.app, &format!("/api/users-points/{user_id}"), token).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        answer.json()
    }

    async fn debts(&self) -> Vec<Value> {
        let answer = get(&self.app, "/api/wallet-debts/", &self.token).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        answer.json().as_array().expect("debts").clone()
    }

    /// The member's spends of kind `debt`, as the statement lists them.
    async fn debt_payments(&self) -> Vec<Value> {
        let answer = get(&self.app, "/api/use-points-transactions/", &self.token).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        answer
            .json()
            .as_array()
            .expect("spends")
            .iter()
            .filter(|spend| spend["source_kind"] == "debt")
            .cloned()
            .collect()
    }

    /// Both members' ledgers keep their invariants.
    async fn consistent(&self) {
        for user_id in [self.member_id, self.other_id] {
            assert_eq!(
                ledger::check(&self.db, user_id).await.expect("check"),
                vec![]
            );
        }
    }

    /// The other member's wallet: their 10 points, no debt, nothing paid.
    async fn other_untouched(&self) {
        let wallet = self.wallet(self.other_id, &self.other_token).await;
        assert_eq!(
            (wallet["points_cents"].clone(), wallet["debt_cents"].clone()),
            (json!(1000), json!(0))
        );
        let debts = get(&self.app, "/api/wallet-debts/", &self.other_token).await;
        assert_eq!(debts.json(), json!([]));
        // Nor do they read this member's debts.
        let foreign = get(
            &self.app,
            &format!("/api/wallet-debts/?where[user_id]={}", self.member_id),
            &self.other_token,
        )
        .await;
        assert_eq!(foreign.status, StatusCode::FORBIDDEN);
    }
}

/// Runs the queue's pending jobs through their handler, as a worker would, each twice (a
/// worker killed after its effect and the job run again), and marks them done.
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
        for attempt in 1..=2 {
            let job: J = serde_json::from_value(payload["args"].clone()).expect("payload");
            let context = JobContext {
                id: id.clone(),
                attempt,
                worker: "test".into(),
                taken_at: None,
                services: services.clone(),
            };
            job.run(context).await.expect("job");
        }
        sqlx::query("UPDATE apalis.jobs SET status = 'Done', done_at = now() WHERE id = $1")
            .bind(id)
            .execute(db)
            .await
            .expect("done");
    }
    queued.len()
}

#[testkit::db_test]
async fn a_staff_refund_of_spent_cashback_records_a_debt_the_next_credits_pay(db: PgPool) {
    let shop = shop(&db).await;
    let (shirt_order, _) = shop.paid_shirt().await;
    assert_eq!(
        shop.wallet(shop.member_id, &shop.token).await["points_cents"],
        CASHBACK
    );
    // The mug, paid with 15 of the shirt's 20 points of cashback.
    let mug = shop.mug_with_cashback().await;
    assert_eq!(mug.status, StatusCode::OK, "{}", mug.text);
    assert_eq!(mug.json()["status"], "Pagamento confirmado");

    let refund = shop.staff_refund(shirt_order).await;
    assert_eq!(refund.status, StatusCode::ACCEPTED, "{}", refund.text);
    assert_eq!(run_jobs::<OrderRefund>(&db, "order.refund").await, 1);
    // Asked again: nothing is left to refund, and nothing more is owed.
    let again = shop.staff_refund(shirt_order).await;
    assert_eq!(
        again.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        again.text
    );

    // The unspent 5 points left the balance; the 15 spent are owed, the balance is zero.
    let wallet = shop.wallet(shop.member_id, &shop.token).await;
    assert_eq!(wallet["points_cents"], 0);
    assert_eq!(wallet["debt_cents"], MUG);
    assert_eq!(wallet["debt_points"], 15);
    let debts = shop.debts().await;
    assert_eq!(debts.len(), 1, "{debts:?}");
    let code: String = sqlx::query_scalar("SELECT code FROM orders WHERE id = $1")
        .bind(shirt_order)
        .fetch_one(&db)
        .await
        .expect("code");
    assert_eq!(
        debts[0]["description"],
        format!("{DEBT_TEXT}: Cashback do pedido {code}")
    );
    assert_eq!(
        (
            debts[0]["points_cents"].clone(),
            debts[0]["settled_cents"].clone(),
            debts[0]["open_cents"].clone(),
            debts[0]["settled_at"].clone()
        ),
        (json!(MUG), json!(0), json!(MUG), Value::Null)
    );
    // The reversed cashback reads as reversed, and nothing was paid yet.
    assert!(shop.debt_payments().await.is_empty());
    shop.consistent().await;
    shop.other_untouched().await;

    // A later instant credit of 10 points pays 10 of the debt and none reaches the balance.
    let mut tx = db.begin().await.expect("tx");
    PointsCredit::enqueue(
        &mut tx,
        adjustment(shop.member_id, shop.station_id, "bonus", 1000),
    )
    .await
    .expect("enqueue");
    tx.commit().await.expect("commit");
    assert_eq!(run_jobs::<PointsCredit>(&db, "points.credit").await, 1);
    let wallet = shop.wallet(shop.member_id, &shop.token).await;
    assert_eq!(
        (wallet["points_cents"].clone(), wallet["debt_cents"].clone()),
        (json!(0), json!(500))
    );
    let payments = shop.debt_payments().await;
    assert_eq!(payments.len(), 1, "{payments:?}");
    assert_eq!(payments[0]["action"]["name"], PAYMENT_TEXT);
    assert_eq!(payments[0]["points_cents"], 1000);
    // Nothing can be spent meanwhile: the mug again finds no balance and asks PIX for it all.
    let mut tx = db.begin().await.expect("tx");
    assert_eq!(
        ledger::spendable(&mut tx, UserId(shop.member_id))
            .await
            .expect("spendable"),
        0
    );
    tx.rollback().await.expect("rollback");

    // A held credit, released later, pays the rest first; only what is left is spendable.
    let mut tx = db.begin().await.expect("tx");
    ledger::credit(
        &mut tx,
        &Credit {
            rule: "activity".into(),
            source_kind: SourceKind::Activity,
            source_id: "quiz".into(),
            description: "Quiz do clube".into(),
            ..adjustment(shop.member_id, shop.station_id, "quiz", 2000)
        },
        None,
    )
    .await
    .expect("held credit");
    release_batch(&mut tx, shop.station_id, chrono::Utc::now(), 100, "release")
        .await
        .expect("release");
    tx.commit().await.expect("commit");
    let wallet = shop.wallet(shop.member_id, &shop.token).await;
    assert_eq!(
        (wallet["points_cents"].clone(), wallet["debt_cents"].clone()),
        (json!(1500), json!(0))
    );
    let debts = shop.debts().await;
    assert_eq!(debts[0]["settled_cents"], MUG);
    assert_eq!(debts[0]["open_cents"], 0);
    assert!(debts[0]["settled_at"].is_string());
    let payments = shop.debt_payments().await;
    assert_eq!(
        payments
            .iter()
            .map(|p| p["points_cents"].as_i64().expect("amount"))
            .collect::<Vec<_>>(),
        vec![500, 1000],
        "newest first"
    );
    shop.consistent().await;
    shop.other_untouched().await;
}

#[testkit::db_test]
async fn a_bank_refund_of_spent_cashback_records_the_debt_once(db: PgPool) {
    let shop = shop(&db).await;
    let (shirt_order, charge) = shop.paid_shirt().await;
    let mug = shop.mug_with_cashback().await;
    assert_eq!(mug.status, StatusCode::OK, "{}", mug.text);

    // MED: the payer's bank takes the shirt's money back; the webhook applies it.
    shop.sandbox
        .bank_refund(&charge, None)
        .await
        .expect("bank refund");
    let posted = shop.deliver().await;
    assert!(!posted.is_empty());
    // The same events delivered again (the provider retries) change nothing.
    for (body, signature) in &posted {
        let answer = post_webhook(&shop.app, body, signature).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
    run_jobs::<PaymentSync>(&db, "payment.sync").await;
    let status: String = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
        .bind(shirt_order)
        .fetch_one(&db)
        .await
        .expect("order");
    assert_eq!(status, "refunded");

    let wallet = shop.wallet(shop.member_id, &shop.token).await;
    assert_eq!(
        (wallet["points_cents"].clone(), wallet["debt_cents"].clone()),
        (json!(0), json!(MUG))
    );
    let debts = shop.debts().await;
    assert_eq!(debts.len(), 1, "{debts:?}");
    assert_eq!(debts[0]["open_cents"], MUG);
    shop.consistent().await;
    shop.other_untouched().await;
}

#[testkit::db_test]
async fn a_refund_racing_a_spend_of_its_cashback_never_leaves_both(db: PgPool) {
    let shop = shop(&db).await;
    for round in 0..6 {
        let (shirt_order, _) = shop.paid_shirt().await;
        let refund = shop.staff_refund(shirt_order).await;
        assert_eq!(refund.status, StatusCode::ACCEPTED, "{}", refund.text);
        // The refund's job and the mug's order, paid from the same cashback, at once.
        let (_, mug) = tokio::join!(
            run_jobs::<OrderRefund>(&db, "order.refund"),
            shop.mug_with_cashback()
        );
        assert_eq!(mug.status, StatusCode::OK, "{}", mug.text);
        // Whatever came first: what the mug drew from the reversed cashback is owed.
        let (drawn, owed): (i64, i64) = sqlx::query_as(
            "SELECT coalesce((SELECT sum(a.amount) FROM spend_allocations a
                               JOIN spends s ON s.id = a.spend_id
                              WHERE a.lot_id = l.id AND s.source_kind = 'purchase'), 0)::bigint,
                    coalesce((SELECT amount FROM wallet_debts WHERE lot_id = l.id), 0)::bigint
               FROM credit_lots l
              WHERE l.source_kind = 'purchase' AND l.state = 'reversed'
                AND l.source_id = (SELECT 'order_line:' || min(id) FROM order_lines
                                    WHERE order_id = $1)",
        )
        .bind(shirt_order)
        .fetch_one(&db)
        .await
        .expect("lot");
        assert_eq!(drawn, owed, "round {round}");
        shop.consistent().await;
        // Pay what is owed, so the next round starts from an empty wallet.
        let debt = ledger::debt(&db, shop.member_id).await.expect("debt");
        if debt > 0 {
            let mut tx = db.begin().await.expect("tx");
            ledger::credit(
                &mut tx,
                &adjustment(
                    shop.member_id,
                    shop.station_id,
                    &format!("pay-{round}"),
                    debt,
                ),
                None,
            )
            .await
            .expect("pay");
            tx.commit().await.expect("commit");
        }
        let wallet = shop.wallet(shop.member_id, &shop.token).await;
        assert_eq!(wallet["debt_cents"], 0);
        let left = wallet["points_cents"].as_i64().expect("balance");
        if left > 0 {
            let mut tx = db.begin().await.expect("tx");
            ledger::spend(
                &mut tx,
                &Spend {
                    user_id: UserId(shop.member_id),
                    station_id: StationId(shop.station_id),
                    kind: SpendKind::Adjustment,
                    source_id: format!("empty-{round}"),
                    amount: left,
                    description: "Ajuste".into(),
                    action_id: None,
                },
            )
            .await
            .expect("empty");
            tx.commit().await.expect("commit");
        }
    }
    shop.other_untouched().await;
}

/// A refund of the wallet alone never needs the payment provider: it is made even when
/// the provider cannot be set up; one with a PIX part waits for the provider, still pending.
#[testkit::db_test]
async fn a_wallet_refund_is_made_without_the_payment_provider(db: PgPool) {
    use app::commerce::refunds::{self, NotRefunded};
    let shop = shop(&db).await;
    let (shirt_order, _) = shop.paid_shirt().await;
    let mug = shop.mug_with_cashback().await;
    assert_eq!(mug.status, StatusCode::OK, "{}", mug.text);
    let mug_order = mug.json()["id"].as_i64().expect("mug order");
    for order_id in [mug_order, shirt_order] {
        let refund = shop.staff_refund(order_id).await;
        assert_eq!(refund.status, StatusCode::ACCEPTED, "{}", refund.text);
    }
    let refund_of = async |order_id: i64| -> i64 {
        sqlx::query_scalar("SELECT id FROM refunds WHERE order_id = $1")
            .bind(order_id)
            .fetch_one(&db)
            .await
            .expect("refund")
    };
    let no_provider = || -> anyhow::Result<Gateway> { Err(anyhow::anyhow!("sem provedor")) };

    let mug_refund = refund_of(mug_order).await;
    let made = refunds::make(&db, no_provider, &jobs::JobOutbox, mug_refund)
        .await
        .expect("a wallet refund needs no provider");
    assert!(made.is_some());
    let shirt_refund = refund_of(shirt_order).await;
    let waiting = refunds::make(&db, no_provider, &jobs::JobOutbox, shirt_refund).await;
    assert!(
        matches!(waiting, Err(NotRefunded::NoProvider(_))),
        "{waiting:?}"
    );
    let statuses: Vec<String> =
        sqlx::query_scalar("SELECT status FROM refunds WHERE id = ANY($1) ORDER BY id")
            .bind(vec![mug_refund, shirt_refund])
            .fetch_all(&db)
            .await
            .expect("statuses");
    assert_eq!(statuses, ["done", "pending"]);
    shop.consistent().await;
}
