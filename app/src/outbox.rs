//! The background work a use case asks for, as the job platform receives it. Each effect
//! is recorded on the caller's transaction (the one that makes the change needing it), so a
//! committed change always has its work queued and a rolled-back one never has any. The
//! platform decides how each is run (queue, key, retries); `app` only names the effect.

use std::future::Future;

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use domain::accounts::change::Mail;
use domain::commerce::payment::ChargePart;
use domain::commerce::refunds::Requested;
use domain::feed::videos::Video;
use domain::subscriptions::billing::DueCharge;
use domain::wallet::ledger::Credit;
use domain::wallet::topups::TopUp;

/// The job an effect is queued as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued {
    pub job_id: String,
    /// Whether this call put work in a queue: false when the effect's key already held a
    /// job that will do it (or did it).
    pub new: bool,
}

/// The job platform, as use cases see it. Every effect is idempotent by its own key where
/// it has one, so a use case run twice (a retried job, a request sent twice) asks for each
/// effect twice and gets it once.
pub trait Outbox: Sync {
    /// Delivers a rendered e-mail; with `once_key`, at most one delivery per key ever.
    fn send_mail(
        &self,
        tx: &mut PgConnection,
        mail: Mail,
        once_key: Option<String>,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Confirms a paid order (vouchers, cashback, receipt e-mail, PDFs), once per order.
    fn confirm_order(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        order_id: i64,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Renders the order's receipt PDF (again after a refund changes it).
    fn make_receipt(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        order_id: i64,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Renders a voucher's PDF.
    fn make_voucher(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        voucher_id: i64,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Renders the member's card PDF, once per version of the card (`fingerprint`).
    fn make_member_card(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        fingerprint: &str,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Ends the part's PIX charge at `expires_at` unless it was paid by then.
    fn expire_pix(
        &self,
        tx: &mut PgConnection,
        part: &ChargePart,
        expires_at: DateTime<Utc>,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Releases a checkout's hold at `expires_at` unless it is live again by then.
    fn release_hold(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        checkout_id: i64,
        expires_at: DateTime<Utc>,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Looks at a part again at `at`, in case its charge was never recorded (a crash
    /// between the order's commit and the provider's answer).
    fn recover_payment(
        &self,
        tx: &mut PgConnection,
        part: &ChargePart,
        at: DateTime<Utc>,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Reads a charge again at the provider and applies what it says (a webhook named it).
    fn sync_payment(
        &self,
        tx: &mut PgConnection,
        charge_id: &str,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Makes a refund staff asked for (`commerce::refunds::make`), once per refund.
    fn make_refund(
        &self,
        tx: &mut PgConnection,
        requested: &Requested,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Writes a credit lot into a member's wallet, once per credit key.
    fn credit_points(
        &self,
        tx: &mut PgConnection,
        credit: Credit,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Grants the trophies the member of a participation now earns.
    fn grant_trophies(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        participation_id: i64,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Gives a participation its numbers in the giveaway campaigns that owe it one.
    fn grant_lucky_numbers(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        participation_id: i64,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Transcodes a whole video upload into what the feed plays, once per upload.
    fn transcode_video(
        &self,
        tx: &mut PgConnection,
        video: &Video,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Makes the narrower copies of a stored image visitors or members see (the
    /// `srcset`), once per image; `station_id` is whose image it is, for the console.
    fn make_image_variants(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        key: &str,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Deletes a removed saved card at the payment provider, after `removed_at` (once per
    /// removal: a card saved again and removed again is deleted again).
    fn delete_saved_card(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        card_id: i64,
        removed_at: DateTime<Utc>,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Charges a subscription's period (`app::subscriptions::billing::charge_try`), once per
    /// period, try and moment it fell due.
    fn charge_subscription_period(
        &self,
        tx: &mut PgConnection,
        due: &DueCharge,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Refunds a rejected or refunded top-up's charge whole at the provider, asking again
    /// while the provider does not take it (once per top-up).
    fn refund_topup(
        &self,
        tx: &mut PgConnection,
        topup: &TopUp,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;

    /// Ends a top-up at `at` unless its money came (or staff confirmed it) by then: the
    /// PIX's charge is read first, a transfer request's member is told it expired.
    fn expire_topup(
        &self,
        tx: &mut PgConnection,
        topup: &TopUp,
        at: DateTime<Utc>,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;
    /// Imports a CSV a desk's staff sent (`services.import`), once per import.
    fn import_services(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        import_id: i64,
    ) -> impl Future<Output = sqlx::Result<Queued>> + Send;
}
