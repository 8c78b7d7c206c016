//! `uploads.cleanup`: hourly, settles what the video uploads left behind
//! ([`videos::sweep`]): uploads members left unfinished for a day (with their bytes),
//! videos whose transcode ended without settling them (failed, so their posts say why
//! instead of "processing" forever), whole videos no post has carried for a day (with
//! their stored objects), and whatever the upload area holds that no upload needs. Every
//! run leaves the same, so a repeated tick does no harm.

use std::time::Duration;

use chrono::Utc;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use domain::feed::videos;
use domain::infra::objects::Objects;

use crate::job::{Job, JobContext, JobError};

/// The cron tick carries nothing: the cutoff is counted from when the job runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UploadsCleanup {}

impl Job for UploadsCleanup {
    const QUEUE: &'static str = "uploads.cleanup";
    const MAX_ATTEMPTS: i32 = 3;
    const CONCURRENCY: usize = 1;
    const TIMEOUT: Duration = Duration::from_secs(10 * 60);

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let failed = |err| JobError::retry("Os envios abandonados não puderam ser removidos.", err);
        let area = videos::upload_area(&ctx.services.config);
        let objects = Objects::from_config(&ctx.services.config).map_err(failed)?;
        let swept = videos::sweep(ctx.db(), &objects, &area, Utc::now())
            .await
            .map_err(failed)?;
        if swept != videos::Swept::default() {
            tracing::info!(
                abandoned = swept.abandoned,
                stuck = swept.stuck,
                unposted = swept.unposted,
                files = swept.files,
                "upload area swept"
            );
        }
        Ok(json!(swept))
    }
}
