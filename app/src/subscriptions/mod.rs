//! Plans and subscriptions' use cases. `billing`: the engine (charging a period once, the
//! provider's later answers, dunning's retries, the dispatcher of renewals and reminders).
//! The member's and staff's changes (subscribing, changing plan, cancelling) sit beside it.

pub mod billing;
