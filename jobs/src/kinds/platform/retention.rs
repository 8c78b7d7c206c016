//! `jobs.retention`: prunes finished jobs once they are old enough (with their records and
//! failures, by cascade), dead worker rows, and old canary effects. Runs daily from cron,
//! and runs the accounts area's own pruning of spent activation limits on the same tick.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::job::{Job, JobContext, JobError};

/// Deleting in slices keeps each statement short, so workers fetching jobs never wait long.
const SLICE: i64 = 5_000;

/// Ages in days; `None` takes the configured default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retention {
    #[serde(default)]
    pub succeeded_days: Option<u32>,
    #[serde(default)]
    pub failed_days: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    pub succeeded_days: u32,
    pub failed_days: u32,
    /// A worker row silent this long belongs to a process that is gone.
    pub dead_worker_hours: u32,
    pub canary_days: u32,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pruned {
    pub jobs: u64,
    pub workers: u64,
    pub canary_effects: u64,
    /// Rows of activation limits that held nothing back any more.
    pub activation_limits: u64,
}

impl Job for Retention {
    const QUEUE: &'static str = "jobs.retention";
    const MAX_ATTEMPTS: i32 = 3;
    const CONCURRENCY: usize = 1;
    const TIMEOUT: Duration = Duration::from_secs(30 * 60);

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let config = &ctx.services.config;
        let policy = Policy {
            succeeded_days: self
                .succeeded_days
                .unwrap_or(config.job_retention_succeeded_days),
            failed_days: self.failed_days.unwrap_or(config.job_retention_failed_days),
            dead_worker_hours: 1,
            canary_days: 7,
        };
        let pruned = prune(ctx.db(), policy)
            .await
            .map_err(|err| JobError::retry("Falha ao limpar tarefas antigas.", err))?;
        Ok(json!({
            "jobs": pruned.jobs,
            "workers": pruned.workers,
            "canary_effects": pruned.canary_effects,
            "activation_limits": pruned.activation_limits,
        }))
    }
}

/// Succeeded jobs older than `$1` days, `$2` at a time: a range of `jobs_finished_at`, so
/// a run reads what it deletes, not every retained job.
const PRUNE_SUCCEEDED: &str = "DELETE FROM apalis.jobs WHERE id IN (
         SELECT id FROM apalis.jobs
         WHERE status = 'Done' AND done_at < now() - make_interval(days => $1)
         ORDER BY done_at LIMIT $2)";

/// Jobs failed for good or cancelled older than `$1` days, `$2` at a time, the same way (a
/// failed job with attempts left is still alive).
const PRUNE_FAILED: &str = "DELETE FROM apalis.jobs WHERE id IN (
         SELECT id FROM apalis.jobs
         WHERE status IN ('Done', 'Failed', 'Killed')
           AND done_at < now() - make_interval(days => $1)
           AND (status = 'Killed' OR (status = 'Failed' AND attempts >= max_attempts))
         ORDER BY done_at LIMIT $2)";

pub async fn prune(db: &PgPool, policy: Policy) -> sqlx::Result<Pruned> {
    let mut pruned = Pruned::default();
    for (statement, days) in [
        (PRUNE_SUCCEEDED, policy.succeeded_days),
        (PRUNE_FAILED, policy.failed_days),
    ] {
        loop {
            let deleted = sqlx::query(statement)
                .bind(i32::try_from(days).unwrap_or(i32::MAX))
                .bind(SLICE)
                .execute(db)
                .await?
                .rows_affected();
            pruned.jobs += deleted;
            if deleted < SLICE as u64 {
                break;
            }
        }
    }
    // A worker row is how orphaned jobs are found: keep it while it holds any.
    pruned.workers = sqlx::query(
        "DELETE FROM apalis.workers w
         WHERE w.last_seen < now() - make_interval(hours => $1)
           AND NOT EXISTS (SELECT 1 FROM apalis.jobs j
                           WHERE j.lock_by = w.id AND j.status IN ('Queued', 'Running'))",
    )
    .bind(i32::try_from(policy.dead_worker_hours).unwrap_or(i32::MAX))
    .execute(db)
    .await?
    .rows_affected();
    pruned.canary_effects = sqlx::query(
        "DELETE FROM job_canary_effects WHERE created_at < now() - make_interval(days => $1)",
    )
    .bind(i32::try_from(policy.canary_days).unwrap_or(i32::MAX))
    .execute(db)
    .await?
    .rows_affected();
    pruned.activation_limits = domain::accounts::activation::prune_spent_limits(db).await?;
    Ok(pruned)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plan of `statement` on a table of `jobs` recent succeeded jobs (nothing to prune).
    async fn plan(db: &PgPool, statement: &str) -> String {
        let explained: serde_json::Value = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "EXPLAIN (FORMAT JSON) {statement}"
        )))
        .bind(14)
        .bind(SLICE)
        .fetch_one(db)
        .await
        .expect("explain");
        explained.to_string()
    }

    #[testkit::db_test]
    async fn pruning_reads_the_finished_index_not_every_retained_job(db: PgPool) {
        sqlx::raw_sql(
            r#"INSERT INTO apalis.jobs (id, job_type, job, status, attempts, run_at, done_at)
               SELECT lpad(upper(to_hex(n)), 26, '0'), 'canary', convert_to('{}', 'UTF8'),
                      'Done', 1, now(), now() - interval '1 hour'
               FROM generate_series(1, 20000) AS n;
               ANALYZE apalis.jobs"#,
        )
        .execute(&db)
        .await
        .expect("retained jobs");
        let succeeded = plan(&db, PRUNE_SUCCEEDED).await;
        assert!(succeeded.contains("jobs_finished_at"), "{succeeded}");
        assert!(succeeded.contains("Index Cond"), "{succeeded}");
        assert!(!succeeded.contains("Seq Scan"), "{succeeded}");
        // Failed and cancelled jobs may also be read through the partial index that holds
        // only them (the planner picks either); never through every retained job.
        let failed = plan(&db, PRUNE_FAILED).await;
        assert!(
            ["jobs_finished_at", "jobs_rerunnable"]
                .iter()
                .any(|index| failed.contains(index)),
            "{failed}"
        );
        assert!(!failed.contains("Seq Scan"), "{failed}");
    }
}
