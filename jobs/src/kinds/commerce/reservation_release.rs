//! `reservation.release`: scheduled at a hold's expiry (docs/api-commerce.md), gives back
//! whatever the hold still keeps (units, coupon use) and expires an order still waiting for
//! payment, refunding its wallet part. Idempotent: the release is one conditional update on
//! the hold, so a run after a buyer's confirmation (or another run) released it, or before
//! an extended expiry, changes nothing. Reads never wait for it: an expired hold stops
//! counting the moment it expires.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use domain::commerce::CommerceError;
use domain::commerce::checkout;

use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReservationRelease {
    pub checkout_id: i64,
}

impl ReservationRelease {
    /// Schedules the release of a hold at its expiry, on the caller's transaction (the one
    /// that made or extended the hold). One job per hold and expiry: an extension schedules
    /// one more, and the earlier one finds the hold still live and does nothing.
    pub async fn schedule(
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        checkout_id: i64,
        expires_at: DateTime<Utc>,
    ) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self { checkout_id })
            .owner(station_id, Some(user_id))
            .about("checkout", checkout_id)
            .idempotency_key(format!("checkout:{checkout_id}:{}", expires_at.timestamp()))
            .run_at(expires_at)
            .push(tx)
            .await
    }
}

const NOT_RELEASED: &str = "A reserva não pôde ser liberada; nova tentativa em breve.";

impl Job for ReservationRelease {
    const QUEUE: &'static str = "reservation.release";
    const MAX_ATTEMPTS: i32 = 10;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(5),
        max: Duration::from_secs(600),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let retry = |err: sqlx::Error| JobError::retry(NOT_RELEASED, err);
        let mut tx = ctx.db().begin().await.map_err(retry)?;
        let released = checkout::release_expired(&mut tx, self.checkout_id, Utc::now())
            .await
            .map_err(|err| match err {
                CommerceError::Db(err) => retry(err),
                // A ledger error (the wallet part's refund) may pass; the units stay held
                // until it does, so the job tries again rather than giving up.
                CommerceError::Ledger(err) => JobError::retry(NOT_RELEASED, err),
                other => JobError::permanent(NOT_RELEASED, other),
            })?;
        tx.commit().await.map_err(retry)?;
        Ok(json!({
            "checkout_id": self.checkout_id,
            "released": released.released,
            "expired_order": released.expired_order,
        }))
    }
}
