//! Stations: the branded programmes one deployment serves, their branding and which host
//! name belongs to which.

pub mod station;

/// The answer to a request naming a station that does not exist (or is not this host's).
pub const STATION_NOT_FOUND: &str = "Estação não encontrada";
