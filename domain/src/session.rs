//! Login sessions: opaque random bearer tokens. The database keeps only their SHA-256, so
//! a leaked table cannot be replayed; a session ends when it expires or is revoked.

use chrono::{Duration, Utc};
use sha2::{Digest, Sha256};
use sqlx::PgExecutor;

/// How long a login lasts without a new one.
pub const LIFETIME: Duration = Duration::days(30);

/// Starts a session for a user and returns the token to hand to the client, once.
pub async fn create(db: impl PgExecutor<'_>, user_id: i64) -> anyhow::Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|err| anyhow::anyhow!("no randomness: {err}"))?;
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    sqlx::query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, $3)")
        .bind(hash_token(&token).as_slice())
        .bind(user_id)
        .bind(Utc::now() + LIFETIME)
        .execute(db)
        .await?;
    Ok(token)
}

pub fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Who a valid session belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct SessionUser {
    pub user_id: i64,
    pub station_id: i64,
}

/// The user of a live session: not expired, not revoked, and an active account that was
/// not deleted. Anything else is `None`, whatever the reason.
pub async fn authenticate(
    db: impl PgExecutor<'_>,
    token: &str,
) -> sqlx::Result<Option<SessionUser>> {
    sqlx::query_as(
        "SELECT u.id AS user_id, u.station_id
         FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.token_hash = $1 AND s.expires_at > now() AND s.revoked_at IS NULL
           AND u.active AND u.deleted_at IS NULL",
    )
    .bind(hash_token(token).as_slice())
    .fetch_optional(db)
    .await
}
