//! `POST /user-donates` (type 20) over HTTP against the real database: the donation is a
//! participation and a wallet spend, once; the spec's bounds; the balance never goes below
//! zero however many donations arrive at once; other stations' and other types' activities
//! are unavailable.

use crate::common;
use crate::common::{insert_member, insert_station, send_json, session_of};
use axum::Router;
use axum::http::StatusCode;
use chrono::{Duration, Utc};
use domain::activities::ActivityType;
use domain::activities::catalogue::{self, NewActivity};
use domain::shared::ids::{StationId, UserId};
use domain::wallet::ledger::{self, Credit, SourceKind};
use serde_json::{Value, json};
use sqlx::PgPool;

const UNAVAILABLE: &str = "Erro! Esta atividade não está disponível.";

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    member_id: i64,
    token: String,
    cause: i64,
}

/// A published donation activity of `station_id`, open now, changed by `edit`.
async fn activity(db: &PgPool, station_id: i64, edit: impl FnOnce(&mut NewActivity)) -> i64 {
    let mut new = NewActivity {
        station_id,
        type_id: ActivityType::Donation,
        name: "Campanha do agasalho".into(),
        points: 2,
        participation_start: Some(Utc::now() - Duration::days(1)),
        participation_end: Some(Utc::now() + Duration::days(1)),
        active: true,
        ..NewActivity::default()
    };
    edit(&mut new);
    catalogue::create(db, &new).await.expect("activity")
}

/// A member of a new station with R$ `balance_cents / 100` in the wallet, and a cause.
async fn world(db: PgPool, balance_cents: i64) -> World {
    let station_id = insert_station(&db, "clube").await;
    let member_id = insert_member(&db, station_id, "maria@example.com").await;
    let token = session_of(&db, member_id).await;
    let mut tx = db.begin().await.expect("tx");
    ledger::credit(
        &mut tx,
        &Credit {
            user_id: UserId(member_id),
            station_id: StationId(station_id),
            source_kind: SourceKind::Adjustment,
            source_id: "saldo".into(),
            rule: "adjustment".into(),
            amount: balance_cents,
            description: "Saldo".into(),
            action_id: None,
        },
        None,
    )
    .await
    .expect("balance");
    tx.commit().await.expect("commit");
    let cause = activity(&db, station_id, |_| {}).await;
    World {
        app: common::app(db.clone()),
        db,
        station_id,
        member_id,
        token,
        cause,
    }
}

impl World {
    async fn donate(&self, action_id: i64, points: Value) -> common::Answer {
        self.donate_as(&self.token, action_id, points).await
    }

    async fn donate_as(&self, token: &str, action_id: i64, points: Value) -> common::Answer {
        send_json(
            &self.app,
            "POST",
            "/api/user-donates",
            Some(token),
            &[],
            &json!({ "action_id": action_id, "points": points }),
        )
        .await
    }

    async fn balance(&self) -> i64 {
        ledger::balance(&self.db, self.member_id)
            .await
            .expect("balance")
            .balance
    }

    async fn count(&self, sql: &str) -> i64 {
        sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
            .bind(self.member_id)
            .fetch_one(&self.db)
            .await
            .expect("count")
    }
}

const PARTICIPATIONS: &str = "SELECT count(*) FROM participations WHERE user_id = $1";
const CREDIT_JOBS: &str = "SELECT count(*) FROM apalis.jobs WHERE job_type = 'points.credit' AND (convert_from(job, 'UTF8')::jsonb -> 'args' ->> 'user_id')::bigint = $1";
const DONATED: &str = "SELECT coalesce(sum(amount), 0)::bigint FROM spends WHERE user_id = $1 AND source_kind = 'donation'";

#[testkit::db_test]
async fn a_donation_spends_the_wallet_and_is_the_participation(db: PgPool) {
    let world = world(db, 10_000).await;
    let answer = world.donate(world.cause, json!(25.5)).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let body = answer.json();
    assert_eq!(body["amount"], 2550);
    assert_eq!(body["points"], 2);
    assert!(
        body["job_id"].is_string(),
        "the activity's points are queued"
    );
    assert_eq!(world.balance().await, 10_000 - 2550);
    assert_eq!(world.count(PARTICIPATIONS).await, 1);
    assert_eq!(world.count(DONATED).await, 2550);
    // The spend is the participation's: keyed by it, described by the cause.
    let (source, description): (String, String) =
        sqlx::query_as("SELECT source_id, description FROM spends WHERE user_id = $1")
            .bind(world.member_id)
            .fetch_one(&world.db)
            .await
            .expect("spend");
    assert_eq!(
        source,
        format!("participation:{}", body["participation_id"])
    );
    assert_eq!(description, "Doação: Campanha do agasalho");
    // A decimal text is read the same way.
    let text = world.donate(world.cause, json!("0,50")).await;
    assert_eq!(text.status, StatusCode::CREATED, "{}", text.text);
    assert_eq!(text.json()["amount"], 50);
    // Without a limit the cause pays its points once: R$ 0,50 again and again earns
    // nothing more (2 points for each R$ 0,50 would mint money).
    assert_eq!(text.json()["job_id"], Value::Null);
    assert_eq!(world.count(CREDIT_JOBS).await, 1);
}

#[testkit::db_test]
async fn amounts_outside_the_bounds_or_the_balance_are_refused_and_nothing_changes(db: PgPool) {
    let world = world(db, 2_000_000).await;
    for (points, message) in [
        (json!(0.49), "Valor mínimo requerido de R$ 0,50"),
        (json!(0), "Valor mínimo requerido de R$ 0,50"),
        (json!(10000.01), "Valor máximo permitido de R$ 10.000,00."),
        (json!(-5), "Informe o valor da doação."),
        (json!(1.005), "Informe o valor da doação."),
        (json!("abc"), "Informe o valor da doação."),
        (Value::Null, "Informe o valor da doação."),
    ] {
        let answer = world.donate(world.cause, points.clone()).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{points}: {}",
            answer.text
        );
        assert_eq!(answer.json()["messages"], json!([message]), "{points}");
    }
    assert_eq!(
        world.donate(world.cause, json!(10000)).await.status,
        StatusCode::CREATED
    );
    // R$ 10.000,00 left: one more of that passes, then the wallet is short.
    assert_eq!(
        world.donate(world.cause, json!(10000)).await.status,
        StatusCode::CREATED
    );
    let short = world.donate(world.cause, json!(0.5)).await;
    assert_eq!(short.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        short.json()["messages"],
        json!(["Saldo insuficiente para esta doação."])
    );
    // The refused donation left no participation behind.
    assert_eq!(world.count(PARTICIPATIONS).await, 2);
    assert_eq!(world.balance().await, 0);
}

#[testkit::db_test]
async fn only_the_callers_stations_open_donation_activities_take_donations(db: PgPool) {
    let world = world(db, 10_000).await;
    let elsewhere = insert_station(&world.db, "longe").await;
    let foreign = activity(&world.db, elsewhere, |_| {}).await;
    let not_a_donation = activity(&world.db, world.station_id, |a| {
        a.type_id = ActivityType::RawContent
    })
    .await;
    let closed = activity(&world.db, world.station_id, |a| {
        a.participation_end = Some(Utc::now() - Duration::hours(1));
    })
    .await;
    let once = activity(&world.db, world.station_id, |a| a.limit_per_user = Some(1)).await;
    for action in [foreign, not_a_donation, 999_999] {
        let answer = world.donate(action, json!(5)).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{action}");
        assert_eq!(answer.json()["error"], UNAVAILABLE);
    }
    let late = world.donate(closed, json!(5)).await;
    assert_eq!(late.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        late.json()["messages"][0]
            .as_str()
            .is_some_and(|text| text.starts_with("Esta atividade está disponível de")),
        "{}",
        late.text
    );
    assert_eq!(
        world.donate(once, json!(5)).await.status,
        StatusCode::CREATED
    );
    let again = world.donate(once, json!(5)).await;
    assert_eq!(
        again.json()["messages"],
        json!(["Olá, você já ultrapassou o limite de participações nessa atividade!"])
    );
    assert_eq!(world.balance().await, 10_000 - 500);
    let visitor = send_json(
        &world.app,
        "POST",
        "/api/user-donates",
        None,
        &[],
        &json!({ "action_id": world.cause, "points": 5 }),
    )
    .await;
    assert_eq!(visitor.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn donations_at_once_never_spend_more_than_the_wallet_holds(db: PgPool) {
    let world = world(db, 1_000).await;
    // Twelve donations of R$ 3,00 against R$ 10,00: exactly three go through.
    let answers =
        futures_util::future::join_all((0..12).map(|_| world.donate(world.cause, json!(3)))).await;
    let made = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .count();
    assert_eq!(
        made,
        3,
        "{:?}",
        answers.iter().map(|a| &a.text).collect::<Vec<_>>()
    );
    for refused in answers.iter().filter(|a| a.status != StatusCode::CREATED) {
        assert_eq!(
            refused.json()["messages"],
            json!(["Saldo insuficiente para esta doação."])
        );
    }
    assert_eq!(world.balance().await, 100);
    assert_eq!(world.count(DONATED).await, 900);
    assert_eq!(world.count(PARTICIPATIONS).await, 3);
    assert_eq!(
        world.count(CREDIT_JOBS).await,
        1,
        "the points are paid once"
    );
}
