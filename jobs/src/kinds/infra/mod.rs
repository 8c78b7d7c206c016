//! Delivery work any area asks for: e-mail (`mail.send`) carries activation codes, reset
//! links and, later, receipts, so it belongs to no single area.

pub mod mail_send;
