//! The shop's jobs: releasing a checkout's hold at its expiry.

pub mod reservation_release;
