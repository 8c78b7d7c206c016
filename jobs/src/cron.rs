//! Schedules declared in code. Every worker process ticks every schedule, and each tick is
//! enqueued with an idempotency key made of the schedule's name and the tick's time, so
//! however many processes run, one job exists per tick (apalis' own cron fires once per
//! process).

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;
use std::sync::Arc;

use chrono::{DateTime, SecondsFormat, Utc};
use sqlx::PgPool;
use tokio::sync::watch;

use crate::backend::Retry;
use crate::enqueue::{Enqueue, Enqueued};
use crate::job::Job;

type Push = Arc<
    dyn Fn(PgPool, DateTime<Utc>) -> Pin<Box<dyn Future<Output = sqlx::Result<Enqueued>> + Send>>
        + Send
        + Sync,
>;

/// A named schedule: a cron expression with seconds (`sec min hour day month weekday`) and
/// the job each tick enqueues.
#[derive(Clone)]
pub struct Schedule {
    pub name: &'static str,
    pub expression: cron::Schedule,
    push: Push,
}

impl fmt::Debug for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schedule")
            .field("name", &self.name)
            .field("expression", &self.expression.to_string())
            .finish()
    }
}

#[derive(Debug, thiserror::Error)]
#[error("invalid cron expression for {variable}: {reason}")]
pub struct ScheduleError {
    pub variable: String,
    pub reason: String,
}

impl Schedule {
    /// Declares a schedule. `FILIA_CRON_<NAME>` (name upper-cased, `-` as `_`) replaces the
    /// expression in `lookup`; `off` there disables the schedule in that process.
    pub fn declare<J: Job>(
        name: &'static str,
        default_expression: &str,
        lookup: &impl Fn(&str) -> Option<String>,
        job_for_tick: fn(DateTime<Utc>) -> J,
    ) -> Result<Option<Self>, ScheduleError> {
        let variable = format!("FILIA_CRON_{}", name.to_uppercase().replace('-', "_"));
        let expression = lookup(&variable).unwrap_or_else(|| default_expression.to_string());
        if expression.trim() == "off" {
            return Ok(None);
        }
        let expression = cron::Schedule::from_str(&expression).map_err(|err| ScheduleError {
            variable,
            reason: err.to_string(),
        })?;
        let push: Push = Arc::new(move |db, tick| {
            Box::pin(async move {
                let key = format!(
                    "cron:{name}:{}",
                    tick.to_rfc3339_opts(SecondsFormat::Secs, true)
                );
                Enqueue::new(job_for_tick(tick))
                    .idempotency_key(key)
                    .run_at(tick)
                    .commit(&db)
                    .await
            })
        });
        Ok(Some(Self {
            name,
            expression,
            push,
        }))
    }

    /// Enqueues the job of one tick; a tick another process already enqueued is a no-op.
    pub async fn fire(&self, db: &PgPool, tick: DateTime<Utc>) -> sqlx::Result<Enqueued> {
        (self.push)(db.clone(), tick).await
    }
}

/// Ticks every schedule until `stopped` turns true.
pub async fn tick_forever(db: PgPool, schedules: Vec<Schedule>, stopped: watch::Receiver<bool>) {
    let tickers: Vec<_> = schedules
        .into_iter()
        .map(|schedule| tokio::spawn(tick(db.clone(), schedule, stopped.clone())))
        .collect();
    for ticker in tickers {
        let _ = ticker.await;
    }
}

async fn tick(db: PgPool, schedule: Schedule, mut stopped: watch::Receiver<bool>) {
    loop {
        let now = Utc::now();
        let Some(next) = schedule.expression.after(&now).next() else {
            return;
        };
        let wait = (next - now).to_std().unwrap_or_default();
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            _ = stopped.changed() => return,
        }
        // Tried until the database takes it: the tick's key makes a late or repeated
        // enqueue one job. Ticks that fell due meanwhile are not made up for (the next one
        // is counted from now): each schedule's job looks at the time it runs.
        let mut retry = Retry::new();
        loop {
            match schedule.fire(&db, next).await {
                Ok(job) if job.created => {
                    tracing::info!(schedule = schedule.name, %next, job = %job.id, "cron tick enqueued");
                }
                Ok(_) => tracing::debug!(schedule = schedule.name, %next, "tick already enqueued"),
                Err(err) => {
                    tracing::warn!(schedule = schedule.name, %next, error = %domain::infra::telemetry::Loggable(&err), "cron tick not enqueued; trying again");
                    tokio::select! {
                        () = tokio::time::sleep(retry.delay()) => continue,
                        _ = stopped.changed() => return,
                    }
                }
            }
            break;
        }
    }
}
