//! Public calls that create accounts or send e-mail (sign-ups, reset links) are counted per
//! client address in Redis, in a fixed window; past the limit they are answered 429 until
//! the window ends, so one address cannot mass-create accounts or flood inboxes. Every
//! attempt counts, valid or not. Like the login throttle it fails open when Redis is down.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use redis::aio::MultiplexedConnection;

use crate::client_ip::ClientIp;
use crate::error::ApiError;
use crate::login_throttle::with_redis;
use crate::state::AppState;

pub const TOO_MANY_SIGNUPS: &str = "Muitas tentativas. Aguarde alguns minutos e tente novamente.";

/// Put first among a handler's arguments: counts the call, or refuses it with 429 and
/// `Retry-After` before the body is read.
#[derive(Debug, Clone, Copy)]
pub struct SignupThrottle;

impl FromRequestParts<AppState> for SignupThrottle {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Ok(ClientIp(ip)) = ClientIp::from_request_parts(parts, state).await;
        // Without an address (never the case behind `serve`) there is nothing to count by.
        let Some(ip) = ip else {
            return Ok(Self);
        };
        let config = &state.config;
        let key = format!("{}signup:ip:{ip}", config.redis_prefix);
        let window = config.signup_window_seconds;
        let counted = with_redis(
            state,
            "sign-up throttle",
            async |redis: &mut MultiplexedConnection| {
                redis::pipe()
                    .incr(&key, 1)
                    // The window starts at the first attempt and is not extended by later ones.
                    .cmd("EXPIRE")
                    .arg(&key)
                    .arg(window)
                    .arg("NX")
                    .ignore()
                    .ttl(&key)
                    .query_async::<(u32, i64)>(redis)
                    .await
            },
        )
        .await;
        match counted {
            Some((count, ttl)) if count > config.signup_max_per_ip => {
                tracing::info!(%ip, path = parts.uri.path(), "refused: too many sign-up attempts");
                Err(ApiError::TooManyRequests {
                    message: TOO_MANY_SIGNUPS.into(),
                    retry_after: u64::try_from(ttl).unwrap_or(window).max(1),
                })
            }
            _ => Ok(Self),
        }
    }
}
