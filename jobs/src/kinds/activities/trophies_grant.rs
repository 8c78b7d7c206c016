//! `trophies.grant`: grants the trophies whose rules a member now meets, after each of the
//! member's participations; the nightly tick runs it for every member (the backfill, which
//! also catches trophies created after the participations that earn them). Granting skips
//! what is held, so any number of runs grant each trophy once.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use domain::activities::trophies;

use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Job, JobContext, JobError};

/// `user_id` `None`: every member (the nightly backfill).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrophiesGrant {
    #[serde(default)]
    pub user_id: Option<i64>,
}

impl TrophiesGrant {
    /// Enqueues the grant for the member of `participation_id`, on its transaction, keyed
    /// by the participation.
    pub async fn for_participation(
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        participation_id: i64,
    ) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self {
            user_id: Some(user_id),
        })
        .owner(station_id, Some(user_id))
        .about("participation", participation_id)
        .idempotency_key(format!("trophies:participation:{participation_id}"))
        .push(tx)
        .await
    }
}

impl Job for TrophiesGrant {
    const QUEUE: &'static str = "trophies.grant";
    const MAX_ATTEMPTS: i32 = 8;
    const CONCURRENCY: usize = 2;
    /// The backfill reads every member's participations.
    const TIMEOUT: Duration = Duration::from_secs(15 * 60);

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let retry =
            |err: sqlx::Error| JobError::retry("Os troféus não puderam ser concedidos.", err);
        let granted = match self.user_id {
            Some(user_id) => trophies::grant_member(ctx.db(), user_id).await,
            None => trophies::backfill(ctx.db()).await,
        }
        .map_err(retry)?;
        if granted > 0 {
            tracing::info!(user_id = self.user_id, granted, "trophies granted");
        }
        Ok(json!({ "granted": granted }))
    }
}
