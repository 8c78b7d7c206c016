//! Member services (docs/api-services.md): a member's requests to a station's desks and
//! their cancellations, each with its e-mails on the change's transaction; the CSV imports
//! a desk sends.

pub mod appointments;
pub mod desk;
pub mod imports;
