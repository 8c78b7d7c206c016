//! Putting a job in its queue, inside the caller's own transaction: if the caller rolls
//! back, the job never existed; if it commits, the job runs.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};

use crate::job::{Envelope, Job};

/// A job about to be enqueued. Build it, then [`Enqueue::push`] it on the transaction that
/// records the business change it belongs to.
#[derive(Debug)]
#[must_use = "a job is enqueued only by push"]
pub struct Enqueue<J> {
    job: J,
    key: Option<String>,
    run_at: Option<DateTime<Utc>>,
    priority: i32,
    owner: Owner,
    subject: Option<(String, String)>,
}

/// Who may see the job's state: its member (and their station).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Owner {
    pub station_id: Option<i64>,
    pub user_id: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enqueued {
    pub id: String,
    /// False when a job with the same idempotency key already existed; `id` is that job's.
    pub created: bool,
}

impl<J: Job> Enqueue<J> {
    pub fn new(job: J) -> Self {
        Self {
            job,
            key: None,
            run_at: None,
            priority: 0,
            owner: Owner::default(),
            subject: None,
        }
    }

    /// At most one job per key in this queue, ever (until retention prunes it): enqueueing
    /// the same key again returns the first job and leaves the caller's transaction intact.
    pub fn idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// Not before this time (a scheduled job).
    pub fn run_at(mut self, at: DateTime<Utc>) -> Self {
        self.run_at = Some(at);
        self
    }

    /// Higher runs first among due jobs of the queue.
    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = priority;
        self
    }

    pub fn owner(mut self, station_id: i64, user_id: Option<i64>) -> Self {
        self.owner = Owner {
            station_id: Some(station_id),
            user_id,
        };
        self
    }

    /// The business record the job serves, such as `("order", "42")`.
    pub fn about(mut self, kind: impl Into<String>, id: impl ToString) -> Self {
        self.subject = Some((kind.into(), id.to_string()));
        self
    }

    /// Enqueues on a transaction of its own, for a caller with no business change to tie
    /// the job to (a cron tick, a test).
    pub async fn commit(self, db: &PgPool) -> sqlx::Result<Enqueued> {
        let mut tx = db.begin().await?;
        let enqueued = self.push(&mut tx).await?;
        tx.commit().await?;
        Ok(enqueued)
    }

    pub async fn push(self, tx: &mut PgConnection) -> sqlx::Result<Enqueued> {
        let payload = Envelope::seal(self.job).map_err(|err| sqlx::Error::Encode(err.into()))?;
        let id = ulid::Ulid::generate().to_string();
        let inserted: Option<String> = sqlx::query_scalar(
            "INSERT INTO apalis.jobs
                 (id, job_type, job, status, attempts, max_attempts, run_at, priority, idempotency_key)
             VALUES ($1, $2, $3, 'Pending', 0, $4, coalesce($5, now()), $6, $7)
             ON CONFLICT (job_type, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
             RETURNING id",
        )
        .bind(&id)
        .bind(J::QUEUE)
        .bind(payload)
        .bind(J::MAX_ATTEMPTS)
        .bind(self.run_at)
        .bind(self.priority)
        .bind(self.key.as_deref())
        .fetch_optional(&mut *tx)
        .await?;

        let Some(id) = inserted else {
            // The key exists: answer the job that holds it.
            let existing = sqlx::query_scalar(
                "SELECT id FROM apalis.jobs WHERE job_type = $1 AND idempotency_key = $2",
            )
            .bind(J::QUEUE)
            .bind(self.key.as_deref())
            .fetch_one(&mut *tx)
            .await?;
            return Ok(Enqueued {
                id: existing,
                created: false,
            });
        };

        if self.owner != Owner::default() || self.subject.is_some() {
            let (kind, subject_id) = self.subject.unzip();
            sqlx::query(
                "INSERT INTO job_records (job_id, station_id, user_id, subject_kind, subject_id)
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&id)
            .bind(self.owner.station_id)
            .bind(self.owner.user_id)
            .bind(kind)
            .bind(subject_id)
            .execute(&mut *tx)
            .await?;
        }
        Ok(Enqueued { id, created: true })
    }
}
