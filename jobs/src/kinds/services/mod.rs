//! Member services' jobs (docs/api-services.md "Jobs").

pub mod import;
