//! What talks to the outside world or runs the process and has not moved to an adapter crate
//! yet: configuration, the database pool, e-mail, object storage, images, captcha,
//! telemetry, what an upload really is. Payment providers, PDFs, ffmpeg and the demo seed
//! live in the `payments`, `documents`, `media` and `seed` crates.

pub mod captcha;
pub mod cep;
pub mod config;
pub mod db;
pub mod ibge;
pub mod images;
pub mod mail;
pub mod objects;
pub mod process;
pub mod telemetry;
pub mod uploads;
pub mod variants;
