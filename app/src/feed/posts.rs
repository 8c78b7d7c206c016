//! Posts whose media live beside the rows: an image post stores its image before the post
//! is made (and removes it when the post is refused), and an author's delete removes the
//! post's image and video once the post is gone. An image post asks for its image's
//! narrower copies (`image.variants`) with the post.

use std::path::Path;

use sqlx::PgPool;

use domain::feed::posts::{self, NotDeleted, NotPosted, Post};
use domain::feed::videos;
use domain::infra::images::ImageCodec;
use domain::infra::objects::Objects;
use domain::infra::variants;
use domain::shared::ids::{PostId, StationId, UserId};

use crate::Outbox;

/// Publishes an image post (`POST /posts-image`): the text is checked first, so a refused
/// post stores no image; the image is stored re-encoded, then the post made with it.
#[allow(clippy::too_many_arguments)]
pub async fn publish_image(
    db: &PgPool,
    objects: &Objects,
    outbox: &impl Outbox,
    codec: &dyn ImageCodec,
    station_id: StationId,
    user_id: UserId,
    description: &str,
    base64: &str,
) -> Result<Post, NotPosted> {
    posts::text(description, true)?;
    let image = posts::image(codec, base64).await?;
    let key = Objects::new_key(&format!("feed/{station_id}"), image.extension);
    objects.put(&key, image.bytes).await?;
    let created = async {
        let mut tx = db.begin().await?;
        let post = posts::create_in(&mut tx, station_id, user_id, description, Some(&key)).await?;
        outbox
            .make_image_variants(&mut tx, station_id.0, &key)
            .await?;
        tx.commit().await?;
        Ok::<_, NotPosted>(post)
    }
    .await;
    if created.is_err() {
        delete_image(objects, &key).await;
    }
    let post = created?;
    tracing::info!(user_id = %user_id, post_id = %post.id, "feed image post");
    Ok(post)
}

/// Deletes one of the member's posts (`DELETE /posts/{id}`), then its image, or its video's
/// upload and files. The post is gone either way; what is left behind costs storage only.
pub async fn delete(
    db: &PgPool,
    objects: &Objects,
    area: &Path,
    station_id: StationId,
    user_id: UserId,
    post_id: PostId,
) -> Result<(), NotDeleted> {
    let deleted = posts::delete(db, station_id, user_id, post_id).await?;
    tracing::info!(user_id = %user_id, post_id = %post_id, "feed post deleted");
    if let Some(key) = deleted.image_key {
        variants::delete_with_copies(db, objects, &key).await;
    }
    if let Some(video_id) = deleted.video_id
        && let Err(err) = videos::discard_unposted(db, objects, area, video_id).await
    {
        tracing::warn!(error = %err, video_id, "feed video not discarded");
    }
    Ok(())
}

/// An orphaned image costs storage, not correctness: a failed delete is logged.
async fn delete_image(objects: &Objects, key: &str) {
    if let Err(err) = objects.delete(key).await {
        tracing::warn!(error = %err, key, "feed image not deleted");
    }
}
