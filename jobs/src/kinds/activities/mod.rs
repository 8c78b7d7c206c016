//! The activities' jobs: granting trophies, on each participation and nightly, and lucky
//! numbers on each participation a giveaway campaign counts. What a participation queues
//! is decided by `app::activities::after_participation`.

pub mod lucky_numbers_grant;
pub mod trophies_grant;
