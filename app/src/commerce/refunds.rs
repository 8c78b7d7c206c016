//! Refunds' use cases: one support staff asks for (recorded with its audit entry, then made
//! by the `order.refund` job: the provider first, then applied once), and one the bank made.

use serde_json::json;
use sqlx::{PgConnection, PgPool};

use domain::commerce::gateway::{GatewayError, PaymentGateway, RefundStatus};
use domain::commerce::refunds::{self, Applied, RefundError, RefundRequest, Requested};
use domain::commerce::status::RefundOrigin;
use domain::shared::failure::{Failure, IntoFailure};
use domain::staff::{self, Action, AuditRecord, Scope};
use payments::Gateway;

use crate::outbox::Outbox;

/// A console refund that was asked for: the refund row and its job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundQueued {
    pub requested: Requested,
    pub job_id: String,
}

/// A support staff member's refund (console): records it, queues its making and the audit
/// entry on one transaction. `scope` limits it to the grant's station.
pub async fn request(
    db: &PgPool,
    outbox: &impl Outbox,
    staff_user_id: i64,
    scope: Scope,
    order_id: i64,
    wanted: &RefundRequest,
) -> Result<RefundQueued, RefundError> {
    let mut tx = db.begin().await?;
    let requested = refunds::request(
        &mut tx,
        scope.station_id(),
        order_id,
        wanted,
        RefundOrigin::Staff,
        Some(staff_user_id),
    )
    .await?;
    let job = outbox.make_refund(&mut tx, &requested).await?;
    staff::record(
        &mut tx,
        AuditRecord {
            user_id: staff_user_id,
            action: Action::OrderRefund,
            station_id: Some(requested.station_id),
            job_ids: std::slice::from_ref(&job.job_id),
            details: json!({
                "order_id": order_id,
                "refund_id": requested.refund_id,
                "amount": requested.amount,
                "lines": wanted.lines,
                "reason": wanted.reason,
            }),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(RefundQueued {
        requested,
        job_id: job.job_id,
    })
}

/// Why a refund was not made this time.
#[derive(Debug, thiserror::Error)]
pub enum NotRefunded {
    /// The refund row is gone, or it has a provider part and no charge to refund.
    #[error("refund {0} cannot be made: {1}")]
    Broken(i64, &'static str),
    /// The provider refused or failed it: the refund is `failed`, its units may be refunded
    /// again.
    #[error("the payment provider did not refund: {0}")]
    Refused(String),
    /// The provider or the database may come back: try again (same idempotency key).
    #[error("payment provider: {0}")]
    Unavailable(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Rule(RefundError),
    /// The refund has a card or PIX part and the payment provider could not be set up.
    #[error("payment provider: {0}")]
    NoProvider(anyhow::Error),
}

/// A refund is made by its job, never for a member waiting on it: whatever stopped it is
/// internal to whoever asks (the job tells retry from end on its own).
impl IntoFailure for NotRefunded {
    fn into_failure(self) -> Failure {
        Failure::Internal(self.into())
    }
}

impl From<RefundError> for NotRefunded {
    fn from(err: RefundError) -> Self {
        match err {
            RefundError::Db(err) => Self::Db(err),
            other => Self::Rule(other),
        }
    }
}

/// Makes a requested refund: the card or PIX part goes back through the provider first
/// (idempotency key `refund:{id}`, so a repeat never refunds twice there), then the refund
/// is applied once on one transaction (`commerce::refunds::apply`) with the credits it
/// owes. `None` when it was made (or failed) before.
///
/// The provider is set up (`gateway`) only for a refund with a card or PIX part: a refund
/// of the wallet alone never needs it.
pub async fn make(
    db: &PgPool,
    gateway: impl FnOnce() -> anyhow::Result<Gateway>,
    outbox: &impl Outbox,
    refund_id: i64,
) -> Result<Option<Applied>, NotRefunded> {
    let mut conn = db.acquire().await?;
    let part = refunds::gateway_part(&mut conn, refund_id)
        .await?
        .ok_or(NotRefunded::Broken(refund_id, "it is gone"))?;
    drop(conn);
    if !part.pending {
        return Ok(None);
    }
    let mut gateway_refund = None;
    if part.gateway_cents > 0 {
        let charge_id = part
            .charge_id
            .clone()
            .ok_or(NotRefunded::Broken(refund_id, "it has no charge to refund"))?;
        let gateway = gateway().map_err(NotRefunded::NoProvider)?;
        let done = gateway
            .refund(
                &charge_id,
                Some(part.gateway_cents),
                &format!("refund:{refund_id}"),
            )
            .await;
        match done {
            Ok(refund) if refund.status == RefundStatus::Failed => {
                return Err(fail(db, refund_id, "the provider failed it".into()).await);
            }
            // A PIX devolução in process is accepted: the provider finishes it.
            Ok(refund) => gateway_refund = Some(refund.refund_id),
            Err(GatewayError::Unavailable(err)) => return Err(NotRefunded::Unavailable(err)),
            Err(GatewayError::Database(err)) => return Err(err.into()),
            Err(err) => return Err(fail(db, refund_id, err.to_string()).await),
        }
    }
    let mut tx = db.begin().await?;
    let applied = refunds::apply(&mut tx, refund_id, gateway_refund.as_deref()).await?;
    if let Some(applied) = &applied {
        crate::wallet::credit_all(outbox, &mut tx, applied.credits.clone()).await?;
    }
    tx.commit().await?;
    Ok(applied)
}

/// Marks the refund failed after the provider refused it; the refusal, or the database's
/// failure to record it (the next attempt records it).
async fn fail(db: &PgPool, refund_id: i64, cause: String) -> NotRefunded {
    let failed = match db.acquire().await {
        Ok(mut conn) => refunds::fail(&mut conn, refund_id).await.map(drop),
        Err(err) => Err(err),
    };
    match failed {
        Ok(()) => NotRefunded::Refused(cause),
        Err(err) => NotRefunded::Db(err),
    }
}

/// A refund the bank started (MED) on a card or PIX payment part, applied on the caller's
/// transaction (the payment webhook's): see `commerce::refunds::apply_bank_refund`; the
/// credits it owes are queued on the same transaction. Pass the charge's refunded total
/// as the provider reports it: calling again with the same total changes nothing.
pub async fn apply_bank_refund(
    outbox: &impl Outbox,
    tx: &mut PgConnection,
    payment_id: i64,
    charge_refunded_cents: i64,
) -> Result<Option<Applied>, RefundError> {
    let applied = refunds::apply_bank_refund(tx, payment_id, charge_refunded_cents).await?;
    if let Some(applied) = &applied {
        crate::wallet::credit_all(outbox, tx, applied.credits.clone()).await?;
    }
    Ok(applied)
}
