//! Which workers are alive, and what happens to the jobs of those that are not.
//!
//! Each queue worker has its row in `apalis.workers`. The process beats for all of its
//! workers in one statement, touching only those rows (never the jobs they hold), and in
//! the same round rescues the jobs of every worker, in any process, that has been silent
//! for [`ORPHANED_AFTER`]: they go back to their queue with the lost attempt counted.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use sqlx::PgPool;
use tokio::sync::watch;

use super::Retry;

/// How often a process beats for its workers (and looks for orphans).
pub(crate) const HEARTBEAT: Duration = Duration::from_secs(5);
/// A worker silent this long is dead and its jobs go to the others: 4 missed beats, inside
/// the 30 s promise even counting the rescuer's own beat.
pub(crate) const ORPHANED_AFTER: Duration = Duration::from_secs(20);

/// The names of this process' live queue workers, beaten for together.
#[derive(Debug, Clone, Default)]
pub(crate) struct Registry {
    names: Arc<Mutex<BTreeSet<String>>>,
}

impl Registry {
    /// Records the worker (its row, alive now) and beats for it from now on. A worker of
    /// this name holds nothing yet: jobs held under it belong to a process that died and
    /// came back with the same host and pid (a restarted container), so they go back to
    /// their queue first instead of passing for alive.
    pub(crate) async fn register(
        &self,
        db: &PgPool,
        worker: &str,
        queue: &str,
    ) -> sqlx::Result<()> {
        sqlx::query("UPDATE apalis.workers SET last_seen = 'epoch' WHERE id = $1")
            .bind(worker)
            .execute(db)
            .await?;
        rescue(db, Rescue::Silent).await?;
        sqlx::query(
            "INSERT INTO apalis.workers (id, worker_type, storage_name, layers, last_seen, started_at)
             VALUES ($1, $2, 'filia', '', now(), now())
             ON CONFLICT (id) DO UPDATE SET last_seen = now()",
        )
        .bind(worker)
        .bind(queue)
        .execute(db)
        .await?;
        self.lock().insert(worker.to_string());
        Ok(())
    }

    /// Stops beating for the worker: it holds nothing any more.
    pub(crate) fn forget(&self, worker: &str) {
        self.lock().remove(worker);
    }

    fn names(&self) -> Vec<String> {
        self.lock().iter().cloned().collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeSet<String>> {
        // A set of names: nothing a panicking holder could leave half done.
        self.names.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Beats and rescues every [`HEARTBEAT`] until `stopped` turns true. A round the database
/// fails is tried again after [`Retry`]'s delays rather than at the next beat, so once it
/// is back this process reads as alive again within moments.
pub(crate) async fn beat_forever(
    db: PgPool,
    registry: Registry,
    mut stopped: watch::Receiver<bool>,
) {
    let mut ticks = tokio::time::interval(HEARTBEAT);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = stopped.changed() => return,
        }
        let mut retry = Retry::new();
        while let Err(err) = beat_and_rescue(&db, &registry).await {
            tracing::warn!(error = %domain::infra::telemetry::Loggable(&err), "worker heartbeat failed");
            tokio::select! {
                () = tokio::time::sleep(retry.delay()) => {}
                _ = stopped.changed() => return,
            }
        }
    }
}

/// One round: this process' workers beat, then every silent worker's jobs go back.
async fn beat_and_rescue(db: &PgPool, registry: &Registry) -> sqlx::Result<()> {
    beat(db, &registry.names()).await?;
    let rescued = rescue(db, Rescue::Silent).await?;
    if rescued > 0 {
        tracing::warn!(
            jobs = rescued,
            "jobs of silent workers put back in their queues"
        );
    }
    Ok(())
}

async fn beat(db: &PgPool, workers: &[String]) -> sqlx::Result<()> {
    if workers.is_empty() {
        return Ok(());
    }
    sqlx::query("UPDATE apalis.workers SET last_seen = now() WHERE id = ANY($1)")
        .bind(workers)
        .execute(db)
        .await?;
    Ok(())
}

/// Why held jobs are put back, as their attempt's result says (and `job_failures` keeps).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Rescue {
    /// Their worker stopped beating.
    Silent,
    /// Their process shut down without finishing them.
    Shutdown,
}

/// Jobs held (fetched or running) by a worker silent for [`ORPHANED_AFTER`], or by one with
/// no row at all, go back to their queue with the lost attempt counted (the
/// `filia_attempt_lost` trigger records it, and ends the job once its attempts are spent).
/// Silence counts only once the server has been up that long: while it was down or
/// restarting no worker could beat, and a process that comes back first must not take
/// the jobs of the others, whose results wait to be written (a worker declared dead, its
/// `last_seen` set to the epoch by [`Registry::register`] or [`retire`], goes at once).
/// Reads only the held jobs (`idx_apalis_jobs_held_by`); jobs locked by a write in flight
/// are left to the next round.
pub(crate) async fn rescue(db: &PgPool, why: Rescue) -> sqlx::Result<u64> {
    let reason = match why {
        Rescue::Silent => "Re-enqueued due to worker heartbeat timeout.",
        Rescue::Shutdown => "Re-enqueued due to worker shutdown.",
    };
    let rescued = sqlx::query(
        "UPDATE apalis.jobs j
         SET status = 'Pending', lock_by = NULL, lock_at = NULL, done_at = NULL,
             attempts = j.attempts + 1, last_result = jsonb_build_object('Err', $2::text)
         WHERE j.id = ANY (ARRAY(
             SELECT h.id FROM apalis.jobs h
             WHERE (h.status = 'Queued' OR h.status = 'Running')
               AND NOT EXISTS (SELECT 1 FROM apalis.workers w
                               WHERE w.id = h.lock_by
                                 AND w.last_seen > now() - make_interval(secs => $1))
               AND (pg_postmaster_start_time() < now() - make_interval(secs => $1)
                    OR EXISTS (SELECT 1 FROM apalis.workers w
                               WHERE w.id = h.lock_by AND w.last_seen = 'epoch'))
             ORDER BY h.id
             FOR UPDATE SKIP LOCKED))",
    )
    .bind(ORPHANED_AFTER.as_secs_f64())
    .bind(reason)
    .execute(db)
    .await?;
    Ok(rescued.rows_affected())
}

/// After a process' shutdown: its workers read as dead, and what they still hold (a job
/// that outlived the grace period) goes back to the queue now, not after the rescue's wait.
pub(crate) async fn retire(db: &PgPool, instance: &str) -> sqlx::Result<u64> {
    sqlx::query("UPDATE apalis.workers SET last_seen = 'epoch' WHERE id LIKE $1")
        .bind(format!("%@{instance}#%"))
        .execute(db)
        .await?;
    rescue(db, Rescue::Shutdown).await
}

/// Jobs a worker fetched and never started go back to their queue as they were: no
/// attempt was made, so none is counted.
pub(crate) async fn release_unstarted(
    db: &PgPool,
    worker: &str,
    ids: &[String],
) -> sqlx::Result<u64> {
    if ids.is_empty() {
        return Ok(0);
    }
    let released = sqlx::query(
        "UPDATE apalis.jobs SET status = 'Pending', lock_by = NULL, lock_at = NULL
         WHERE id = ANY($1) AND lock_by = $2 AND status = 'Running'",
    )
    .bind(ids)
    .bind(worker)
    .execute(db)
    .await?;
    Ok(released.rows_affected())
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, Utc};
    use sqlx::postgres::PgPoolOptions;
    use testkit::postgres::Cluster;

    use super::*;

    async fn connect(cluster: &Cluster) -> PgPool {
        PgPoolOptions::new()
            .max_connections(2)
            .connect(&cluster.url("postgres"))
            .await
            .expect("connect")
    }

    async fn held_by(db: &PgPool, worker: &str, last_seen: DateTime<Utc>) -> String {
        let id = ulid::Ulid::generate().to_string();
        sqlx::query(
            "INSERT INTO apalis.workers (id, worker_type, storage_name, layers, last_seen, started_at)
             VALUES ($1, 'canary', 'filia', '', $2, now())",
        )
        .bind(worker)
        .bind(last_seen)
        .execute(db)
        .await
        .expect("worker");
        sqlx::query(
            "INSERT INTO apalis.jobs (id, job_type, job, status, lock_by, lock_at)
             VALUES ($1, 'canary', convert_to('{}', 'UTF8'), 'Running', $2, now())",
        )
        .bind(&id)
        .bind(worker)
        .execute(db)
        .await
        .expect("held job");
        id
    }

    /// After the server restarts, every worker has been silent for as long as it was down:
    /// its jobs stay with it until it has had the rescue's window to beat again; a worker
    /// declared dead (a name registered again) still gives its jobs back at once.
    #[tokio::test]
    async fn silence_counts_only_once_the_server_has_been_up_the_rescue_window() {
        let cluster = Cluster::start(&[]);
        let db = connect(&cluster).await;
        schema::MIGRATOR.run(&db).await.expect("migrate");
        let silent = held_by(
            &db,
            "canary@a:1#0",
            Utc::now() - chrono::Duration::minutes(1),
        )
        .await;
        let reused = held_by(&db, "canary@b:2#0", DateTime::UNIX_EPOCH).await;
        db.close().await;
        cluster.stop();
        cluster.start_again();
        let db = connect(&cluster).await;

        assert_eq!(rescue(&db, Rescue::Silent).await.expect("rescue"), 1);
        let statuses: Vec<(String, String)> =
            sqlx::query_as("SELECT id, status FROM apalis.jobs ORDER BY id")
                .fetch_all(&db)
                .await
                .expect("jobs");
        let status = |id: &str| {
            statuses
                .iter()
                .find(|(job, _)| job == id)
                .map(|(_, status)| status.as_str())
        };
        assert_eq!(status(&silent), Some("Running"));
        assert_eq!(status(&reused), Some("Pending"));
    }
}
