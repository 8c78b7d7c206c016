//! Engagement: sharing and the credits of share visits.

pub mod sharing;
