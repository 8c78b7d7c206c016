//! Retention prunes finished jobs by age (with their records), dead worker rows and old
//! canary effects, and keeps everything still alive.

use jobs::kinds::platform::retention::{Policy, prune};
use sqlx::PgPool;

const POLICY: Policy = Policy {
    succeeded_days: 14,
    failed_days: 90,
    dead_worker_hours: 1,
    canary_days: 7,
};

/// Inserts a job finished `days` ago.
async fn job(db: &PgPool, id: &str, status: &str, attempts: i32, days: i32) {
    sqlx::query(
        "INSERT INTO apalis.jobs (id, job_type, job, status, attempts, max_attempts, done_at)
         VALUES ($1, 'canary', convert_to('{\"v\":1,\"args\":{}}', 'UTF8'), $2, $3, 5,
                 CASE WHEN $2 IN ('Done', 'Failed', 'Killed') THEN now() - make_interval(days => $4) END)",
    )
    .bind(id)
    .bind(status)
    .bind(attempts)
    .bind(days)
    .execute(db)
    .await
    .expect("insert job");
}

async fn remaining(db: &PgPool) -> Vec<String> {
    sqlx::query_scalar("SELECT id FROM apalis.jobs ORDER BY id")
        .fetch_all(db)
        .await
        .expect("ids")
}

#[testkit::db_test]
async fn old_finished_jobs_and_dead_workers_go_the_rest_stays(db: PgPool) {
    job(&db, "01AAAAAAAAAAAAAAAAAAAAAAA1", "Done", 1, 15).await; // old success: pruned
    job(&db, "01AAAAAAAAAAAAAAAAAAAAAAA2", "Done", 1, 13).await; // recent success: kept
    job(&db, "01AAAAAAAAAAAAAAAAAAAAAAA3", "Failed", 5, 30).await; // failed, within 90 days
    job(&db, "01AAAAAAAAAAAAAAAAAAAAAAA4", "Failed", 5, 91).await; // old final failure: pruned
    job(&db, "01AAAAAAAAAAAAAAAAAAAAAAA5", "Killed", 1, 91).await; // old poison/cancel: pruned
    job(&db, "01AAAAAAAAAAAAAAAAAAAAAAA6", "Failed", 2, 200).await; // attempts left: alive
    job(&db, "01AAAAAAAAAAAAAAAAAAAAAAA7", "Pending", 0, 0).await; // waiting: kept
    job(&db, "01AAAAAAAAAAAAAAAAAAAAAAA8", "Running", 1, 0).await; // held by a dead worker
    sqlx::query(
        "INSERT INTO job_failures (job_id, attempt, worker, summary, detail)
         VALUES ('01AAAAAAAAAAAAAAAAAAAAAAA4', 5, 'w', 's', 'd')",
    )
    .execute(&db)
    .await
    .expect("failure");
    sqlx::query(
        "INSERT INTO apalis.workers (id, worker_type, storage_name, last_seen) VALUES
             ('gone', 'canary', 'PgStorage', now() - interval '2 hours'),
             ('holding', 'canary', 'PgStorage', now() - interval '2 hours'),
             ('alive', 'canary', 'PgStorage', now())",
    )
    .execute(&db)
    .await
    .expect("workers");
    sqlx::query(
        "UPDATE apalis.jobs SET lock_by = 'holding' WHERE id = '01AAAAAAAAAAAAAAAAAAAAAAA8'",
    )
    .execute(&db)
    .await
    .expect("lock");
    sqlx::query(
        "INSERT INTO job_canary_effects (key, job_id, worker, created_at) VALUES
             ('old', 'x', 'w', now() - interval '8 days'), ('new', 'x', 'w', now())",
    )
    .execute(&db)
    .await
    .expect("effects");

    let pruned = prune(&db, POLICY).await.expect("prune");

    assert_eq!(
        (pruned.jobs, pruned.workers, pruned.canary_effects),
        (3, 1, 1)
    );
    assert_eq!(
        remaining(&db).await,
        [
            "01AAAAAAAAAAAAAAAAAAAAAAA2",
            "01AAAAAAAAAAAAAAAAAAAAAAA3",
            "01AAAAAAAAAAAAAAAAAAAAAAA6",
            "01AAAAAAAAAAAAAAAAAAAAAAA7",
            "01AAAAAAAAAAAAAAAAAAAAAAA8",
        ]
    );
    let failures: i64 = sqlx::query_scalar("SELECT count(*) FROM job_failures")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(failures, 0, "a pruned job's failures go with it");
    let workers: Vec<String> = sqlx::query_scalar("SELECT id FROM apalis.workers ORDER BY id")
        .fetch_all(&db)
        .await
        .expect("workers");
    assert_eq!(workers, ["alive", "holding"]);
}

#[testkit::db_test]
async fn shorter_ages_prune_more(db: PgPool) {
    job(&db, "01AAAAAAAAAAAAAAAAAAAAAAA1", "Done", 1, 2).await;
    job(&db, "01AAAAAAAAAAAAAAAAAAAAAAA2", "Killed", 1, 2).await;
    let pruned = prune(
        &db,
        Policy {
            succeeded_days: 1,
            failed_days: 3,
            ..POLICY
        },
    )
    .await
    .expect("prune");
    assert_eq!(pruned.jobs, 1);
    assert_eq!(remaining(&db).await, ["01AAAAAAAAAAAAAAAAAAAAAAA2"]);
}

#[testkit::db_test]
async fn retention_prunes_spent_activation_limits_and_keeps_live_ones(db: PgPool) {
    let station_id = testkit::insert_station(&db, "clube").await;
    // The last byte of each address hash names the row.
    sqlx::query(
        "INSERT INTO confirmation_cooldowns (station_id, email_hash, sent_at, day_started_at, day_count)
         SELECT $1, decode(lpad(name, 64, '0'), 'hex'), now() - age, now() - age - interval '1 hour', 3
           FROM (VALUES ('01', interval '25 hours'), ('02', interval '23 hours'),
                        ('03', interval '1 minute')) AS rows (name, age)",
    )
    .bind(station_id)
    .execute(&db)
    .await
    .expect("cooldowns");
    // Wrong codes for unknown identifiers: a lockout over with its count started again
    // (spent), a lockout still on, a count under way, a count gone a day quiet (spent: it
    // would start over), a lockout over whose count is a day quiet (spent).
    sqlx::query(
        "INSERT INTO activation_guesses
             (station_id, identifier_hash, failed_attempts, locked_until, last_failed_at)
         SELECT $1, decode(lpad(name, 64, '0'), 'hex'), failed, now() + lockout, now() - quiet
           FROM (VALUES ('01', 0, interval '-1 second', interval '1 hour'),
                        ('02', 0, interval '1 hour', interval '1 minute'),
                        ('03', 3, NULL, interval '1 hour'),
                        ('04', 3, NULL, interval '25 hours'),
                        ('05', 2, interval '-1 hour', interval '2 days'))
                AS rows (name, failed, lockout, quiet)",
    )
    .bind(station_id)
    .execute(&db)
    .await
    .expect("guesses");

    let pruned = prune(&db, POLICY).await.expect("prune");

    assert_eq!(pruned.activation_limits, 4);
    let guesses: Vec<String> = sqlx::query_scalar(
        "SELECT ltrim(encode(identifier_hash, 'hex'), '0') FROM activation_guesses ORDER BY 1",
    )
    .fetch_all(&db)
    .await
    .expect("rows");
    assert_eq!(
        guesses,
        ["2", "3"],
        "a lockout on and a count of today still hold"
    );
    let left: Vec<String> = sqlx::query_scalar(
        "SELECT ltrim(encode(email_hash, 'hex'), '0') FROM confirmation_cooldowns ORDER BY 1",
    )
    .fetch_all(&db)
    .await
    .expect("rows");
    assert_eq!(
        left,
        ["2", "3"],
        "the wait and the day of the younger ones still hold"
    );
}
