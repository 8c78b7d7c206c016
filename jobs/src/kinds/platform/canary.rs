//! `canary`: a job that proves the fleet end to end. With a key it writes one row under
//! that key (a re-run writes nothing more, which is how a job's effect stays exactly-once);
//! without one it does nothing, which is what the benchmark enqueues. It can be told to
//! fail its first attempts, to hold on after its effect, or to crash its process, so tests
//! can watch retries and kill a worker mid-job.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::job::{Backoff, Job, JobContext, JobError};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Canary {
    #[serde(default)]
    pub key: Option<String>,
    /// The first `fail_times` attempts fail (and are retried).
    #[serde(default)]
    pub fail_times: u32,
    /// Milliseconds to keep running after writing the effect (not on a re-run that finds
    /// it written).
    #[serde(default)]
    pub hold_ms: u64,
    /// Every attempt aborts the whole worker process, as a crash in native code would: the
    /// job is rescued by another process and must end failed once its attempts are spent.
    /// Left out of the payload when false, so every other canary is stored as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub abort: bool,
    /// The result also says when the handler was entered (`started_at`), so
    /// `ops/bench/jobs` measures the delay from due to start where the peer's is measured:
    /// at the handler's entry. Left out of the payload when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stamp_start: bool,
}

impl Job for Canary {
    const QUEUE: &'static str = "canary";
    const MAX_ATTEMPTS: i32 = 5;
    const CONCURRENCY: usize = 16;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(1),
        max: Duration::from_secs(60),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let started_at = self.stamp_start.then(chrono::Utc::now);
        if self.abort {
            tracing::error!(job = %ctx.id, "canary told to abort its process");
            std::process::abort();
        }
        if ctx.attempt <= self.fail_times {
            return Err(JobError::retry(
                "Falha de teste; a tarefa será tentada de novo.",
                anyhow::anyhow!(
                    "canary told to fail {} time(s), attempt {}",
                    self.fail_times,
                    ctx.attempt
                ),
            ));
        }
        let written = match &self.key {
            Some(key) => {
                sqlx::query(
                    "INSERT INTO job_canary_effects (key, job_id, worker) VALUES ($1, $2, $3)
                     ON CONFLICT (key) DO NOTHING",
                )
                .bind(key)
                .bind(&ctx.id)
                .bind(&ctx.worker)
                .execute(ctx.db())
                .await
                .map_err(|err| JobError::retry("Falha ao gravar o resultado.", err))?
                .rows_affected()
                    == 1
            }
            None => false,
        };
        if written && self.hold_ms > 0 {
            ctx.progress(50)
                .await
                .map_err(|err| JobError::retry("Falha ao registrar o progresso.", err))?;
            tokio::time::sleep(Duration::from_millis(self.hold_ms)).await;
        }
        Ok(match started_at {
            Some(started_at) => json!({ "written": written, "started_at": started_at }),
            None => json!({ "written": written }),
        })
    }
}
