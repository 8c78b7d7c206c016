//! The address lookups, made on the server through their configured providers and cached
//! (`app::commerce::address`), so the web app calls no third party. The address of a CEP
//! (`POST /get-address-zip-code`): open to visitors (the sign-up wizard's address step),
//! counted per member, or per client address for a visitor. A state's cities
//! (`GET /states/{uf}/cities`): public (the promotional sign-up's city list), counted per
//! client address.

use axum::extract::State;
use domain::infra::cep::CepAddress;
use domain::infra::ibge::City;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::client_ip::{ClientIp, client_key};
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::ip_throttle::{CitiesThrottle, TOO_MANY_FROM_ADDRESS, count_in_window};
use crate::member::SignedIn;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(address_of_zip_code))
        .routes(routes!(cities_of_state))
}

#[derive(Debug, Deserialize, ToSchema)]
struct ZipCodeQuery {
    /// Eight digits, with or without the mask (`01.310-100`).
    #[serde(default)]
    #[schema(value_type = String)]
    zip_code: Value,
}

/// A CEP's address, in the spec's words.
#[derive(Debug, Serialize, ToSchema)]
struct ZipCodeAddress {
    /// `01310-100`.
    cep: String,
    street: String,
    complement: String,
    neighborhood: String,
    city: String,
    /// The state's two letters.
    state: String,
    /// The city's IBGE code ('' when the provider gives none).
    ibge: String,
}

impl From<CepAddress> for ZipCodeAddress {
    fn from(address: CepAddress) -> Self {
        let CepAddress {
            cep,
            street,
            complement,
            neighborhood,
            city,
            state,
            ibge,
        } = address;
        Self {
            cep,
            street,
            complement,
            neighborhood,
            city,
            state,
            ibge,
        }
    }
}

/// Counts every lookup against the caller (the member, else the client address), cache hits
/// included: a caller walking CEPs would otherwise use our cache as a free directory, and a
/// miss costs a call to the provider.
async fn throttle(
    state: &AppState,
    signed_in: Option<&SignedIn>,
    ip: ClientIp,
) -> Result<(), ApiError> {
    let caller = match (signed_in, ip.0) {
        (Some(signed_in), _) => format!("member:{}", signed_in.user.user_id.0),
        (None, Some(ip)) => format!("ip:{}", client_key(ip)),
        (None, None) => return Ok(()),
    };
    let key = format!("{}cep-lookups:{caller}", state.config.redis_prefix);
    let window = state.config.cep_lookups_window_seconds;
    match count_in_window(state, "cep-lookups", &key, window).await {
        Some((count, ttl)) if count > state.config.cep_lookups_max => {
            Err(ApiError::TooManyRequests {
                message: TOO_MANY_FROM_ADDRESS.into(),
                retry_after: u64::try_from(ttl).unwrap_or(window).max(1),
            })
        }
        _ => Ok(()),
    }
}

/// The address of a CEP
///
/// Looked up at the configured provider (`FILIA_CEP_URL`, a ViaCEP-like API) and cached:
/// an address for 30 days, an unknown CEP for a day. The web app fills street, city and
/// state with it, and puts 'CEP inválido' in street and city when it fails.
#[utoipa::path(
    post,
    path = "/get-address-zip-code",
    tag = "commerce",
    security((), ("session" = [])),
    request_body = ZipCodeQuery,
    responses(
        (status = 200, description = "The CEP's address", body = ZipCodeAddress),
        (status = 404, description = "No such CEP: 'CEP não encontrado'", body = ErrorMessage),
        (status = 422, description = "Not a CEP of eight digits: 'CEP inválido'", body = Messages),
        (status = 429, description = "More lookups than FILIA_CEP_LOOKUPS_MAX (30) in FILIA_CEP_LOOKUPS_WINDOW_SECONDS (600), per member or, for a visitor, per client address", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
        (status = 503, description = "The provider cannot be reached and the CEP is not cached: 'Não foi possível consultar o CEP agora. Tente novamente em alguns minutos.'", body = ErrorMessage),
    )
)]
async fn address_of_zip_code(
    State(state): State<AppState>,
    signed_in: Option<SignedIn>,
    ip: ClientIp,
    Json(query): Json<ZipCodeQuery>,
) -> ApiResult<Json<ZipCodeAddress>> {
    throttle(&state, signed_in.as_ref(), ip).await?;
    let cep = match &query.zip_code {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.to_string(),
        _ => String::new(),
    };
    let address = app::commerce::address::find_address(
        &state.redis,
        &state.config.redis_prefix,
        &state.cep,
        &cep,
    )
    .await?;
    Ok(Json(address.into()))
}

/// One city of a state.
#[derive(Debug, Serialize, ToSchema)]
struct StateCity {
    /// `São Paulo`.
    name: String,
    /// The city's IBGE code (`3550308`).
    ibge: String,
}

impl From<City> for StateCity {
    fn from(city: City) -> Self {
        let City { name, ibge } = city;
        Self { name, ibge }
    }
}

/// The cities of a state
///
/// Asked from the configured provider (`FILIA_IBGE_URL`, an IBGE-localidades-like API) and
/// cached for 30 days; sorted as Brazilians read them. The promotional sign-up offers them
/// once a state is chosen, and lets the city be typed when this call fails.
#[utoipa::path(
    get,
    path = "/states/{uf}/cities",
    tag = "commerce",
    security(()),
    params(("uf" = String, Path, description = "The state's two letters (`SP`), one of the 27")),
    responses(
        (status = 200, description = "The state's cities", body = Vec<StateCity>),
        (status = 400, description = "The path cannot be read (a NUL byte)", body = Messages),
        (status = 422, description = "Not one of the 27 states: 'Estado inválido'", body = Messages),
        (status = 429, description = "More lookups than FILIA_CITIES_LOOKUPS_MAX (30) in FILIA_CITIES_LOOKUPS_WINDOW_SECONDS (600) from one client address", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
        (status = 503, description = "The provider cannot be reached and the state's cities are not cached: 'Não foi possível carregar as cidades agora. Tente novamente em alguns minutos.'", body = ErrorMessage),
    )
)]
async fn cities_of_state(
    _: CitiesThrottle,
    State(state): State<AppState>,
    Path(uf): Path<String>,
) -> ApiResult<Json<Vec<StateCity>>> {
    let cities = app::commerce::address::cities_of(
        &state.redis,
        &state.config.redis_prefix,
        &state.cities,
        &uf,
    )
    .await?;
    Ok(Json(cities.into_iter().map(StateCity::from).collect()))
}
