//! The job platform behind the use cases' [`app::Outbox`]: each effect is its kind's job,
//! enqueued on the use case's transaction with the owner, subject and key the kind keeps.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use app::Queued;
use domain::accounts::change::Mail;
use domain::commerce::payment::ChargePart;
use domain::commerce::refunds::Requested;
use domain::feed::videos::Video;
use domain::subscriptions::billing::DueCharge;
use domain::wallet::ledger::Credit;
use domain::wallet::topups::TopUp;

use crate::enqueue::{Enqueue, Enqueued};
use crate::kinds::{
    CardDelete, ImageVariants, LuckyNumbersGrant, MailSend, MemberCardPdf, OrderConfirm,
    OrderRefund, PaymentSync, PixExpire, PointsCredit, ReceiptPdf, ReservationRelease,
    SubscriptionCharge, TopUpExpire, TopUpRefund, TrophiesGrant, VideoTranscode, VoucherPdf,
};

/// The outbox every API handler and job kind hands to the use cases.
#[derive(Debug, Clone, Copy, Default)]
pub struct JobOutbox;

fn queued(enqueued: Enqueued) -> Queued {
    Queued {
        job_id: enqueued.id,
        new: enqueued.created,
    }
}

impl app::Outbox for JobOutbox {
    async fn send_mail(
        &self,
        tx: &mut PgConnection,
        mail: Mail,
        once_key: Option<String>,
    ) -> sqlx::Result<Queued> {
        let (kind, id) = mail.about;
        let job = Enqueue::new(MailSend::new(mail.mail))
            .owner(mail.station_id, mail.user_id)
            .about(kind, id);
        let job = match once_key {
            Some(key) => job.idempotency_key(key),
            None => job,
        };
        job.push(tx).await.map(queued)
    }

    async fn confirm_order(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        order_id: i64,
    ) -> sqlx::Result<Queued> {
        OrderConfirm::enqueue(tx, station_id, user_id, order_id)
            .await
            .map(queued)
    }

    async fn make_receipt(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        order_id: i64,
    ) -> sqlx::Result<Queued> {
        ReceiptPdf::enqueue(tx, station_id, user_id, order_id)
            .await
            .map(queued)
    }

    async fn make_voucher(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        voucher_id: i64,
    ) -> sqlx::Result<Queued> {
        VoucherPdf::enqueue(tx, station_id, user_id, voucher_id)
            .await
            .map(queued)
    }

    async fn make_member_card(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        fingerprint: &str,
    ) -> sqlx::Result<Queued> {
        MemberCardPdf::enqueue(tx, station_id, user_id, fingerprint)
            .await
            .map(queued)
    }

    async fn expire_pix(
        &self,
        tx: &mut PgConnection,
        part: &ChargePart,
        expires_at: DateTime<Utc>,
    ) -> sqlx::Result<Queued> {
        PixExpire::schedule(tx, part, expires_at).await.map(queued)
    }

    async fn release_hold(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        checkout_id: i64,
        expires_at: DateTime<Utc>,
    ) -> sqlx::Result<Queued> {
        ReservationRelease::schedule(tx, station_id, user_id, checkout_id, expires_at)
            .await
            .map(queued)
    }

    async fn recover_payment(
        &self,
        tx: &mut PgConnection,
        part: &ChargePart,
        at: DateTime<Utc>,
    ) -> sqlx::Result<Queued> {
        PaymentSync::recover(tx, part, at).await.map(queued)
    }

    async fn sync_payment(&self, tx: &mut PgConnection, charge_id: &str) -> sqlx::Result<Queued> {
        PaymentSync::for_charge(tx, charge_id).await.map(queued)
    }

    async fn delete_saved_card(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        card_id: i64,
        removed_at: DateTime<Utc>,
    ) -> sqlx::Result<Queued> {
        CardDelete::enqueue(tx, station_id, user_id, card_id, removed_at)
            .await
            .map(queued)
    }

    async fn make_refund(
        &self,
        tx: &mut PgConnection,
        requested: &Requested,
    ) -> sqlx::Result<Queued> {
        OrderRefund::enqueue(tx, requested).await.map(queued)
    }

    async fn credit_points(&self, tx: &mut PgConnection, credit: Credit) -> sqlx::Result<Queued> {
        let (enqueued, queued) = PointsCredit::enqueue_counted(tx, credit).await?;
        Ok(Queued {
            job_id: enqueued.id,
            new: queued,
        })
    }

    async fn grant_trophies(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        participation_id: i64,
    ) -> sqlx::Result<Queued> {
        TrophiesGrant::for_participation(tx, station_id, user_id, participation_id)
            .await
            .map(queued)
    }

    async fn grant_lucky_numbers(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        participation_id: i64,
    ) -> sqlx::Result<Queued> {
        LuckyNumbersGrant::for_participation(tx, station_id, user_id, participation_id)
            .await
            .map(queued)
    }

    async fn make_image_variants(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        key: &str,
    ) -> sqlx::Result<Queued> {
        ImageVariants::enqueue(tx, station_id, key)
            .await
            .map(queued)
    }

    async fn transcode_video(&self, tx: &mut PgConnection, video: &Video) -> sqlx::Result<Queued> {
        VideoTranscode::for_video(tx, video).await.map(queued)
    }

    async fn charge_subscription_period(
        &self,
        tx: &mut PgConnection,
        due: &DueCharge,
    ) -> sqlx::Result<Queued> {
        SubscriptionCharge::enqueue(tx, due).await.map(queued)
    }

    async fn refund_topup(&self, tx: &mut PgConnection, topup: &TopUp) -> sqlx::Result<Queued> {
        TopUpRefund::enqueue(tx, topup).await.map(queued)
    }

    async fn expire_topup(
        &self,
        tx: &mut PgConnection,
        topup: &TopUp,
        at: DateTime<Utc>,
    ) -> sqlx::Result<Queued> {
        TopUpExpire::schedule(tx, topup, at).await.map(queued)
    }
    async fn import_services(
        &self,
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        import_id: i64,
    ) -> sqlx::Result<Queued> {
        crate::kinds::ServicesImport::enqueue(tx, station_id, user_id, import_id)
            .await
            .map(queued)
    }
}
