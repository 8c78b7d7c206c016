//! A member's own profile: the onboarding wizard's data.

use sqlx::PgPool;

use domain::accounts::change::AccountError;
use domain::accounts::profile::{self, ParticipantUpdate};
use domain::accounts::user::User;
use domain::shared::ids::UserId;

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
