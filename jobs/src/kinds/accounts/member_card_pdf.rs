//! `member_card.pdf` `{station_id, user_id, fingerprint}`: renders the member's card (off the
//! async threads) with the QR code of its validator page, stores it under an unguessable key
//! and records it for the card's data (`domain::accounts::member_card`), deleting the stale
//! PDF it replaces. The card is read again when the job runs: the PDF is always the card as
//! it is then, and a run that finds it stored answers it.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use domain::accounts::member_card;
use domain::infra::objects::Objects;
use domain::shared::ids::{StationId, UserId};

use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};
use crate::kinds::commerce::pdf::{self, NOT_MADE};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberCardPdf {
    pub station_id: i64,
    pub user_id: i64,
    /// The card's fingerprint when it was asked for: one job per version of the card.
    pub fingerprint: String,
}

impl MemberCardPdf {
    /// One job per member and version of the card; a failed or cancelled one is put back
    /// in its queue.
    pub async fn enqueue(
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        fingerprint: &str,
    ) -> sqlx::Result<Enqueued> {
        // Keyed by the PDF it replaces too: a version asked for again after another was made
        // (a name changed, then changed back) is made again, not answered by the old job.
        let generation = member_card::generation(&mut *tx, user_id).await?;
        let enqueued = Enqueue::new(Self {
            station_id,
            user_id,
            fingerprint: fingerprint.to_string(),
        })
        .owner(station_id, Some(user_id))
        .about("user", user_id)
        .idempotency_key(format!("member-card:{user_id}:{fingerprint}:{generation}"))
        .push(&mut *tx)
        .await?;
        pdf::rearm_if_failed(tx, enqueued).await
    }
}

impl Job for MemberCardPdf {
    const QUEUE: &'static str = "member_card.pdf";
    const MAX_ATTEMPTS: i32 = 8;
    const CONCURRENCY: usize = 2;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(10),
        max: Duration::from_secs(1800),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let retry = |err: sqlx::Error| JobError::retry(NOT_MADE, err);
        let (station_id, user_id) = (StationId(self.station_id), UserId(self.user_id));
        let mut conn = ctx.db().acquire().await.map_err(retry)?;
        let card = member_card::card(&mut conn, station_id, user_id)
            .await
            .map_err(retry)?
            .ok_or_else(|| {
                JobError::permanent(
                    NOT_MADE,
                    anyhow::anyhow!(
                        "user {} has no member card (gone, or the station turned it off)",
                        self.user_id
                    ),
                )
            })?;
        let ready = json!({ "user_id": self.user_id, "ready": true });
        if member_card::stored_pdf(&mut conn, user_id, &card.fingerprint)
            .await
            .map_err(retry)?
            .is_some()
        {
            return Ok(ready);
        }
        let fingerprint = card.fingerprint.clone();
        let mut replaced = None;
        pdf::make(
            &ctx,
            "member-cards",
            card.logo_key.as_deref(),
            card.data,
            async |key: &str| {
                let recorded =
                    member_card::record_pdf(&mut conn, station_id, user_id, &fingerprint, key)
                        .await?;
                replaced = recorded.replaced;
                Ok(recorded.kept)
            },
        )
        .await?;
        // The stale card is no longer referenced; failing to remove it only leaves a file.
        if let Some(old_key) = replaced
            && let Ok(objects) = Objects::from_config(&ctx.services.config)
            && let Err(error) = objects.delete(&old_key).await
        {
            tracing::warn!(%error, "could not delete a replaced member card PDF");
        }
        Ok(ready)
    }
}
