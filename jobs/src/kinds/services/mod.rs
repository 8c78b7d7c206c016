//! Member services' jobs (docs/api-services.md "Jobs"): the desks' CSV imports and the
//! appointments' reminders.

pub mod appointment_reminders;
pub mod import;
