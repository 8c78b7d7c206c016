//! The fuel campaign over HTTP against the real database: `GET /fuel-campaigns` answers
//! the caller's station's open campaigns, `POST /fuel-campaigns` takes a voucher (one per
//! member and campaign, within the window and the budget, even under simultaneous
//! requests) and `GET /fuel-campaigns/{id}` answers the caller's own vouchers; another
//! member's and another station's are never reached, and a station without the campaign
//! answers none of it.

use crate::common::{
    self, Answer, call, insert_member, insert_station, off_contract, send_json, session_of,
};
use axum::Router;
use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};
use domain::fuel::campaigns::{self, NewCampaign};
use rust_decimal::Decimal;
use serde_json::{Value, json};
use sqlx::PgPool;
use tokio::task::JoinSet;

const FORBIDDEN: &str = "Você não possui autorização para acessar esta página.";
const UNAVAILABLE: &str = "Campanha de combustível não disponível.";
const NOT_FOUND: &str = "Campanha não encontrada.";
const CLOSED: &str = "Esta campanha não está aberta para novos vouchers.";
const SOLD_OUT: &str = "Os vouchers desta campanha se esgotaram.";
const ALREADY_TAKEN: &str = "Você já possui um voucher desta campanha.";
const LIST: &str = "/api/fuel-campaigns";
const MINE: &str = "/api/fuel-campaigns/{id}";

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    member_id: i64,
    token: String,
}

async fn world(db: PgPool) -> World {
    let station_id = insert_station(&db, "posto").await;
    set_offered(&db, station_id, true).await;
    let member_id = insert_member(&db, station_id, "maria@example.com").await;
    let token = session_of(&db, member_id).await;
    World {
        app: common::app(db.clone()),
        db,
        station_id,
        member_id,
        token,
    }
}

async fn set_offered(db: &PgPool, station_id: i64, on: bool) {
    sqlx::query("UPDATE stations SET fuel_campaign_access = $2 WHERE id = $1")
        .bind(station_id)
        .bind(on)
        .execute(db)
        .await
        .expect("flag");
}

/// A published campaign of `station_id` open from yesterday for a month: 20 litres of
/// gasoline worth R$ 119,80, valid 30 days, 100 vouchers; `change` adjusts it.
async fn campaign(
    db: &PgPool,
    station_id: i64,
    name: &str,
    change: impl FnOnce(&mut NewCampaign),
) -> i64 {
    let now = Utc::now();
    let mut campaign = NewCampaign {
        station_id,
        name: name.into(),
        description: format!("Sobre {name}"),
        image_key: Some(format!("demo/fuel/{name}.png")),
        voucher_type: "Gasolina comum".into(),
        litres: Decimal::new(2_000, 2),
        value_cents: 11_980,
        valid_days: 30,
        starts_at: now - Duration::days(1),
        ends_at: now + Duration::days(30),
        voucher_budget: 100,
        published: true,
    };
    change(&mut campaign);
    campaigns::create(db, &campaign).await.expect("campaign")
}

impl World {
    async fn list(&self) -> Answer {
        call(&self.app, "GET", LIST, Some(&self.token), &[]).await
    }

    async fn vouchers_of(&self, user_id: i64) -> Answer {
        let uri = format!("{LIST}/{user_id}");
        call(&self.app, "GET", &uri, Some(&self.token), &[]).await
    }

    async fn take(&self, body: Value) -> Answer {
        take_as(&self.app, &self.token, body).await
    }

    async fn member(&self, email: &str) -> (i64, String) {
        let id = insert_member(&self.db, self.station_id, email).await;
        (id, session_of(&self.db, id).await)
    }
}

async fn take_as(app: &Router, token: &str, body: Value) -> Answer {
    send_json(app, "POST", LIST, Some(token), &[], &body).await
}

/// A refusal as its contract gives it, with its status and text.
fn refused(method: &str, path: &str, answer: &Answer, status: StatusCode, text: &str) {
    assert_eq!(answer.status, status, "{}", answer.text);
    assert_eq!(off_contract(method, path, answer), None);
    let body = answer.json();
    let found = body["error"]
        .as_str()
        .map(String::from)
        .or_else(|| body["messages"][0].as_str().map(String::from));
    assert_eq!(found.as_deref(), Some(text), "{body}");
}

fn names(answer: &Answer) -> Vec<String> {
    answer
        .json()
        .as_array()
        .expect("a list")
        .iter()
        .map(|campaign| campaign["nomeCampanha"].as_str().expect("name").to_string())
        .collect()
}

async fn issued(db: &PgPool, campaign_id: i64) -> (i32, i64) {
    sqlx::query_as(
        "SELECT c.vouchers_issued, (SELECT count(*) FROM fuel_vouchers v WHERE v.campaign_id = c.id)
           FROM fuel_campaigns c WHERE c.id = $1",
    )
    .bind(campaign_id)
    .fetch_one(db)
    .await
    .expect("counts")
}

fn instant(value: &Value) -> DateTime<Utc> {
    value
        .as_str()
        .and_then(|text| DateTime::parse_from_rfc3339(text).ok())
        .map(|at| at.with_timezone(&Utc))
        .unwrap_or_else(|| panic!("an instant: {value}"))
}

#[testkit::db_test]
async fn the_list_holds_the_stations_open_campaigns_with_whether_the_member_has_one(db: PgPool) {
    let w = world(db).await;
    let now = Utc::now();
    let open = campaign(&w.db, w.station_id, "Gasolina do associado", |c| {
        c.ends_at = now + Duration::days(40);
    })
    .await;
    campaign(&w.db, w.station_id, "Etanol", |c| {
        c.voucher_type = "Etanol".into();
        c.ends_at = now + Duration::days(10);
    })
    .await;
    campaign(&w.db, w.station_id, "Rascunho", |c| c.published = false).await;
    campaign(&w.db, w.station_id, "Futura", |c| {
        c.starts_at = now + Duration::days(1);
    })
    .await;
    campaign(&w.db, w.station_id, "Encerrada", |c| {
        c.starts_at = now - Duration::days(10);
        c.ends_at = now - Duration::minutes(1);
    })
    .await;
    let spent = campaign(&w.db, w.station_id, "Esgotada", |c| c.voucher_budget = 1).await;
    let other_station = insert_station(&w.db, "vizinho").await;
    set_offered(&w.db, other_station, true).await;
    campaign(&w.db, other_station, "Do vizinho", |_| ()).await;

    // Another member takes the spent campaign's only voucher: it leaves the list.
    let (_, other_token) = w.member("joao@example.com").await;
    let taken = take_as(&w.app, &other_token, json!({ "fuel_id": spent })).await;
    assert_eq!(taken.status, StatusCode::CREATED, "{}", taken.text);

    let answer = w.list().await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(names(&answer), ["Etanol", "Gasolina do associado"]);
    let first = &answer.json()[1];
    assert_eq!(first["id"], open);
    assert_eq!(first["descricao"], "Sobre Gasolina do associado");
    assert_eq!(
        first["imagem"],
        "/api/media/demo/fuel/Gasolina do associado.png"
    );
    assert_eq!(first["tipoVoucher"], "Gasolina comum");
    assert_eq!(first["volume"], 20.0);
    assert_eq!(first["valorVoucher"], 11_980);
    assert_eq!(first["diasValidade"], 30);
    assert_eq!(first["possuiVoucher"], false);

    let mine = w
        .take(json!({ "fuel_id": open, "user_id": w.member_id }))
        .await;
    assert_eq!(mine.status, StatusCode::CREATED, "{}", mine.text);
    let after = w.list().await.json();
    assert_eq!(after[1]["possuiVoucher"], true);
    assert_eq!(after[0]["possuiVoucher"], false);

    // The member who holds the spent campaign's voucher still sees it.
    let theirs = call(&w.app, "GET", LIST, Some(&other_token), &[]).await;
    assert_eq!(
        names(&theirs),
        ["Etanol", "Esgotada", "Gasolina do associado"]
    );

    let anonymous = call(&w.app, "GET", LIST, None, &[]).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn a_member_takes_a_voucher_with_its_code_litres_value_and_validity(db: PgPool) {
    let w = world(db).await;
    let id = campaign(&w.db, w.station_id, "Gasolina do associado", |c| {
        c.valid_days = 15;
    })
    .await;
    let before = Utc::now();
    let answer = w
        .take(json!({ "fuel_id": id, "user_id": w.member_id }))
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let voucher = answer.json();
    assert_eq!(voucher["fuel_id"], id);
    assert_eq!(voucher["nomeCampanha"], "Gasolina do associado");
    assert_eq!(voucher["tipoVoucher"], "Gasolina comum");
    assert_eq!(voucher["volume"], 20.0);
    assert_eq!(voucher["valorVoucher"], 11_980);
    assert_eq!(voucher["status"], "issued");
    let code = voucher["codigo"].as_str().expect("code");
    assert_eq!(code.len(), 14, "{code}");
    assert_eq!(code.matches('-').count(), 2, "{code}");
    let issued_at = instant(&voucher["dataEmissao"]);
    assert!(issued_at >= before - Duration::seconds(1) && issued_at <= Utc::now());
    assert_eq!(
        instant(&voucher["dataValidade"]),
        issued_at + Duration::days(15)
    );
    assert_eq!(issued(&w.db, id).await, (1, 1));

    // The campaign changed later changes no voucher taken.
    sqlx::query("UPDATE fuel_campaigns SET litres = 30, value_cents = 1 WHERE id = $1")
        .bind(id)
        .execute(&w.db)
        .await
        .expect("edit");
    let mine = w.vouchers_of(w.member_id).await;
    assert_eq!(mine.status, StatusCode::OK, "{}", mine.text);
    let list = mine.json();
    assert_eq!(list.as_array().map(Vec::len), Some(1));
    assert_eq!(list[0]["codigo"], code);
    assert_eq!(list[0]["volume"], 20.0);
    assert_eq!(list[0]["valorVoucher"], 11_980);

    // Once per member and campaign.
    let again = w.take(json!({ "fuel_id": id })).await;
    refused(
        "post",
        "/api/fuel-campaigns",
        &again,
        StatusCode::CONFLICT,
        ALREADY_TAKEN,
    );
    assert_eq!(issued(&w.db, id).await, (1, 1));
}

#[testkit::db_test]
async fn a_voucher_past_its_validity_reads_expired(db: PgPool) {
    let w = world(db).await;
    let id = campaign(&w.db, w.station_id, "Etanol", |_| ()).await;
    let taken = w.take(json!({ "fuel_id": id })).await;
    assert_eq!(taken.status, StatusCode::CREATED, "{}", taken.text);
    sqlx::query(
        "UPDATE fuel_vouchers SET issued_at = now() - interval '31 days',
                                  valid_until = now() - interval '1 day'",
    )
    .execute(&w.db)
    .await
    .expect("age");
    let list = w.vouchers_of(w.member_id).await.json();
    assert_eq!(list[0]["status"], "expired");
}

#[testkit::db_test]
async fn another_members_vouchers_are_refused(db: PgPool) {
    let w = world(db).await;
    let id = campaign(&w.db, w.station_id, "Gasolina do associado", |_| ()).await;
    let (other_id, other_token) = w.member("joao@example.com").await;
    let theirs = take_as(&w.app, &other_token, json!({ "fuel_id": id })).await;
    assert_eq!(theirs.status, StatusCode::CREATED, "{}", theirs.text);

    let read = w.vouchers_of(other_id).await;
    refused("get", MINE, &read, StatusCode::FORBIDDEN, FORBIDDEN);
    let for_them = w.take(json!({ "fuel_id": id, "user_id": other_id })).await;
    refused(
        "post",
        "/api/fuel-campaigns",
        &for_them,
        StatusCode::FORBIDDEN,
        FORBIDDEN,
    );
    assert_eq!(issued(&w.db, id).await, (1, 1));

    // The member's own list holds none of the other member's.
    let mine = w.vouchers_of(w.member_id).await;
    assert_eq!(mine.status, StatusCode::OK);
    assert_eq!(mine.json(), json!([]));

    let not_a_number = call(&w.app, "GET", &format!("{LIST}/abc"), Some(&w.token), &[]).await;
    assert_eq!(not_a_number.status, StatusCode::BAD_REQUEST);
    assert_eq!(off_contract("get", MINE, &not_a_number), None);
}

#[testkit::db_test]
async fn campaigns_not_open_to_the_member_are_refused(db: PgPool) {
    let w = world(db).await;
    let now = Utc::now();
    let other_station = insert_station(&w.db, "vizinho").await;
    set_offered(&w.db, other_station, true).await;
    let theirs = campaign(&w.db, other_station, "Do vizinho", |_| ()).await;
    let draft = campaign(&w.db, w.station_id, "Rascunho", |c| c.published = false).await;
    let future = campaign(&w.db, w.station_id, "Futura", |c| {
        c.starts_at = now + Duration::days(1);
    })
    .await;
    let ended = campaign(&w.db, w.station_id, "Encerrada", |c| {
        c.starts_at = now - Duration::days(10);
        c.ends_at = now - Duration::minutes(1);
    })
    .await;
    let spent = campaign(&w.db, w.station_id, "Esgotada", |c| c.voucher_budget = 1).await;
    let (_, other_token) = w.member("joao@example.com").await;
    let first = take_as(&w.app, &other_token, json!({ "fuel_id": spent })).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);

    let path = "/api/fuel-campaigns";
    for (id, status, text) in [
        (theirs, StatusCode::NOT_FOUND, NOT_FOUND),
        (draft, StatusCode::NOT_FOUND, NOT_FOUND),
        (999_999, StatusCode::NOT_FOUND, NOT_FOUND),
        (future, StatusCode::CONFLICT, CLOSED),
        (ended, StatusCode::CONFLICT, CLOSED),
        (spent, StatusCode::CONFLICT, SOLD_OUT),
    ] {
        let answer = w.take(json!({ "fuel_id": id })).await;
        refused("post", path, &answer, status, text);
    }
    for id in [theirs, draft, future, ended] {
        assert_eq!(issued(&w.db, id).await, (0, 0));
    }
    assert_eq!(issued(&w.db, spent).await, (1, 1));
}

#[testkit::db_test]
async fn a_station_without_the_campaign_answers_none_of_it(db: PgPool) {
    let w = world(db).await;
    let id = campaign(&w.db, w.station_id, "Gasolina do associado", |_| ()).await;
    set_offered(&w.db, w.station_id, false).await;

    refused(
        "get",
        "/api/fuel-campaigns",
        &w.list().await,
        StatusCode::NOT_FOUND,
        UNAVAILABLE,
    );
    let mine = w.vouchers_of(w.member_id).await;
    refused("get", MINE, &mine, StatusCode::NOT_FOUND, UNAVAILABLE);
    let take = w.take(json!({ "fuel_id": id })).await;
    refused(
        "post",
        "/api/fuel-campaigns",
        &take,
        StatusCode::NOT_FOUND,
        UNAVAILABLE,
    );
    assert_eq!(issued(&w.db, id).await, (0, 0));
}

#[testkit::db_test]
async fn bad_forms_are_refused_in_portuguese(db: PgPool) {
    let w = world(db).await;
    let path = "/api/fuel-campaigns";
    let cases = [
        (json!({}), "fuel_id: Esse campo é obrigatório"),
        (
            json!({ "fuel_id": null, "user_id": w.member_id }),
            "fuel_id: Esse campo é obrigatório",
        ),
        (
            json!({ "fuel_id": "abc" }),
            "O campo \"fuel_id\" tem um valor inválido",
        ),
        (
            json!({ "fuel_id": 1.5 }),
            "O campo \"fuel_id\" tem um valor inválido",
        ),
        (
            json!({ "fuel_id": 1, "user_id": "eu" }),
            "O campo \"user_id\" tem um valor inválido",
        ),
    ];
    for (body, text) in cases {
        let answer = w.take(body).await;
        refused(
            "post",
            path,
            &answer,
            StatusCode::UNPROCESSABLE_ENTITY,
            text,
        );
    }
    let anonymous = send_json(&w.app, "POST", LIST, None, &[], &json!({ "fuel_id": 1 })).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn simultaneous_takes_by_one_member_make_one_voucher(db: PgPool) {
    let w = world(db).await;
    let id = campaign(&w.db, w.station_id, "Gasolina do associado", |_| ()).await;
    let mut requests = JoinSet::new();
    for _ in 0..8 {
        let app = w.app.clone();
        let token = w.token.clone();
        requests.spawn(async move { take_as(&app, &token, json!({ "fuel_id": id })).await });
    }
    let mut answers = Vec::new();
    while let Some(done) = requests.join_next().await {
        answers.push(done.expect("request"));
    }
    let created = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .count();
    assert_eq!(created, 1, "{answers:?}");
    for answer in answers.iter().filter(|a| a.status != StatusCode::CREATED) {
        refused(
            "post",
            "/api/fuel-campaigns",
            answer,
            StatusCode::CONFLICT,
            ALREADY_TAKEN,
        );
    }
    assert_eq!(issued(&w.db, id).await, (1, 1));
}

#[testkit::db_test]
async fn simultaneous_takes_by_many_members_never_pass_the_budget(db: PgPool) {
    let w = world(db).await;
    let id = campaign(&w.db, w.station_id, "Gasolina do associado", |c| {
        c.voucher_budget = 3;
    })
    .await;
    let mut tokens = Vec::new();
    for n in 0..8 {
        tokens.push(w.member(&format!("membro{n}@example.com")).await.1);
    }
    let mut requests = JoinSet::new();
    for token in tokens {
        let app = w.app.clone();
        requests.spawn(async move { take_as(&app, &token, json!({ "fuel_id": id })).await });
    }
    let mut answers = Vec::new();
    while let Some(done) = requests.join_next().await {
        answers.push(done.expect("request"));
    }
    let created = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .count();
    assert_eq!(created, 3, "{answers:?}");
    for answer in answers.iter().filter(|a| a.status != StatusCode::CREATED) {
        refused(
            "post",
            "/api/fuel-campaigns",
            answer,
            StatusCode::CONFLICT,
            SOLD_OUT,
        );
    }
    assert_eq!(issued(&w.db, id).await, (3, 3));
}

#[testkit::db_test]
async fn takes_are_throttled_per_member(db: PgPool) {
    let w = world(db).await;
    let id = campaign(&w.db, w.station_id, "Gasolina do associado", |_| ()).await;
    // Every attempt counts, refused or not.
    for _ in 0..10 {
        let answer = w.take(json!({ "fuel_id": 999_999 })).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
    }
    let throttled = w.take(json!({ "fuel_id": id })).await;
    refused(
        "post",
        "/api/fuel-campaigns",
        &throttled,
        StatusCode::TOO_MANY_REQUESTS,
        "Muitas solicitações de voucher em pouco tempo. Aguarde alguns minutos e tente novamente.",
    );
    assert!(throttled.headers.contains_key("retry-after"));
    assert_eq!(issued(&w.db, id).await, (0, 0));

    // Another member is counted apart.
    let (_, other_token) = w.member("joao@example.com").await;
    let theirs = take_as(&w.app, &other_token, json!({ "fuel_id": id })).await;
    assert_eq!(theirs.status, StatusCode::CREATED, "{}", theirs.text);
}
