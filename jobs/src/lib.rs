//! Filia's background jobs on apalis and PostgreSQL.
//!
//! A lean API records a request and enqueues a job in the same transaction
//! ([`Enqueue::push`]); the `workers` processes run them ([`fleet::run`]). Each kind of work
//! is a module in [`kinds`]: its payload type implements [`Job`] (queue, limits, handler).
//! What apalis leaves to us lives here too: exponential retry backoff (a database trigger),
//! per-attempt failures, owners and progress ([`state`]), cron that fires once per tick
//! across processes ([`cron`]), and retention.

pub mod backend;
pub mod console;
pub mod cron;
pub mod enqueue;
pub mod fleet;
pub mod job;
pub mod kinds;
pub mod outbox;
pub mod state;

pub use enqueue::{Enqueue, Enqueued, Owner};
pub use job::{Backoff, Effect, Job, JobContext, JobError, Outcome, Services};
pub use outbox::JobOutbox;
pub use state::{JobState, JobView};
