//! Delivery work any area asks for: e-mail (`mail.send`) carries activation codes, reset
//! links, invitations, receipts and late-payment notices, so it belongs to no single area;
//! use cases queue it through `app::mail`.

pub mod mail_send;
