//! Engagement: what members do to earn: the activities catalogue, taking part in an
//! activity, and sharing the station's links.

pub mod activities;
pub mod participation;
pub mod sharing;
