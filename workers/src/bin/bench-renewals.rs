//! The Rust side of `ops/bench/renewals`: seeds a station with subscriptions whose periods
//! all ended within the last hour, renews them through the billing engine as the jobs do
//! (one `subscriptions.dispatch` run, then the `subscriptions.charge` jobs it queued, each
//! calling `app::subscriptions::billing::charge_try` against the sandbox provider), and
//! checks that each period was charged exactly once. Not part of the product; the script
//! runs it on a database of its own.
//!
//! ```text
//! bench-renewals migrate
//!     applies the schema (schema::MIGRATOR).
//! bench-renewals seed <subscriptions>
//!     station `bench`, one member per subscription with a saved sandbox card that
//!     approves, a monthly plan, and <subscriptions> active subscriptions whose paid first
//!     period ended in the last hour (spread evenly). Prints `seconds=<wall time>`.
//! bench-renewals run <runners>
//!     one dispatch at now (batches of the job's size) and, from its start, <runners> tasks
//!     taking the queued charge jobs as the fleet would (`FOR UPDATE SKIP LOCKED`) and running them.
//!     Prints `seconds=<total> dispatch=<seconds> charged=<n> rate=<per second>
//!     p50=<seconds> p99=<seconds>`, the percentiles from the dispatch's start (when the
//!     engine first saw the periods due) to each try's settlement.
//! bench-renewals verify <subscriptions>
//!     every subscription renewed once (current period 1, active), the provider made
//!     exactly one charge per period and none twice, one paid try per period. Prints `ok`.
//! ```
//! Reads DATABASE_URL.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use app::subscriptions::billing;
use domain::Config;
use jobs::JobOutbox;
use jobs::kinds::SubscriptionCharge;
use jobs::kinds::subscriptions::dispatch::BATCH;
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;
use sqlx::types::chrono::{DateTime, Utc};

const USAGE: &str = "usage: bench-renewals migrate\n\
                     \x20      bench-renewals seed <subscriptions>\n\
                     \x20      bench-renewals run <runners>\n\
                     \x20      bench-renewals verify <subscriptions>";

/// Charge jobs a runner takes at once.
const TAKE: i64 = 20;
/// How long a runner waits before looking again at an empty queue while the dispatch runs.
const IDLE: Duration = Duration::from_millis(50);

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |index: usize, what: &str| -> anyhow::Result<i64> {
        let raw = args
            .get(index)
            .with_context(|| format!("{what} is missing\n{USAGE}"))?;
        let value: i64 = raw
            .parse()
            .with_context(|| format!("{what}: not a number: {raw}"))?;
        ensure!(value >= 1, "{what} must be at least 1");
        Ok(value)
    };
    let runners = match args.first().map(String::as_str) {
        Some("run") => number(1, "runners")?,
        _ => 1,
    };
    let db = connect(u32::try_from(runners + 2).unwrap_or(64)).await?;
    let out = match args.first().map(String::as_str) {
        Some("migrate") => {
            schema::migrate(&db).await?;
            "migrated".to_string()
        }
        Some("seed") => {
            let started = Instant::now();
            seed(&db, number(1, "subscriptions")?).await?;
            format!("seconds={:.3}", started.elapsed().as_secs_f64())
        }
        Some("run") => run(&db, runners).await?,
        Some("verify") => {
            verify(&db, number(1, "subscriptions")?).await?;
            "ok".to_string()
        }
        _ => bail!("{USAGE}"),
    };
    writeln!(std::io::stdout(), "{out}")?;
    Ok(())
}

async fn connect(connections: u32) -> anyhow::Result<PgPool> {
    let url = std::env::var("DATABASE_URL").context("DATABASE_URL is not set")?;
    Ok(PgPoolOptions::new()
        .max_connections(connections)
        .connect(&url)
        .await?)
}

async fn seed(db: &PgPool, subscriptions: i64) -> anyhow::Result<()> {
    let mut tx = db.begin().await?;
    let station: i64 = sqlx::query_scalar(
        "INSERT INTO stations (name, subdomain, url)
         VALUES ('Clube Benchmark', 'bench', 'https://bench.example.com') RETURNING id",
    )
    .fetch_one(&mut *tx)
    .await?;
    let plan: i64 = sqlx::query_scalar(
        "INSERT INTO plans (station_id, name, amount, days)
         VALUES ($1, 'Plano Benchmark', 4990, 30) RETURNING id",
    )
    .bind(station)
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO users (station_id, name, email, active)
         SELECT $1, 'Membro ' || g, 'm' || g || '@bench.example.com', true
         FROM generate_series(1, $2) g",
    )
    .bind(station)
    .bind(subscriptions)
    .execute(&mut *tx)
    .await?;
    // A saved card at the sandbox (one that approves) and ours, per member.
    sqlx::query(
        "INSERT INTO sandbox_cards (id, token, brand, last_digits, behaviour, saved, created_at)
         SELECT 'card_bench_' || id, 'tok_bench_' || id, 'visa', '0010', 'approve', true, now()
           FROM users WHERE station_id = $1",
    )
    .bind(station)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO saved_cards (station_id, user_id, provider, gateway_card_id, brand,
                                  last_digits, exp_month, exp_year)
         SELECT station_id, id, 'sandbox', 'card_bench_' || id, 'visa', '0010', 12, 2040
           FROM users WHERE station_id = $1",
    )
    .bind(station)
    .execute(&mut *tx)
    .await?;
    // Period 0 of subscription g ended g/N of an hour ago, so all are due within the hour.
    sqlx::query(
        "WITH members AS (
             SELECT u.id AS user_id, c.id AS card_id,
                    now() - make_interval(secs => 3600.0 * row_number() OVER (ORDER BY u.id) / $3)
                        AS ends_at
               FROM users u JOIN saved_cards c ON c.user_id = u.id
              WHERE u.station_id = $1
         ), made AS (
             INSERT INTO subscriptions (station_id, user_id, plan_id, recurrence, period_months,
                  period_days, amount, method, saved_card_id, status, anchor_at,
                  current_period_start, current_period_end)
             SELECT $1, user_id, $2, 'month', 1, 0, 4990, 'card', card_id, 'active',
                    ends_at - interval '1 month', ends_at - interval '1 month', ends_at
               FROM members
             RETURNING id, user_id, current_period_start, current_period_end
         )
         INSERT INTO subscription_periods (station_id, user_id, subscription_id, kind,
              period_index, starts_at, ends_at, amount, plan_id, status, paid_at)
         SELECT $1, user_id, id, 'first', 0, current_period_start, current_period_end, 4990, $2,
                'paid', current_period_start
           FROM made",
    )
    .bind(station)
    .bind(plan)
    .bind(subscriptions as f64)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

async fn run(db: &PgPool, runners: i64) -> anyhow::Result<String> {
    let config = Config::from_lookup(|_| None)?;
    let gateway = payments::Gateway::from_config(&config, db.clone())?;
    // The runners poll the queue from the start, as the fleet's workers do while the
    // dispatch job runs.
    let dispatching = Arc::new(AtomicBool::new(true));
    let tasks: Vec<_> = (0..runners)
        .map(|_| {
            let (db, gateway, dispatching) = (db.clone(), gateway.clone(), dispatching.clone());
            tokio::spawn(async move { runner(&db, &gateway, &dispatching).await })
        })
        .collect();
    let started = Instant::now();
    let seen_due: DateTime<Utc> = Utc::now();
    let dispatched = billing::dispatch(db, &JobOutbox, seen_due, BATCH).await?;
    let dispatch_seconds = started.elapsed().as_secs_f64();
    dispatching.store(false, Ordering::SeqCst);
    let mut charged = 0;
    for task in tasks {
        charged += task.await??;
    }
    let seconds = started.elapsed().as_secs_f64();
    ensure!(
        charged == dispatched.queued,
        "ran {charged} charges, the dispatch queued {}",
        dispatched.queued
    );
    let (p50, p99): (f64, f64) = sqlx::query_as(
        "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY secs),
                percentile_cont(0.99) WITHIN GROUP (ORDER BY secs)
           FROM (SELECT extract(epoch FROM settled_at - $1)::float8 AS secs
                   FROM subscription_charges) settled",
    )
    .bind(seen_due)
    .fetch_one(db)
    .await?;
    Ok(format!(
        "seconds={seconds:.3} dispatch={dispatch_seconds:.3} renewed={} charged={charged} rate={:.0} p50={p50:.3} p99={p99:.3}",
        dispatched.renewed.created,
        charged as f64 / seconds
    ))
}

/// Takes queued charge jobs as a worker would and runs each, until the dispatch is over
/// and the queue empty; answers how many it ran.
async fn runner(
    db: &PgPool,
    gateway: &payments::Gateway,
    dispatching: &AtomicBool,
) -> anyhow::Result<usize> {
    let mut ran = 0;
    loop {
        // Read before taking: once the dispatch is over, an empty take means nothing is left.
        let over = !dispatching.load(Ordering::SeqCst);
        let taken: Vec<serde_json::Value> = sqlx::query_scalar(
            "UPDATE apalis.jobs SET status = 'Done', done_at = now()
              WHERE id IN (SELECT id FROM apalis.jobs
                            WHERE job_type = 'subscriptions.charge' AND status = 'Pending'
                            ORDER BY run_at LIMIT $1 FOR UPDATE SKIP LOCKED)
             RETURNING convert_from(job, 'UTF8')::jsonb -> 'args'",
        )
        .bind(TAKE)
        .fetch_all(db)
        .await?;
        if taken.is_empty() {
            if over {
                return Ok(ran);
            }
            tokio::time::sleep(IDLE).await;
            continue;
        }
        for args in taken {
            let job: SubscriptionCharge = serde_json::from_value(args)?;
            let outcome =
                billing::charge_try(db, gateway, &JobOutbox, job.period_id, job.attempt).await?;
            ensure!(
                outcome == billing::PeriodOutcome::Paid,
                "period {} came to {outcome:?}",
                job.period_id
            );
            ran += 1;
        }
    }
}

async fn verify(db: &PgPool, subscriptions: i64) -> anyhow::Result<()> {
    let renewed: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM subscriptions WHERE current_period = 1 AND status = 'active'",
    )
    .fetch_one(db)
    .await?;
    ensure!(
        renewed == subscriptions,
        "{renewed} of {subscriptions} renewed"
    );
    let (charges, references): (i64, i64) = sqlx::query_as(
        "SELECT count(*), count(DISTINCT reference) FROM sandbox_charges
          WHERE reference LIKE 'ASSINATURA-%'",
    )
    .fetch_one(db)
    .await?;
    ensure!(
        charges == subscriptions && references == subscriptions,
        "{charges} provider charges for {references} periods, expected {subscriptions} once each"
    );
    let (paid_periods, paid_tries, tries): (i64, i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM subscription_periods
                  WHERE kind = 'renewal' AND status = 'paid'),
                (SELECT count(*) FROM subscription_charges WHERE status = 'paid'),
                (SELECT count(*) FROM subscription_charges)",
    )
    .fetch_one(db)
    .await?;
    ensure!(
        paid_periods == subscriptions && paid_tries == subscriptions && tries == subscriptions,
        "{paid_periods} renewals paid, {paid_tries} of {tries} tries paid; expected {subscriptions}"
    );
    Ok(())
}
