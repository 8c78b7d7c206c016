//! The address lookups, each read from the Redis cache, else asked from its provider and
//! cached. The address of a CEP (`POST /get-address-zip-code`, `domain::infra::cep`): found
//! addresses for [`FOUND_SECONDS`], unknown CEPs for the shorter [`UNKNOWN_SECONDS`] (a new
//! street's CEP appears at the provider within days). A state's cities
//! (`GET /states/{uf}/cities`, `domain::infra::ibge`) for [`CITIES_SECONDS`]: municipalities
//! are created by law, a few a decade. The cache fails open: Redis down means the provider
//! is asked.

use std::time::Duration;

use redis::AsyncCommands;

use serde::Serialize;
use serde::de::DeserializeOwned;

use domain::accounts::signup::INVALID_STATE;
use domain::infra::cep::{self, CepAddress, CepAnswer, CepProvider};
use domain::infra::ibge::{self, CitiesProvider, CitiesUnavailable, City};
use domain::shared::failure::{Failure, IntoFailure};
use domain::shared::validate;

/// A CEP's address stays this long in the cache.
pub const FOUND_SECONDS: u64 = 30 * 24 * 3600;
/// An unknown CEP stays unknown this long.
pub const UNKNOWN_SECONDS: u64 = 24 * 3600;
/// A state's cities stay this long in the cache.
pub const CITIES_SECONDS: u64 = 30 * 24 * 3600;
/// A cache that does not answer within this is skipped.
const CACHE_TIMEOUT: Duration = Duration::from_millis(500);

pub const CEP_NOT_FOUND: &str = "CEP não encontrado";
pub const CEP_LOOKUP_DOWN: &str =
    "Não foi possível consultar o CEP agora. Tente novamente em alguns minutos.";

#[derive(Debug, thiserror::Error)]
pub enum AddressError {
    /// Not eight digits.
    #[error("malformed CEP")]
    Malformed,
    #[error("unknown CEP")]
    Unknown,
    #[error(transparent)]
    Unavailable(#[from] cep::CepUnavailable),
}

impl IntoFailure for AddressError {
    fn into_failure(self) -> Failure {
        match self {
            Self::Malformed => Failure::invalid(validate::message::CEP),
            Self::Unknown => Failure::NotFound(CEP_NOT_FOUND.into()),
            Self::Unavailable(cause) => {
                tracing::warn!(error = %cause, "CEP lookup failed");
                Failure::Unavailable(CEP_LOOKUP_DOWN.into())
            }
        }
    }
}

pub const CITIES_LOOKUP_DOWN: &str =
    "Não foi possível carregar as cidades agora. Tente novamente em alguns minutos.";

#[derive(Debug, thiserror::Error)]
pub enum CitiesError {
    /// Not one of the 27 states.
    #[error("unknown state")]
    UnknownState,
    #[error(transparent)]
    Unavailable(#[from] CitiesUnavailable),
}

impl IntoFailure for CitiesError {
    fn into_failure(self) -> Failure {
        match self {
            Self::UnknownState => Failure::invalid(INVALID_STATE),
            Self::Unavailable(cause) => {
                tracing::warn!(error = %cause, "cities lookup failed");
                Failure::Unavailable(CITIES_LOOKUP_DOWN.into())
            }
        }
    }
}

/// Where the cache keeps one CEP's answer.
pub fn cache_key(prefix: &str, digits: &str) -> String {
    format!("{prefix}cep:{digits}")
}

/// The address of `cep` (masked or not).
pub async fn find_address(
    redis: &redis::Client,
    prefix: &str,
    provider: &CepProvider,
    cep: &str,
) -> Result<CepAddress, AddressError> {
    let digits = cep::digits(cep).ok_or(AddressError::Malformed)?;
    let key = cache_key(prefix, &digits);
    let answer = match cached(redis, &key).await {
        Some(answer) => answer,
        None => {
            let answer = provider.lookup(&digits).await?;
            let seconds = match answer {
                CepAnswer::Found(_) => FOUND_SECONDS,
                CepAnswer::Unknown => UNKNOWN_SECONDS,
            };
            keep(redis, &key, &answer, seconds).await;
            answer
        }
    };
    match answer {
        CepAnswer::Found(address) => Ok(address),
        CepAnswer::Unknown => Err(AddressError::Unknown),
    }
}

/// Where the cache keeps one state's cities.
pub fn cities_cache_key(prefix: &str, state: &str) -> String {
    format!("{prefix}cities:{state}")
}

/// The cities of the state `uf` (its two letters, in either case), sorted pt-BR. A code
/// that is not one of the 27 states is refused without asking the provider.
pub async fn cities_of(
    redis: &redis::Client,
    prefix: &str,
    provider: &CitiesProvider,
    uf: &str,
) -> Result<Vec<City>, CitiesError> {
    let state = ibge::state_code(uf).ok_or(CitiesError::UnknownState)?;
    let key = cities_cache_key(prefix, state);
    if let Some(cities) = cached(redis, &key).await {
        return Ok(cities);
    }
    let cities = provider.cities(state).await?;
    keep(redis, &key, &cities, CITIES_SECONDS).await;
    Ok(cities)
}

async fn cached<T: DeserializeOwned>(redis: &redis::Client, key: &str) -> Option<T> {
    let read = async {
        let mut conn = redis.get_multiplexed_async_connection().await?;
        conn.get::<_, Option<String>>(key).await
    };
    match tokio::time::timeout(CACHE_TIMEOUT, read).await {
        Ok(Ok(Some(text))) => serde_json::from_str(&text).ok(),
        Ok(Ok(None)) => None,
        Ok(Err(error)) => {
            tracing::warn!(%error, "address lookup cache unavailable");
            None
        }
        Err(_) => {
            tracing::warn!("address lookup cache timed out");
            None
        }
    }
}

async fn keep(redis: &redis::Client, key: &str, answer: &impl Serialize, seconds: u64) {
    let Ok(text) = serde_json::to_string(answer) else {
        return;
    };
    let write = async {
        let mut conn = redis.get_multiplexed_async_connection().await?;
        conn.set_ex::<_, _, ()>(key, text, seconds).await
    };
    if !matches!(tokio::time::timeout(CACHE_TIMEOUT, write).await, Ok(Ok(()))) {
        tracing::warn!(key, "address lookup answer not cached");
    }
}
