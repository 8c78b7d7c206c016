//! Engagement: what members do to earn, starting with sharing the station's links.

pub mod sharing;
