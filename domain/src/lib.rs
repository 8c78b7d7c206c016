//! Filia's business core. Everything here is free of HTTP and of the job runner, so the API,
//! the workers and the tests share one definition of every rule.

pub mod activation;
pub mod affiliate;
pub mod captcha;
pub mod cnpj;
pub mod config;
pub mod cpf;
pub mod db;
pub mod demo;
pub mod images;
pub mod mail;
pub mod mailing;
pub mod mgm;
pub mod objects;
pub mod password;
pub mod process;
pub mod profile;
pub mod recovery;
pub mod secret;
pub mod session;
pub mod sharing;
pub mod signup;
pub mod staff;
pub mod station;
pub mod telemetry;
pub mod user;
pub mod validate;
pub mod wallet;

pub use config::Config;
pub use secret::Secret;
