//! The member services' jobs (docs/api-services.md "Jobs").

pub mod appointment_reminders;
