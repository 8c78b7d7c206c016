//! Plans and subscriptions' use cases. `billing`: the engine (charging a period once, the
//! provider's later answers, dunning's retries, the dispatcher of renewals and reminders).
//! Beside it, the member's and staff's changes: `subscribe` (buying, changing plan,
//! cancelling, the card, the enterprise form), `cards` (the card a subscription pays with),
//! `console` (staff's retry and cancel).

pub mod billing;
pub mod cards;
pub mod console;
pub mod subscribe;
