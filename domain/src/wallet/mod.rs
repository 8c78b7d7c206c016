//! The wallet: members' points and cashback as an append-only ledger of credit lots and
//! spends (see migrations/20261121000009_wallet.sql for the invariants).

pub mod ledger;
pub mod release;
pub mod rewards;
pub mod rules;
pub mod topups;
