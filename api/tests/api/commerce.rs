//! The shop over HTTP against the real database: the cart and its limits, the hold and
//! its expiry, coupons, placing orders with the wallet and a pending PIX part, and that a
//! member only ever sees their own station's products and their own cart and orders.

use crate::common;
use crate::common::{app, call, send_json};
use axum::Router;
use axum::http::StatusCode;
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::build;

const FORBIDDEN: &str = "Você não possui autorização para acessar esta página.";
const OUT_OF_STOCK: &str = "O estoque desse(s) produto(s) está esgotado no momento.";
const HOLD_EXPIRED: &str =
    "O tempo limite de reserva de produto para compra se esgotou. Por favor, comece novamente.";

/// A shop activity of the station with one product; answers (action id, product id).
async fn shop(
    db: &PgPool,
    station_id: i64,
    digital: bool,
    value: i64,
    discount: i64,
    stock: i32,
    limit: i32,
) -> (i64, i64) {
    let action_id: i64 = sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, points, additional_cashback, digital_product)
         VALUES ($1, 14, 'Loja do clube', 3, 2, $2) RETURNING id",
    )
    .bind(station_id)
    .bind(digital)
    .fetch_one(db)
    .await
    .expect("action");
    let product_id = build::product(station_id, action_id)
        .name("Caneca")
        .value(value)
        .discount(discount)
        .stock(stock)
        .limit_per_user(limit)
        .insert(db)
        .await;
    (action_id, product_id)
}

async fn other_member_session(db: &PgPool, station_id: i64, email: &str) -> (i64, String) {
    let user_id = common::insert_member(db, station_id, email).await;
    let token = domain::accounts::session::create(db, user_id)
        .await
        .expect("session");
    (user_id, token)
}

async fn get(app: &Router, uri: &str, token: &str) -> common::Answer {
    call(app, "GET", uri, Some(token), &[]).await
}

async fn send(app: &Router, method: &str, uri: &str, token: &str, body: Value) -> common::Answer {
    send_json(app, method, uri, Some(token), &[], &body).await
}

fn messages(answer: &common::Answer) -> Value {
    answer.json()["messages"].clone()
}

#[testkit::db_test]
async fn the_cart_keeps_each_line_within_the_limit_and_the_stock(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    let (_, mug) = shop(&db, demo.station_id, false, 2500, 500, 5, 3).await;
    let (_, scarce) = shop(&db, demo.station_id, false, 1000, 0, 2, 10).await;

    let empty = get(&app, "/api/user-shopping-cart", &token).await;
    assert_eq!((empty.status, empty.json()), (StatusCode::OK, json!([])));

    let added = send(
        &app,
        "POST",
        "/api/add-products-to-shoppping-cart",
        &token,
        json!({ "products": [{ "id": mug, "quantity": 2 }] }),
    )
    .await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.text);
    let cart = added.json();
    assert_eq!(cart[0]["product_id"], mug);
    assert_eq!(cart[0]["quantity"], 2);
    assert_eq!(cart[0]["product"]["value"], 2500);
    assert_eq!(cart[0]["product"]["discount_value"], 500);
    assert_eq!(cart[0]["product"]["limit"], 3);
    assert_eq!(cart[0]["product"]["action"]["digital_product"], false);

    // Two more would make 4, over the limit of 3.
    let over = send(
        &app,
        "POST",
        "/api/add-products-to-shoppping-cart",
        &token,
        json!({ "products": [{ "id": mug, "quantity": 2 }] }),
    )
    .await;
    assert_eq!(over.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        messages(&over),
        json!(["Você atingiu o limite de 3 unidade(s) de \"Caneca\" por participante."])
    );
    // Three of a product with two in stock.
    let short = send(
        &app,
        "POST",
        "/api/add-products-to-shoppping-cart",
        &token,
        json!({ "products": [{ "id": scarce, "quantity": 3 }] }),
    )
    .await;
    assert_eq!(short.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(messages(&short), json!([OUT_OF_STOCK]));
    let bad = send(
        &app,
        "POST",
        "/api/add-products-to-shoppping-cart",
        &token,
        json!({ "products": [{ "id": mug, "quantity": "muitas" }] }),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        messages(&bad),
        json!(["A quantidade deve ser um número inteiro maior que zero."])
    );

    // Update sets quantities (the cart's own lines sent back), 0 removes.
    let updated = send(
        &app,
        "PUT",
        "/api/update-shopping-cart",
        &token,
        json!({ "shoppingItems": [{ "product_id": mug, "quantity": 3 }] }),
    )
    .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.text);
    assert_eq!(updated.json()[0]["quantity"], 3);
    let stock = get(&app, &format!("/api/get-product-stock/{mug}"), &token).await;
    assert_eq!(
        stock.json(),
        json!({ "product_id": mug, "stock": 5, "limit": 3 })
    );
    let removed = call(
        &app,
        "DELETE",
        &format!("/api/remove-product-from-shopping-cart/{mug}"),
        Some(&token),
        &[],
    )
    .await;
    assert_eq!(
        (removed.status, removed.json()),
        (StatusCode::OK, json!([]))
    );
    let none = send(
        &app,
        "PUT",
        "/api/update-shopping-cart",
        &token,
        json!({ "shoppingItems": [{ "product_id": scarce, "quantity": 0 }] }),
    )
    .await;
    assert_eq!((none.status, none.json()), (StatusCode::OK, json!([])));

    // No token: the member guard's 401.
    let anonymous = call(&app, "GET", "/api/user-shopping-cart", None, &[]).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn another_stations_products_are_not_there(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    let elsewhere = common::insert_station(&db, "outro").await;
    let (action, product) = shop(&db, elsewhere, true, 1000, 0, 10, 10).await;

    let add = send(
        &app,
        "POST",
        "/api/add-products-to-shoppping-cart",
        &token,
        json!({ "products": [{ "id": product, "quantity": 1 }] }),
    )
    .await;
    assert_eq!(add.status, StatusCode::NOT_FOUND);
    assert_eq!(add.json(), json!({ "error": "Produto não encontrado" }));
    let stock = get(&app, &format!("/api/get-product-stock/{product}"), &token).await;
    assert_eq!(stock.status, StatusCode::NOT_FOUND);
    let hold = send(
        &app,
        "POST",
        "/api/single-product-orders",
        &token,
        json!({ "user_id": demo.member_id, format!("product-{product}"): 1 }),
    )
    .await;
    assert_eq!(hold.status, StatusCode::NOT_FOUND);
    let listed = get(&app, &format!("/api/action-products/{action}"), &token).await;
    assert_eq!((listed.status, listed.json()), (StatusCode::OK, json!([])));
    let reserved: i32 = sqlx::query_scalar("SELECT reserved FROM products WHERE id = $1")
        .bind(product)
        .fetch_one(&db)
        .await
        .expect("product");
    assert_eq!(reserved, 0);
}

#[testkit::db_test]
async fn a_checkout_holds_the_stock_takes_a_coupon_and_pays_with_wallet_and_pix(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    // The demo member has 30 points: R$ 30,00.
    let (action, mug) = shop(&db, demo.station_id, true, 2500, 0, 5, 10).await;
    sqlx::query("INSERT INTO coupons (station_id, code, discount_value, max_uses) VALUES ($1, 'DESCONTO', 1000, 5)")
        .bind(demo.station_id)
        .execute(&db)
        .await
        .expect("coupon");
    send(
        &app,
        "POST",
        "/api/add-products-to-shoppping-cart",
        &token,
        json!({ "products": [{ "id": mug, "quantity": 2 }] }),
    )
    .await;

    // Someone else's id in the body is refused.
    let theirs = send(
        &app,
        "POST",
        "/api/single-product-orders",
        &token,
        json!({ "user_id": demo.member_id + 1000, format!("product-{mug}"): 2 }),
    )
    .await;
    assert_eq!(
        (theirs.status, messages(&theirs)),
        (StatusCode::FORBIDDEN, json!([FORBIDDEN]))
    );

    let hold = send(
        &app,
        "POST",
        "/api/single-product-orders",
        &token,
        json!({ "user_id": demo.member_id, format!("product-{mug}"): 2 }),
    )
    .await;
    assert_eq!(hold.status, StatusCode::OK, "{}", hold.text);
    let reserve_time = hold.json()["reserveTime"].as_i64().expect("seconds");
    assert!((895..=900).contains(&reserve_time), "{reserve_time}");
    assert_eq!(hold.json()["totals"]["total_final_value"], 5000);
    assert_eq!(hold.json()["totals"]["wallet_value"], 3000);
    assert_eq!(hold.json()["totals"]["cashback_value"], 500);
    let stock = get(&app, &format!("/api/get-product-stock/{mug}"), &token).await;
    assert_eq!(stock.json()["stock"], 3);
    let job: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM apalis.jobs WHERE job_type = 'reservation.release' AND run_at > now()",
    )
    .fetch_one(&db)
    .await
    .expect("jobs");
    assert_eq!(job, 1);

    let unknown = send(
        &app,
        "POST",
        "/api/cart/apply-coupon",
        &token,
        json!({ "coupon_code": "NADA", "cart": [], "user_id": demo.member_id }),
    )
    .await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(messages(&unknown), json!(["Cupom não encontrado."]));
    let coupon = send(
        &app,
        "POST",
        "/api/cart/apply-coupon",
        &token,
        json!({ "coupon_code": " desconto ", "cart": [], "user_id": demo.member_id }),
    )
    .await;
    assert_eq!(coupon.status, StatusCode::OK, "{}", coupon.text);
    assert_eq!(
        coupon.json()["coupon"],
        json!({ "code": "DESCONTO", "discountValue": 1000 })
    );
    assert_eq!(coupon.json()["totals"]["before"]["total_final_value"], 5000);
    assert_eq!(coupon.json()["totals"]["after"]["total_final_value"], 4000);

    let no_method = send(&app, "POST", "/api/cupom-product-order-cart", &token,
        json!({ "user_id": demo.member_id, "cart": [{ "action_id": action }], "isOnlyPayment": false })).await;
    assert_eq!(no_method.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        messages(&no_method),
        json!(["Escolha a forma de pagamento: cartão ou PIX."])
    );

    let body = json!({
        "user_id": demo.member_id,
        "cart": [{ "action_id": action, format!("product-{mug}"): 2 }],
        "isOnlyPayment": false,
        "payment": { "type": "pix" },
        "coupon_code": "DESCONTO",
    });
    let placed = send(
        &app,
        "POST",
        "/api/cupom-product-order-cart",
        &token,
        body.clone(),
    )
    .await;
    assert_eq!(placed.status, StatusCode::OK, "{}", placed.text);
    let order = placed.json();
    assert_eq!(order["status"], "Aguardando pagamento");
    assert_eq!(order["product_items_sum_value"], 5000);
    assert_eq!(order["additional_discount_value"], 1000);
    assert_eq!(order["total_final_value"], 4000);
    assert_eq!(order["wallet_value"], 3000);
    assert_eq!(order["credit_card_value"], 1000);
    assert_eq!(order["gateway_charge"]["payment_method"], "pix");
    assert_eq!(order["single_product_orders"][0]["quantity"], 2);
    assert_eq!(order["action"]["id"], action);

    // The same call again: the same order, nothing spent twice.
    let again = send(&app, "POST", "/api/cupom-product-order-cart", &token, body).await;
    assert_eq!(again.json()["id"], order["id"]);
    let counts: (i64, i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM spends WHERE source_id LIKE 'order:%'),
                (SELECT uses FROM coupons WHERE code = 'DESCONTO')::bigint",
    )
    .fetch_one(&db)
    .await
    .expect("counts");
    assert_eq!(counts, (1, 1, 1));
    let points = get(
        &app,
        &format!("/api/users-points/{}", demo.member_id),
        &token,
    )
    .await;
    assert_eq!(points.json()["points"], 0);
    // The ordered line left the cart.
    assert_eq!(
        get(&app, "/api/user-shopping-cart", &token).await.json(),
        json!([])
    );

    let order_id = order["id"].as_i64().expect("id");
    let mine = get(
        &app,
        &format!("/api/product-orders-user/{}", demo.member_id),
        &token,
    )
    .await;
    assert_eq!(mine.json().as_array().map(Vec::len), Some(1));
    let one = get(
        &app,
        &format!("/api/product-orders/?where[id]={order_id}"),
        &token,
    )
    .await;
    assert_eq!(one.json()[0]["code"], order["code"]);

    // Another member of the station sees none of it.
    let (other_id, other) = other_member_session(&db, demo.station_id, "outra@example.com").await;
    // Another member's order answers like one that does not exist: its id stays secret.
    let theirs = get(
        &app,
        &format!("/api/product-orders/?where[id]={order_id}"),
        &other,
    )
    .await;
    assert_eq!(
        (theirs.status, theirs.json()),
        (
            StatusCode::NOT_FOUND,
            json!({ "error": "Pedido não encontrado" })
        )
    );
    let list = get(
        &app,
        &format!("/api/product-orders-user/{}", demo.member_id),
        &other,
    )
    .await;
    assert_eq!(list.status, StatusCode::FORBIDDEN);
    let own_list = get(
        &app,
        &format!("/api/product-orders-user/{other_id}"),
        &other,
    )
    .await;
    assert_eq!(own_list.json(), json!([]));
    assert_eq!(
        get(&app, "/api/user-shopping-cart", &other).await.json(),
        json!([])
    );
    let missing = get(&app, "/api/product-orders/?where[id]=999999", &other).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    let bad = get(&app, "/api/product-orders/?where[id]=abc", &other).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[testkit::db_test]
async fn the_wallet_pays_a_whole_order_at_once_and_an_expired_hold_is_refused(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    let (action, pin) = shop(&db, demo.station_id, true, 1200, 200, 10, 10).await;

    let hold = send(
        &app,
        "POST",
        "/api/add-products-to-shoppping-cart",
        &token,
        json!({ "products": [{ "id": pin, "quantity": 2 }] }),
    )
    .await;
    assert_eq!(hold.status, StatusCode::OK);
    // No entries: the cart's lines are held.
    let hold = send(
        &app,
        "POST",
        "/api/single-product-orders",
        &token,
        json!({ "user_id": demo.member_id }),
    )
    .await;
    assert_eq!(hold.status, StatusCode::OK, "{}", hold.text);
    assert_eq!(hold.json()["totals"]["total_final_value"], 2000);
    let placed = send(
        &app,
        "POST",
        "/api/cupom-product-order-cart",
        &token,
        json!({ "user_id": demo.member_id, "cart": [{ "action_id": action }] }),
    )
    .await;
    assert_eq!(placed.status, StatusCode::OK, "{}", placed.text);
    assert_eq!(placed.json()["status"], "Pagamento confirmado");
    assert_eq!(placed.json()["wallet_value"], 2000);
    assert_eq!(placed.json()["credit_card_value"], 0);
    assert_eq!(placed.json()["gateway_charge"], Value::Null);
    let stock = get(&app, &format!("/api/get-product-stock/{pin}"), &token).await;
    assert_eq!(
        stock.json(),
        json!({ "product_id": pin, "stock": 8, "limit": 8 })
    );

    // A new hold that expires before the order call.
    let hold = send(
        &app,
        "POST",
        "/api/single-product-orders",
        &token,
        json!({ format!("product-{pin}"): 1 }),
    )
    .await;
    assert_eq!(hold.status, StatusCode::OK);
    sqlx::query(
        "UPDATE checkouts SET expires_at = now() - interval '1 second' WHERE status = 'held'",
    )
    .execute(&db)
    .await
    .expect("expire");
    // Expired, not yet released by its job: its unit is already for sale.
    let stock = get(&app, &format!("/api/get-product-stock/{pin}"), &token).await;
    assert_eq!(stock.json()["stock"], 8);
    let late = send(&app, "POST", "/api/cupom-product-order-cart", &token,
        json!({ "user_id": demo.member_id, "cart": [{ "action_id": action }], "payment": { "type": "credit_card" } })).await;
    assert_eq!(late.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(messages(&late), json!([HOLD_EXPIRED]));
    let coupon = send(
        &app,
        "POST",
        "/api/cart/apply-coupon",
        &token,
        json!({ "coupon_code": "QUALQUER", "user_id": demo.member_id }),
    )
    .await;
    assert_eq!(messages(&coupon), json!([HOLD_EXPIRED]));
}

#[testkit::db_test]
async fn a_delivery_order_asks_for_its_location_and_address(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    let (action, shirt) = shop(&db, demo.station_id, false, 4990, 1000, 10, 10).await;
    sqlx::query(
        "UPDATE actions SET discount_delivery = 500, payment_option = 'payment_only',
                allow_installments = true
          WHERE id = $1",
    )
    .bind(action)
    .execute(&db)
    .await
    .expect("action");
    let home: i64 = sqlx::query_scalar(
        "INSERT INTO delivery_locations (station_id, action_id, name, price, delivery)
         VALUES ($1, $2, 'Entrega em casa', 1500, true) RETURNING id",
    )
    .bind(demo.station_id)
    .bind(action)
    .fetch_one(&db)
    .await
    .expect("location");
    let hold = send(
        &app,
        "POST",
        "/api/single-product-orders",
        &token,
        json!({ format!("product-{shirt}"): 2 }),
    )
    .await;
    assert_eq!(hold.status, StatusCode::OK, "{}", hold.text);
    // A sandbox card (approved), tokenised by the sandbox from its number.
    let pay = common::with_billing_address(
        json!({ "type": "credit_card", "installments": 2, "number": "4000000000000010",
                "name": "MARIA S", "expiry": "12/30", "cvv": "123" }),
    );
    let no_place = send(
        &app,
        "POST",
        "/api/cupom-product-order-cart",
        &token,
        json!({ "cart": [{ "action_id": action }], "payment": pay }),
    )
    .await;
    assert_eq!(
        messages(&no_place),
        json!(["Escolha o local de entrega ou retirada de \"Loja do clube\"."])
    );
    let no_address = send(
        &app,
        "POST",
        "/api/cupom-product-order-cart",
        &token,
        json!({ "cart": [{ "action_id": action, "deliveryLocation": home }], "payment": pay }),
    )
    .await;
    assert_eq!(
        messages(&no_address),
        json!(["Informe o endereço e o CEP de entrega de \"Loja do clube\"."])
    );
    let placed = send(
        &app,
        "POST",
        "/api/cupom-product-order-cart",
        &token,
        json!({ "cart": [{ "action_id": action, "deliveryLocation": { "id": home },
                          "zipcode": "01310-100", "address": "Av. Paulista", "number": 1000 }],
                "payment": pay }),
    )
    .await;
    assert_eq!(placed.status, StatusCode::OK, "{}", placed.text);
    let order = placed.json();
    // 2 x (49,90 - 10,00) - 5,00 + 15,00, all by card: payment_only leaves the wallet alone.
    assert_eq!(order["total_final_value"], 8980);
    assert_eq!(order["wallet_value"], 0);
    assert_eq!(order["credit_card_value"], 8980);
    assert_eq!(order["delivery_tax_value"], 1500);
    assert_eq!(
        order["delivery_location"],
        json!({ "name": "Entrega em casa", "price": 1500 })
    );
    assert_eq!(order["zipcode"], "01310100");
    assert_eq!(order["address"], "Av. Paulista");
    assert_eq!(order["payments"][0]["installments"], 2);
}

#[testkit::db_test]
async fn dependents_and_addresses_are_the_members_own(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    sqlx::query("INSERT INTO dependents (station_id, user_id, dependente, parentesco) VALUES ($1, $2, 'Ana', 'Filha')")
        .bind(demo.station_id)
        .bind(demo.member_id)
        .execute(&db)
        .await
        .expect("dependent");
    let own = get(&app, &format!("/api/dependents/{}", demo.member_id), &token).await;
    assert_eq!(own.status, StatusCode::OK);
    assert_eq!(own.json()[0]["dependente"], "Ana");
    assert_eq!(own.json()[0]["parentesco"], "Filha");
    let addresses = get(
        &app,
        &format!("/api/user-addresses/{}", demo.member_id),
        &token,
    )
    .await;
    assert_eq!(addresses.status, StatusCode::OK);
    assert!(addresses.json().is_array());

    let (other_id, other) = other_member_session(&db, demo.station_id, "outra@example.com").await;
    for uri in [
        format!("/api/dependents/{}", demo.member_id),
        format!("/api/user-addresses/{}", demo.member_id),
    ] {
        let theirs = get(&app, &uri, &other).await;
        assert_eq!(
            (theirs.status, messages(&theirs)),
            (StatusCode::FORBIDDEN, json!([FORBIDDEN]))
        );
    }
    let none = get(&app, &format!("/api/dependents/{other_id}"), &other).await;
    assert_eq!(none.json(), json!([]));
}

#[testkit::db_test]
async fn two_hundred_members_confirming_at_once_through_the_api_hold_exactly_fifty(db: PgPool) {
    let (demo, _) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    let (_, last) = shop(&db, demo.station_id, true, 1000, 0, 50, 10).await;
    let mut tokens = Vec::new();
    for n in 0..200 {
        let (_, token) =
            other_member_session(&db, demo.station_id, &format!("comprador{n}@example.com")).await;
        tokens.push(token);
    }
    let calls = tokens.into_iter().map(|token| {
        let app = app.clone();
        tokio::spawn(async move {
            send(
                &app,
                "POST",
                "/api/single-product-orders",
                &token,
                json!({ format!("product-{last}"): 1 }),
            )
            .await
        })
    });
    let answers: Vec<common::Answer> = futures_util::future::join_all(calls)
        .await
        .into_iter()
        .map(|answer| answer.expect("task"))
        .collect();
    let held = answers
        .iter()
        .filter(|a| a.status == StatusCode::OK)
        .count();
    let refused: Vec<&common::Answer> = answers
        .iter()
        .filter(|a| a.status != StatusCode::OK)
        .collect();
    assert_eq!(held, 50);
    assert_eq!(refused.len(), 150);
    for answer in refused {
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            answer.text
        );
        assert_eq!(messages(answer), json!([OUT_OF_STOCK]));
    }
    let (stock, reserved): (i32, i32) =
        sqlx::query_as("SELECT stock, reserved FROM products WHERE id = $1")
            .bind(last)
            .fetch_one(&db)
            .await
            .expect("product");
    assert_eq!((stock, reserved), (50, 50));
}

/// A hold keeps one coupon use at most: taken off and put back, or switched for another,
/// the coupons' counts follow and the order carries the last one.
#[testkit::db_test]
async fn a_coupon_taken_off_can_go_back_on_or_be_switched(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    let (_, mug) = shop(&db, demo.station_id, true, 5000, 0, 5, 10).await;
    sqlx::query(
        "INSERT INTO coupons (station_id, code, discount_value, max_uses)
         VALUES ($1, 'VOLTA', 1000, 1), ($1, 'TROCA', 2000, 1)",
    )
    .bind(demo.station_id)
    .execute(&db)
    .await
    .expect("coupons");
    let hold = send(
        &app,
        "POST",
        "/api/single-product-orders",
        &token,
        json!({ format!("product-{mug}"): 1 }),
    )
    .await;
    assert_eq!(hold.status, StatusCode::OK, "{}", hold.text);
    let checkout_id = hold.json()["checkout_id"].as_i64().expect("id");
    let apply = |code: &'static str| {
        let app = app.clone();
        let token = token.clone();
        async move {
            send(
                &app,
                "POST",
                "/api/cart/apply-coupon",
                &token,
                json!({ "coupon_code": code }),
            )
            .await
        }
    };
    let uses = || async {
        sqlx::query_as::<_, (String, i32)>("SELECT code, uses FROM coupons ORDER BY code")
            .fetch_all(&db)
            .await
            .expect("uses")
    };

    assert_eq!(apply("VOLTA").await.status, StatusCode::OK);
    let removed = send(&app, "POST", "/api/cart/remove-coupon", &token, json!({})).await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.text);
    let again = apply("VOLTA").await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json()["totals"]["after"]["total_final_value"], 4000);
    assert_eq!(uses().await, [("TROCA".into(), 0), ("VOLTA".into(), 1)]);

    let switched = apply("TROCA").await;
    assert_eq!(switched.status, StatusCode::OK, "{}", switched.text);
    assert_eq!(
        switched.json()["totals"]["after"]["total_final_value"],
        3000
    );
    assert_eq!(uses().await, [("TROCA".into(), 1), ("VOLTA".into(), 0)]);

    let order = send(
        &app,
        "POST",
        "/api/cupom-product-order-cart",
        &token,
        json!({ "checkout_id": checkout_id, "cart": [], "payment": { "type": "pix" } }),
    )
    .await;
    assert_eq!(order.status, StatusCode::OK, "{}", order.text);
    assert_eq!(order.json()["total_final_value"], 3000);
}

#[testkit::db_test]
async fn a_coupon_comes_off_and_the_order_names_its_hold(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    let (_, mug) = shop(&db, demo.station_id, true, 5000, 0, 5, 10).await;
    sqlx::query("INSERT INTO coupons (station_id, code, discount_value) VALUES ($1, 'SAI', 1000)")
        .bind(demo.station_id)
        .execute(&db)
        .await
        .expect("coupon");
    let hold = send(
        &app,
        "POST",
        "/api/single-product-orders",
        &token,
        json!({ format!("product-{mug}"): 1 }),
    )
    .await;
    assert_eq!(hold.status, StatusCode::OK, "{}", hold.text);
    let checkout_id = hold.json()["checkout_id"].as_i64().expect("id");
    let applied = send(
        &app,
        "POST",
        "/api/cart/apply-coupon",
        &token,
        json!({ "coupon_code": "SAI" }),
    )
    .await;
    assert_eq!(applied.json()["totals"]["after"]["total_final_value"], 4000);
    let removed = send(&app, "POST", "/api/cart/remove-coupon", &token, json!({})).await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.text);
    assert_eq!(removed.json()["total_final_value"], 5000);

    // Another hold's id is refused; this hold's id places its order, without the coupon.
    let body = |checkout_id: i64| json!({ "checkout_id": checkout_id, "cart": [], "payment": { "type": "pix" } });
    let stale = send(
        &app,
        "POST",
        "/api/cupom-product-order-cart",
        &token,
        body(checkout_id + 1000),
    )
    .await;
    assert_eq!(
        (stale.status, messages(&stale)),
        (StatusCode::UNPROCESSABLE_ENTITY, json!([HOLD_EXPIRED]))
    );
    let order = send(
        &app,
        "POST",
        "/api/cupom-product-order-cart",
        &token,
        body(checkout_id),
    )
    .await;
    assert_eq!(order.status, StatusCode::OK, "{}", order.text);
    assert_eq!(order.json()["total_final_value"], 5000);
    let uses: i32 = sqlx::query_scalar("SELECT uses FROM coupons")
        .fetch_one(&db)
        .await
        .expect("uses");
    assert_eq!(uses, 0);

    // The station's checkout turned off: the shop's calls are not authorised.
    sqlx::query("UPDATE stations SET checkout_access = false WHERE id = $1")
        .bind(demo.station_id)
        .execute(&db)
        .await
        .expect("off");
    let closed = send(
        &app,
        "POST",
        "/api/single-product-orders",
        &token,
        json!({ format!("product-{mug}"): 1 }),
    )
    .await;
    assert_eq!(
        (closed.status, messages(&closed)),
        (StatusCode::FORBIDDEN, json!([FORBIDDEN]))
    );
}

#[testkit::db_test]
async fn the_hold_lasts_what_the_deployment_sets(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = common::app_with(db.clone(), &[("FILIA_HOLD_SECONDS", "45")]);
    let (_, mug) = shop(&db, demo.station_id, true, 2500, 0, 5, 10).await;

    let hold = send(
        &app,
        "POST",
        "/api/single-product-orders",
        &token,
        json!({ "user_id": demo.member_id, format!("product-{mug}"): 1 }),
    )
    .await;

    assert_eq!(hold.status, StatusCode::OK, "{}", hold.text);
    let reserve_time = hold.json()["reserveTime"].as_i64().expect("seconds");
    assert!((40..=45).contains(&reserve_time), "{reserve_time}");
    // The release job is scheduled at that expiry too.
    let release_in: f64 = sqlx::query_scalar(
        "SELECT extract(epoch FROM run_at - now())::float8 FROM apalis.jobs
          WHERE job_type = 'reservation.release'",
    )
    .fetch_one(&db)
    .await
    .expect("job");
    assert!((35.0..=45.0).contains(&release_in), "{release_in}");
}

#[testkit::db_test]
async fn the_cart_totals_preview_holds_nothing(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    // The demo member has 30 points: R$ 30,00.
    let (_, mug) = shop(&db, demo.station_id, true, 2500, 0, 5, 10).await;
    send(
        &app,
        "POST",
        "/api/add-products-to-shoppping-cart",
        &token,
        json!({ "products": [{ "id": mug, "quantity": 2 }] }),
    )
    .await;

    let preview = get(&app, "/api/cart/totals", &token).await;

    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text);
    assert_eq!(preview.json()["product_items_sum_value"], 5000);
    assert_eq!(preview.json()["total_final_value"], 5000);
    assert_eq!(preview.json()["wallet_value"], 3000);
    assert_eq!(preview.json()["credit_card_value"], 2000);
    assert_eq!(preview.json()["cashback_value"], 500);
    let stock = get(&app, &format!("/api/get-product-stock/{mug}"), &token).await;
    assert_eq!(stock.json()["stock"], 5);
    let holds: i64 = sqlx::query_scalar("SELECT count(*) FROM checkouts")
        .fetch_one(&db)
        .await
        .expect("holds");
    assert_eq!(holds, 0);

    // The same figures the confirmation answers.
    let hold = send(
        &app,
        "POST",
        "/api/single-product-orders",
        &token,
        json!({ "user_id": demo.member_id }),
    )
    .await;
    assert_eq!(hold.json()["totals"], preview.json());
}
