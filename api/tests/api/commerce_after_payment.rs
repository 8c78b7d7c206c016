//! After payment over HTTP: the member's vouchers (made once however often asked), coupon
//! purchases, the receipt and voucher PDFs (202 with the job's id, then the file), and
//! that another member's order, voucher and PDF are refused.

use crate::common;
use std::time::Duration;

use crate::common::{app, call, send_json};
use axum::Router;
use axum::http::StatusCode;
use domain::commerce::cart::Wanted;
use domain::commerce::checkout;
use domain::commerce::orders::{self, Method, PlaceOrder};
use domain::shared::ids::{StationId, UserId};
use domain::wallet::ledger::{self, Credit, SourceKind};
use jobs::JobState;
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::build;

const FORBIDDEN: &str = "Você não possui autorização para acessar esta página.";

struct World {
    station_id: i64,
    member: (i64, String),
    other: (i64, String),
    product_id: i64,
}

async fn member(db: &PgPool, station_id: i64, email: &str) -> (i64, String) {
    let user_id = common::insert_member(db, station_id, email).await;
    let token = domain::accounts::session::create(db, user_id)
        .await
        .expect("session");
    (user_id, token)
}

async fn world(db: &PgPool) -> World {
    let station_id = common::insert_station(db, "clube").await;
    let member = member(db, station_id, "maria@example.com").await;
    let other = member_other(db, station_id).await;
    sqlx::query(
        "INSERT INTO dependents (station_id, user_id, dependente, parentesco)
         VALUES ($1, $2, 'João', 'Filho')",
    )
    .bind(station_id)
    .bind(member.0)
    .execute(db)
    .await
    .expect("dependent");
    let action_id: i64 = sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, digital_product, sell_vouchers,
                              familiar_voucher, points, rules)
         VALUES ($1, 3, 'Ingresso do show', true, true, true, 5, '<p>Apresente o QR</p>')
         RETURNING id",
    )
    .bind(station_id)
    .fetch_one(db)
    .await
    .expect("action");
    let product_id: i64 = sqlx::query_scalar(
        "INSERT INTO products (station_id, action_id, name, value, stock)
         VALUES ($1, $2, 'Ingresso', 3000, 10) RETURNING id",
    )
    .bind(station_id)
    .bind(action_id)
    .fetch_one(db)
    .await
    .expect("product");
    let mut tx = db.begin().await.expect("tx");
    ledger::credit(
        &mut tx,
        &Credit {
            user_id: UserId(member.0),
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
    World {
        station_id,
        member,
        other,
        product_id,
    }
}

async fn member_other(db: &PgPool, station_id: i64) -> (i64, String) {
    member(db, station_id, "outra@example.com").await
}

/// An order of two tickets: paid with the wallet (`method` None) or left waiting for PIX.
async fn order(db: &PgPool, world: &World, user_id: i64, method: Option<Method>) -> i64 {
    let mut tx = db.begin().await.expect("tx");
    checkout::confirm(
        &mut tx,
        world.station_id,
        user_id,
        &[Wanted {
            product_id: world.product_id,
            quantity: 2,
        }],
    )
    .await
    .expect("hold");
    let placed = orders::place(
        &mut tx,
        StationId(world.station_id),
        UserId(user_id),
        &PlaceOrder {
            method,
            ..PlaceOrder::default()
        },
    )
    .await
    .expect("order");
    tx.commit().await.expect("commit");
    placed.order_id
}

/// A partner of the world's station (with its own validator host, if given) and a signed-in
/// account it granted; the partner is made that of `product_id`'s activity, when given.
/// Answers the account's token.
async fn partner_staff(
    db: &PgPool,
    world: &World,
    name: &str,
    host: Option<&str>,
    product_id: Option<i64>,
    email: &str,
) -> String {
    let partner_id: i64 = sqlx::query_scalar(
        "INSERT INTO partners (station_id, name, validator_host) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(world.station_id)
    .bind(name)
    .bind(host)
    .fetch_one(db)
    .await
    .expect("partner");
    if let Some(product_id) = product_id {
        sqlx::query(
            "UPDATE actions SET partner_id = $1
              WHERE id = (SELECT action_id FROM products WHERE id = $2)",
        )
        .bind(partner_id)
        .bind(product_id)
        .execute(db)
        .await
        .expect("partner of the activity");
    }
    let (user_id, token) = member(db, world.station_id, email).await;
    sqlx::query("INSERT INTO partner_staff (user_id, partner_id) VALUES ($1, $2)")
        .bind(user_id)
        .bind(partner_id)
        .execute(db)
        .await
        .expect("grant");
    token
}

async fn get(app: &Router, uri: &str, token: &str) -> common::Answer {
    call(app, "GET", uri, Some(token), &[]).await
}

async fn create_vouchers(
    app: &Router,
    token: &str,
    order_id: Value,
    user_id: i64,
) -> common::Answer {
    send_json(
        app,
        "POST",
        "/api/create-vouchers-product-order",
        Some(token),
        &[],
        &json!({ "should_contact": true, "product_orders": order_id, "user_id": user_id }),
    )
    .await
}

async fn wait_succeeded(db: &PgPool, job_id: &str) {
    for _ in 0..600 {
        let view = jobs::state::find(db, job_id)
            .await
            .expect("job")
            .expect("exists");
        if view.state == JobState::Succeeded {
            return;
        }
        assert!(!view.state.is_final(), "{view:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("job {job_id} did not finish");
}

#[testkit::db_test]
async fn vouchers_are_made_once_and_only_their_owner_reads_them(db: PgPool) {
    let world = world(&db).await;
    let app = app(db.clone());
    let (member_id, token) = world.member.clone();
    let (other_id, other_token) = world.other.clone();
    let order_id = order(&db, &world, member_id, None).await;

    let first = create_vouchers(&app, &token, json!(order_id), member_id).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let vouchers = first.json();
    assert_eq!(vouchers.as_array().expect("list").len(), 2);
    assert_eq!(vouchers[0]["validated"], "0");
    assert_eq!(vouchers[0]["presential_course"]["name"], "Ingresso do show");
    assert_eq!(
        vouchers[0]["presential_course"]["action"]["familiarVoucher"],
        true
    );
    assert_eq!(
        vouchers[0]["dependents"],
        json!([{ "dependente": "João", "parentesco": "Filho" }])
    );
    let code = vouchers[0]["code"].as_str().expect("code").to_string();
    assert_eq!(
        vouchers[0]["validator_link"],
        format!("https://outro.example.com/validador/{code}")
    );
    // Asked again (the order page does when the flag is not yet seen): the same vouchers.
    let again = create_vouchers(&app, &token, json!(order_id.to_string()), member_id).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.json(), vouchers);
    let order_view = get(
        &app,
        &format!("/api/product-orders/?where[id]={order_id}"),
        &token,
    )
    .await;
    assert_eq!(order_view.json()[0]["create_vouchers"], true);

    let listed = get(&app, &format!("/api/user-vouchers/{member_id}"), &token).await;
    assert_eq!(listed.status, StatusCode::OK);
    assert_eq!(listed.json().as_array().expect("list").len(), 2);
    let bought = get(
        &app,
        &format!("/api/user-bought-cupoms/{member_id}"),
        &token,
    )
    .await;
    assert_eq!(bought.status, StatusCode::OK);
    assert_eq!(bought.json()[0]["price"], 6000);
    assert_eq!(
        bought.json()[0]["cupom"]["action"]["name"],
        "Ingresso do show"
    );

    // Another member: refused everywhere.
    let theirs = create_vouchers(&app, &other_token, json!(order_id), other_id).await;
    assert_eq!(theirs.status, StatusCode::FORBIDDEN);
    assert_eq!(theirs.json()["messages"], json!([FORBIDDEN]));
    for uri in [
        format!("/api/user-vouchers/{member_id}"),
        format!("/api/user-bought-cupoms/{member_id}"),
        format!("/api/product-orders/{order_id}/receipt"),
        format!("/api/vouchers/{code}/pdf"),
    ] {
        let refused = get(&app, &uri, &other_token).await;
        assert_eq!(
            refused.status,
            StatusCode::FORBIDDEN,
            "{uri}: {}",
            refused.text
        );
    }
    let missing = get(&app, "/api/vouchers/NAOEXISTE0000/pdf", &token).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);

    // An order still waiting for PIX has no vouchers and no receipt yet.
    let pending = order(&db, &world, other_id, Some(Method::Pix)).await;
    let refused = create_vouchers(&app, &other_token, json!(pending), other_id).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused.json()["messages"],
        json!(["Erro ao gerar os vouchers."])
    );
    let not_yet = get(
        &app,
        &format!("/api/product-orders/{pending}/receipt"),
        &other_token,
    )
    .await;
    assert_eq!(not_yet.status, StatusCode::CONFLICT);
}

#[testkit::db_test]
async fn the_receipt_and_voucher_pdfs_follow_their_jobs_then_download(db: PgPool) {
    let world = world(&db).await;
    let app = app(db.clone());
    let (member_id, token) = world.member.clone();
    let order_id = order(&db, &world, member_id, None).await;
    let services = jobs::Services::new(jobs::fleet::pool_beside(&db), common::config_with(&[]))
        .expect("services");
    let fleet = jobs::fleet::spawn(services, Vec::new());

    let uri = format!("/api/product-orders/{order_id}/receipt");
    let making = get(&app, &uri, &token).await;
    assert_eq!(making.status, StatusCode::ACCEPTED, "{}", making.text);
    let job_id = making.json()["job_id"].as_str().expect("job").to_string();
    // The job is the member's to follow.
    let followed = get(&app, &format!("/api/jobs/{job_id}"), &token).await;
    assert_eq!(followed.status, StatusCode::OK, "{}", followed.text);
    wait_succeeded(&db, &job_id).await;
    let pdf = get(&app, &uri, &token).await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert_eq!(pdf.headers["content-type"], "application/pdf");
    assert!(pdf.text.starts_with("%PDF"));

    let vouchers = create_vouchers(&app, &token, json!(order_id), member_id)
        .await
        .json();
    let code = vouchers[0]["code"].as_str().expect("code").to_string();
    let uri = format!("/api/vouchers/{code}/pdf");
    let making = get(&app, &uri, &token).await;
    let pdf = if making.status == StatusCode::ACCEPTED {
        wait_succeeded(&db, making.json()["job_id"].as_str().expect("job")).await;
        get(&app, &uri, &token).await
    } else {
        making
    };
    assert_eq!(pdf.status, StatusCode::OK, "{}", pdf.text);
    assert_eq!(pdf.headers["content-type"], "application/pdf");
    assert!(pdf.text.starts_with("%PDF"));
    fleet.stop().await.expect("clean stop");
}

#[testkit::db_test]
async fn a_refund_makes_the_receipt_again_with_what_was_refunded(db: PgPool) {
    use domain::commerce::{fulfilment, refunds};
    let world = world(&db).await;
    let app = app(db.clone());
    let (member_id, token) = world.member.clone();
    let order_id = order(&db, &world, member_id, None).await;
    let services = jobs::Services::new(jobs::fleet::pool_beside(&db), common::config_with(&[]))
        .expect("services");
    let fleet = jobs::fleet::spawn(services, Vec::new());
    let uri = format!("/api/product-orders/{order_id}/receipt");
    let receipt_key = || async {
        sqlx::query_scalar::<_, Option<String>>("SELECT receipt_key FROM orders WHERE id = $1")
            .bind(order_id)
            .fetch_one(&db)
            .await
            .expect("order")
    };

    let first_job = get(&app, &uri, &token).await.json()["job_id"]
        .as_str()
        .expect("job")
        .to_string();
    wait_succeeded(&db, &first_job).await;
    assert_eq!(get(&app, &uri, &token).await.status, StatusCode::OK);
    let first = receipt_key().await.expect("first receipt");

    // One of the two tickets is refunded: the receipt on file no longer tells the truth.
    let line: i64 = sqlx::query_scalar("SELECT id FROM order_lines WHERE order_id = $1")
        .bind(order_id)
        .fetch_one(&db)
        .await
        .expect("line");
    let mut tx = db.begin().await.expect("tx");
    let requested = refunds::request(
        &mut tx,
        Some(world.station_id),
        order_id,
        &refunds::RefundRequest {
            lines: Some(vec![(line, 1)]),
            reason: "Desistência".into(),
        },
        domain::commerce::status::RefundOrigin::Staff,
        None,
    )
    .await
    .expect("refund");
    refunds::apply(&mut tx, requested.refund_id, None)
        .await
        .expect("applied")
        .expect("once");
    tx.commit().await.expect("commit");
    assert_eq!(receipt_key().await, None);
    // A receipt job that rendered before the refund does not record its out-of-date file.
    let mut conn = db.acquire().await.expect("conn");
    let stale = fulfilment::record_receipt(&mut conn, order_id, "receipts/stale.pdf", 0)
        .await
        .expect("record");
    assert_eq!(stale, None);
    drop(conn);
    assert_eq!(receipt_key().await, None);

    let making = get(&app, &uri, &token).await;
    assert_eq!(making.status, StatusCode::ACCEPTED, "{}", making.text);
    let second_job = making.json()["job_id"].as_str().expect("job").to_string();
    assert_ne!(
        second_job, first_job,
        "a new receipt, not the first job's answer"
    );
    wait_succeeded(&db, &second_job).await;
    let pdf = get(&app, &uri, &token).await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert!(pdf.text.starts_with("%PDF"));
    let second = receipt_key().await.expect("second receipt");
    assert_ne!(second, first);
    let mut conn = db.acquire().await.expect("conn");
    let document = fulfilment::receipt_document(&mut conn, order_id)
        .await
        .expect("read")
        .expect("order");
    assert_eq!(document.data.status, "Parcialmente estornada");
    assert_eq!(document.data.refunded_cents, Some(3000));
    assert_eq!(document.stored.as_deref(), Some(second.as_str()));
    fleet.stop().await.expect("clean stop");
}

/// What a receipt's lines hold: (product, units).
fn products(lines: &Value) -> Vec<(&str, i64)> {
    lines
        .as_array()
        .expect("lines")
        .iter()
        .map(|line| {
            (
                line["product"].as_str().expect("product"),
                line["quantity"].as_i64().expect("quantity"),
            )
        })
        .collect()
}

#[testkit::db_test]
async fn a_receipts_qr_shows_the_order_to_its_partner_and_its_member_only(db: PgPool) {
    let world = world(&db).await;
    let app = app(db.clone());
    let (member_id, token) = world.member.clone();
    let partner_token = partner_staff(
        &db,
        &world,
        "Casa de Shows",
        None,
        Some(world.product_id),
        "portaria@casa.com.br",
    )
    .await;
    // The same order also buys a mug of the station's own shop: not the partner's business.
    let mug: i64 = sqlx::query_scalar(
        "WITH shop AS (INSERT INTO actions (station_id, type_id, name, digital_product)
                       VALUES ($1, 3, 'Loja do clube', true) RETURNING id)
         INSERT INTO products (station_id, action_id, name, value, stock)
         SELECT $1, id, 'Caneca', 2000, 10 FROM shop RETURNING id",
    )
    .bind(world.station_id)
    .fetch_one(&db)
    .await
    .expect("mug");
    let mut tx = db.begin().await.expect("tx");
    checkout::confirm(
        &mut tx,
        world.station_id,
        member_id,
        &[
            Wanted {
                product_id: world.product_id,
                quantity: 2,
            },
            Wanted {
                product_id: mug,
                quantity: 1,
            },
        ],
    )
    .await
    .expect("hold");
    let order_id = orders::place(
        &mut tx,
        StationId(world.station_id),
        UserId(member_id),
        &PlaceOrder::default(),
    )
    .await
    .expect("order")
    .order_id;
    tx.commit().await.expect("commit");
    let code: String = sqlx::query_scalar("SELECT code FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_one(&db)
        .await
        .expect("code");
    let uri = format!("/api/validator/orders/{code}");

    let seen = get(&app, &uri, &partner_token).await;
    assert_eq!(seen.status, StatusCode::OK, "{}", seen.text);
    let seen = seen.json();
    assert_eq!(seen["code"], code);
    assert_eq!(seen["paid"], true);
    assert_eq!(seen["status"], "Pagamento confirmado");
    assert_eq!(products(&seen["lines"]), vec![("Ingresso", 2)]);
    assert_eq!(seen["member_name"], "Outra Pessoa");
    // The member who bought it sees all of it; another member, and a partner of another
    // activity, do not; an unknown code, or one of another station, is not found.
    let own = get(&app, &uri, &token).await;
    assert_eq!(own.status, StatusCode::OK);
    assert_eq!(
        products(&own.json()["lines"]),
        vec![("Ingresso", 2), ("Caneca", 1)]
    );
    assert_eq!(
        get(&app, &uri, &world.other.1).await.status,
        StatusCode::FORBIDDEN
    );
    let stranger_token = partner_staff(&db, &world, "Outra", None, None, "x@outra.com.br").await;
    assert_eq!(
        get(&app, &uri, &stranger_token).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        get(&app, "/api/validator/orders/NOPE", &partner_token)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let elsewhere = common::insert_station(&db, "longe").await;
    let (_, far_token) = member(&db, elsewhere, "maria@longe.com.br").await;
    assert_eq!(
        get(&app, &uri, &far_token).await.status,
        StatusCode::NOT_FOUND
    );

    // Once wholly refunded it is no longer to be handed over.
    sqlx::query("UPDATE orders SET status = 'refunded' WHERE id = $1")
        .bind(order_id)
        .execute(&db)
        .await
        .expect("refunded");
    let refunded = get(&app, &uri, &partner_token).await.json();
    assert_eq!(refunded["paid"], false);
    assert_eq!(refunded["refunded"], true);
    assert_eq!(refunded["status"], "Estornada");
}

async fn staff(
    db: &PgPool,
    station_id: i64,
    email: &str,
    role: domain::staff::Role,
    scope: domain::staff::Scope,
) -> String {
    let id = build::member(station_id)
        .name("Equipe")
        .email(email)
        .staff()
        .insert(db)
        .await;
    domain::staff::set_grant(db, id, role, scope)
        .await
        .expect("grant");
    domain::accounts::session::create(db, id)
        .await
        .expect("session")
}

#[testkit::db_test]
async fn support_staff_refund_from_the_console_audited_and_scoped(db: PgPool) {
    use domain::staff::{Role, Scope};
    let world = world(&db).await;
    let app = app(db.clone());
    let order_id = order(&db, &world, world.member.0, None).await;
    let elsewhere = common::insert_station(&db, "longe").await;
    let support = staff(
        &db,
        world.station_id,
        "s@example.com",
        Role::Support,
        Scope::Station(world.station_id),
    )
    .await;
    let viewer = staff(
        &db,
        world.station_id,
        "v@example.com",
        Role::Viewer,
        Scope::Station(world.station_id),
    )
    .await;
    let stranger = staff(
        &db,
        elsewhere,
        "x@example.com",
        Role::Support,
        Scope::Station(elsewhere),
    )
    .await;
    let uri = format!("/api/ops/orders/{order_id}/refunds");
    let body = json!({ "reason": "Evento cancelado" });

    let read_only = send_json(&app, "POST", &uri, Some(&viewer), &[], &body).await;
    assert_eq!(read_only.status, StatusCode::FORBIDDEN);
    let out_of_scope = send_json(&app, "POST", &uri, Some(&stranger), &[], &body).await;
    assert_eq!(out_of_scope.status, StatusCode::NOT_FOUND);
    let member = send_json(&app, "POST", &uri, Some(&world.member.1), &[], &body).await;
    assert_eq!(member.status, StatusCode::FORBIDDEN);

    let bad_line = send_json(
        &app,
        "POST",
        &uri,
        Some(&support),
        &[],
        &json!({ "lines": [{ "order_line_id": 0, "quantity": 1 }], "reason": "x" }),
    )
    .await;
    assert_eq!(bad_line.status, StatusCode::UNPROCESSABLE_ENTITY);

    let queued = send_json(&app, "POST", &uri, Some(&support), &[], &body).await;
    assert_eq!(queued.status, StatusCode::ACCEPTED, "{}", queued.text);
    let queued = queued.json();
    assert_eq!(queued["amount"], 6000);
    assert_eq!(
        queued["wallet_cents"], 6000,
        "a wallet-only order goes back to the wallet"
    );
    let job_id = queued["job_id"].as_str().expect("job");
    // Nothing is left to refund while that one is under way.
    let twice = send_json(&app, "POST", &uri, Some(&support), &[], &body).await;
    assert_eq!(twice.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        twice.json()["messages"],
        json!(["Não há mais nada a estornar neste pedido."])
    );
    let audit = call(
        &app,
        "GET",
        &format!("/api/ops/audit?job_id={job_id}"),
        Some(&support),
        &[],
    )
    .await;
    assert_eq!(audit.status, StatusCode::OK, "{}", audit.text);
    assert_eq!(audit.json()["entries"][0]["action"], "order.refund");

    let services = jobs::Services::new(jobs::fleet::pool_beside(&db), common::config_with(&[]))
        .expect("services");
    let fleet = jobs::fleet::spawn(services, Vec::new());
    wait_succeeded(&db, job_id).await;
    let order_view = get(
        &app,
        &format!("/api/product-orders/?where[id]={order_id}"),
        &world.member.1,
    )
    .await
    .json();
    assert_eq!(order_view[0]["status"], "Estornada");
    fleet.stop().await.expect("clean stop");
}

#[testkit::db_test]
async fn a_partner_validates_a_voucher_once_even_twice_at_once(db: PgPool) {
    let world = world(&db).await;
    let app = app(db.clone());
    let (member_id, token) = world.member.clone();
    let partner_token = partner_staff(
        &db,
        &world,
        "Casa de Shows",
        Some("validador.casa.com.br"),
        Some(world.product_id),
        "portaria@casa.com.br",
    )
    .await;
    let order_id = order(&db, &world, member_id, None).await;
    let vouchers = create_vouchers(&app, &token, json!(order_id), member_id)
        .await
        .json();
    let code = vouchers[0]["code"].as_str().expect("code").to_string();
    assert_eq!(
        vouchers[0]["validator_link"],
        format!("https://validador.casa.com.br/validador/{code}")
    );
    let uri = format!("/api/validator/vouchers/{code}");

    // The member (no partner grant) neither sees nor validates it.
    assert_eq!(get(&app, &uri, &token).await.status, StatusCode::FORBIDDEN);
    let seen = get(&app, &uri, &partner_token).await;
    assert_eq!(seen.status, StatusCode::OK, "{}", seen.text);
    assert_eq!(seen.json()["validated"], "0");

    // Two validations at once: one uses it, the other reads that it was used.
    let (a, b) = tokio::join!(
        call(&app, "POST", &uri, Some(&partner_token), &[]),
        call(&app, "POST", &uri, Some(&partner_token), &[]),
    );
    let mut statuses = [a.status, b.status];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::OK, StatusCode::CONFLICT],
        "{a:?} {b:?}"
    );
    let used = if a.status == StatusCode::CONFLICT {
        a
    } else {
        b
    };
    assert_eq!(
        used.json()["messages"],
        json!(["Este voucher já foi utilizado!"])
    );
    let validated: String = sqlx::query_scalar("SELECT validated FROM vouchers WHERE code = $1")
        .bind(&code)
        .fetch_one(&db)
        .await
        .expect("voucher");
    assert_eq!(validated, "1");
    let again = call(&app, "POST", &uri, Some(&partner_token), &[]).await;
    assert_eq!(again.status, StatusCode::CONFLICT);

    // Type 3: the line's cashback (written now, its job not having run) is due for the
    // next release batch.
    let (rule, due): (String, bool) = sqlx::query_as(
        "SELECT rule, available_at <= now() FROM credit_lots WHERE source_kind = 'purchase'",
    )
    .fetch_one(&db)
    .await
    .expect("lot");
    assert_eq!((rule.as_str(), due), ("purchase.cashback.validation", true));
    // The other voucher is untouched.
    let other = vouchers[1]["code"].as_str().expect("code");
    let fresh = get(
        &app,
        &format!("/api/validator/vouchers/{other}"),
        &partner_token,
    )
    .await;
    assert_eq!(fresh.json()["validated"], "0");
}

const REFUNDED_VOUCHER: &str = "Este voucher foi estornado e não pode mais ser utilizado.";
const VOUCHERS_USED: &str = "Só unidades com voucher ainda não utilizado podem ser estornadas.";

/// Support staff of the world's station, its partner's staff, and a paid order of two
/// tickets with their vouchers: answers the order, its line, the vouchers' codes (unit 1,
/// unit 2), the support token and the partner's token.
struct Refundable {
    order_id: i64,
    line_id: i64,
    codes: [String; 2],
    support: String,
    partner: String,
}

async fn refundable(db: &PgPool, app: &Router, world: &World, n: usize) -> Refundable {
    use domain::staff::{Role, Scope};
    let (member_id, token) = world.member.clone();
    let support = staff(
        db,
        world.station_id,
        &format!("suporte{n}@example.com"),
        Role::Support,
        Scope::Station(world.station_id),
    )
    .await;
    let partner = partner_staff(
        db,
        world,
        &format!("Casa {n}"),
        None,
        Some(world.product_id),
        &format!("portaria{n}@casa.com.br"),
    )
    .await;
    let order_id = order(db, world, member_id, None).await;
    let vouchers = create_vouchers(app, &token, json!(order_id), member_id)
        .await
        .json();
    let line_id: i64 = sqlx::query_scalar("SELECT id FROM order_lines WHERE order_id = $1")
        .bind(order_id)
        .fetch_one(db)
        .await
        .expect("line");
    let code = |i: usize| vouchers[i]["code"].as_str().expect("code").to_string();
    Refundable {
        order_id,
        line_id,
        codes: [code(0), code(1)],
        support,
        partner,
    }
}

async fn refund_units(app: &Router, r: &Refundable, quantity: i32) -> common::Answer {
    send_json(
        app,
        "POST",
        &format!("/api/ops/orders/{}/refunds", r.order_id),
        Some(&r.support),
        &[],
        &json!({ "lines": [{ "order_line_id": r.line_id, "quantity": quantity }], "reason": "Desistência" }),
    )
    .await
}

async fn use_voucher(app: &Router, r: &Refundable, code: &str) -> common::Answer {
    call(
        app,
        "POST",
        &format!("/api/validator/vouchers/{code}"),
        Some(&r.partner),
        &[],
    )
    .await
}

#[testkit::db_test]
async fn a_refund_voids_an_unused_voucher_whatever_its_number(db: PgPool) {
    let world = world(&db).await;
    let app = app(db.clone());
    let (member_id, token) = world.member.clone();
    let r = refundable(&db, &app, &world, 1).await;
    // The second ticket's voucher is used first.
    assert_eq!(
        use_voucher(&app, &r, &r.codes[1]).await.status,
        StatusCode::OK
    );

    // Two units cannot be refunded: one of them was used; nor can the whole order be.
    let both = refund_units(&app, &r, 2).await;
    assert_eq!(
        both.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        both.text
    );
    assert_eq!(both.json()["messages"], json!([VOUCHERS_USED]));
    assert_eq!(
        common::off_contract("post", "/api/ops/orders/{id}/refunds", &both),
        None
    );
    let one = refund_units(&app, &r, 1).await;
    assert_eq!(one.status, StatusCode::ACCEPTED, "{}", one.text);
    let job_id = one.json()["job_id"].as_str().expect("job").to_string();

    // While the refund is under way, the refunded unit's voucher is not to be used.
    let refused = use_voucher(&app, &r, &r.codes[0]).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    assert_eq!(refused.json()["messages"], json!([REFUNDED_VOUCHER]));
    assert_eq!(
        common::off_contract("post", "/api/validator/vouchers/{code}", &refused),
        None
    );

    let services = jobs::Services::new(jobs::fleet::pool_beside(&db), common::config_with(&[]))
        .expect("services");
    let fleet = jobs::fleet::spawn(services, Vec::new());
    wait_succeeded(&db, &job_id).await;
    fleet.stop().await.expect("clean stop");

    // Applied: the unused voucher (unit 1) is void, the used one (unit 2) stays.
    let gone = use_voucher(&app, &r, &r.codes[0]).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND, "{}", gone.text);
    let mine = get(&app, &format!("/api/user-vouchers/{member_id}"), &token).await;
    assert_eq!(mine.status, StatusCode::OK, "{}", mine.text);
    let mine = mine.json();
    let codes: Vec<&str> = mine
        .as_array()
        .expect("list")
        .iter()
        .map(|v| v["code"].as_str().expect("code"))
        .collect();
    assert_eq!(codes, vec![r.codes[1].as_str()]);
    // Asking for the order's vouchers again makes no new one for the refunded unit.
    let again = create_vouchers(&app, &token, json!(r.order_id), member_id).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json().as_array().expect("list").len(), 1);
    // Nothing is left to refund: the unit kept was used.
    let rest = send_json(
        &app,
        "POST",
        &format!("/api/ops/orders/{}/refunds", r.order_id),
        Some(&r.support),
        &[],
        &json!({ "reason": "Tudo" }),
    )
    .await;
    assert_eq!(
        rest.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        rest.text
    );
    assert_eq!(rest.json()["messages"], json!([VOUCHERS_USED]));
    // Another member's token validates nothing.
    let other = call(
        &app,
        "POST",
        &format!("/api/validator/vouchers/{}", r.codes[1]),
        Some(&world.other.1),
        &[],
    )
    .await;
    assert_eq!(other.status, StatusCode::FORBIDDEN);
}

#[testkit::db_test]
async fn a_refund_and_a_validation_at_once_never_both_take_the_last_unit(db: PgPool) {
    let world = world(&db).await;
    let app = app(db.clone());
    // Four rounds: the world's member may buy 10 tickets.
    for n in 0..4 {
        let r = refundable(&db, &app, &world, n).await;
        assert_eq!(
            use_voucher(&app, &r, &r.codes[1]).await.status,
            StatusCode::OK
        );
        // One unit left: a refund of it and a use of its voucher, at once.
        let (refund, used) = tokio::join!(
            refund_units(&app, &r, 1),
            use_voucher(&app, &r, &r.codes[0])
        );
        let outcome = (refund.status, used.status);
        assert!(
            outcome == (StatusCode::ACCEPTED, StatusCode::CONFLICT)
                || outcome == (StatusCode::UNPROCESSABLE_ENTITY, StatusCode::OK),
            "{refund:?} {used:?}"
        );
        let (used_units, refunding): (i64, i64) = sqlx::query_as(
            "SELECT (SELECT count(*) FROM vouchers WHERE order_line_id = $1 AND validated <> '0'),
                    (SELECT coalesce(sum(quantity), 0) FROM refund_lines WHERE order_line_id = $1)::bigint",
        )
        .bind(r.line_id)
        .fetch_one(&db)
        .await
        .expect("counts");
        assert_eq!(
            used_units + refunding,
            2,
            "two units, each used or refunded once"
        );
    }
}

/// A product of an activity of `partner_token`'s partner (made by [`partner_staff`]) that
/// sells no vouchers: handed over at the counter.
async fn counter_product(db: &PgPool, world: &World, name: &str) -> i64 {
    sqlx::query_scalar(
        "WITH shop AS (INSERT INTO actions (station_id, type_id, name, digital_product)
                       VALUES ($1, 3, 'Loja parceira', true) RETURNING id)
         INSERT INTO products (station_id, action_id, name, value, stock)
         SELECT $1, id, $2, 2000, 10 FROM shop RETURNING id",
    )
    .bind(world.station_id)
    .bind(name)
    .fetch_one(db)
    .await
    .expect("product")
}

async fn place(
    db: &PgPool,
    world: &World,
    wanted: &[(i64, i64)],
    method: Option<Method>,
) -> (i64, String) {
    let mut tx = db.begin().await.expect("tx");
    let wanted: Vec<Wanted> = wanted
        .iter()
        .map(|&(product_id, quantity)| Wanted {
            product_id,
            quantity,
        })
        .collect();
    checkout::confirm(&mut tx, world.station_id, world.member.0, &wanted)
        .await
        .expect("hold");
    let order_id = orders::place(
        &mut tx,
        StationId(world.station_id),
        UserId(world.member.0),
        &PlaceOrder {
            method,
            ..PlaceOrder::default()
        },
    )
    .await
    .expect("order")
    .order_id;
    tx.commit().await.expect("commit");
    let code = sqlx::query_scalar("SELECT code FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_one(db)
        .await
        .expect("code");
    (order_id, code)
}

async fn line_of(db: &PgPool, order_id: i64, product_id: i64) -> i64 {
    sqlx::query_scalar("SELECT id FROM order_lines WHERE order_id = $1 AND product_id = $2")
        .bind(order_id)
        .bind(product_id)
        .fetch_one(db)
        .await
        .expect("line")
}

const HANDOVER: &str = "/api/validator/orders/{code}/lines/{line_id}/handover";

async fn hand_over(app: &Router, code: &str, line_id: i64, token: &str) -> common::Answer {
    let answer = call(
        app,
        "POST",
        &format!("/api/validator/orders/{code}/lines/{line_id}/handover"),
        Some(token),
        &[],
    )
    .await;
    if answer.status != StatusCode::OK {
        assert_eq!(common::off_contract("post", HANDOVER, &answer), None);
    }
    answer
}

#[testkit::db_test]
async fn a_receipts_line_is_handed_over_once_by_its_partner_staff(db: PgPool) {
    use domain::commerce::refunds;
    let world = world(&db).await;
    let app = app(db.clone());
    let shirt = counter_product(&db, &world, "Camiseta").await;
    let cap = sqlx::query_scalar(
        "INSERT INTO products (station_id, action_id, name, value, stock)
         SELECT station_id, action_id, 'Boné', 1500, 10 FROM products WHERE id = $1 RETURNING id",
    )
    .bind(shirt)
    .fetch_one(&db)
    .await
    .expect("cap");
    let counter = partner_staff(
        &db,
        &world,
        "Loja parceira",
        None,
        Some(shirt),
        "balcao@loja.com.br",
    )
    .await;
    let partner_id: i64 =
        sqlx::query_scalar("SELECT id FROM partners WHERE name = 'Loja parceira'")
            .fetch_one(&db)
            .await
            .expect("partner");
    // A second counter of the same partner, named so the handover shows who it was.
    let (second_id, second) = member(&db, world.station_id, "caixa2@loja.com.br").await;
    sqlx::query("UPDATE users SET name = 'Joana Caixa' WHERE id = $1")
        .bind(second_id)
        .execute(&db)
        .await
        .expect("name");
    sqlx::query("INSERT INTO partner_staff (user_id, partner_id) VALUES ($1, $2)")
        .bind(second_id)
        .bind(partner_id)
        .execute(&db)
        .await
        .expect("grant");
    // The tickets' activity has the same partner: its line is handed over by its vouchers.
    sqlx::query(
        "UPDATE actions SET partner_id = $1 WHERE id = (SELECT action_id FROM products WHERE id = $2)",
    )
    .bind(partner_id)
    .bind(world.product_id)
    .execute(&db)
    .await
    .expect("ticket partner");

    // An unpaid order is not handed over (the member's wallet pays every order here: this
    // one is made to wait for its PIX).
    let (unpaid_id, unpaid) = place(&db, &world, &[(shirt, 1)], None).await;
    sqlx::query("UPDATE orders SET status = 'pending' WHERE id = $1")
        .bind(unpaid_id)
        .execute(&db)
        .await
        .expect("unpaid");
    let refused = hand_over(
        &app,
        &unpaid,
        line_of(&db, unpaid_id, shirt).await,
        &counter,
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
        json!(["Este pedido não está pago: não entregue os produtos."])
    );

    let (order_id, code) = place(
        &db,
        &world,
        &[(shirt, 2), (cap, 1), (world.product_id, 1)],
        None,
    )
    .await;
    let shirt_line = line_of(&db, order_id, shirt).await;
    let cap_line = line_of(&db, order_id, cap).await;
    let ticket_line = line_of(&db, order_id, world.product_id).await;
    // One shirt and the cap are refunded: one shirt is left to hand over, no cap.
    let mut tx = db.begin().await.expect("tx");
    let requested = refunds::request(
        &mut tx,
        Some(world.station_id),
        order_id,
        &refunds::RefundRequest {
            lines: Some(vec![(shirt_line, 1), (cap_line, 1)]),
            reason: "Desistência".into(),
        },
        domain::commerce::status::RefundOrigin::Staff,
        None,
    )
    .await
    .expect("refund");
    refunds::apply(&mut tx, requested.refund_id, None)
        .await
        .expect("applied")
        .expect("once");
    tx.commit().await.expect("commit");

    let seen = get(&app, &format!("/api/validator/orders/{code}"), &counter).await;
    assert_eq!(seen.status, StatusCode::OK, "{}", seen.text);
    assert_eq!(
        seen.json()["lines"],
        json!([
            { "id": ticket_line, "product": "Ingresso", "quantity": 1, "vouchers": true, "handed_over": null },
            { "id": shirt_line, "product": "Camiseta", "quantity": 1, "vouchers": false, "handed_over": null },
        ])
    );

    // The member, another member, a stranger partner: 403; another station: 404.
    for token in [&world.member.1, &world.other.1] {
        let answer = hand_over(&app, &code, shirt_line, token).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.text);
    }
    let stranger = partner_staff(&db, &world, "Outra", None, None, "x@outra.com.br").await;
    assert_eq!(
        hand_over(&app, &code, shirt_line, &stranger).await.status,
        StatusCode::FORBIDDEN
    );
    let elsewhere = common::insert_station(&db, "longe").await;
    let (far_id, far_token) = member(&db, elsewhere, "balcao@longe.com.br").await;
    sqlx::query("INSERT INTO partner_staff (user_id, partner_id) VALUES ($1, $2)")
        .bind(far_id)
        .bind(partner_id)
        .execute(&db)
        .await
        .expect("grant elsewhere");
    assert_eq!(
        hand_over(&app, &code, shirt_line, &far_token).await.status,
        StatusCode::NOT_FOUND
    );
    // A line of another order, or none: 404. The refunded cap, the ticket: 422.
    let other_line = line_of(&db, unpaid_id, shirt).await;
    let missing = hand_over(&app, &code, other_line, &counter).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.json()["error"], "Item do pedido não encontrado.");
    let cap_refused = hand_over(&app, &code, cap_line, &counter).await;
    assert_eq!(cap_refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        cap_refused.json()["messages"],
        json!(["Este item foi estornado: não há o que entregar."])
    );
    let by_voucher = hand_over(&app, &code, ticket_line, &counter).await;
    assert_eq!(by_voucher.status, StatusCode::UNPROCESSABLE_ENTITY);

    // Two counters press at once, four times each: one hands it over.
    let presses = (0..8).map(|i| {
        let app = app.clone();
        let code = code.clone();
        let token = if i % 2 == 0 {
            second.clone()
        } else {
            counter.clone()
        };
        async move { hand_over(&app, &code, shirt_line, &token).await }
    });
    let answers = futures_util::future::join_all(presses).await;
    let done: Vec<&common::Answer> = answers
        .iter()
        .filter(|a| a.status == StatusCode::OK)
        .collect();
    assert_eq!(done.len(), 1, "{answers:?}");
    for answer in answers.iter().filter(|a| a.status != StatusCode::OK) {
        assert_eq!(answer.status, StatusCode::CONFLICT, "{}", answer.text);
        assert_eq!(answer.json()["error"], "Este item já foi entregue.");
    }
    let handed = done[0].json()["lines"][1]["handed_over"].clone();
    assert_eq!(handed["quantity"], 1);
    assert!(
        ["Joana Caixa", "Outra Pessoa"].contains(&handed["by"].as_str().expect("name")),
        "{handed}"
    );
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM order_handovers")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(rows, 1);
    // The GET shows it, to the partner and to the member; a later press is refused.
    let seen = get(
        &app,
        &format!("/api/validator/orders/{code}"),
        &world.member.1,
    )
    .await;
    assert_eq!(seen.json()["lines"][1]["handed_over"], handed);
    assert_eq!(
        hand_over(&app, &code, shirt_line, &counter).await.status,
        StatusCode::CONFLICT
    );
}

/// While a refund of a line is under way its unit is neither the member's nor gone: the
/// counter waits. A refund the provider then refuses gives the whole line to hand over.
#[testkit::db_test]
async fn a_line_with_a_refund_under_way_waits_to_be_handed_over(db: PgPool) {
    use domain::commerce::refunds;
    let world = world(&db).await;
    let app = app(db.clone());
    let shirt = counter_product(&db, &world, "Camiseta").await;
    let counter = partner_staff(
        &db,
        &world,
        "Loja parceira",
        None,
        Some(shirt),
        "balcao@loja.com.br",
    )
    .await;
    let (order_id, code) = place(&db, &world, &[(shirt, 2)], None).await;
    let shirt_line = line_of(&db, order_id, shirt).await;
    let mut tx = db.begin().await.expect("tx");
    let requested = refunds::request(
        &mut tx,
        Some(world.station_id),
        order_id,
        &refunds::RefundRequest {
            lines: Some(vec![(shirt_line, 1)]),
            reason: "Desistência".into(),
        },
        domain::commerce::status::RefundOrigin::Staff,
        None,
    )
    .await
    .expect("refund");
    tx.commit().await.expect("commit");

    let waiting = hand_over(&app, &code, shirt_line, &counter).await;
    assert_eq!(
        (waiting.status, waiting.json()["messages"].clone()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            json!(["Há um estorno em andamento para este item: entregue quando ele terminar."])
        )
    );

    let mut conn = db.acquire().await.expect("conn");
    assert!(
        refunds::fail(&mut conn, requested.refund_id)
            .await
            .expect("failed")
    );
    drop(conn);
    let handed = hand_over(&app, &code, shirt_line, &counter).await;
    assert_eq!(handed.status, StatusCode::OK, "{}", handed.text);
    assert_eq!(handed.json()["lines"][0]["quantity"], 2);
    assert_eq!(handed.json()["lines"][0]["handed_over"]["quantity"], 2);
}
