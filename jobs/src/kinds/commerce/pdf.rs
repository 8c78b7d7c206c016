//! What the PDF jobs (`receipt.pdf`, `voucher.pdf`, the accounts' `member_card.pdf`) share: rendering a document with the station's
//! logo off the async threads, storing it under a fresh private key, recording it once,
//! and re-arming a job that failed for good.

use documents::{MemberCard, Receipt, Renderer, Voucher};
use domain::infra::objects::Objects;
use sqlx::PgConnection;

use crate::enqueue::Enqueued;
use crate::job::{JobContext, JobError};
use crate::state::{self, JobState};

pub(crate) const NOT_MADE: &str = "O PDF não pôde ser gerado; nova tentativa em breve.";

/// A document the PDF jobs make.
pub(crate) trait Document: Send + 'static {
    fn set_logo(&mut self, logo: Option<Vec<u8>>);
    fn render(&self, renderer: &Renderer) -> Vec<u8>;
}

impl Document for Receipt {
    fn set_logo(&mut self, logo: Option<Vec<u8>>) {
        self.logo = logo;
    }
    fn render(&self, renderer: &Renderer) -> Vec<u8> {
        renderer.receipt(self)
    }
}

impl Document for MemberCard {
    fn set_logo(&mut self, logo: Option<Vec<u8>>) {
        self.logo = logo;
    }
    fn render(&self, renderer: &Renderer) -> Vec<u8> {
        renderer.member_card(self)
    }
}

impl Document for Voucher {
    fn set_logo(&mut self, logo: Option<Vec<u8>>) {
        self.logo = logo;
    }
    fn render(&self, renderer: &Renderer) -> Vec<u8> {
        renderer.voucher(self)
    }
}

/// Renders `document` with the logo at `logo_key` (off the async threads: rendering is
/// CPU work), stores it under a fresh private key in `folder` and records the key with
/// `record`, which answers the key kept: when a racing run recorded its own first, this
/// run's file is deleted. Reports progress on the job as it goes.
pub(crate) async fn make(
    ctx: &JobContext,
    folder: &str,
    logo_key: Option<&str>,
    mut document: impl Document,
    record: impl AsyncFnOnce(&str) -> sqlx::Result<String>,
) -> Result<(), JobError> {
    let retry = |err: sqlx::Error| JobError::retry(NOT_MADE, err);
    ctx.progress(10).await.map_err(retry)?;
    let objects =
        Objects::from_config(&ctx.services.config).map_err(|err| JobError::retry(NOT_MADE, err))?;
    document.set_logo(logo(&objects, logo_key).await);
    // Without Lato there is no PDF: the job fails (and retries) with the loader's message.
    let renderer = Renderer::load(&ctx.services.config.pdf_font_dir)
        .map_err(|err| JobError::retry(NOT_MADE, err))?;
    let bytes = tokio::task::spawn_blocking(move || document.render(&renderer))
        .await
        .map_err(|err| JobError::retry(NOT_MADE, anyhow::anyhow!("render: {err}")))?;
    ctx.progress(70).await.map_err(retry)?;
    let key = Objects::new_private_key(folder, "pdf");
    objects
        .put(&key, bytes)
        .await
        .map_err(|err| JobError::retry(NOT_MADE, err))?;
    let kept = record(&key).await.map_err(retry)?;
    if kept != key {
        let _ = objects.delete(&key).await;
    }
    ctx.progress(100).await.map_err(retry)?;
    Ok(())
}

/// The logo's bytes; a missing or unreadable one leaves the PDF without it.
async fn logo(objects: &Objects, key: Option<&str>) -> Option<Vec<u8>> {
    let key = key?;
    match objects.get(key).await {
        Ok(found) => found.map(|object| object.bytes.to_vec()),
        Err(error) => {
            tracing::warn!(%error, "station logo left out of a PDF: it could not be read");
            None
        }
    }
}

/// A PDF job found failed for good or cancelled is run again (asking for the document
/// again is the member's way to retry).
pub(crate) async fn rearm_if_failed(
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
