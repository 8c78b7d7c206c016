//! What `receipt.pdf` and `voucher.pdf` share: the object store and the renderer of the
//! process's configuration, the station logo, storing under a fresh key, re-arming.

use domain::infra::objects::Objects;
use domain::infra::pdf::Renderer;
use sqlx::PgConnection;

use crate::enqueue::Enqueued;
use crate::job::{JobContext, JobError};
use crate::state::{self, JobState};

pub(super) const NOT_MADE: &str = "O PDF não pôde ser gerado; nova tentativa em breve.";

pub(super) fn objects(ctx: &JobContext) -> Result<Objects, JobError> {
    Objects::local(&ctx.services.config.data_dir.join("objects"))
        .map_err(|err| JobError::retry(NOT_MADE, err))
}

/// Without Lato there is no PDF: the job fails (and retries) with the loader's message.
pub(super) fn renderer(ctx: &JobContext) -> Result<Renderer, JobError> {
    Renderer::load(&ctx.services.config.pdf_font_dir).map_err(|err| JobError::retry(NOT_MADE, err))
}

/// The logo's bytes; a missing or unreadable one leaves the PDF without it.
pub(super) async fn logo(objects: &Objects, key: Option<&str>) -> Option<Vec<u8>> {
    let key = key?;
    match objects.get(key).await {
        Ok(found) => found.map(|object| object.bytes.to_vec()),
        Err(error) => {
            tracing::warn!(%error, "station logo left out of a PDF: it could not be read");
            None
        }
    }
}

/// Stores the bytes under a fresh unguessable private key in `folder` (never served by the
/// public media route) and answers the key.
pub(super) async fn store(
    objects: &Objects,
    folder: &str,
    bytes: Vec<u8>,
) -> Result<String, JobError> {
    let key = Objects::new_private_key(folder, "pdf");
    objects
        .put(&key, bytes)
        .await
        .map_err(|err| JobError::retry(NOT_MADE, err))?;
    Ok(key)
}

/// A PDF job found failed for good or cancelled is run again (asking for the document
/// again is the member's way to retry).
pub(super) async fn rearm_if_failed(
    tx: &mut PgConnection,
    enqueued: Enqueued,
) -> sqlx::Result<Enqueued> {
    if !enqueued.created
        && let Some(job) = state::find(&mut *tx, &enqueued.id).await?
        && matches!(job.state, JobState::Failed | JobState::Cancelled)
    {
        state::rerun_in(tx, &enqueued.id).await?;
    }
    Ok(enqueued)
}
