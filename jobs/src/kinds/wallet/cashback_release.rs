//! `cashback.release` releases one station's due pending lots in bounded batches, each
//! batch its own transaction; `cashback.dispatch` (cron, every minute) enqueues a release
//! for each station whose own schedule (`cashback_schedules`, in the station's time zone) has ticked.
//!
//! A release that crashed, timed out or was re-run releases nothing twice: a batch takes
//! only lots still pending and records itself (`cashback_release_batches`) in the same
//! transaction, so the job's summary is what its committed batches released. After the
//! release, the same job ends the station's available lots past their expiry
//! (`ledger::expire_due`), in bounded batches too.

use std::future::Future;
use std::time::Duration;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgPool;

use domain::shared::time::zone_named;
use domain::wallet::ledger::{self, Expired};
use domain::wallet::release::{self as wallet_release, ReleasedBatch, StationSchedule, Tick};

use crate::enqueue::Enqueue;
use crate::job::{Backoff, Job, JobContext, JobError};

/// Lots per batch (one transaction). Measured (docs/decisions.md, "Scheduled cashback
/// release"): batches of 2 000 release about 20% slower than 5 000; 10 000 and 20 000 gain
/// under 10% while holding each batch's wallets locked two and four times as long (about
/// half a second per 5 000 here).
pub const BATCH_SIZE: i64 = 5_000;

/// A batch that lost a deadlock (a ledger change holding a wallet it needs) is tried again
/// this many times before the attempt fails.
const BATCH_TRIES: u32 = 3;

/// Releases the pending lots of one station whose holding period has ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashbackRelease {
    pub station_id: i64,
    /// The schedule tick this release serves; `None` for a release staff asked for.
    #[serde(default)]
    pub tick: Option<DateTime<Utc>>,
    /// The staff member who asked for it, if any.
    #[serde(default)]
    pub requested_by: Option<i64>,
}

impl Job for CashbackRelease {
    const QUEUE: &'static str = "cashback.release";
    const MAX_ATTEMPTS: i32 = 5;
    /// Batches of one station run one at a time anyway (advisory lock); two at once lets
    /// another station's release go on beside a long one.
    const CONCURRENCY: usize = 2;
    /// A million lots take under two minutes here (ops/bench/cashback); a retry resumes.
    const TIMEOUT: Duration = Duration::from_secs(30 * 60);
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(30),
        max: Duration::from_secs(30 * 60),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        // Fixed at the start of the attempt: lots that fall due while it runs wait for the
        // next release (or this job's next attempt), so a release always ends.
        let cutoff = Utc::now();
        let station_id = self.station_id;
        let mut shown = None;
        release_station(ctx.db(), station_id, cutoff, &ctx.id, BATCH_SIZE, |p| {
            // One write per percent, not per batch.
            let percent = p.percent();
            let changed = shown.replace(percent) != Some(percent);
            let ctx = ctx.clone();
            async move {
                if changed {
                    ctx.progress(percent).await?;
                }
                Ok(())
            }
        })
        .await
        .map_err(|err| JobError::retry("Falha ao liberar o cashback; será retomada.", err))?;
        // Done, even if another release of the station took some of the counted lots.
        if shown != Some(100) {
            ctx.progress(100)
                .await
                .map_err(|err| JobError::retry("Falha ao registrar o progresso.", err))?;
        }
        let expired = expire_station(ctx.db(), station_id, cutoff, BATCH_SIZE)
            .await
            .map_err(|err| JobError::retry("Falha ao expirar os créditos vencidos.", err))?;
        let summary = wallet_release::job_summary(ctx.db(), &ctx.id)
            .await
            .map_err(|err| JobError::retry("Falha ao resumir a liberação.", err))?;
        // The release counts are exact over every attempt (its batch rows); the expiry
        // counts are this attempt's only: an earlier attempt's expiries are not recorded,
        // and a lot ends once whichever attempt (or spend) ends it.
        Ok(json!({
            "station_id": station_id,
            "lots": summary.lots,
            "amount_cents": summary.amount,
            "batches": summary.batches,
            "expired_lots": expired.lots,
            "expired_cents": expired.amount,
        }))
    }
}

/// How far one run of [`release_station`] has come.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// Due lots counted when the run started.
    pub due: i64,
    /// Released by this run so far.
    pub lots: i64,
    pub amount: i64,
    pub batches: i64,
}

impl Progress {
    /// 0 to 100. Another release of the station may take some of the counted lots, so
    /// this run may end below 100.
    pub fn percent(&self) -> u8 {
        if self.due <= 0 {
            return 100;
        }
        u8::try_from((self.lots.saturating_mul(100) / self.due).clamp(0, 100)).unwrap_or(100)
    }
}

/// The release loop of a job: counts the station's lots due at `cutoff`, then commits
/// batches of up to `batch_size` until one releases nothing, calling `on_batch` after each
/// committed batch (and once at the start, with nothing released). Returns what this run
/// released. Exposed for the benchmark, which times exactly this.
pub async fn release_station<F, Fut>(
    db: &PgPool,
    station_id: i64,
    cutoff: DateTime<Utc>,
    job_id: &str,
    batch_size: i64,
    mut on_batch: F,
) -> sqlx::Result<Progress>
where
    F: FnMut(Progress) -> Fut,
    Fut: Future<Output = sqlx::Result<()>>,
{
    let due = wallet_release::count_due(db, station_id, cutoff).await?;
    let mut progress = Progress {
        due: due.lots,
        ..Progress::default()
    };
    on_batch(progress).await?;
    loop {
        let batch = one_batch(db, station_id, cutoff, batch_size, job_id).await?;
        if batch.lots == 0 {
            return Ok(progress);
        }
        progress.lots += batch.lots;
        progress.amount += batch.amount;
        progress.batches += 1;
        on_batch(progress).await?;
    }
}

async fn one_batch(
    db: &PgPool,
    station_id: i64,
    cutoff: DateTime<Utc>,
    batch_size: i64,
    job_id: &str,
) -> sqlx::Result<ReleasedBatch> {
    let mut tries = 0;
    loop {
        tries += 1;
        let mut tx = db.begin().await?;
        let outcome =
            wallet_release::release_batch(&mut tx, station_id, cutoff, batch_size, job_id).await;
        match outcome {
            Ok(batch) => {
                tx.commit().await?;
                return Ok(batch);
            }
            Err(err) if tries < BATCH_TRIES && is_deadlock(&err) => {
                tracing::warn!(station_id, job = %job_id, error = %domain::infra::telemetry::Loggable(&err), "release batch lost a deadlock; trying again");
            }
            Err(err) => return Err(err),
        }
    }
}

/// Ends the station's available lots past their expiry at `now`, `batch_size` at a time,
/// each batch its own transaction, until one ends nothing (what is left belongs to wallets
/// busy with a spend, which ends its own expired lots). Answers what this call ended.
pub async fn expire_station(
    db: &PgPool,
    station_id: i64,
    now: DateTime<Utc>,
    batch_size: i64,
) -> sqlx::Result<Expired> {
    let mut total = Expired::default();
    loop {
        let mut tx = db.begin().await?;
        let batch = ledger::expire_due(&mut tx, station_id, now, batch_size).await?;
        tx.commit().await?;
        if batch.lots == 0 {
            return Ok(total);
        }
        total.lots += batch.lots;
        total.amount += batch.amount;
    }
}

fn is_deadlock(err: &sqlx::Error) -> bool {
    err.as_database_error()
        .and_then(|db| db.code())
        .is_some_and(|code| code == "40P01" || code == "40001")
}

/// Finds the stations whose release schedule has ticked and enqueues their releases.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashbackDispatch {
    pub tick: DateTime<Utc>,
}

impl Job for CashbackDispatch {
    const QUEUE: &'static str = "cashback.dispatch";
    /// The next minute's dispatch does the same work; a few quick tries are enough.
    const MAX_ATTEMPTS: i32 = 3;
    const CONCURRENCY: usize = 1;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(5),
        max: Duration::from_secs(30),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        // Now, not the cron tick: a dispatch that ran late still sees the latest ticks.
        let now = Utc::now().max(self.tick);
        let dispatched = dispatch(ctx.db(), now)
            .await
            .map_err(|err| JobError::retry("Falha ao agendar as liberações de cashback.", err))?;
        Ok(dispatched.to_json())
    }
}

/// What one dispatch did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dispatched {
    /// Stations whose schedule was read.
    pub stations: usize,
    /// Releases enqueued (or found already enqueued for that tick).
    pub releases: Vec<DispatchedRelease>,
    /// Stations whose tick was new but had nothing to release or expire: the tick is
    /// recorded, no job.
    pub idle: Vec<i64>,
    pub disabled: Vec<i64>,
    /// Stations skipped because their stored expression does not parse.
    pub invalid: Vec<InvalidStation>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DispatchedRelease {
    pub station_id: i64,
    pub tick: DateTime<Utc>,
    pub job_id: String,
    pub created: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidStation {
    pub station_id: i64,
    pub expression: String,
    pub error: String,
}

impl Dispatched {
    pub fn to_json(&self) -> Value {
        json!({
            "stations": self.stations,
            "releases": self.releases.iter().map(|r| json!({
                "station_id": r.station_id,
                "tick": r.tick.to_rfc3339_opts(SecondsFormat::Secs, true),
                "job_id": r.job_id,
                "created": r.created,
            })).collect::<Vec<_>>(),
            "idle": self.idle,
            "disabled": self.disabled,
            "invalid": self.invalid.iter().map(|i| json!({
                "station_id": i.station_id,
                "expression": i.expression,
                "error": i.error,
            })).collect::<Vec<_>>(),
        })
    }
}

/// The idempotency key of a station's scheduled release: one job per station and tick,
/// however many dispatches see that tick.
pub fn release_key(station_id: i64, tick: DateTime<Utc>) -> String {
    format!(
        "cashback-release:{station_id}:{}",
        tick.to_rfc3339_opts(SecondsFormat::Secs, true)
    )
}

/// For every station: if its schedule's latest tick at `now` is newer than the last one
/// handed to the queue, records it and, when the station has due pending lots or lots
/// past their expiry, enqueues its release, in one transaction per station.
pub async fn dispatch(db: &PgPool, now: DateTime<Utc>) -> sqlx::Result<Dispatched> {
    let stations = wallet_release::station_schedules(db).await?;
    let mut dispatched = Dispatched {
        stations: stations.len(),
        ..Dispatched::default()
    };
    for StationSchedule {
        station_id,
        expression,
        enabled,
        time_zone,
        last_tick,
    } in stations
    {
        if !enabled {
            dispatched.disabled.push(station_id);
            continue;
        }
        let schedule = match wallet_release::parse_schedule(&expression, zone_named(&time_zone)) {
            Ok(schedule) => schedule,
            Err(err) => {
                tracing::warn!(station_id, %expression, error = %err, "cashback schedule skipped");
                dispatched.invalid.push(InvalidStation {
                    station_id,
                    expression,
                    error: err.to_string(),
                });
                continue;
            }
        };
        let Some(tick) = schedule.latest_tick(now) else {
            continue;
        };
        if last_tick.is_some_and(|last| last >= tick) {
            continue;
        }
        match dispatch_station(db, station_id, tick, now).await? {
            Ticked::Released(release) => dispatched.releases.push(release),
            Ticked::Idle => dispatched.idle.push(station_id),
            Ticked::AlreadyRecorded => {}
        }
    }
    Ok(dispatched)
}

enum Ticked {
    Released(DispatchedRelease),
    Idle,
    /// An overlapping dispatch recorded this tick first.
    AlreadyRecorded,
}

async fn dispatch_station(
    db: &PgPool,
    station_id: i64,
    tick: DateTime<Utc>,
    now: DateTime<Utc>,
) -> sqlx::Result<Ticked> {
    let mut tx = db.begin().await?;
    match wallet_release::record_tick(&mut tx, station_id, tick, now).await? {
        Tick::AlreadyRecorded => {
            tx.commit().await?;
            return Ok(Ticked::AlreadyRecorded);
        }
        Tick::Idle => {
            tx.commit().await?;
            return Ok(Ticked::Idle);
        }
        Tick::Due => {}
    }
    // The idempotency key also catches a dispatch that raced past the tick's row lock.
    let enqueued = Enqueue::new(CashbackRelease {
        station_id,
        tick: Some(tick),
        requested_by: None,
    })
    .idempotency_key(release_key(station_id, tick))
    .owner(station_id, None)
    .about("station", station_id)
    .push(&mut tx)
    .await?;
    tx.commit().await?;
    Ok(Ticked::Released(DispatchedRelease {
        station_id,
        tick,
        job_id: enqueued.id,
        created: enqueued.created,
    }))
}
