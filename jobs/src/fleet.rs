//! The worker fleet of one process: an apalis worker per queue, the cron ticker, and a
//! shutdown that lets running jobs finish. Any number of processes can run this side by
//! side; they share the queues in PostgreSQL.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use apalis::prelude::{
    AbortError, Attempt, BoxDynError, Data, Monitor, TaskId, WorkerBuilder, WorkerBuilderExt,
    WorkerContext,
};
use serde_json::Value;
use sqlx::PgPool;

use crate::backend::{self, Hold, Platform, QueueBackend, Retry};
use crate::cron::{self, Schedule};
use crate::job::{Envelope, Job, JobContext, JobError, Outcome, Services};
use crate::kinds;

/// On SIGTERM running jobs get this long to finish; the rest are rescued by other workers.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

/// A queue as the database's backoff trigger knows it.
#[derive(Debug, Clone)]
struct QueueSpec {
    name: &'static str,
    backoff: crate::job::Backoff,
}

/// Connections beyond one per running job, so the platform's own work never waits behind
/// busy jobs: the LISTEN connection, the cron ticker, the results writer, the heartbeat,
/// and registrations (one per fetch permit). Fetches have a pool of their own
/// (`backend::fetch_pool`).
const POOL_MARGIN: u32 = 4 + backend::FETCHES_AT_ONCE as u32;

/// The pool a worker process needs: one connection per job it runs at once, every kind's
/// `CONCURRENCY` together, plus [`POOL_MARGIN`]. The one sizing rule, for the `workers`
/// process and tests.
pub fn pool_size() -> u32 {
    u32::try_from(kinds::CONCURRENCY)
        .unwrap_or(u32::MAX)
        .saturating_add(POOL_MARGIN)
}

/// A pool on `db`'s connect options sized by [`pool_size`], opened lazily: a test runs a
/// fleet beside the small pool `#[testkit::db_test]` hands out.
pub fn pool_beside(db: &PgPool) -> PgPool {
    sqlx::postgres::PgPoolOptions::new()
        .max_connections(pool_size())
        .connect_lazy_with(db.connect_options().as_ref().clone())
}

/// Runs every job kind until `shutdown` resolves, then drains.
pub async fn run(
    services: Arc<Services>,
    schedules: Vec<Schedule>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let instance = format!(
        "{}:{}",
        domain::infra::process::hostname(),
        std::process::id()
    );
    let db = services.db.clone();
    // The signal may come while the fleet still waits for the database.
    let (signal, mut signalled) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown.await;
        let _ = signal.send(true);
    });
    let poll = Duration::from_secs(services.config.job_poll_seconds);
    let (platform, platform_running) = Platform::start(db.clone(), poll);
    let fleet = kinds::register_all(Fleet::new(services.clone(), instance.clone(), platform));
    let backoff_scale = services.config.job_backoff_scale;
    let mut retry = Retry::new();
    while let Err(err) = declare_queues(&db, &fleet.queues, backoff_scale).await {
        tracing::warn!(error = %domain::infra::telemetry::Loggable(&err), "could not declare the queues; waiting for the database");
        tokio::select! {
            () = tokio::time::sleep(retry.delay()) => {}
            () = until_signalled(&mut signalled) => {
                platform_running.stop(&instance).await;
                return Ok(());
            }
        }
    }
    let (stop_cron, cron_stopped) = tokio::sync::watch::channel(false);
    let ticker = tokio::spawn(cron::tick_forever(db.clone(), schedules, cron_stopped));

    tracing::info!(%instance, queues = fleet.queues.len(), "worker fleet running");
    let result = fleet
        .monitor
        .should_restart(|worker, error| {
            tracing::warn!(worker = %worker.name(), %error, "worker stopped; restarting");
            true
        })
        .shutdown_timeout(SHUTDOWN_GRACE)
        .run_with_signal(async move {
            until_signalled(&mut signalled).await;
            tracing::info!("shutting down: finishing running jobs");
            Ok(())
        })
        .await;

    let _ = stop_cron.send(true);
    let _ = ticker.await;
    platform_running.stop(&instance).await;
    result.map_err(Into::into)
}

/// Resolves once the shutdown signal has come.
async fn until_signalled(signalled: &mut tokio::sync::watch::Receiver<bool>) {
    // Only an error when the sender is gone, which it never is before it has signalled.
    let _ = signalled.wait_for(|signalled| *signalled).await;
}

/// A fleet running on the current runtime, for embedding it in another process (tests).
#[derive(Debug)]
pub struct FleetHandle {
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

/// Starts [`run`] in the background; [`FleetHandle::stop`] shuts it down gracefully.
pub fn spawn(services: Arc<Services>, schedules: Vec<Schedule>) -> FleetHandle {
    let (stop, stopped) = tokio::sync::oneshot::channel();
    let task = tokio::spawn(run(services, schedules, async move {
        let _ = stopped.await;
    }));
    FleetHandle { stop, task }
}

impl FleetHandle {
    /// Stops taking jobs, waits for running ones, and returns how the fleet ended.
    pub async fn stop(self) -> anyhow::Result<()> {
        let _ = self.stop.send(());
        self.task.await?
    }
}

/// Collects one apalis worker per job kind.
pub(crate) struct Fleet {
    services: Arc<Services>,
    instance: String,
    platform: Platform,
    monitor: Monitor,
    queues: Vec<QueueSpec>,
}

impl Fleet {
    fn new(services: Arc<Services>, instance: String, platform: Platform) -> Self {
        Self {
            services,
            instance,
            platform,
            monitor: Monitor::new(),
            queues: Vec::new(),
        }
    }

    pub(crate) fn kind<J: Job>(mut self) -> Self {
        let services = self.services.clone();
        let instance = self.instance.clone();
        let platform = self.platform.clone();
        self.monitor = self.monitor.register(move |restarts| {
            // Unique across processes and restarts: jobs are held under this name.
            WorkerBuilder::new(format!("{}@{instance}#{restarts}", J::QUEUE))
                .backend(QueueBackend::new(
                    platform.clone(),
                    J::QUEUE,
                    J::CONCURRENCY,
                ))
                .data(services.clone())
                .concurrency(J::CONCURRENCY)
                .build(execute::<J>)
        });
        self.queues.push(QueueSpec {
            name: J::QUEUE,
            backoff: J::BACKOFF,
        });
        self
    }
}

/// One attempt of one job: open the payload, run it on its own task (a panic or a timeout
/// ends the attempt, not the worker), record a failure, and tell apalis whether to retry.
async fn execute<J: Job>(
    payload: Value,
    attempt: Attempt,
    id: TaskId,
    worker: WorkerContext,
    hold: Data<Hold>,
    services: Data<Arc<Services>>,
) -> Result<Value, BoxDynError> {
    let ctx = JobContext {
        id: id.to_string(),
        attempt: u32::try_from(attempt.current()).unwrap_or(u32::MAX),
        worker: worker.name().to_string(),
        taken_at: Some(hold.lock_at),
        services: Arc::clone(&services),
    };
    let outcome = match Envelope::<J>::open(payload) {
        Ok(job) => run_attempt(job, ctx.clone()).await,
        Err(unreadable) => Err(unreadable),
    };
    let error = match outcome {
        Ok(result) => return Ok(result),
        Err(error) => error,
    };
    tracing::warn!(
        job = %ctx.id, queue = J::QUEUE, attempt = ctx.attempt, outcome = ?error.outcome,
        detail = %error.detail, "job attempt failed"
    );
    if let Err(err) = record_failure(&ctx, &error).await {
        tracing::error!(job = %ctx.id, error = %domain::infra::telemetry::Loggable(&err), "could not record the failure");
    }
    match error.outcome {
        Outcome::Retry => Err(Box::new(error)),
        Outcome::Permanent => Err(Box::new(AbortError::new(error))),
    }
}

async fn run_attempt<J: Job>(job: J, ctx: JobContext) -> Result<Value, JobError> {
    let mut task = tokio::spawn(job.run(ctx));
    match tokio::time::timeout(J::TIMEOUT, &mut task).await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(join)) => Err(JobError::retry(
            "Erro inesperado ao processar a tarefa.",
            anyhow::anyhow!("handler panicked: {join}"),
        )),
        Err(_) => {
            task.abort();
            Err(JobError::retry(
                "A tarefa demorou demais e será tentada de novo.",
                anyhow::anyhow!("attempt exceeded {:?}", J::TIMEOUT),
            ))
        }
    }
}

async fn record_failure(ctx: &JobContext, error: &JobError) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO job_failures (job_id, attempt, worker, summary, detail)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&ctx.id)
    .bind(i32::try_from(ctx.attempt).unwrap_or(i32::MAX))
    .bind(&ctx.worker)
    .bind(error.summary.as_ref())
    .bind(&error.detail)
    .execute(ctx.db())
    .await?;
    Ok(())
}

/// Tells the backoff trigger how each queue spaces its retries, stretched by
/// `FILIA_JOB_BACKOFF_SCALE` (an incident, or a test that needs a failed job to wait).
async fn declare_queues(db: &PgPool, queues: &[QueueSpec], scale: f64) -> sqlx::Result<()> {
    for queue in queues {
        sqlx::query(
            "INSERT INTO job_queues (name, backoff_base, backoff_max)
             VALUES ($1, make_interval(secs => $2), make_interval(secs => $3))
             ON CONFLICT (name) DO UPDATE
             SET backoff_base = EXCLUDED.backoff_base, backoff_max = EXCLUDED.backoff_max,
                 updated_at = now()",
        )
        .bind(queue.name)
        .bind(queue.backoff.base.as_secs_f64() * scale)
        .bind(queue.backoff.max.as_secs_f64() * scale)
        .execute(db)
        .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use super::*;

    /// A job whose attempt outlives its timeout, or panics.
    #[derive(Debug, Serialize, Deserialize)]
    struct Misbehaving {
        panic: bool,
    }

    impl Job for Misbehaving {
        const QUEUE: &'static str = "test.misbehaving";
        const TIMEOUT: Duration = Duration::from_millis(50);

        async fn run(self, _: JobContext) -> Result<Value, JobError> {
            assert!(!self.panic, "handler bug");
            tokio::time::sleep(Duration::from_secs(5)).await;
            Ok(Value::Null)
        }
    }

    fn context() -> JobContext {
        let config = domain::Config::from_lookup(|_| None).expect("defaults");
        JobContext {
            id: "01J00000000000000000000000".into(),
            attempt: 1,
            worker: "test".into(),
            taken_at: None,
            services: Services::new(
                PgPool::connect_lazy("postgres://nobody@127.0.0.1:1/none").expect("lazy pool"),
                config,
            )
            .expect("services"),
        }
    }

    /// The README's configuration table states the pool sizing and the schedules; it
    /// drifted once (46 instead of 64, two backfills missing), so it is read here.
    #[test]
    fn the_readme_states_the_pools_and_every_schedule() {
        let readme = include_str!("../../README.md");
        let pools = [
            format!("`CONCURRENCY` together, {} today)", kinds::CONCURRENCY),
            format!("plus a margin of {POOL_MARGIN} "),
            format!("a pool of {} for the fetches", backend::FETCHES_AT_ONCE),
        ];
        for stated in pools {
            assert!(readme.contains(&stated), "README lacks {stated:?}");
        }
        // Every schedule a default (sandbox) process declares.
        let schedules = kinds::schedules(&|_| None).expect("schedules");
        assert!(schedules.len() >= 7);
        for schedule in schedules {
            let variable = format!(
                "`{}` (`{}`",
                schedule.name.to_uppercase().replace('-', "_"),
                schedule.expression
            );
            assert!(readme.contains(&variable), "README lacks {variable:?}");
        }
    }

    #[tokio::test]
    async fn an_attempt_past_its_timeout_is_a_retried_failure() {
        let started = tokio::time::Instant::now();
        let error = run_attempt(Misbehaving { panic: false }, context())
            .await
            .expect_err("timed out");
        assert!(started.elapsed() < Duration::from_secs(2));
        assert_eq!(error.outcome, Outcome::Retry);
        assert_eq!(
            error.summary,
            "A tarefa demorou demais e será tentada de novo."
        );
    }

    #[tokio::test]
    async fn a_panicking_handler_fails_its_attempt_not_the_worker() {
        let error = run_attempt(Misbehaving { panic: true }, context())
            .await
            .expect_err("panicked");
        assert_eq!(error.outcome, Outcome::Retry);
        assert!(error.detail.contains("panicked"), "{}", error.detail);
    }
}
