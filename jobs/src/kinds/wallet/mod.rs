//! The wallet's jobs: crediting points and cashback (every credit a use case asks for
//! through the outbox's `credit_points`), the scheduled cashback release, and the end of a
//! top-up left unpaid or unconfirmed.

pub mod cashback_release;
pub mod points_credit;
pub mod topup_expire;
