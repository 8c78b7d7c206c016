//! The wallet's jobs: crediting points and cashback (every credit a use case asks for
//! through the outbox's `credit_points`), and the scheduled cashback release.

pub mod cashback_release;
pub mod points_credit;
