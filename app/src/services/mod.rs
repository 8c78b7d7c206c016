//! Member services (docs/api-services.md): a member's requests to a station's desks and
//! their cancellations, each with its e-mails on the change's transaction.

pub mod appointments;
