//! Public calls that anyone can repeat cheaply are counted per client address in Redis, in
//! a fixed window; past the limit they are answered 429 until the window ends. Every
//! attempt counts, valid or not. Like the login throttle it fails open when Redis is down.
//!
//! An IPv6 client is counted by its /64 ([`client_key`]), as the login throttle does.
//!
//! Each limit is a type ([`IpLimit`]) and its extractor an alias of [`IpThrottle`]:
//! [`SignupThrottle`] for calls that create accounts or send e-mail (one address cannot
//! mass-create accounts or flood inboxes), [`ShareThrottle`] for share-link visits (one
//! address cannot replay visits to mint a sharer's points), [`ActivationThrottle`] for the
//! activation calls (one address cannot guess codes across many accounts or flood inboxes
//! with codes), [`CitiesThrottle`] for a state's city list (one address cannot use our
//! cache as a free directory or make us hammer the provider).

use std::marker::PhantomData;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use domain::Config;
use redis::aio::MultiplexedConnection;

use crate::client_ip::{ClientIp, client_key};
use crate::error::ApiError;
use crate::login_throttle::with_redis;
use crate::state::AppState;

pub const TOO_MANY_FROM_ADDRESS: &str =
    "Muitas tentativas. Aguarde alguns minutos e tente novamente.";
pub const TOO_MANY_VISITS: &str =
    "Muitos acessos a partir deste endereço. Aguarde alguns minutos e tente novamente.";

/// One per-address limit.
pub trait IpLimit {
    /// Names its Redis counter (`{prefix}{NAME}:ip:{client}`) and its log line.
    const NAME: &'static str;
    /// The 429's message.
    const MESSAGE: &'static str;
    /// Calls allowed per window, and the window in seconds.
    fn limit(config: &Config) -> (u32, u64);
}

/// Account-creating public calls (sign-ups, reset links): `FILIA_SIGNUP_MAX_PER_IP` per
/// `FILIA_SIGNUP_WINDOW_SECONDS`.
#[derive(Debug)]
pub struct Signups;

impl IpLimit for Signups {
    const NAME: &'static str = "signup";
    const MESSAGE: &'static str = TOO_MANY_FROM_ADDRESS;
    fn limit(config: &Config) -> (u32, u64) {
        (config.signup_max_per_ip, config.signup_window_seconds)
    }
}

/// Share-link visits (`POST /validate-sharing`): `FILIA_SHARE_MAX_PER_IP` per
/// `FILIA_SHARE_WINDOW_SECONDS`.
#[derive(Debug)]
pub struct ShareVisits;

impl IpLimit for ShareVisits {
    const NAME: &'static str = "share";
    const MESSAGE: &'static str = TOO_MANY_VISITS;
    fn limit(config: &Config) -> (u32, u64) {
        (config.share_max_per_ip, config.share_window_seconds)
    }
}

/// Activation calls (`confirmation-method`, `resend-confirmation-email`,
/// `activate-participant`): `FILIA_ACTIVATION_MAX_PER_IP` per
/// `FILIA_ACTIVATION_WINDOW_SECONDS`, all three against one count.
#[derive(Debug)]
pub struct Activations;

impl IpLimit for Activations {
    const NAME: &'static str = "activation";
    const MESSAGE: &'static str = TOO_MANY_FROM_ADDRESS;
    fn limit(config: &Config) -> (u32, u64) {
        (
            config.activation_max_per_ip,
            config.activation_window_seconds,
        )
    }
}

/// A state's city list (`GET /states/{uf}/cities`), public for the sign-up form:
/// `FILIA_CITIES_LOOKUPS_MAX` per `FILIA_CITIES_LOOKUPS_WINDOW_SECONDS`, cached answers
/// included (a miss costs a call to the provider).
#[derive(Debug)]
pub struct CityLookups;

impl IpLimit for CityLookups {
    const NAME: &'static str = "cities";
    const MESSAGE: &'static str = TOO_MANY_FROM_ADDRESS;
    fn limit(config: &Config) -> (u32, u64) {
        (
            config.cities_lookups_max,
            config.cities_lookups_window_seconds,
        )
    }
}

/// Put first among a handler's arguments: counts the call, or refuses it with 429 and
/// `Retry-After` before the body is read.
#[derive(Debug)]
pub struct IpThrottle<L>(PhantomData<fn() -> L>);

pub type SignupThrottle = IpThrottle<Signups>;
pub type ShareThrottle = IpThrottle<ShareVisits>;
pub type ActivationThrottle = IpThrottle<Activations>;
pub type CitiesThrottle = IpThrottle<CityLookups>;

impl<L: IpLimit> FromRequestParts<AppState> for IpThrottle<L> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Ok(ClientIp(ip)) = ClientIp::from_request_parts(parts, state).await;
        // Without an address (never the case behind `serve`) there is nothing to count by.
        let Some(ip) = ip else {
            return Ok(Self(PhantomData));
        };
        let (max, window) = L::limit(&state.config);
        let client = client_key(ip);
        let key = format!("{}{}:ip:{client}", state.config.redis_prefix, L::NAME);
        let counted = count_in_window(state, L::NAME, &key, window).await;
        match counted {
            Some((count, ttl)) if count > max => {
                tracing::info!(%client, path = parts.uri.path(), limit = L::NAME, "refused: too many calls from one address");
                Err(ApiError::TooManyRequests {
                    message: L::MESSAGE.into(),
                    retry_after: u64::try_from(ttl).unwrap_or(window).max(1),
                })
            }
            _ => Ok(Self(PhantomData)),
        }
    }
}

/// Counts one call under `key` in a fixed window of `window` seconds that starts at the
/// first call (later calls do not extend it): the count so far and the seconds left, or
/// `None` when Redis is down (a throttle fails open). Every per-address and per-member
/// limit counts this way.
pub(crate) async fn count_in_window(
    state: &AppState,
    what: &'static str,
    key: &str,
    window: u64,
) -> Option<(u32, i64)> {
    with_redis(state, what, async |redis: &mut MultiplexedConnection| {
        redis::pipe()
            .incr(key, 1)
            .cmd("EXPIRE")
            .arg(key)
            .arg(window)
            .arg("NX")
            .ignore()
            .ttl(key)
            .query_async::<(u32, i64)>(redis)
            .await
    })
    .await
}
