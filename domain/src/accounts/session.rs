//! Login sessions: opaque random bearer tokens. The database keeps only their SHA-256, so
//! a leaked table cannot be replayed; a session ends when it expires or is revoked.

use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgExecutor, PgPool};

use crate::accounts::user::{self, User};
use crate::shared::ids::{StationId, UserId};

/// How long a login lasts without a new one.
pub const LIFETIME: Duration = Duration::days(30);

/// How long a login token (a hand-over link to another host) can be redeemed.
pub const LOGIN_TOKEN_LIFETIME: Duration = Duration::minutes(2);

/// 32 random bytes as 64 hex digits.
pub fn new_token() -> anyhow::Result<String> {
    let bytes = crate::shared::secret::random_bytes::<32>()?;
    Ok(hex::encode(bytes))
}

/// Starts a session for a user and returns the token to hand to the client, once.
pub async fn create(db: impl PgExecutor<'_>, user_id: i64) -> anyhow::Result<String> {
    let token = new_token()?;
    sqlx::query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, $3)")
        .bind(hash_token(&token).as_slice())
        .bind(user_id)
        .bind(Utc::now() + LIFETIME)
        .execute(db)
        .await?;
    Ok(token)
}

/// A new session: its bearer token and the user as it is now.
#[derive(Debug)]
pub struct NewSession {
    pub token: String,
    pub user: User,
}

/// Starts a session for the account and answers it with the user as it is now: the answer
/// of every way in (`how` names it in the log). On a transaction, the session is created
/// together with the account it opens.
pub async fn open(
    db: &mut PgConnection,
    user_id: i64,
    how: &'static str,
) -> anyhow::Result<NewSession> {
    let user = user::find(&mut *db, UserId(user_id))
        .await?
        .ok_or_else(|| anyhow::anyhow!("user {user_id} vanished during login"))?;
    let token = create(&mut *db, user.id).await?;
    tracing::info!(
        user_id = user.id,
        station_id = user.station_id,
        how,
        "login"
    );
    Ok(NewSession { token, user })
}

pub fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Who a live session belongs to, and whether that account may use the member area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct SessionUser {
    pub user_id: UserId,
    pub station_id: StationId,
    /// Activated (e-mail or code confirmed).
    pub active: bool,
    /// Suspended or deleted: sees the blocked-account notice and nothing else.
    pub blocked: bool,
}

impl SessionUser {
    pub fn is_member_in_good_standing(&self) -> bool {
        self.active && !self.blocked
    }
}

/// The user of a live session (not expired, not revoked); `None` for anything else,
/// whatever the reason. Callers decide what an inactive or blocked account may do.
pub async fn authenticate(
    db: impl PgExecutor<'_>,
    token: &str,
) -> sqlx::Result<Option<SessionUser>> {
    sqlx::query_as(
        "SELECT u.id AS user_id, u.station_id, u.active, u.deleted_at IS NOT NULL AS blocked
         FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.token_hash = $1 AND s.expires_at > now() AND s.revoked_at IS NULL",
    )
    .bind(hash_token(token).as_slice())
    .fetch_optional(db)
    .await
}

/// Ends the session of `token` (logout). True when a live session was revoked.
pub async fn revoke(db: impl PgExecutor<'_>, token: &str) -> sqlx::Result<bool> {
    let revoked = sqlx::query(
        "UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL",
    )
    .bind(hash_token(token).as_slice())
    .execute(db)
    .await?;
    Ok(revoked.rows_affected() == 1)
}

/// Ends every live session of a user (a new password, a blocked account): every device
/// that holds one of them is signed out at once. Answers how many were ended.
pub async fn revoke_all(db: impl PgExecutor<'_>, user_id: i64) -> sqlx::Result<u64> {
    let revoked = sqlx::query(
        "UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL",
    )
    .bind(user_id)
    .execute(db)
    .await?;
    Ok(revoked.rows_affected())
}

/// Ends every live session of a user but the one of `keep_token` (a password changed from
/// the profile: the device that changed it stays signed in).
pub async fn revoke_others(
    db: impl PgExecutor<'_>,
    user_id: UserId,
    keep_token: &str,
) -> sqlx::Result<u64> {
    let revoked = sqlx::query(
        "UPDATE sessions SET revoked_at = now()
         WHERE user_id = $1 AND revoked_at IS NULL AND token_hash <> $2",
    )
    .bind(user_id)
    .bind(hash_token(keep_token).as_slice())
    .execute(db)
    .await?;
    Ok(revoked.rows_affected())
}

/// A login token as handed to its user, once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginToken {
    pub token: String,
    pub expires_at: DateTime<Utc>,
}

/// Issues a single-use login token for a signed-in user, valid for [`LOGIN_TOKEN_LIFETIME`].
pub async fn issue_login_token(
    db: impl PgExecutor<'_>,
    user_id: i64,
) -> anyhow::Result<LoginToken> {
    let token = new_token()?;
    let expires_at = Utc::now() + LOGIN_TOKEN_LIFETIME;
    sqlx::query("INSERT INTO login_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, $3)")
        .bind(hash_token(&token).as_slice())
        .bind(user_id)
        .bind(expires_at)
        .execute(db)
        .await?;
    Ok(LoginToken { token, expires_at })
}

/// Redeems a login token for a session of its own: `None` for a token that is unknown,
/// used or expired.
pub async fn log_in_with_token(db: &PgPool, token: &str) -> anyhow::Result<Option<NewSession>> {
    let mut conn = db.acquire().await?;
    match redeem_login_token(&mut *conn, token).await? {
        Some(redeemed) => Ok(Some(
            open(&mut conn, redeemed.user_id.0, "login token").await?,
        )),
        None => Ok(None),
    }
}

/// Uses up a login token: the user it was issued to, if it is unused and unexpired. A
/// second redemption, even concurrent, gets `None`.
async fn redeem_login_token(
    db: impl PgExecutor<'_>,
    token: &str,
) -> sqlx::Result<Option<SessionUser>> {
    sqlx::query_as(
        "WITH used AS (
             UPDATE login_tokens SET used_at = now()
             WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
             RETURNING user_id)
         SELECT u.id AS user_id, u.station_id, u.active, u.deleted_at IS NOT NULL AS blocked
         FROM used JOIN users u ON u.id = used.user_id",
    )
    .bind(hash_token(token).as_slice())
    .fetch_optional(db)
    .await
}
