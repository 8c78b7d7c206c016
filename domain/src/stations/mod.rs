//! Stations: the branded programmes one deployment serves, their branding and which host
//! name belongs to which.

pub mod station;
