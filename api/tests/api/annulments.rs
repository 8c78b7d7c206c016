//! `POST /api/ops/participations/{id}/annul` over HTTP against the real database: support
//! staff annul a participation and what it granted is taken back once (the credit, written
//! or not yet, the trophy that no longer holds, the lucky number), audited; concurrent
//! annulments take it back once; scope and roles.

use crate::common;
use crate::common::{call, insert_member, insert_station, send_json, session_of};
use axum::Router;
use axum::http::StatusCode;
use chrono::{Duration, Utc};
use domain::activities::ActivityType;
use domain::activities::catalogue::{self, NewActivity};
use domain::activities::lucky_numbers::{self, NewCampaign};
use domain::activities::trophies::{self, NewTrophy, Rule};
use domain::shared::ids::{StationId, UserId};
use domain::staff::{Role, Scope};
use domain::wallet::ledger::{self, Credit};
use domain::wallet::rewards;
use serde_json::json;
use sqlx::PgPool;
use testkit::build;

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    member_id: i64,
    token: String,
    action_id: i64,
    support: String,
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

/// A member, a raw content activity paying 10 points, a trophy for one activity done and a
/// lucky-number campaign on the activity.
async fn world(db: PgPool) -> World {
    let station_id = insert_station(&db, "clube").await;
    let member_id = insert_member(&db, station_id, "maria@example.com").await;
    let token = session_of(&db, member_id).await;
    let action_id = catalogue::create(
        &db,
        &NewActivity {
            station_id,
            type_id: ActivityType::RawContent,
            name: "Conteúdo do mês".into(),
            points: 10,
            participation_start: Some(Utc::now() - Duration::days(1)),
            participation_end: Some(Utc::now() + Duration::days(1)),
            active: true,
            ..NewActivity::default()
        },
    )
    .await
    .expect("activity");
    trophies::create(
        &db,
        &NewTrophy {
            station_id,
            name: "Primeiro passo".into(),
            description: "Uma atividade feita".into(),
            image_key: None,
            rule: Rule::ActivitiesDone(1),
        },
    )
    .await
    .expect("trophy");
    lucky_numbers::create(
        &db,
        &NewCampaign {
            station_id,
            name: "Sorteio".into(),
            rule: lucky_numbers::Rule::Activity(action_id),
            range_size: 1000,
            secret: b"a key of sixteen bytes or more".to_vec(),
            starts_at: Utc::now() - Duration::days(2),
            ends_at: Utc::now() + Duration::days(2),
            publish_at: Utc::now() + Duration::days(3),
        },
    )
    .await
    .expect("campaign");
    let support = staff(
        &db,
        station_id,
        "suporte@example.com",
        Role::Support,
        Scope::Station(station_id),
    )
    .await;
    World {
        app: common::app(db.clone()),
        db,
        station_id,
        member_id,
        token,
        action_id,
        support,
    }
}

impl World {
    /// Takes part over HTTP; answers the participation and the credit its job would write.
    async fn take_part(&self) -> (i64, Credit) {
        let answer = send_json(
            &self.app,
            "POST",
            "/api/raw-content-participation",
            Some(&self.token),
            &[],
            &json!({ "action_id": self.action_id }),
        )
        .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        let id = answer.json()["participation_id"].as_i64().expect("id");
        let mut conn = self.db.acquire().await.expect("conn");
        let credit = rewards::on_participation(&mut conn, id)
            .await
            .expect("credit")
            .expect("pays");
        (id, credit)
    }

    /// What the participation's jobs do: the credit, the trophies, the lucky numbers.
    async fn run_jobs(&self, participation_id: i64, credit: &Credit) {
        let mut tx = self.db.begin().await.expect("tx");
        ledger::credit(&mut tx, credit, None).await.expect("credit");
        trophies::grant(&mut tx, Some(self.member_id))
            .await
            .expect("trophies");
        lucky_numbers::grant(&mut tx, participation_id)
            .await
            .expect("numbers");
        tx.commit().await.expect("commit");
    }

    async fn annul_as(&self, token: &str, id: i64, reason: &str) -> common::Answer {
        send_json(
            &self.app,
            "POST",
            &format!("/api/ops/participations/{id}/annul"),
            Some(token),
            &[],
            &json!({ "reason": reason }),
        )
        .await
    }

    async fn wallet_cents(&self) -> i64 {
        let balance = ledger::balance(&self.db, self.member_id)
            .await
            .expect("balance");
        balance.balance + balance.pending
    }

    async fn count(&self, sql: &'static str) -> i64 {
        sqlx::query_scalar(sql)
            .bind(self.member_id)
            .fetch_one(&self.db)
            .await
            .expect(sql)
    }
}

#[testkit::db_test]
async fn annulling_takes_back_the_credit_the_trophy_and_the_lucky_number(db: PgPool) {
    let w = world(db).await;
    let (participation, credit) = w.take_part().await;
    w.run_jobs(participation, &credit).await;
    assert_eq!(w.wallet_cents().await, 1000);
    let number: i64 = sqlx::query_scalar("SELECT number FROM giveaway_numbers WHERE user_id = $1")
        .bind(w.member_id)
        .fetch_one(&w.db)
        .await
        .expect("number");

    let annulled = w
        .annul_as(
            &w.support,
            participation,
            "  Participação duplicada por erro  ",
        )
        .await;
    assert_eq!(annulled.status, StatusCode::OK, "{}", annulled.text);
    assert_eq!(
        annulled.json(),
        json!({
            "participation_id": participation, "user_id": w.member_id,
            "station_id": w.station_id, "action_id": w.action_id, "reversed_cents": 1000,
            "debt_cents": 0,
            "trophies": ["Primeiro passo"], "lucky_numbers": [number],
        })
    );
    assert_eq!(w.wallet_cents().await, 0);
    assert_eq!(
        w.count("SELECT count(*) FROM member_trophies WHERE user_id = $1")
            .await,
        0
    );
    assert_eq!(
        w.count("SELECT count(*) FROM giveaway_numbers WHERE user_id = $1")
            .await,
        0
    );
    assert_eq!(
        w.count("SELECT count(*) FROM participations WHERE user_id = $1")
            .await,
        0
    );
    let kept: (String, i64) =
        sqlx::query_as("SELECT reason, reversed_cents FROM annulled_participations WHERE id = $1")
            .bind(participation)
            .fetch_one(&w.db)
            .await
            .expect("archived");
    assert_eq!(kept, ("Participação duplicada por erro".into(), 1000));

    // A re-run of the credit's job or of the trophies job pays and grants nothing.
    w.run_jobs(participation, &credit).await;
    assert_eq!(w.wallet_cents().await, 0);
    assert_eq!(
        w.count("SELECT count(*) FROM member_trophies WHERE user_id = $1")
            .await,
        0
    );

    // Audited, and visible to the station's staff.
    let audit = call(&w.app, "GET", "/api/ops/audit", Some(&w.support), &[]).await;
    let entry = &audit.json()["entries"][0];
    assert_eq!(entry["action"], "participation.annul");
    assert_eq!(entry["details"]["participation_id"], participation);
    assert_eq!(
        entry["details"]["reason"],
        "Participação duplicada por erro"
    );

    // Annulled once: again is a conflict.
    let again = w.annul_as(&w.support, participation, "De novo").await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(
        again.json(),
        json!({ "error": "Esta participação já foi anulada." })
    );
}

#[testkit::db_test]
async fn a_participation_annulled_before_its_credit_job_ran_is_never_paid(db: PgPool) {
    let w = world(db).await;
    let (participation, credit) = w.take_part().await;
    let annulled = w.annul_as(&w.support, participation, "Fraude").await;
    assert_eq!(annulled.status, StatusCode::OK, "{}", annulled.text);
    assert_eq!(annulled.json()["reversed_cents"], 0);
    // The queued job runs afterwards: its lot exists, reversed; nothing lands.
    let mut tx = w.db.begin().await.expect("tx");
    let lot = ledger::credit(&mut tx, &credit, None)
        .await
        .expect("credit");
    tx.commit().await.expect("commit");
    assert!(!lot.created);
    assert_eq!(w.wallet_cents().await, 0);
    // Nor does the lucky-number job find anything to give.
    let mut tx = w.db.begin().await.expect("tx");
    let granted = lucky_numbers::grant(&mut tx, participation)
        .await
        .expect("grant");
    tx.commit().await.expect("commit");
    assert!(granted.is_empty());
}

#[testkit::db_test]
async fn concurrent_annulments_take_it_back_once(db: PgPool) {
    let w = world(db).await;
    let (participation, credit) = w.take_part().await;
    w.run_jobs(participation, &credit).await;
    let answers = futures_util::future::join_all(
        (0..6).map(|_| w.annul_as(&w.support, participation, "Fraude")),
    )
    .await;
    let ok = answers
        .iter()
        .filter(|a| a.status == StatusCode::OK)
        .count();
    let conflict = answers
        .iter()
        .filter(|a| a.status == StatusCode::CONFLICT)
        .count();
    assert_eq!((ok, conflict), (1, 5));
    assert_eq!(w.wallet_cents().await, 0);
    assert_eq!(
        w.count(
            "SELECT count(*) FROM staff_audit
              WHERE action = 'participation.annul'
                AND (details ->> 'user_id')::bigint = $1"
        )
        .await,
        1
    );
}

#[testkit::db_test]
async fn only_support_staff_of_the_station_annul_and_a_reason_is_required(db: PgPool) {
    let w = world(db).await;
    let (participation, _) = w.take_part().await;
    let elsewhere = insert_station(&w.db, "longe").await;
    let viewer = staff(
        &w.db,
        w.station_id,
        "v@example.com",
        Role::Viewer,
        Scope::Station(w.station_id),
    )
    .await;
    let stranger = staff(
        &w.db,
        elsewhere,
        "x@example.com",
        Role::Support,
        Scope::Station(elsewhere),
    )
    .await;

    assert_eq!(
        w.annul_as(&viewer, participation, "Fraude").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        w.annul_as(&w.token, participation, "Fraude").await.status,
        StatusCode::FORBIDDEN,
        "a member"
    );
    let out_of_scope = w.annul_as(&stranger, participation, "Fraude").await;
    assert_eq!(out_of_scope.status, StatusCode::NOT_FOUND);
    assert_eq!(
        out_of_scope.json(),
        json!({ "error": "Participação não encontrada." })
    );
    let unknown = w.annul_as(&w.support, 999_999, "Fraude").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    for (reason, message) in [
        ("   ", "Informe o motivo da anulação."),
        (
            &"x".repeat(501)[..],
            "O motivo deve ter no máximo 500 caracteres.",
        ),
    ] {
        let refused = w.annul_as(&w.support, participation, reason).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused.json(), json!({ "messages": [message] }));
    }
    assert_eq!(
        w.count("SELECT count(*) FROM participations WHERE user_id = $1")
            .await,
        1,
        "nothing annulled"
    );
}

#[testkit::db_test]
async fn an_annulled_participation_is_not_paid_again(db: PgPool) {
    let w = world(db).await;
    let (participation, credit) = w.take_part().await;
    w.run_jobs(participation, &credit).await;
    let annulled = w.annul_as(&w.support, participation, "Fraude").await;
    assert_eq!(annulled.status, StatusCode::OK);

    // Taking part again is recorded, but the activity paid this member once already.
    let (again, _) = take_part_unpaid(&w).await;
    assert_ne!(again, participation);
    let mut conn = w.db.acquire().await.expect("conn");
    assert_eq!(
        rewards::on_participation(&mut conn, again)
            .await
            .expect("credit"),
        None
    );
    assert_eq!(
        common::credit_jobs(&w.db, w.action_id).await,
        1,
        "the first one's only"
    );
    assert_eq!(w.wallet_cents().await, 0);
}

/// Takes part over HTTP in the world's activity when it pays nothing more.
async fn take_part_unpaid(w: &World) -> (i64, serde_json::Value) {
    let answer = send_json(
        &w.app,
        "POST",
        "/api/raw-content-participation",
        Some(&w.token),
        &[],
        &json!({ "action_id": w.action_id }),
    )
    .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let body = answer.json();
    (body["participation_id"].as_i64().expect("id"), body)
}

#[testkit::db_test]
async fn an_annulment_takes_only_the_trophies_it_undid(db: PgPool) {
    let w = world(db).await;
    // A second activity, alone in a category with a trophy of its own.
    let other = catalogue::create(
        &w.db,
        &NewActivity {
            station_id: w.station_id,
            type_id: ActivityType::RawContent,
            name: "Outro conteúdo".into(),
            points: 5,
            participation_start: Some(Utc::now() - Duration::days(1)),
            participation_end: Some(Utc::now() + Duration::days(1)),
            active: true,
            ..NewActivity::default()
        },
    )
    .await
    .expect("activity");
    let category: i64 = sqlx::query_scalar(
        "INSERT INTO participant_categories (station_id, name) VALUES ($1, 'Cultura') RETURNING id",
    )
    .bind(w.station_id)
    .fetch_one(&w.db)
    .await
    .expect("category");
    sqlx::query("INSERT INTO category_actions (category_id, action_id) VALUES ($1, $2)")
        .bind(category)
        .bind(other)
        .execute(&w.db)
        .await
        .expect("in the category");
    trophies::create(
        &w.db,
        &NewTrophy {
            station_id: w.station_id,
            name: "Cultura em dia".into(),
            description: "Um conteúdo de cultura".into(),
            image_key: None,
            rule: Rule::CategoryDone {
                category_id: category,
                threshold: 1,
            },
        },
    )
    .await
    .expect("trophy");
    let (participation, credit) = w.take_part().await;
    w.run_jobs(participation, &credit).await;
    let second = send_json(
        &w.app,
        "POST",
        "/api/raw-content-participation",
        Some(&w.token),
        &[],
        &json!({ "action_id": other }),
    )
    .await;
    assert_eq!(second.status, StatusCode::CREATED);
    w.run_jobs(participation, &credit).await;
    assert_eq!(
        w.count("SELECT count(*) FROM member_trophies WHERE user_id = $1")
            .await,
        2
    );
    // The category loses its activity: that trophy's rule no longer holds, for reasons of
    // the catalogue's, not of an annulment.
    sqlx::query("DELETE FROM category_actions WHERE category_id = $1")
        .bind(category)
        .execute(&w.db)
        .await
        .expect("out of the category");

    let annulled = w.annul_as(&w.support, participation, "Duplicada").await;
    assert_eq!(annulled.status, StatusCode::OK, "{}", annulled.text);
    // One activity done is still met by the other one; the category trophy stays.
    assert_eq!(annulled.json()["trophies"], json!([]));
    assert_eq!(
        w.count("SELECT count(*) FROM member_trophies WHERE user_id = $1")
            .await,
        2
    );
}

#[testkit::db_test]
async fn the_activity_still_counts_an_annulled_participation_toward_its_limit(db: PgPool) {
    let w = world(db).await;
    sqlx::query("UPDATE actions SET limit_per_user = 1 WHERE id = $1")
        .bind(w.action_id)
        .execute(&w.db)
        .await
        .expect("limit");
    let (participation, _) = w.take_part().await;
    w.annul_as(&w.support, participation, "Fraude").await;
    let detail = call(
        &w.app,
        "GET",
        &format!("/api/actions/{}/", w.action_id),
        Some(&w.token),
        &[],
    )
    .await
    .json();
    assert_eq!(detail["userActions"], 1);
    assert_eq!(detail["availability"], "limit_reached");
    let again = send_json(
        &w.app,
        "POST",
        "/api/raw-content-participation",
        Some(&w.token),
        &[],
        &json!({ "action_id": w.action_id }),
    )
    .await;
    assert_eq!(
        again.json(),
        json!({ "messages": ["Olá, você já ultrapassou o limite de participações nessa atividade!"] })
    );
}

#[testkit::db_test]
async fn a_sign_up_annulled_before_its_credit_ran_is_never_paid(db: PgPool) {
    let w = world(db).await;
    catalogue::create(
        &w.db,
        &NewActivity {
            station_id: w.station_id,
            type_id: ActivityType::SignupReward,
            name: "Recompensa de cadastro".into(),
            points: 50,
            active: true,
            ..NewActivity::default()
        },
    )
    .await
    .expect("sign-up reward");
    // The account's confirmation records the participation and owes the sign-up credit.
    let mut tx = w.db.begin().await.expect("tx");
    let credits = rewards::on_account_confirmed(&mut tx, w.member_id)
        .await
        .expect("confirmed");
    tx.commit().await.expect("commit");
    let signup = credits.into_iter().next().expect("sign-up credit");
    let participation: i64 = sqlx::query_scalar("SELECT id FROM participations WHERE user_id = $1")
        .bind(w.member_id)
        .fetch_one(&w.db)
        .await
        .expect("participation");

    let annulled = w.annul_as(&w.support, participation, "Conta falsa").await;
    assert_eq!(annulled.status, StatusCode::OK, "{}", annulled.text);
    // The queued sign-up credit runs afterwards: its lot exists, reversed.
    let mut tx = w.db.begin().await.expect("tx");
    let lot = ledger::credit(&mut tx, &signup, None)
        .await
        .expect("credit");
    tx.commit().await.expect("commit");
    assert!(!lot.created);
    assert_eq!(w.wallet_cents().await, 0);
}

#[testkit::db_test]
async fn points_spent_before_the_annulment_become_a_debt(db: PgPool) {
    let w = world(db).await;
    let (participation, credit) = w.take_part().await;
    w.run_jobs(participation, &credit).await;
    let mut tx = w.db.begin().await.expect("tx");
    domain::wallet::release::release_batch(&mut tx, w.station_id, Utc::now(), 100, "release")
        .await
        .expect("release");
    // 6 of its 10 points spent.
    ledger::spend(
        &mut tx,
        &ledger::Spend {
            user_id: UserId(w.member_id),
            station_id: StationId(w.station_id),
            kind: ledger::SpendKind::Purchase,
            source_id: "pedido".into(),
            amount: 600,
            description: "Pedido".into(),
            action_id: None,
        },
    )
    .await
    .expect("spend");
    tx.commit().await.expect("commit");

    let annulled = w.annul_as(&w.support, participation, "Fraude").await;
    assert_eq!(annulled.status, StatusCode::OK, "{}", annulled.text);
    let annulled = annulled.json();
    assert_eq!(
        (
            annulled["reversed_cents"].clone(),
            annulled["debt_cents"].clone()
        ),
        (json!(400), json!(600))
    );
    let wallet = call(
        &w.app,
        "GET",
        &format!("/api/users-points/{}", w.member_id),
        Some(&w.token),
        &[],
    )
    .await
    .json();
    assert_eq!(
        (wallet["points_cents"].clone(), wallet["debt_cents"].clone()),
        (json!(0), json!(600))
    );
    let debts = call(&w.app, "GET", "/api/wallet-debts/", Some(&w.token), &[])
        .await
        .json();
    assert_eq!(
        debts[0]["description"],
        "Estorno de crédito já utilizado: Conteúdo do mês"
    );
    assert_eq!(debts[0]["open_cents"], 600);
    assert_eq!(
        ledger::check(&w.db, w.member_id).await.expect("check"),
        vec![]
    );
    // Annulled again: refused, and still one debt.
    let again = w.annul_as(&w.support, participation, "Fraude").await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(
        w.count("SELECT count(*) FROM wallet_debts WHERE user_id = $1")
            .await,
        1
    );
}
