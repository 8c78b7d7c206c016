//! `uploads.cleanup`: hourly, settles what members' uploads left behind. Of the videos
//! ([`videos::sweep`]): uploads members left unfinished for a day (with their bytes),
//! videos whose transcode ended without settling them (failed, so their posts say why
//! instead of "processing" forever), whole videos no post has carried for a day (with
//! their stored objects), and whatever the upload area holds that no upload needs. Of the
//! images and documents ([`uploads::sweep_unattached`]): those nothing refers to a day after
//! they were made, with their objects. Every run leaves the same, so a repeated tick does
//! no harm.

use std::time::Duration;

use chrono::Utc;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use domain::feed::{uploads, videos};
use domain::infra::objects::Objects;

use crate::job::{Job, JobContext, JobError};

/// The cron tick carries nothing: the cutoff is counted from when the job runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UploadsCleanup {}

/// A run's result: the videos' counts, and the images and documents removed.
#[derive(Debug, Serialize)]
struct Cleaned {
    #[serde(flatten)]
    videos: videos::Swept,
    unattached: u64,
}

impl Job for UploadsCleanup {
    const QUEUE: &'static str = "uploads.cleanup";
    const MAX_ATTEMPTS: i32 = 3;
    const CONCURRENCY: usize = 1;
    const TIMEOUT: Duration = Duration::from_secs(10 * 60);

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let failed = |err| JobError::retry("Os envios abandonados não puderam ser removidos.", err);
        let area = videos::upload_area(&ctx.services.config);
        let objects = Objects::from_config(&ctx.services.config).map_err(failed)?;
        let now = Utc::now();
        let swept = videos::sweep(ctx.db(), &objects, &area, now)
            .await
            .map_err(failed)?;
        let unattached = uploads::sweep_unattached(ctx.db(), &objects, now)
            .await
            .map_err(failed)?;
        if swept != videos::Swept::default() || unattached > 0 {
            tracing::info!(
                abandoned = swept.abandoned,
                stuck = swept.stuck,
                unposted = swept.unposted,
                files = swept.files,
                unattached,
                "uploads swept"
            );
        }
        Ok(json!(Cleaned {
            videos: swept,
            unattached,
        }))
    }
}
