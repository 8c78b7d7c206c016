//! The fleet running in this process against the test's database: jobs committed run,
//! failures retry with backoff, a poison payload fails alone, shutdown lets a job finish,
//! no wake-up is lost, and a result is written only over the hold it was fetched under.

use std::time::Duration;

use crate::common::{services_with, start_fleet, wait_for_state};
use jobs::kinds::Canary;
use jobs::{Enqueue, JobState};
use sqlx::PgPool;

async fn enqueue(db: &PgPool, canary: Canary) -> String {
    Enqueue::new(canary).commit(db).await.expect("enqueue").id
}

fn keyed(key: &str) -> Canary {
    Canary {
        key: Some(key.into()),
        ..Canary::default()
    }
}

async fn effects(db: &PgPool, key: &str) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM job_canary_effects WHERE key = $1")
        .bind(key)
        .fetch_one(db)
        .await
        .expect("count")
}

/// Waits until the canary keyed `key` has written its effect (it then holds, if told to).
async fn started(db: &PgPool, key: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while effects(db, key).await == 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "job {key} never started"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[testkit::db_test]
async fn a_committed_job_runs_promptly_and_records_its_result(db: PgPool) {
    let fleet = start_fleet(&db);
    let id = enqueue(&db, keyed("committed")).await;

    let done = wait_for_state(&db, &id, JobState::Succeeded, Duration::from_secs(10)).await;
    assert_eq!(done.attempts, 1);
    assert_eq!(done.result, Some(serde_json::json!({ "written": true })));
    assert!(done.started_at.is_some() && done.finished_at.is_some());
    assert_eq!(done.error, None);
    assert_eq!(effects(&db, "committed").await, 1);
    fleet.stop().await.expect("clean stop");
}

#[testkit::db_test]
async fn a_job_scheduled_for_later_is_found_by_the_poll_once_due(db: PgPool) {
    let fleet = start_fleet(&db);
    let due = chrono::Utc::now() + chrono::Duration::seconds(2);
    let job = Enqueue::new(keyed("scheduled"))
        .run_at(due)
        .commit(&db)
        .await
        .expect("enqueue");
    assert_eq!(
        jobs::state::find(&db, &job.id)
            .await
            .expect("find")
            .expect("job")
            .state,
        JobState::Scheduled
    );

    let done = wait_for_state(&db, &job.id, JobState::Succeeded, Duration::from_secs(10)).await;
    let started = done.started_at.expect("started");
    assert!(started >= due, "ran before its time");
    // Found by the 1 s poll (NOTIFY only announces jobs due on insert), not left for a
    // 5 s heartbeat. The latency itself is measured by ops/bench/jobs, not asserted here.
    let late = (started - due).to_std().expect("positive");
    assert!(
        late < Duration::from_secs(5),
        "picked up {late:?} after due"
    );
    fleet.stop().await.expect("clean stop");
}

#[testkit::db_test]
async fn failures_are_retried_after_a_growing_backoff_then_succeed(db: PgPool) {
    let fleet = start_fleet(&db);
    let id = enqueue(
        &db,
        Canary {
            key: Some("flaky".into()),
            fail_times: 2,
            hold_ms: 0,
            abort: false,
            stamp_start: false,
        },
    )
    .await;

    let done = wait_for_state(&db, &id, JobState::Succeeded, Duration::from_secs(15)).await;
    assert_eq!(done.attempts, 3);
    let failures: Vec<(i32, String, f64)> = sqlx::query_as(
        "SELECT attempt, summary, extract(epoch FROM failed_at)::float8
         FROM job_failures WHERE job_id = $1 ORDER BY id",
    )
    .bind(&id)
    .fetch_all(&db)
    .await
    .expect("failures");
    assert_eq!(failures.iter().map(|f| f.0).collect::<Vec<_>>(), vec![1, 2]);
    assert!(failures[0].1.starts_with("Falha de teste"));
    // canary's backoff: 1 s after the first failure, 2 s after the second.
    let started = done.started_at.expect("started").timestamp_millis() as f64 / 1000.0;
    let gap = failures[1].2 - failures[0].2;
    assert!(gap >= 1.0, "second attempt only {gap}s after the first");
    let last_gap = started - failures[1].2;
    assert!(
        last_gap >= 2.0,
        "third attempt only {last_gap}s after the second"
    );
    fleet.stop().await.expect("clean stop");
}

#[testkit::db_test]
async fn a_poison_payload_fails_for_good_and_the_worker_keeps_going(db: PgPool) {
    let fleet = start_fleet(&db);
    // Valid JSON that no version of the canary payload reads, and a payload from the future.
    for (id, payload) in [
        (
            "01J0P0S0NP0S0NP0S0NP0S0NP1",
            r#"{"v": 1, "args": {"fail_times": "many"}}"#,
        ),
        ("01J0P0S0NP0S0NP0S0NP0S0NP2", r#"{"v": 99, "args": {}}"#),
        ("01J0P0S0NP0S0NP0S0NP0S0NP3", r#"[1, 2, 3]"#),
    ] {
        sqlx::query(
            "INSERT INTO apalis.jobs (id, job_type, job, status, max_attempts)
             VALUES ($1, 'canary', convert_to($2, 'UTF8'), 'Pending', 5)",
        )
        .bind(id)
        .bind(payload)
        .execute(&db)
        .await
        .expect("insert poison");
    }
    let healthy = enqueue(&db, keyed("after-poison")).await;

    for id in [
        "01J0P0S0NP0S0NP0S0NP0S0NP1",
        "01J0P0S0NP0S0NP0S0NP0S0NP2",
        "01J0P0S0NP0S0NP0S0NP0S0NP3",
    ] {
        let failed = wait_for_state(&db, id, JobState::Failed, Duration::from_secs(10)).await;
        assert_eq!(failed.attempts, 1, "a poison payload is not retried");
        assert_eq!(
            failed.error.as_deref(),
            Some("Os dados desta tarefa não puderam ser lidos.")
        );
    }
    wait_for_state(&db, &healthy, JobState::Succeeded, Duration::from_secs(10)).await;
    // And the worker is still alive for jobs that come after.
    let later = enqueue(&db, keyed("later")).await;
    wait_for_state(&db, &later, JobState::Succeeded, Duration::from_secs(10)).await;
    fleet.stop().await.expect("clean stop");
}

#[testkit::db_test]
async fn shutdown_lets_a_running_job_finish(db: PgPool) {
    let fleet = start_fleet(&db);
    let id = enqueue(
        &db,
        Canary {
            key: Some("slow".into()),
            fail_times: 0,
            hold_ms: 1500,
            abort: false,
            stamp_start: false,
        },
    )
    .await;
    // The canary writes its effect first, then holds: stop while it holds.
    started(&db, "slow").await;

    fleet.stop().await.expect("clean stop");

    let view = jobs::state::find(&db, &id)
        .await
        .expect("find")
        .expect("job");
    assert_eq!(view.state, JobState::Succeeded, "{view:?}");
    assert_eq!(view.attempts, 1);
}

#[testkit::db_test]
async fn workers_carry_on_after_their_database_connections_are_cut(db: PgPool) {
    let fleet = start_fleet(&db);
    let before = enqueue(&db, keyed("before-outage")).await;
    wait_for_state(&db, &before, JobState::Succeeded, Duration::from_secs(10)).await;

    // Every other session on this database ends, as in a restart of PostgreSQL.
    let cut: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()) cut",
    )
    .fetch_one(&db)
    .await
    .expect("terminate");
    assert!(cut > 0, "the fleet held connections");

    let after = enqueue(&db, keyed("after-outage")).await;
    wait_for_state(&db, &after, JobState::Succeeded, Duration::from_secs(20)).await;
    assert_eq!(effects(&db, "after-outage").await, 1);
    fleet.stop().await.expect("clean stop");
}

#[testkit::db_test]
async fn shutdown_puts_fetched_but_unstarted_jobs_back(db: PgPool) {
    let fleet = start_fleet(&db);
    let id = enqueue(&db, keyed("fetched")).await;
    let done = wait_for_state(&db, &id, JobState::Succeeded, Duration::from_secs(10)).await;
    assert_eq!(done.attempts, 1);
    // As if this process had fetched a job into its buffer and not started it yet.
    let holder: String = sqlx::query_scalar(
        "UPDATE apalis.jobs SET status = 'Queued', lock_at = now(), done_at = NULL
         WHERE id = $1 RETURNING lock_by",
    )
    .bind(&id)
    .fetch_one(&db)
    .await
    .expect("hold");
    assert!(
        holder.contains(&format!(":{}#", std::process::id())),
        "{holder}"
    );

    fleet.stop().await.expect("clean stop");

    let (status, lock_by): (String, Option<String>) =
        sqlx::query_as("SELECT status, lock_by FROM apalis.jobs WHERE id = $1")
            .bind(&id)
            .fetch_one(&db)
            .await
            .expect("row");
    assert_eq!((status.as_str(), lock_by), ("Pending", None));
    let view = jobs::state::find(&db, &id)
        .await
        .expect("find")
        .expect("job");
    assert_eq!(
        view.state,
        JobState::Retrying,
        "another worker takes it at once"
    );
    assert_eq!(view.attempts, 2, "the held attempt counts");
}

#[testkit::db_test]
async fn a_job_put_back_at_shutdown_on_its_last_attempt_ends_failed(db: PgPool) {
    let fleet = start_fleet(&db);
    let id = enqueue(&db, keyed("last-attempt")).await;
    wait_for_state(&db, &id, JobState::Succeeded, Duration::from_secs(10)).await;
    // Held by this process on its last attempt, as if fetched again after earlier failures.
    let max_attempts: i32 = sqlx::query_scalar(
        "UPDATE apalis.jobs
         SET status = 'Queued', lock_at = now(), done_at = NULL, attempts = max_attempts - 1
         WHERE id = $1 RETURNING max_attempts",
    )
    .bind(&id)
    .fetch_one(&db)
    .await
    .expect("hold");

    fleet.stop().await.expect("clean stop");

    let view = jobs::state::find(&db, &id)
        .await
        .expect("find")
        .expect("job");
    assert_eq!(view.state, JobState::Failed, "never fetched again");
    assert_eq!(view.attempts, max_attempts);
    let (attempt, summary): (i32, String) = sqlx::query_as(
        "SELECT attempt, summary FROM job_failures WHERE job_id = $1 ORDER BY id DESC LIMIT 1",
    )
    .bind(&id)
    .fetch_one(&db)
    .await
    .expect("the lost attempt's failure");
    assert_eq!(attempt, max_attempts);
    assert_eq!(
        summary,
        "O processamento foi interrompido em todas as tentativas; a tarefa foi encerrada."
    );
}

/// A job committed while its queue's fetch is in flight must not wait for the poll: the
/// poll is stretched past the test, so only a kept wake-up can start the second job of
/// each pair (committed a moment after the first, often while the first's fetch runs).
#[testkit::db_test]
async fn a_job_committed_during_a_fetch_is_not_left_for_the_poll(db: PgPool) {
    let fleet = jobs::fleet::spawn(
        services_with(&db, &[("FILIA_JOB_POLL_SECONDS", "600")]),
        Vec::new(),
    );
    // Past the first fetch, which would find the jobs below without any notification.
    tokio::time::sleep(Duration::from_millis(500)).await;
    for pair in 0..100u64 {
        let first = enqueue(&db, Canary::default()).await;
        tokio::time::sleep(Duration::from_micros(pair * 37 % 1500)).await;
        let second = enqueue(&db, Canary::default()).await;
        for id in [&first, &second] {
            wait_for_state(&db, id, JobState::Succeeded, Duration::from_secs(5)).await;
        }
    }
    fleet.stop().await.expect("clean stop");
}

/// The result of an attempt is written only while the job is still held as it was
/// fetched: a job rescued and taken by another worker meanwhile keeps the new holder's
/// state, whatever the first worker reports.
#[testkit::db_test]
async fn a_result_is_not_written_over_a_later_hold(db: PgPool) {
    let fleet = start_fleet(&db);
    let id = enqueue(
        &db,
        Canary {
            key: Some("taken-over".into()),
            hold_ms: 1_000,
            ..Canary::default()
        },
    )
    .await;
    started(&db, "taken-over").await;
    // As if this worker had gone silent, the job were rescued, and another (alive, so the
    // rescue leaves it be) took it.
    sqlx::query(
        "INSERT INTO apalis.workers (id, worker_type, storage_name, last_seen)
         VALUES ('canary@elsewhere:1#0', 'canary', 'filia', now() + interval '1 hour')",
    )
    .execute(&db)
    .await
    .expect("the other worker");
    sqlx::query(
        "UPDATE apalis.jobs SET lock_by = 'canary@elsewhere:1#0', lock_at = now() WHERE id = $1",
    )
    .bind(&id)
    .execute(&db)
    .await
    .expect("take over");

    fleet.stop().await.expect("clean stop");

    let (status, holder, attempts): (String, String, i32) =
        sqlx::query_as("SELECT status, lock_by, attempts FROM apalis.jobs WHERE id = $1")
            .bind(&id)
            .fetch_one(&db)
            .await
            .expect("row");
    assert_eq!(
        (status.as_str(), holder.as_str(), attempts),
        ("Running", "canary@elsewhere:1#0", 0)
    );
}

/// A process that is shutting down runs what it holds and takes nothing more: a job
/// committed meanwhile stays in the queue for another process, untouched, instead of being
/// taken, held through the grace period and put back with an attempt counted.
#[testkit::db_test]
async fn a_fleet_shutting_down_takes_no_more_jobs(db: PgPool) {
    let fleet = start_fleet(&db);
    enqueue(
        &db,
        Canary {
            key: Some("draining".into()),
            hold_ms: 1_500,
            ..Canary::default()
        },
    )
    .await;
    started(&db, "draining").await;
    let stopping = tokio::spawn(fleet.stop());
    tokio::time::sleep(Duration::from_millis(300)).await;
    let late = enqueue(&db, keyed("late")).await;
    // While the first job still holds, the late one is left where any process can take it.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (status, holder): (String, Option<String>) =
        sqlx::query_as("SELECT status, lock_by FROM apalis.jobs WHERE id = $1")
            .bind(&late)
            .fetch_one(&db)
            .await
            .expect("row");
    assert_eq!((status.as_str(), holder), ("Pending", None));
    assert!(!stopping.is_finished(), "the first job was still running");

    stopping.await.expect("joined").expect("clean stop");

    let view = jobs::state::find(&db, &late)
        .await
        .expect("find")
        .expect("job");
    assert_eq!((view.state, view.attempts), (JobState::Queued, 0));
    assert_eq!(effects(&db, "late").await, 0);
}

/// A process restarted with the same host and pid (a restarted container) gives its
/// workers the names its dead predecessor's had: the jobs held under them are put back
/// when the workers register, not taken for alive and left held.
#[testkit::db_test]
async fn jobs_held_under_a_reused_worker_name_go_back_and_run(db: PgPool) {
    let name = format!(
        "canary@{}:{}#0",
        domain::infra::process::hostname(),
        std::process::id()
    );
    let id = enqueue(&db, keyed("reclaimed")).await;
    // The predecessor had just beaten and taken the job when it died.
    sqlx::query(
        "INSERT INTO apalis.workers (id, worker_type, storage_name, last_seen)
         VALUES ($1, 'canary', 'filia', now())",
    )
    .bind(&name)
    .execute(&db)
    .await
    .expect("the predecessor's worker");
    sqlx::query(
        "UPDATE apalis.jobs SET status = 'Running', lock_by = $2, lock_at = now() WHERE id = $1",
    )
    .bind(&id)
    .bind(&name)
    .execute(&db)
    .await
    .expect("held by the predecessor");

    let fleet = start_fleet(&db);
    // Well before the 20 s a silent worker is given.
    let done = wait_for_state(&db, &id, JobState::Succeeded, Duration::from_secs(5)).await;
    assert_eq!(done.attempts, 2, "the predecessor's attempt counts");
    assert_eq!(effects(&db, "reclaimed").await, 1);
    fleet.stop().await.expect("clean stop");
}
