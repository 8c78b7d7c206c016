//! Delivery work any area asks for: e-mail (`mail.send`) carries activation codes, reset
//! links, invitations, receipts and late-payment notices, so it belongs to no single area;
//! use cases queue it through `app::mail`. The narrower copies of stored images
//! (`image.variants`) serve the landing, the news, the feed and profiles alike.

pub mod image_variants;
pub mod mail_send;
