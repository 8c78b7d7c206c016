//! The wallet over HTTP against the real database: the balance and the statement (own
//! only), `user-earn-points` (cannot mint), and the credits that confirmations and share
//! visits queue, run through the `points.credit` handler.

use crate::common;
use std::collections::BTreeSet;

use crate::common::{app, app_with, call, post_json, send_json};
use crate::signup_support::*;
use axum::Router;
use axum::http::StatusCode;
use chrono::Utc;
use domain::shared::ids::{StationId, UserId};
use domain::wallet::ledger::{self, Balance, Credit, SourceKind};
use domain::wallet::release::release_batch;
use domain::wallet::rules;
use jobs::kinds::PointsCredit;
use jobs::{Job, JobContext};
use seed::demo::DemoStation;
use serde_json::{Value, json};
use sqlx::PgPool;

const FORBIDDEN: &str = "Você não possui autorização para acessar esta página.";

async fn get_with(app: &Router, uri: &str, token: Option<&str>) -> common::Answer {
    call(app, "GET", uri, token, &[]).await
}

/// The `points.credit` jobs queued, as their idempotency keys.
async fn credit_keys(db: &PgPool) -> BTreeSet<String> {
    sqlx::query_scalar("SELECT idempotency_key FROM apalis.jobs WHERE job_type = 'points.credit'")
        .fetch_all(db)
        .await
        .expect("jobs")
        .into_iter()
        .collect()
}

/// Runs every queued `points.credit` job through its handler, as a worker would, and marks
/// it done.
async fn run_credit_jobs(db: &PgPool) -> usize {
    let queued: Vec<(String, Value)> = sqlx::query_as(
        "SELECT id, convert_from(job, 'UTF8')::jsonb FROM apalis.jobs
          WHERE job_type = 'points.credit' AND status = 'Pending' ORDER BY id",
    )
    .fetch_all(db)
    .await
    .expect("jobs");
    let services = jobs::Services::new(db.clone(), common::config_with(&[])).expect("services");
    for (id, payload) in &queued {
        let job: PointsCredit = serde_json::from_value(payload["args"].clone()).expect("payload");
        let context = JobContext {
            id: id.clone(),
            attempt: 1,
            worker: "test".into(),
            taken_at: None,
            services: services.clone(),
        };
        job.run(context).await.expect("credit job");
        sqlx::query("UPDATE apalis.jobs SET status = 'Done', done_at = now() WHERE id = $1")
            .bind(id)
            .execute(db)
            .await
            .expect("done");
    }
    queued.len()
}

async fn balance(db: &PgPool, user_id: i64) -> Balance {
    ledger::balance(db, user_id).await.expect("balance")
}

async fn release_all(db: &PgPool, station_id: i64) {
    let mut tx = db.begin().await.expect("tx");
    release_batch(&mut tx, station_id, Utc::now(), 1000, "test-release")
        .await
        .expect("release");
    tx.commit().await.expect("commit");
}

async fn signup_action(db: &PgPool, station_id: i64, points: i32) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, points)
         VALUES ($1, 2, 'Recompensa de cadastro', $2) RETURNING id",
    )
    .bind(station_id)
    .bind(points)
    .fetch_one(db)
    .await
    .expect("action")
}

#[testkit::db_test]
async fn the_balance_is_the_members_own(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    // Seeding again writes no second history.
    seed::demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed again");
    let app = app(db.clone());

    // The demo member's history: 50 points released, 20 spent.
    let own = get_with(
        &app,
        &format!("/api/users-points/{}", demo.member_id),
        Some(&token),
    )
    .await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.text);
    assert_eq!(
        own.json(),
        json!({ "user_id": demo.member_id, "points": 30, "points_cents": 3000,
                "pending_points": 0, "pending_cents": 0, "debt_points": 0, "debt_cents": 0 })
    );
    let user = get_with(
        &app,
        &format!("/api/users-web/{}", demo.member_id),
        Some(&token),
    )
    .await;
    assert_eq!(user.json()["points"], 30);
    let rows: (i64, i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM credit_lots), (SELECT count(*) FROM spends),
                (SELECT count(*) FROM cashback_release_batches)",
    )
    .fetch_one(&db)
    .await
    .expect("counts");
    assert_eq!(rows, (1, 1, 1));

    // Half a point shows as a decimal number.
    let mut tx = db.begin().await.expect("tx");
    ledger::credit(
        &mut tx,
        &Credit {
            user_id: UserId(demo.member_id),
            station_id: StationId(demo.station_id),
            source_kind: SourceKind::Adjustment,
            source_id: "ajuste-1".into(),
            rule: rules::ADJUSTMENT.into(),
            amount: 50,
            description: "Ajuste".into(),
            action_id: None,
        },
        None,
    )
    .await
    .expect("credit");
    tx.commit().await.expect("commit");
    let own = get_with(
        &app,
        &format!("/api/users-points/{}", demo.member_id),
        Some(&token),
    )
    .await;
    assert_eq!(own.json()["points"], 30.5);
    assert_eq!(own.json()["points_cents"], 3050);

    let other = get_with(
        &app,
        &format!("/api/users-points/{}", demo.staff_id),
        Some(&token),
    )
    .await;
    assert_eq!(other.status, StatusCode::FORBIDDEN);
    assert_eq!(other.json(), json!({ "messages": [FORBIDDEN] }));
    let anonymous = get_with(&app, &format!("/api/users-points/{}", demo.member_id), None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

/// 60 instant credits and 55 spends on top of the demo history.
async fn long_history(db: &PgPool, demo: &DemoStation) {
    let mut tx = db.begin().await.expect("tx");
    for n in 0..60 {
        ledger::credit(
            &mut tx,
            &Credit {
                user_id: UserId(demo.member_id),
                station_id: StationId(demo.station_id),
                source_kind: SourceKind::Topup,
                source_id: format!("pix-{n}"),
                rule: rules::TOPUP.into(),
                amount: 1000,
                description: format!("Recarga {n}"),
                action_id: None,
            },
            None,
        )
        .await
        .expect("credit");
    }
    for n in 0..55 {
        ledger::spend(
            &mut tx,
            &ledger::Spend {
                user_id: UserId(demo.member_id),
                station_id: StationId(demo.station_id),
                kind: ledger::SpendKind::Purchase,
                source_id: format!("pedido-{n}"),
                amount: 100,
                description: format!("Pedido {n}"),
                action_id: None,
            },
        )
        .await
        .expect("spend");
    }
    tx.commit().await.expect("commit");
}

#[testkit::db_test]
async fn the_statement_lists_credits_and_spends_newest_first_in_pages(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    let earn = |query: String| format!("/api/earn-points-transactions/?{query}");
    let used = |query: String| format!("/api/use-points-transactions/?{query}");
    let own = format!("where[user_id]={}", demo.member_id);

    let credits = get_with(&app, &earn(own.clone()), Some(&token)).await;
    assert_eq!(credits.status, StatusCode::OK, "{}", credits.text);
    let credits = credits.json();
    let reward_action: i64 =
        sqlx::query_scalar("SELECT id FROM actions WHERE station_id = $1 AND type_id = 2")
            .bind(demo.station_id)
            .fetch_one(&db)
            .await
            .expect("action");
    let line = &credits[0];
    assert_eq!(credits.as_array().map(Vec::len), Some(1));
    assert_eq!(line["points"], 50);
    assert_eq!(line["points_cents"], 5000);
    assert_eq!(line["state"], "available");
    assert_eq!(line["source_kind"], "activity");
    assert_eq!(
        line["action"],
        json!({ "id": reward_action, "name": "Recompensa de cadastro" })
    );
    assert!(line["createdAt"].is_string() && line["available_at"].is_string());
    assert!(line["released_at"].is_string());
    assert_eq!(line["expires_at"], Value::Null);

    let spends = get_with(&app, &used(own.clone()), Some(&token)).await;
    assert_eq!(spends.status, StatusCode::OK, "{}", spends.text);
    let spend = &spends.json()[0];
    assert_eq!(spend["points"], 20);
    assert_eq!(spend["source_kind"], "purchase");
    assert_eq!(
        spend["action"],
        json!({ "id": null, "name": "Pedido de demonstração" })
    );

    long_history(&db, &demo).await;
    let page = async |uri: String| -> Vec<Value> {
        let answer = get_with(&app, &uri, Some(&token)).await;
        assert_eq!(answer.status, StatusCode::OK, "{uri}: {}", answer.text);
        answer.json().as_array().expect("list").clone()
    };
    let first = page(earn(own.clone())).await;
    assert_eq!(first.len(), 50);
    assert_eq!(first[0]["action"]["name"], "Recarga 59");
    assert_eq!(page(earn(format!("{own}&page=2"))).await.len(), 11);
    assert!(page(earn(format!("{own}&page=3"))).await.is_empty());
    // The brackets may come percent-encoded, as browsers send them.
    let encoded = page(used(format!(
        "where%5Buser_id%5D={}&page=2",
        demo.member_id
    )))
    .await;
    assert_eq!(encoded.len(), 6);
    assert_eq!(encoded[5]["action"]["name"], "Pedido de demonstração");
    assert_eq!(
        page(used(own.clone())).await[0]["action"]["name"],
        "Pedido 54"
    );

    for uri in [
        earn(format!("where[user_id]={}", demo.staff_id)),
        used(format!("where[user_id]={}", demo.staff_id)),
    ] {
        let answer = get_with(&app, &uri, Some(&token)).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{uri}");
        assert_eq!(answer.json(), json!({ "messages": [FORBIDDEN] }));
    }
    let bad = get_with(&app, &earn("where[user_id]=abc".into()), Some(&token)).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let anonymous = get_with(&app, &earn(own), None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

async fn earn_points(app: &Router, token: &str, body: Value) -> common::Answer {
    send_json(
        app,
        "POST",
        "/api/user-earn-points/",
        Some(token),
        &[],
        &body,
    )
    .await
}

#[testkit::db_test]
async fn user_earn_points_credits_only_real_participations(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    sqlx::query("UPDATE users SET cpf = $2 WHERE id = $1")
        .bind(demo.member_id)
        .bind(CPF_A_DIGITS)
        .execute(&db)
        .await
        .expect("cpf");
    let (_, other_establishment) = station(&db, "outro", &[]).await;
    let app = app(db.clone());
    let body = |cpf: &str, establishment: i64| {
        json!({ "cardid": cpf, "accountnumber": cpf, "points": 1_000_000,
                "establishment": establishment })
    };

    // Asking for a million points changes nothing: there is nothing owed.
    let answer = earn_points(&app, &token, body(CPF_A, demo.establishment_id)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(
        answer.json(),
        json!({ "points": 30, "pending_points": 0, "queued": 0 })
    );
    assert!(credit_keys(&db).await.is_empty());

    let wrong_cpf = earn_points(&app, &token, body(CPF_B, demo.establishment_id)).await;
    assert_eq!(wrong_cpf.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        wrong_cpf.json(),
        json!({ "messages": ["CPF não confere com o do participante."] })
    );
    let elsewhere = earn_points(&app, &token, body(CPF_A, other_establishment)).await;
    assert_eq!(elsewhere.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        elsewhere.json(),
        json!({ "messages": ["Estabelecimento inválido."] })
    );

    // A participation the member completed is owed once, whatever is called.
    let quiz: i64 = sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, points) VALUES ($1, 6, 'Quiz do clube', 25)
         RETURNING id",
    )
    .bind(demo.station_id)
    .fetch_one(&db)
    .await
    .expect("quiz");
    let participation: i64 = sqlx::query_scalar(
        "INSERT INTO participations (station_id, user_id, action_id, attempt)
         VALUES ($1, $2, $3, 1) RETURNING id",
    )
    .bind(demo.station_id)
    .bind(demo.member_id)
    .bind(quiz)
    .fetch_one(&db)
    .await
    .expect("participation");
    let first = earn_points(&app, &token, body(CPF_A, demo.establishment_id)).await;
    assert_eq!(first.json()["queued"], 1, "{}", first.text);
    let again = earn_points(&app, &token, body(CPF_A, demo.establishment_id)).await;
    assert_eq!(again.json()["queued"], 0, "{}", again.text);
    assert_eq!(
        credit_keys(&db).await,
        BTreeSet::from([format!("activity:{participation}:activity")])
    );
    assert_eq!(run_credit_jobs(&db).await, 1);
    let after = earn_points(&app, &token, body(CPF_A, demo.establishment_id)).await;
    assert_eq!(
        after.json(),
        json!({ "points": 30, "pending_points": 25, "queued": 0 })
    );
    assert_eq!(credit_keys(&db).await.len(), 1);
}

async fn invited_signup(
    db: &PgPool,
    app: &Router,
    station_id: i64,
    paula: i64,
    rule_id: i64,
) -> i64 {
    let body = with(
        participant(station_id, "maria@example.com"),
        json!({ "member_get_member": { "action_id": rule_id, "inviter_id": paula,
                                        "code": format!("PAULA123-U{paula}-E{station_id}") } }),
    );
    let answer = post_json(app, "/api/auth/signup-participant", &body.to_string()).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let maria = answer.json()["user"]["id"].as_i64().expect("id");
    let invited: i64 =
        sqlx::query_scalar("SELECT count(*) FROM mgm_invitations WHERE invitee_id = $1")
            .bind(maria)
            .fetch_one(db)
            .await
            .expect("invitation");
    assert_eq!(invited, 1);
    maria
}

/// A station with a sign-up reward of 50 points and an offer of 100 (inviter) and 30
/// (invitee); Paula is the inviter. Answers (station id, Paula, offer id).
async fn rewarding_station(db: &PgPool) -> (i64, i64, i64) {
    let (station_id, _) = station(db, "publico", &[]).await;
    signup_action(db, station_id, 50).await;
    let rule_id: i64 = sqlx::query_scalar(
        "INSERT INTO mgm_rules (station_id, points_inviter, points_invited) VALUES ($1, 100, 30)
         RETURNING id",
    )
    .bind(station_id)
    .fetch_one(db)
    .await
    .expect("rule");
    let paula = testkit::build::member(station_id)
        .name("Paula")
        .email("paula@example.com")
        .invite_code("PAULA123")
        .insert(db)
        .await;
    (station_id, paula, rule_id)
}

#[testkit::db_test]
async fn activation_by_code_queues_the_signup_reward_and_the_invitation_credits(db: PgPool) {
    let (station_id, paula, rule_id) = rewarding_station(&db).await;
    let app = app(db.clone());
    let maria = invited_signup(&db, &app, station_id, paula, rule_id).await;
    // Nothing is owed before the account is confirmed.
    assert!(credit_keys(&db).await.is_empty());

    let code = code_of(&last_mail_to(&db, "maria@example.com").await);
    let activate = json!({ "station": station_id, "email": "maria@example.com", "hash": code });
    for _ in 0..2 {
        let answer = post_json(
            &app,
            "/api/auth/signup/activate-participant/",
            &activate.to_string(),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
    assert_eq!(
        credit_keys(&db).await,
        BTreeSet::from([
            format!("activity:{maria}:signup"),
            format!("invitation:{maria}:mgm.inviter"),
            format!("invitation:{maria}:mgm.invited"),
        ])
    );
    let participations: i64 =
        sqlx::query_scalar("SELECT count(*) FROM participations WHERE user_id = $1")
            .bind(maria)
            .fetch_one(&db)
            .await
            .expect("participations");
    assert_eq!(participations, 1);

    assert_eq!(run_credit_jobs(&db).await, 3);
    assert_eq!(
        balance(&db, maria).await,
        Balance {
            balance: 0,
            pending: 8000
        }
    );
    assert_eq!(balance(&db, paula).await.pending, 10000);
    release_all(&db, station_id).await;
    assert_eq!(
        balance(&db, maria).await,
        Balance {
            balance: 8000,
            pending: 0
        }
    );
    let token = domain::accounts::session::create(&db, maria)
        .await
        .expect("session");
    let points = get_with(&app, &format!("/api/users-points/{maria}"), Some(&token)).await;
    assert_eq!(points.json()["points"], 80);
    let statement = get_with(
        &app,
        &format!("/api/earn-points-transactions/?where[user_id]={maria}"),
        Some(&token),
    )
    .await
    .json();
    let names: BTreeSet<String> = statement
        .as_array()
        .expect("list")
        .iter()
        .map(|line| line["action"]["name"].as_str().expect("name").to_string())
        .collect();
    assert_eq!(
        names,
        BTreeSet::from([
            "Recompensa de cadastro".to_string(),
            "Bônus de boas-vindas por indicação".to_string()
        ])
    );
    assert_eq!(ledger::check_all(&db).await.expect("check"), vec![]);
}

/// Asks for a reset link and sets a new password through it.
async fn reset_password(db: &PgPool, app: &Router, station_id: i64, email: &str) {
    let asked = post_json(
        app,
        "/api/auth/validate-email-forgot-pass",
        &json!({ "email": email, "station_id": station_id }).to_string(),
    )
    .await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.text);
    let mail = last_mail_to(db, email).await;
    let text = mail["text"].as_str().expect("text");
    let start = text.find("/redefinir-senha/").expect("link") + "/redefinir-senha/".len();
    let token = text[start..].split('/').next().expect("token");
    let reset = json!({ "password": "NovaSenha9", "password_confirmation": "NovaSenha9",
                        "userHash": token, "userEmail": email, "station_id": station_id });
    let answer = post_json(app, "/api/auth/update-password", &reset.to_string()).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
}

#[testkit::db_test]
async fn activation_by_link_and_a_reset_of_a_pending_account_queue_the_reward(db: PgPool) {
    let (station_id, _, _) = rewarding_station(&db).await;
    let app = app(db.clone());
    for email in ["link@example.com", "reset@example.com"] {
        let answer = post_json(
            &app,
            "/api/auth/signup-participant",
            &participant(station_id, email).to_string(),
        )
        .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    }
    let id_of = async |email: &str| -> i64 {
        sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
            .bind(email)
            .fetch_one(&db)
            .await
            .expect("user")
    };
    let (by_link, by_reset) = (
        id_of("link@example.com").await,
        id_of("reset@example.com").await,
    );

    let token = link_token_of(&last_mail_to(&db, "link@example.com").await);
    let activate = json!({ "station": station_id, "email": "link@example.com", "hash": token });
    let answer = post_json(
        &app,
        "/api/auth/signup/activate-participant/",
        &activate.to_string(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);

    reset_password(&db, &app, station_id, "reset@example.com").await;

    assert_eq!(
        credit_keys(&db).await,
        BTreeSet::from([
            format!("activity:{by_link}:signup"),
            format!("activity:{by_reset}:signup"),
        ])
    );
    // A reset of an account that is already active earns nothing more.
    reset_password(&db, &app, station_id, "link@example.com").await;
    assert_eq!(credit_keys(&db).await.len(), 2);
}

#[testkit::db_test]
async fn a_simple_signup_is_confirmed_at_once_and_queues_the_reward(db: PgPool) {
    let (station_id, paula, rule_id) = rewarding_station(&db).await;
    sqlx::query("UPDATE stations SET signup_flow = 'simple' WHERE id = $1")
        .bind(station_id)
        .execute(&db)
        .await
        .expect("simple");
    let app = app(db.clone());
    let answer = post_json(
        &app,
        "/api/auth/signup",
        &json!({ "station": station_id, "cpf": CPF_B, "birthday": "1990-01-01 00:00:00",
                 "state": "SP", "firstName": "Rui", "lastName": "Lima",
                 "phoneNumber": "(11) 91111-2222",
                 "member_get_member": { "action_id": rule_id, "inviter_id": paula,
                                        "code": format!("PAULA123-U{paula}-E{station_id}") } })
        .to_string(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let rui = answer.json()["user"]["id"].as_i64().expect("id");
    assert_eq!(
        credit_keys(&db).await,
        BTreeSet::from([
            format!("activity:{rui}:signup"),
            format!("invitation:{rui}:mgm.inviter"),
            format!("invitation:{rui}:mgm.invited"),
        ])
    );
}

async fn share_visit(app: &Router, demo: &DemoStation, share: i64, visitor: &str, address: &str) {
    let headers = [("user-agent", "Firefox"), ("x-forwarded-for", address)];
    let body = json!({ "action_id": share, "user_id": demo.member_id, "visitor_id": visitor });
    let answer = send_json(app, "POST", "/api/validate-sharing", None, &headers, &body).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
}

#[testkit::db_test]
async fn a_new_share_visitor_credits_the_sharer_once(db: PgPool) {
    let (demo, _) = common::demo_member_session(&db).await;
    let share: i64 =
        sqlx::query_scalar("SELECT id FROM actions WHERE station_id = $1 AND type_id = 5")
            .bind(demo.station_id)
            .fetch_one(&db)
            .await
            .expect("share");
    let app = app_with(db.clone(), &[("FILIA_TRUST_FORWARDED_FOR", "true")]);
    const ANA: &str = "8f14e45f-ceea-467a-9b75-3c8e1d2f6a10";
    const BIA: &str = "c9f0f895-fb98-4ab2-8d1c-5e6f7a8b9c0d";

    share_visit(&app, &demo, share, ANA, "203.0.113.7").await;
    assert_eq!(credit_keys(&db).await.len(), 1);
    // The same visitor again, and the same browser under a new visitor id: nothing more.
    share_visit(&app, &demo, share, ANA, "203.0.113.7").await;
    share_visit(&app, &demo, share, "0123456789abcdefghij", "203.0.113.7").await;
    assert_eq!(credit_keys(&db).await.len(), 1);
    // Someone else: a second credit.
    share_visit(&app, &demo, share, BIA, "198.51.100.4").await;
    assert_eq!(credit_keys(&db).await.len(), 2);

    assert_eq!(run_credit_jobs(&db).await, 2);
    assert_eq!(
        balance(&db, demo.member_id).await,
        Balance {
            balance: 3000,
            pending: 2000
        }
    );
    let lots: Vec<(String, Option<i64>)> =
        sqlx::query_as("SELECT description, action_id FROM credit_lots WHERE rule = 'share'")
            .fetch_all(&db)
            .await
            .expect("lots");
    assert_eq!(
        lots,
        vec![("Compartilhe o Clube Filia Demo".to_string(), Some(share)); 2]
    );
}

/// A visit from `address` with this user agent and visitor id.
async fn share_visit_from(
    app: &Router,
    demo: &DemoStation,
    share: i64,
    (visitor, address, user_agent): (&str, &str, &str),
) {
    let headers = [("user-agent", user_agent), ("x-forwarded-for", address)];
    let body = json!({ "action_id": share, "user_id": demo.member_id, "visitor_id": visitor });
    let answer = send_json(app, "POST", "/api/validate-sharing", None, &headers, &body).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
}

async fn share_visits(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM share_visits")
        .fetch_one(db)
        .await
        .expect("visits")
}

async fn demo_share(db: &PgPool, station_id: i64) -> i64 {
    sqlx::query_scalar("SELECT id FROM actions WHERE station_id = $1 AND type_id = 5")
        .bind(station_id)
        .fetch_one(db)
        .await
        .expect("share")
}

#[testkit::db_test]
async fn one_network_credits_a_share_once_whatever_user_agent_or_visitor_id(db: PgPool) {
    let (demo, _) = common::demo_member_session(&db).await;
    let share = demo_share(&db, demo.station_id).await;
    let app = app_with(db.clone(), &[("FILIA_TRUST_FORWARDED_FOR", "true")]);

    // A loop rotating the user agent, the visitor id and the address inside one /24.
    for i in 0..6 {
        let visitor = format!("visitante-{i:02}-8f14e45fceea467a");
        let address = format!("203.0.113.{}", 10 + i);
        let user_agent = format!("Navegador/{i}.0");
        share_visit_from(&app, &demo, share, (&visitor, &address, &user_agent)).await;
    }
    assert_eq!(
        share_visits(&db).await,
        6,
        "every visitor is still recorded"
    );
    let keys = credit_keys(&db).await;
    assert_eq!(keys.len(), 1, "{keys:?}");
    let key = keys.first().expect("one key");
    let prefix = format!("activity:{share}:{}:", demo.member_id);
    let network = key
        .strip_prefix(&prefix)
        .and_then(|rest| rest.strip_suffix(":share"))
        .unwrap_or_else(|| panic!("{key}"));
    assert!(
        network.len() == 32 && network.chars().all(|c| c.is_ascii_hexdigit()),
        "a hashed network, never the address: {key}"
    );

    // Another network credits again; an IPv6 client counts by its /64.
    share_visit_from(
        &app,
        &demo,
        share,
        ("visitante-b-c9f0f895fb98", "198.51.100.4", "Firefox"),
    )
    .await;
    assert_eq!(credit_keys(&db).await.len(), 2);
    share_visit_from(
        &app,
        &demo,
        share,
        ("visitante-c-c9f0f895fb98", "2001:db8:5:6::1", "Firefox"),
    )
    .await;
    share_visit_from(
        &app,
        &demo,
        share,
        ("visitante-d-c9f0f895fb98", "2001:db8:5:6:ffff::9", "Chrome"),
    )
    .await;
    assert_eq!(credit_keys(&db).await.len(), 3);
    share_visit_from(
        &app,
        &demo,
        share,
        ("visitante-e-c9f0f895fb98", "2001:db8:5:7::1", "Firefox"),
    )
    .await;
    assert_eq!(credit_keys(&db).await.len(), 4);

    assert_eq!(run_credit_jobs(&db).await, 4);
    assert_eq!(balance(&db, demo.member_id).await.pending, 4 * 1000);
}

#[testkit::db_test]
async fn a_sharer_earns_at_most_the_daily_cap_of_share_credits(db: PgPool) {
    let (demo, _) = common::demo_member_session(&db).await;
    let share = demo_share(&db, demo.station_id).await;
    let app = app_with(db.clone(), &[("FILIA_TRUST_FORWARDED_FOR", "true")]);
    let cap = domain::wallet::rewards::SHARE_CREDITS_PER_DAY;
    let visit = |i: i64| {
        let app = app.clone();
        async move {
            let visitor = format!("visitante-{i:03}-8f14e45fceea467a");
            let address = format!("10.{}.{}.1", i / 200, i % 200);
            share_visit_from(&app, &demo, share, (&visitor, &address, "Firefox")).await;
        }
    };

    for i in 0..cap + 5 {
        visit(i).await;
    }
    assert_eq!(share_visits(&db).await, cap + 5);
    assert_eq!(
        credit_keys(&db).await.len(),
        usize::try_from(cap).expect("cap")
    );
    // A new visitor of a network credited earlier today is that same credit.
    share_visit_from(
        &app,
        &demo,
        share,
        ("outra-pessoa-0123456789", "10.0.0.77", "Chrome"),
    )
    .await;
    assert_eq!(share_visits(&db).await, cap + 6);
    assert_eq!(
        credit_keys(&db).await.len(),
        usize::try_from(cap).expect("cap")
    );

    // The cap is per day: once today's credits are yesterday's, a new network earns again.
    sqlx::query("UPDATE share_credits SET earned_at = earned_at - interval '1 day'")
        .execute(&db)
        .await
        .expect("a day later");
    visit(cap + 10).await;
    assert_eq!(
        credit_keys(&db).await.len(),
        usize::try_from(cap + 1).expect("cap")
    );
}

#[testkit::db_test]
async fn share_visits_at_once_never_pass_the_cap_nor_pay_a_network_twice(db: PgPool) {
    let (demo, _) = common::demo_member_session(&db).await;
    let share = demo_share(&db, demo.station_id).await;
    let app = app_with(db.clone(), &[("FILIA_TRUST_FORWARDED_FOR", "true")]);
    let cap = domain::wallet::rewards::SHARE_CREDITS_PER_DAY;

    // cap + 10 networks, each visiting twice with two visitor ids, all at once.
    let mut visits = tokio::task::JoinSet::new();
    for i in 0..(cap + 10) * 2 {
        let app = app.clone();
        visits.spawn(async move {
            let network = i / 2;
            let visitor = format!("visitante-{i:03}-8f14e45fceea467a");
            let address = format!("10.{}.{}.1", network / 200, network % 200);
            share_visit_from(&app, &demo, share, (&visitor, &address, "Firefox")).await;
        });
    }
    while let Some(visit) = visits.join_next().await {
        visit.expect("visit");
    }

    assert_eq!(share_visits(&db).await, (cap + 10) * 2);
    let keys = credit_keys(&db).await;
    assert_eq!(keys.len(), usize::try_from(cap).expect("cap"), "{keys:?}");
    let counted: i64 = sqlx::query_scalar("SELECT count(*) FROM share_credits")
        .fetch_one(&db)
        .await
        .expect("share credits");
    assert_eq!(
        counted, cap,
        "one row per credited network, no more than the cap"
    );
    assert_eq!(
        run_credit_jobs(&db).await,
        usize::try_from(cap).expect("cap")
    );
}

#[testkit::db_test]
async fn the_daily_cap_holds_after_job_retention_pruned_the_day_s_credit_jobs(db: PgPool) {
    let (demo, _) = common::demo_member_session(&db).await;
    let share = demo_share(&db, demo.station_id).await;
    let app = app_with(db.clone(), &[("FILIA_TRUST_FORWARDED_FOR", "true")]);
    let cap = domain::wallet::rewards::SHARE_CREDITS_PER_DAY;
    let visit = |i: i64| {
        let app = app.clone();
        async move {
            let visitor = format!("visitante-{i:03}-45c48cce2e2d7fbd");
            let address = format!("10.{}.{}.1", i / 200, i % 200);
            share_visit_from(&app, &demo, share, (&visitor, &address, "Firefox")).await;
        }
    };
    for i in 0..cap {
        visit(i).await;
    }
    assert_eq!(
        run_credit_jobs(&db).await,
        usize::try_from(cap).expect("cap")
    );
    let policy = jobs::kinds::platform::retention::Policy {
        succeeded_days: 0,
        failed_days: 90,
        dead_worker_hours: 1,
        canary_days: 7,
    };
    let pruned = jobs::kinds::platform::retention::prune(&db, policy)
        .await
        .expect("retention");
    assert_eq!(pruned.jobs, u64::try_from(cap).expect("cap"));
    assert!(credit_keys(&db).await.is_empty(), "the day's jobs are gone");

    // Still today: a new network earns nothing.
    visit(cap).await;
    assert!(
        credit_keys(&db).await.is_empty(),
        "{:?}",
        credit_keys(&db).await
    );
    assert_eq!(balance(&db, demo.member_id).await.pending, cap * 1000);
}

#[testkit::db_test]
async fn a_share_credit_whose_job_failed_for_good_is_re_armed_by_the_next_visit(db: PgPool) {
    let (demo, _) = common::demo_member_session(&db).await;
    let share = demo_share(&db, demo.station_id).await;
    let app = app_with(db.clone(), &[("FILIA_TRUST_FORWARDED_FOR", "true")]);
    share_visit_from(
        &app,
        &demo,
        share,
        ("visitante-a-8f14e45fceea467a", "203.0.113.7", "Firefox"),
    )
    .await;
    sqlx::query(
        "UPDATE apalis.jobs SET status = 'Failed', attempts = max_attempts, done_at = now()
          WHERE job_type = 'points.credit'",
    )
    .execute(&db)
    .await
    .expect("failed for good");
    assert_eq!(run_credit_jobs(&db).await, 0, "nothing waiting");

    // Someone else from the same network: no new credit, but the failed one runs again.
    share_visit_from(
        &app,
        &demo,
        share,
        ("visitante-b-8f14e45fceea467a", "203.0.113.8", "Chrome"),
    )
    .await;
    assert_eq!(credit_keys(&db).await.len(), 1);
    assert_eq!(run_credit_jobs(&db).await, 1);
    assert_eq!(balance(&db, demo.member_id).await.pending, 1000);
}
