//! The billing engine's jobs (`app::subscriptions::billing`): `subscriptions.dispatch`
//! (cron, every minute: period ends and the due charges), `subscriptions.charge` (one try
//! of one period) and `subscriptions.card_reminder` (daily: saved cards expiring before
//! the renewal they pay).

pub mod card_reminder;
pub mod charge;
pub mod dispatch;
