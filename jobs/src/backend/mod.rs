//! Our apalis backend on `apalis.jobs`: apalis runs the workers (concurrency, lifecycle,
//! shutdown), this module feeds them and writes their results.
//!
//! apalis-postgres drove everything from one state machine per worker: fetch, the Running
//! mark of each job, result writes and heartbeats, one at a time, with three UPDATEs and
//! about twelve round trips per job. Here each job costs two UPDATEs, both shared with
//! other jobs: the fetch takes a batch straight to Running ([`fetch`]), and the process'
//! one results writer writes whatever has finished in one statement ([`ack`]). Heartbeats
//! touch only worker rows ([`liveness`]); a committed job wakes its queue's fetcher at once
//! and the wake-up is never lost ([`wakeup`]). The rows, statuses and columns are apalis'
//! own, so the support console, job state and retention read them as before.

pub(crate) mod ack;
mod fetch;
pub(crate) mod liveness;
pub(crate) mod wakeup;

use std::convert::Infallible;
use std::fmt;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use apalis::prelude::{Backend, BoxDynError, Layer, Service, Task, WorkerContext};
use apalis_core::backend::BackendConfig;
use apalis_core::backend::finalize::Ephemeral;
use futures_util::future::BoxFuture;
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::PgPool;
use tokio::sync::{Semaphore, mpsc, watch};

use self::ack::{Acks, Completion};
pub(crate) use self::fetch::Hold;
use self::fetch::{Fetcher, Slots};
use self::liveness::Registry;
use self::wakeup::Wakeups;

/// Fetches a process runs at once, every queue together. Most queues are idle and poll
/// every second; without a bound each would keep a connection of its own open.
pub const FETCHES_AT_ONCE: usize = 4;

/// The pool of the fetches: one connection per fetch at once, on `db`'s server, apart from
/// the connections running jobs. Its commits wait for the WAL flush like every other
/// (issue 26): a fetch that a database crash could lose would let another worker run its
/// jobs a second time. An operator who prefers the flush off every batch to that guarantee
/// can start the workers with `PGOPTIONS='-c synchronous_commit=off'` (every connection
/// of the process, results too); `mail.send` stays at most once either way (its durable
/// mark, [`crate::job::JobContext::begin_effect`]).
pub(crate) fn fetch_pool(db: &PgPool) -> PgPool {
    sqlx::postgres::PgPoolOptions::new()
        .max_connections(u32::try_from(FETCHES_AT_ONCE).unwrap_or(u32::MAX))
        .acquire_timeout(Duration::from_secs(30))
        .connect_lazy_with(db.connect_options().as_ref().clone())
}

/// What every queue worker of a process shares: the pools, the results writer, the
/// heartbeat's list of workers, the wake-ups and the fetches' permits.
#[derive(Debug, Clone)]
pub(crate) struct Platform {
    /// The services' pool: results, heartbeats, registrations, releases.
    pub db: PgPool,
    /// [`fetch_pool`].
    pub fetch_db: PgPool,
    pub acks: Acks,
    pub registry: Registry,
    pub wakeups: Wakeups,
    pub fetches: Arc<Semaphore>,
    /// How often a worker looks for due jobs that no notification announced.
    pub poll: Duration,
}

impl Platform {
    /// Starts the process' background work for its queue workers: the results writer, the
    /// LISTEN connection and the heartbeat. [`Running::stop`] ends it.
    pub(crate) fn start(db: PgPool, poll: Duration) -> (Self, Running) {
        let fetch_db = fetch_pool(&db);
        let (acks, results_writer) = ack::channel(db.clone());
        let platform = Self {
            db: db.clone(),
            fetch_db: fetch_db.clone(),
            acks: acks.clone(),
            registry: Registry::default(),
            wakeups: Wakeups::default(),
            fetches: Arc::new(Semaphore::new(FETCHES_AT_ONCE)),
            poll,
        };
        let (stop, stopped) = watch::channel(false);
        let running = Running {
            results_writer: tokio::spawn(results_writer.run()),
            listener: tokio::spawn(wakeup::listen(db.clone(), platform.wakeups.clone())),
            heartbeat: tokio::spawn(liveness::beat_forever(
                db.clone(),
                platform.registry.clone(),
                stopped,
            )),
            stop,
            db,
            fetch_db,
            acks,
        };
        (platform, running)
    }
}

/// The platform's background work in a process, from [`Platform::start`].
#[derive(Debug)]
pub(crate) struct Running {
    results_writer: tokio::task::JoinHandle<()>,
    listener: tokio::task::JoinHandle<()>,
    heartbeat: tokio::task::JoinHandle<()>,
    stop: watch::Sender<bool>,
    db: PgPool,
    fetch_db: PgPool,
    acks: Acks,
}

impl Running {
    /// Once the workers have closed: the last results are written and whatever this
    /// process (`instance`) still holds, a job that outlived the grace period, goes back
    /// to its queue now.
    pub(crate) async fn stop(self, instance: &str) {
        let _ = self.stop.send(true);
        let _ = self.heartbeat.await;
        self.listener.abort();
        // Every worker wrote its own results when it closed; one cut off by the grace
        // period may have sent some since.
        if tokio::time::timeout(FLUSH_LIMIT, self.acks.flush())
            .await
            .is_err()
        {
            tracing::warn!("results not written at shutdown; their jobs go back to the queue");
        }
        self.results_writer.abort();
        match liveness::retire(&self.db, instance).await {
            Ok(0) => {}
            Ok(jobs) => tracing::warn!(jobs, "unfinished jobs put back in the queue"),
            Err(err) => {
                tracing::error!(error = %domain::infra::telemetry::Loggable(&err), "could not release this process' jobs");
            }
        }
        self.fetch_db.close().await;
    }
}

/// The waits between tries of something that failed with the database (a fetch, a
/// registration, a results write, a heartbeat, the LISTEN connection, a cron tick, the
/// fleet's start): 100 ms, doubling up to 5 s. Every wait of the platform's background
/// work is this one, however long the database stays away: only a signal ends a process.
#[derive(Debug)]
pub(crate) struct Retry {
    next: Duration,
}

impl Retry {
    const FIRST: Duration = Duration::from_millis(100);
    const LAST: Duration = Duration::from_secs(5);

    pub(crate) fn new() -> Self {
        Self { next: Self::FIRST }
    }

    /// How long to wait before the next try.
    pub(crate) fn delay(&mut self) -> Duration {
        let delay = self.next;
        self.next = (delay * 2).min(Self::LAST);
        delay
    }

    /// After a success: the next failure waits the shortest again.
    pub(crate) fn reset(&mut self) {
        self.next = Self::FIRST;
    }
}

/// Whether `err` says the database is away (stopped, restarting, unreachable, out of
/// connections) rather than refusing the statement: waiting cures the one, never the
/// other. A server shutting down ends its sessions with 57P01 (or 57P02 when it crashes
/// from within) and refuses new ones with 57P03 while it starts again, so those come as
/// database errors too.
pub(crate) fn database_away(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|code| {
            code.starts_with("08")
                || code.starts_with("53")
                || matches!(&*code, "57P01" | "57P02" | "57P03")
        }),
        _ => false,
    }
}

/// Runs `attempt` until it succeeds, fails for another reason than the database being
/// away, or `patience` has passed, waiting [`Retry`]'s delays in between: for a job's own
/// bookkeeping that should ride out a short outage instead of failing its attempt.
pub(crate) async fn while_away<T, F>(
    patience: Duration,
    mut attempt: impl FnMut() -> F,
) -> sqlx::Result<T>
where
    F: std::future::Future<Output = sqlx::Result<T>>,
{
    let deadline = tokio::time::Instant::now() + patience;
    let mut retry = Retry::new();
    loop {
        match attempt().await {
            Err(err) if database_away(&err) => {
                let delay = retry.delay();
                if tokio::time::Instant::now() + delay > deadline {
                    return Err(err);
                }
                tokio::time::sleep(delay).await;
            }
            done => return done,
        }
    }
}

/// How long a closing worker, and then the closing process, wait for results to be written.
const FLUSH_LIMIT: Duration = Duration::from_secs(10);

/// One queue's jobs for one apalis worker, which may run `capacity` of them at once.
pub(crate) struct QueueBackend {
    platform: Platform,
    queue: &'static str,
    slots: Arc<Slots>,
    state: State,
}

enum State {
    /// Not polled yet: the worker's name, which the jobs are held under, comes with the
    /// first poll.
    New,
    Fetching(Fetching),
    Closing(BoxFuture<'static, ()>),
    Closed,
}

struct Fetching {
    worker: Arc<str>,
    registry: Registry,
    tasks: mpsc::UnboundedReceiver<Task<Value>>,
    stop: watch::Sender<bool>,
    fetcher: tokio::task::JoinHandle<()>,
}

/// However the worker ends (closed, restarted after a failure, cut off by the shutdown's
/// grace), its fetcher stops (the stop sender goes with it) and its heartbeat ends, so
/// whatever it still holds is rescued by the others.
impl Drop for Fetching {
    fn drop(&mut self) {
        self.registry.forget(&self.worker);
    }
}

impl fmt::Debug for QueueBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QueueBackend")
            .field("queue", &self.queue)
            .finish_non_exhaustive()
    }
}

impl QueueBackend {
    pub(crate) fn new(platform: Platform, queue: &'static str, capacity: usize) -> Self {
        Self {
            platform,
            queue,
            slots: Arc::new(Slots::new(capacity)),
            state: State::New,
        }
    }

    fn start(&mut self, apalis_worker: &WorkerContext) {
        let (sender, tasks) = mpsc::unbounded_channel();
        let (stop, stopped) = watch::channel(false);
        let worker: Arc<str> = Arc::from(apalis_worker.name());
        let fetcher = Fetcher {
            db: self.platform.fetch_db.clone(),
            services_db: self.platform.db.clone(),
            apalis_worker: apalis_worker.clone(),
            queue: self.queue,
            worker: worker.clone(),
            slots: self.slots.clone(),
            wakeup: self.platform.wakeups.subscribe(self.queue),
            registry: self.platform.registry.clone(),
            permits: self.platform.fetches.clone(),
            poll: self.platform.poll,
            tasks: sender,
            stopped,
        };
        self.state = State::Fetching(Fetching {
            worker,
            registry: self.platform.registry.clone(),
            tasks,
            stop,
            fetcher: tokio::spawn(fetcher.run()),
        });
    }
}

impl Backend for QueueBackend {
    type Task = Task<Value>;
    /// Nothing the database does ends a worker: each step waits and tries again, or leaves
    /// its jobs to the rescue.
    type Error = Infallible;

    fn poll_ready(
        &mut self,
        _: &mut Context<'_>,
        worker: &WorkerContext,
    ) -> Poll<Result<(), Self::Error>> {
        if matches!(self.state, State::New) {
            self.start(worker);
        }
        Poll::Ready(Ok(()))
    }

    fn poll_next(
        &mut self,
        cx: &mut Context<'_>,
        worker: &WorkerContext,
    ) -> Poll<Option<Result<Self::Task, Self::Error>>> {
        if matches!(self.state, State::New) {
            self.start(worker);
        }
        match &mut self.state {
            State::Fetching(fetching) => fetching.tasks.poll_recv(cx).map(|task| task.map(Ok)),
            State::New | State::Closing(_) | State::Closed => Poll::Ready(None),
        }
    }

    /// Called once the worker's running jobs have ended: stop fetching, put back what was
    /// fetched and not started, and wait until every result is written.
    fn poll_close(
        &mut self,
        cx: &mut Context<'_>,
        _: &WorkerContext,
    ) -> Poll<Result<(), Self::Error>> {
        loop {
            match &mut self.state {
                State::New | State::Closed => return Poll::Ready(Ok(())),
                State::Fetching(_) => {
                    let State::Fetching(fetching) =
                        std::mem::replace(&mut self.state, State::Closed)
                    else {
                        unreachable!("matched above");
                    };
                    let close = close(self.platform.clone(), self.slots.clone(), fetching);
                    self.state = State::Closing(Box::pin(close));
                }
                State::Closing(closing) => {
                    std::task::ready!(closing.as_mut().poll(cx));
                    self.state = State::Closed;
                    return Poll::Ready(Ok(()));
                }
            }
        }
    }
}

async fn close(platform: Platform, slots: Arc<Slots>, mut fetching: Fetching) {
    let _ = fetching.stop.send(true);
    // Its fetch in flight, if any, completes and hands its jobs over first.
    let _ = (&mut fetching.fetcher).await;
    fetching.tasks.close();
    let mut unstarted = Vec::new();
    while let Ok(task) = fetching.tasks.try_recv() {
        if let Some(id) = task.ctx().task_id() {
            unstarted.push(id.to_string());
        }
    }
    match liveness::release_unstarted(&platform.db, &fetching.worker, &unstarted).await {
        Ok(0) => {}
        Ok(released) => {
            tracing::info!(worker = %fetching.worker, jobs = released, "fetched jobs not started put back");
        }
        // The worker stops beating now: the rescue puts them back, their attempt counted.
        Err(err) => {
            tracing::warn!(worker = %fetching.worker, error = %domain::infra::telemetry::Loggable(&err), "fetched jobs not started left to the rescue");
        }
    }
    slots.give_back(unstarted.len());
    // Not forever: with the database away the results wait, and the jobs are rescued.
    if tokio::time::timeout(FLUSH_LIMIT, platform.acks.flush())
        .await
        .is_err()
    {
        tracing::warn!(worker = %fetching.worker, "results not written before closing; the jobs will be rescued");
    }
}

impl BackendConfig for QueueBackend {
    type Args = Value;
    type Id = String;
    /// Payloads are decoded from the row as JSON by the fetch, so apalis' decoding step
    /// (the `Durable` kind) has nothing left to do.
    type Kind = Ephemeral;
    type Config = ();
    type Layer = Settle;

    fn config(&self) -> &Self::Config {
        &()
    }

    fn middleware(&mut self, _: &mut WorkerContext) -> Self::Layer {
        Settle {
            acks: self.platform.acks.clone(),
            slots: self.slots.clone(),
        }
    }
}

/// The middleware that ends each attempt: its result goes to the results writer and its
/// slot back to the fetcher.
#[derive(Debug, Clone)]
pub struct Settle {
    acks: Acks,
    slots: Arc<Slots>,
}

impl<S> Layer<S> for Settle {
    type Service = SettleService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        SettleService {
            inner,
            acks: self.acks.clone(),
            slots: self.slots.clone(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct SettleService<S> {
    inner: S,
    acks: Acks,
    slots: Arc<Slots>,
}

/// Gives the slot back when the attempt ends, however it ends, with how long it took.
struct SlotGuard {
    slots: Arc<Slots>,
    started: std::time::Instant,
}

impl Drop for SlotGuard {
    fn drop(&mut self) {
        self.slots.finished(self.started.elapsed());
    }
}

impl<S> Service<Task<Value>> for SettleService<S>
where
    S: Service<Task<Value>>,
    S::Future: Send + 'static,
    S::Error: Into<BoxDynError>,
    S::Response: Serialize + Send + 'static,
{
    type Response = S::Response;
    type Error = BoxDynError;
    type Future = BoxFuture<'static, Result<S::Response, BoxDynError>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, task: Task<Value>) -> Self::Future {
        let ctx = task.ctx().clone();
        let hold = task.ctx().data().get::<Hold>().cloned();
        let slot = SlotGuard {
            slots: self.slots.clone(),
            started: std::time::Instant::now(),
        };
        let acks = self.acks.clone();
        let attempt = self.inner.call(task);
        Box::pin(async move {
            let _slot = slot;
            let outcome = attempt.await.map_err(Into::into);
            // apalis' lifecycle layer, inside this one, has set the status and counted the
            // attempt by now.
            if let (Some(hold), Some(id)) = (hold, ctx.task_id()) {
                let result = match &outcome {
                    Ok(value) => json!({ "Ok": value }),
                    Err(err) => json!({ "Err": err.to_string() }),
                };
                acks.send(Completion {
                    id: id.to_string(),
                    worker: hold.worker,
                    lock_at: hold.lock_at,
                    status: ctx.status().to_string(),
                    attempts: i32::try_from(ctx.attempt()).unwrap_or(i32::MAX),
                    result,
                });
            }
            outcome
        })
    }
}
