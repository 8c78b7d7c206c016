//! Real `workers` processes against the test's database: a process killed mid-job has its
//! job finished by another within the rescue window, exactly once in effect; cron fires once
//! per tick however many processes tick; SIGTERM lets the running job finish; a job that
//! crashes every process that runs it ends failed once its attempts are spent; one LISTEN
//! connection per process wakes all its queues; a process killed after finishing a job
//! but before its result was written has the job run again, with its effect once.

use crate::common;

use std::time::{Duration, Instant};

use common::{Worker, eventually};
use jobs::kinds::{Canary, Retention};
use jobs::{Enqueue, JobState};
use sqlx::PgPool;

async fn enqueue(db: &PgPool, canary: Canary) -> String {
    Enqueue::new(canary).commit(db).await.expect("enqueue").id
}

/// The worker that wrote the canary effect under `key`, once it exists.
async fn effect_writer(db: &PgPool, key: &str) -> Option<String> {
    sqlx::query_scalar("SELECT worker FROM job_canary_effects WHERE key = $1")
        .bind(key)
        .fetch_optional(db)
        .await
        .expect("query")
}

#[testkit::db_test]
async fn a_job_of_a_killed_process_completes_elsewhere_once(db: PgPool) {
    let mut first = Worker::start(&testkit::database_url(&db), &[]);
    let id = enqueue(
        &db,
        Canary {
            key: Some("rescued".into()),
            fail_times: 0,
            hold_ms: 120_000,
            abort: false,
            stamp_start: false,
        },
    )
    .await;
    let writer = eventually(
        Duration::from_secs(20),
        "first process runs the job",
        async || effect_writer(&db, "rescued").await,
    )
    .await;
    assert!(writer.contains(&format!(":{}#", first.pid())), "{writer}");

    first.child.kill().expect("SIGKILL");
    first.child.wait().expect("reaped");
    let killed_at = Instant::now();
    let second = Worker::start(&testkit::database_url(&db), &[]);

    finished_again_once_by(&db, &id, "rescued", &second).await;
    let rescued_after = killed_at.elapsed();
    assert!(
        rescued_after <= Duration::from_secs(30),
        "rescued after {rescued_after:?}"
    );
}

/// Waits until the canary job `id` keyed `key`, interrupted once, succeeds; checks that
/// `finisher` ran it again (the lost attempt counted) and its effect happened once.
async fn finished_again_once_by(db: &PgPool, id: &str, key: &str, finisher: &Worker) {
    let done = eventually(Duration::from_secs(40), "job rescued", async || {
        let view = jobs::state::find(db, id).await.expect("find").expect("job");
        (view.state == JobState::Succeeded).then_some(view)
    })
    .await;
    assert_eq!(done.attempts, 2, "the interrupted attempt counts");
    assert_eq!(
        done.result,
        Some(serde_json::json!({ "written": false })),
        "the second run found the effect written"
    );
    let (holder, effects): (String, i64) = sqlx::query_as(
        "SELECT j.lock_by, (SELECT count(*) FROM job_canary_effects WHERE key = $2)
         FROM apalis.jobs j WHERE j.id = $1",
    )
    .bind(id)
    .bind(key)
    .fetch_one(db)
    .await
    .expect("row");
    assert!(
        holder.contains(&format!(":{}#", finisher.pid())),
        "finished by {holder}"
    );
    assert_eq!(effects, 1, "the effect happened exactly once");
}

/// Results are written in batches after the job's slot is free, so a process can die with a
/// finished job whose result it never wrote. Here the result's write is held up by a row
/// lock, the process is killed and its blocked statement ended (as PostgreSQL ends the
/// session of a client that went away): the job is still held by a dead worker, is
/// rescued, runs again, and its keyed effect stays once.
#[testkit::db_test]
async fn a_process_killed_before_writing_a_finished_jobs_result_has_it_run_again_once(db: PgPool) {
    let mut first = Worker::start(&testkit::database_url(&db), &[]);
    let id = enqueue(
        &db,
        Canary {
            key: Some("unacknowledged".into()),
            hold_ms: 1_500,
            ..Canary::default()
        },
    )
    .await;
    eventually(
        Duration::from_secs(20),
        "first process runs the job",
        async || effect_writer(&db, "unacknowledged").await,
    )
    .await;
    // While the job holds, lock its row: the result's UPDATE will wait on this lock.
    let mut blocker = db.begin().await.expect("begin");
    // NO KEY UPDATE: the lock the result's UPDATE takes, so it waits; FOR UPDATE would also
    // hold up the handler's progress write (its foreign key takes KEY SHARE on this row).
    sqlx::query("SELECT id FROM apalis.jobs WHERE id = $1 FOR NO KEY UPDATE")
        .bind(&id)
        .execute(&mut *blocker)
        .await
        .expect("lock");
    let writer_backend: i32 = eventually(
        Duration::from_secs(20),
        "the finished job's result waits to be written",
        async || {
            sqlx::query_scalar(
                "SELECT pid FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event_type = 'Lock'
                   AND query LIKE '%SET status = d.status%'",
            )
            .fetch_optional(&db)
            .await
            .expect("pg_stat_activity")
        },
    )
    .await;

    first.child.kill().expect("SIGKILL");
    first.child.wait().expect("reaped");
    let ended: bool = sqlx::query_scalar("SELECT pg_terminate_backend($1)")
        .bind(writer_backend)
        .fetch_one(&db)
        .await
        .expect("terminate");
    assert!(ended);
    blocker.rollback().await.expect("unlock");
    let (status, holder): (String, String) =
        sqlx::query_as("SELECT status, lock_by FROM apalis.jobs WHERE id = $1")
            .bind(&id)
            .fetch_one(&db)
            .await
            .expect("row");
    assert_eq!(status, "Running", "the result was never written");
    assert!(holder.contains(&format!(":{}#", first.pid())), "{holder}");

    let second = Worker::start(&testkit::database_url(&db), &[]);
    finished_again_once_by(&db, &id, "unacknowledged", &second).await;
}

#[testkit::db_test]
async fn a_job_that_crashes_its_process_every_time_ends_failed(db: PgPool) {
    let mut fleet = vec![
        Worker::start(&testkit::database_url(&db), &[]),
        Worker::start(&testkit::database_url(&db), &[]),
    ];
    // Two attempts keep the test within two rescue windows; set in the enqueueing
    // transaction so no worker sees the job with its default attempts.
    let mut tx = db.begin().await.expect("begin");
    let doomed = Enqueue::new(Canary {
        abort: true,
        ..Canary::default()
    })
    .push(&mut tx)
    .await
    .expect("enqueue")
    .id;
    sqlx::query("UPDATE apalis.jobs SET max_attempts = 2 WHERE id = $1")
        .bind(&doomed)
        .execute(&mut *tx)
        .await
        .expect("max attempts");
    tx.commit().await.expect("commit");

    // Each crashed process is replaced, as a supervisor would, so the fleet always has two.
    let mut crashes = Vec::new();
    let mut bystanders = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(100);
    let failed = loop {
        for worker in &mut fleet {
            if let Some(status) = worker.child.try_wait().expect("wait") {
                crashes.push(status);
                *worker = Worker::start(&testkit::database_url(&db), &[]);
                // Work enqueued between crashes still gets done.
                let key = format!("bystander-{}", crashes.len());
                enqueue(
                    &db,
                    Canary {
                        key: Some(key.clone()),
                        ..Canary::default()
                    },
                )
                .await;
                bystanders.push(key);
            }
        }
        let view = jobs::state::find(&db, &doomed)
            .await
            .expect("find")
            .expect("job");
        if view.state == JobState::Failed {
            break view;
        }
        assert!(
            Instant::now() < deadline,
            "still {view:?} after {} crashes",
            crashes.len()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };

    assert_eq!(crashes.len(), 2, "one crash per attempt: {crashes:?}");
    assert!(crashes.iter().all(|status| !status.success()));
    assert_eq!(failed.attempts, 2);
    assert_eq!(
        failed.error.as_deref(),
        Some("O processamento foi interrompido em todas as tentativas; a tarefa foi encerrada.")
    );
    let failures: Vec<(i32, String, String)> = sqlx::query_as(
        "SELECT attempt, worker, detail FROM job_failures WHERE job_id = $1 ORDER BY id",
    )
    .bind(&doomed)
    .fetch_all(&db)
    .await
    .expect("failures");
    assert_eq!(
        failures
            .iter()
            .map(|(attempt, ..)| *attempt)
            .collect::<Vec<_>>(),
        [1, 2]
    );
    assert!(
        failures
            .iter()
            .all(|(_, worker, detail)| worker.starts_with("canary@")
                && detail.contains("heartbeat timeout")),
        "{failures:?}"
    );
    // Failed for good: no process takes it again, and the fleet runs the rest.
    let (status, lock_by): (String, Option<String>) =
        sqlx::query_as("SELECT status, lock_by FROM apalis.jobs WHERE id = $1")
            .bind(&doomed)
            .fetch_one(&db)
            .await
            .expect("row");
    assert_eq!((status.as_str(), lock_by), ("Failed", None));
    enqueue(
        &db,
        Canary {
            key: Some("after".into()),
            ..Canary::default()
        },
    )
    .await;
    bystanders.push("after".into());
    for key in &bystanders {
        eventually(Duration::from_secs(20), key, async || {
            effect_writer(&db, key).await
        })
        .await;
    }
    for worker in &mut fleet {
        assert!(
            worker.child.try_wait().expect("wait").is_none(),
            "{}",
            worker.log()
        );
    }
}

async fn listen_connections(db: &PgPool) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM pg_stat_activity
         WHERE datname = current_database() AND query LIKE 'LISTEN%'",
    )
    .fetch_one(db)
    .await
    .expect("pg_stat_activity")
}

#[testkit::db_test]
async fn one_listen_connection_wakes_every_queue_of_a_process(db: PgPool) {
    // The poll is stretched past the test: only a notification can wake a queue now.
    let worker = Worker::start(
        &testkit::database_url(&db),
        &[
            ("FILIA_JOB_POLL_SECONDS", "600"),
            ("FILIA_LOG", "warn,jobs::backend::wakeup=debug"),
            ("FILIA_LOG_FORMAT", "json"),
        ],
    );
    let queues = jobs::kinds::QUEUES.len() as i64;
    eventually(
        Duration::from_secs(20),
        "every queue's worker started",
        async || {
            let started: i64 = sqlx::query_scalar(
                "SELECT count(DISTINCT worker_type) FROM apalis.workers WHERE id LIKE $1",
            )
            .bind(format!("%:{}#%", worker.pid()))
            .fetch_one(&db)
            .await
            .expect("workers");
            (started == queues && listen_connections(&db).await > 0).then_some(())
        },
    )
    .await;
    // Past each worker's first fetch, which could otherwise find the jobs below.
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(listen_connections(&db).await, 1, "{}", worker.log());

    let canary = enqueue(
        &db,
        Canary {
            key: Some("woken".into()),
            ..Canary::default()
        },
    )
    .await;
    let retention = Enqueue::new(Retention::default())
        .commit(&db)
        .await
        .expect("enqueue")
        .id;
    for id in [&canary, &retention] {
        eventually(Duration::from_secs(20), id, async || {
            let view = jobs::state::find(&db, id)
                .await
                .expect("find")
                .expect("job");
            (view.state == JobState::Succeeded).then_some(())
        })
        .await;
    }
    let log = worker.log();
    let woken: Vec<String> = log
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|event| {
            event["fields"]["message"] == "job inserted" && event["fields"]["woken"] == true
        })
        .filter_map(|event| event["fields"]["queue"].as_str().map(str::to_string))
        .collect();
    for queue in ["canary", "jobs.retention"] {
        assert!(
            woken.iter().any(|woken| woken == queue),
            "{queue} not woken by a notification:\n{log}"
        );
    }
    assert_eq!(listen_connections(&db).await, 1);
}

#[testkit::db_test]
async fn two_processes_enqueue_one_job_per_cron_tick(db: PgPool) {
    let env = [
        ("FILIA_CRON_CANARY", "* * * * * *"),
        ("FILIA_LOG", "warn,jobs::cron=debug"),
    ];
    let mut a = Worker::start(&testkit::database_url(&db), &env);
    let mut b = Worker::start(&testkit::database_url(&db), &env);
    tokio::time::sleep(Duration::from_millis(5_500)).await;
    // Both asked at once: one still running while the other drains would tick alone.
    a.ask_to_stop();
    b.ask_to_stop();
    assert!(a.wait_stopped().success(), "{}", a.log());
    assert!(b.wait_stopped().success(), "{}", b.log());

    let ticks: Vec<(String, i64)> = sqlx::query_as(
        "SELECT idempotency_key, count(*) FROM apalis.jobs
         WHERE job_type = 'canary' GROUP BY idempotency_key ORDER BY idempotency_key",
    )
    .fetch_all(&db)
    .await
    .expect("ticks");
    assert!(ticks.len() >= 3, "only {} ticks: {ticks:?}", ticks.len());
    assert!(
        ticks
            .iter()
            .all(|(key, jobs)| key.starts_with("cron:canary:") && *jobs == 1)
    );
    // Consecutive seconds, none skipped.
    let seconds: Vec<i64> = ticks
        .iter()
        .map(|(key, _)| {
            chrono::DateTime::parse_from_rfc3339(key.trim_start_matches("cron:canary:"))
                .expect("tick time")
                .timestamp()
        })
        .collect();
    assert!(
        seconds.windows(2).all(|pair| pair[1] - pair[0] == 1),
        "{seconds:?}"
    );

    // Both processes fired every tick; for each tick exactly one enqueued it. Only the
    // canary's lines count: a slow shutdown can outlast a minute, and the platform's own
    // schedules (the subscriptions' dispatch) then tick too.
    let (logs_a, logs_b) = (a.log(), b.log());
    let canary_lines = |log: &str, event: &str| {
        log.lines()
            .filter(|line| line.contains(event) && line.contains("\"canary\""))
            .count()
    };
    let created =
        canary_lines(&logs_a, "cron tick enqueued") + canary_lines(&logs_b, "cron tick enqueued");
    let skipped = canary_lines(&logs_a, "tick already enqueued")
        + canary_lines(&logs_b, "tick already enqueued");
    assert_eq!(created, ticks.len(), "{logs_a}\n{logs_b}");
    assert!(
        skipped + 1 >= ticks.len(),
        "the other process did not tick: {skipped} skipped"
    );
}

#[testkit::db_test]
async fn sigterm_lets_the_running_job_finish(db: PgPool) {
    let mut worker = Worker::start(&testkit::database_url(&db), &[]);
    let id = enqueue(
        &db,
        Canary {
            key: Some("graceful".into()),
            fail_times: 0,
            hold_ms: 2_000,
            abort: false,
            stamp_start: false,
        },
    )
    .await;
    eventually(Duration::from_secs(20), "job starts", async || {
        effect_writer(&db, "graceful").await
    })
    .await;

    let status = worker.terminate();

    assert!(status.success(), "{}", worker.log());
    let view = jobs::state::find(&db, &id)
        .await
        .expect("find")
        .expect("job");
    assert_eq!(view.state, JobState::Succeeded, "{view:?}");
    assert_eq!(view.attempts, 1);
}
