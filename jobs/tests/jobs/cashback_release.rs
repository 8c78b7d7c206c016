//! Scheduled cashback release: due lots are released in committed batches and later ones
//! stay pending; a release killed midway and run again releases each lot once; two
//! releases of one station at once neither double-release nor deadlock; the dispatcher
//! enqueues one release per station and tick, skipping disabled, not-yet-ticked and
//! unreadable schedules; the job on the real fleet reports progress and its summary.
//!
//! Wallets and lots are made with plain SQL here, not through the ledger.

use std::time::Duration;

use crate::common::{start_fleet, wait_for_state};
use chrono::{DateTime, TimeZone, Utc};
use jobs::kinds::wallet::cashback_release::{self, CashbackDispatch, CashbackRelease, Progress};
use jobs::{Enqueue, JobState};
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::build;

async fn station(db: &PgPool, subdomain: &str) -> i64 {
    build::station(subdomain).insert(db).await
}

/// A member with an empty wallet.
async fn member(db: &PgPool, station_id: i64, email: &str) -> i64 {
    let user_id = build::member(station_id)
        .name("Pessoa")
        .email(email)
        .insert(db)
        .await;
    sqlx::query("INSERT INTO wallets (user_id, station_id) VALUES ($1, $2)")
        .bind(user_id)
        .bind(station_id)
        .execute(db)
        .await
        .expect("wallet");
    user_id
}

/// A pending lot available at `available_at`, with the wallet's pending cache kept right.
async fn lot(db: &PgPool, user_id: i64, amount: i64, available_at: DateTime<Utc>) -> i64 {
    let mut tx = db.begin().await.expect("begin");
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO credit_lots
             (user_id, station_id, source_kind, source_id, rule, amount, state, description,
              available_at)
         SELECT $1, station_id, 'purchase', gen_random_uuid()::text, 'purchase', $2, 'pending',
                'Compra', $3
         FROM wallets WHERE user_id = $1
         RETURNING id",
    )
    .bind(user_id)
    .bind(amount)
    .bind(available_at)
    .fetch_one(&mut *tx)
    .await
    .expect("lot");
    sqlx::query("UPDATE wallets SET pending = pending + $2 WHERE user_id = $1")
        .bind(user_id)
        .bind(amount)
        .execute(&mut *tx)
        .await
        .expect("pending cache");
    tx.commit().await.expect("commit");
    id
}

/// (balance, pending) of a wallet.
async fn wallet(db: &PgPool, user_id: i64) -> (i64, i64) {
    sqlx::query_as("SELECT balance, pending FROM wallets WHERE user_id = $1")
        .bind(user_id)
        .fetch_one(db)
        .await
        .expect("wallet")
}

/// Every wallet's caches equal its lots (no spends happen in these tests).
async fn assert_caches_match_lots(db: &PgPool) {
    let wrong: Vec<(i64, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT w.user_id, w.balance, w.pending,
                coalesce(sum(l.amount - l.spent) FILTER (WHERE l.state = 'available'), 0)::bigint,
                coalesce(sum(l.amount) FILTER (WHERE l.state = 'pending'), 0)::bigint
         FROM wallets w LEFT JOIN credit_lots l ON l.user_id = w.user_id
         GROUP BY w.user_id
         HAVING w.balance <> coalesce(sum(l.amount - l.spent) FILTER (WHERE l.state = 'available'), 0)
             OR w.pending <> coalesce(sum(l.amount) FILTER (WHERE l.state = 'pending'), 0)",
    )
    .fetch_all(db)
    .await
    .expect("caches");
    assert!(
        wrong.is_empty(),
        "(user, balance, pending, ledger balance, ledger pending): {wrong:?}"
    );
}

/// (lots, amount, batches) recorded under a job id.
async fn batches(db: &PgPool, job_id: &str) -> (i64, i64, i64) {
    let summary = domain::wallet::release::job_summary(db, job_id)
        .await
        .expect("summary");
    (summary.lots, summary.amount, summary.batches)
}

async fn pending_lots(db: &PgPool, station_id: i64) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM credit_lots WHERE station_id = $1 AND state = 'pending'",
    )
    .bind(station_id)
    .fetch_one(db)
    .await
    .expect("pending")
}

/// Runs a release to the end, keeping every progress report.
async fn release(
    db: &PgPool,
    station_id: i64,
    job_id: &str,
    batch: i64,
) -> (Progress, Vec<Progress>) {
    let mut seen = Vec::new();
    let done = cashback_release::release_station(db, station_id, Utc::now(), job_id, batch, |p| {
        seen.push(p);
        async { Ok(()) }
    })
    .await
    .expect("release");
    (done, seen)
}

fn minutes(n: i64) -> chrono::Duration {
    chrono::Duration::minutes(n)
}

#[testkit::db_test]
async fn due_lots_are_released_and_lots_not_yet_due_stay_pending(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let other_station = station(&db, "outro").await;
    let ana = member(&db, station_id, "ana@example.com").await;
    let bia = member(&db, station_id, "bia@example.com").await;
    let caio = member(&db, other_station, "caio@example.com").await;
    let now = Utc::now();
    for amount in [1000, 250, 4000] {
        lot(&db, ana, amount, now - minutes(90)).await;
    }
    lot(&db, bia, 700, now - minutes(1)).await;
    lot(&db, bia, 50, now - minutes(30)).await;
    let later = lot(&db, bia, 9999, now + minutes(60)).await;
    let elsewhere = lot(&db, caio, 500, now - minutes(60)).await;

    let (done, seen) = release(&db, station_id, "job-due", 2).await;

    assert_eq!(
        (done.due, done.lots, done.amount, done.batches),
        (5, 5, 6000, 3)
    );
    // A report before the first batch and after each one, ending at 100 %.
    let percents: Vec<u8> = seen.iter().map(Progress::percent).collect();
    assert_eq!(percents, vec![0, 40, 80, 100]);
    assert_eq!(wallet(&db, ana).await, (5250, 0));
    assert_eq!(wallet(&db, bia).await, (750, 9999));
    assert_eq!(
        wallet(&db, caio).await,
        (0, 500),
        "another station is untouched"
    );
    let states: Vec<(i64, String, bool)> = sqlx::query_as(
        "SELECT id, state, released_at IS NOT NULL FROM credit_lots WHERE id = ANY($1) ORDER BY id",
    )
    .bind(vec![later, elsewhere])
    .fetch_all(&db)
    .await
    .expect("states");
    assert_eq!(
        states,
        vec![
            (later, "pending".to_string(), false),
            (elsewhere, "pending".to_string(), false)
        ]
    );
    let released: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM credit_lots
         WHERE station_id = $1 AND state = 'available' AND released_at IS NOT NULL",
    )
    .bind(station_id)
    .fetch_one(&db)
    .await
    .expect("released");
    assert_eq!(released, 5);
    assert_eq!(batches(&db, "job-due").await, (5, 6000, 3));
    assert_caches_match_lots(&db).await;

    // Nothing left: a second run releases nothing and records no batch.
    let (again, _) = release(&db, station_id, "job-due-again", 2).await;
    assert_eq!((again.due, again.lots), (0, 0));
    assert_eq!(again.percent(), 100);
    assert_eq!(batches(&db, "job-due-again").await, (0, 0, 0));
}

#[testkit::db_test]
async fn a_release_killed_after_its_first_batch_releases_each_lot_once_when_run_again(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let mut members = Vec::new();
    for i in 0..4 {
        members.push(member(&db, station_id, &format!("m{i}@example.com")).await);
    }
    let due = Utc::now() - minutes(10);
    for i in 0..23_i64 {
        lot(&db, members[(i % 4) as usize], 100 + i, due).await;
    }
    let total: i64 = (0..23).map(|i| 100 + i).sum();

    // The first attempt commits one batch, then hangs and is killed, as a worker that died.
    let (first_batch, committed) = tokio::sync::oneshot::channel::<()>();
    let mut first_batch = Some(first_batch);
    let task = tokio::spawn({
        let db = db.clone();
        async move {
            cashback_release::release_station(&db, station_id, Utc::now(), "job-k", 10, |p| {
                let hang = p.batches == 1;
                if hang && let Some(signal) = first_batch.take() {
                    let _ = signal.send(());
                }
                async move {
                    if hang {
                        std::future::pending::<()>().await;
                    }
                    Ok(())
                }
            })
            .await
        }
    });
    tokio::time::timeout(Duration::from_secs(10), committed)
        .await
        .expect("first batch in time")
        .expect("signalled");
    task.abort();
    assert!(task.await.expect_err("killed").is_cancelled());

    assert_eq!(batches(&db, "job-k").await, (10, (100..110).sum(), 1));
    assert_eq!(pending_lots(&db, station_id).await, 13);
    assert_caches_match_lots(&db).await;
    let first_released: Vec<(i64, DateTime<Utc>)> = sqlx::query_as(
        "SELECT id, released_at FROM credit_lots WHERE state = 'available' ORDER BY id",
    )
    .fetch_all(&db)
    .await
    .expect("first batch");

    // The retry of the same job resumes where the batch left off.
    let (retry, _) = release(&db, station_id, "job-k", 10).await;
    assert_eq!((retry.due, retry.lots, retry.batches), (13, 13, 2));
    assert_eq!(batches(&db, "job-k").await, (23, total, 3));
    assert_eq!(pending_lots(&db, station_id).await, 0);
    // The lots of the first batch were not touched again.
    let still: Vec<(i64, DateTime<Utc>)> =
        sqlx::query_as("SELECT id, released_at FROM credit_lots WHERE id = ANY($1) ORDER BY id")
            .bind(first_released.iter().map(|l| l.0).collect::<Vec<_>>())
            .fetch_all(&db)
            .await
            .expect("first batch again");
    assert_eq!(still, first_released);
    let balances: i64 = sqlx::query_scalar("SELECT sum(balance)::bigint FROM wallets")
        .fetch_one(&db)
        .await
        .expect("balances");
    assert_eq!(balances, total);
    assert_caches_match_lots(&db).await;

    // A new job for the same station afterwards finds nothing to do.
    let (later, _) = release(&db, station_id, "job-k2", 10).await;
    assert_eq!(later.lots, 0);
    assert_eq!(batches(&db, "job-k2").await, (0, 0, 0));
}

#[testkit::db_test]
async fn two_releases_of_one_station_at_once_release_each_lot_once(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let mut members = Vec::new();
    for i in 0..20 {
        members.push(member(&db, station_id, &format!("m{i}@example.com")).await);
    }
    let due = Utc::now() - minutes(5);
    // Interleaved over the members so both releases need the same wallets in every batch.
    for i in 0..300_i64 {
        lot(&db, members[(i % 20) as usize], 10 + i % 7, due).await;
    }
    let (lots, total): (i64, i64) =
        sqlx::query_as("SELECT count(*), sum(amount)::bigint FROM credit_lots")
            .fetch_one(&db)
            .await
            .expect("totals");

    let run = |job: &'static str| {
        let db = db.clone();
        tokio::spawn(async move {
            cashback_release::release_station(&db, station_id, Utc::now(), job, 7, |_| async {
                tokio::task::yield_now().await;
                Ok(())
            })
            .await
        })
    };
    let (a, b) = tokio::time::timeout(Duration::from_secs(60), async {
        let (a, b) = (run("job-a"), run("job-b"));
        (a.await, b.await)
    })
    .await
    .expect("no deadlock: both releases end");
    let (a, b) = (
        a.expect("task a").expect("release a"),
        b.expect("task b").expect("release b"),
    );

    assert_eq!(a.lots + b.lots, lots);
    assert_eq!(a.amount + b.amount, total);
    let (la, ma, _) = batches(&db, "job-a").await;
    let (lb, mb, _) = batches(&db, "job-b").await;
    assert_eq!((la + lb, ma + mb), (lots, total));
    assert_eq!((la, lb), (a.lots, b.lots));
    assert_eq!(pending_lots(&db, station_id).await, 0);
    let balances: i64 = sqlx::query_scalar("SELECT sum(balance)::bigint FROM wallets")
        .fetch_one(&db)
        .await
        .expect("balances");
    assert_eq!(balances, total);
    assert_caches_match_lots(&db).await;
}

fn at(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, s)
        .single()
        .expect("valid time")
}

async fn schedule(db: &PgPool, station_id: i64, expression: &str, enabled: bool) {
    sqlx::query(
        "INSERT INTO cashback_schedules (station_id, expression, enabled) VALUES ($1, $2, $3)",
    )
    .bind(station_id)
    .bind(expression)
    .bind(enabled)
    .execute(db)
    .await
    .expect("schedule");
}

async fn last_tick(db: &PgPool, station_id: i64) -> Option<DateTime<Utc>> {
    sqlx::query_scalar("SELECT last_tick FROM cashback_schedules WHERE station_id = $1")
        .bind(station_id)
        .fetch_optional(db)
        .await
        .expect("last tick")
        .flatten()
}

/// Release jobs of a station: (payload args, idempotency key, owner station, subject).
async fn release_jobs(
    db: &PgPool,
    station_id: i64,
) -> Vec<(Value, String, Option<i64>, Option<String>)> {
    sqlx::query_as(
        "SELECT convert_from(j.job, 'UTF8')::jsonb -> 'args', j.idempotency_key, r.station_id,
                r.subject_kind || ':' || r.subject_id
         FROM apalis.jobs j LEFT JOIN job_records r ON r.job_id = j.id
         WHERE j.job_type = 'cashback.release'
           AND (convert_from(j.job, 'UTF8')::jsonb -> 'args' ->> 'station_id')::bigint = $1
         ORDER BY j.run_at, j.id",
    )
    .bind(station_id)
    .fetch_all(db)
    .await
    .expect("release jobs")
}

#[testkit::db_test]
async fn a_ticked_station_gets_one_release_per_tick_however_often_dispatch_runs(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let ana = member(&db, station_id, "ana@example.com").await;
    // 13:25:30 UTC; the default schedule's latest tick is 13:00 (10:00 in Brasília).
    let now = at(2026, 11, 21, 13, 25, 30);
    lot(&db, ana, 1500, now - minutes(120)).await;

    let first = cashback_release::dispatch(&db, now)
        .await
        .expect("dispatch");
    assert_eq!(first.releases.len(), 1);
    let released = &first.releases[0];
    assert_eq!(
        (released.station_id, released.tick, released.created),
        (station_id, at(2026, 11, 21, 13, 0, 0), true)
    );
    assert_eq!(
        last_tick(&db, station_id).await,
        Some(at(2026, 11, 21, 13, 0, 0))
    );
    let jobs = release_jobs(&db, station_id).await;
    assert_eq!(
        jobs,
        vec![(
            json!({"station_id": station_id, "tick": "2026-11-21T13:00:00Z", "requested_by": null}),
            format!("cashback-release:{station_id}:2026-11-21T13:00:00Z"),
            Some(station_id),
            Some(format!("station:{station_id}")),
        )]
    );

    // The next minute's dispatch: same tick, nothing new.
    let second = cashback_release::dispatch(&db, now + minutes(1))
        .await
        .expect("dispatch again");
    assert!(second.releases.is_empty(), "{second:?}");
    // Even with the recorded tick lost, the tick's key finds the job already there.
    sqlx::query("DELETE FROM cashback_schedules")
        .execute(&db)
        .await
        .expect("forget");
    let third = cashback_release::dispatch(&db, now)
        .await
        .expect("dispatch a third time");
    assert_eq!(third.releases.len(), 1);
    assert!(!third.releases[0].created);
    assert_eq!(third.releases[0].job_id, released.job_id);
    assert_eq!(release_jobs(&db, station_id).await.len(), 1);

    // The next hour's tick is a new release.
    let next_hour = cashback_release::dispatch(&db, at(2026, 11, 21, 14, 0, 30))
        .await
        .expect("next hour");
    assert_eq!(next_hour.releases.len(), 1);
    assert!(next_hour.releases[0].created);
    assert_eq!(release_jobs(&db, station_id).await.len(), 2);
}

#[testkit::db_test]
async fn untimely_disabled_unreadable_or_empty_schedules_get_no_release(db: PgPool) {
    let now = at(2026, 11, 21, 13, 25, 30); // 10:25:30 in Brasília
    let due = now - minutes(120);
    let mut stations = Vec::new();
    for (name, expression, enabled) in [
        ("futuro", Some("0 0 0 1 1 * 2099"), true), // has never ticked
        ("desligado", Some("0 * * * * *"), false),
        ("ruim", Some("toda hora"), true),
        ("cedo", Some("0 0 11 * * *"), true), // 11:00 in Brasília: ticked yesterday
        ("vazio", None, true),                // ticked, but nothing is due
        ("normal", None, true),
    ] {
        let id = station(&db, name).await;
        if let Some(expression) = expression {
            schedule(&db, id, expression, enabled).await;
        }
        stations.push(id);
    }
    let [future, disabled, bad, early, empty, normal] = stations[..] else {
        unreachable!()
    };
    for &id in &[future, disabled, bad, normal] {
        let member = member(&db, id, &format!("m{id}@example.com")).await;
        lot(&db, member, 100, due).await;
    }
    // Yesterday's 11:00 tick was already handled.
    let early_member = member(&db, early, "cedo@example.com").await;
    lot(&db, early_member, 100, due).await;
    sqlx::query("UPDATE cashback_schedules SET last_tick = $2 WHERE station_id = $1")
        .bind(early)
        .bind(at(2026, 11, 20, 14, 0, 0))
        .execute(&db)
        .await
        .expect("last tick");
    // The empty station has only a lot due after now.
    let empty_member = member(&db, empty, "vazio@example.com").await;
    lot(&db, empty_member, 100, now + minutes(10)).await;

    let dispatched = cashback_release::dispatch(&db, now)
        .await
        .expect("dispatch");

    let released: Vec<i64> = dispatched.releases.iter().map(|r| r.station_id).collect();
    assert_eq!(released, vec![normal], "{dispatched:?}");
    assert_eq!(dispatched.disabled, vec![disabled]);
    assert_eq!(dispatched.idle, vec![empty]);
    assert_eq!(dispatched.invalid.len(), 1);
    assert_eq!(dispatched.invalid[0].station_id, bad);
    assert_eq!(dispatched.invalid[0].expression, "toda hora");
    assert!(
        dispatched.invalid[0]
            .error
            .starts_with("Agenda de liberação inválida"),
        "{:?}",
        dispatched.invalid[0]
    );
    for id in [future, disabled, bad, early, empty] {
        assert!(release_jobs(&db, id).await.is_empty(), "station {id}");
    }
    // The empty station's tick is recorded, so a lot falling due at 10:35 waits for 11:00.
    assert_eq!(
        last_tick(&db, empty).await,
        Some(at(2026, 11, 21, 13, 0, 0))
    );
    let later = cashback_release::dispatch(&db, now + minutes(20))
        .await
        .expect("later");
    assert!(
        later.releases.is_empty() && later.idle.is_empty(),
        "{later:?}"
    );
    assert_eq!(last_tick(&db, future).await, None);
    assert_eq!(last_tick(&db, disabled).await, None);
    assert_eq!(
        last_tick(&db, early).await,
        Some(at(2026, 11, 20, 14, 0, 0))
    );

    let json = dispatched.to_json();
    assert_eq!(json["stations"], 6);
    assert_eq!(json["invalid"][0]["station_id"], bad);
    assert_eq!(json["releases"][0]["tick"], "2026-11-21T13:00:00Z");
}

#[testkit::db_test]
async fn on_the_fleet_a_release_reports_progress_and_sums_every_attempt(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let mut members = Vec::new();
    for i in 0..3 {
        members.push(member(&db, station_id, &format!("m{i}@example.com")).await);
    }
    let due = Utc::now() - minutes(30);
    for i in 0..12_i64 {
        lot(&db, members[(i % 3) as usize], 1000 + i, due).await;
    }
    let total: i64 = (0..12).map(|i| 1000 + i).sum();
    let job = Enqueue::new(CashbackRelease {
        station_id,
        tick: None,
        requested_by: Some(members[0]),
    })
    .owner(station_id, None)
    .about("station", station_id)
    .commit(&db)
    .await
    .expect("enqueue");
    // An earlier attempt of this job committed one batch before its worker died.
    let mut tx = db.begin().await.expect("begin");
    let earlier =
        domain::wallet::release::release_batch(&mut tx, station_id, Utc::now(), 5, &job.id)
            .await
            .expect("earlier batch");
    tx.commit().await.expect("commit");
    assert_eq!(earlier.lots, 5);

    let fleet = start_fleet(&db);
    let done = wait_for_state(&db, &job.id, JobState::Succeeded, Duration::from_secs(20)).await;
    fleet.stop().await.expect("clean stop");

    assert_eq!(done.progress, Some(100));
    assert_eq!(
        done.result,
        Some(json!({
            "station_id": station_id,
            "lots": 12,
            "amount_cents": total,
            "batches": 2,
            "expired_lots": 0,
            "expired_cents": 0,
        }))
    );
    assert_eq!(pending_lots(&db, station_id).await, 0);
    assert_caches_match_lots(&db).await;
}

#[testkit::db_test]
async fn on_the_fleet_a_dispatch_enqueues_a_release_that_releases(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let idle_station = station(&db, "parado").await;
    let ana = member(&db, station_id, "ana@example.com").await;
    lot(&db, ana, 2500, Utc::now() - chrono::Duration::hours(2)).await;
    let dispatch = Enqueue::new(CashbackDispatch { tick: Utc::now() })
        .commit(&db)
        .await
        .expect("enqueue dispatch");

    let fleet = start_fleet(&db);
    let dispatched = wait_for_state(
        &db,
        &dispatch.id,
        JobState::Succeeded,
        Duration::from_secs(20),
    )
    .await;
    let result = dispatched.result.expect("dispatch result");
    assert_eq!(result["stations"], 2);
    assert_eq!(result["idle"], json!([idle_station]));
    let release_id = result["releases"][0]["job_id"]
        .as_str()
        .expect("release job id")
        .to_string();
    let released = wait_for_state(
        &db,
        &release_id,
        JobState::Succeeded,
        Duration::from_secs(20),
    )
    .await;
    fleet.stop().await.expect("clean stop");

    assert_eq!(
        released.result,
        Some(json!({
            "station_id": station_id, "lots": 1, "amount_cents": 2500, "batches": 1,
            "expired_lots": 0, "expired_cents": 0,
        }))
    );
    assert_eq!(wallet(&db, ana).await, (2500, 0));
    assert_caches_match_lots(&db).await;
}

/// An available lot that expired a minute ago and that no expiry has ended yet, with the
/// wallet's balance cache kept right.
async fn expired_lot(db: &PgPool, user_id: i64, amount: i64) -> i64 {
    let mut tx = db.begin().await.expect("begin");
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO credit_lots
             (user_id, station_id, source_kind, source_id, rule, amount, state, description,
              available_at, released_at, expires_at)
         SELECT $1, station_id, 'refund', gen_random_uuid()::text, 'refund', $2, 'available',
                'Estorno', now() - interval '10 days', now() - interval '10 days',
                now() - interval '1 minute'
         FROM wallets WHERE user_id = $1
         RETURNING id",
    )
    .bind(user_id)
    .bind(amount)
    .fetch_one(&mut *tx)
    .await
    .expect("lot");
    sqlx::query("UPDATE wallets SET balance = balance + $2 WHERE user_id = $1")
        .bind(user_id)
        .bind(amount)
        .execute(&mut *tx)
        .await
        .expect("balance cache");
    tx.commit().await.expect("commit");
    id
}

async fn lot_state(db: &PgPool, lot_id: i64) -> String {
    sqlx::query_scalar("SELECT state FROM credit_lots WHERE id = $1")
        .bind(lot_id)
        .fetch_one(db)
        .await
        .expect("lot")
}

#[testkit::db_test]
async fn on_the_fleet_a_release_also_expires_due_lots_of_its_station_only(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let other_station = station(&db, "outro").await;
    let ana = member(&db, station_id, "ana@example.com").await;
    let bia = member(&db, other_station, "bia@example.com").await;
    lot(&db, ana, 2500, Utc::now() - minutes(30)).await;
    let ana_expired = expired_lot(&db, ana, 700).await;
    let bia_expired = expired_lot(&db, bia, 900).await;

    let job = Enqueue::new(CashbackRelease {
        station_id,
        tick: None,
        requested_by: None,
    })
    .owner(station_id, None)
    .commit(&db)
    .await
    .expect("enqueue");
    let fleet = start_fleet(&db);
    let done = wait_for_state(&db, &job.id, JobState::Succeeded, Duration::from_secs(20)).await;
    fleet.stop().await.expect("clean stop");

    assert_eq!(
        done.result,
        Some(json!({
            "station_id": station_id, "lots": 1, "amount_cents": 2500, "batches": 1,
            "expired_lots": 1, "expired_cents": 700,
        }))
    );
    assert_eq!(lot_state(&db, ana_expired).await, "expired");
    assert_eq!(wallet(&db, ana).await, (2500, 0));
    assert_eq!(
        lot_state(&db, bia_expired).await,
        "available",
        "another station's"
    );
    assert_eq!(wallet(&db, bia).await, (900, 0));
    assert_caches_match_lots(&db).await;

    // A station with nothing to release but a lot to expire still gets its release.
    let dispatched = cashback_release::dispatch(&db, Utc::now())
        .await
        .expect("dispatch");
    assert_eq!(dispatched.idle, vec![station_id]);
    assert_eq!(
        dispatched
            .releases
            .iter()
            .map(|release| release.station_id)
            .collect::<Vec<_>>(),
        vec![other_station]
    );
}

/// A schedule is read in its station's time zone: "0 0 10 * * *" ticks at 13:00 UTC for a
/// station in Brasília and at 14:00 UTC for one in Manaus (UTC-4).
#[testkit::db_test]
async fn a_schedule_ticks_at_its_stations_own_hour(db: PgPool) {
    let brasilia = station(&db, "brasilia").await;
    let manaus = station(&db, "manaus").await;
    sqlx::query("UPDATE stations SET time_zone = 'America/Manaus' WHERE id = $1")
        .bind(manaus)
        .execute(&db)
        .await
        .expect("Manaus");
    for id in [brasilia, manaus] {
        schedule(&db, id, "0 0 10 * * *", true).await;
        // Both ticked yesterday at 10:00 of their own clocks.
        sqlx::query("UPDATE cashback_schedules SET last_tick = $2 WHERE station_id = $1")
            .bind(id)
            .bind(at(2026, 11, 20, if id == brasilia { 13 } else { 14 }, 0, 0))
            .execute(&db)
            .await
            .expect("last tick");
        let member = member(&db, id, &format!("m{id}@example.com")).await;
        lot(&db, member, 100, at(2026, 11, 21, 12, 0, 0)).await;
    }

    // 13:30 UTC: 10:30 in Brasília, 09:30 in Manaus.
    let half_past = cashback_release::dispatch(&db, at(2026, 11, 21, 13, 30, 0))
        .await
        .expect("dispatch");
    let released: Vec<i64> = half_past.releases.iter().map(|r| r.station_id).collect();
    assert_eq!(released, vec![brasilia], "{half_past:?}");
    assert_eq!(
        last_tick(&db, manaus).await,
        Some(at(2026, 11, 20, 14, 0, 0))
    );

    // 14:00:30 UTC: 10:00:30 in Manaus.
    let later = cashback_release::dispatch(&db, at(2026, 11, 21, 14, 0, 30))
        .await
        .expect("dispatch");
    let released: Vec<i64> = later.releases.iter().map(|r| r.station_id).collect();
    assert_eq!(released, vec![manaus], "{later:?}");
    assert_eq!(
        last_tick(&db, manaus).await,
        Some(at(2026, 11, 21, 14, 0, 0))
    );
}
