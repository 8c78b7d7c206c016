//! A member's image upload (`POST /upload-image-to-s3`): stored, then its narrower copies
//! asked for.

use sqlx::PgPool;

use domain::feed::uploads::{self, UploadRefused, Uploader};
use domain::infra::images::ImageCodec;
use domain::infra::objects::Objects;

use crate::Outbox;

/// Stores the member's image ([`uploads::store_image`]) and queues its copies; answers its
/// key. The upload is recorded first (its quota counts it whatever follows), so a failure
/// to queue the copies leaves an image shown whole.
pub async fn store_image(
    db: &PgPool,
    objects: &Objects,
    codec: &dyn ImageCodec,
    outbox: &impl Outbox,
    uploader: Uploader,
    base64: String,
) -> Result<String, UploadRefused> {
    let key = uploads::store_image(db, objects, codec, uploader, base64).await?;
    let mut tx = db.begin().await?;
    outbox
        .make_image_variants(&mut tx, uploader.station_id.0, &key)
        .await?;
    tx.commit().await?;
    Ok(key)
}
