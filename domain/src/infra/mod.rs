//! What talks to the outside world or runs the process: configuration, the database pool,
//! e-mail, object storage, images, receipt and voucher PDFs, captcha, payment gateways,
//! telemetry, what an upload really is, video processing (ffmpeg), and the demo station's
//! seed.

pub mod captcha;
pub mod config;
pub mod db;
pub mod demo;
pub mod ffmpeg;
pub mod images;
pub mod mail;
pub mod objects;
pub mod payments;
pub mod pdf;
pub mod process;
pub mod telemetry;
pub mod uploads;
