//! Every job kind, one module each, and the schedules that enqueue some of them. A new kind
//! is a module here plus its type in the `kinds!` list below.

pub mod canary;
pub mod cashback_release;
pub mod mail_send;
pub mod points_credit;
pub mod retention;

pub use canary::Canary;
pub use cashback_release::{CashbackDispatch, CashbackRelease};
pub use mail_send::MailSend;
pub use points_credit::PointsCredit;
pub use retention::Retention;

use crate::cron::{Schedule, ScheduleError};
use crate::fleet::Fleet;
use crate::job::Job;

/// One list of kinds gives both the fleet's workers and the queue names.
macro_rules! kinds {
    ($($kind:ty),* $(,)?) => {
        pub(crate) fn register_all(fleet: Fleet) -> Fleet {
            fleet $(.kind::<$kind>())*
        }

        /// Jobs a worker process runs at once, every kind together: it sizes its pool by
        /// this.
        pub const CONCURRENCY: usize = 0 $(+ <$kind as Job>::CONCURRENCY)*;

        /// Every queue a fleet runs.
        pub const QUEUES: &[&str] = &[$(<$kind as Job>::QUEUE),*];
    };
}

kinds!(
    Canary,
    MailSend,
    Retention,
    PointsCredit,
    CashbackRelease,
    CashbackDispatch,
);

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
        // Each station releases cashback on its own schedule (cashback_schedules); this
        // tick finds the stations whose schedule is due.
        Schedule::declare("cashback-dispatch", "30 * * * * *", lookup, |tick| {
            CashbackDispatch { tick }
        })?,
    ];
    Ok(declared.into_iter().flatten().collect())
}
