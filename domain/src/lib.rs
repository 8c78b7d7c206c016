//! Filia's business core. Everything here is free of HTTP and of the job runner, so the API,
//! the workers and the tests share one definition of every rule.
//!
//! Laid out by business area, with the same names as `api/src/routes/` and
//! `jobs/src/kinds/`: each area owns its entities, queries and rules; `shared` holds value
//! types and validators every area uses; `infra` holds what talks to the outside world.

pub mod accounts;
pub mod activities;
pub mod calendar;
pub mod commerce;
pub mod content;
pub mod feed;
pub mod fuel;
pub mod infra;
pub mod political;
pub mod services;
pub mod shared;
pub mod staff;
pub mod stations;
pub mod subscriptions;
pub mod support;
pub mod wallet;

pub use infra::config::Config;
