//! `order.refund` `{refund_id}`: makes one refund that support staff asked for in the
//! console. The card or PIX part goes back through the gateway first (idempotency key
//! `refund:{id}`, so a re-run never refunds twice at the provider), then the refund is
//! applied once on one transaction (`commerce::refunds::apply`: per refunded line its
//! cashback reversed, stock and unused vouchers given back; the coupon use released when
//! nothing is left; the wallet part and the kept units' cashback credited through
//! `points.credit`). A refund the provider refuses ends `failed` and its units may be
//! refunded again.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::{PgConnection, PgPool};

use domain::commerce::refunds::{self, RefundError, RefundRequest, Requested};
use domain::infra::payments::{GatewayError, PaymentGateway, RefundStatus};
use domain::staff::{self, Action, AuditRecord, Scope};

use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};
use crate::kinds::PointsCredit;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderRefund {
    pub refund_id: i64,
}

/// A console refund that was asked for: the refund row and its job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundQueued {
    pub requested: Requested,
    pub job_id: String,
}

impl OrderRefund {
    /// A support staff member's refund (console): records it, enqueues its job and the
    /// audit entry on one transaction. `scope` limits it to the grant's station.
    pub async fn request(
        db: &PgPool,
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
            "staff",
            Some(staff_user_id),
        )
        .await?;
        let job = Self::enqueue(&mut tx, &requested).await?;
        staff::record(
            &mut tx,
            AuditRecord {
                user_id: staff_user_id,
                action: Action::OrderRefund,
                station_id: Some(requested.station_id),
                job_ids: std::slice::from_ref(&job.id),
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
            job_id: job.id,
        })
    }

    async fn enqueue(tx: &mut PgConnection, requested: &Requested) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self {
            refund_id: requested.refund_id,
        })
        .owner(requested.station_id, Some(requested.user_id))
        .about("order", requested.order_id)
        .idempotency_key(format!("refund:{}", requested.refund_id))
        .push(tx)
        .await
    }
}

const NOT_REFUNDED: &str = "O estorno não pôde ser concluído; nova tentativa em breve.";
const REFUSED: &str = "O meio de pagamento recusou o estorno.";

impl Job for OrderRefund {
    const QUEUE: &'static str = "order.refund";
    const MAX_ATTEMPTS: i32 = 10;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(10),
        max: Duration::from_secs(1800),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let retry = |err: sqlx::Error| JobError::retry(NOT_REFUNDED, err);
        let mut conn = ctx.db().acquire().await.map_err(retry)?;
        let part = refunds::gateway_part(&mut conn, self.refund_id)
            .await
            .map_err(retry)?
            .ok_or_else(|| {
                JobError::permanent(
                    NOT_REFUNDED,
                    anyhow::anyhow!("refund {} is gone", self.refund_id),
                )
            })?;
        drop(conn);
        if !part.pending {
            return Ok(json!({ "refund_id": self.refund_id, "applied": false }));
        }
        let mut gateway_refund = None;
        if part.gateway_cents > 0 {
            let charge_id = part.charge_id.clone().ok_or_else(|| {
                JobError::permanent(
                    NOT_REFUNDED,
                    anyhow::anyhow!("refund {} has no charge to refund", self.refund_id),
                )
            })?;
            let gateway = super::gateway(&ctx)?;
            let done = gateway
                .refund(
                    &charge_id,
                    Some(part.gateway_cents),
                    &format!("refund:{}", self.refund_id),
                )
                .await;
            match done {
                Ok(refund) if refund.status == RefundStatus::Failed => {
                    return self
                        .fail(&ctx, anyhow::anyhow!("the provider failed it"))
                        .await;
                }
                // A PIX devolução in process is accepted: the provider finishes it.
                Ok(refund) => gateway_refund = Some(refund.refund_id),
                Err(GatewayError::Unavailable(err)) => {
                    return Err(JobError::retry(NOT_REFUNDED, anyhow::anyhow!(err)));
                }
                Err(GatewayError::Database(err)) => return Err(retry(err)),
                Err(err) => return self.fail(&ctx, err.into()).await,
            }
        }
        let mut tx = ctx.db().begin().await.map_err(retry)?;
        let applied = refunds::apply(&mut tx, self.refund_id, gateway_refund.as_deref())
            .await
            .map_err(|err| match err {
                RefundError::Db(err) => retry(err),
                other => JobError::permanent(NOT_REFUNDED, other),
            })?;
        let Some(applied) = applied else {
            tx.commit().await.map_err(retry)?;
            return Ok(json!({ "refund_id": self.refund_id, "applied": false }));
        };
        PointsCredit::enqueue_all(&mut tx, applied.credits.clone())
            .await
            .map_err(retry)?;
        tx.commit().await.map_err(retry)?;
        Ok(json!({
            "refund_id": self.refund_id,
            "applied": true,
            "order_id": applied.order_id,
            "status": applied.status,
            "reversed_lots": applied.reversed_lots,
        }))
    }
}

impl OrderRefund {
    async fn fail(&self, ctx: &JobContext, cause: anyhow::Error) -> Result<Value, JobError> {
        let mut conn = ctx
            .db()
            .acquire()
            .await
            .map_err(|err| JobError::retry(NOT_REFUNDED, err))?;
        refunds::fail(&mut conn, self.refund_id)
            .await
            .map_err(|err| JobError::retry(NOT_REFUNDED, err))?;
        Err(JobError::permanent(REFUSED, cause))
    }
}
