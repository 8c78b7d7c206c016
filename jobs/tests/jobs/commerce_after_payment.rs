//! After payment through the real fleet: `order.confirm` makes the vouchers, the line
//! credits, the receipt e-mail and the PDFs once, however often it runs; `order.refund`
//! of part of an order reverses exactly the refunded line's cashback, once.

use std::time::Duration;

use crate::common::{start_fleet, wait_for_state};
use domain::commerce::cart::Wanted;
use domain::commerce::orders::{self, PlaceOrder};
use domain::commerce::refunds::{self, RefundRequest};
use domain::commerce::{checkout, fulfilment};
use domain::shared::ids::{StationId, UserId};
use domain::staff::Scope;
use domain::wallet::ledger::{self, Credit, SourceKind};
use jobs::enqueue::Enqueue;
use jobs::kinds::{OrderConfirm, OrderRefund};
use jobs::{JobOutbox, JobState};
use sqlx::PgPool;
use testkit::build;

struct Shop {
    station_id: i64,
    user_id: i64,
    staff_id: i64,
    voucher_product: i64,
    shop_product: i64,
}

async fn setup(db: &PgPool) -> Shop {
    let station_id = build::station("clube")
        .url("https://c.example.com")
        .insert(db)
        .await;
    let user_id = build::member(station_id)
        .name("Maria Souza")
        .email("maria@example.com")
        .insert(db)
        .await;
    let staff_id = build::member(station_id)
        .name("Equipe")
        .email("equipe@example.com")
        .staff()
        .insert(db)
        .await;
    sqlx::query("INSERT INTO dependents (station_id, user_id, dependente, parentesco) VALUES ($1, $2, 'João', 'Filho')")
        .bind(station_id)
        .bind(user_id)
        .execute(db)
        .await
        .expect("dependent");
    // A type 3 activity selling family vouchers (5 points of cashback) and a shop
    // activity (3 + 2 points).
    let voucher_action: i64 = sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, digital_product, sell_vouchers,
                              familiar_voucher, points, rules)
         VALUES ($1, 3, 'Ingresso do show', true, true, true, 5, '<p>Apresente o QR</p>') RETURNING id",
    )
    .bind(station_id)
    .fetch_one(db)
    .await
    .expect("action");
    let shop_action: i64 = sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, digital_product, points, additional_cashback)
         VALUES ($1, 14, 'Loja', true, 3, 2) RETURNING id",
    )
    .bind(station_id)
    .fetch_one(db)
    .await
    .expect("action");
    let product = |action: i64, name: &'static str, value: i64| {
        let db = db.clone();
        async move {
            sqlx::query_scalar::<_, i64>(
                "INSERT INTO products (station_id, action_id, name, value, stock)
                 VALUES ($1, $2, $3, $4, 10) RETURNING id",
            )
            .bind(station_id)
            .bind(action)
            .bind(name)
            .bind(value)
            .fetch_one(&db)
            .await
            .expect("product")
        }
    };
    let voucher_product = product(voucher_action, "Ingresso", 3000).await;
    let shop_product = product(shop_action, "Caneca", 2000).await;
    let mut tx = db.begin().await.expect("tx");
    ledger::credit(
        &mut tx,
        &Credit {
            user_id: UserId(user_id),
            station_id: StationId(station_id),
            source_kind: SourceKind::Adjustment,
            source_id: "saldo".into(),
            rule: "adjustment".into(),
            amount: 100_000,
            description: "Saldo".into(),
            action_id: None,
        },
        None,
    )
    .await
    .expect("balance");
    tx.commit().await.expect("commit");
    Shop {
        station_id,
        user_id,
        staff_id,
        voucher_product,
        shop_product,
    }
}

/// A wallet-only order of 2 vouchers and 2 mugs, paid at once.
async fn paid_order(db: &PgPool, shop: &Shop) -> i64 {
    let mut tx = db.begin().await.expect("tx");
    checkout::confirm(
        &mut tx,
        shop.station_id,
        shop.user_id,
        &[
            Wanted {
                product_id: shop.voucher_product,
                quantity: 2,
            },
            Wanted {
                product_id: shop.shop_product,
                quantity: 2,
            },
        ],
    )
    .await
    .expect("hold");
    let placed = orders::place(
        &mut tx,
        StationId(shop.station_id),
        UserId(shop.user_id),
        &PlaceOrder::default(),
    )
    .await
    .expect("order");
    assert!(placed.paid);
    tx.commit().await.expect("commit");
    placed.order_id
}

/// The order's line of `product_id`.
async fn line_of(db: &PgPool, order_id: i64, product_id: i64) -> i64 {
    sqlx::query_scalar("SELECT id FROM order_lines WHERE order_id = $1 AND product_id = $2")
        .bind(order_id)
        .bind(product_id)
        .fetch_one(db)
        .await
        .expect("line")
}

async fn count(db: &PgPool, sql: &'static str, id: i64) -> i64 {
    sqlx::query_scalar(sql)
        .bind(id)
        .fetch_one(db)
        .await
        .expect("count")
}

async fn confirm_once(db: &PgPool, shop: &Shop, order_id: i64) -> String {
    let mut tx = db.begin().await.expect("tx");
    let job = OrderConfirm::enqueue(&mut tx, shop.station_id, shop.user_id, order_id)
        .await
        .expect("enqueue");
    tx.commit().await.expect("commit");
    job.id
}

#[testkit::db_test]
async fn order_confirm_runs_twice_and_nothing_doubles(db: PgPool) {
    let shop = setup(&db).await;
    let order_id = paid_order(&db, &shop).await;
    // The cashback is what the order promised: a later change to the activities' points
    // does not change what the lines earn.
    sqlx::query("UPDATE actions SET points = points + 40 WHERE station_id = $1")
        .bind(shop.station_id)
        .execute(&db)
        .await
        .expect("points changed");
    let fleet = start_fleet(&db);
    let job = confirm_once(&db, &shop, order_id).await;
    let view = wait_for_state(&db, &job, JobState::Succeeded, Duration::from_secs(30)).await;
    let result = view.result.expect("result");
    assert_eq!(result["paid"], true);
    let receipt_job = result["receipt_job"]
        .as_str()
        .expect("receipt job")
        .to_string();

    // Enqueued again: the same job. Run a second time (a duplicate without the key, as a
    // worker that died before the queue heard back would): no new rows.
    assert_eq!(confirm_once(&db, &shop, order_id).await, job);
    let again = Enqueue::new(OrderConfirm { order_id })
        .commit(&db)
        .await
        .expect("second run");
    let view = wait_for_state(&db, &again.id, JobState::Succeeded, Duration::from_secs(30)).await;
    assert_eq!(
        view.result.expect("result")["receipt_job"],
        receipt_job.as_str()
    );

    let vouchers = count(
        &db,
        "SELECT count(*) FROM vouchers v JOIN order_lines l ON l.id = v.order_line_id WHERE l.order_id = $1",
        order_id,
    )
    .await;
    assert_eq!(vouchers, 2, "one voucher per unit of the voucher line");
    let dependents = count(
        &db,
        "SELECT count(*) FROM voucher_dependents vd JOIN vouchers v ON v.id = vd.voucher_id WHERE v.user_id = $1",
        shop.user_id,
    )
    .await;
    assert_eq!(dependents, 2, "a family voucher lists the dependent");
    let flag: bool = sqlx::query_scalar("SELECT create_vouchers FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_one(&db)
        .await
        .expect("flag");
    assert!(flag);
    let credit_jobs = count(
        &db,
        "SELECT count(*) FROM apalis.jobs WHERE job_type = 'points.credit' AND $1 > 0",
        1,
    )
    .await;
    assert_eq!(credit_jobs, 2, "one credit per line");
    let mails = count(
        &db,
        "SELECT count(*) FROM apalis.jobs WHERE job_type = 'mail.send' AND $1 > 0",
        1,
    )
    .await;
    assert_eq!(mails, 1);
    let pdf_jobs = count(
        &db,
        "SELECT count(*) FROM apalis.jobs WHERE job_type IN ('receipt.pdf', 'voucher.pdf') AND $1 > 0",
        1,
    )
    .await;
    assert_eq!(pdf_jobs, 3, "one receipt and one PDF per voucher");

    // The credits: the voucher line's waits for validation, the mug line's is the
    // purchase rule; 5 and 3 + 2 points.
    let lines: Vec<(i64, i64)> =
        sqlx::query_as("SELECT id, product_id FROM order_lines WHERE order_id = $1 ORDER BY id")
            .bind(order_id)
            .fetch_all(&db)
            .await
            .expect("lines");
    for (line_id, product_id) in &lines {
        let source = fulfilment::line_source(*line_id);
        let mut found = None;
        for _ in 0..300 {
            found = sqlx::query_as::<_, (i64, String, String)>(
                "SELECT amount, rule, state::text FROM credit_lots WHERE source_id = $1",
            )
            .bind(&source)
            .fetch_optional(&db)
            .await
            .expect("lot");
            if found.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let (amount, rule, state) = found.expect("the line's credit lot");
        assert_eq!(state, "pending");
        if *product_id == shop.voucher_product {
            assert_eq!(
                (amount, rule.as_str()),
                (500, "purchase.cashback.validation")
            );
        } else {
            assert_eq!((amount, rule.as_str()), (500, "purchase.cashback"));
        }
    }

    // The receipt PDF is stored and reads back.
    wait_for_state(
        &db,
        &receipt_job,
        JobState::Succeeded,
        Duration::from_secs(60),
    )
    .await;
    let key: Option<String> = sqlx::query_scalar("SELECT receipt_key FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_one(&db)
        .await
        .expect("key");
    let key = key.expect("receipt stored");
    assert!(key.starts_with("private/receipts/") && key.ends_with(".pdf"));
    let path = std::env::temp_dir()
        .join("filia-jobs-tests")
        .join("objects")
        .join(&key);
    let text = std::process::Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext");
    let text = String::from_utf8_lossy(&text.stdout);
    let code: String = sqlx::query_scalar("SELECT code FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_one(&db)
        .await
        .expect("code");
    assert!(text.contains(&format!("Pedido nº {code}")), "{text}");
    assert!(text.contains("R$ 100,00"), "{text}");
    fleet.stop().await.expect("clean stop");
}

#[testkit::db_test]
async fn a_partial_refund_reverses_exactly_the_refunded_lines_cashback_once(db: PgPool) {
    let shop = setup(&db).await;
    let order_id = paid_order(&db, &shop).await;
    let fleet = start_fleet(&db);
    let job = confirm_once(&db, &shop, order_id).await;
    wait_for_state(&db, &job, JobState::Succeeded, Duration::from_secs(30)).await;
    let mug_line: i64 = line_of(&db, order_id, shop.shop_product).await;
    let balance_before = ledger::balance(&db, shop.user_id).await.expect("balance");

    // Both mugs back: R$ 40,00 to the wallet (the order was paid with it), the mug line's
    // cashback reversed, the voucher line's kept.
    let queued = app::commerce::refunds::request(
        &db,
        &JobOutbox,
        shop.staff_id,
        Scope::Station(shop.station_id),
        order_id,
        &RefundRequest {
            lines: Some(vec![(mug_line, 2)]),
            reason: "Produto com defeito".into(),
        },
    )
    .await
    .expect("refund");
    assert_eq!(queued.requested.amount, 4000);
    let view = wait_for_state(
        &db,
        &queued.job_id,
        JobState::Succeeded,
        Duration::from_secs(30),
    )
    .await;
    assert_eq!(view.result.expect("result")["applied"], true);
    // A second run of the same refund refunds nothing more.
    let again = Enqueue::new(OrderRefund {
        refund_id: queued.requested.refund_id,
    })
    .commit(&db)
    .await
    .expect("second run");
    let view = wait_for_state(&db, &again.id, JobState::Succeeded, Duration::from_secs(30)).await;
    assert_eq!(view.result.expect("result")["applied"], false);

    let states: Vec<(String, String)> = sqlx::query_as(
        "SELECT source_id, state::text FROM credit_lots
          WHERE source_kind = 'purchase' ORDER BY source_id",
    )
    .fetch_all(&db)
    .await
    .expect("lots");
    for (source, state) in &states {
        if source == &fulfilment::line_source(mug_line) {
            assert_eq!(state, "reversed");
        } else {
            assert_eq!(state, "pending", "{source}");
        }
    }
    assert_eq!(states.len(), 2, "{states:?}");
    let (status, percentage, stock): (String, String, i32) = sqlx::query_as(
        "SELECT o.status, o.refunded_percentage::text, p.stock FROM orders o, products p
          WHERE o.id = $1 AND p.id = $2",
    )
    .bind(order_id)
    .bind(shop.shop_product)
    .fetch_one(&db)
    .await
    .expect("order");
    assert_eq!(status, "partially_refunded");
    assert_eq!(percentage, "40.00");
    assert_eq!(stock, 10, "the mugs are back in stock");
    // The wallet part comes back once, through points.credit.
    let mut back = 0;
    for _ in 0..300 {
        back = ledger::balance(&db, shop.user_id)
            .await
            .expect("balance")
            .balance
            - balance_before.balance;
        if back != 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(back, 4000);
    let audits = count(
        &db,
        "SELECT count(*) FROM staff_audit WHERE action = 'order.refund' AND user_id = $1",
        shop.staff_id,
    )
    .await;
    assert_eq!(audits, 1);
    fleet.stop().await.expect("clean stop");
}

#[testkit::db_test]
async fn a_partial_refund_gives_back_what_the_units_cost_after_the_coupon(db: PgPool) {
    let shop = setup(&db).await;
    sqlx::query("INSERT INTO coupons (station_id, code, discount_value) VALUES ($1, 'DEZ', 1000)")
        .bind(shop.station_id)
        .execute(&db)
        .await
        .expect("coupon");
    let mut tx = db.begin().await.expect("tx");
    checkout::confirm(
        &mut tx,
        shop.station_id,
        shop.user_id,
        &[
            Wanted {
                product_id: shop.voucher_product,
                quantity: 2,
            },
            Wanted {
                product_id: shop.shop_product,
                quantity: 2,
            },
        ],
    )
    .await
    .expect("hold");
    checkout::apply_coupon(&mut tx, shop.station_id, shop.user_id, "DEZ")
        .await
        .expect("coupon applied");
    let placed = orders::place(
        &mut tx,
        StationId(shop.station_id),
        UserId(shop.user_id),
        &PlaceOrder::default(),
    )
    .await
    .expect("order");
    tx.commit().await.expect("commit");
    let (mug_line, list_price, net): (i64, i64, i64) = sqlx::query_as(
        "SELECT id, unit_price * quantity, net_amount FROM order_lines
          WHERE order_id = $1 AND product_id = $2",
    )
    .bind(placed.order_id)
    .bind(shop.shop_product)
    .fetch_one(&db)
    .await
    .expect("line");
    assert!(
        net < list_price,
        "the coupon took its share of the mugs: {net} of {list_price}"
    );

    let queued = app::commerce::refunds::request(
        &db,
        &JobOutbox,
        shop.staff_id,
        Scope::Station(shop.station_id),
        placed.order_id,
        &RefundRequest {
            lines: Some(vec![(mug_line, 2)]),
            reason: "Produto com defeito".into(),
        },
    )
    .await
    .expect("refund");
    assert_eq!(
        queued.requested.amount, net,
        "what the mugs cost, not their list price"
    );
}

/// Waits until `sql` (bound to `id`) counts `expected`; panics with the last count otherwise.
async fn eventually(db: &PgPool, sql: &'static str, id: i64, expected: i64) {
    let mut last = -1;
    for _ in 0..300 {
        last = count(db, sql, id).await;
        if last == expected {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{sql}: {last}, expected {expected}");
}

/// The cashback a line's units still hold (its own credit and any re-credit of kept units).
const LINE_CASHBACK: &str = "SELECT coalesce(sum(amount), 0)::bigint FROM credit_lots
     WHERE source_kind = 'purchase' AND state IN ('pending', 'available')
       AND (source_id = 'order_line:' || $1 OR source_id LIKE 'order_line:' || $1 || ':%')";

const OPEN_PURCHASE_LOTS: &str = "SELECT coalesce(sum(amount), 0)::bigint FROM credit_lots
     WHERE user_id = $1 AND source_kind = 'purchase' AND state IN ('pending', 'available')";

#[testkit::db_test]
async fn refunds_asked_at_once_never_refund_a_unit_twice(db: PgPool) {
    let shop = setup(&db).await;
    let order_id = paid_order(&db, &shop).await;
    let fleet = start_fleet(&db);
    let job = confirm_once(&db, &shop, order_id).await;
    wait_for_state(&db, &job, JobState::Succeeded, Duration::from_secs(30)).await;
    let balance_before = ledger::balance(&db, shop.user_id)
        .await
        .expect("balance")
        .balance;
    let mug_line: i64 = line_of(&db, order_id, shop.shop_product).await;

    // Two staff members (or one double click) at once: six ask for one mug each, six for
    // the whole order. Two mugs were sold: at most two single-mug refunds, and the whole
    // order only for what is left when it is its turn.
    let mut asks = Vec::new();
    for i in 0..12 {
        let db = db.clone();
        let lines = (i % 2 == 0).then(|| vec![(mug_line, 1)]);
        let (staff_id, station_id) = (shop.staff_id, shop.station_id);
        asks.push(tokio::spawn(async move {
            app::commerce::refunds::request(
                &db,
                &JobOutbox,
                staff_id,
                Scope::Station(station_id),
                order_id,
                &RefundRequest {
                    lines,
                    reason: "Pedido duplicado".into(),
                },
            )
            .await
        }));
    }
    let mut accepted = Vec::new();
    for ask in asks {
        match ask.await.expect("task") {
            Ok(queued) => accepted.push(queued),
            Err(refunds::RefundError::Refused(_)) => {}
            Err(other) => panic!("{other:?}"),
        }
    }
    let asked: i64 = accepted.iter().map(|q| q.requested.amount).sum();
    assert_eq!(
        asked, 10_000,
        "every centavo of the order, once: {accepted:?}"
    );
    for queued in &accepted {
        wait_for_state(
            &db,
            &queued.job_id,
            JobState::Succeeded,
            Duration::from_secs(30),
        )
        .await;
    }
    let units: Vec<(i32, i32)> = sqlx::query_as(
        "SELECT quantity, refunded_quantity FROM order_lines WHERE order_id = $1 ORDER BY id",
    )
    .bind(order_id)
    .fetch_all(&db)
    .await
    .expect("lines");
    assert_eq!(units, vec![(2, 2), (2, 2)]);
    let status: String = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_one(&db)
        .await
        .expect("order");
    assert_eq!(status, "refunded");
    let stocks = count(
        &db,
        "SELECT sum(stock)::bigint FROM products WHERE station_id = $1",
        shop.station_id,
    )
    .await;
    assert_eq!(stocks, 20, "every unit back in stock once");
    assert_eq!(count(&db, OPEN_PURCHASE_LOTS, shop.user_id).await, 0);
    // The wallet paid R$ 100,00 and gets exactly that back.
    let mut back = 0;
    for _ in 0..300 {
        back = ledger::balance(&db, shop.user_id)
            .await
            .expect("balance")
            .balance
            - balance_before;
        if back == 10_000 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(back, 10_000);
    fleet.stop().await.expect("clean stop");
}

#[testkit::db_test]
async fn a_refund_applied_before_the_confirmation_leaves_nothing_owed_for_its_units(db: PgPool) {
    let shop = setup(&db).await;
    let order_id = paid_order(&db, &shop).await;
    let ticket_line: i64 = line_of(&db, order_id, shop.voucher_product).await;
    // The refund of one ticket is asked and applied while order.confirm has not run yet
    // (its queue is busy, say): no vouchers, no cashback exist yet.
    let fleet = start_fleet(&db);
    let queued = app::commerce::refunds::request(
        &db,
        &JobOutbox,
        shop.staff_id,
        Scope::Station(shop.station_id),
        order_id,
        &RefundRequest {
            lines: Some(vec![(ticket_line, 1)]),
            reason: "Desistência".into(),
        },
    )
    .await
    .expect("refund");
    wait_for_state(
        &db,
        &queued.job_id,
        JobState::Succeeded,
        Duration::from_secs(30),
    )
    .await;
    // Then the confirmation runs: one voucher for the ticket kept, and the ticket line's
    // cashback is what the kept unit earns, never the refunded one's.
    let job = confirm_once(&db, &shop, order_id).await;
    wait_for_state(&db, &job, JobState::Succeeded, Duration::from_secs(30)).await;
    eventually(
        &db,
        "SELECT count(*) FROM vouchers WHERE order_line_id = $1",
        ticket_line,
        1,
    )
    .await;
    let line_share: i64 =
        sqlx::query_scalar("SELECT cashback_share FROM order_lines WHERE id = $1")
            .bind(ticket_line)
            .fetch_one(&db)
            .await
            .expect("share");
    assert!(line_share > 0);
    eventually(&db, LINE_CASHBACK, ticket_line, line_share / 2).await;
    // Running the confirmation again changes nothing.
    let again = Enqueue::new(OrderConfirm { order_id })
        .commit(&db)
        .await
        .expect("again");
    wait_for_state(&db, &again.id, JobState::Succeeded, Duration::from_secs(30)).await;
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM vouchers WHERE order_line_id = $1",
            ticket_line
        )
        .await,
        1
    );
    assert_eq!(count(&db, LINE_CASHBACK, ticket_line).await, line_share / 2);
    fleet.stop().await.expect("clean stop");
}

#[testkit::db_test]
async fn a_second_refund_before_the_firsts_credits_ran_reverses_the_kept_cashback(db: PgPool) {
    let shop = setup(&db).await;
    let order_id = paid_order(&db, &shop).await;
    let mut tx = db.begin().await.expect("tx");
    for credit in fulfilment::line_credits(&mut tx, order_id)
        .await
        .expect("credits")
    {
        ledger::credit(&mut tx, &credit, None)
            .await
            .expect("line credit");
    }
    tx.commit().await.expect("commit");
    let mug_line: i64 = line_of(&db, order_id, shop.shop_product).await;
    // One mug, then the other, both applied before any queued credit has run: the order
    // fixed, not left to the jobs' timing.
    let mut queued = Vec::new();
    for reason in ["Primeira caneca", "Segunda caneca"] {
        let mut tx = db.begin().await.expect("tx");
        let requested = refunds::request(
            &mut tx,
            Some(shop.station_id),
            order_id,
            &RefundRequest {
                lines: Some(vec![(mug_line, 1)]),
                reason: reason.into(),
            },
            domain::commerce::status::RefundOrigin::Staff,
            Some(shop.staff_id),
        )
        .await
        .expect("request");
        let applied = refunds::apply(&mut tx, requested.refund_id, None)
            .await
            .expect("apply")
            .expect("once");
        tx.commit().await.expect("commit");
        queued.extend(applied.credits);
    }
    // Then the queued credits run, as points.credit would.
    let mut tx = db.begin().await.expect("tx");
    for credit in &queued {
        ledger::credit(&mut tx, credit, None)
            .await
            .expect("queued credit");
    }
    tx.commit().await.expect("commit");
    assert_eq!(
        count(&db, LINE_CASHBACK, mug_line).await,
        0,
        "no mug is kept"
    );
    assert_eq!(
        count(&db, OPEN_PURCHASE_LOTS, shop.user_id).await,
        count(&db, LINE_CASHBACK_OF_ORDER, order_id).await,
        "only the tickets' cashback is left"
    );
}

/// The cashback an order's lines still hold.
const LINE_CASHBACK_OF_ORDER: &str = "SELECT coalesce(sum(c.amount), 0)::bigint FROM credit_lots c
     JOIN order_lines l ON c.source_id = 'order_line:' || l.id
    WHERE l.order_id = $1 AND c.source_kind = 'purchase' AND c.state IN ('pending', 'available')";
