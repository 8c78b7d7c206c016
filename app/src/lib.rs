//! Filia's use cases, by business area (the same names as `domain/src/`).
//!
//! A use case owns one change from start to end: it opens the transaction, calls the
//! area's rules (`domain`) on it, calls the payment provider outside any transaction, and
//! asks for the background work the change needs through the [`Outbox`], on the same
//! transaction, so the rows and their jobs commit together. HTTP handlers (`api`) and job
//! kinds (`jobs`) call use cases; the job platform implements the [`Outbox`], so this crate
//! knows no job runner.

pub mod accounts;
pub mod activities;
pub mod commerce;
pub mod feed;
pub mod fuel;
pub mod mail;
pub mod outbox;
pub mod services;
pub mod subscriptions;
pub mod support;
pub mod wallet;

pub use outbox::{Outbox, Queued};
