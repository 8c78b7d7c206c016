//! `uploads.cleanup`: daily, removes the video uploads members left unfinished for a day
//! (with their bytes) and whatever the upload area holds that no upload needs (a part
//! file of a finished upload, the folder of a transcode attempt that was killed). Every
//! run leaves the same, so a repeated tick does no harm.

use std::time::Duration;

use chrono::Utc;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use domain::feed::videos;

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
        let area = videos::upload_area(&ctx.services.config);
        let cutoff = Utc::now() - chrono::Duration::hours(videos::ABANDONED_AFTER_HOURS);
        let swept = videos::sweep(ctx.db(), &area, cutoff)
            .await
            .map_err(|err| {
                JobError::retry("Os envios abandonados não puderam ser removidos.", err)
            })?;
        if swept != videos::Swept::default() {
            tracing::info!(
                abandoned = swept.abandoned,
                files = swept.files,
                "upload area swept"
            );
        }
        Ok(json!({ "abandoned": swept.abandoned, "files": swept.files }))
    }
}
