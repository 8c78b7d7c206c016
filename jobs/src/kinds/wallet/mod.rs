//! The wallet's jobs: crediting points and cashback, and the scheduled cashback release.

pub mod cashback_release;
pub mod points_credit;
