//! The job platform's and the job kinds' integration tests, one binary (one link) with a
//! module per area, each on a database of its own (`#[testkit::db_test]`).

mod common;

mod cashback_release;
mod commerce_after_payment;
mod console;
mod fleet;
mod fuel;
mod image_variants;
mod job_errors;
mod mail_send;
mod member_card;
mod points_credit;
mod queue;
mod reservation_release;
mod retention;
mod service_imports;
mod services;
mod subscriptions;
mod topups;
mod video_transcode;
