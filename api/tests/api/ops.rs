//! `/api/ops`, the support console: only staff with a grant get in; viewers read, support
//! acts; a one-station grant sees and touches only its station; every action is audited.
//! Jobs run on a real fleet where the test is about running them.

use crate::common;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::{Answer, app, call, send_json};
use axum::Router;
use axum::http::StatusCode;
use domain::staff::{Role, Scope};
use jobs::kinds::Canary;
use jobs::{Enqueue, Services};
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::build;

const STAFF_ONLY: &str = "Acesso restrito à equipe de suporte.";
const READ_ONLY: &str = "Seu perfil permite apenas consultar.";

/// A staff account with a console grant, signed in.
async fn staff(
    db: &PgPool,
    station_id: i64,
    email: &str,
    role: Role,
    scope: Scope,
) -> (i64, String) {
    let id = build::member(station_id)
        .name(&format!("Equipe {email}"))
        .email(email)
        .staff()
        .insert(db)
        .await;
    domain::staff::set_grant(db, id, role, scope)
        .await
        .expect("grant");
    (
        id,
        domain::accounts::session::create(db, id)
            .await
            .expect("session"),
    )
}

/// Everyone the tests need: the demo station (its member and staff) and a second station.
struct World {
    app: Router,
    station: i64,
    other_station: i64,
    member_id: i64,
    member: String,
    /// `support` of every station (the demo's staff account).
    support_id: i64,
    support: String,
    /// `support` of the demo station only.
    local: String,
    /// `viewer` of the demo station.
    viewer: String,
}

async fn world(db: &PgPool) -> World {
    let (demo, member) = common::demo_member_session(db).await;
    let other_station = common::insert_station(db, "outro").await;
    let support = domain::accounts::session::create(db, demo.staff_id)
        .await
        .expect("session");
    let (_, local) = staff(
        db,
        demo.station_id,
        "local@example.com",
        Role::Support,
        Scope::Station(demo.station_id),
    )
    .await;
    let viewer = domain::accounts::session::create(db, demo.viewer_id)
        .await
        .expect("session");
    World {
        app: app(db.clone()),
        station: demo.station_id,
        other_station,
        member_id: demo.member_id,
        member,
        support_id: demo.staff_id,
        support,
        local,
        viewer,
    }
}

async fn get(app: &Router, uri: &str, token: &str) -> Answer {
    call(app, "GET", uri, Some(token), &[]).await
}

async fn post(app: &Router, uri: &str, token: &str) -> Answer {
    call(app, "POST", uri, Some(token), &[]).await
}

async fn post_body(app: &Router, uri: &str, token: &str, body: Value) -> Answer {
    send_json(app, "POST", uri, Some(token), &[], &body).await
}

fn keyed(key: &str) -> Canary {
    Canary {
        key: Some(key.into()),
        ..Canary::default()
    }
}

/// A canary job owned by `station` (or by nobody: a system job).
async fn enqueue(db: &PgPool, canary: Canary, station: Option<i64>) -> String {
    let mut job = Enqueue::new(canary);
    if let Some(station) = station {
        job = job.owner(station, None).about("test", 1);
    }
    job.commit(db).await.expect("enqueue").id
}

/// Ends a job as a worker would have: failed for good, with its failure recorded.
async fn fail_for_good(db: &PgPool, id: &str, detail: &str) {
    sqlx::query(
        r#"UPDATE apalis.jobs
           SET status = 'Failed', attempts = max_attempts, lock_at = now(), done_at = now(),
               last_result = '{"Err": "Falha de teste"}'
           WHERE id = $1"#,
    )
    .bind(id)
    .execute(db)
    .await
    .expect("fail");
    sqlx::query(
        "INSERT INTO job_failures (job_id, attempt, worker, summary, detail)
         VALUES ($1, 5, 'canary@test:1#0', 'Falha de teste; a tarefa será tentada de novo.', $2)",
    )
    .bind(id)
    .bind(detail)
    .execute(db)
    .await
    .expect("failure");
}

/// What a worker or an action can change on a job.
async fn snapshot(db: &PgPool) -> HashMap<String, (String, i32, String, Option<Value>)> {
    let rows: Vec<(String, String, i32, String, Option<Value>)> =
        sqlx::query_as("SELECT id, status, attempts, run_at::text, last_result FROM apalis.jobs")
            .fetch_all(db)
            .await
            .expect("jobs");
    rows.into_iter()
        .map(|(id, status, attempts, run_at, result)| (id, (status, attempts, run_at, result)))
        .collect()
}

/// The fleet on a pool of its own (it runs more jobs at once than the test's pool has
/// connections), with retries stretched so a failed attempt waits for staff.
async fn start_fleet(db: &PgPool) -> (jobs::fleet::FleetHandle, PgPool) {
    let config = common::config_with(&[("FILIA_JOB_BACKOFF_SCALE", "1000")]);
    let pool = jobs::fleet::pool_beside(db);
    let services: Arc<Services> = Services::new(pool.clone(), config).expect("services");
    (jobs::fleet::spawn(services, Vec::new()), pool)
}

async fn wait_for_state(
    app: &Router,
    token: &str,
    id: &str,
    state: &str,
    within: Duration,
) -> Value {
    let deadline = Instant::now() + within;
    loop {
        let answer = get(app, &format!("/api/ops/jobs/{id}"), token).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        let job = answer.json();
        if job["state"] == state {
            return job;
        }
        assert!(
            Instant::now() < deadline,
            "not {state} after {within:?}: {job}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn audit(app: &Router, token: &str) -> Vec<Value> {
    let answer = get(app, "/api/ops/audit", token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer.json()["entries"]
        .as_array()
        .expect("entries")
        .clone()
}

#[testkit::db_test]
async fn members_visitors_and_staff_without_a_grant_get_403_on_every_call(db: PgPool) {
    let w = world(&db).await;
    let job = enqueue(&db, Canary::default(), Some(w.station)).await;
    // Role staff but no grant, and a grant on an account that is not staff.
    let (ungranted, ungranted_token) = staff(
        &db,
        w.station,
        "semacesso@example.com",
        Role::Support,
        Scope::AllStations,
    )
    .await;
    sqlx::query("DELETE FROM staff_grants WHERE user_id = $1")
        .bind(ungranted)
        .execute(&db)
        .await
        .expect("revoke grant");
    domain::staff::set_grant(&db, w.member_id, Role::Support, Scope::AllStations)
        .await
        .expect("grant to a member");

    let calls = [
        ("GET", "/api/ops/me".to_string()),
        ("GET", "/api/ops/queues".to_string()),
        ("POST", "/api/ops/queues/canary/pause".to_string()),
        ("POST", "/api/ops/queues/canary/resume".to_string()),
        ("GET", "/api/ops/jobs".to_string()),
        ("GET", "/api/ops/jobs/rerunnable".to_string()),
        ("GET", format!("/api/ops/jobs/{job}")),
        ("POST", format!("/api/ops/jobs/{job}/rerun")),
        ("POST", format!("/api/ops/jobs/{job}/cancel")),
        ("POST", "/api/ops/jobs/rerun".to_string()),
        ("GET", "/api/ops/stations".to_string()),
        ("POST", format!("/api/ops/stations/{}/release", w.station)),
        ("GET", "/api/ops/audit".to_string()),
    ];
    for token in [
        None,
        Some("forged"),
        Some(w.member.as_str()),
        Some(ungranted_token.as_str()),
    ] {
        for (method, uri) in &calls {
            let answer = send_json(
                &w.app,
                method,
                uri,
                token,
                &[],
                &json!({ "filter": {}, "expected": 0 }),
            )
            .await;
            assert_eq!(
                answer.status,
                StatusCode::FORBIDDEN,
                "{method} {uri} {token:?}"
            );
            assert_eq!(answer.json(), json!({ "error": STAFF_ONLY }));
        }
    }
    let job_now = get(&w.app, &format!("/api/ops/jobs/{job}"), &w.support).await;
    assert_eq!(job_now.json()["state"], "queued", "nothing was touched");
    assert!(audit(&w.app, &w.support).await.is_empty());
}

#[testkit::db_test]
async fn me_tells_role_scope_and_whether_the_user_can_act(db: PgPool) {
    let w = world(&db).await;
    let me = get(&w.app, "/api/ops/me", &w.support).await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.text);
    assert_eq!(
        me.json(),
        json!({
            "user": { "id": w.support_id, "name": "Equipe Demo", "email": seed::demo::STAFF_EMAIL },
            "role": "support", "station": null, "can_act": true
        })
    );
    let me = get(&w.app, "/api/ops/me", &w.viewer).await.json();
    assert_eq!(me["role"], "viewer");
    assert_eq!(me["can_act"], false);
    assert_eq!(
        me["station"],
        json!({ "id": w.station, "name": seed::demo::DEMO_STATION_NAME })
    );
}

#[testkit::db_test]
async fn a_viewer_lists_and_reads_but_cannot_act_and_the_job_is_untouched(db: PgPool) {
    let w = world(&db).await;
    let failed = enqueue(&db, keyed("visto"), Some(w.station)).await;
    fail_for_good(&db, &failed, "conexão recusada").await;
    let queued = enqueue(&db, keyed("na-fila"), Some(w.station)).await;
    let before = snapshot(&db).await;

    let list = get(&w.app, "/api/ops/jobs?state=failed", &w.viewer).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let list = list.json();
    let count = get(&w.app, "/api/ops/jobs/rerunnable?state=failed", &w.viewer).await;
    assert_eq!(count.status, StatusCode::OK, "{}", count.text);
    assert_eq!(
        (list["jobs"].as_array().map(Vec::len), count.json()),
        (Some(1), json!({ "rerunnable": 1 }))
    );
    assert_eq!(list["jobs"][0]["id"], failed.as_str());
    assert_eq!(
        get(&w.app, &format!("/api/ops/jobs/{failed}"), &w.viewer)
            .await
            .status,
        StatusCode::OK
    );
    for answer in [
        post(&w.app, &format!("/api/ops/jobs/{failed}/rerun"), &w.viewer).await,
        post(&w.app, &format!("/api/ops/jobs/{queued}/cancel"), &w.viewer).await,
        post_body(
            &w.app,
            "/api/ops/jobs/rerun",
            &w.viewer,
            json!({ "filter": { "state": "failed" }, "expected": 1 }),
        )
        .await,
        post(&w.app, "/api/ops/queues/canary/pause", &w.viewer).await,
        post(
            &w.app,
            &format!("/api/ops/stations/{}/release", w.station),
            &w.viewer,
        )
        .await,
    ] {
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.text);
        assert_eq!(answer.json(), json!({ "error": READ_ONLY }));
    }
    assert_eq!(snapshot(&db).await, before, "no job changed");
    assert!(audit(&w.app, &w.support).await.is_empty());
}

#[testkit::db_test]
async fn a_support_user_reruns_a_failed_job_and_it_succeeds(db: PgPool) {
    let w = world(&db).await;
    // The canary's write fails while this trigger stands, as on a full disk.
    sqlx::raw_sql(
        "CREATE FUNCTION refuse_effects() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'disco cheio (teste)'; END $$;
         CREATE TRIGGER refuse_effects BEFORE INSERT ON job_canary_effects
             FOR EACH ROW EXECUTE FUNCTION refuse_effects();",
    )
    .execute(&db)
    .await
    .expect("fault");
    let id = enqueue(&db, keyed("reexecutada"), Some(w.station)).await;
    // One attempt only, so its first failure is final.
    sqlx::query("UPDATE apalis.jobs SET max_attempts = 1 WHERE id = $1")
        .bind(&id)
        .execute(&db)
        .await
        .expect("one attempt");
    let (fleet, fleet_db) = start_fleet(&db).await;

    let failed = wait_for_state(&w.app, &w.support, &id, "failed", Duration::from_secs(15)).await;
    assert_eq!(failed["error"], "Falha ao gravar o resultado.");
    assert_eq!(
        (failed["attempts"].as_i64(), failed["max_attempts"].as_i64()),
        (Some(1), Some(1))
    );
    assert_eq!(failed["failures"][0]["attempt"], 1);
    // The database error by its code: its message may quote data, so it is not kept.
    assert!(
        failed["failures"][0]["detail"]
            .as_str()
            .is_some_and(
                |detail| detail.contains("database error P0001") && !detail.contains("disco cheio")
            ),
        "{failed}"
    );
    assert_eq!(
        failed["payload"],
        json!({ "key": "reexecutada", "fail_times": 0, "hold_ms": 0 })
    );
    assert_eq!(
        failed["owner"],
        json!({ "station": { "id": w.station, "name": seed::demo::DEMO_STATION_NAME }, "user": null })
    );
    assert_eq!(failed["subject"], json!({ "kind": "test", "id": "1" }));
    let listed = get(&w.app, "/api/ops/jobs?q=p0001", &w.support)
        .await
        .json();
    assert_eq!(
        listed["jobs"].as_array().map(Vec::len),
        Some(1),
        "found by its failure's detail"
    );

    sqlx::raw_sql("DROP TRIGGER refuse_effects ON job_canary_effects")
        .execute(&db)
        .await
        .expect("fault fixed");
    let rerun = post(&w.app, &format!("/api/ops/jobs/{id}/rerun"), &w.support).await;
    assert_eq!(rerun.status, StatusCode::OK, "{}", rerun.text);
    let rerun = rerun.json();
    assert_eq!(rerun["id"], id.as_str());
    assert_eq!(rerun["attempts"], 0);
    assert!(
        rerun["state"] == "queued" || rerun["state"] == "running",
        "{rerun}"
    );

    let done = wait_for_state(
        &w.app,
        &w.support,
        &id,
        "succeeded",
        Duration::from_secs(15),
    )
    .await;
    assert_eq!(done["result"], json!({ "written": true }));
    assert_eq!(done["attempts"], 1);
    assert_eq!(done["error"], Value::Null);
    assert_eq!(
        done["failures"].as_array().map(Vec::len),
        Some(1),
        "history kept"
    );
    // Re-running a succeeded job is refused, and changes nothing.
    let again = post(&w.app, &format!("/api/ops/jobs/{id}/rerun"), &w.support).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(
        again.json(),
        json!({ "error": "Esta tarefa não pode ser reexecutada agora." })
    );

    // The re-run is in the audit log, in the list and in the job's detail.
    let entries = audit(&w.app, &w.support).await;
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["action"], "job.rerun");
    assert_eq!(entries[0]["user"]["id"], w.support_id);
    assert_eq!(entries[0]["job_ids"], json!([id]));
    assert_eq!(entries[0]["station_id"], w.station);
    assert_eq!(entries[0]["details"]["state_before"], "failed");
    assert_eq!(done["audit"][0]["id"], entries[0]["id"]);
    fleet.stop().await.expect("clean stop");
    fleet_db.close().await;
}

#[testkit::db_test]
async fn bulk_rerun_touches_exactly_the_jobs_matching_the_filter(db: PgPool) {
    let w = world(&db).await;
    // Failed canaries that mention "alvo": in the payload (two stations) or in the failure.
    let here = enqueue(&db, keyed("alvo-1"), Some(w.station)).await;
    fail_for_good(&db, &here, "recusado").await;
    let there = enqueue(&db, keyed("alvo-2"), Some(w.other_station)).await;
    fail_for_good(&db, &there, "recusado").await;
    let by_error = enqueue(&db, keyed("x-3"), Some(w.station)).await;
    fail_for_good(&db, &by_error, "o servidor ALVO recusou").await;
    // Not matching: failed without the text, succeeded, retrying, cancelled, another queue.
    let plain = enqueue(&db, keyed("x-4"), Some(w.station)).await;
    fail_for_good(&db, &plain, "recusado").await;
    let succeeded = enqueue(&db, keyed("alvo-5"), Some(w.station)).await;
    sqlx::query(
        r#"UPDATE apalis.jobs SET status = 'Done', attempts = 1, done_at = now(),
                  last_result = '{"Ok": {"written": true}}' WHERE id = $1"#,
    )
    .bind(&succeeded)
    .execute(&db)
    .await
    .expect("done");
    let retrying = enqueue(&db, keyed("alvo-6"), Some(w.station)).await;
    sqlx::query(
        "UPDATE apalis.jobs SET status = 'Failed', attempts = 1, run_at = now() + interval '1 hour'
         WHERE id = $1",
    )
    .bind(&retrying)
    .execute(&db)
    .await
    .expect("retrying");
    let cancelled = enqueue(&db, keyed("alvo-7"), Some(w.station)).await;
    assert!(jobs::state::cancel(&db, &cancelled).await.expect("cancel"));
    let other_queue: String = sqlx::query_scalar(
        r#"INSERT INTO apalis.jobs (id, job_type, job, status, attempts, max_attempts, done_at,
                                    last_result)
           VALUES ($1, 'mail.send', convert_to('{"v": 1, "args": {"to": "alvo@example.com"}}', 'UTF8'),
                   'Failed', 8, 8, now(), '{"Err": "recusado"}')
           RETURNING id"#,
    )
    .bind(ulid::Ulid::generate().to_string())
    .fetch_one(&db)
    .await
    .expect("other queue");

    let filter = json!({ "queue": "canary", "state": "failed", "q": "alvo" });
    let listed = get(
        &w.app,
        "/api/ops/jobs?queue=canary&state=failed&q=alvo",
        &w.support,
    )
    .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    let listed = listed.json();
    let counted = get(
        &w.app,
        "/api/ops/jobs/rerunnable?queue=canary&state=failed&q=alvo",
        &w.support,
    )
    .await
    .json();
    assert_eq!(
        (
            listed["jobs"].as_array().map(Vec::len),
            &counted["rerunnable"]
        ),
        (Some(3), &json!(3))
    );
    // Without the state filter the retrying and cancelled ones count too, the succeeded not.
    let wider = get(&w.app, "/api/ops/jobs?queue=canary&q=alvo", &w.support)
        .await
        .json();
    let wider_count = get(
        &w.app,
        "/api/ops/jobs/rerunnable?queue=canary&q=alvo",
        &w.support,
    )
    .await
    .json();
    assert_eq!(
        (
            wider["jobs"].as_array().map(Vec::len),
            &wider_count["rerunnable"]
        ),
        (Some(6), &json!(5))
    );

    let before = snapshot(&db).await;
    let stale = post_body(
        &w.app,
        "/api/ops/jobs/rerun",
        &w.support,
        json!({ "filter": filter, "expected": 2 }),
    )
    .await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.text);
    assert_eq!(
        stale.json(),
        json!({ "error": "A seleção mudou: agora são 3 tarefas. Confirme novamente.", "count": 3 })
    );
    assert_eq!(snapshot(&db).await, before, "nothing touched");

    // The demo station's own support: only its two.
    let local = post_body(
        &w.app,
        "/api/ops/jobs/rerun",
        &w.local,
        json!({ "filter": filter, "expected": 2 }),
    )
    .await;
    assert_eq!(local.status, StatusCode::OK, "{}", local.text);
    let mut ids = vec![here.clone(), by_error.clone()];
    ids.sort();
    assert_eq!(local.json(), json!({ "rerun": 2, "job_ids": ids }));

    let global = post_body(
        &w.app,
        "/api/ops/jobs/rerun",
        &w.support,
        json!({ "filter": filter, "expected": 1 }),
    )
    .await;
    assert_eq!(global.status, StatusCode::OK, "{}", global.text);
    assert_eq!(global.json(), json!({ "rerun": 1, "job_ids": [there] }));

    let after = snapshot(&db).await;
    for id in [&here, &there, &by_error] {
        let (status, attempts, _, result) = &after[id.as_str()];
        assert_eq!(
            (status.as_str(), *attempts, result),
            ("Pending", 0, &None),
            "{id}"
        );
    }
    for id in [&plain, &succeeded, &retrying, &cancelled, &other_queue] {
        assert_eq!(after[id.as_str()], before[id.as_str()], "{id} untouched");
    }
    let cancelled_at: Option<chrono::DateTime<chrono::Utc>> =
        sqlx::query_scalar("SELECT cancelled_at FROM job_records WHERE job_id = $1")
            .bind(&cancelled)
            .fetch_one(&db)
            .await
            .expect("record");
    assert!(cancelled_at.is_some(), "the cancelled job stays cancelled");

    let entries = audit(&w.app, &w.support).await;
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0]["action"], "jobs.rerun");
    assert_eq!(entries[0]["job_ids"], json!([there]));
    assert_eq!(entries[0]["details"]["count"], 1);
    assert_eq!(entries[0]["details"]["filter"]["q"], "alvo");
    assert_eq!(entries[1]["job_ids"], json!(ids));
    assert_eq!(entries[1]["station_id"], w.station);
    // The station's own staff see their entry only.
    let local_entries = audit(&w.app, &w.local).await;
    assert_eq!(local_entries.len(), 1);
    assert_eq!(local_entries[0]["id"], entries[1]["id"]);
}

#[testkit::db_test]
async fn a_bulk_rerun_across_stations_is_audited_once_per_station(db: PgPool) {
    let w = world(&db).await;
    let here = enqueue(&db, keyed("lote-1"), Some(w.station)).await;
    let here_too = enqueue(&db, keyed("lote-2"), Some(w.station)).await;
    let there = enqueue(&db, keyed("lote-3"), Some(w.other_station)).await;
    let system = enqueue(&db, keyed("lote-4"), None).await;
    for id in [&here, &here_too, &there, &system] {
        fail_for_good(&db, id, "recusado").await;
    }
    let waiting = enqueue(&db, keyed("lote-5"), Some(w.station)).await;

    // The list and the detail say which actions each job's state allows.
    let listed = get(&w.app, "/api/ops/jobs?q=lote", &w.support).await.json();
    let allowed: HashMap<String, (bool, bool)> = listed["jobs"]
        .as_array()
        .expect("jobs")
        .iter()
        .map(|job| {
            (
                job["id"].as_str().expect("id").to_string(),
                (
                    job["can_rerun"].as_bool().expect("can_rerun"),
                    job["can_cancel"].as_bool().expect("can_cancel"),
                ),
            )
        })
        .collect();
    assert_eq!(allowed[&here], (true, false));
    assert_eq!(allowed[&waiting], (false, true));
    let detail = get(&w.app, &format!("/api/ops/jobs/{here}"), &w.support)
        .await
        .json();
    assert_eq!(
        (&detail["can_rerun"], &detail["can_cancel"]),
        (&json!(true), &json!(false))
    );

    let done = post_body(
        &w.app,
        "/api/ops/jobs/rerun",
        &w.support,
        json!({ "filter": { "state": "failed", "q": "lote" }, "expected": 4 }),
    )
    .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert_eq!(done.json()["rerun"], 4);

    // One entry per station among the jobs, and one for the unowned job.
    let entries = audit(&w.app, &w.support).await;
    let mut by_station: Vec<(Value, Value, Value, Value)> = entries
        .iter()
        .map(|entry| {
            assert_eq!(entry["action"], "jobs.rerun");
            assert_eq!(entry["details"]["filter"]["q"], "lote");
            (
                entry["station_id"].clone(),
                entry["job_ids"].clone(),
                entry["details"]["count"].clone(),
                entry["details"]["total"].clone(),
            )
        })
        .collect();
    by_station.sort_by_key(|(station, ..)| station.as_i64());
    let mut mine = vec![here.clone(), here_too.clone()];
    mine.sort();
    let mut expected = vec![
        (Value::Null, json!([system]), json!(1), json!(4)),
        (json!(w.station), json!(mine), json!(2), json!(4)),
        (json!(w.other_station), json!([there]), json!(1), json!(4)),
    ];
    expected.sort_by_key(|(station, ..)| station.as_i64());
    assert_eq!(by_station, expected);
    // The demo station's staff see the re-run of their jobs.
    let local_entries = audit(&w.app, &w.local).await;
    assert_eq!(local_entries.len(), 1);
    assert_eq!(local_entries[0]["job_ids"], json!(mine));

    // A re-run job is waiting again: it can be cancelled, not re-run.
    let rerun = get(&w.app, &format!("/api/ops/jobs/{here}"), &w.support)
        .await
        .json();
    assert_eq!(
        (&rerun["can_rerun"], &rerun["can_cancel"]),
        (&json!(false), &json!(true))
    );
    let cancelled = post(&w.app, &format!("/api/ops/jobs/{here}/cancel"), &w.support).await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    assert_eq!(
        (
            &cancelled.json()["can_rerun"],
            &cancelled.json()["can_cancel"]
        ),
        (&json!(true), &json!(false))
    );
}

#[testkit::db_test]
async fn pause_stops_pickup_and_resume_restarts_it(db: PgPool) {
    let w = world(&db).await;
    let (fleet, fleet_db) = start_fleet(&db).await;
    // The fleet declares its queues as it starts.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let queues = get(&w.app, "/api/ops/queues", &w.support).await.json();
        if queues
            .as_array()
            .is_some_and(|queues| queues.iter().any(|queue| queue["name"] == "canary"))
        {
            break;
        }
        assert!(Instant::now() < deadline, "canary never declared");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let refused = post(&w.app, "/api/ops/queues/canary/pause", &w.local).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert_eq!(
        refused.json(),
        json!({ "error": "Somente a equipe de todas as estações pode pausar filas." })
    );
    let unknown = post(&w.app, "/api/ops/queues/nada/pause", &w.support).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.json(), json!({ "error": "Fila não encontrada" }));

    let paused = post(&w.app, "/api/ops/queues/canary/pause", &w.support).await;
    assert_eq!(paused.status, StatusCode::OK, "{}", paused.text);
    let paused = paused.json();
    assert_eq!(paused["name"], "canary");
    assert_eq!(paused["paused"], true);
    assert_eq!(
        paused["paused_by"],
        json!({ "id": w.support_id, "name": "Equipe Demo" })
    );
    let id = enqueue(&db, keyed("pausada"), None).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let waiting = get(&w.app, &format!("/api/ops/jobs/{id}"), &w.support)
        .await
        .json();
    assert_eq!(waiting["state"], "queued", "{waiting}");
    let queue = get(&w.app, "/api/ops/queues", &w.support).await.json();
    let canary = queue
        .as_array()
        .and_then(|queues| queues.iter().find(|queue| queue["name"] == "canary"))
        .expect("canary")
        .clone();
    assert_eq!(canary["paused"], true);
    assert_eq!(canary["counts"]["queued"], 1);

    let resumed = post(&w.app, "/api/ops/queues/canary/resume", &w.support).await;
    assert_eq!(resumed.status, StatusCode::OK, "{}", resumed.text);
    assert_eq!(
        (
            resumed.json()["paused"].clone(),
            resumed.json()["paused_by"].clone()
        ),
        (json!(false), Value::Null)
    );
    wait_for_state(
        &w.app,
        &w.support,
        &id,
        "succeeded",
        Duration::from_secs(10),
    )
    .await;

    let entries = audit(&w.app, &w.support).await;
    let actions: Vec<(&str, &str)> = entries
        .iter()
        .map(|entry| {
            (
                entry["action"].as_str().unwrap_or_default(),
                entry["details"]["queue"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        actions,
        [("queue.resume", "canary"), ("queue.pause", "canary")]
    );
    // A station's staff do not see queue actions, which belong to every station.
    assert!(audit(&w.app, &w.local).await.is_empty());
    fleet.stop().await.expect("clean stop");
    fleet_db.close().await;
}

#[testkit::db_test]
async fn station_staff_cannot_see_or_act_on_another_stations_or_system_jobs(db: PgPool) {
    let w = world(&db).await;
    let mine = enqueue(&db, keyed("minha"), Some(w.station)).await;
    let theirs = enqueue(&db, keyed("deles"), Some(w.other_station)).await;
    fail_for_good(&db, &theirs, "recusado").await;
    let system = enqueue(&db, keyed("sistema"), None).await;

    let listed = get(&w.app, "/api/ops/jobs", &w.local).await.json();
    assert_eq!(listed["jobs"].as_array().map(Vec::len), Some(1));
    assert_eq!(listed["jobs"][0]["id"], mine.as_str());
    let other = get(
        &w.app,
        &format!("/api/ops/jobs?station_id={}", w.other_station),
        &w.local,
    )
    .await
    .json();
    assert_eq!(other["jobs"].as_array().map(Vec::len), Some(0));
    let all = get(&w.app, "/api/ops/jobs", &w.support).await.json();
    assert_eq!(all["jobs"].as_array().map(Vec::len), Some(3));
    // The other station's failed job is re-runnable, but not by this station's staff.
    for uri in [
        "/api/ops/jobs/rerunnable".to_string(),
        format!("/api/ops/jobs/rerunnable?station_id={}", w.other_station),
    ] {
        let counted = get(&w.app, &uri, &w.local).await;
        assert_eq!(counted.status, StatusCode::OK, "{uri}");
        assert_eq!(counted.json(), json!({ "rerunnable": 0 }), "{uri}");
    }
    let everywhere = get(&w.app, "/api/ops/jobs/rerunnable", &w.support).await;
    assert_eq!(everywhere.json(), json!({ "rerunnable": 1 }));

    for id in [&theirs, &system] {
        for (method, uri) in [
            ("GET", format!("/api/ops/jobs/{id}")),
            ("POST", format!("/api/ops/jobs/{id}/rerun")),
            ("POST", format!("/api/ops/jobs/{id}/cancel")),
        ] {
            let answer = call(&w.app, method, &uri, Some(&w.local), &[]).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{method} {uri}");
            assert_eq!(answer.json(), json!({ "error": "Tarefa não encontrada" }));
        }
    }
    // Queue counts in scope: only the station's own job.
    let queues = get(&w.app, "/api/ops/queues", &w.local).await.json();
    let canary = queues
        .as_array()
        .and_then(|queues| queues.iter().find(|queue| queue["name"] == "canary"))
        .expect("canary")
        .clone();
    assert_eq!(canary["counts"]["queued"], 1);
    assert_eq!(canary["counts"]["failed"], 0);

    // Stations: only its own, and releasing another's is not found.
    let stations = get(&w.app, "/api/ops/stations", &w.local).await.json();
    assert_eq!(stations.as_array().map(Vec::len), Some(1));
    assert_eq!(stations[0]["id"], w.station);
    let release = post(
        &w.app,
        &format!("/api/ops/stations/{}/release", w.other_station),
        &w.local,
    )
    .await;
    assert_eq!(release.status, StatusCode::NOT_FOUND);
    assert_eq!(release.json(), json!({ "error": "Estação não encontrada" }));
    let all_stations = get(&w.app, "/api/ops/stations", &w.support).await.json();
    assert_eq!(all_stations.as_array().map(Vec::len), Some(2));
    assert!(audit(&w.app, &w.support).await.is_empty());
}

#[testkit::db_test]
async fn cancel_then_rerun_a_queued_job_each_audited(db: PgPool) {
    let w = world(&db).await;
    let id = enqueue(&db, keyed("cancelada"), Some(w.station)).await;

    let cancelled = post(&w.app, &format!("/api/ops/jobs/{id}/cancel"), &w.local).await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    assert_eq!(cancelled.json()["state"], "cancelled");
    let again = post(&w.app, &format!("/api/ops/jobs/{id}/cancel"), &w.local).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(
        again.json(),
        json!({ "error": "Esta tarefa não pode ser cancelada agora." })
    );
    let rerun = post(&w.app, &format!("/api/ops/jobs/{id}/rerun"), &w.local).await;
    assert_eq!(rerun.status, StatusCode::OK, "{}", rerun.text);
    assert_eq!(rerun.json()["state"], "queued");

    let detail = get(&w.app, &format!("/api/ops/jobs/{id}"), &w.support)
        .await
        .json();
    let actions: Vec<&str> = detail["audit"]
        .as_array()
        .expect("audit")
        .iter()
        .filter_map(|entry| entry["action"].as_str())
        .collect();
    assert_eq!(actions, ["job.rerun", "job.cancel"]);
    let by_job = get(&w.app, &format!("/api/ops/audit?job_id={id}"), &w.local)
        .await
        .json();
    assert_eq!(by_job["total"], 2);
    assert_eq!(by_job["entries"][1]["details"]["state_before"], "queued");
    assert_eq!(by_job["entries"][1]["user"]["email"], "local@example.com");
}

#[testkit::db_test]
async fn staff_release_a_stations_cashback_now(db: PgPool) {
    let w = world(&db).await;
    let stations = get(&w.app, "/api/ops/stations", &w.support).await.json();
    assert_eq!(
        stations[0],
        json!({
            "id": w.station, "name": seed::demo::DEMO_STATION_NAME, "subdomain": "demo",
            "release": { "expression": "0 0 * * * *", "enabled": true, "last_tick": null },
            "pending": { "lots": 0, "amount_cents": 0, "due_lots": 0, "due_amount_cents": 0 }
        })
    );

    let released = post(
        &w.app,
        &format!("/api/ops/stations/{}/release", w.station),
        &w.local,
    )
    .await;
    assert_eq!(released.status, StatusCode::ACCEPTED, "{}", released.text);
    let job_id = released.json()["job_id"]
        .as_str()
        .expect("job id")
        .to_string();
    let job = get(&w.app, &format!("/api/ops/jobs/{job_id}"), &w.local)
        .await
        .json();
    assert_eq!(job["queue"], "cashback.release");
    assert_eq!(job["station_id"], w.station);
    assert_eq!(job["payload"]["station_id"], w.station);
    assert_eq!(job["payload"]["tick"], Value::Null);
    assert!(job["payload"]["requested_by"].is_i64());

    let entries = audit(&w.app, &w.local).await;
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["action"], "cashback.release");
    assert_eq!(entries[0]["job_ids"], json!([job_id]));
    assert_eq!(
        entries[0]["details"],
        json!({ "station_id": w.station, "job": job_id })
    );
}

#[testkit::db_test]
async fn the_list_filters_by_time_and_pages_and_rejects_bad_values(db: PgPool) {
    let w = world(&db).await;
    let mut ids = Vec::new();
    for n in 0..5 {
        ids.push(enqueue(&db, keyed(&format!("pagina-{n}")), Some(w.station)).await);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // Pages follow one another by cursor, newest first, until no older job is left.
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let uri = match &cursor {
            Some(before) => format!("/api/ops/jobs?per_page=2&before={before}"),
            None => "/api/ops/jobs?per_page=2".to_string(),
        };
        let page = get(&w.app, &uri, &w.support).await.json();
        assert_eq!(page["per_page"], 2);
        let on_page: Vec<String> = page["jobs"]
            .as_array()
            .expect("jobs")
            .iter()
            .filter_map(|job| job["id"].as_str().map(str::to_string))
            .collect();
        pages.push(on_page);
        cursor = page["next_cursor"].as_str().map(str::to_string);
        if cursor.is_none() {
            break;
        }
        assert_eq!(
            cursor.as_deref(),
            pages.last().and_then(|p| p.last()).map(String::as_str)
        );
    }
    let expected: Vec<Vec<String>> = vec![
        vec![ids[4].clone(), ids[3].clone()],
        vec![ids[2].clone(), ids[1].clone()],
        vec![ids[0].clone()],
    ];
    assert_eq!(pages, expected, "newest first");

    // From the third job's enqueue time to the fourth's, both included.
    let time_of = |id: &str| {
        chrono::DateTime::<chrono::Utc>::from(ulid::Ulid::from_string(id).expect("ulid").datetime())
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
    };
    let uri = format!(
        "/api/ops/jobs?from={}&to={}",
        time_of(&ids[2]),
        time_of(&ids[3])
    );
    let range = get(&w.app, &uri, &w.support).await.json();
    assert_eq!(range["jobs"].as_array().map(Vec::len), Some(2), "{range}");
    assert_eq!(range["jobs"][0]["id"], ids[3].as_str());
    let created_at = chrono::DateTime::parse_from_rfc3339(
        range["jobs"][0]["created_at"].as_str().expect("created_at"),
    )
    .expect("time");
    assert_eq!(
        created_at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        time_of(&ids[3])
    );

    let bad = get(
        &w.app,
        "/api/ops/jobs?state=quebrado&from=ontem&per_page=0&before=nada",
        &w.support,
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        bad.json(),
        json!({ "messages": [
            "Página inválida.",
            "Posição inválida na lista.",
            "Estado inválido.",
            "Data inválida."
        ] })
    );
    let bad_count = get(
        &w.app,
        "/api/ops/jobs/rerunnable?state=quebrado&to=amanha&station_id=x",
        &w.support,
    )
    .await;
    assert_eq!(bad_count.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        bad_count.json(),
        json!({ "messages": ["Estado inválido.", "Data inválida.", "Estação inválida."] })
    );
    let too_many = get(&w.app, "/api/ops/jobs?per_page=201", &w.support).await;
    assert_eq!(too_many.status, StatusCode::UNPROCESSABLE_ENTITY);
    let bulk_bad = post_body(
        &w.app,
        "/api/ops/jobs/rerun",
        &w.support,
        json!({ "filter": { "state": "quebrado" }, "expected": 0 }),
    )
    .await;
    assert_eq!(bulk_bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bulk_bad.json(), json!({ "messages": ["Estado inválido."] }));
}

/// Found by the contract fuzzer: a bulk rerun whose filter names no station (staff of every
/// station may type any id) matches nothing and is still audited, without a station,
/// instead of failing on the audit's reference to the station (500).
#[testkit::db_test]
async fn an_empty_bulk_rerun_of_an_unknown_station_is_audited_without_it(db: PgPool) {
    let w = world(&db).await;

    let answer = post_body(
        &w.app,
        "/api/ops/jobs/rerun",
        &w.support,
        json!({ "expected": 0, "filter": { "station_id": 999_999 } }),
    )
    .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.json()["rerun"], 0);
    let entries = audit(&w.app, &w.support).await;
    let entry = entries
        .iter()
        .find(|entry| entry["action"] == "jobs.rerun")
        .expect("the empty rerun is audited");
    assert_eq!(entry["station_id"], Value::Null, "{entry}");
    assert_eq!(entry["details"]["filter"]["station_id"], 999_999, "{entry}");
}
