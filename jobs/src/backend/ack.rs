//! Writing finished attempts back, many jobs per statement.
//!
//! A handler's result goes to the process' one writer ([`Acks::run`]) and its slot is free
//! at once. The writer takes whatever has finished meanwhile and writes it in one UPDATE,
//! so a busy process writes dozens of results per round trip and an idle one writes each
//! result as soon as it comes. A process killed between finishing a job and writing its
//! result leaves the job Running under a worker that no longer heartbeats: the rescue puts
//! it back and it runs again, which is why every effect is keyed (at least once).

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgPool;
use tokio::sync::{mpsc, oneshot};

/// Results written by one statement at most.
const MAX_BATCH: usize = 1000;
/// After a failed write the batch is kept and written again after this, doubling to the last.
const RETRY: [Duration; 2] = [Duration::from_millis(100), Duration::from_secs(5)];

/// One finished attempt, as the worker that ran it saw it.
#[derive(Debug, Clone)]
pub(crate) struct Completion {
    pub id: String,
    /// The holder and the time of the fetch: a result is written only over the same hold,
    /// never over a later one (the job rescued and taken again meanwhile).
    pub worker: String,
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
            self.write(&mut batch).await;
            for done in flushes.drain(..) {
                let _ = done.send(());
            }
        }
    }

    /// Writes the batch, trying again until the database takes it: a result that is not
    /// written leaves its job to run again after a rescue.
    async fn write(&self, batch: &mut Vec<Completion>) {
        if batch.is_empty() {
            return;
        }
        let mut delay = RETRY[0];
        loop {
            match write_results(&self.db, batch).await {
                Ok(written) => {
                    if written < batch.len() as u64 {
                        tracing::debug!(
                            results = batch.len(),
                            written,
                            "results of jobs no longer held were dropped"
                        );
                    }
                    batch.clear();
                    return;
                }
                // The database refused the statement itself (a result jsonb cannot hold,
                // say): retrying cannot help, and would hold back every later result.
                Err(sqlx::Error::Database(_)) => {
                    self.write_one_by_one(batch).await;
                    batch.clear();
                    return;
                }
                Err(err) => {
                    tracing::warn!(results = batch.len(), error = %domain::infra::telemetry::Loggable(&err), "could not write job results; trying again");
                    tokio::time::sleep(delay).await;
                    delay = (delay * 2).min(RETRY[1]);
                }
            }
        }
    }
}

impl AckWriter {
    /// Each result alone; one the database refuses is written without its value, so the
    /// job still ends as it did. A result that cannot be written at all is left: its job
    /// stays held and runs again once its worker is gone.
    async fn write_one_by_one(&self, batch: &[Completion]) {
        for completion in batch {
            let refused = match write_results(&self.db, std::slice::from_ref(completion)).await {
                Err(sqlx::Error::Database(err)) => err,
                Ok(_) | Err(_) => continue,
            };
            tracing::error!(job = %completion.id, error = %domain::infra::telemetry::Loggable(&*refused), "job result refused; written without its value");
            let bare = Completion {
                result: if completion.status == "Done" {
                    serde_json::json!({ "Ok": null })
                } else {
                    serde_json::json!({ "Err": "O resultado da tarefa não pôde ser gravado." })
                },
                ..completion.clone()
            };
            if let Err(err) = write_results(&self.db, &[bare]).await {
                tracing::error!(job = %completion.id, error = %domain::infra::telemetry::Loggable(&err), "job result not written");
            }
        }
    }
}

/// One UPDATE for the whole batch, each row found by its primary key and written only
/// while the same hold stands. Rows go in id order, so two writers would never wait on
/// each other in a cycle.
pub(crate) async fn write_results(db: &PgPool, batch: &[Completion]) -> sqlx::Result<u64> {
    let mut sorted: Vec<&Completion> = batch.iter().collect();
    sorted.sort_unstable_by(|a, b| a.id.cmp(&b.id));
    let column = |f: fn(&Completion) -> String| sorted.iter().map(|c| f(c)).collect::<Vec<_>>();
    let ids = column(|c| c.id.clone());
    let workers = column(|c| c.worker.clone());
    let statuses = column(|c| c.status.clone());
    let lock_ats: Vec<DateTime<Utc>> = sorted.iter().map(|c| c.lock_at).collect();
    let attempts: Vec<i32> = sorted.iter().map(|c| c.attempts).collect();
    let results: Vec<Value> = sorted.iter().map(|c| c.result.clone()).collect();
    let written = sqlx::query(
        "UPDATE apalis.jobs j
         SET status = d.status, attempts = d.attempts, last_result = d.result, done_at = now()
         FROM (SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[],
                                    $5::int4[], $6::jsonb[])
                   AS d(id, worker, lock_at, status, attempts, result)
               ORDER BY id) d
         WHERE j.id = d.id AND j.status = 'Running' AND j.lock_by = d.worker
           AND j.lock_at = d.lock_at",
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
