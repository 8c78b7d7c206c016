//! Plans and subscriptions over HTTP against the real database and the sandbox provider:
//! the plans list and detail, buying a plan (a new card, a saved card, a declined card, a
//! free plan, every form field's text), two purchases at once making one subscription,
//! changing plan (upgrade with its proration, downgrade), cancelling, the card, the
//! charges list, type 21 product subscriptions, the enterprise form, the console; another
//! member's and another station's data refused throughout.

use crate::common;
use crate::common::{call, insert_member, insert_station, send_json, session_of};
use axum::Router;
use axum::http::StatusCode;
use domain::staff::{Role, Scope};
use jobs::kinds::PaymentSync;
use payments::sandbox::Sandbox;
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::build;

const APPROVES: &str = "4000000000000010";
/// Declined when the sandbox verifies it on saving.
const DECLINES: &str = "4000000000000028";
/// Saved, then declined on its charges.
const SAVED_THEN_DECLINED: &str = "4000000000000051";
const PROCESSING: &str = "4000000000000036";
const REQUIRED: &str = "Esse campo é obrigatório";

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    member_id: i64,
    token: String,
    /// R$ 29,90 a month.
    basic: i64,
    /// R$ 59,90 less R$ 10,00 a month, highlighted.
    premium: i64,
    /// 'A negociar'.
    negotiated: i64,
    /// Costs nothing.
    free: i64,
    /// Another member of the same station.
    other_token: String,
    /// A plan of another station.
    foreign_plan: i64,
}

async fn plan(db: &PgPool, station_id: i64, name: &str, amount: Option<i64>, discount: i64) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO plans (station_id, name, description, amount, discount, days)
         VALUES ($1, $2, 'Plano do clube', $3, $4, 30) RETURNING id",
    )
    .bind(station_id)
    .bind(name)
    .bind(amount)
    .bind(discount)
    .fetch_one(db)
    .await
    .expect("plan")
}

async fn world(db: PgPool) -> World {
    let station_id = insert_station(&db, "clube").await;
    sqlx::query("UPDATE stations SET contact_mail = 'contato@clube.example.com' WHERE id = $1")
        .bind(station_id)
        .execute(&db)
        .await
        .expect("contact");
    let member_id = build::member(station_id)
        .name("Maria Souza")
        .email("maria@example.com")
        .cpf("52998224725")
        .insert(&db)
        .await;
    let token = session_of(&db, member_id).await;
    let other = insert_member(&db, station_id, "joao@example.com").await;
    let other_token = session_of(&db, other).await;
    let basic = plan(&db, station_id, "Básico", Some(2_990), 0).await;
    let premium = plan(&db, station_id, "Premium", Some(5_990), 1_000).await;
    sqlx::query("UPDATE plans SET is_highlighted = true WHERE id = $1")
        .bind(premium)
        .execute(&db)
        .await
        .expect("highlight");
    for (position, benefit) in ["Descontos", "Eventos"].iter().enumerate() {
        sqlx::query("INSERT INTO plan_benefits (plan_id, position, benefit) VALUES ($1, $2, $3)")
            .bind(premium)
            .bind(position as i32)
            .bind(benefit)
            .execute(&db)
            .await
            .expect("benefit");
    }
    let negotiated = plan(&db, station_id, "Empresarial", None, 0).await;
    let free = plan(&db, station_id, "Gratuito", Some(0), 0).await;
    let deleted = plan(&db, station_id, "Antigo", Some(1_000), 0).await;
    sqlx::query("UPDATE plans SET deleted_at = now() WHERE id = $1")
        .bind(deleted)
        .execute(&db)
        .await
        .expect("delete");
    let elsewhere = insert_station(&db, "outro").await;
    let foreign_plan = plan(&db, elsewhere, "De fora", Some(1_990), 0).await;
    World {
        app: common::app(db.clone()),
        db,
        station_id,
        member_id,
        token,
        basic,
        premium,
        negotiated,
        free,
        other_token,
        foreign_plan,
    }
}

/// A new card's whole form for the sandbox (the raw number is the sandbox's shortcut).
fn new_card(number: &str) -> Value {
    json!({
        "card_number": number,
        "card_holder_name": "MARIA SOUZA",
        "card_expiration_date": "09/31",
        "card_cvv": "123",
        "cpf": "529.982.247-25",
        "birthday": "1990-05-17",
        "phone": "(48) 9 9999-8888",
        "zipcode": "88.010-400",
        "street": "Rua Felipe Schmidt",
        "street_number": "515",
        "neighborhood": "Centro",
        "state": "SC",
        "city": "Florianópolis",
        "save": true
    })
}

fn with_plan(mut form: Value, plan_id: i64) -> Value {
    form["plan_id"] = json!(plan_id);
    form
}

async fn post(w: &World, uri: &str, token: &str, body: &Value) -> common::Answer {
    send_json(&w.app, "POST", uri, Some(token), &[], body).await
}

async fn put(w: &World, uri: &str, token: &str, body: &Value) -> common::Answer {
    send_json(&w.app, "PUT", uri, Some(token), &[], body).await
}

async fn get(w: &World, uri: &str, token: &str) -> common::Answer {
    call(&w.app, "GET", uri, Some(token), &[]).await
}

async fn buy(w: &World, plan_id: i64, number: &str) -> Value {
    let answer = post(
        w,
        "/api/subscriptions",
        &w.token,
        &with_plan(new_card(number), plan_id),
    )
    .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    answer.json()
}

async fn subscription_status(db: &PgPool, id: i64) -> String {
    sqlx::query_scalar("SELECT status FROM subscriptions WHERE id = $1")
        .bind(id)
        .fetch_one(db)
        .await
        .expect("status")
}

fn messages(answer: &common::Answer) -> Vec<String> {
    serde_json::from_value(answer.json()["messages"].clone()).unwrap_or_default()
}

#[testkit::db_test]
async fn plans_are_listed_cheapest_first_with_negotiated_last_and_deleted_hidden(db: PgPool) {
    let w = world(db).await;
    let answer = get(&w, "/api/subscription-plans", &w.token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let list = answer.json();
    let names: Vec<&str> = list
        .as_array()
        .expect("present")
        .iter()
        .map(|plan| plan["name"].as_str().expect("present"))
        .collect();
    assert_eq!(names, ["Gratuito", "Básico", "Premium", "Empresarial"]);
    let premium = &list[2];
    assert_eq!(premium["amount"], 5_990);
    assert_eq!(premium["discount"], 1_000);
    assert_eq!(premium["days"], 30);
    assert_eq!(premium["is_highlighted"], true);
    assert_eq!(premium["deletedAt"], Value::Null);
    assert_eq!(premium["benefits"][0]["benefit"], "Descontos");
    assert_eq!(premium["benefits"][1]["benefit"], "Eventos");
    assert_eq!(list[3]["amount"], Value::Null);

    // A visitor reads the plans of the host's station.
    let visitor = call(
        &w.app,
        "GET",
        "/api/subscription-plans",
        None,
        &[("host", "clube.filia.example")],
    )
    .await;
    assert_eq!(visitor.status, StatusCode::OK, "{}", visitor.text);
    assert_eq!(visitor.json().as_array().expect("present").len(), 4);

    let one = get(
        &w,
        &format!("/api/subscription-plans/{}", w.premium),
        &w.token,
    )
    .await;
    assert_eq!(one.status, StatusCode::OK);
    assert_eq!(one.json()["name"], "Premium");
    for id in [w.foreign_plan, 999_999] {
        let refused = get(&w, &format!("/api/subscription-plans/{id}"), &w.token).await;
        assert_eq!(refused.status, StatusCode::NOT_FOUND, "{}", refused.text);
        assert_eq!(refused.json()["error"], "Plano não encontrado.");
    }

    // Station.plans carries the same list.
    let station = call(
        &w.app,
        "GET",
        &format!("/api/stations/{}", w.station_id),
        None,
        &[],
    )
    .await
    .json();
    assert_eq!(station["plans"].as_array().expect("present").len(), 4);
    assert_eq!(station["plans"][1]["name"], "Básico");
}

#[testkit::db_test]
async fn buying_a_plan_with_a_new_card_makes_it_active_with_its_card_and_charge(db: PgPool) {
    let w = world(db).await;
    let bought = buy(&w, w.premium, APPROVES).await;
    assert_eq!(bought["status"], "active");
    assert_eq!(bought["plan"]["id"], w.premium);
    assert_eq!(bought["amount"], 4_990);
    assert_eq!(bought["card"]["last_digits"], "0010");
    assert_eq!(bought["card"]["expiration_date"], "09/31");
    assert_eq!(bought["cancel_at_period_end"], false);
    assert!(bought["transaction"]["id"].is_i64(), "{bought}");
    assert!(bought["transaction"]["date_created"].is_string());
    assert_eq!(
        bought["internal_id"],
        format!("subscription-{}", bought["id"])
    );

    // The member's user carries it; the charges list has its first period, paid.
    let user = get(&w, &format!("/api/users-web/{}", w.member_id), &w.token)
        .await
        .json();
    assert_eq!(user["subscription"]["id"], bought["id"]);
    let charges = get(
        &w,
        &format!("/api/subscriptions/?where[user_id]={}", w.member_id),
        &w.token,
    )
    .await;
    assert_eq!(charges.status, StatusCode::OK, "{}", charges.text);
    let charges = charges.json();
    assert_eq!(charges.as_array().expect("present").len(), 1);
    let line = &charges[0];
    assert_eq!(line["name"], "Premium");
    assert_eq!(line["status"], "Pago");
    assert_eq!(line["paid"], true);
    assert_eq!(line["cancelled"], false);
    assert_eq!(line["priceFormatted"], "R$ 49,90");
    assert_eq!(line["paidFormatted"], "R$ 49,90");
    assert_eq!(line["recurrenceFormatted"], "Mensal");
    assert_eq!(line["actionId"], Value::Null);
    let vigencia = line["vigencia"].as_str().expect("present");
    assert_eq!(
        vigencia.len(),
        "dd/mm/aaaa a dd/mm/aaaa".len(),
        "{vigencia}"
    );

    // Another member's charges are not the caller's to read; theirs is empty.
    let refused = get(
        &w,
        &format!("/api/subscriptions/?where[user_id]={}", w.member_id),
        &w.other_token,
    )
    .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let theirs = get(&w, "/api/subscriptions/", &w.other_token).await.json();
    assert_eq!(theirs, json!([]));

    // A second purchase is refused: the member changes plan instead.
    let again = post(
        &w,
        "/api/subscriptions",
        &w.token,
        &with_plan(new_card(APPROVES), w.basic),
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
}

#[testkit::db_test]
async fn a_saved_card_pays_a_purchase_and_another_members_card_is_refused(db: PgPool) {
    let w = world(db).await;
    let bought = buy(&w, w.basic, APPROVES).await;
    let card_id = bought["card"]["id"].as_i64().expect("present");
    // The other member cannot pay with it.
    let refused = post(
        &w,
        "/api/subscriptions",
        &w.other_token,
        &json!({ "plan_id": w.basic, "selected_card": card_id }),
    )
    .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert_eq!(messages(&refused), ["Cartão não encontrado."]);
    // The owner cancels, lets it end, and buys again with the saved card.
    sqlx::query("UPDATE subscriptions SET status = 'canceled' WHERE id = $1")
        .bind(bought["id"].as_i64().expect("present"))
        .execute(&w.db)
        .await
        .expect("end");
    let again = post(
        &w,
        "/api/subscriptions",
        &w.token,
        &json!({ "plan_id": w.premium, "selected_card": card_id }),
    )
    .await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
    assert_eq!(again.json()["card"]["id"], card_id);
}

#[testkit::db_test]
async fn every_field_of_a_new_card_is_required_and_checked(db: PgPool) {
    let w = world(db).await;
    let answer = post(
        &w,
        "/api/subscriptions",
        &w.token,
        &json!({ "plan_id": w.basic, "card_number": APPROVES }),
    )
    .await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.text
    );
    let expected: Vec<String> = [
        "card_holder_name",
        "card_expiration_date",
        "cpf",
        "birthday",
        "phone",
        "zipcode",
        "street",
        "street_number",
        "neighborhood",
        "state",
        "city",
    ]
    .iter()
    .map(|field| format!("{field}: {REQUIRED}"))
    .collect();
    assert_eq!(messages(&answer), expected);

    let mut bad = with_plan(new_card(APPROVES), w.basic);
    bad["cpf"] = json!("111.111.111-11");
    bad["zipcode"] = json!("8801");
    bad["card_expiration_date"] = json!("01/9999");
    bad["birthday"] = json!("31/02/1990");
    bad["state"] = json!("XX");
    let answer = post(&w, "/api/subscriptions", &w.token, &bad).await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        messages(&answer),
        [
            "card_expiration_date: Data inválida",
            "cpf: CPF inválido",
            "birthday: Data Inválida!",
            "zipcode: CEP inválido",
            "state: Estado inválido",
        ]
    );

    let mut expired = with_plan(new_card(APPROVES), w.basic);
    expired["card_expiration_date"] = json!("01/20");
    let answer = post(&w, "/api/subscriptions", &w.token, &expired).await;
    assert_eq!(messages(&answer), ["card_expiration_date: Data inválida"]);

    // No card at all for a plan that costs something; no plan; a negotiated plan; another
    // station's plan.
    let no_card = post(
        &w,
        "/api/subscriptions",
        &w.token,
        &json!({ "plan_id": w.basic }),
    )
    .await;
    assert_eq!(messages(&no_card), ["Informe os dados do cartão."]);
    let no_plan = post(&w, "/api/subscriptions", &w.token, &new_card(APPROVES)).await;
    assert_eq!(messages(&no_plan), [format!("plan_id: {REQUIRED}")]);
    let negotiated = post(
        &w,
        "/api/subscriptions",
        &w.token,
        &with_plan(new_card(APPROVES), w.negotiated),
    )
    .await;
    assert_eq!(negotiated.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        messages(&negotiated),
        ["Este plano é vendido sob consulta: fale conosco pelo formulário do plano."]
    );
    let foreign = post(
        &w,
        "/api/subscriptions",
        &w.token,
        &with_plan(new_card(APPROVES), w.foreign_plan),
    )
    .await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND);
    let subscriptions: i64 = sqlx::query_scalar("SELECT count(*) FROM subscriptions")
        .fetch_one(&w.db)
        .await
        .expect("present");
    assert_eq!(subscriptions, 0);
    for answer in [&no_card, &no_plan, &negotiated, &foreign] {
        assert_eq!(
            common::off_contract("post", "/api/subscriptions", answer),
            None
        );
    }
}

#[testkit::db_test]
async fn a_declined_card_refuses_the_purchase_with_its_reason_and_ends_it(db: PgPool) {
    let w = world(db).await;
    // Declined as it is saved: nothing is made.
    let refused = post(
        &w,
        "/api/subscriptions",
        &w.token,
        &with_plan(new_card(DECLINES), w.basic),
    )
    .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert_eq!(
        messages(&refused),
        ["Não foi possível usar este cartão. Confira os dados ou use outro cartão."]
    );
    let made: i64 = sqlx::query_scalar("SELECT count(*) FROM subscriptions")
        .fetch_one(&w.db)
        .await
        .expect("count");
    assert_eq!(made, 0);
    // Saved, then declined by the first charge: the provider's reason, the subscription ended.
    let answer = post(
        &w,
        "/api/subscriptions",
        &w.token,
        &with_plan(new_card(SAVED_THEN_DECLINED), w.basic),
    )
    .await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.text
    );
    assert_eq!(messages(&answer).len(), 1);
    let (id, status): (i64, String) =
        sqlx::query_as("SELECT id, status FROM subscriptions WHERE user_id = $1")
            .bind(w.member_id)
            .fetch_one(&w.db)
            .await
            .expect("subscription");
    assert_eq!(status, "ended");
    let period: String =
        sqlx::query_scalar("SELECT status FROM subscription_periods WHERE subscription_id = $1")
            .bind(id)
            .fetch_one(&w.db)
            .await
            .expect("present");
    assert_eq!(period, "failed");
    let user = get(&w, &format!("/api/users-web/{}", w.member_id), &w.token)
        .await
        .json();
    assert_eq!(user["subscription"], Value::Null);
    // Nothing is kept running: another card buys the plan.
    buy(&w, w.basic, APPROVES).await;
}

#[testkit::db_test]
async fn a_card_under_analysis_answers_202_with_the_subscription_incomplete(db: PgPool) {
    let w = world(db).await;
    let answer = post(
        &w,
        "/api/subscriptions",
        &w.token,
        &with_plan(new_card(PROCESSING), w.basic),
    )
    .await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    assert_eq!(answer.json()["status"], "incomplete");
    assert_eq!(answer.json()["transaction"], Value::Null);
}

#[testkit::db_test]
async fn a_free_plan_needs_no_card(db: PgPool) {
    let w = world(db).await;
    let answer = post(
        &w,
        "/api/subscriptions",
        &w.token,
        &json!({ "plan_id": w.free }),
    )
    .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let bought = answer.json();
    assert_eq!(bought["status"], "active");
    assert_eq!(bought["card"], Value::Null);
    assert_eq!(bought["transaction"]["id"], Value::Null);
    let charges: i64 = sqlx::query_scalar("SELECT count(*) FROM subscription_charges")
        .fetch_one(&w.db)
        .await
        .expect("present");
    assert_eq!(charges, 0);
}

#[testkit::db_test]
async fn two_purchases_at_once_make_one_subscription_and_the_other_is_a_conflict(db: PgPool) {
    let w = world(db).await;
    let body = with_plan(new_card(APPROVES), w.basic);
    let (a, b) = tokio::join!(
        post(&w, "/api/subscriptions", &w.token, &body),
        post(&w, "/api/subscriptions", &w.token, &body),
    );
    let mut statuses = [a.status, b.status];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::CREATED, StatusCode::CONFLICT],
        "{} {}",
        a.text,
        b.text
    );
    let (subscriptions, charges): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM subscriptions WHERE user_id = $1),
                (SELECT count(*) FROM subscription_charges WHERE status = 'paid')",
    )
    .bind(w.member_id)
    .fetch_one(&w.db)
    .await
    .expect("present");
    assert_eq!((subscriptions, charges), (1, 1));
}

#[testkit::db_test]
async fn an_upgrade_charges_its_proration_and_a_downgrade_waits_for_the_period_end(db: PgPool) {
    let w = world(db).await;
    let bought = buy(&w, w.basic, APPROVES).await;
    let id = bought["id"].as_i64().expect("present");
    let uri = format!("/api/subscriptions/{id}");

    // Another member cannot touch it.
    let refused = put(&w, &uri, &w.other_token, &json!({ "plan_id": w.premium })).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{}", refused.text);
    let same = put(&w, &uri, &w.token, &json!({ "plan_id": w.basic })).await;
    assert_eq!(messages(&same), ["Este é seu plano atual"]);

    let upgraded = put(&w, &uri, &w.token, &json!({ "plan_id": w.premium })).await;
    assert_eq!(upgraded.status, StatusCode::OK, "{}", upgraded.text);
    let upgraded = upgraded.json();
    assert_eq!(upgraded["plan"]["id"], w.premium);
    assert_eq!(upgraded["amount"], 4_990);
    // Almost the whole month is left: the difference, R$ 20,00, give or take a centavo.
    let (amount, status, plan): (i64, String, i64) = sqlx::query_as(
        "SELECT amount, status, plan_id FROM subscription_periods
          WHERE subscription_id = $1 AND kind = 'proration'",
    )
    .bind(id)
    .fetch_one(&w.db)
    .await
    .expect("proration");
    assert!((1_999..=2_000).contains(&amount), "{amount}");
    assert_eq!((status.as_str(), plan), ("paid", w.premium));

    let downgraded = put(&w, &uri, &w.token, &json!({ "plan_id": w.basic })).await;
    assert_eq!(downgraded.status, StatusCode::OK, "{}", downgraded.text);
    let downgraded = downgraded.json();
    assert_eq!(downgraded["plan"]["id"], w.premium);
    assert_eq!(downgraded["next_plan"]["id"], w.basic);
    // Choosing the current plan again undoes the downgrade.
    let kept = put(&w, &uri, &w.token, &json!({ "plan_id": w.premium })).await;
    assert_eq!(kept.status, StatusCode::OK);
    assert_eq!(kept.json()["next_plan"], Value::Null);
}

#[testkit::db_test]
async fn an_upgrade_to_a_longer_period_starts_its_own_periods_when_paid(db: PgPool) {
    let w = world(db).await;
    let bought = buy(&w, w.basic, APPROVES).await;
    let id = bought["id"].as_i64().expect("present");
    let yearly: i64 = sqlx::query_scalar(
        "INSERT INTO plans (station_id, name, amount, days) VALUES ($1, 'Anual', 29900, 365)
         RETURNING id",
    )
    .bind(w.station_id)
    .fetch_one(&w.db)
    .await
    .expect("plan");

    let upgraded = put(
        &w,
        &format!("/api/subscriptions/{id}"),
        &w.token,
        &json!({ "plan_id": yearly }),
    )
    .await;
    assert_eq!(upgraded.status, StatusCode::OK, "{}", upgraded.text);
    // The new year starts now and is charged less the unused month (R$ 29,90 nearly whole).
    let (recurrence, months, year_ahead, amount): (String, i32, bool, i64) = sqlx::query_as(
        "SELECT s.recurrence, s.period_months,
                s.current_period_end > now() + interval '364 days', p.amount
           FROM subscriptions s
           JOIN subscription_periods p ON p.subscription_id = s.id AND p.kind = 'proration'
          WHERE s.id = $1",
    )
    .bind(id)
    .fetch_one(&w.db)
    .await
    .expect("subscription");
    assert_eq!(
        (recurrence.as_str(), months, year_ahead),
        ("year", 12, true)
    );
    assert!((26_910..=26_911).contains(&amount), "{amount}");
    // Its next period follows the year: period k + 1 from the new anchor starts at its end.
    let next_starts_at_end: bool = sqlx::query_scalar(
        "SELECT anchor_at + make_interval(months => 12 * (current_period + 1)) = current_period_end
           FROM subscriptions WHERE id = $1",
    )
    .bind(id)
    .fetch_one(&w.db)
    .await
    .expect("anchor");
    assert!(next_starts_at_end);
}

#[testkit::db_test]
async fn an_upgrade_waits_for_a_renewal_not_paid_yet(db: PgPool) {
    let w = world(db).await;
    let bought = buy(&w, w.basic, APPROVES).await;
    let id = bought["id"].as_i64().expect("present");
    // The next period is made and its try at the provider (a card under analysis, say).
    sqlx::query(
        "INSERT INTO subscription_periods (station_id, user_id, subscription_id, kind,
                                           period_index, starts_at, ends_at, amount, plan_id,
                                           next_attempt_at)
         SELECT station_id, user_id, id, 'renewal', 1, current_period_end,
                current_period_end + interval '1 month', amount, plan_id, now()
           FROM subscriptions WHERE id = $1",
    )
    .bind(id)
    .execute(&w.db)
    .await
    .expect("renewal");
    let refused = put(
        &w,
        &format!("/api/subscriptions/{id}"),
        &w.token,
        &json!({ "plan_id": w.premium }),
    )
    .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    assert_eq!(
        refused.json()["error"],
        "Uma mudança de plano está sendo processada. Aguarde alguns instantes."
    );
    let prorations: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM subscription_periods WHERE subscription_id = $1 AND kind = 'proration'",
    )
    .bind(id)
    .fetch_one(&w.db)
    .await
    .expect("count");
    assert_eq!(prorations, 0);
}

/// An upgrade racing the renewal at the period's end: whichever takes the subscription first
/// decides (the upgrade, charged its difference, then the renewal at the new price; or the
/// renewal, and the upgrade waits), and no period is paid twice or at the other price.
#[testkit::db_test]
async fn an_upgrade_racing_the_renewal_charges_each_period_once_at_one_price(db: PgPool) {
    use app::subscriptions::billing;
    let w = world(db).await;
    let gateway =
        payments::Gateway::from_config(&common::config_with(&[]), w.db.clone()).expect("gateway");
    let bought = buy(&w, w.basic, APPROVES).await;
    let id = bought["id"].as_i64().expect("present");
    // Its period ends in a moment.
    sqlx::query(
        "UPDATE subscriptions
            SET anchor_at = now() - interval '1 month' + interval '400 milliseconds',
                current_period_start = now() - interval '1 month' + interval '400 milliseconds',
                current_period_end = now() - interval '1 month' + interval '400 milliseconds'
                                     + interval '1 month'
          WHERE id = $1",
    )
    .bind(id)
    .execute(&w.db)
    .await
    .expect("period ending");

    let uri = format!("/api/subscriptions/{id}");
    let body = json!({ "plan_id": w.premium });
    let upgrade = put(&w, &uri, &w.token, &body);
    let renewal = async {
        for _ in 0..200 {
            billing::dispatch(&w.db, &jobs::JobOutbox, chrono::Utc::now(), 500)
                .await
                .expect("dispatch");
            let period: Option<i64> = sqlx::query_scalar(
                "SELECT id FROM subscription_periods
                  WHERE subscription_id = $1 AND kind = 'renewal'",
            )
            .bind(id)
            .fetch_optional(&w.db)
            .await
            .expect("renewal");
            if let Some(period) = period {
                return billing::charge_period(&w.db, &gateway, &jobs::JobOutbox, period)
                    .await
                    .expect("charged");
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        panic!("no renewal within 2 s");
    };
    let (upgraded, renewed) = tokio::join!(upgrade, renewal);
    assert_eq!(renewed, billing::PeriodOutcome::Paid);

    let (plan, renewal_amount, paid_tries, prorations_paid): (i64, i64, i64, i64) = sqlx::query_as(
        "SELECT s.plan_id,
                (SELECT amount FROM subscription_periods WHERE subscription_id = s.id AND kind = 'renewal'),
                (SELECT count(*) FROM subscription_charges c JOIN subscription_periods p ON p.id = c.period_id
                  WHERE p.subscription_id = s.id AND p.kind = 'renewal' AND c.status = 'paid'),
                (SELECT count(*) FROM subscription_periods
                  WHERE subscription_id = s.id AND kind = 'proration' AND status = 'paid')
           FROM subscriptions s WHERE s.id = $1",
    )
    .bind(id)
    .fetch_one(&w.db)
    .await
    .expect("state");
    assert_eq!(paid_tries, 1, "the renewal is paid once");
    if upgraded.status == StatusCode::OK {
        // The upgrade went first: its difference paid (none when less than a centavo was
        // left of the period), the renewal at the new price.
        assert_eq!((plan, renewal_amount), (w.premium, 4_990));
        assert!(prorations_paid <= 1);
    } else {
        // The renewal went first: the upgrade waits, nothing changed or charged for it.
        assert_eq!(upgraded.status, StatusCode::CONFLICT, "{}", upgraded.text);
        assert_eq!((plan, renewal_amount, prorations_paid), (w.basic, 2_990, 0));
    }
    let charges_at_provider: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM sandbox_charges sc
           JOIN subscription_charges c ON c.idempotency_key = sc.idempotency_key
           JOIN subscription_periods p ON p.id = c.period_id
          WHERE p.subscription_id = $1",
    )
    .bind(id)
    .fetch_one(&w.db)
    .await
    .expect("provider");
    let tries: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM subscription_charges c JOIN subscription_periods p ON p.id = c.period_id
          WHERE p.subscription_id = $1",
    )
    .bind(id)
    .fetch_one(&w.db)
    .await
    .expect("tries");
    assert_eq!(charges_at_provider, tries, "one provider charge per try");
}

#[testkit::db_test]
async fn a_declined_upgrade_is_refused_as_a_whole(db: PgPool) {
    let w = world(db).await;
    let bought = buy(&w, w.basic, APPROVES).await;
    let id = bought["id"].as_i64().expect("present");
    let mut form = with_plan(new_card(SAVED_THEN_DECLINED), w.premium);
    form["save"] = json!(false);
    let answer = put(&w, &format!("/api/subscriptions/{id}"), &w.token, &form).await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.text
    );
    let (plan, amount, status): (i64, i64, String) =
        sqlx::query_as("SELECT plan_id, amount, status FROM subscriptions WHERE id = $1")
            .bind(id)
            .fetch_one(&w.db)
            .await
            .expect("present");
    assert_eq!((plan, amount, status.as_str()), (w.basic, 2_990, "active"));
    let user = get(&w, &format!("/api/users-web/{}", w.member_id), &w.token)
        .await
        .json();
    assert_eq!(user["subscription"]["card"]["last_digits"], "0010");
}

#[testkit::db_test]
async fn cancelling_keeps_access_to_the_period_end_and_checks_the_reason(db: PgPool) {
    let w = world(db).await;
    let none = post(
        &w,
        "/api/subscriptions/cancel",
        &w.token,
        &json!({ "cancelReason": "Outro" }),
    )
    .await;
    assert_eq!(none.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(messages(&none), ["Você não possui uma assinatura ativa."]);
    let bought = buy(&w, w.basic, APPROVES).await;
    for reason in [json!({}), json!({ "cancelReason": "Caro demais" })] {
        let answer = post(&w, "/api/subscriptions/cancel", &w.token, &reason).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(messages(&answer), ["Selecione o motivo do cancelamento."]);
    }
    let answer = post(
        &w,
        "/api/subscriptions/cancel",
        &w.token,
        &json!({ "cancelReason": "Não acho um bom custo-benefício" }),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let cancelled = answer.json();
    assert_eq!(cancelled["id"], bought["id"]);
    assert_eq!(cancelled["status"], "active");
    assert_eq!(cancelled["cancel_at_period_end"], true);
    // 'Minhas assinaturas' reads its charges as cancelled: nothing more will be charged.
    let charges = get(
        &w,
        &format!("/api/subscriptions/?where[user_id]={}", w.member_id),
        &w.token,
    )
    .await
    .json();
    assert_eq!(charges[0]["cancelled"], true);
    assert_eq!(charges[0]["paid"], true);
    let again = post(
        &w,
        "/api/subscriptions/cancel",
        &w.token,
        &json!({ "cancelReason": "Outro" }),
    )
    .await;
    assert_eq!(messages(&again), ["Esta assinatura já foi cancelada."]);
    // The other member has nothing to cancel; the member's plan is untouched by them.
    let theirs = post(
        &w,
        "/api/subscriptions/cancel",
        &w.other_token,
        &json!({ "cancelReason": "Outro" }),
    )
    .await;
    assert_eq!(messages(&theirs), ["Você não possui uma assinatura ativa."]);
    let reason: String =
        sqlx::query_scalar("SELECT cancel_reason FROM subscriptions WHERE id = $1")
            .bind(bought["id"].as_i64().expect("present"))
            .fetch_one(&w.db)
            .await
            .expect("present");
    assert_eq!(reason, "Não acho um bom custo-benefício");
}

#[testkit::db_test]
async fn the_card_of_a_subscription_changes_and_a_past_due_period_is_retried(db: PgPool) {
    let w = world(db).await;
    let bought = buy(&w, w.basic, APPROVES).await;
    let id = bought["id"].as_i64().expect("present");
    let uri = format!("/api/subscriptions/{id}/card");
    let refused = put(&w, &uri, &w.other_token, &new_card(APPROVES)).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{}", refused.text);
    let no_card = put(&w, &uri, &w.token, &json!({})).await;
    assert_eq!(messages(&no_card), ["Informe os dados do cartão."]);

    // A renewal declined: the subscription is past due with its period waiting.
    sqlx::query("UPDATE subscriptions SET status = 'past_due' WHERE id = $1")
        .bind(id)
        .execute(&w.db)
        .await
        .expect("present");
    sqlx::query(
        "INSERT INTO subscription_periods (station_id, user_id, subscription_id, kind,
                                           period_index, starts_at, ends_at, amount, plan_id,
                                           attempts, next_attempt_at)
         SELECT station_id, user_id, id, 'renewal', 1, current_period_end,
                current_period_end + interval '1 month', amount, plan_id, 1,
                now() + interval '3 days'
           FROM subscriptions WHERE id = $1",
    )
    .bind(id)
    .execute(&w.db)
    .await
    .expect("present");
    let answer = put(&w, &uri, &w.token, &new_card("4242424242424242")).await;
    assert_eq!(answer.status, StatusCode::NO_CONTENT, "{}", answer.text);
    let subscription = get(&w, &format!("/api/users-web/{}", w.member_id), &w.token)
        .await
        .json()["subscription"]
        .clone();
    assert_eq!(subscription["card"]["last_digits"], "4242");
    // The retry is queued now, not in three days.
    let queued: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM apalis.jobs WHERE job_type = 'subscriptions.charge'",
    )
    .fetch_one(&w.db)
    .await
    .expect("present");
    assert_eq!(queued, 1);
}

/// A type 21 activity with a monthly recurrence and a product of R$ 30,00 less R$ 5,00.
async fn book_club(w: &World, stock: i32) -> (i64, i64, i64) {
    let action_id = build::activity(w.station_id)
        .type_id(21)
        .name("Clube do livro")
        .insert(&w.db)
        .await;
    let recurrence: i64 = sqlx::query_scalar(
        "INSERT INTO action_subscriptions (station_id, action_id, recurrence, description)
         VALUES ($1, $2, 'monthly', 'Um livro por mês') RETURNING id",
    )
    .bind(w.station_id)
    .bind(action_id)
    .fetch_one(&w.db)
    .await
    .expect("present");
    let product_id = build::product(w.station_id, action_id)
        .name("Livro do mês")
        .value(3_000)
        .discount(500)
        .stock(stock)
        .insert(&w.db)
        .await;
    (action_id, recurrence, product_id)
}

fn product_form(action_id: i64, recurrence: i64, products: Value) -> Value {
    let mut form = new_card(APPROVES);
    form["action_id"] = json!(action_id);
    form["action_subscription_id"] = json!(recurrence);
    form["products"] = products;
    form
}

#[testkit::db_test]
async fn a_type_21_product_is_subscribed_listed_and_cancelled(db: PgPool) {
    let w = world(db).await;
    let (action_id, recurrence, product_id) = book_club(&w, 10).await;
    let detail = get(&w, &format!("/api/actions/{action_id}/"), &w.token).await;
    assert_eq!(detail.status, StatusCode::OK, "{}", detail.text);
    assert_eq!(
        detail.json()["action_subscriptions"],
        json!([{ "id": recurrence, "recurrence": "monthly", "description": "Um livro por mês" }])
    );

    let none = post(
        &w,
        "/api/subscribe-product-action",
        &w.token,
        &product_form(
            action_id,
            recurrence,
            json!([{ "id": product_id, "quantity": 0 }]),
        ),
    )
    .await;
    assert_eq!(messages(&none), ["Produto não selecionado"]);

    let answer = post(
        &w,
        "/api/subscribe-product-action",
        &w.token,
        &product_form(
            action_id,
            recurrence,
            json!([{ "id": product_id, "quantity": 2 }]),
        ),
    )
    .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let subscribed = answer.json();
    assert_eq!(subscribed["action_id"], action_id);
    assert_eq!(subscribed["amount"], 5_000);
    assert_eq!(subscribed["status"], "active");
    assert_eq!(subscribed["action_subscription"]["recurrence"], "monthly");
    let id = subscribed["id"].as_i64().expect("present");

    let again = post(
        &w,
        "/api/subscribe-product-action",
        &w.token,
        &product_form(
            action_id,
            recurrence,
            json!([{ "id": product_id, "quantity": 1 }]),
        ),
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);

    let list = get(
        &w,
        &format!("/api/user-subscribed-action?where[action_id]={action_id}"),
        &w.token,
    )
    .await
    .json();
    assert_eq!(list.as_array().expect("present").len(), 1);
    let last = get(
        &w,
        &format!("/api/last-action-subscription?where[action_id]={action_id}"),
        &w.token,
    )
    .await
    .json();
    assert_eq!(last["id"], id);
    let theirs = get(
        &w,
        &format!("/api/last-action-subscription?where[action_id]={action_id}"),
        &w.other_token,
    )
    .await
    .json();
    assert_eq!(theirs, Value::Null);

    // The charges list names the activity and its recurrence.
    let charges = get(&w, "/api/subscriptions/", &w.token).await.json();
    assert_eq!(charges[0]["actionId"], action_id);
    assert_eq!(charges[0]["name"], "Clube do livro");
    assert_eq!(
        charges[0]["action_subscription"]["description"],
        "Um livro por mês"
    );
    assert_eq!(charges[0]["priceFormatted"], "R$ 50,00");

    let cancel_uri = format!("/api/cancel-user-subscribed-action/{id}");
    let refused = post(
        &w,
        &cancel_uri,
        &w.other_token,
        &json!({ "action_id": action_id }),
    )
    .await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    let wrong_action = post(
        &w,
        &cancel_uri,
        &w.token,
        &json!({ "action_id": action_id + 1 }),
    )
    .await;
    assert_eq!(wrong_action.status, StatusCode::NOT_FOUND);
    let cancelled = post(
        &w,
        &cancel_uri,
        &w.token,
        &json!({ "action_id": action_id }),
    )
    .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    assert_eq!(cancelled.json()["cancel_at_period_end"], true);
    assert_eq!(cancelled.json()["cancelled"], true);
}

#[testkit::db_test]
async fn an_unavailable_product_or_activity_is_refused(db: PgPool) {
    let w = world(db).await;
    let (action_id, recurrence, product_id) = book_club(&w, 1).await;
    const UNAVAILABLE: &str = "Produto indisponível para assinatura no momento.";
    let too_many = post(
        &w,
        "/api/subscribe-product-action",
        &w.token,
        &product_form(
            action_id,
            recurrence,
            json!([{ "id": product_id, "quantity": 2 }]),
        ),
    )
    .await;
    assert_eq!(messages(&too_many), [UNAVAILABLE]);
    sqlx::query("UPDATE products SET active = false WHERE id = $1")
        .bind(product_id)
        .execute(&w.db)
        .await
        .expect("present");
    let inactive = post(
        &w,
        "/api/subscribe-product-action",
        &w.token,
        &product_form(
            action_id,
            recurrence,
            json!([{ "id": product_id, "quantity": 1 }]),
        ),
    )
    .await;
    assert_eq!(messages(&inactive), [UNAVAILABLE]);
    let shop = build::activity(w.station_id).type_id(3).insert(&w.db).await;
    let other_product = build::product(w.station_id, shop).insert(&w.db).await;
    let not_21 = post(
        &w,
        "/api/subscribe-product-action",
        &w.token,
        &product_form(
            shop,
            recurrence,
            json!([{ "id": other_product, "quantity": 1 }]),
        ),
    )
    .await;
    assert_eq!(messages(&not_21), [UNAVAILABLE]);
    let subscriptions: i64 = sqlx::query_scalar("SELECT count(*) FROM subscriptions")
        .fetch_one(&w.db)
        .await
        .expect("present");
    assert_eq!(subscriptions, 0);
}

#[testkit::db_test]
async fn the_enterprise_form_mails_the_station(db: PgPool) {
    let w = world(db).await;
    let uri = "/api/subscription-plans/enterprise-contact";
    let empty = post(&w, uri, &w.token, &json!({ "message": "  " })).await;
    assert_eq!(messages(&empty), ["message: Esse campo é obrigatório"]);
    let long = post(&w, uri, &w.token, &json!({ "message": "a".repeat(601) })).await;
    assert_eq!(
        messages(&long),
        ["message: Esse campo deve possuir no máximo 600 caracteres"]
    );
    let answer = post(
        &w,
        uri,
        &w.token,
        &json!({ "message": "Queremos um plano para 40 pessoas.", "captcha": "ok" }),
    )
    .await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    let job: String = answer.json()["job_id"]
        .as_str()
        .expect("present")
        .to_string();
    let to: String = sqlx::query_scalar(
        "SELECT convert_from(job, 'UTF8')::jsonb -> 'args' -> 'mail' ->> 'to'
           FROM apalis.jobs WHERE id = $1",
    )
    .bind(&job)
    .fetch_one(&w.db)
    .await
    .expect("mail job");
    assert_eq!(to, "contato@clube.example.com");
    // Five a member per hour, refused ones included.
    let mut last = None;
    for _ in 0..3 {
        last = Some(
            post(
                &w,
                uri,
                &w.token,
                &json!({ "message": "Mais uma consulta." }),
            )
            .await,
        );
    }
    let last = last.expect("answer");
    assert_eq!(last.status, StatusCode::TOO_MANY_REQUESTS, "{}", last.text);
    assert!(last.headers.contains_key("retry-after"));
    // A station without a contact address cannot be asked.
    sqlx::query("UPDATE stations SET contact_mail = NULL WHERE id = $1")
        .bind(w.station_id)
        .execute(&w.db)
        .await
        .expect("no contact");
    let nobody = post(&w, uri, &w.other_token, &json!({ "message": "Olá" })).await;
    assert_eq!(
        messages(&nobody),
        ["Este clube não recebe consultas de planos no momento."]
    );
}

async fn staff(db: &PgPool, station_id: i64, email: &str, role: Role, scope: Scope) -> String {
    let id = build::member(station_id)
        .name("Equipe")
        .email(email)
        .staff()
        .insert(db)
        .await;
    domain::staff::set_grant(db, id, role, scope)
        .await
        .expect("grant");
    session_of(db, id).await
}

#[testkit::db_test]
async fn the_console_lists_retries_and_cancels_within_its_scope(db: PgPool) {
    let w = world(db).await;
    let bought = buy(&w, w.basic, APPROVES).await;
    let id = bought["id"].as_i64().expect("present");
    let support = staff(
        &w.db,
        w.station_id,
        "suporte@clube.example.com",
        Role::Support,
        Scope::Station(w.station_id),
    )
    .await;
    let viewer = staff(
        &w.db,
        w.station_id,
        "leitura@clube.example.com",
        Role::Viewer,
        Scope::Station(w.station_id),
    )
    .await;
    let elsewhere = insert_station(&w.db, "terceiro").await;
    let stranger = staff(
        &w.db,
        elsewhere,
        "fora@example.com",
        Role::Support,
        Scope::Station(elsewhere),
    )
    .await;

    let list = get(
        &w,
        &format!(
            "/api/ops/stations/{}/subscriptions?user_id={}",
            w.station_id, w.member_id
        ),
        &viewer,
    )
    .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let list = list.json();
    assert_eq!(list[0]["id"], id);
    assert_eq!(list[0]["periods"][0]["kind"], "first");
    assert_eq!(list[0]["periods"][0]["tries"][0]["status"], "paid");
    // What support reads: the plan by name, the card renewals charge, the provider's charge.
    assert_eq!(list[0]["name"], "Básico");
    assert_eq!(list[0]["product_name"], Value::Null);
    assert_eq!(list[0]["card_last_digits"], "0010");
    assert!(
        list[0]["periods"][0]["tries"][0]["gateway_charge_id"]
            .as_str()
            .is_some_and(|id| id.starts_with("ch_")),
        "{}",
        list[0]
    );
    let out_of_scope = get(
        &w,
        &format!("/api/ops/stations/{}/subscriptions", w.station_id),
        &stranger,
    )
    .await;
    assert_eq!(out_of_scope.status, StatusCode::NOT_FOUND);

    let retry = format!("/api/ops/subscriptions/{id}/retry");
    let cancel = format!("/api/ops/subscriptions/{id}/cancel");
    assert_eq!(
        post(&w, &retry, &viewer, &json!({})).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        post(&w, &cancel, &stranger, &json!({})).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        post(&w, &retry, &support, &json!({})).await.status,
        StatusCode::ACCEPTED
    );
    let cancelled = post(&w, &cancel, &support, &json!({})).await;
    assert_eq!(
        cancelled.status,
        StatusCode::NO_CONTENT,
        "{}",
        cancelled.text
    );
    assert_eq!(subscription_status(&w.db, id).await, "active");
    let at_end: bool =
        sqlx::query_scalar("SELECT cancel_at_period_end FROM subscriptions WHERE id = $1")
            .bind(id)
            .fetch_one(&w.db)
            .await
            .expect("present");
    assert!(at_end);
    let audited: Vec<String> =
        sqlx::query_scalar("SELECT action FROM staff_audit WHERE station_id = $1 ORDER BY id")
            .bind(w.station_id)
            .fetch_all(&w.db)
            .await
            .expect("present");
    assert_eq!(audited, ["subscription.retry", "subscription.cancel"]);
}

#[testkit::db_test]
async fn a_tokenised_card_buys_and_a_raw_number_is_refused_outside_the_sandbox(db: PgPool) {
    let w = world(db).await;
    let sandbox = common::sandbox(&w.db);
    let token = sandbox
        .tokenize_card(&payments::sandbox::CardDetails {
            number: APPROVES.into(),
            holder_name: "MARIA SOUZA".into(),
            expiry: "09/31".into(),
            cvv: "123".into(),
        })
        .await
        .expect("token");
    let mut form = with_plan(new_card(APPROVES), w.basic);
    let fields = form.as_object_mut().expect("form");
    fields.remove("card_number");
    fields.remove("card_cvv");
    fields.insert("card_token".into(), json!(token));
    let answer = post(&w, "/api/subscriptions", &w.token, &form).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    assert_eq!(answer.json()["card"]["last_digits"], "0010");

    let key = include_str!("../../../domain/tests/fixtures/pagarme_test_public.pem");
    let pagarme = common::app_with(
        w.db.clone(),
        &[
            ("FILIA_PAYMENTS", "pagarme"),
            ("FILIA_PAGARME_SECRET_KEY", "sk_test_x"),
            ("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY", key),
            ("FILIA_PAGARME_PUBLIC_KEY", "pk_test_x"),
        ],
    );
    let raw = send_json(
        &pagarme,
        "POST",
        "/api/subscriptions",
        Some(&w.other_token),
        &[],
        &with_plan(new_card(APPROVES), w.basic),
    )
    .await;
    assert_eq!(raw.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", raw.text);
    assert_eq!(
        messages(&raw),
        ["Os dados do cartão devem ser enviados pelo tokenizador do meio de pagamento."]
    );
}

#[testkit::db_test]
async fn a_member_of_another_station_reaches_none_of_these_subscriptions(db: PgPool) {
    let w = world(db).await;
    let bought = buy(&w, w.basic, APPROVES).await;
    let id = bought["id"].as_i64().expect("id");
    let (action_id, recurrence, product_id) = book_club(&w, 10).await;
    let product = post(
        &w,
        "/api/subscribe-product-action",
        &w.token,
        &product_form(
            action_id,
            recurrence,
            json!([{ "id": product_id, "quantity": 1 }]),
        ),
    )
    .await
    .json();
    let product_subscription = product["id"].as_i64().expect("id");

    let elsewhere = insert_station(&w.db, "vizinho").await;
    let stranger = insert_member(&w.db, elsewhere, "fora@example.com").await;
    let stranger = session_of(&w.db, stranger).await;
    let change = put(
        &w,
        &format!("/api/subscriptions/{id}"),
        &stranger,
        &json!({ "plan_id": w.premium }),
    )
    .await;
    assert_eq!(change.status, StatusCode::NOT_FOUND, "{}", change.text);
    let card = put(
        &w,
        &format!("/api/subscriptions/{id}/card"),
        &stranger,
        &new_card(APPROVES),
    )
    .await;
    assert_eq!(card.status, StatusCode::NOT_FOUND, "{}", card.text);
    let cancel = post(
        &w,
        &format!("/api/cancel-user-subscribed-action/{product_subscription}"),
        &stranger,
        &json!({}),
    )
    .await;
    assert_eq!(cancel.status, StatusCode::NOT_FOUND);
    // Nor this station's plans or type 21 activity: they are not theirs to buy.
    let plan = post(
        &w,
        "/api/subscriptions",
        &stranger,
        &with_plan(new_card(APPROVES), w.basic),
    )
    .await;
    assert_eq!(plan.status, StatusCode::NOT_FOUND, "{}", plan.text);
    let subscribe = post(
        &w,
        "/api/subscribe-product-action",
        &stranger,
        &product_form(
            action_id,
            recurrence,
            json!([{ "id": product_id, "quantity": 1 }]),
        ),
    )
    .await;
    assert_eq!(
        messages(&subscribe),
        ["Produto indisponível para assinatura no momento."]
    );
    let listed = get(&w, "/api/user-subscribed-action", &stranger)
        .await
        .json();
    assert_eq!(listed, json!([]));
    let plans = get(&w, "/api/subscription-plans", &stranger).await.json();
    assert_eq!(plans, json!([]));
    assert_eq!(subscription_status(&w.db, id).await, "active");
}

#[testkit::db_test]
async fn two_upgrades_at_once_charge_the_proration_once(db: PgPool) {
    let w = world(db).await;
    let bought = buy(&w, w.basic, APPROVES).await;
    let uri = format!("/api/subscriptions/{}", bought["id"]);
    let body = json!({ "plan_id": w.premium });
    let (a, b) = tokio::join!(
        put(&w, &uri, &w.token, &body),
        put(&w, &uri, &w.token, &body)
    );
    assert_eq!(
        (a.status, b.status),
        (StatusCode::OK, StatusCode::OK),
        "{} {}",
        a.text,
        b.text
    );
    let (prorations, paid_tries): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM subscription_periods WHERE kind = 'proration'),
                (SELECT count(*) FROM subscription_charges c
                   JOIN subscription_periods p ON p.id = c.period_id
                  WHERE p.kind = 'proration' AND c.status = 'paid')",
    )
    .fetch_one(&w.db)
    .await
    .expect("counts");
    assert_eq!((prorations, paid_tries), (1, 1));
}

#[testkit::db_test]
async fn every_routes_refusals_are_the_ones_its_contract_lists(db: PgPool) {
    let w = world(db).await;
    let bought = buy(&w, w.basic, APPROVES).await;
    let id = bought["id"].as_i64().expect("id");
    let cases: Vec<(&str, String, Option<Value>, &str)> = vec![
        (
            "get",
            "/api/subscription-plans/999999".into(),
            None,
            "/api/subscription-plans/{id}",
        ),
        (
            "get",
            "/api/subscription-plans/abc".into(),
            None,
            "/api/subscription-plans/{id}",
        ),
        (
            "post",
            "/api/subscriptions".into(),
            Some(json!({ "plan_id": w.premium })),
            "/api/subscriptions",
        ),
        (
            "put",
            format!("/api/subscriptions/{id}"),
            Some(json!({ "plan_id": w.basic })),
            "/api/subscriptions/{id}",
        ),
        (
            "put",
            "/api/subscriptions/999999".into(),
            Some(json!({ "plan_id": w.basic })),
            "/api/subscriptions/{id}",
        ),
        (
            "post",
            "/api/subscriptions/cancel".into(),
            Some(json!({})),
            "/api/subscriptions/cancel",
        ),
        (
            "put",
            format!("/api/subscriptions/{id}/card"),
            Some(json!({})),
            "/api/subscriptions/{id}/card",
        ),
        (
            "put",
            "/api/subscriptions/999999/card".into(),
            Some(json!({ "selected_card": 1 })),
            "/api/subscriptions/{id}/card",
        ),
        (
            "get",
            format!("/api/subscriptions/?where[user_id]={}", w.member_id + 1),
            None,
            "/api/subscriptions/",
        ),
        (
            "post",
            "/api/subscribe-product-action".into(),
            Some(json!({ "products": [] })),
            "/api/subscribe-product-action",
        ),
        (
            "get",
            "/api/last-action-subscription".into(),
            None,
            "/api/last-action-subscription",
        ),
        (
            "post",
            "/api/cancel-user-subscribed-action/999999".into(),
            Some(json!({})),
            "/api/cancel-user-subscribed-action/{id}",
        ),
        (
            "post",
            "/api/subscription-plans/enterprise-contact".into(),
            Some(json!({})),
            "/api/subscription-plans/enterprise-contact",
        ),
    ];
    for (method, uri, body, path) in cases {
        let answer = match body {
            Some(body) => {
                send_json(
                    &w.app,
                    &method.to_uppercase(),
                    &uri,
                    Some(&w.token),
                    &[],
                    &body,
                )
                .await
            }
            None => call(&w.app, &method.to_uppercase(), &uri, Some(&w.token), &[]).await,
        };
        assert!(
            answer.status.is_client_error(),
            "{method} {uri}: {}",
            answer.status
        );
        assert_eq!(
            common::off_contract(method, path, &answer),
            None,
            "{method} {uri}"
        );
    }
}

/// Posts every due sandbox webhook to the API, each `times` over (the provider delivering
/// an event again), then runs the `payment.sync` jobs they queued, as a worker would.
/// Answers how many jobs ran.
async fn deliver(w: &World, sandbox: &Sandbox, times: usize) -> usize {
    common::deliver_webhooks(&w.app, sandbox, times).await;
    common::run_jobs::<PaymentSync>(&w.db, "payment.sync", true)
        .await
        .len()
}

#[testkit::db_test]
async fn a_plan_charge_the_bank_takes_back_ends_the_plan_through_the_webhook(db: PgPool) {
    let w = world(db).await;
    let bought = buy(&w, w.premium, APPROVES).await;
    let id = bought["id"].as_i64().expect("id");
    let charge: String = sqlx::query_scalar(
        "SELECT c.gateway_charge_id FROM subscription_charges c
           JOIN subscription_periods p ON p.id = c.period_id
          WHERE p.subscription_id = $1 AND c.status = 'paid'",
    )
    .bind(id)
    .fetch_one(&w.db)
    .await
    .expect("the paid charge");
    let sandbox = common::sandbox(&w.db);
    deliver(&w, &sandbox, 1).await;
    assert_eq!(subscription_status(&w.db, id).await, "active");

    sandbox.chargeback(&charge).await.expect("chargeback");
    // The provider delivers the event three times: one sync, one end.
    assert_eq!(deliver(&w, &sandbox, 3).await, 1);
    assert_eq!(subscription_status(&w.db, id).await, "ended");
    let user = get(&w, &format!("/api/users-web/{}", w.member_id), &w.token)
        .await
        .json();
    assert_eq!(user["subscription"], Value::Null, "{user}");
    let charges = get(
        &w,
        &format!("/api/subscriptions/?where[user_id]={}", w.member_id),
        &w.token,
    )
    .await
    .json();
    assert_eq!(charges[0]["cancelled"], true, "{charges}");
    // 'Cobranças' shows the period's charge disputed, not paid.
    assert_eq!(
        (
            &charges[0]["status"],
            &charges[0]["taken_back"],
            &charges[0]["paidFormatted"]
        ),
        (
            &json!("Contestado"),
            &json!("chargedback"),
            &json!("R$ 0,00")
        ),
        "{charges}"
    );
    let ended: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM apalis.jobs
          WHERE job_type = 'mail.send'
            AND convert_from(job, 'UTF8')::jsonb -> 'args' -> 'mail' ->> 'subject' = $1",
    )
    .bind(domain::subscriptions::mail::ENDED_SUBJECT)
    .fetch_one(&w.db)
    .await
    .expect("mails");
    assert_eq!(ended, 1);
    // The plan can be bought again.
    let again = buy(&w, w.basic, APPROVES).await;
    assert_eq!(again["status"], "active");
}

#[testkit::db_test]
async fn a_period_the_bank_refunds_reads_refunded_in_the_members_charges(db: PgPool) {
    let w = world(db).await;
    let bought = buy(&w, w.premium, APPROVES).await;
    let id = bought["id"].as_i64().expect("id");
    let (charge, amount): (String, i64) = sqlx::query_as(
        "SELECT c.gateway_charge_id, c.amount FROM subscription_charges c
           JOIN subscription_periods p ON p.id = c.period_id
          WHERE p.subscription_id = $1 AND c.status = 'paid'",
    )
    .bind(id)
    .fetch_one(&w.db)
    .await
    .expect("the paid charge");
    let sandbox = common::sandbox(&w.db);
    deliver(&w, &sandbox, 1).await;
    let before = member_charges(&w).await;
    assert_eq!(
        (&before[0]["status"], &before[0]["taken_back"]),
        (&json!("Pago"), &Value::Null),
        "{before}"
    );

    // A part given back: 'Parcialmente estornado', what the member kept paid.
    sandbox
        .bank_refund(&charge, Some(1000))
        .await
        .expect("partial");
    deliver(&w, &sandbox, 2).await;
    let partial = member_charges(&w).await;
    assert_eq!(
        (
            &partial[0]["status"],
            &partial[0]["taken_back"],
            &partial[0]["paid"],
            &partial[0]["cancelled"]
        ),
        (
            &json!("Parcialmente estornado"),
            &json!("partially_refunded"),
            &json!(true),
            &json!(false)
        ),
        "{partial}"
    );
    assert_eq!(
        partial[0]["paidFormatted"],
        domain::shared::money::format_brl(amount - 1000)
    );

    // The rest: 'Estornado', nothing paid, the subscription ended.
    sandbox.bank_refund(&charge, None).await.expect("rest");
    deliver(&w, &sandbox, 1).await;
    let whole = member_charges(&w).await;
    assert_eq!(
        (
            &whole[0]["status"],
            &whole[0]["taken_back"],
            &whole[0]["paidFormatted"],
            &whole[0]["cancelled"]
        ),
        (
            &json!("Estornado"),
            &json!("refunded"),
            &json!("R$ 0,00"),
            &json!(true)
        ),
        "{whole}"
    );
    assert_eq!(subscription_status(&w.db, id).await, "ended");
    // Another member reads none of it.
    let other = get(
        &w,
        &format!("/api/subscriptions/?where[user_id]={}", w.member_id),
        &w.other_token,
    )
    .await;
    assert_ne!(other.status, StatusCode::OK, "{}", other.text);
}

async fn member_charges(w: &World) -> Value {
    let uri = format!("/api/subscriptions/?where[user_id]={}", w.member_id);
    get(w, &uri, &w.token).await.json()
}
