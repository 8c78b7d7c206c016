//! The wallet's jobs: crediting points and cashback (every credit a use case asks for
//! through the outbox's `credit_points`), the scheduled cashback release, and the end of a
//! top-up left unpaid or unconfirmed, and the refund of a top-up staff gave back.

pub mod cashback_release;
pub mod points_credit;
pub mod topup_expire;
pub mod topup_refund;
