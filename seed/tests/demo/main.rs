//! The demo station's tests, one binary (one link): what each part of the demo holds, and
//! that seeding twice changes nothing.

mod calendar;
mod catalogue;
mod content;
mod feed;
mod fuel;
mod landing;
mod mail_branding;
mod seeds_once;
mod services;
mod shop;
mod subscriptions;
mod topups;
