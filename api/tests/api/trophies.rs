//! Trophies over HTTP against the real database: each participation queues the member's
//! `trophies.grant` keyed by it; rules as data grant each trophy once however many grants
//! run at once; the nightly backfill grants what later trophies owe, once; `GET /trophies/`
//! shows only the caller's.

use crate::common;
use crate::common::{insert_member, insert_station, send_json, session_of};
use axum::Router;
use axum::http::StatusCode;
use chrono::{Duration, Utc};
use domain::activities::ActivityType;
use domain::activities::catalogue::{self, NewActivity};
use domain::activities::trophies::{self, NewTrophy, Rule};
use serde_json::{Value, json};
use sqlx::PgPool;

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    member_id: i64,
    token: String,
}

async fn world(db: PgPool) -> World {
    let station_id = insert_station(&db, "clube").await;
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

impl World {
    async fn content(&self, name: &str) -> i64 {
        catalogue::create(
            &self.db,
            &NewActivity {
                station_id: self.station_id,
                type_id: ActivityType::RawContent,
                name: name.into(),
                participation_start: Some(Utc::now() - Duration::days(1)),
                participation_end: Some(Utc::now() + Duration::days(1)),
                active: true,
                ..NewActivity::default()
            },
        )
        .await
        .expect("activity")
    }

    async fn trophy(&self, name: &str, rule: Rule) -> i64 {
        trophies::create(
            &self.db,
            &NewTrophy {
                station_id: self.station_id,
                name: name.into(),
                description: format!("Descrição de {name}"),
                image_key: None,
                rule,
            },
        )
        .await
        .expect("trophy")
    }

    async fn held(&self, user_id: i64) -> Vec<String> {
        sqlx::query_scalar(
            "SELECT t.name FROM member_trophies m JOIN trophies t ON t.id = m.trophy_id
              WHERE m.user_id = $1 ORDER BY t.id",
        )
        .bind(user_id)
        .fetch_all(&self.db)
        .await
        .expect("held")
    }

    async fn grant_at_once(&self, runs: usize, user_id: Option<i64>) -> u64 {
        // A member's grant (the job after a participation), or the nightly backfill.
        let grants = (0..runs).map(|_| async {
            match user_id {
                Some(user_id) => trophies::grant_member(&self.db, user_id).await,
                None => trophies::backfill(&self.db).await,
            }
            .expect("grant")
        });
        futures_util::future::join_all(grants)
            .await
            .into_iter()
            .sum()
    }
}

#[testkit::db_test]
async fn each_trophy_is_granted_once_by_its_rule_however_many_grants_run(db: PgPool) {
    let world = world(db).await;
    let [a, b, c] = [
        world.content("Conteúdo A").await,
        world.content("Conteúdo B").await,
        world.content("Conteúdo C").await,
    ];
    let category: i64 = sqlx::query_scalar(
        "INSERT INTO participant_categories (station_id, name) VALUES ($1, 'Participe') RETURNING id",
    )
    .bind(world.station_id)
    .fetch_one(&world.db)
    .await
    .expect("category");
    let journey: i64 = sqlx::query_scalar(
        "INSERT INTO journeys (station_id, name) VALUES ($1, 'Trilha') RETURNING id",
    )
    .bind(world.station_id)
    .fetch_one(&world.db)
    .await
    .expect("journey");
    for action in [a, b] {
        sqlx::query("INSERT INTO category_actions (category_id, action_id) VALUES ($1, $2)")
            .bind(category)
            .bind(action)
            .execute(&world.db)
            .await
            .expect("category action");
    }
    for action in [b, c] {
        sqlx::query("INSERT INTO journey_actions (journey_id, action_id) VALUES ($1, $2)")
            .bind(journey)
            .bind(action)
            .execute(&world.db)
            .await
            .expect("journey action");
    }
    world
        .trophy("Três atividades", Rule::ActivitiesDone(3))
        .await;
    world
        .trophy(
            "Categoria",
            Rule::CategoryDone {
                category_id: category,
                threshold: 2,
            },
        )
        .await;
    world.trophy("Trilha", Rule::JourneyDone(journey)).await;
    world.trophy("Quiz", Rule::QuizzesWon(1)).await;

    // Two participations: the category is done, the journey not yet.
    for action in [a, b] {
        let answer = send_json(
            &world.app,
            "POST",
            "/api/raw-content-participation",
            Some(&world.token),
            &[],
            &json!({ "action_id": action }),
        )
        .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    }
    let keys: Vec<String> = sqlx::query_scalar(
        "SELECT idempotency_key FROM apalis.jobs WHERE job_type = 'trophies.grant' ORDER BY 1",
    )
    .fetch_all(&world.db)
    .await
    .expect("jobs");
    assert_eq!(keys.len(), 2, "one grant per participation: {keys:?}");
    assert!(
        keys.iter()
            .all(|key| key.starts_with("trophies:participation:"))
    );
    assert_eq!(world.grant_at_once(8, Some(world.member_id)).await, 1);
    assert_eq!(world.held(world.member_id).await, vec!["Categoria"]);

    // The third participation completes three activities and the journey: granted by many
    // concurrent runs, each trophy is held once.
    send_json(
        &world.app,
        "POST",
        "/api/raw-content-participation",
        Some(&world.token),
        &[],
        &json!({ "action_id": c }),
    )
    .await;
    assert_eq!(world.grant_at_once(10, Some(world.member_id)).await, 2);
    assert_eq!(
        world.held(world.member_id).await,
        vec!["Três atividades", "Categoria", "Trilha"]
    );
    assert_eq!(
        world.grant_at_once(4, None).await,
        0,
        "nothing more is owed"
    );
}

#[testkit::db_test]
async fn the_backfill_grants_a_later_trophy_to_every_member_who_meets_it_once(db: PgPool) {
    let world = world(db).await;
    let action = world.content("Conteúdo").await;
    let joao = insert_member(&world.db, world.station_id, "joao@example.com").await;
    let elsewhere = insert_station(&world.db, "longe").await;
    let outsider = insert_member(&world.db, elsewhere, "fora@example.com").await;
    for user in [world.member_id, joao] {
        sqlx::query(
            "INSERT INTO participations (station_id, user_id, action_id, attempt) VALUES ($1, $2, $3, 1)",
        )
        .bind(world.station_id)
        .bind(user)
        .bind(action)
        .execute(&world.db)
        .await
        .expect("participation");
    }
    // Created after the participations that earn it: only the backfill grants it.
    world
        .trophy("Primeira atividade", Rule::ActivitiesDone(1))
        .await;
    assert_eq!(world.grant_at_once(3, None).await, 2);
    assert_eq!(world.grant_at_once(1, None).await, 0);
    assert_eq!(world.held(joao).await, vec!["Primeira atividade"]);
    assert!(
        world.held(outsider).await.is_empty(),
        "another station's trophy"
    );
}

#[testkit::db_test]
async fn a_member_sees_only_their_own_trophies(db: PgPool) {
    let world = world(db).await;
    let action = world.content("Conteúdo").await;
    let trophy = world.trophy("Pioneiro", Rule::ActivitiesDone(1)).await;
    sqlx::query("INSERT INTO participations (station_id, user_id, action_id, attempt) VALUES ($1, $2, $3, 1)")
        .bind(world.station_id)
        .bind(world.member_id)
        .bind(action)
        .execute(&world.db)
        .await
        .expect("participation");
    world.grant_at_once(1, None).await;
    let uri = format!(
        "/api/trophies/?where[station_id]={}&&where[user_id]={}",
        world.station_id, world.member_id
    );
    let mine = common::call(&world.app, "GET", &uri, Some(&world.token), &[]).await;
    assert_eq!(mine.status, StatusCode::OK, "{}", mine.text);
    let body = mine.json();
    assert_eq!(body.as_array().expect("list").len(), 1);
    assert_eq!(body[0]["id"], trophy);
    assert_eq!(body[0]["name"], "Pioneiro");
    assert_eq!(body[0]["description"], "Descrição de Pioneiro");
    assert_eq!(body[0]["trophy_image"], Value::Null);
    assert!(body[0]["createdAt"].is_string());

    let joao = insert_member(&world.db, world.station_id, "joao@example.com").await;
    let joao_token = session_of(&world.db, joao).await;
    let his = common::call(&world.app, "GET", "/api/trophies/", Some(&joao_token), &[]).await;
    assert_eq!(his.json(), json!([]));
    let peek = common::call(&world.app, "GET", &uri, Some(&joao_token), &[]).await;
    assert_eq!(peek.status, StatusCode::FORBIDDEN);
    let anonymous = common::call(&world.app, "GET", "/api/trophies/", None, &[]).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}
