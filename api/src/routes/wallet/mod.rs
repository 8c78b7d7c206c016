//! Wallet: the member's balance, statement and credits.

pub mod points;
