//! What a member can repeat cheaply and others pay for (posting, commenting, liking,
//! uploading, calls that reach the payment provider) is counted per member in Redis, in a
//! fixed window; past the limit the call is answered 429 until the window ends. Like the
//! address throttles ([`crate::ip_throttle`]) it fails open when Redis is down, and every
//! attempt counts, valid or not.
//!
//! Each limit is a type ([`MemberLimit`]); a handler calls [`throttle`] with it once it
//! knows the member, before any work.

use domain::Config;

use crate::error::ApiError;
use crate::ip_throttle::count_in_window;
use crate::member::Member;
use crate::state::AppState;

pub use domain::shared::TOO_MANY_ACTIONS;

/// One per-member limit.
pub trait MemberLimit {
    /// Names its Redis counter (`{prefix}{NAME}:member:{user_id}`) and its log line.
    const NAME: &'static str;
    /// The 429's message.
    const MESSAGE: &'static str = TOO_MANY_ACTIONS;
    /// Calls allowed per window, and the window in seconds: fixed, or a setting.
    fn limit(config: &Config) -> (u32, u64);
}

/// Counts the call against `L` for `member`, or refuses it with 429 and `Retry-After`.
pub async fn throttle<L: MemberLimit>(state: &AppState, member: &Member) -> Result<(), ApiError> {
    let (max, window) = L::limit(&state.config);
    let key = format!(
        "{}{}:member:{}",
        state.config.redis_prefix,
        L::NAME,
        member.user_id
    );
    let counted = count_in_window(state, L::NAME, &key, window).await;
    match counted {
        Some((count, ttl)) if count > max => {
            tracing::info!(
                user_id = member.user_id,
                limit = L::NAME,
                "refused: too many calls from one member"
            );
            Err(ApiError::TooManyRequests {
                message: L::MESSAGE.into(),
                retry_after: u64::try_from(ttl).unwrap_or(window).max(1),
            })
        }
        _ => Ok(()),
    }
}
