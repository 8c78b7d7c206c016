//! Real `workers` processes through database outages, on a PostgreSQL cluster of the test's
//! own (`testkit::postgres`; the shared server must never go down): the database crashes
//! while a `mail.send` job is sending; it stops while a process starts, and another
//! process starts while it is down; it stops for longer than the rescue window under two
//! processes with jobs flowing; it stops while a result is being written, and while a cron
//! tick is being enqueued. The processes outlive it all, every job finishes, and nothing
//! happens twice.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chrono::{DateTime, Utc};
use common::{Worker, eventually};
use domain::infra::mail::OutgoingMail;
use jobs::kinds::{Canary, MailSend};
use jobs::{Enqueue, JobState, JobView};
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;
use testkit::postgres::Cluster;

/// The database every test here uses on its cluster.
const DATABASE: &str = "postgres";

async fn connect(cluster: &Cluster) -> PgPool {
    PgPoolOptions::new()
        .max_connections(4)
        .connect(&cluster.url(DATABASE))
        .await
        .expect("connect to the test's cluster")
}

async fn migrated(cluster: &Cluster) -> PgPool {
    let db = connect(cluster).await;
    schema::MIGRATOR.run(&db).await.expect("migrate");
    db
}

/// The job as its owner would read it; `None` while the database is away.
async fn job(db: &PgPool, id: &str) -> Option<JobView> {
    jobs::state::find(db, id).await.ok().flatten()
}

fn activation_code() -> MailSend {
    MailSend::new(OutgoingMail {
        from: "Clube <nao-responda@clube.example.com>".into(),
        to: "ana@example.com".into(),
        subject: "Seu código de ativação".into(),
        html: "<p>Seu código: 482913</p>".into(),
        text: "Seu código: 482913".into(),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mail_sent_as_the_database_crashes_goes_out_once_and_is_recorded() {
    // Fetches wait for the WAL flush, but an operator may run the workers with commits
    // that do not (PGOPTIONS, see jobs::backend::fetch_pool): those reach the disk within
    // wal_writer_delay, 200 ms by default; 10 s makes sure the crash below falls in that
    // window, so the mark alone keeps the message from going out twice.
    let cluster = Cluster::start(&[("wal_writer_delay", "10s")]);
    let db = migrated(&cluster).await;
    let holding = Arc::new(AtomicBool::new(true));
    let held = holding.clone();
    let (port, mut inbox) = testkit::smtp::serve_switchable(
        0,
        "250 2.1.5 Ok",
        || false,
        move || held.load(Ordering::SeqCst),
    )
    .await
    .expect("SMTP listener");
    let smtp_url = format!("smtp://127.0.0.1:{port}");
    let mut worker = Worker::start(
        &cluster.url(DATABASE),
        &[
            ("FILIA_SMTP_URL", &smtp_url),
            ("PGOPTIONS", "-c synchronous_commit=off"),
        ],
    );

    let id = Enqueue::new(activation_code())
        .commit(&db)
        .await
        .expect("enqueue")
        .id;
    // The listener has the message and keeps its reply back: the worker cannot know yet
    // that it went out when the database crashes.
    let message = tokio::time::timeout(Duration::from_secs(30), inbox.recv())
        .await
        .expect("the job sends its message")
        .expect("one message");
    assert!(String::from_utf8_lossy(&message.data).contains("482913"));
    cluster.crash();
    holding.store(false, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_secs(2)).await;
    worker.assert_alive("while the database was down");
    cluster.start_again();

    let done = eventually(Duration::from_secs(40), "the job settles", async || {
        job(&db, &id).await.filter(|view| view.state.is_final())
    })
    .await;
    // A second run would come within the poll (1 s) and the rescue window: none comes.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(inbox.try_recv().is_err(), "the message was sent twice");
    assert_eq!(
        done.state,
        JobState::Succeeded,
        "{done:?}\n{}",
        worker.log()
    );
    assert_eq!(done.attempts, 1, "{done:?}");
    assert_eq!(
        done.result,
        Some(serde_json::json!({ "to": "ana@example.com" }))
    );
    let stored: serde_json::Value = sqlx::query_scalar(
        "SELECT convert_from(job, 'UTF8')::jsonb FROM apalis.jobs WHERE id = $1",
    )
    .bind(&id)
    .fetch_one(&db)
    .await
    .expect("payload");
    assert_eq!(stored["args"]["delivered"], true, "{stored}");
    assert!(
        !stored.to_string().contains("482913"),
        "the code stays at rest: {stored}"
    );
    worker.assert_alive("after the outage");
}

/// The first process meets the outage while it declares its queues (held up by a lock the
/// test takes, so the stop comes exactly then); the second starts while the database is
/// down. Both wait for it and serve once it is back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workers_starting_during_an_outage_wait_for_the_database_and_serve() {
    let cluster = Cluster::start(&[]);
    let db = migrated(&cluster).await;
    let url = cluster.url(DATABASE);
    let mut lock = db.begin().await.expect("begin");
    sqlx::query("LOCK TABLE job_queues IN EXCLUSIVE MODE")
        .execute(&mut *lock)
        .await
        .expect("lock");
    let mut starting = Worker::start(&url, &[]);
    eventually(
        Duration::from_secs(30),
        "the worker declares its queues",
        async || {
            let waiting: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM pg_stat_activity
             WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO job_queues%'",
            )
            .fetch_one(&db)
            .await
            .expect("pg_stat_activity");
            (waiting > 0).then_some(())
        },
    )
    .await;
    cluster.stop();
    drop(lock);
    db.close().await;

    let mut started_down = Worker::start(&url, &[]);
    for _ in 0..30 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        starting.assert_alive("when the database stopped as it started");
        started_down.assert_alive("started while the database was down");
    }
    cluster.start_again();

    let db = connect(&cluster).await;
    for worker in [&starting, &started_down] {
        let pid = worker.pid();
        eventually(Duration::from_secs(30), "the process serves", async || {
            let queues: i64 =
                sqlx::query_scalar("SELECT count(*) FROM apalis.workers WHERE id LIKE $1")
                    .bind(format!("%:{pid}#%"))
                    .fetch_one(&db)
                    .await
                    .ok()?;
            (queues == jobs::kinds::QUEUES.len() as i64).then_some(())
        })
        .await;
    }
    let id = Enqueue::new(Canary {
        key: Some("after-the-outage".into()),
        ..Canary::default()
    })
    .commit(&db)
    .await
    .expect("enqueue")
    .id;
    let done = eventually(Duration::from_secs(30), "the job runs", async || {
        job(&db, &id).await.filter(|view| view.state.is_final())
    })
    .await;
    assert_eq!(
        done.state,
        JobState::Succeeded,
        "{done:?}\n{}",
        starting.log()
    );
    starting.assert_alive("after the outage");
    started_down.assert_alive("after the outage");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workers_outlive_a_database_stop_with_jobs_flowing_and_keep_their_results() {
    const JOBS: usize = 200;
    let cluster = Cluster::start(&[]);
    let db = migrated(&cluster).await;
    let url = cluster.url(DATABASE);
    let mut fleet = [Worker::start(&url, &[]), Worker::start(&url, &[])];
    eventually(Duration::from_secs(30), "both processes run", async || {
        let processes: i64 =
            sqlx::query_scalar("SELECT count(*) FROM apalis.workers WHERE worker_type = 'canary'")
                .fetch_one(&db)
                .await
                .expect("workers");
        (processes == 2).then_some(())
    })
    .await;

    let mut tx = db.begin().await.expect("begin");
    for n in 0..JOBS {
        let job = Canary {
            key: Some(format!("flow-{n}")),
            hold_ms: 200,
            ..Canary::default()
        };
        Enqueue::new(job).push(&mut tx).await.expect("enqueue");
    }
    tx.commit().await.expect("commit");
    eventually(Duration::from_secs(30), "jobs flowing", async || {
        let effects: i64 = sqlx::query_scalar("SELECT count(*) FROM job_canary_effects")
            .fetch_one(&db)
            .await
            .expect("effects");
        (effects >= 40).then_some(())
    })
    .await;

    // Longer than the rescue's 20 s: each process' workers look silent to the other when
    // the database comes back, while they still hold jobs whose results wait to be written.
    cluster.stop();
    for _ in 0..210 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        for worker in &mut fleet {
            worker.assert_alive("while the database was down");
        }
    }
    cluster.start_again();

    eventually(Duration::from_secs(60), "every job finishes", async || {
        let finished: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM apalis.jobs WHERE job_type = 'canary' AND status = 'Done'",
        )
        .fetch_one(&db)
        .await
        .ok()?;
        (finished == JOBS as i64).then_some(())
    })
    .await;
    let effects: i64 = sqlx::query_scalar("SELECT count(*) FROM job_canary_effects")
        .fetch_one(&db)
        .await
        .expect("effects");
    assert_eq!(effects, JOBS as i64);
    // Results held across the outage were written: no job was taken from a live process.
    let rescued: Vec<(String, String)> = sqlx::query_as(
        "SELECT job_id, detail FROM job_failures WHERE detail LIKE 'the worker stopped%'",
    )
    .fetch_all(&db)
    .await
    .expect("failures");
    assert!(
        rescued.is_empty(),
        "jobs put back from a live process: {rescued:?}"
    );
    for worker in &mut fleet {
        worker.assert_alive("after the outage");
        assert!(worker.terminate().success(), "{}", worker.log());
    }
}

/// A finished job's result is written in a batch after its slot is free; here that write
/// is held up by a row lock the test takes, so the stop ends it under way (57P01, then no
/// server at all). The process keeps the result and writes it once the database is back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_whose_write_meets_the_outage_is_written_once_the_database_is_back() {
    let cluster = Cluster::start(&[]);
    let db = migrated(&cluster).await;
    let mut worker = Worker::start(&cluster.url(DATABASE), &[]);
    let id = Enqueue::new(Canary {
        key: Some("held-result".into()),
        // Long enough for the test to lock the row before the result comes, however busy
        // the machine.
        hold_ms: 5_000,
        ..Canary::default()
    })
    .commit(&db)
    .await
    .expect("enqueue")
    .id;
    eventually(Duration::from_secs(30), "the job runs", async || {
        job(&db, &id)
            .await
            .filter(|view| view.state == JobState::Running)
    })
    .await;
    let mut lock = db.begin().await.expect("begin");
    // NO KEY UPDATE: the lock the result's UPDATE takes, so it waits; FOR UPDATE would also
    // hold up the handler's progress write (its foreign key takes KEY SHARE on this row).
    sqlx::query("SELECT id FROM apalis.jobs WHERE id = $1 FOR NO KEY UPDATE")
        .bind(&id)
        .execute(&mut *lock)
        .await
        .expect("lock");
    eventually(
        Duration::from_secs(10),
        "the result waits to be written",
        async || {
            let waiting: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM pg_stat_activity
             WHERE wait_event_type = 'Lock' AND query LIKE '%SET status = d.status%'",
            )
            .fetch_one(&db)
            .await
            .expect("pg_stat_activity");
            (waiting > 0).then_some(())
        },
    )
    .await;
    cluster.stop();
    drop(lock);
    // Longer than a pool waits for a connection (5 s): each try of the write fails.
    tokio::time::sleep(Duration::from_secs(7)).await;
    worker.assert_alive("while the database was down");
    cluster.start_again();

    let done = eventually(
        Duration::from_secs(30),
        "the result is written",
        async || job(&db, &id).await.filter(|view| view.state.is_final()),
    )
    .await;
    assert_eq!(
        done.state,
        JobState::Succeeded,
        "{done:?}\n{}",
        worker.log()
    );
    assert_eq!(
        done.attempts, 1,
        "the attempt's own result, not a second run: {done:?}"
    );
    worker.assert_alive("after the outage");
}

/// The times of the canary schedule's ticks enqueued so far (`cron:canary:<time>`);
/// `None` while the database is away.
async fn ticks(db: &PgPool) -> Option<Vec<DateTime<Utc>>> {
    let keys: Vec<String> = sqlx::query_scalar(
        "SELECT idempotency_key FROM apalis.jobs WHERE job_type = 'canary' ORDER BY 1",
    )
    .fetch_all(db)
    .await
    .ok()?;
    Some(
        keys.iter()
            .map(|key| {
                DateTime::parse_from_rfc3339(key.trim_start_matches("cron:canary:"))
                    .expect("tick time")
                    .to_utc()
            })
            .collect(),
    )
}

/// The tick's enqueue is held up by a lock the test takes, so the stop comes exactly while
/// it is under way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cron_tick_that_meets_an_outage_is_enqueued_once_the_database_is_back() {
    let cluster = Cluster::start(&[]);
    let db = migrated(&cluster).await;
    let mut worker = Worker::start(
        &cluster.url(DATABASE),
        &[("FILIA_CRON_CANARY", "* * * * * *")],
    );
    eventually(Duration::from_secs(30), "the schedule ticks", async || {
        ticks(&db).await.filter(|ticks| ticks.len() >= 2)
    })
    .await;

    let mut lock = db.begin().await.expect("begin");
    sqlx::query("LOCK TABLE apalis.jobs IN EXCLUSIVE MODE")
        .execute(&mut *lock)
        .await
        .expect("lock");
    let locked = Utc::now();
    eventually(
        Duration::from_secs(10),
        "a tick waits to be enqueued",
        async || {
            let waiting: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM pg_stat_activity
             WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO apalis.jobs%'",
            )
            .fetch_one(&db)
            .await
            .expect("pg_stat_activity");
            (waiting > 0).then_some(())
        },
    )
    .await;
    cluster.stop();
    let stopped = Utc::now();
    drop(lock);
    tokio::time::sleep(Duration::from_secs(2)).await;
    worker.assert_alive("while the database was down");
    let restarting = Utc::now();
    cluster.start_again();

    let ticks = eventually(
        Duration::from_secs(30),
        "the schedule ticks again",
        async || {
            ticks(&db).await.filter(|ticks| {
                ticks
                    .iter()
                    .any(|tick| *tick > restarting + chrono::Duration::seconds(1))
            })
        },
    )
    .await;
    let held_up: Vec<_> = ticks
        .iter()
        .filter(|tick| (locked..stopped).contains(tick))
        .collect();
    assert_eq!(
        held_up.len(),
        1,
        "the tick that met the outage, once: {ticks:?}"
    );
    worker.assert_alive("after the outage");
}

/// A fetch is durable: a job a worker took stays taken across a database crash, so it is
/// not handed out again as if never fetched (issue 26; fetches once committed without
/// waiting for the WAL flush, and a crash within `wal_writer_delay` lost them). The worker
/// dies right after the fetch (the canary aborts its process), so nothing else it would
/// commit (a result, a heartbeat) flushes the WAL for the fetch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fetch_outlives_a_database_crash() {
    let cluster = Cluster::start(&[("wal_writer_delay", "10s")]);
    let db = migrated(&cluster).await;
    let mut worker = Worker::start(&cluster.url(DATABASE), &[]);
    let id = Enqueue::new(Canary {
        abort: true,
        ..Canary::default()
    })
    .commit(&db)
    .await
    .expect("enqueue")
    .id;
    let status = async || -> Option<String> {
        sqlx::query_scalar("SELECT status FROM apalis.jobs WHERE id = $1")
            .bind(&id)
            .fetch_one(&db)
            .await
            .ok()
    };
    eventually(
        Duration::from_secs(30),
        "the worker takes the job",
        async || status().await.filter(|status| status == "Running"),
    )
    .await;
    eventually(
        Duration::from_secs(10),
        "the canary ends its process",
        async || worker.child.try_wait().expect("wait").map(|_| ()),
    )
    .await;
    cluster.crash();
    cluster.start_again();
    let after = eventually(Duration::from_secs(30), "the database is back", status).await;
    assert_eq!(after, "Running", "the fetch was lost in the crash");
}
