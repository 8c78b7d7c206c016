//! Taking due jobs: a fetcher task per queue worker keeps its worker supplied.
//!
//! A worker holds its free slots' worth of jobs, plus, when its jobs are short, a few
//! taken ahead so the next ones are at hand when slots free up (a round trip per batch is
//! otherwise the limit of a busy queue of short jobs). How many ahead follows the recent
//! attempts' mean duration, so that a job taken ahead starts within about
//! [`AHEAD_HORIZON`]: a taken job is marked Running at once, and that stays true to the
//! millisecond, while a queue of long jobs takes none ahead (no job waits in one process'
//! hands while another process is idle).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use apalis::prelude::{Task, TaskBuilder, TaskId, WorkerContext};
use chrono::{DateTime, Utc};
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use serde_json::Value;
use sqlx::PgPool;
use tokio::sync::{Notify, Semaphore, mpsc, watch};
use tokio::time::Instant;

use super::Retry;
use super::liveness::Registry;

/// A job taken ahead of a free slot starts within about this long (see the module).
const AHEAD_HORIZON: Duration = Duration::from_millis(2);

/// A bound on the jobs taken ahead, per slot, however short the jobs are.
const AHEAD_PER_SLOT: f64 = 4.0;

/// Fetches one worker runs at once: a second one starts when the room it asks for has
/// freed up while the first is still on its round trip (whose commit waits for the WAL
/// flush), so a busy queue of short jobs is not held to one round trip at a time. The
/// room is taken when a fetch starts, so together they never hold more than the slots and
/// the jobs taken ahead.
const FETCHES_IN_FLIGHT: usize = 2;

/// Up to `$3` due jobs of queue `$2`, highest priority then oldest first, taken for worker
/// `$1` in one statement: Pending (or failed with attempts left) becomes Running. Nothing
/// while the queue is paused. The ids are picked through `idx_apalis_jobs_fetch_partial`
/// and the rows updated by primary key (`= ANY(ARRAY(...))`; a join let the planner
/// choose a full scan with a large backlog).
const FETCH: &str = "
UPDATE apalis.jobs j
SET status = 'Running', lock_by = $1, lock_at = now()
WHERE j.id = ANY (ARRAY(
    SELECT id FROM apalis.jobs
    WHERE job_type = $2
      AND (status = 'Pending' OR (status = 'Failed' AND attempts < max_attempts))
      AND run_at <= now()
      AND NOT EXISTS (SELECT 1 FROM public.job_queues q
                      WHERE q.name = $2 AND q.paused_at IS NOT NULL)
    ORDER BY priority DESC, run_at
    LIMIT $3
    FOR UPDATE SKIP LOCKED))
RETURNING j.id, j.job, j.attempts, j.max_attempts, j.lock_at";

/// A row the fetch took.
#[derive(sqlx::FromRow)]
struct Fetched {
    id: String,
    job: Vec<u8>,
    attempts: i32,
    max_attempts: i32,
    lock_at: DateTime<Utc>,
}

/// What the acknowledgement needs to know about the hold a task was fetched under; it
/// travels in the task's data.
#[derive(Debug, Clone)]
pub(crate) struct Hold {
    pub worker: Arc<str>,
    pub lock_at: DateTime<Utc>,
}

/// A worker's job slots: taken when jobs are fetched, given back when each one finishes.
#[derive(Debug)]
pub(crate) struct Slots {
    capacity: usize,
    taken: AtomicUsize,
    freed: Notify,
    /// The recent attempts' mean duration in microseconds, weighted to the last few
    /// dozen; `u64::MAX` until the first one ends.
    mean_micros: AtomicU64,
}

impl Slots {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            capacity,
            taken: AtomicUsize::new(0),
            freed: Notify::new(),
            mean_micros: AtomicU64::new(u64::MAX),
        }
    }

    /// Jobs worth fetching now: the free slots and those taken ahead, or 0 while a fetch
    /// would bring too few to be worth its round trip (half the jobs taken ahead).
    fn room(&self) -> usize {
        let taken = self.taken.load(Ordering::Acquire);
        let ahead = self.ahead();
        let room = (self.capacity + ahead).saturating_sub(taken);
        let worth = if taken == 0 { 1 } else { (ahead / 2).max(1) };
        if room >= worth { room } else { 0 }
    }

    /// Jobs to take beyond the free slots: as many as the slots get through within
    /// [`AHEAD_HORIZON`] at the recent mean duration, at most [`AHEAD_PER_SLOT`] per slot.
    fn ahead(&self) -> usize {
        let mean = self.mean_micros.load(Ordering::Relaxed).max(1);
        let horizon = u64::try_from(AHEAD_HORIZON.as_micros()).unwrap_or(u64::MAX);
        let per_slot = (horizon as f64 / mean as f64).min(AHEAD_PER_SLOT);
        (self.capacity as f64 * per_slot) as usize
    }

    fn take(&self, n: usize) {
        self.taken.fetch_add(n, Ordering::AcqRel);
    }

    /// Fetched jobs that went back to the queue unstarted, or were never found.
    pub(crate) fn give_back(&self, n: usize) {
        self.taken.fetch_sub(n, Ordering::AcqRel);
        self.freed.notify_one();
    }

    /// A fetched job's attempt ended after `took`.
    pub(crate) fn finished(&self, took: Duration) {
        let sample = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        let mean = self.mean_micros.load(Ordering::Relaxed);
        // Concurrent updates may lose a sample; the mean only steers how far ahead to take.
        let next = if mean == u64::MAX {
            sample
        } else {
            mean - mean / 16 + sample / 16
        };
        self.mean_micros.store(next, Ordering::Relaxed);
        self.give_back(1);
    }
}

/// Everything a worker's fetcher works with.
#[derive(Debug)]
pub(crate) struct Fetcher {
    /// The fetches' own pool ([`super::fetch_pool`]).
    pub db: PgPool,
    /// The services' pool, for the worker's registration.
    pub services_db: PgPool,
    /// The apalis worker fed: once it is shutting down, nothing more is fetched.
    pub apalis_worker: WorkerContext,
    pub queue: &'static str,
    pub worker: Arc<str>,
    pub slots: Arc<Slots>,
    pub wakeup: Arc<Notify>,
    pub registry: Registry,
    /// Shared by the process' fetchers ([`super::FETCHES_AT_ONCE`]).
    pub permits: Arc<Semaphore>,
    /// How often to look for jobs no notification announces (scheduled ones, retries).
    pub poll: Duration,
    pub tasks: mpsc::UnboundedSender<Task<Value>>,
    pub stopped: watch::Receiver<bool>,
}

impl Fetcher {
    /// Registers the worker, then fetches until `stopped` turns true. A fetch in flight
    /// always completes and hands its jobs over, so none is left held and unknown.
    pub(crate) async fn run(mut self) {
        let mut retry = Retry::new();
        while let Err(err) = self.register().await {
            tracing::warn!(queue = self.queue, error = %domain::infra::telemetry::Loggable(&err), "could not register the worker");
            if self.pause(retry.delay()).await {
                return;
            }
        }

        // Whether the last fetch may have left due jobs behind (it got all it asked for,
        // or failed): then fetch again as soon as a slot is free, without waiting for a
        // notification.
        let mut more = true;
        let mut next_poll = Instant::now();
        // After a failed fetch, none starts before this.
        let mut resume = Instant::now();
        let mut stopped = self.stopped.clone();
        let mut fetches = FuturesUnordered::new();
        retry.reset();
        loop {
            if self.is_stopped() {
                break;
            }
            let room = self.slots.room();
            let now = Instant::now();
            if room > 0 && more && fetches.len() < FETCHES_IN_FLIGHT && now >= resume {
                // The room is taken now, so a second fetch asks only for what is left.
                self.slots.take(room);
                next_poll = now + self.poll;
                fetches.push(self.fetch(room));
                continue;
            }
            tokio::select! {
                Some(done) = fetches.next(), if !fetches.is_empty() => match done {
                    Ok(None) => break,
                    Ok(Some((asked, fetched))) => {
                        more = fetched == asked;
                        retry.reset();
                    }
                    Err(err) => {
                        tracing::warn!(queue = self.queue, error = %domain::infra::telemetry::Loggable(&err), "could not fetch jobs");
                        more = true;
                        resume = Instant::now() + retry.delay();
                    }
                },
                () = self.slots.freed.notified(), if room == 0 => {}
                () = self.wakeup.notified(), if !more => more = true,
                () = tokio::time::sleep_until(next_poll), if !more => more = true,
                () = tokio::time::sleep_until(resume), if now < resume => {}
                _ = stopped.changed() => {}
            }
        }
        // Every fetch in flight completes and hands its jobs over.
        while fetches.next().await.is_some() {}
    }

    async fn register(&self) -> sqlx::Result<()> {
        let _permit = self.permits.acquire().await;
        self.registry
            .register(&self.services_db, &self.worker, self.queue)
            .await
    }

    /// Takes up to `limit` due jobs, whose slots the caller has taken, and hands them to
    /// the worker, giving back the slots of those not found; answers how many it asked for
    /// and got, or `None` once the worker is shutting down (it runs what it holds and takes
    /// nothing more, so no job waits here while other processes are idle).
    async fn fetch(&self, limit: usize) -> sqlx::Result<Option<(usize, usize)>> {
        let _permit = self.permits.acquire().await;
        if self.is_stopped() || self.apalis_worker.is_shutting_down() {
            self.slots.give_back(limit);
            return Ok(None);
        }
        let rows: sqlx::Result<Vec<Fetched>> = sqlx::query_as(FETCH)
            .bind(&*self.worker)
            .bind(self.queue)
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .fetch_all(&self.db)
            .await;
        let rows = match rows {
            Ok(rows) => rows,
            Err(err) => {
                self.slots.give_back(limit);
                return Err(err);
            }
        };
        self.slots.give_back(limit - rows.len());
        let fetched = (limit, rows.len());
        for row in rows {
            let hold = Hold {
                worker: self.worker.clone(),
                lock_at: row.lock_at,
            };
            // The database refuses payloads that are not JSON; should one get through, the
            // handler reads Null and fails that job alone.
            let payload = serde_json::from_slice(&row.job).unwrap_or(Value::Null);
            let task = TaskBuilder::new(payload)
                .task_id(TaskId::from_string(row.id))
                .attempt(usize::try_from(row.attempts).unwrap_or_default())
                .max_attempts(usize::try_from(row.max_attempts).unwrap_or_default())
                .data(hold)
                .build();
            // The receiver lives as long as the worker, which closes only after this task
            // stopped; were it gone, the job stays held and the rescue puts it back.
            let _ = self.tasks.send(task);
        }
        Ok(Some(fetched))
    }

    /// Sleeps unless stopped first; true when stopped.
    async fn pause(&mut self, delay: Duration) -> bool {
        tokio::select! {
            () = tokio::time::sleep(delay) => {}
            _ = self.stopped.changed() => {}
        }
        self.is_stopped()
    }

    /// Told to stop, or the worker that would say so is gone.
    fn is_stopped(&self) -> bool {
        *self.stopped.borrow() || self.stopped.has_changed().is_err()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_take_short_jobs_ahead_and_long_ones_never() {
        let slots = Slots::new(16);
        // Nothing known yet: the free slots only.
        assert_eq!(slots.room(), 16);
        slots.take(16);
        for _ in 0..16 {
            slots.finished(Duration::from_micros(100));
        }
        // 100 µs jobs: a slot gets through 20 within the horizon; 4 ahead per slot at most.
        assert_eq!(slots.ahead(), 64);
        assert_eq!(slots.room(), 80);
        // With 78 in hand, 2 would come: not worth a round trip (half the ahead, 32, is).
        slots.take(78);
        assert_eq!(slots.room(), 0);
        slots.give_back(30);
        assert_eq!(slots.room(), 32);

        let slow = Slots::new(4);
        slow.take(4);
        slow.finished(Duration::from_secs(30));
        assert_eq!(slow.ahead(), 0);
        // A long job's queue fetches for every free slot.
        assert_eq!(slow.room(), 1);
    }
}
