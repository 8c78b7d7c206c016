//! A member's image upload (`POST /upload-image-to-s3`): stored, then its narrower copies
//! asked for.

use sqlx::PgPool;

use domain::feed::uploads::{self, UploadRefused, Uploader};
use domain::infra::images::ImageCodec;
use domain::infra::objects::Objects;

use crate::Outbox;

/// Stores the member's image ([`uploads::store_image`]) and queues its copies; answers its
/// key. The upload is recorded first (its quota counts it whatever follows), so a failure
/// to queue the copies leaves an image shown whole, and is logged, not answered.
pub async fn store_image(
    db: &PgPool,
    objects: &Objects,
    codec: &dyn ImageCodec,
    outbox: &impl Outbox,
    uploader: Uploader,
    base64: String,
) -> Result<String, UploadRefused> {
    let key = uploads::store_image(db, objects, codec, uploader, base64).await?;
    // The upload is the member's either way: a failed queue must not answer an error that
    // invites a second upload (counted again) of what is already stored.
    if let Err(err) = queue_variants(db, outbox, uploader.station_id.0, &key).await {
        tracing::warn!(error = %err, "the image's copies were not queued; it is shown whole");
    }
    Ok(key)
}

async fn queue_variants(
    db: &PgPool,
    outbox: &impl Outbox,
    station_id: i64,
    key: &str,
) -> anyhow::Result<()> {
    let mut tx = db.begin().await?;
    outbox.make_image_variants(&mut tx, station_id, key).await?;
    tx.commit().await?;
    Ok(())
}
