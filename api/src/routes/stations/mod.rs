//! Stations: host resolution (`/api/config`) and a station's public branding.

pub mod branding;
pub mod site;
