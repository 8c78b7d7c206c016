//! Builders for the rows most tests start from, so a test names only what matters to it and
//! the columns it leaves alone take the schema's defaults: `station("clube").insert(&db)`,
//! `member(station_id).email("maria@example.com").insert(&db)`,
//! `activity(station_id).type_id(20).insert(&db)`.
//!
//! One module per kind of row; each area's builders beside the others.

mod activity;
mod member;
mod product;
mod station;

pub use activity::{Activity, activity};
pub use member::{Member, member};
pub use product::{Product, product};
pub use station::{Station, station};
