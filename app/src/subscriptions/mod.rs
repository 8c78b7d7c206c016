//! Plans and subscriptions (docs/decisions.md "Subscriptions"): what a member does to
//! their subscriptions (`subscribe`), the card a subscription pays with (`cards`), and the
//! billing engine that charges periods (`billing`).

pub mod billing;
pub mod cards;
pub mod console;
pub mod subscribe;
