//! `GET /api/config`: the page configuration of the host the app was loaded from. The spec
//! has the station id "come from page configuration"; here the host name decides it.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::header::HOST;
use domain::infra::config::{self, CaptchaProvider};
use domain::stations::StationError;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorMessage};
use crate::extract::Json;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(site_config))
}

#[derive(Debug, Serialize, ToSchema)]
struct SiteConfig {
    station_id: i64,
    captcha: CaptchaWidget,
    /// The payments run on the sandbox (`FILIA_PAYMENTS=sandbox`): the web app tokenises
    /// cards through `POST /sandbox/card-tokens` and offers "Simular pagamento" on a PIX.
    payments_sandbox: bool,
    /// With Pagar.me: where the browser sends a new card (`POST {url}?appId={app_id}`, no
    /// other header) to have the token the order carries; card data never reaches us.
    card_tokenizer: Option<CardTokenizer>,
    /// Nothing paid here is real (the sandbox, or Pagar.me's test keys): the web app shows
    /// the "Ambiente de testes" banner on every page.
    test_environment: bool,
}

/// The browser's card tokeniser: `POST {url}?appId={app_id}` with the card, answered by a
/// token the order carries instead of the card (docs/api-commerce.md, "Paying by card and
/// PIX").
#[derive(Debug, Serialize, ToSchema)]
struct CardTokenizer {
    url: String,
    /// The provider's public key (`pk_...`).
    app_id: String,
}

impl From<config::CardTokenizer> for CardTokenizer {
    fn from(tokenizer: config::CardTokenizer) -> Self {
        Self {
            url: tokenizer.url,
            app_id: tokenizer.app_id,
        }
    }
}

/// What the web app needs to show the human-verification widget on public forms.
#[derive(Debug, Serialize, ToSchema)]
struct CaptchaWidget {
    /// `off` (no widget; the server does not check) or `turnstile`.
    #[schema(value_type = String, examples("off", "turnstile"))]
    provider: &'static str,
    site_key: Option<String>,
}

/// The station of the host the app was loaded from
///
/// The host is `X-Forwarded-Host` when present, else `Host`: a station's own host, else its
/// subdomain, else the default station (`FILIA_DEFAULT_STATION`).
#[utoipa::path(
    get,
    path = "/config",
    tag = "stations",
    responses(
        (status = 200, description = "The page configuration", body = SiteConfig),
        (status = 404, description = "No station for this host and no default station", body = ErrorMessage),
    )
)]
async fn site_config(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> ApiResult<Json<SiteConfig>> {
    // Behind a proxy the original host arrives as X-Forwarded-Host. Trusting it is safe: it
    // only picks which public branding to show, never whose data to read.
    let host = ["x-forwarded-host", HOST.as_str()]
        .iter()
        .find_map(|name| headers.get(*name)?.to_str().ok())
        .map(|value| value.split(',').next().unwrap_or_default().trim());
    let station_id = domain::stations::station::resolve_host(
        &state.db,
        host,
        state.config.default_station.as_ref(),
    )
    .await?
    .ok_or(StationError::NotFound)?;
    let captcha = match state.config.captcha {
        CaptchaProvider::Off => CaptchaWidget {
            provider: "off",
            site_key: None,
        },
        CaptchaProvider::Turnstile => CaptchaWidget {
            provider: "turnstile",
            site_key: state.config.captcha_site_key.clone(),
        },
    };
    Ok(Json(SiteConfig {
        station_id,
        captcha,
        payments_sandbox: state.gateway.sandbox().is_some(),
        card_tokenizer: state.config.card_tokenizer().map(CardTokenizer::from),
        test_environment: state.config.test_environment(),
    }))
}
