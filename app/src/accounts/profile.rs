//! A member's own profile: the onboarding wizard's data, and the picture.

use sqlx::PgPool;

use domain::accounts::change::AccountError;
use domain::accounts::profile::{self, ParticipantUpdate};
use domain::accounts::user::User;
use domain::infra::images::ImageCodec;
use domain::infra::objects::Objects;
use domain::shared::ids::UserId;

use crate::Outbox;

/// Checks the member's update with no transaction open (the current password verified,
/// the new one hashed), then writes it; answers the user as it is now. A new password
/// signs out every session but `keep_token`'s.
pub async fn update(
    db: &PgPool,
    user_id: UserId,
    update: ParticipantUpdate,
    keep_token: &str,
) -> Result<User, AccountError> {
    let checked = profile::check_update(db, user_id, update).await?;
    let mut tx = db.begin().await?;
    let user = profile::save_update(&mut tx, user_id, checked, keep_token).await?;
    tx.commit().await?;
    Ok(user)
}

/// Replaces the member's picture (`PUT /users/image/{id}`) and asks for its narrower
/// copies. The picture is stored and recorded first: the copies' job is queued after, so a
/// failure to queue it leaves a picture without copies, shown whole (logged, not answered).
pub async fn replace_picture(
    db: &PgPool,
    objects: &Objects,
    codec: &dyn ImageCodec,
    outbox: &impl Outbox,
    user_id: UserId,
    base64: String,
) -> Result<User, AccountError> {
    let user = profile::replace_picture(db, objects, codec, user_id, base64).await?;
    if let Some(key) = user.image.as_deref().and_then(Objects::key_of_url) {
        // The picture is saved either way: a failed queue is logged, not answered.
        let queued = async {
            let mut tx = db.begin().await?;
            outbox
                .make_image_variants(&mut tx, user.station_id, key)
                .await?;
            tx.commit().await?;
            anyhow::Ok(())
        };
        if let Err(err) = queued.await {
            tracing::warn!(error = %err, "the picture's copies were not queued; it is shown whole");
        }
    }
    Ok(user)
}
