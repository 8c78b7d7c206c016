//! Every job kind, one module each, grouped by the business area that owns it (the same
//! names as `domain/src/` and `app/src/`), and the schedules that enqueue some of them. A
//! kind is its payload, queue and limits, and a handler that calls the area's use case
//! (`app`) or rule (`domain`) and says whether a failure is worth retrying; the use cases
//! ask for kinds through [`crate::JobOutbox`]. A new kind is a module in its area's folder
//! plus its type in the `kinds!` list below.
//!
//! `platform` holds the kinds that keep the job platform itself healthy; `infra` holds
//! delivery work any area asks for (e-mail, image variants), as `domain::infra` does.

pub mod accounts;
pub mod activities;
pub mod commerce;
pub mod feed;
pub mod fuel;
pub mod infra;
pub mod platform;
pub mod services;
pub mod subscriptions;
pub mod wallet;

pub use accounts::member_card_pdf::MemberCardPdf;
pub use activities::lucky_numbers_grant::LuckyNumbersGrant;
pub use activities::trophies_grant::TrophiesGrant;
pub use commerce::card_delete::CardDelete;
pub use commerce::card_reminder::CardsExpiryReminder;
pub use commerce::order_confirm::OrderConfirm;
pub use commerce::payment_sync::PaymentSync;
pub use commerce::pix_expire::PixExpire;
pub use commerce::receipt_pdf::ReceiptPdf;
pub use commerce::refund::OrderRefund;
pub use commerce::reservation_release::ReservationRelease;
pub use commerce::sandbox_delivery::SandboxDeliver;
pub use commerce::voucher_pdf::VoucherPdf;
pub use feed::uploads_cleanup::UploadsCleanup;
pub use feed::video_transcode::VideoTranscode;
pub use fuel::voucher_expiry::FuelVoucherExpiry;
pub use infra::image_variants::ImageVariants;
pub use infra::mail_send::MailSend;
pub use platform::canary::Canary;
pub use platform::retention::Retention;
pub use services::appointment_reminders::AppointmentReminders;
pub use services::import::ServicesImport;
pub use subscriptions::card_reminder::SubscriptionsCardReminder;
pub use subscriptions::charge::SubscriptionCharge;
pub use subscriptions::dispatch::SubscriptionsDispatch;
pub use wallet::cashback_release::{CashbackDispatch, CashbackRelease};
pub use wallet::points_credit::PointsCredit;
pub use wallet::topup_expire::TopUpExpire;
pub use wallet::topup_refund::TopUpRefund;

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
    ImageVariants,
    Retention,
    PointsCredit,
    CashbackRelease,
    CashbackDispatch,
    ReservationRelease,
    OrderConfirm,
    ReceiptPdf,
    VoucherPdf,
    MemberCardPdf,
    OrderRefund,
    PixExpire,
    PaymentSync,
    SandboxDeliver,
    TrophiesGrant,
    LuckyNumbersGrant,
    VideoTranscode,
    UploadsCleanup,
    SubscriptionsDispatch,
    SubscriptionCharge,
    SubscriptionsCardReminder,
    CardsExpiryReminder,
    CardDelete,
    TopUpExpire,
    TopUpRefund,
    FuelVoucherExpiry,
    ServicesImport,
    AppointmentReminders,
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
        // Trophies whose rules members meet without a new participation (a trophy created
        // after the participations that earn it); each participation grants its own.
        Schedule::declare("trophies-backfill", "0 40 3 * * *", lookup, |_| {
            TrophiesGrant::default()
        })?,
        // Lucky numbers campaigns owe participations made before they were created.
        Schedule::declare("lucky-numbers-backfill", "0 50 3 * * *", lookup, |_| {
            LuckyNumbersGrant::default()
        })?,
        // Subscriptions: period ends, renewals and the charges that fell due, at the
        // provider's time; each period is charged once however many ticks see it.
        Schedule::declare("subscriptions-dispatch", "15 * * * * *", lookup, |tick| {
            SubscriptionsDispatch { tick }
        })?,
        // Saved cards that expire before the renewal they pay: one e-mail per card and
        // expiry.
        Schedule::declare(
            "subscriptions-card-reminder",
            "0 0 12 * * *",
            lookup,
            |tick| SubscriptionsCardReminder { tick },
        )?,
        // Every saved card about to expire, on the 1st of the month: one e-mail per card
        // and expiry, shared with the subscriptions' reminder.
        Schedule::declare("cards-expiry-reminder", "0 0 12 1 * *", lookup, |tick| {
            CardsExpiryReminder { tick }
        })?,
        // Video uploads left unfinished, stuck or unposted, and the upload area's
        // leftovers: hourly, so a video stuck processing is settled within the hour.
        Schedule::declare("uploads-cleanup", "0 20 * * * *", lookup, |_| {
            UploadsCleanup::default()
        })?,
        // Fuel vouchers past their validity, hourly: the member's list reads them expired
        // at once; this keeps the stored status true.
        Schedule::declare("fuel-voucher-expiry", "0 5 * * * *", lookup, |_| {
            FuelVoucherExpiry::default()
        })?,
        // Member services: confirmed appointments that start the next day in their
        // station's time zone, each member reminded once.
        Schedule::declare("appointment-reminders", "0 10 * * * *", lookup, |_| {
            AppointmentReminders::default()
        })?,
        // The sandbox provider's webhook outbox, posted to our own endpoint (late and
        // duplicate deliveries, cards that settle later); nothing to do with Pagar.me.
        if lookup("FILIA_PAYMENTS").is_some_and(|p| p.trim() == "pagarme") {
            None
        } else {
            Schedule::declare("sandbox-deliver", "*/3 * * * * *", lookup, |tick| {
                SandboxDeliver { tick: Some(tick) }
            })?
        },
    ];
    Ok(declared.into_iter().flatten().collect())
}
