//! The Rust side of `ops/bench/cashback`: seeds a station with pending lots, releases them
//! through the very loop the `cashback.release` job runs
//! ([`jobs::kinds::wallet::cashback_release::release_station`]), and checks the outcome. Not part
//! of the product; the script runs it on a database of its own.
//!
//! ```text
//! bench-cashback migrate
//!     applies the schema (schema::MIGRATOR).
//! bench-cashback seed <lots> <members>
//!     station `bench` with <members> members, each with a wallet, and <lots> pending lots
//!     due in the last 30 days spread evenly over them in a scattered order, plus <lots>/100
//!     lots due tomorrow; station `bench-outra` with one member and 1000 due lots. The
//!     wallets' pending caches are set to match. Prints `seconds=<wall time>`.
//! bench-cashback release [batch]
//!     releases station `bench` as the job does, batches of [batch] lots (default: the
//!     job's). Prints `seconds=<wall time> lots=<released> batches=<n> amount=<cents>
//!     due=<counted at start> batch=<size>`.
//! bench-cashback verify <lots>
//!     nothing due is left pending, exactly <lots> lots were released, the later lots and
//!     the other station are untouched, every wallet's caches equal its lots, and the batch
//!     records add up. Prints `ok` or fails.
//! ```
//! Reads DATABASE_URL.

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, bail, ensure};
use jobs::kinds::wallet::cashback_release::{self, BATCH_SIZE};
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;
use sqlx::types::chrono::{DateTime, Utc};

const USAGE: &str = "usage: bench-cashback migrate\n\
                     \x20      bench-cashback seed <lots> <members>\n\
                     \x20      bench-cashback release [batch]\n\
                     \x20      bench-cashback verify <lots>";

/// The job id the benchmark's release records its batches under.
const JOB_ID: &str = "bench-cashback";
/// Lots of the other station, which must stay pending.
const OTHER_LOTS: i64 = 1000;

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
    let db = connect().await?;
    let out = match args.first().map(String::as_str) {
        Some("migrate") => {
            schema::migrate(&db).await?;
            "migrated".to_string()
        }
        Some("seed") => {
            let (lots, members) = (number(1, "lots")?, number(2, "members")?);
            let started = Instant::now();
            seed(&db, lots, members).await?;
            format!("seconds={:.3}", started.elapsed().as_secs_f64())
        }
        Some("release") => {
            let batch = if args.len() > 1 {
                number(1, "batch")?
            } else {
                BATCH_SIZE
            };
            release(&db, batch).await?
        }
        Some("verify") => {
            verify(&db, number(1, "lots")?).await?;
            "ok".to_string()
        }
        _ => bail!("{USAGE}"),
    };
    writeln!(std::io::stdout(), "{out}")?;
    Ok(())
}

async fn connect() -> anyhow::Result<PgPool> {
    let url = std::env::var("DATABASE_URL").context("DATABASE_URL is not set")?;
    // The job's worker shares a pool too; the release uses one connection at a time.
    Ok(PgPoolOptions::new()
        .max_connections(4)
        .connect(&url)
        .await?)
}

async fn station(db: &PgPool, subdomain: &str) -> anyhow::Result<i64> {
    sqlx::query_scalar("SELECT id FROM stations WHERE subdomain = $1")
        .bind(subdomain)
        .fetch_optional(db)
        .await?
        .with_context(|| format!("no station {subdomain}: run `bench-cashback seed` first"))
}

async fn seed(db: &PgPool, lots: i64, members: i64) -> anyhow::Result<()> {
    let mut tx = db.begin().await?;
    let bench: i64 = sqlx::query_scalar(
        "INSERT INTO stations (name, subdomain, url)
         VALUES ('Clube Benchmark', 'bench', 'https://bench.example.com') RETURNING id",
    )
    .fetch_one(&mut *tx)
    .await?;
    let other: i64 = sqlx::query_scalar(
        "INSERT INTO stations (name, subdomain, url)
         VALUES ('Outro Clube', 'bench-outra', 'https://outra.example.com') RETURNING id",
    )
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO users (station_id, name, email, active)
         SELECT $1, 'Membro ' || g, 'm' || g || '@bench.example.com', true
         FROM generate_series(1, $2) g",
    )
    .bind(bench)
    .bind(members)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO users (station_id, name, email, active)
         VALUES ($1, 'Membro outro', 'outro@bench.example.com', true)",
    )
    .bind(other)
    .execute(&mut *tx)
    .await?;
    sqlx::query("INSERT INTO wallets (user_id, station_id) SELECT id, station_id FROM users")
        .execute(&mut *tx)
        .await?;
    // Lot g goes to member (g x 7919) mod members: a prime that does not divide the member
    // count spreads the lots evenly; its due time is scattered over 30 days, so each batch
    // (taken in due-time order) touches wallets all over the table, as real cashback does.
    let first_member: i64 = sqlx::query_scalar("SELECT min(id) FROM users WHERE station_id = $1")
        .bind(bench)
        .fetch_one(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO credit_lots
             (user_id, station_id, source_kind, source_id, rule, amount, state, description,
              available_at)
         SELECT $2 + (g * 7919) % $3, $1, 'purchase', 'bench-' || g, 'purchase',
                1 + (g * 2654435761) % 10000, 'pending', 'Compra no benchmark',
                now() - make_interval(secs => 60 + (g * 104729) % (30 * 86400))
         FROM generate_series(1::bigint, $4) g",
    )
    .bind(bench)
    .bind(first_member)
    .bind(members)
    .bind(lots)
    .execute(&mut *tx)
    .await?;
    // Not due yet: must stay pending.
    sqlx::query(
        "INSERT INTO credit_lots
             (user_id, station_id, source_kind, source_id, rule, amount, state, description,
              available_at)
         SELECT $2 + (g * 7919) % $3, $1, 'purchase', 'bench-later-' || g, 'purchase',
                1 + g % 5000, 'pending', 'Compra no benchmark', now() + interval '1 day'
         FROM generate_series(1::bigint, $4 / 100) g",
    )
    .bind(bench)
    .bind(first_member)
    .bind(members)
    .bind(lots)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO credit_lots
             (user_id, station_id, source_kind, source_id, rule, amount, state, description,
              available_at)
         SELECT u.id, $1, 'purchase', 'bench-outra-' || g, 'purchase', 100, 'pending',
                'Compra no benchmark', now() - interval '1 hour'
         FROM generate_series(1::bigint, $2) g, users u WHERE u.station_id = $1",
    )
    .bind(other)
    .bind(OTHER_LOTS)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE wallets w SET pending = s.amount
         FROM (SELECT user_id, sum(amount)::bigint AS amount FROM credit_lots GROUP BY user_id) s
         WHERE w.user_id = s.user_id",
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

async fn release(db: &PgPool, batch: i64) -> anyhow::Result<String> {
    let bench = station(db, "bench").await?;
    // The job fixes its cutoff at the start of the attempt, from the worker's clock.
    let cutoff: DateTime<Utc> = sqlx::query_scalar("SELECT now()").fetch_one(db).await?;
    let mut last_tenth = 0;
    let started = Instant::now();
    let done = cashback_release::release_station(db, bench, cutoff, JOB_ID, batch, |progress| {
        let tenth = progress.percent() / 10;
        if tenth > last_tenth {
            last_tenth = tenth;
            let _ = writeln!(
                std::io::stderr(),
                "  {:>3}% {:>9} lots {:>6.1} s",
                progress.percent(),
                progress.lots,
                started.elapsed().as_secs_f64()
            );
        }
        async { Ok(()) }
    })
    .await?;
    let seconds = started.elapsed().as_secs_f64();
    Ok(format!(
        "seconds={seconds:.3} lots={} batches={} amount={} due={} batch={batch}",
        done.lots, done.batches, done.amount, done.due
    ))
}

async fn verify(db: &PgPool, lots: i64) -> anyhow::Result<()> {
    let bench = station(db, "bench").await?;
    let other = station(db, "bench-outra").await?;
    let still_due: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM credit_lots
         WHERE station_id = $1 AND state = 'pending' AND available_at <= now()",
    )
    .bind(bench)
    .fetch_one(db)
    .await?;
    ensure!(still_due == 0, "{still_due} due lots are still pending");

    let (released, released_amount): (i64, i64) = sqlx::query_as(
        "SELECT count(*), coalesce(sum(amount), 0)::bigint FROM credit_lots
         WHERE station_id = $1 AND state = 'available' AND released_at IS NOT NULL",
    )
    .bind(bench)
    .fetch_one(db)
    .await?;
    ensure!(
        released == lots,
        "{released} lots released, expected {lots}"
    );

    let balances: i64 = sqlx::query_scalar(
        "SELECT coalesce(sum(balance), 0)::bigint FROM wallets WHERE station_id = $1",
    )
    .bind(bench)
    .fetch_one(db)
    .await?;
    ensure!(
        balances == released_amount,
        "wallet balances add up to {balances}, the released lots to {released_amount}"
    );

    let summary = domain::wallet::release::job_summary(db, JOB_ID).await?;
    ensure!(
        summary.lots == released && summary.amount == released_amount,
        "batch records: {} lots, {} cents; released: {released} lots, {released_amount} cents",
        summary.lots,
        summary.amount
    );

    let later: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM credit_lots
         WHERE station_id = $1 AND state = 'pending' AND available_at > now()",
    )
    .bind(bench)
    .fetch_one(db)
    .await?;
    ensure!(
        later == lots / 100,
        "{later} later lots pending, expected {}",
        lots / 100
    );
    let untouched: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM credit_lots WHERE station_id = $1 AND state = 'pending'",
    )
    .bind(other)
    .fetch_one(db)
    .await?;
    ensure!(
        untouched == OTHER_LOTS,
        "the other station has {untouched} pending lots, expected {OTHER_LOTS}"
    );

    let wrong: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM (
             SELECT w.user_id FROM wallets w LEFT JOIN credit_lots l ON l.user_id = w.user_id
             GROUP BY w.user_id
             HAVING w.balance <> coalesce(sum(l.amount - l.spent)
                                              FILTER (WHERE l.state = 'available'), 0)
                 OR w.pending <> coalesce(sum(l.amount) FILTER (WHERE l.state = 'pending'), 0)
         ) wrong",
    )
    .fetch_one(db)
    .await?;
    ensure!(wrong == 0, "{wrong} wallets' caches differ from their lots");
    Ok(())
}
