//! `GET /api/jobs/{id}`: a member follows their own job through its states; anyone else's
//! job, or an unknown id, is not found.

use crate::common;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::{Answer, app, call};
use axum::Router;
use axum::http::StatusCode;
use jobs::kinds::Canary;
use jobs::{Enqueue, Services};
use seed::demo;
use serde_json::Value;
use sqlx::PgPool;

async fn get_job(app: &Router, id: &str, token: Option<&str>) -> Answer {
    call(app, "GET", &format!("/api/jobs/{id}"), token, &[]).await
}

async fn enqueue(db: &PgPool, canary: Canary, owner: Option<(i64, i64)>) -> String {
    let mut job = Enqueue::new(canary);
    if let Some((station_id, user_id)) = owner {
        job = job.owner(station_id, Some(user_id)).about("test", 1);
    }
    job.commit(db).await.expect("enqueue").id
}

fn fleet_services(db: &PgPool) -> Arc<Services> {
    // A fleet runs more jobs at once than the per-test pool has connections.
    let config = common::config_with(&[]);
    let pool = jobs::fleet::pool_beside(db);
    Services::new(pool, config).expect("services")
}

#[testkit::db_test]
async fn a_member_watches_their_job_fail_twice_then_succeed(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    let id = enqueue(
        &db,
        Canary {
            key: Some("watched".into()),
            fail_times: 2,
            hold_ms: 0,
            abort: false,
            stamp_start: false,
        },
        Some((demo.station_id, demo.member_id)),
    )
    .await;

    let first = get_job(&app, &id, Some(&token)).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let body = first.json();
    assert_eq!(body["id"], id.as_str());
    assert_eq!(body["kind"], "canary");
    assert_eq!(body["state"], "queued");
    assert_eq!(
        (body["attempts"].as_i64(), body["max_attempts"].as_i64()),
        (Some(0), Some(5))
    );
    for field in [
        "run_at",
        "started_at",
        "finished_at",
        "progress",
        "result",
        "error",
    ] {
        assert!(body.get(field).is_some(), "missing {field}");
    }

    let fleet = jobs::fleet::spawn(fleet_services(&db), Vec::new());
    // Every distinct (state, attempts) the API shows, in order.
    let mut seen: Vec<(String, i64, Value)> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let answer = get_job(&app, &id, Some(&token)).await;
        assert_eq!(answer.status, StatusCode::OK);
        let body = answer.json();
        let state = body["state"].as_str().expect("state").to_string();
        let attempts = body["attempts"].as_i64().expect("attempts");
        if seen
            .last()
            .is_none_or(|(s, a, _)| (s, *a) != (&state, attempts))
        {
            seen.push((state.clone(), attempts, body));
        }
        if state == "succeeded" {
            break;
        }
        assert!(Instant::now() < deadline, "not done: {seen:?}");
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    fleet.stop().await.expect("clean stop");

    let retries: Vec<&(String, i64, Value)> = seen
        .iter()
        .filter(|(state, _, _)| state == "retrying")
        .collect();
    assert_eq!(
        retries
            .iter()
            .map(|(_, attempts, _)| *attempts)
            .collect::<Vec<_>>(),
        vec![1, 2],
        "{seen:?}"
    );
    for (_, attempts, body) in &retries {
        assert_eq!(
            body["error"],
            "Falha de teste; a tarefa será tentada de novo."
        );
        // The next attempt waits 1 s then 2 s (canary's backoff), from the failure.
        let run_at = chrono::DateTime::parse_from_rfc3339(body["run_at"].as_str().expect("run_at"))
            .expect("time");
        let finished = chrono::DateTime::parse_from_rfc3339(
            body["finished_at"].as_str().expect("finished_at"),
        )
        .expect("time");
        let wait = (run_at - finished).num_milliseconds();
        let expected = 1000 * (1 << (attempts - 1));
        assert!(
            wait >= expected - 50 && wait <= expected * 12 / 10 + 100,
            "attempt {attempts}: waits {wait} ms"
        );
    }
    let (state, attempts, last) = seen.last().expect("final");
    assert_eq!((state.as_str(), *attempts), ("succeeded", 3));
    assert_eq!(last["result"], serde_json::json!({ "written": true }));
    assert_eq!(last["error"], Value::Null);
    assert!(last["started_at"].is_string() && last["finished_at"].is_string());
}

#[testkit::db_test]
async fn another_members_job_and_an_unknown_id_are_not_found(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let other = common::insert_member(&db, demo.station_id, "outra@example.com").await;
    let other_token = domain::accounts::session::create(&db, other)
        .await
        .expect("session");
    let token = domain::accounts::session::create(&db, demo.member_id)
        .await
        .expect("session");
    let app = app(db.clone());
    let mine = enqueue(
        &db,
        Canary::default(),
        Some((demo.station_id, demo.member_id)),
    )
    .await;
    let unowned = enqueue(&db, Canary::default(), None).await;

    assert_eq!(
        get_job(&app, &mine, Some(&token)).await.status,
        StatusCode::OK
    );
    for (id, token) in [
        (mine.as_str(), other_token.as_str()),
        (unowned.as_str(), token.as_str()),
        ("01JUNKN0WNJ0B0000000000000", token.as_str()),
        ("not-even-an-id", token.as_str()),
    ] {
        let answer = get_job(&app, id, Some(token)).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{id}");
        assert_eq!(
            answer.json(),
            serde_json::json!({ "error": "Tarefa não encontrada" })
        );
    }
}

#[testkit::db_test]
async fn without_a_valid_session_the_answer_is_401(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    let mine = enqueue(
        &db,
        Canary::default(),
        Some((demo.station_id, demo.member_id)),
    )
    .await;

    sqlx::query("UPDATE sessions SET revoked_at = now()")
        .execute(&db)
        .await
        .expect("revoke");
    for token in [None, Some("forged"), Some(token.as_str())] {
        let answer = get_job(&app, &mine, token).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{token:?}");
        assert_eq!(
            answer.json(),
            serde_json::json!({ "messages": ["Você não possui autorização para acessar esta página."] })
        );
    }
}
