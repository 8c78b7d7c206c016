//! Every job kind, one module each, and the schedules that enqueue some of them. A new kind
//! is a module here plus one line in [`register_all`].

pub mod canary;
pub mod mail_send;
pub mod retention;

pub use canary::Canary;
pub use mail_send::MailSend;
pub use retention::Retention;

use crate::cron::{Schedule, ScheduleError};
use crate::fleet::Fleet;

pub(crate) fn register_all(fleet: Fleet) -> Fleet {
    fleet
        .kind::<Canary>()
        .kind::<MailSend>()
        .kind::<Retention>()
}

/// The schedules, each overridable by `FILIA_CRON_<NAME>` in `lookup`.
pub fn schedules(lookup: &impl Fn(&str) -> Option<String>) -> Result<Vec<Schedule>, ScheduleError> {
    let declared = [
        // Proves every minute that the fleet picks up and runs jobs.
        Schedule::declare("canary", "0 * * * * *", lookup, |tick| Canary {
            key: Some(format!("cron:{}", tick.timestamp())),
            ..Canary::default()
        })?,
        Schedule::declare("jobs-retention", "0 15 3 * * *", lookup, |_| {
            Retention::default()
        })?,
    ];
    Ok(declared.into_iter().flatten().collect())
}
