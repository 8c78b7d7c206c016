//! Waking a queue's fetcher the moment a due job is committed: one LISTEN connection per
//! process, one [`Notify`] per queue worker.
//!
//! A wake-up must never be lost. apalis' poll strategy takes a wake-up while a fetch is
//! in flight and drops it; a job committed after that fetch's snapshot then waited for
//! the next poll (up to a second). A [`Notify`] keeps one permit for a fetcher that is
//! busy, so its next wait returns at once and it fetches again, after the commit.

use serde::Deserialize;
use sqlx::PgPool;
use sqlx::postgres::PgListener;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use tokio::sync::Notify;

use super::Retry;

/// The channel of apalis' insert trigger, whose payload our migration narrowed to
/// `{"job_type": ...}` (identical notifications of one transaction fold into one).
pub(crate) const INSERT_CHANNEL: &str = "apalis::job::insert";

/// The queue workers' wake-ups, by queue. A worker that restarts subscribes again; the
/// wake-up of the one it replaces is dropped with it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Wakeups {
    queues: Arc<Mutex<HashMap<String, Vec<Weak<Notify>>>>>,
}

impl Wakeups {
    pub(crate) fn subscribe(&self, queue: &str) -> Arc<Notify> {
        let wakeup = Arc::new(Notify::new());
        self.lock()
            .entry(queue.to_string())
            .or_default()
            .push(Arc::downgrade(&wakeup));
        wakeup
    }

    /// Wakes the queue's workers; false when this process runs no such queue.
    pub(crate) fn wake(&self, queue: &str) -> bool {
        let mut queues = self.lock();
        let Some(subscribers) = queues.get_mut(queue) else {
            return false;
        };
        subscribers.retain(|subscriber| match subscriber.upgrade() {
            Some(wakeup) => {
                wakeup.notify_one();
                true
            }
            None => false,
        });
        true
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<Weak<Notify>>>> {
        // The map holds no invariant a panicking holder could break.
        self.queues.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[derive(Deserialize)]
struct Inserted {
    job_type: String,
}

/// Holds the process' LISTEN connection and wakes the queue of every job announced.
/// Without it (connection lost, database restarting) the workers still poll.
pub(crate) async fn listen(db: PgPool, wakeups: Wakeups) {
    let mut retry = Retry::new();
    loop {
        let mut listener = match connect(&db).await {
            Ok(listener) => listener,
            Err(err) => {
                tracing::warn!(error = %err, "could not LISTEN for new jobs");
                tokio::time::sleep(retry.delay()).await;
                continue;
            }
        };
        retry.reset();
        loop {
            // `recv` reconnects by itself after a lost connection (notifications sent
            // meanwhile are lost; the poll finds those jobs).
            match listener.recv().await {
                Ok(notification) => {
                    match serde_json::from_str::<Inserted>(notification.payload()) {
                        Ok(inserted) => {
                            let woken = wakeups.wake(&inserted.job_type);
                            tracing::debug!(queue = %inserted.job_type, woken, "job inserted");
                        }
                        Err(err) => tracing::warn!(error = %err, "unreadable job notification"),
                    }
                }
                Err(err) => {
                    tracing::warn!(error = %err, "LISTEN connection failed; reconnecting");
                    tokio::time::sleep(retry.delay()).await;
                    break;
                }
            }
        }
    }
}

async fn connect(db: &PgPool) -> sqlx::Result<PgListener> {
    let mut listener = PgListener::connect_with(db).await?;
    listener.listen(INSERT_CHANNEL).await?;
    Ok(listener)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn a_wake_up_while_the_fetcher_is_busy_is_kept_for_its_next_wait() {
        let wakeups = Wakeups::default();
        let wakeup = wakeups.subscribe("q");
        // The fetcher is not waiting (a fetch is in flight) when the job is announced.
        assert!(wakeups.wake("q"));
        tokio::time::timeout(Duration::from_millis(100), wakeup.notified())
            .await
            .expect("the wake-up was kept");
        // One permit only: a burst of notifications is one more fetch, not many.
        assert!(wakeups.wake("q") && wakeups.wake("q"));
        wakeup.notified().await;
        assert!(
            tokio::time::timeout(Duration::from_millis(50), wakeup.notified())
                .await
                .is_err()
        );
    }

    #[tokio::test]
    async fn a_dropped_worker_is_forgotten_and_other_queues_are_not_woken() {
        let wakeups = Wakeups::default();
        let kept = wakeups.subscribe("q");
        drop(wakeups.subscribe("q"));
        assert!(wakeups.wake("q"));
        assert_eq!(wakeups.lock()["q"].len(), 1);
        assert!(!wakeups.wake("other"));
        kept.notified().await;
    }
}
