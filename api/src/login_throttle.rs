//! Failed logins are counted in Redis per account identifier and per client address (an
//! IPv6 client by its /64, [`client_key`]), in a fixed window. Past the limit, logins (right
//! or wrong) wait until the window ends: the sixth wrong password in a row is answered 429,
//! so passwords cannot be guessed online. A login reserves its try before the password is
//! checked, so a burst of parallel guesses counts exactly, and gives it back unless the
//! password was wrong.
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

/// KEYS: the counters; ARGV: the window in seconds, then each counter's limit. When a
/// counter is at its limit, answers the longest wait among those that are; otherwise counts
/// one try on every counter (a window starts at its first try and is not extended by later
/// ones) and answers 0.
const RESERVE: &str = r"
local wait = 0
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i + 1]) then
    local ttl = redis.call('TTL', key)
    if ttl < 1 then ttl = tonumber(ARGV[1]) end
    wait = math.max(wait, ttl)
  end
end
if wait > 0 then return wait end
for _, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('EXPIRE', key, ARGV[1], 'NX')
end
return 0
";

/// KEYS: the identifier's counter, then the address' (if any); ARGV[1]: `clear` to clear
/// the identifier's count, `keep` to give its try back like the address'. A counter whose
/// window ended meanwhile is left alone.
const GIVE_BACK: &str = r"
for i, key in ipairs(KEYS) do
  if i == 1 and ARGV[1] == 'clear' then
    redis.call('DEL', key)
  elseif tonumber(redis.call('GET', key) or '0') > 0 then
    redis.call('DECR', key)
  end
end
";

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
        let hashed: String = hex::encode(&digest[..16]);
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

    /// Takes one try from the identifier's and the address' allowances, or answers the
    /// seconds to wait when either is spent. Checking and counting are one step in Redis,
    /// so attempts made at once cannot all pass a check made before any of them counted.
    /// The try counts as a failure unless it is given back ([`Self::succeeded`],
    /// [`Self::give_back`]). One round trip: every login pays for it.
    pub async fn reserve(&self, state: &AppState) -> Result<(), u64> {
        let wait = self
            .with_redis(state, async |redis: &mut MultiplexedConnection| {
                let mut call = redis::cmd("EVAL");
                call.arg(RESERVE).arg(self.keys().count());
                for (key, _) in self.keys() {
                    call.arg(key);
                }
                call.arg(self.window_seconds);
                for (_, max) in self.keys() {
                    call.arg(max);
                }
                call.query_async::<u64>(redis).await
            })
            .await;
        match wait {
            Some(seconds) if seconds > 0 => Err(seconds),
            _ => Ok(()),
        }
    }

    /// The right password: the identifier's count is cleared and the address' try given
    /// back (the address counts failures only; one person's success says nothing about
    /// other guesses from there, so its earlier failures stay).
    pub async fn succeeded(&self, state: &AppState) {
        self.settle(state, "clear").await;
    }

    /// Neither right nor wrong (the check could not be made): the try is given back.
    pub async fn give_back(&self, state: &AppState) {
        self.settle(state, "keep").await;
    }

    async fn settle(&self, state: &AppState, identifier: &'static str) {
        self.with_redis(state, async |redis: &mut MultiplexedConnection| {
            let mut call = redis::cmd("EVAL");
            call.arg(GIVE_BACK).arg(self.keys().count());
            for (key, _) in self.keys() {
                call.arg(key);
            }
            call.arg(identifier).query_async::<()>(redis).await
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
