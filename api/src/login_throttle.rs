//! Failed logins are counted in Redis per account identifier and per client address (an
//! IPv6 client by its /64, [`client_key`]), in a fixed window. Past the limit, logins (right or wrong) wait until the window ends: the
//! sixth wrong password in a row is answered 429, so passwords cannot be guessed online.
//! If Redis is unreachable logins go on unthrottled (and it is logged): an outage of the
//! counter must not lock every member out.

use std::net::IpAddr;
use std::time::Duration;

use redis::aio::MultiplexedConnection;
use sha2::{Digest, Sha256};

use crate::client_ip::client_key;
use crate::state::AppState;

/// Shown with the 429; the `Retry-After` header carries the seconds.
pub const TOO_MANY_ATTEMPTS: &str =
    "Muitas tentativas de acesso sem sucesso. Aguarde alguns minutos e tente novamente.";

const REDIS_TIMEOUT: Duration = Duration::from_millis(500);

/// The counters one login attempt touches.
#[derive(Debug)]
pub struct LoginThrottle {
    account_key: String,
    ip_key: Option<String>,
    max_account: u32,
    max_ip: u32,
    window_seconds: u64,
}

impl LoginThrottle {
    /// `identifier` is the normalised e-mail or CPF digits; it is hashed, so Redis holds no
    /// personal data.
    pub fn new(state: &AppState, station_id: i64, identifier: &str, ip: Option<IpAddr>) -> Self {
        let config = &state.config;
        let digest = Sha256::digest(identifier.as_bytes());
        let hashed: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
        Self {
            account_key: format!(
                "{}login:fail:acct:{station_id}:{hashed}",
                config.redis_prefix
            ),
            ip_key: ip.map(|ip| format!("{}login:fail:ip:{}", config.redis_prefix, client_key(ip))),
            max_account: config.login_max_failures,
            max_ip: config.login_max_failures_per_ip,
            window_seconds: config.login_window_seconds,
        }
    }

    /// `Some(seconds to wait)` when this identifier or address is over its limit. One round
    /// trip: every login pays for it.
    pub async fn blocked_for(&self, state: &AppState) -> Option<u64> {
        let counters = self
            .with_redis(state, async |redis: &mut MultiplexedConnection| {
                let mut pipe = redis::pipe();
                for (key, _) in self.keys() {
                    pipe.get(key).ttl(key);
                }
                pipe.query_async::<Vec<(Option<u32>, i64)>>(redis).await
            })
            .await?;
        self.keys()
            .zip(counters)
            .filter(|((_, max), (count, _))| count.unwrap_or(0) >= *max)
            .map(|(_, (_, ttl))| u64::try_from(ttl).unwrap_or(self.window_seconds).max(1))
            .max()
    }

    /// Counts a failed attempt against the identifier and the address.
    pub async fn record_failure(&self, state: &AppState) {
        self.with_redis(state, async |redis: &mut MultiplexedConnection| {
            let mut pipe = redis::pipe();
            for (key, _) in self.keys() {
                // The window starts at the first failure and is not extended by later ones.
                pipe.incr(key, 1).ignore();
                pipe.cmd("EXPIRE")
                    .arg(key)
                    .arg(self.window_seconds)
                    .arg("NX")
                    .ignore();
            }
            pipe.query_async::<()>(redis).await
        })
        .await;
    }

    /// A successful login clears the identifier's count (not the address': one person's
    /// success says nothing about other guesses from there).
    pub async fn record_success(&self, state: &AppState) {
        self.with_redis(state, async |redis: &mut MultiplexedConnection| {
            redis::cmd("DEL")
                .arg(&self.account_key)
                .query_async::<()>(redis)
                .await
        })
        .await;
    }

    fn keys(&self) -> impl Iterator<Item = (&str, u32)> {
        std::iter::once((self.account_key.as_str(), self.max_account))
            .chain(self.ip_key.as_deref().map(|key| (key, self.max_ip)))
    }

    async fn with_redis<T>(
        &self,
        state: &AppState,
        work: impl AsyncFnOnce(&mut MultiplexedConnection) -> redis::RedisResult<T>,
    ) -> Option<T> {
        with_redis(state, "login throttle", work).await
    }
}

/// Runs a few Redis commands for a throttle, or answers `None` (and logs) when Redis fails or
/// is slow: a throttle fails open.
pub(crate) async fn with_redis<T>(
    state: &AppState,
    what: &'static str,
    work: impl AsyncFnOnce(&mut MultiplexedConnection) -> redis::RedisResult<T>,
) -> Option<T> {
    let attempt = async {
        let mut redis = state.redis.get_multiplexed_async_connection().await?;
        work(&mut redis).await
    };
    match tokio::time::timeout(REDIS_TIMEOUT, attempt).await {
        Ok(Ok(value)) => Some(value),
        Ok(Err(err)) => {
            tracing::warn!(error = %err, what, "throttle unavailable; not throttling");
            None
        }
        Err(_) => {
            tracing::warn!(what, "throttle timed out; not throttling");
            None
        }
    }
}
