//! Enqueueing inside the caller's transaction, idempotency keys, the payload guard, the
//! retry backoff trigger, and the states a job's owner sees.

use chrono::{Duration as Span, Utc};
use jobs::kinds::Canary;
use jobs::{Enqueue, JobState};
use sqlx::PgPool;

async fn job_count(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM apalis.jobs")
        .fetch_one(db)
        .await
        .expect("count")
}

#[testkit::db_test]
async fn a_rolled_back_transaction_leaves_no_job(db: PgPool) {
    let mut tx = db.begin().await.expect("begin");
    let enqueued = Enqueue::new(Canary::default())
        .push(&mut tx)
        .await
        .expect("push");
    assert!(enqueued.created);
    tx.rollback().await.expect("rollback");

    assert_eq!(job_count(&db).await, 0);
    assert!(
        jobs::state::find(&db, &enqueued.id)
            .await
            .expect("find")
            .is_none()
    );
}

#[testkit::db_test]
async fn a_committed_job_is_queued_with_its_payload_in_a_versioned_envelope(db: PgPool) {
    let mut tx = db.begin().await.expect("begin");
    let canary = Canary {
        key: Some("k1".into()),
        ..Canary::default()
    };
    let enqueued = Enqueue::new(canary).push(&mut tx).await.expect("push");
    tx.commit().await.expect("commit");

    let (queue, payload): (String, serde_json::Value) = sqlx::query_as(
        "SELECT job_type, convert_from(job, 'UTF8')::jsonb FROM apalis.jobs WHERE id = $1",
    )
    .bind(&enqueued.id)
    .fetch_one(&db)
    .await
    .expect("row");
    assert_eq!(queue, "canary");
    assert_eq!(payload["v"], 1);
    assert_eq!(payload["args"]["key"], "k1");

    let view = jobs::state::find(&db, &enqueued.id)
        .await
        .expect("find")
        .expect("job");
    assert_eq!(view.state, JobState::Queued);
    assert_eq!((view.attempts, view.max_attempts), (0, 5));
}

#[testkit::db_test]
async fn the_same_idempotency_key_twice_is_one_job_and_the_transaction_still_commits(db: PgPool) {
    let mut tx = db.begin().await.expect("begin");
    let first = Enqueue::new(Canary::default())
        .idempotency_key("order-42-receipt")
        .push(&mut tx)
        .await
        .expect("first push");
    let second = Enqueue::new(Canary::default())
        .idempotency_key("order-42-receipt")
        .push(&mut tx)
        .await
        .expect("a duplicate key does not abort the transaction");
    // The transaction is still usable after the duplicate.
    sqlx::query("INSERT INTO job_canary_effects (key, job_id, worker) VALUES ('after', 'x', 'y')")
        .execute(&mut *tx)
        .await
        .expect("statement after the duplicate");
    tx.commit().await.expect("commit");

    assert!(first.created);
    assert!(!second.created);
    assert_eq!(second.id, first.id);
    assert_eq!(job_count(&db).await, 1);
    let after: i64 = sqlx::query_scalar("SELECT count(*) FROM job_canary_effects")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(after, 1);
}

#[testkit::db_test]
async fn a_payload_that_is_not_json_is_refused_by_the_database(db: PgPool) {
    let refused = sqlx::query(
        "INSERT INTO apalis.jobs (id, job_type, job, status) VALUES ('01HZZZZZZZZZZZZZZZZZZZZZZZ', 'canary', '\\xff00'::bytea, 'Pending')",
    )
    .execute(&db)
    .await;
    let error = refused
        .expect_err("non-JSON bytes must not reach a worker")
        .to_string();
    assert!(error.contains("invalid byte sequence"), "{error}");
    assert_eq!(job_count(&db).await, 0);
}

#[testkit::db_test]
async fn an_id_that_is_not_a_ulid_is_refused_by_the_database(db: PgPool) {
    let refused = sqlx::query(
        "INSERT INTO apalis.jobs (id, job_type, job, status) VALUES ('not-a-ulid', 'canary', convert_to('{}', 'UTF8'), 'Pending')",
    )
    .execute(&db)
    .await;
    let error = refused
        .expect_err("a bad id would stall the queue's fetches")
        .to_string();
    assert!(error.contains("jobs_id_is_ulid"), "{error}");
    assert_eq!(job_count(&db).await, 0);
}

#[testkit::db_test]
async fn owner_and_subject_are_recorded_and_a_future_job_is_scheduled(db: PgPool) {
    let demo = seed::demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let enqueued = Enqueue::new(Canary::default())
        .owner(demo.station_id, Some(demo.member_id))
        .about("order", 42)
        .run_at(Utc::now() + Span::minutes(10))
        .commit(&db)
        .await
        .expect("enqueue");

    let record: (Option<i64>, Option<i64>, Option<String>, Option<String>) = sqlx::query_as(
        "SELECT station_id, user_id, subject_kind, subject_id FROM job_records WHERE job_id = $1",
    )
    .bind(&enqueued.id)
    .fetch_one(&db)
    .await
    .expect("record");
    assert_eq!(
        record,
        (
            Some(demo.station_id),
            Some(demo.member_id),
            Some("order".into()),
            Some("42".into())
        )
    );
    let owned = jobs::state::find_owned(&db, &enqueued.id, demo.member_id)
        .await
        .expect("find");
    assert_eq!(owned.expect("owner sees it").state, JobState::Scheduled);
    let other = jobs::state::find_owned(&db, &enqueued.id, demo.staff_id)
        .await
        .expect("find");
    assert!(other.is_none(), "another user does not see it");
}

#[testkit::db_test]
async fn a_waiting_job_can_be_cancelled_but_a_running_one_cannot(db: PgPool) {
    let waiting = Enqueue::new(Canary::default())
        .commit(&db)
        .await
        .expect("enqueue");
    let running = Enqueue::new(Canary::default())
        .commit(&db)
        .await
        .expect("enqueue");
    sqlx::query("UPDATE apalis.jobs SET status = 'Running', lock_at = now() WHERE id = $1")
        .bind(&running.id)
        .execute(&db)
        .await
        .expect("mark running");

    assert!(jobs::state::cancel(&db, &waiting.id).await.expect("cancel"));
    assert!(!jobs::state::cancel(&db, &running.id).await.expect("cancel"));
    assert!(
        !jobs::state::cancel(&db, "01HUNKNOWNUNKNOWNUNKNOWN00")
            .await
            .expect("cancel")
    );

    let cancelled = jobs::state::find(&db, &waiting.id)
        .await
        .expect("find")
        .expect("job");
    assert_eq!(cancelled.state, JobState::Cancelled);
    assert!(cancelled.state.is_final());
    let still = jobs::state::find(&db, &running.id)
        .await
        .expect("find")
        .expect("job");
    assert_eq!(still.state, JobState::Running);
}

/// Seconds between now and the job's next run after the worker reports `status`.
async fn delay_after(db: &PgPool, id: &str, status: &str, attempts: i32) -> f64 {
    sqlx::query_scalar(
        "UPDATE apalis.jobs SET status = $2, attempts = $3 WHERE id = $1
         RETURNING extract(epoch FROM run_at - now())::float8",
    )
    .bind(id)
    .bind(status)
    .bind(attempts)
    .fetch_one(db)
    .await
    .expect("update")
}

#[testkit::db_test]
async fn a_failed_attempt_waits_exponentially_longer_per_queue(db: PgPool) {
    sqlx::query(
        "INSERT INTO job_queues (name, backoff_base, backoff_max)
         VALUES ('canary', interval '10 seconds', interval '35 seconds')",
    )
    .execute(&db)
    .await
    .expect("queue");
    let job = Enqueue::new(Canary::default())
        .commit(&db)
        .await
        .expect("enqueue");

    // base x 2^(attempt - 1), plus at most 10% jitter, capped at the queue's maximum.
    let first = delay_after(&db, &job.id, "Failed", 1).await;
    assert!((10.0..=11.0).contains(&first), "first retry after {first}s");
    let second = delay_after(&db, &job.id, "Failed", 2).await;
    assert!(
        (20.0..=22.0).contains(&second),
        "second retry after {second}s"
    );
    let capped = delay_after(&db, &job.id, "Failed", 4).await;
    assert!(
        (35.0..=38.5).contains(&capped),
        "capped retry after {capped}s"
    );

    // Out of attempts: no retry is scheduled, and the job reads as failed.
    let before: f64 = delay_after(&db, &job.id, "Running", 5).await;
    let exhausted = delay_after(&db, &job.id, "Failed", 5).await;
    assert!(
        (exhausted - before).abs() < 1.0,
        "run_at moved on a final failure"
    );
    let view = jobs::state::find(&db, &job.id)
        .await
        .expect("find")
        .expect("job");
    assert_eq!(view.state, JobState::Failed);
}

/// `jobs::backend` takes and settles jobs with its own statements, tuned to this table:
/// every UPDATE of a job writes into each of its indexes and runs its row triggers and
/// constraints. apalis-postgres ships migrations for the table, and on a running database
/// a new one runs after ours whatever its version, so it could bring back an index, a
/// foreign key or a trigger unnoticed. The crate is pinned; an upgrade that brings a
/// migration fails here until its effect on the hot path is ported and this list updated.
#[testkit::db_test]
async fn the_job_table_is_the_one_the_backend_was_tuned_for(db: PgPool) {
    let apalis_versions: Vec<i64> = apalis_postgres::PostgresStorage::<()>::migrations()
        .iter()
        .map(|migration| migration.version)
        .collect();
    assert_eq!(
        apalis_versions.last(),
        Some(&20260902075949),
        "apalis-postgres brings new migrations: check them against jobs::backend and \
         migrations/20261202000100_job_hot_path.sql"
    );

    let names = |sql: &'static str| {
        let db = db.clone();
        async move {
            sqlx::query_scalar::<_, String>(sql)
                .fetch_all(&db)
                .await
                .expect("catalog")
        }
    };
    assert_eq!(
        names(
            "SELECT indexname::text FROM pg_indexes
             WHERE schemaname = 'apalis' AND tablename = 'jobs' ORDER BY 1"
        )
        .await,
        [
            "idx_apalis_jobs_fetch_partial",
            "idx_apalis_jobs_held_by",
            "jobs_finished_at",
            "jobs_idempotency_key",
            "jobs_pkey",
            "jobs_queue_newest",
            "jobs_rerunnable",
            "jobs_unfinished",
        ]
    );
    assert_eq!(
        names(
            "SELECT tgname::text FROM pg_trigger
             WHERE tgrelid = 'apalis.jobs'::regclass AND NOT tgisinternal ORDER BY 1"
        )
        .await,
        [
            "filia_attempt_lost",
            "filia_check_job",
            "filia_retry_backoff",
            "notify_workers"
        ]
    );
    assert_eq!(
        names(
            "SELECT conname::text FROM pg_constraint
             WHERE conrelid = 'apalis.jobs'::regclass ORDER BY 1"
        )
        .await,
        ["jobs_pkey"]
    );
}
