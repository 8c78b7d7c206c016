//! The hold, coupons and orders against the real database, with real concurrent
//! transactions: no oversell, coupon limits, the wallet never below zero, one order per
//! hold, expired holds released once.

use chrono::{Duration, Utc};
use sqlx::PgPool;

use super::cart::Wanted;
use super::checkout::{self, Hold};
use super::orders::{self, Confirmation, DeliveryChoice, Method, PlaceOrder};
use super::{CommerceError, Refusal, catalogue, coupons};
use crate::shared::ids::{Cents, StationId, UserId};
use crate::wallet::ledger::{self, Credit, SourceKind};
use crate::wallet::rules;

async fn station(db: &PgPool) -> i64 {
    testkit::build::station("loja").insert(db).await
}

async fn member(db: &PgPool, station_id: i64) -> i64 {
    testkit::build::member(station_id).insert(db).await
}

/// A digital activity (no delivery step) and one product of it.
async fn product(db: &PgPool, station_id: i64, value: i64, stock: i32) -> i64 {
    let action_id: i64 = sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, points, digital_product)
         VALUES ($1, 3, 'Ingresso', 2, true) RETURNING id",
    )
    .bind(station_id)
    .fetch_one(db)
    .await
    .expect("action");
    sqlx::query_scalar(
        "INSERT INTO products (station_id, action_id, name, value, stock, limit_per_user)
         VALUES ($1, $2, 'Ingresso do show', $3, $4, 10) RETURNING id",
    )
    .bind(station_id)
    .bind(action_id)
    .bind(value)
    .bind(stock)
    .fetch_one(db)
    .await
    .expect("product")
}

async fn give_balance(db: &PgPool, station_id: i64, user_id: i64, amount: i64) {
    let mut tx = db.begin().await.expect("tx");
    ledger::credit(
        &mut tx,
        &Credit {
            user_id: UserId(user_id),
            station_id: StationId(station_id),
            source_kind: SourceKind::Adjustment,
            source_id: format!("saldo-{user_id}"),
            rule: rules::ADJUSTMENT.into(),
            amount,
            description: "Saldo".into(),
            action_id: None,
        },
        None,
    )
    .await
    .expect("credit");
    tx.commit().await.expect("commit");
}

/// Confirms a cart as the API does: clears the way, then holds in one transaction.
async fn confirm(
    db: &PgPool,
    station_id: i64,
    user_id: i64,
    product_id: i64,
    quantity: i64,
) -> Result<Hold, CommerceError> {
    checkout::clear_before_confirm(db, user_id, &[product_id]).await?;
    let mut tx = db.begin().await?;
    let hold = checkout::confirm(
        &mut tx,
        station_id,
        user_id,
        &[Wanted {
            product_id,
            quantity,
        }],
    )
    .await?;
    tx.commit().await?;
    Ok(hold)
}

async fn place(
    db: &PgPool,
    station_id: i64,
    user_id: i64,
    method: Option<Method>,
) -> Result<orders::Placed, CommerceError> {
    let mut tx = db.begin().await?;
    let placed = orders::place(
        &mut tx,
        StationId(station_id),
        UserId(user_id),
        &PlaceOrder {
            method,
            ..PlaceOrder::default()
        },
    )
    .await?;
    tx.commit().await?;
    Ok(placed)
}

async fn stock_and_reserved(db: &PgPool, product_id: i64) -> (i32, i32) {
    sqlx::query_as("SELECT stock, reserved FROM products WHERE id = $1")
        .bind(product_id)
        .fetch_one(db)
        .await
        .expect("product")
}

async fn expire_now(db: &PgPool, checkout_id: i64) {
    sqlx::query("UPDATE checkouts SET expires_at = now() - interval '1 second' WHERE id = $1")
        .bind(checkout_id)
        .execute(db)
        .await
        .expect("expire");
}

fn refusal(result: Result<impl std::fmt::Debug, CommerceError>) -> Refusal {
    match result {
        Err(CommerceError::Refused(refusal)) => refusal,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[testkit::db_test]
async fn two_hundred_buyers_for_the_last_fifty_units_buy_exactly_fifty(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 1000, 50).await;
    let mut buyers = Vec::new();
    for _ in 0..200 {
        buyers.push(member(&db, station_id).await);
    }
    let attempts = buyers.into_iter().map(|user_id| {
        let db = db.clone();
        tokio::spawn(async move { confirm(&db, station_id, user_id, product_id, 1).await })
    });
    let (mut held, mut refused) = (0, 0);
    for attempt in futures_util::future::join_all(attempts).await {
        match attempt.expect("task") {
            Ok(_) => held += 1,
            Err(CommerceError::Refused(Refusal::OutOfStock)) => refused += 1,
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!((held, refused), (50, 150));
    assert_eq!(stock_and_reserved(&db, product_id).await, (50, 50));
    assert_eq!(
        catalogue::available(&db, product_id).await.expect("read"),
        0
    );
}

#[testkit::db_test]
async fn a_coupon_limited_to_ten_uses_is_used_ten_times_by_a_hundred_checkouts(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 1000, 1000).await;
    sqlx::query(
        "INSERT INTO coupons (station_id, code, discount_value, max_uses) VALUES ($1, 'DEZ', 500, 10)",
    )
    .bind(station_id)
    .execute(&db)
    .await
    .expect("coupon");
    let mut buyers = Vec::new();
    for _ in 0..100 {
        buyers.push(member(&db, station_id).await);
    }
    let attempts = buyers.into_iter().map(|user_id| {
        let db = db.clone();
        tokio::spawn(async move {
            let hold = confirm(&db, station_id, user_id, product_id, 1).await?;
            let mut tx = db.begin().await?;
            let coupon =
                coupons::claim(&mut tx, station_id, user_id, hold.checkout_id, " dez ").await?;
            tx.commit().await?;
            Ok::<_, CommerceError>(coupon)
        })
    });
    let (mut used, mut refused) = (0, 0);
    for attempt in futures_util::future::join_all(attempts).await {
        match attempt.expect("task") {
            Ok(coupon) => {
                assert_eq!(coupon.discount_value, Cents(500));
                used += 1;
            }
            Err(CommerceError::Refused(Refusal::CouponExhausted)) => refused += 1,
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!((used, refused), (10, 90));
    let counts: (i32, i64) = sqlx::query_as(
        "SELECT uses, (SELECT count(*) FROM coupon_uses WHERE released_at IS NULL) FROM coupons",
    )
    .fetch_one(&db)
    .await
    .expect("counts");
    assert_eq!(counts, (10, 10));
}

#[testkit::db_test]
async fn a_member_uses_a_coupon_once_and_gets_it_back_when_the_hold_is_released(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 1000, 10).await;
    let user_id = member(&db, station_id).await;
    sqlx::query("INSERT INTO coupons (station_id, code, discount_value) VALUES ($1, 'UMA', 300)")
        .bind(station_id)
        .execute(&db)
        .await
        .expect("coupon");
    let hold = confirm(&db, station_id, user_id, product_id, 1)
        .await
        .expect("hold");
    let mut tx = db.begin().await.expect("tx");
    coupons::claim(&mut tx, station_id, user_id, hold.checkout_id, "UMA")
        .await
        .expect("claim");
    // The same hold claiming it again keeps its one use.
    coupons::claim(&mut tx, station_id, user_id, hold.checkout_id, "uma")
        .await
        .expect("again");
    tx.commit().await.expect("commit");
    let placed = place(&db, station_id, user_id, Some(Method::Pix))
        .await
        .expect("order");
    assert!(!placed.paid);

    // A second checkout of the same member cannot use it again.
    let second = confirm(&db, station_id, user_id, product_id, 1)
        .await
        .expect("hold");
    let mut tx = db.begin().await.expect("tx");
    let again = coupons::claim(&mut tx, station_id, user_id, second.checkout_id, "UMA").await;
    assert_eq!(refusal(again), Refusal::CouponAlreadyUsed);
    drop(tx);

    // The first order's hold expires: the use comes back, and the code works again.
    expire_now(&db, placed.checkout_id).await;
    let mut tx = db.begin().await.expect("tx");
    let released = checkout::release_expired(&mut tx, placed.checkout_id, Utc::now())
        .await
        .expect("release");
    tx.commit().await.expect("commit");
    assert_eq!(released.expired_order, Some(placed.order_id));
    let mut tx = db.begin().await.expect("tx");
    coupons::claim(&mut tx, station_id, user_id, second.checkout_id, "UMA")
        .await
        .expect("usable again");
    tx.commit().await.expect("commit");

    // Unknown and out-of-window codes.
    sqlx::query(
        "INSERT INTO coupons (station_id, code, discount_value, starts_at, ends_at)
         VALUES ($1, 'VELHO', 300, now() - interval '2 days', now() - interval '1 day')",
    )
    .bind(station_id)
    .execute(&db)
    .await
    .expect("coupon");
    let mut tx = db.begin().await.expect("tx");
    let old = coupons::claim(&mut tx, station_id, user_id, second.checkout_id, "VELHO").await;
    assert_eq!(refusal(old), Refusal::CouponOutOfWindow);
    let unknown = coupons::claim(&mut tx, station_id, user_id, second.checkout_id, "NADA").await;
    assert_eq!(refusal(unknown), Refusal::CouponNotFound);
}

#[testkit::db_test]
async fn a_repeated_order_call_places_one_order_and_spends_once(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 3000, 10).await;
    let user_id = member(&db, station_id).await;
    give_balance(&db, station_id, user_id, 5000).await;
    confirm(&db, station_id, user_id, product_id, 1)
        .await
        .expect("hold");

    let calls = (0..8).map(|_| {
        let db = db.clone();
        tokio::spawn(async move { place(&db, station_id, user_id, None).await })
    });
    let placed: Vec<orders::Placed> = futures_util::future::join_all(calls)
        .await
        .into_iter()
        .map(|call| call.expect("task").expect("placed"))
        .collect();
    assert!(
        placed
            .iter()
            .all(|p| p.order_id == placed[0].order_id && p.paid)
    );
    assert_eq!(placed.iter().filter(|p| p.created).count(), 1);
    let counts: (i64, i64) =
        sqlx::query_as("SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM spends)")
            .fetch_one(&db)
            .await
            .expect("counts");
    assert_eq!(counts, (1, 1));
    assert_eq!(
        ledger::balance(&db, user_id)
            .await
            .expect("balance")
            .balance,
        2000
    );
    // Sold: out of the stock, not reserved any more.
    assert_eq!(stock_and_reserved(&db, product_id).await, (9, 0));

    // The next order costs more than the balance: the wallet pays 2000, PIX the rest.
    confirm(&db, station_id, user_id, product_id, 1)
        .await
        .expect("hold");
    let missing = place(&db, station_id, user_id, None).await;
    assert_eq!(refusal(missing), Refusal::PaymentMethodRequired);
    let placed = place(&db, station_id, user_id, Some(Method::Pix))
        .await
        .expect("order");
    assert!(!placed.paid);
    let (wallet, card, status): (i64, i64, String) =
        sqlx::query_as("SELECT wallet_value, credit_card_value, status FROM orders WHERE id = $1")
            .bind(placed.order_id)
            .fetch_one(&db)
            .await
            .expect("order");
    assert_eq!((wallet, card, status.as_str()), (2000, 1000, "pending"));
    assert_eq!(
        ledger::balance(&db, user_id)
            .await
            .expect("balance")
            .balance,
        0
    );
    assert!(ledger::check_all(&db).await.expect("check").is_empty());
}

#[testkit::db_test]
async fn concurrent_orders_of_many_members_never_take_a_wallet_below_zero(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 700, 1000).await;
    let mut members = Vec::new();
    for n in 0..20 {
        let user_id = member(&db, station_id).await;
        give_balance(&db, station_id, user_id, 500 + n * 50).await;
        members.push(user_id);
    }
    let runs = members.iter().map(|&user_id| {
        let db = db.clone();
        tokio::spawn(async move {
            for _ in 0..3 {
                confirm(&db, station_id, user_id, product_id, 1).await?;
                place(&db, station_id, user_id, Some(Method::CreditCard)).await?;
            }
            Ok::<_, CommerceError>(())
        })
    });
    for run in futures_util::future::join_all(runs).await {
        run.expect("task").expect("orders");
    }
    let negative: i64 = sqlx::query_scalar("SELECT count(*) FROM wallets WHERE balance < 0")
        .fetch_one(&db)
        .await
        .expect("wallets");
    assert_eq!(negative, 0);
    assert!(ledger::check_all(&db).await.expect("check").is_empty());
    // Each order's parts add up to its total.
    let wrong: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM orders o
          WHERE o.total_final_value <> (SELECT sum(amount) FROM payments p WHERE p.order_id = o.id)",
    )
    .fetch_one(&db)
    .await
    .expect("orders");
    assert_eq!(wrong, 0);
}

#[testkit::db_test]
async fn an_expired_hold_counts_as_released_before_its_job_and_is_released_once(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 1000, 1).await;
    let first = member(&db, station_id).await;
    let second = member(&db, station_id).await;
    let hold = confirm(&db, station_id, first, product_id, 1)
        .await
        .expect("hold");
    assert_eq!(
        catalogue::available(&db, product_id).await.expect("read"),
        0
    );
    let late = confirm(&db, station_id, second, product_id, 1).await;
    assert_eq!(refusal(late), Refusal::OutOfStock);

    // Expired: the unit is available at once, and the job has not run.
    expire_now(&db, hold.checkout_id).await;
    assert_eq!(
        catalogue::available(&db, product_id).await.expect("read"),
        1
    );
    // The first member's order call is refused with the spec's text.
    let refused = place(&db, station_id, first, None).await;
    assert_eq!(refusal(refused), Refusal::HoldExpired);
    // Another buyer takes the unit: its confirmation releases the expired hold first.
    let taken = confirm(&db, station_id, second, product_id, 1)
        .await
        .expect("hold");
    assert_eq!(stock_and_reserved(&db, product_id).await, (1, 1));

    // The job for the first hold finds it released: nothing changes, however often.
    for _ in 0..2 {
        let mut tx = db.begin().await.expect("tx");
        let released = checkout::release_expired(&mut tx, hold.checkout_id, Utc::now())
            .await
            .expect("release");
        tx.commit().await.expect("commit");
        assert!(!released.released);
    }
    assert_eq!(stock_and_reserved(&db, product_id).await, (1, 1));

    // A job that runs before the expiry of the live hold does nothing either; at its
    // expiry it releases once.
    let mut tx = db.begin().await.expect("tx");
    let early = checkout::release_expired(&mut tx, taken.checkout_id, Utc::now())
        .await
        .expect("release");
    assert!(!early.released);
    let at_expiry = taken.expires_at + Duration::seconds(1);
    let due = checkout::release_expired(&mut tx, taken.checkout_id, at_expiry)
        .await
        .expect("release");
    let again = checkout::release_expired(&mut tx, taken.checkout_id, at_expiry)
        .await
        .expect("release");
    tx.commit().await.expect("commit");
    assert!(due.released && !again.released);
    assert_eq!(stock_and_reserved(&db, product_id).await, (1, 0));
}

#[testkit::db_test]
async fn an_unpaid_order_expires_with_its_hold_and_gets_its_wallet_part_back(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 3000, 5).await;
    let user_id = member(&db, station_id).await;
    give_balance(&db, station_id, user_id, 1000).await;
    let hold = confirm(&db, station_id, user_id, product_id, 2)
        .await
        .expect("hold");
    let placed = place(&db, station_id, user_id, Some(Method::Pix))
        .await
        .expect("order");
    assert_eq!(
        ledger::balance(&db, user_id)
            .await
            .expect("balance")
            .balance,
        0
    );

    // A pending PIX extends the hold; the hold cannot be shortened.
    let until = hold.expires_at + Duration::minutes(15);
    let mut tx = db.begin().await.expect("tx");
    let extended = checkout::extend_hold(&mut tx, hold.checkout_id, until)
        .await
        .expect("extend");
    let shorter = checkout::extend_hold(&mut tx, hold.checkout_id, hold.expires_at)
        .await
        .expect("extend");
    tx.commit().await.expect("commit");
    assert_eq!(extended, shorter);
    let mut tx = db.begin().await.expect("tx");
    let early = checkout::release_expired(
        &mut tx,
        hold.checkout_id,
        hold.expires_at + Duration::seconds(1),
    )
    .await
    .expect("release");
    assert!(!early.released, "the extended hold is still live");
    let released =
        checkout::release_expired(&mut tx, hold.checkout_id, until + Duration::seconds(1))
            .await
            .expect("release");
    tx.commit().await.expect("commit");
    assert_eq!(released.expired_order, Some(placed.order_id));
    let statuses: Vec<(String, String)> =
        sqlx::query_as("SELECT method, status FROM payments WHERE order_id = $1 ORDER BY method")
            .bind(placed.order_id)
            .fetch_all(&db)
            .await
            .expect("payments");
    assert_eq!(
        statuses,
        [
            ("pix".into(), "expired".into()),
            ("wallet".into(), "refunded".into())
        ]
    );
    assert_eq!(
        ledger::balance(&db, user_id)
            .await
            .expect("balance")
            .balance,
        1000
    );
    assert_eq!(stock_and_reserved(&db, product_id).await, (5, 0));

    // A payment arriving now finds the part no longer pending: the late-payment path.
    let pix_id: i64 = sqlx::query_scalar("SELECT id FROM payments WHERE method = 'pix'")
        .fetch_one(&db)
        .await
        .expect("pix");
    let mut tx = db.begin().await.expect("tx");
    let late = orders::confirm_payment(&mut tx, pix_id)
        .await
        .expect("confirm");
    assert_eq!(
        late,
        Confirmation::NotPending {
            order_id: placed.order_id
        }
    );
}

#[testkit::db_test]
async fn a_payment_is_confirmed_once_whoever_confirms_it(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 2500, 5).await;
    let user_id = member(&db, station_id).await;
    confirm(&db, station_id, user_id, product_id, 2)
        .await
        .expect("hold");
    let placed = place(&db, station_id, user_id, Some(Method::Pix))
        .await
        .expect("order");
    let pix_id: i64 = sqlx::query_scalar("SELECT id FROM payments WHERE method = 'pix'")
        .fetch_one(&db)
        .await
        .expect("pix");
    let confirmations = (0..6).map(|_| {
        let db = db.clone();
        tokio::spawn(async move {
            let mut tx = db.begin().await?;
            let done = orders::confirm_payment(&mut tx, pix_id).await?;
            tx.commit().await?;
            Ok::<_, CommerceError>(done)
        })
    });
    let results: Vec<Confirmation> = futures_util::future::join_all(confirmations)
        .await
        .into_iter()
        .map(|r| r.expect("task").expect("confirm"))
        .collect();
    let order_id = placed.order_id;
    assert_eq!(
        results
            .iter()
            .filter(|r| **r
                == Confirmation::Confirmed {
                    order_id,
                    order_paid: true
                })
            .count(),
        1
    );
    assert_eq!(
        results
            .iter()
            .filter(|r| **r == Confirmation::AlreadyPaid { order_id })
            .count(),
        5
    );
    assert_eq!(stock_and_reserved(&db, product_id).await, (3, 0));
    let mut conn = db.acquire().await.expect("conn");
    let order = super::order_view::order(&mut conn, station_id, order_id)
        .await
        .expect("read")
        .expect("order");
    assert_eq!(order.status, "Pagamento confirmado");
    assert_eq!(order.total_final_value, Cents(5000));
    assert_eq!(order.cashback_value, Cents(200));
    assert_eq!(order.gateway_charge.expect("charge").payment_method, "pix");
}

#[testkit::db_test]
async fn a_delivery_order_needs_its_location_and_address(db: PgPool) {
    let station_id = station(&db).await;
    let action_id: i64 = sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, discount_delivery)
         VALUES ($1, 14, 'Camisetas', 500) RETURNING id",
    )
    .bind(station_id)
    .fetch_one(&db)
    .await
    .expect("action");
    let product_id: i64 = sqlx::query_scalar(
        "INSERT INTO products (station_id, action_id, name, value, discount_value, stock)
         VALUES ($1, $2, 'Camiseta', 4990, 1000, 10) RETURNING id",
    )
    .bind(station_id)
    .bind(action_id)
    .fetch_one(&db)
    .await
    .expect("product");
    let home: i64 = sqlx::query_scalar(
        "INSERT INTO delivery_locations (station_id, action_id, name, price, delivery)
         VALUES ($1, $2, 'Entrega em casa', 1500, true) RETURNING id",
    )
    .bind(station_id)
    .bind(action_id)
    .fetch_one(&db)
    .await
    .expect("location");
    let user_id = member(&db, station_id).await;
    confirm(&db, station_id, user_id, product_id, 2)
        .await
        .expect("hold");
    let mut order = PlaceOrder {
        method: Some(Method::CreditCard),
        ..PlaceOrder::default()
    };
    let mut tx = db.begin().await.expect("tx");
    let none = orders::place(&mut tx, StationId(station_id), UserId(user_id), &order).await;
    assert_eq!(
        refusal(none),
        Refusal::DeliveryRequired {
            action: "Camisetas".into()
        }
    );
    drop(tx);
    order.deliveries = vec![DeliveryChoice {
        action_id,
        delivery_location_id: Some(home),
        ..DeliveryChoice::default()
    }];
    let mut tx = db.begin().await.expect("tx");
    let no_address = orders::place(&mut tx, StationId(station_id), UserId(user_id), &order).await;
    assert_eq!(
        refusal(no_address),
        Refusal::AddressRequired {
            action: "Camisetas".into()
        }
    );
    drop(tx);
    order.deliveries[0].address = Some("Rua das Flores".into());
    order.deliveries[0].number = Some("10".into());
    order.deliveries[0].zipcode = Some("01.310-100".into());
    let mut tx = db.begin().await.expect("tx");
    let placed = orders::place(&mut tx, StationId(station_id), UserId(user_id), &order)
        .await
        .expect("placed");
    tx.commit().await.expect("commit");
    let mut conn = db.acquire().await.expect("conn");
    let read = super::order_view::order(&mut conn, station_id, placed.order_id)
        .await
        .expect("read")
        .expect("order");
    // 2 x (49,90 - 10,00) = 79,80, less the delivery discount 5,00, plus 15,00 shipping.
    assert_eq!(read.product_items_sum_value, Cents(7980));
    assert_eq!(read.additional_discount_value, Cents(500));
    assert_eq!(read.delivery_tax_value, Cents(1500));
    assert_eq!(read.total_final_value, Cents(8980));
    assert_eq!(read.credit_card_value, Cents(8980));
    assert_eq!(read.zipcode.as_deref(), Some("01310100"));
    assert_eq!(read.status, "Aguardando pagamento");
}

async fn coupon(db: &PgPool, station_id: i64, code: &str, discount: i64) {
    sqlx::query("INSERT INTO coupons (station_id, code, discount_value) VALUES ($1, $2, $3)")
        .bind(station_id)
        .bind(code)
        .bind(discount)
        .execute(db)
        .await
        .expect("coupon");
}

async fn balance(db: &PgPool, user_id: i64) -> i64 {
    ledger::balance(db, user_id).await.expect("balance").balance
}

/// Coupon uses whose hold no longer holds them: each is a use lost for good.
async fn leaked_coupon_uses(db: &PgPool) -> (i64, i64) {
    sqlx::query_as(
        "SELECT (SELECT count(*) FROM coupon_uses u JOIN checkouts c ON c.id = u.checkout_id
                  WHERE u.released_at IS NULL AND c.status IN ('released', 'expired')),
                (SELECT coalesce(sum(uses), 0)::bigint FROM coupons)
                  - (SELECT count(*) FROM coupon_uses WHERE released_at IS NULL)",
    )
    .fetch_one(db)
    .await
    .expect("uses")
}

#[testkit::db_test]
async fn a_coupon_applied_while_the_hold_is_released_is_never_lost(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 1000, 1000).await;
    coupon(&db, station_id, "CORRIDA", 100).await;
    for _ in 0..25 {
        let user_id = member(&db, station_id).await;
        confirm(&db, station_id, user_id, product_id, 1)
            .await
            .expect("hold");
        let apply = {
            let db = db.clone();
            tokio::spawn(async move {
                let mut tx = db.begin().await?;
                checkout::apply_coupon(&mut tx, station_id, user_id, "corrida").await?;
                tx.commit().await?;
                Ok::<_, CommerceError>(())
            })
        };
        // The member's second tab confirming again releases the hold without an order.
        let release = {
            let db = db.clone();
            tokio::spawn(async move { checkout::clear_before_confirm(&db, user_id, &[]).await })
        };
        match apply.await.expect("task") {
            Ok(()) | Err(CommerceError::Refused(Refusal::HoldExpired)) => {}
            Err(other) => panic!("unexpected {other:?}"),
        }
        release.await.expect("task").expect("release");
        assert_eq!(leaked_coupon_uses(&db).await, (0, 0));
    }
}

#[testkit::db_test]
async fn a_removed_coupon_goes_back_and_the_order_is_placed_without_it(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 1000, 10).await;
    let user_id = member(&db, station_id).await;
    coupon(&db, station_id, "TIRA", 300).await;
    confirm(&db, station_id, user_id, product_id, 1)
        .await
        .expect("hold");
    let mut tx = db.begin().await.expect("tx");
    let applied = checkout::apply_coupon(&mut tx, station_id, user_id, "tira")
        .await
        .expect("applied");
    assert_eq!(
        (
            applied.totals.before.total_final_value,
            applied.totals.after.total_final_value
        ),
        (Cents(1000), Cents(700))
    );
    let totals = checkout::remove_coupon(&mut tx, user_id)
        .await
        .expect("removed");
    tx.commit().await.expect("commit");
    assert_eq!(totals.total_final_value, Cents(1000));
    let uses: i32 = sqlx::query_scalar("SELECT uses FROM coupons")
        .fetch_one(&db)
        .await
        .expect("uses");
    assert_eq!(uses, 0);
    let placed = place(&db, station_id, user_id, Some(Method::Pix))
        .await
        .expect("order");
    let (total, coupon_id): (i64, Option<i64>) =
        sqlx::query_as("SELECT total_final_value, coupon_id FROM orders WHERE id = $1")
            .bind(placed.order_id)
            .fetch_one(&db)
            .await
            .expect("order");
    assert_eq!((total, coupon_id), (1000, None));
}

#[testkit::db_test]
async fn an_unpaid_order_gives_its_wallet_part_back_on_the_lots_own_expiries(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 3000, 5).await;
    let user_id = member(&db, station_id).await;
    // 1000 that never expire, 500 expiring in 30 days, 300 expiring in a minute.
    give_balance(&db, station_id, user_id, 1000).await;
    let mut tx = db.begin().await.expect("tx");
    for (name, amount) in [("mes", 500), ("minuto", 300)] {
        ledger::credit(
            &mut tx,
            &Credit {
                user_id: UserId(user_id),
                station_id: StationId(station_id),
                source_kind: SourceKind::Adjustment,
                source_id: name.into(),
                rule: rules::ADJUSTMENT.into(),
                amount,
                description: "Bônus".into(),
                action_id: None,
            },
            None,
        )
        .await
        .expect("credit");
    }
    tx.commit().await.expect("commit");
    sqlx::query(
        "UPDATE credit_lots SET expires_at = now() + CASE source_id
                WHEN 'mes' THEN interval '30 days' ELSE interval '1 minute' END
          WHERE source_id IN ('mes', 'minuto')",
    )
    .execute(&db)
    .await
    .expect("expiries");
    let hold = confirm(&db, station_id, user_id, product_id, 1)
        .await
        .expect("hold");
    let placed = place(&db, station_id, user_id, Some(Method::Pix))
        .await
        .expect("order");
    assert_eq!(balance(&db, user_id).await, 0);

    // The order ends unpaid after the 300 would have expired.
    sqlx::query(
        "UPDATE credit_lots SET expires_at = now() - interval '1 second' WHERE source_id = 'minuto'",
    )
    .execute(&db)
    .await
    .expect("expired");
    expire_now(&db, hold.checkout_id).await;
    let mut tx = db.begin().await.expect("tx");
    let released = checkout::release_expired(&mut tx, hold.checkout_id, Utc::now())
        .await
        .expect("release");
    tx.commit().await.expect("commit");
    assert_eq!(released.expired_order, Some(placed.order_id));
    assert_eq!(balance(&db, user_id).await, 1500);
    let refunds: Vec<(i64, bool)> = sqlx::query_as(
        "SELECT amount, expires_at IS NULL FROM credit_lots
          WHERE source_kind = 'refund' ORDER BY amount",
    )
    .fetch_all(&db)
    .await
    .expect("refunds");
    assert_eq!(refunds, [(500, false), (1000, true)]);
    let refund_expiry_matches: bool = sqlx::query_scalar(
        "SELECT (SELECT expires_at FROM credit_lots WHERE source_kind = 'refund' AND amount = 500)
              = (SELECT expires_at FROM credit_lots WHERE source_id = 'mes')",
    )
    .fetch_one(&db)
    .await
    .expect("expiry");
    assert!(refund_expiry_matches);
    assert!(ledger::check_all(&db).await.expect("check").is_empty());
}

#[testkit::db_test]
async fn order_lines_keep_their_share_of_discounts_and_cashback(db: PgPool) {
    let station_id = station(&db).await;
    let action_id: i64 = sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, points, additional_cashback,
                              digital_product, discount_delivery)
         VALUES ($1, 3, 'Kit', 1, 0, true, 500) RETURNING id",
    )
    .bind(station_id)
    .fetch_one(&db)
    .await
    .expect("action");
    let mut products = Vec::new();
    for value in [300, 400] {
        products.push(
            sqlx::query_scalar::<_, i64>(
                "INSERT INTO products (station_id, action_id, name, value, stock)
                 VALUES ($1, $2, 'Peça', $3, 10) RETURNING id",
            )
            .bind(station_id)
            .bind(action_id)
            .bind(value)
            .fetch_one(&db)
            .await
            .expect("product"),
        );
    }
    coupon(&db, station_id, "UM", 101).await;
    let user_id = member(&db, station_id).await;
    let wanted: Vec<Wanted> = products
        .iter()
        .map(|&product_id| Wanted {
            product_id,
            quantity: 1,
        })
        .collect();
    let (tx, _) = checkout::confirm_cart(&db, station_id, user_id, wanted)
        .await
        .expect("hold");
    tx.commit().await.expect("commit");
    let mut tx = db.begin().await.expect("tx");
    let placed = orders::place(
        &mut tx,
        StationId(station_id),
        UserId(user_id),
        &PlaceOrder {
            coupon_code: Some("um".into()),
            method: Some(Method::Pix),
            ..PlaceOrder::default()
        },
    )
    .await
    .expect("order");
    tx.commit().await.expect("commit");
    // Items 700, less the delivery discount 500 (both lines, not only the first), less the
    // coupon 101: 99.
    let (total, discount): (i64, i64) = sqlx::query_as(
        "SELECT o.total_final_value, d.discount FROM orders o
           JOIN order_deliveries d ON d.order_id = o.id WHERE o.id = $1",
    )
    .bind(placed.order_id)
    .fetch_one(&db)
    .await
    .expect("order");
    assert_eq!((total, discount), (99, 500));
    let lines: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT net_amount, cashback_share FROM order_lines WHERE order_id = $1 ORDER BY product_id",
    )
    .bind(placed.order_id)
    .fetch_all(&db)
    .await
    .expect("lines");
    // Delivery discount 500 by price: 214 and 286; coupon 101 over 86 and 114: 43 and 58.
    assert_eq!(lines, [(43, 42), (56, 58)]);
    assert_eq!(lines.iter().map(|l| l.0).sum::<i64>(), total);
    assert_eq!(lines.iter().map(|l| l.1).sum::<i64>(), 100);
}

#[testkit::db_test]
async fn the_order_call_places_the_hold_the_member_reviewed(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 1000, 10).await;
    let user_id = member(&db, station_id).await;
    let other = member(&db, station_id).await;
    let first = confirm(&db, station_id, user_id, product_id, 1)
        .await
        .expect("hold");
    // A second tab confirms again: the first hold is released.
    let second = confirm(&db, station_id, user_id, product_id, 2)
        .await
        .expect("hold");
    let theirs = confirm(&db, station_id, other, product_id, 1)
        .await
        .expect("hold");
    let order = |checkout_id| PlaceOrder {
        checkout_id: Some(checkout_id),
        method: Some(Method::Pix),
        ..PlaceOrder::default()
    };
    for stale in [first.checkout_id, theirs.checkout_id] {
        let mut tx = db.begin().await.expect("tx");
        let refused = orders::place(
            &mut tx,
            StationId(station_id),
            UserId(user_id),
            &order(stale),
        )
        .await;
        assert_eq!(refusal(refused), Refusal::HoldExpired);
    }
    let mut tx = db.begin().await.expect("tx");
    let placed = orders::place(
        &mut tx,
        StationId(station_id),
        UserId(user_id),
        &order(second.checkout_id),
    )
    .await
    .expect("order");
    tx.commit().await.expect("commit");
    assert_eq!(placed.checkout_id, second.checkout_id);
    let total: i64 = sqlx::query_scalar("SELECT total_final_value FROM orders WHERE id = $1")
        .bind(placed.order_id)
        .fetch_one(&db)
        .await
        .expect("order");
    assert_eq!(total, 2000);
}

#[testkit::db_test]
async fn the_wallet_part_leaves_out_lots_past_their_expiry(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 6000, 10).await;
    let user_id = member(&db, station_id).await;
    give_balance(&db, station_id, user_id, 5000).await;
    let mut tx = db.begin().await.expect("tx");
    ledger::credit(
        &mut tx,
        &Credit {
            user_id: UserId(user_id),
            station_id: StationId(station_id),
            source_kind: SourceKind::Adjustment,
            source_id: "vencido".into(),
            rule: rules::ADJUSTMENT.into(),
            amount: 2000,
            description: "Bônus".into(),
            action_id: None,
        },
        None,
    )
    .await
    .expect("credit");
    tx.commit().await.expect("commit");
    // Past its expiry, not yet ended by the scheduled expiry: the wallet row still counts it.
    sqlx::query(
        "UPDATE credit_lots SET expires_at = now() - interval '1 minute' WHERE source_id = 'vencido'",
    )
    .execute(&db)
    .await
    .expect("expired");
    confirm(&db, station_id, user_id, product_id, 1)
        .await
        .expect("hold");
    let placed = place(&db, station_id, user_id, Some(Method::Pix))
        .await
        .expect("order, not 'Seu saldo mudou'");
    let (wallet, card): (i64, i64) =
        sqlx::query_as("SELECT wallet_value, credit_card_value FROM orders WHERE id = $1")
            .bind(placed.order_id)
            .fetch_one(&db)
            .await
            .expect("order");
    assert_eq!((wallet, card), (5000, 1000));
    assert!(ledger::check_all(&db).await.expect("check").is_empty());
}

#[testkit::db_test]
async fn only_open_shop_activities_sell_and_only_with_the_checkout_on(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 1000, 10).await;
    let user_id = member(&db, station_id).await;
    let add = |db: PgPool| async move {
        let mut tx = db.begin().await?;
        super::cart::add(
            &mut tx,
            station_id,
            user_id,
            &[Wanted {
                product_id,
                quantity: 1,
            }],
        )
        .await
    };
    let set = |sql: &'static str| {
        let db = db.clone();
        async move {
            sqlx::query(sql).execute(&db).await.expect("update");
        }
    };
    // Not a shop type (1).
    set("UPDATE actions SET type_id = 1").await;
    assert_eq!(
        refusal(add(db.clone()).await).message(),
        "Erro! Esta atividade não está disponível."
    );
    // A shop type whose window ended.
    set(
        "UPDATE actions SET type_id = 17, participation_start = now() - interval '2 days',
                participation_end = now() - interval '1 day'",
    )
    .await;
    assert!(matches!(
        refusal(add(db.clone()).await),
        Refusal::NotForSale(crate::activities::participation::Refused::OutsideWindow { .. })
    ));
    let confirmed = confirm(&db, station_id, user_id, product_id, 1).await;
    assert!(matches!(refusal(confirmed), Refusal::NotForSale(_)));
    // Inside its window: on sale.
    set("UPDATE actions SET participation_end = now() + interval '1 day'").await;
    add(db.clone()).await.expect("added");
    // The station's checkout off: refused as not authorised.
    set("UPDATE stations SET checkout_access = false").await;
    assert_eq!(refusal(add(db.clone()).await), Refusal::CheckoutClosed);
    let confirmed = confirm(&db, station_id, user_id, product_id, 1).await;
    assert_eq!(refusal(confirmed), Refusal::CheckoutClosed);
}

#[testkit::db_test]
async fn another_members_broken_hold_does_not_block_a_buyer(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 1000, 2).await;
    let first = member(&db, station_id).await;
    let second = member(&db, station_id).await;
    let hold = confirm(&db, station_id, first, product_id, 1)
        .await
        .expect("hold");
    expire_now(&db, hold.checkout_id).await;
    // Releasing the first hold now fails: giving its unit back breaks a CHECK.
    sqlx::query("UPDATE products SET reserved = 0 WHERE id = $1")
        .bind(product_id)
        .execute(&db)
        .await
        .expect("break");
    confirm(&db, station_id, second, product_id, 1)
        .await
        .expect("the second member's hold");
    let status: String = sqlx::query_scalar("SELECT status FROM checkouts WHERE id = $1")
        .bind(hold.checkout_id)
        .fetch_one(&db)
        .await
        .expect("status");
    assert_eq!(status, "held", "the broken hold is left for its job");
}

#[testkit::db_test]
async fn an_order_racing_a_transfer_on_the_same_wallet_never_overdraws(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 700, 1000).await;
    for _ in 0..15 {
        let user_id = member(&db, station_id).await;
        give_balance(&db, station_id, user_id, 1000).await;
        confirm(&db, station_id, user_id, product_id, 1)
            .await
            .expect("hold");
        let order = {
            let db = db.clone();
            tokio::spawn(
                async move { place(&db, station_id, user_id, Some(Method::CreditCard)).await },
            )
        };
        let transfer = {
            let db = db.clone();
            tokio::spawn(async move {
                let mut tx = db.begin().await?;
                let spent = ledger::spend(
                    &mut tx,
                    &ledger::Spend {
                        user_id: UserId(user_id),
                        station_id: StationId(station_id),
                        kind: ledger::SpendKind::Transfer,
                        source_id: format!("transfer-{user_id}"),
                        amount: 500,
                        description: "Transferência".into(),
                        action_id: None,
                    },
                )
                .await;
                tx.commit().await?;
                Ok::<_, sqlx::Error>(spent.is_ok())
            })
        };
        let placed = order.await.expect("task").expect("order");
        let transferred = transfer.await.expect("task").expect("transfer");
        let wallet: i64 = sqlx::query_scalar("SELECT wallet_value FROM orders WHERE id = $1")
            .bind(placed.order_id)
            .fetch_one(&db)
            .await
            .expect("order");
        // Transfer first: the order's wallet pays the 500 left. Order first: the wallet
        // pays 700, and a transfer of 500 finds 300.
        match transferred {
            true => assert_eq!((wallet, balance(&db, user_id).await), (500, 0)),
            false => assert_eq!((wallet, balance(&db, user_id).await), (700, 300)),
        }
    }
    assert!(ledger::check_all(&db).await.expect("check").is_empty());
}

#[testkit::db_test]
async fn an_order_racing_its_release_either_expires_whole_or_is_refused(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 3000, 1000).await;
    coupon(&db, station_id, "RACE", 100).await;
    sqlx::query("UPDATE coupons SET per_member_limit = 1000")
        .execute(&db)
        .await
        .expect("limit");
    for _ in 0..15 {
        let user_id = member(&db, station_id).await;
        give_balance(&db, station_id, user_id, 1000).await;
        let hold = confirm(&db, station_id, user_id, product_id, 1)
            .await
            .expect("hold");
        let order = {
            let db = db.clone();
            tokio::spawn(async move {
                let mut tx = db.begin().await?;
                let placed = orders::place(
                    &mut tx,
                    StationId(station_id),
                    UserId(user_id),
                    &PlaceOrder {
                        coupon_code: Some("RACE".into()),
                        method: Some(Method::Pix),
                        ..PlaceOrder::default()
                    },
                )
                .await?;
                tx.commit().await?;
                Ok::<_, CommerceError>(placed)
            })
        };
        // The release job at (a late) expiry.
        let release = {
            let db = db.clone();
            let at = hold.expires_at + Duration::seconds(1);
            tokio::spawn(async move {
                let mut tx = db.begin().await?;
                let done = checkout::release_expired(&mut tx, hold.checkout_id, at).await?;
                tx.commit().await?;
                Ok::<_, CommerceError>(done)
            })
        };
        match order.await.expect("task") {
            Ok(_) | Err(CommerceError::Refused(Refusal::HoldExpired)) => {}
            Err(other) => panic!("unexpected {other:?}"),
        }
        assert!(release.await.expect("task").expect("release").released);
        // Whichever came first, everything came back.
        assert_eq!(balance(&db, user_id).await, 1000);
        assert_eq!(leaked_coupon_uses(&db).await, (0, 0));
        assert_eq!(stock_and_reserved(&db, product_id).await, (1000, 0));
    }
    assert!(ledger::check_all(&db).await.expect("check").is_empty());
}

#[testkit::db_test]
async fn huge_quantities_and_prices_are_refused_not_overflowed(db: PgPool) {
    let station_id = station(&db).await;
    let product_id = product(&db, station_id, 1000, 10).await;
    let user_id = member(&db, station_id).await;
    let huge = Wanted {
        product_id,
        quantity: i64::MAX - 1,
    };
    let mut tx = db.begin().await.expect("tx");
    let added = super::cart::add(&mut tx, station_id, user_id, &[huge, huge]).await;
    assert_eq!(refusal(added), Refusal::BadQuantity);
    drop(tx);
    let line = super::totals::Line {
        action_id: 1,
        value: Cents(i64::MAX),
        discount_value: Cents::ZERO,
        quantity: 3,
    };
    assert_eq!(line.price(), Cents(i64::MAX));
    let too_dear = sqlx::query("UPDATE products SET value = 1000000001 WHERE id = $1")
        .bind(product_id)
        .execute(&db)
        .await;
    assert!(too_dear.is_err(), "a CHECK bounds a product's value");
    let too_many = sqlx::query(
        "INSERT INTO cart_lines (station_id, user_id, product_id, quantity) VALUES ($1, $2, $3, 10001)",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(product_id)
    .execute(&db)
    .await;
    assert!(too_many.is_err(), "a CHECK bounds a line's quantity");
}
