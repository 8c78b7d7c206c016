//! The enqueue side of `ops/bench/jobs`: puts no-op canary jobs in the queue through the
//! API every caller uses, [`jobs::Enqueue::push`] on the caller's own transaction, and
//! prints how long that took. Each canary records when its handler was entered in its
//! result (`stamp_start`), where the script reads the delay from due to start. Not part of the product; the script runs it.
//!
//! ```text
//! bench-jobs enqueue <jobs> <jobs-per-transaction> <connections>
//!     <connections> tasks in parallel, each: BEGIN, push <jobs-per-transaction> jobs,
//!     COMMIT, until <jobs> are in. Prints `seconds=<wall time>`.
//! bench-jobs paced <jobs> <per-second>
//!     one job per transaction, started at a steady rate whatever the previous one is
//!     doing (a light, steady load). Prints `seconds=<wall time>`.
//! ```
//! Reads DATABASE_URL.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use jobs::Enqueue;
use jobs::kinds::Canary;
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;
use tokio::task::JoinSet;

const USAGE: &str = "usage: bench-jobs enqueue <jobs> <jobs-per-transaction> <connections>\n\
                     \x20      bench-jobs paced <jobs> <per-second>";

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |index: usize, what: &str| -> anyhow::Result<usize> {
        let raw = args
            .get(index)
            .with_context(|| format!("{what} is missing\n{USAGE}"))?;
        let value: usize = raw
            .parse()
            .with_context(|| format!("{what}: not a number: {raw}"))?;
        if value == 0 {
            bail!("{what} must be at least 1");
        }
        Ok(value)
    };
    let elapsed = match args.first().map(String::as_str) {
        Some("enqueue") => {
            let (total, per_tx, connections) = (
                number(1, "jobs")?,
                number(2, "jobs-per-transaction")?,
                number(3, "connections")?,
            );
            let db = connect(connections).await?;
            enqueue(&db, total, per_tx, connections).await?
        }
        Some("paced") => {
            let (total, per_second) = (number(1, "jobs")?, number(2, "per-second")?);
            // Enough connections that a slow commit does not hold the next job back.
            let db = connect(8).await?;
            paced(&db, total, per_second).await?
        }
        _ => bail!("{USAGE}"),
    };
    writeln!(std::io::stdout(), "seconds={:.6}", elapsed.as_secs_f64())?;
    Ok(())
}

async fn connect(connections: usize) -> anyhow::Result<PgPool> {
    let url = std::env::var("DATABASE_URL").context("DATABASE_URL is not set")?;
    let db = PgPoolOptions::new()
        .max_connections(u32::try_from(connections).context("too many connections")?)
        .min_connections(u32::try_from(connections).context("too many connections")?)
        .connect(&url)
        .await?;
    // Open every connection before the clock starts: the benchmark times enqueueing, not
    // connecting.
    let mut held = Vec::with_capacity(connections);
    for _ in 0..connections {
        held.push(db.acquire().await?);
    }
    drop(held);
    Ok(db)
}

/// One transaction: `count` jobs pushed the way an API handler pushes them.
async fn transaction(db: &PgPool, count: usize) -> anyhow::Result<()> {
    let mut tx = db.begin().await?;
    for _ in 0..count {
        Enqueue::new(Canary {
            stamp_start: true,
            ..Canary::default()
        })
        .push(&mut tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

async fn enqueue(
    db: &PgPool,
    total: usize,
    per_tx: usize,
    connections: usize,
) -> anyhow::Result<Duration> {
    // Transactions are handed out from a shared counter, so every connection stays busy
    // until the last one.
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = JoinSet::new();
    for _ in 0..connections {
        let (db, next) = (db.clone(), next.clone());
        tasks.spawn(async move {
            loop {
                let first = next.fetch_add(per_tx, Ordering::Relaxed);
                if first >= total {
                    return anyhow::Ok(());
                }
                transaction(&db, per_tx.min(total - first)).await?;
            }
        });
    }
    while let Some(done) = tasks.join_next().await {
        done??;
    }
    Ok(started.elapsed())
}

async fn paced(db: &PgPool, total: usize, per_second: usize) -> anyhow::Result<Duration> {
    let period = Duration::from_secs(1) / u32::try_from(per_second).context("rate too high")?;
    let started = Instant::now();
    let start = tokio::time::Instant::now();
    let mut tasks = JoinSet::new();
    for n in 0..total {
        let due = start + period * u32::try_from(n).context("too many jobs")?;
        tokio::time::sleep_until(due).await;
        let db = db.clone();
        tasks.spawn(async move { transaction(&db, 1).await });
        // Surface a failure early instead of after the whole run.
        while let Some(done) = tasks.try_join_next() {
            done??;
        }
    }
    while let Some(done) = tasks.join_next().await {
        done??;
    }
    Ok(started.elapsed())
}
