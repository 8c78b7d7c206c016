//! What a job kind is: a payload type that knows its queue, its limits and how to run.

use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::PgPool;

use domain::Config;
use domain::infra::mail::Mailer;

/// A kind of background work. The implementing type is the payload: it is stored as JSON
/// inside a versioned envelope, so add fields with `#[serde(default)]` and old jobs still
/// parse; a change old payloads cannot follow bumps [`Job::VERSION`].
pub trait Job: Serialize + DeserializeOwned + Send + 'static {
    /// The queue's name in the database. Never rename it: queued jobs would be stranded.
    const QUEUE: &'static str;
    /// The payload version this code writes and reads. A stored payload with a newer
    /// version fails for good rather than being misread.
    const VERSION: u32 = 1;
    const MAX_ATTEMPTS: i32 = 10;
    /// Jobs of this kind running at once in one worker process.
    const CONCURRENCY: usize = 4;
    /// One attempt longer than this fails and is retried.
    const TIMEOUT: Duration = Duration::from_secs(60);
    /// Retries wait `base x 2^(attempt - 1)`, at most `max`.
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(10),
        max: Duration::from_secs(3600),
    };

    /// Does the work. The value returned is the job's result, shown to its owner (for
    /// example `{"url": ...}` of a generated file).
    fn run(self, ctx: JobContext) -> impl Future<Output = Result<Value, JobError>> + Send;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    pub base: Duration,
    pub max: Duration,
}

/// What every handler may use, shared by all the jobs of a worker process.
#[derive(Debug)]
pub struct Services {
    pub db: PgPool,
    pub mailer: Mailer,
    pub config: Arc<Config>,
}

impl Services {
    /// The mailer comes from the same configuration, so a process has one of each.
    pub fn new(db: PgPool, config: Config) -> anyhow::Result<Arc<Self>> {
        Ok(Arc::new(Self {
            mailer: Mailer::from_config(&config)?,
            db,
            config: Arc::new(config),
        }))
    }
}

/// The running attempt of one job.
#[derive(Debug, Clone)]
pub struct JobContext {
    pub id: String,
    /// 1 on the first run.
    pub attempt: u32,
    /// The apalis worker that holds the job (`queue@host:pid#restarts`).
    pub worker: String,
    /// When the worker took the job for this attempt: with `worker`, the hold this run
    /// works under (a job taken again after a lost fetch or a rescue has a newer one).
    /// `None` for a handler run outside the fleet (a test).
    pub taken_at: Option<DateTime<Utc>>,
    pub services: Arc<Services>,
}

/// What [`JobContext::begin_effect`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Marked now: this run makes the effect.
    Begun,
    /// A run of this job began it then and settled nothing: it may have happened.
    BegunBefore(DateTime<Utc>),
    /// The job is no longer held under this run's hold (taken again since): the run that
    /// holds it decides, and this one leaves it alone.
    NotHeld,
}

impl JobContext {
    pub fn db(&self) -> &PgPool {
        &self.services.db
    }

    /// Reports how far the job has come, 0 to 100, for the owner's progress bar.
    pub async fn progress(&self, percent: u8) -> sqlx::Result<()> {
        sqlx::query(
            "INSERT INTO job_records (job_id, progress) VALUES ($1, $2)
             ON CONFLICT (job_id) DO UPDATE SET progress = EXCLUDED.progress",
        )
        .bind(&self.id)
        .bind(i16::from(percent.min(100)))
        .execute(self.db())
        .await?;
        Ok(())
    }

    /// Marks, durably, that this run begins an effect no key can make harmless twice (an
    /// e-mail handed to an SMTP relay), while the run still holds the job. The mark's
    /// commit waits for the WAL flush, whatever the session's setting: it must outlive a
    /// database crash, and so does the fetch before it (the WAL is flushed in order), so
    /// the job cannot reappear unfetched after a crash and be run again without the mark.
    /// A re-run by staff clears it ([`crate::state::rerun_in`]).
    pub async fn begin_effect(&self) -> sqlx::Result<Effect> {
        let mut tx = self.db().begin().await?;
        sqlx::query("SET LOCAL synchronous_commit = on")
            .execute(&mut *tx)
            .await?;
        let held: Option<i32> = sqlx::query_scalar(
            "SELECT 1 FROM apalis.jobs
              WHERE id = $1
                AND ($3::timestamptz IS NULL
                     OR (status = 'Running' AND lock_by = $2 AND lock_at = $3))
                FOR UPDATE",
        )
        .bind(&self.id)
        .bind(&self.worker)
        .bind(self.taken_at)
        .fetch_optional(&mut *tx)
        .await?;
        if held.is_none() {
            return Ok(Effect::NotHeld);
        }
        // Each statement reads what is committed when it starts, so behind the job's lock
        // a mark another run committed meanwhile is seen (a join in the locking statement
        // would read the mark as it was before the wait).
        let begun: Option<DateTime<Utc>> = sqlx::query_scalar(
            "INSERT INTO job_records (job_id, effect_begun_at) VALUES ($1, now())
             ON CONFLICT (job_id) DO UPDATE SET effect_begun_at = EXCLUDED.effect_begun_at
                 WHERE job_records.effect_begun_at IS NULL
             RETURNING effect_begun_at",
        )
        .bind(&self.id)
        .fetch_optional(&mut *tx)
        .await?;
        let effect = match begun {
            Some(_) => Effect::Begun,
            None => Effect::BegunBefore(
                sqlx::query_scalar("SELECT effect_begun_at FROM job_records WHERE job_id = $1")
                    .bind(&self.id)
                    .fetch_one(&mut *tx)
                    .await?,
            ),
        };
        tx.commit().await?;
        Ok(effect)
    }

    /// The effect [`Self::begin_effect`] marked surely did not happen (refused before it
    /// began): the mark goes, and a later run may make it.
    pub async fn effect_not_made(&self) -> sqlx::Result<()> {
        sqlx::query("UPDATE job_records SET effect_begun_at = NULL WHERE job_id = $1")
            .bind(&self.id)
            .execute(self.db())
            .await?;
        Ok(())
    }
}

/// Why an attempt failed. `summary` is shown to the job's owner, so it is Portuguese and
/// free of internals; `detail` is kept for staff and the logs.
#[derive(Debug)]
pub struct JobError {
    pub outcome: Outcome,
    pub summary: Cow<'static, str>,
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Try again after the backoff, while attempts remain.
    Retry,
    /// Retrying cannot help: the job ends failed now.
    Permanent,
}

impl JobError {
    /// `detail` is an error, not text, so a database error in it is kept by its code and
    /// constraint only ([`domain::infra::telemetry::Loggable`]); text goes in `anyhow!`.
    pub fn retry(summary: impl Into<Cow<'static, str>>, detail: impl Into<anyhow::Error>) -> Self {
        Self::new(Outcome::Retry, summary.into(), detail.into())
    }

    pub fn permanent(
        summary: impl Into<Cow<'static, str>>,
        detail: impl Into<anyhow::Error>,
    ) -> Self {
        Self::new(Outcome::Permanent, summary.into(), detail.into())
    }

    fn new(outcome: Outcome, summary: Cow<'static, str>, detail: anyhow::Error) -> Self {
        let detail: &(dyn std::error::Error + 'static) = detail.as_ref();
        Self {
            outcome,
            summary,
            detail: domain::infra::telemetry::Loggable(detail).to_string(),
        }
    }
}

/// apalis stores this text as the attempt's result: the safe summary only.
impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary)
    }
}

impl std::error::Error for JobError {}

/// How a payload is stored: `{"v": 1, "args": {...}}`.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Envelope<T> {
    pub v: u32,
    pub args: T,
}

impl<J: Job> Envelope<J> {
    pub fn seal(job: J) -> serde_json::Result<Vec<u8>> {
        serde_json::to_vec(&Envelope {
            v: J::VERSION,
            args: job,
        })
    }

    /// Reads a stored payload back. Anything this code cannot read is a permanent failure
    /// of that one job; the worker goes on with the others.
    pub fn open(stored: Value) -> Result<J, JobError> {
        const UNREADABLE: &str = "Os dados desta tarefa não puderam ser lidos.";
        let envelope: Envelope<Value> = serde_json::from_value(stored).map_err(|err| {
            JobError::permanent(UNREADABLE, anyhow::anyhow!("not an envelope: {err}"))
        })?;
        if envelope.v > J::VERSION {
            return Err(JobError::permanent(
                UNREADABLE,
                anyhow::anyhow!(
                    "payload version {} is newer than {} (this build)",
                    envelope.v,
                    J::VERSION
                ),
            ));
        }
        serde_json::from_value(envelope.args).map_err(|err| {
            JobError::permanent(
                UNREADABLE,
                anyhow::anyhow!("payload v{}: {err}", envelope.v),
            )
        })
    }
}
