//! Writing finished attempts back, many jobs per statement.
//!
//! A handler's result goes to the process' one writer ([`Acks::run`]) and its slot is free
//! at once. The writer takes whatever has finished meanwhile and writes it in one UPDATE,
//! so a busy process writes dozens of results per round trip and an idle one writes each
//! result as soon as it comes. A process killed between finishing a job and writing its
//! result leaves the job Running under a worker that no longer heartbeats: the rescue puts
//! it back and it runs again, which is why every effect is keyed (at least once).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use sqlx::PgPool;
use tokio::sync::{mpsc, oneshot};

use super::{Retry, database_away};

/// Results written by one statement at most.
const MAX_BATCH: usize = 1000;

/// One finished attempt, as the worker that ran it saw it.
#[derive(Debug, Clone)]
pub(crate) struct Completion {
    pub id: String,
    /// The holder and the time of the fetch: a result is written only over the same hold,
    /// never over a later one (the job rescued and taken again meanwhile).
    pub worker: Arc<str>,
    pub lock_at: DateTime<Utc>,
    /// apalis' status after the attempt: Done, Failed (retried while attempts remain) or
    /// Killed (failed for good).
    pub status: String,
    pub attempts: i32,
    /// `{"Ok": result}` or `{"Err": summary}`, as apalis stores it.
    pub result: Value,
}

#[derive(Debug)]
enum Message {
    Finished(Completion),
    /// Answered once everything sent before it is written.
    Flush(oneshot::Sender<()>),
}

/// The sending side, shared by every queue worker of the process.
#[derive(Debug, Clone)]
pub(crate) struct Acks {
    sender: mpsc::UnboundedSender<Message>,
}

/// The writing side: [`AckWriter::run`] until every [`Acks`] is dropped.
#[derive(Debug)]
pub(crate) struct AckWriter {
    db: PgPool,
    receiver: mpsc::UnboundedReceiver<Message>,
}

pub(crate) fn channel(db: PgPool) -> (Acks, AckWriter) {
    let (sender, receiver) = mpsc::unbounded_channel();
    (Acks { sender }, AckWriter { db, receiver })
}

impl Acks {
    pub(crate) fn send(&self, completion: Completion) {
        if self.sender.send(Message::Finished(completion)).is_err() {
            // Only after the writer stopped, at the very end of a shutdown: the job is
            // still held and goes back to the queue with the rest.
            tracing::warn!("a result came after the results writer stopped");
        }
    }

    /// Waits until every result sent before this call is written.
    pub(crate) async fn flush(&self) {
        let (done, written) = oneshot::channel();
        if self.sender.send(Message::Flush(done)).is_ok() {
            let _ = written.await;
        }
    }
}

impl AckWriter {
    /// Writes results as they come, until every sender is gone and all is written.
    pub(crate) async fn run(mut self) {
        let mut batch = Vec::new();
        let mut flushes = Vec::new();
        while let Some(first) = self.receiver.recv().await {
            let mut next = Some(first);
            while let Some(message) = next {
                match message {
                    Message::Finished(completion) => batch.push(completion),
                    Message::Flush(done) => flushes.push(done),
                }
                next = if batch.len() < MAX_BATCH {
                    self.receiver.try_recv().ok()
                } else {
                    None
                };
            }
            self.write(&batch).await;
            batch.clear();
            for done in flushes.drain(..) {
                let _ = done.send(());
            }
        }
    }

    /// Writes the batch, trying again until the database takes it, however long it is
    /// away: a result that is not written leaves its job to run again after a rescue.
    async fn write(&self, batch: &[Completion]) {
        if batch.is_empty() {
            return;
        }
        let mut retry = Retry::new();
        loop {
            let written = match write_results(&self.db, batch).await {
                // The database refused the statement itself (a result jsonb cannot hold,
                // say): retrying cannot help, and would hold back every later result.
                Err(err @ sqlx::Error::Database(_)) if !database_away(&err) => {
                    self.write_one_by_one(batch).await
                }
                written => written.map(|written| {
                    if written < batch.len() as u64 {
                        tracing::debug!(
                            results = batch.len(),
                            written,
                            "results of jobs no longer held were dropped"
                        );
                    }
                }),
            };
            match written {
                Ok(()) => return,
                Err(err) => {
                    tracing::warn!(results = batch.len(), error = %domain::infra::telemetry::Loggable(&err), "could not write job results; trying again");
                    tokio::time::sleep(retry.delay()).await;
                }
            }
        }
    }

    /// Each result alone; one the database refuses is written without its value, so the
    /// job still ends as it did. A result that cannot be written at all is left: its job
    /// stays held and runs again once its worker is gone. Fails only when the database
    /// went away meanwhile, for the caller to try the whole batch again once it is back
    /// (rewriting a result already written changes nothing: its hold still stands).
    async fn write_one_by_one(&self, batch: &[Completion]) -> sqlx::Result<()> {
        for completion in batch {
            let refused = match write_results(&self.db, std::slice::from_ref(completion)).await {
                Err(err) if database_away(&err) => return Err(err),
                Err(sqlx::Error::Database(err)) => err,
                Ok(_) | Err(_) => continue,
            };
            tracing::error!(job = %completion.id, error = %domain::infra::telemetry::Loggable(&*refused), "job result refused; written without its value");
            let bare = Completion {
                result: if completion.status == "Done" {
                    json!({ "Ok": null })
                } else {
                    json!({ "Err": "O resultado da tarefa não pôde ser gravado." })
                },
                ..completion.clone()
            };
            match write_results(&self.db, &[bare]).await {
                Err(err) if database_away(&err) => return Err(err),
                Err(err) => {
                    tracing::error!(job = %completion.id, error = %domain::infra::telemetry::Loggable(&err), "job result not written");
                }
                Ok(_) => {}
            }
        }
        Ok(())
    }
}

/// One UPDATE for the whole batch, each row found by its primary key and written only
/// while the same hold stands: the holder and the fetch time name the attempt, and every
/// other way out of it (rescue, release, re-run) clears the holder. No status test: one
/// lets the planner walk every held job through `idx_apalis_jobs_held_by` for each
/// result, which with stale statistics (few jobs held when last analyzed) it chose, and a
/// backlog of results then grew the very list each write walked.
async fn write_results(db: &PgPool, batch: &[Completion]) -> sqlx::Result<u64> {
    let ids: Vec<&str> = batch.iter().map(|c| c.id.as_str()).collect();
    let workers: Vec<&str> = batch.iter().map(|c| &*c.worker).collect();
    let lock_ats: Vec<DateTime<Utc>> = batch.iter().map(|c| c.lock_at).collect();
    let statuses: Vec<&str> = batch.iter().map(|c| c.status.as_str()).collect();
    let attempts: Vec<i32> = batch.iter().map(|c| c.attempts).collect();
    let results: Vec<&Value> = batch.iter().map(|c| &c.result).collect();
    let written = sqlx::query(
        "UPDATE apalis.jobs j
         SET status = d.status, attempts = d.attempts, last_result = d.result, done_at = now()
         FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::int4[],
                     $6::jsonb[]) AS d(id, worker, lock_at, status, attempts, result)
         WHERE j.id = d.id AND j.lock_by = d.worker AND j.lock_at = d.lock_at",
    )
    .bind(ids)
    .bind(workers)
    .bind(lock_ats)
    .bind(statuses)
    .bind(attempts)
    .bind(results)
    .execute(db)
    .await?;
    Ok(written.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORKER: &str = "canary@test:1#0";

    /// A job taken by [`WORKER`], as the fetch leaves it; answers its hold's time.
    async fn held(db: &PgPool, id: &str) -> DateTime<Utc> {
        sqlx::query_scalar(
            "INSERT INTO apalis.jobs (id, job_type, job, status, lock_by, lock_at)
             VALUES ($1, 'canary', convert_to('{}', 'UTF8'), 'Running', $2, now())
             RETURNING lock_at",
        )
        .bind(id)
        .bind(WORKER)
        .fetch_one(db)
        .await
        .expect("held job")
    }

    fn done(id: &str, lock_at: DateTime<Utc>, value: Value) -> Completion {
        Completion {
            id: id.into(),
            worker: Arc::from(WORKER),
            lock_at,
            status: "Done".into(),
            attempts: 1,
            result: json!({ "Ok": value }),
        }
    }

    async fn rows(db: &PgPool) -> Vec<(String, String, Option<Value>)> {
        sqlx::query_as("SELECT id, status, last_result FROM apalis.jobs ORDER BY id")
            .fetch_all(db)
            .await
            .expect("rows")
    }

    #[testkit::db_test]
    async fn a_result_the_database_refuses_does_not_hold_back_the_others(db: PgPool) {
        let (bad, good) = ("01J0AC00000000000000000BAD", "01J0AC0000000000000000G00D");
        let bad_hold = held(&db, bad).await;
        let good_hold = held(&db, good).await;
        let (acks, writer) = channel(db.clone());
        let writer = tokio::spawn(writer.run());
        // jsonb cannot hold the NUL character.
        acks.send(done(bad, bad_hold, json!({ "text": "a\u{0}b" })));
        acks.send(done(good, good_hold, json!({ "written": true })));
        tokio::time::timeout(std::time::Duration::from_secs(10), acks.flush())
            .await
            .expect("the refused result did not block the writer");

        assert_eq!(
            rows(&db).await,
            [
                (bad.into(), "Done".into(), Some(json!({ "Ok": null }))),
                (
                    good.into(),
                    "Done".into(),
                    Some(json!({ "Ok": { "written": true } }))
                ),
            ]
        );
        drop(acks);
        writer.await.expect("the writer ends with its senders");
    }

    #[testkit::db_test]
    async fn a_result_is_written_only_over_the_hold_it_was_fetched_under(db: PgPool) {
        let id = "01J0AC00000000000000000H1D";
        let first_hold = held(&db, id).await;
        // The same worker took the job again since (rescued while it was silent).
        sqlx::query("UPDATE apalis.jobs SET lock_at = lock_at + interval '1 second' WHERE id = $1")
            .bind(id)
            .execute(&db)
            .await
            .expect("taken again");
        let stale = done(id, first_hold, json!({}));
        assert_eq!(write_results(&db, &[stale]).await.expect("write"), 0);
        let current = done(id, first_hold + chrono::Duration::seconds(1), json!({}));
        assert_eq!(write_results(&db, &[current]).await.expect("write"), 1);
        assert_eq!(rows(&db).await[0].1, "Done");
    }
}
