//! Filia's business core. Everything here is free of HTTP and of the job runner, so the API,
//! the workers and the tests share one definition of every rule.

pub mod cnpj;
pub mod config;
pub mod cpf;
pub mod db;
pub mod demo;
pub mod mail;
pub mod password;
pub mod process;
pub mod secret;
pub mod session;
pub mod station;
pub mod telemetry;
pub mod user;
pub mod validate;

pub use config::Config;
pub use secret::Secret;
