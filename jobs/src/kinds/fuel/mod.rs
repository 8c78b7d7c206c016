//! The fuel campaign's jobs.

pub mod voucher_expiry;
