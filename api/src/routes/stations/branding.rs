//! `GET /api/stations/{id}`: a station's public data (branding, flags, establishment).

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::stations::station;
use rust_decimal::Decimal;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::routes::subscriptions::{Plan, station_plans};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(show_station))
}

/// The station as the web app reads it. Field names follow the spec's contract.
#[derive(Debug, Serialize, ToSchema)]
pub struct Station {
    pub id: i64,
    pub name: String,
    pub subdomain: String,
    pub custom_host: Option<String>,
    pub url: String,
    /// The app's custom URL scheme, named `domain` in the spec.
    #[serde(rename = "domain")]
    pub app_scheme: Option<String>,
    pub ios_link: Option<String>,
    pub android_link: Option<String>,
    pub has_app: bool,
    pub has_majority_security: bool,
    pub age_gate: bool,
    #[serde(rename = "public")]
    pub is_public: bool,
    pub affiliated: bool,
    pub promotional: bool,
    pub no_cpf: bool,
    pub feed_access: bool,
    pub events_access: bool,
    pub files_access: bool,
    pub checkout_access: bool,
    pub my_account_access: bool,
    /// The member menu's "Números da sorte" and `GET /giveaway-numbers/{userId}`.
    pub lucky_numbers_access: bool,
    /// The virtual member card: `/homepage/carteirinha` and its menu entry.
    pub member_card_access: bool,
    /// The profile's pre-registration change request.
    pub pre_registration_access: bool,
    /// The home's shortcut tiles ('Prestação de contas' and the station's service pages).
    pub home_shortcuts_access: bool,
    /// The Enterprise card beside the plans: on the landing to `/suporte-enterprise`, in
    /// `/homepage/planos` to `/homepage/planos/sobconsulta`.
    pub enterprise_plan_access: bool,
    /// The fuel campaign: `/homepage/legisclub-gasolina` and its menu entry.
    pub fuel_campaign_access: bool,
    /// Legal consultancy: `/homepage/consultoria-juridica`, its menu entry and home tile.
    pub legal_access: bool,
    /// Accounting consultancy: `/homepage/consultoria-contabil`.
    pub accounting_access: bool,
    /// Health appointments: `/homepage/saude`.
    pub health_access: bool,
    /// The political-union page: `/homepage/politico-sindical`.
    pub political_access: bool,
    /// An external chat (https) the member menu's 'Fale conosco' opens instead of
    /// `/homepage/support`; null for the contact form.
    pub support_chat_url: Option<String>,
    pub address: Option<String>,
    pub phone: Option<String>,
    pub contact_mail: Option<String>,
    pub main_brand_color: String,
    pub secondary_brand_color: Option<String>,
    pub font_family: String,
    pub logo_image: Option<String>,
    pub header_image: Option<String>,
    pub favicon_image: Option<String>,
    pub currency_multiplier: Decimal,
    pub currency_name: String,
    pub currency_name_position: String,
    /// `multi_step` or `simple`: which sign-up form the station uses.
    pub signup_flow: String,
    /// `email` or `cpf`: the identifier its login form asks for.
    pub login_with: String,
    /// The station's IANA time zone (`America/Sao_Paulo` unless set): its days, activity
    /// windows and cut-offs are read in it, and the web shows them in it.
    pub time_zone: String,
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
    pub establishment: Option<Establishment>,
    /// The station's plans on sale, cheapest first (the menu's 'Planos' shows when not
    /// empty).
    pub plans: Vec<Plan>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Establishment {
    pub id: i64,
    pub cnpj: String,
    pub full_social_name: String,
    pub address: EstablishmentAddress,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EstablishmentAddress {
    pub city: Option<String>,
    pub line_1: Option<String>,
    pub line_2: Option<String>,
    pub state: Option<String>,
    pub zipcode: Option<String>,
}

impl From<station::Station> for Station {
    fn from(station: station::Station) -> Self {
        let station::Station {
            id,
            name,
            subdomain,
            custom_host,
            url,
            app_scheme,
            ios_link,
            android_link,
            has_app,
            has_majority_security,
            age_gate,
            is_public,
            affiliated,
            promotional,
            no_cpf,
            feed_access,
            events_access,
            files_access,
            checkout_access,
            my_account_access,
            lucky_numbers_access,
            member_card_access,
            pre_registration_access,
            home_shortcuts_access,
            enterprise_plan_access,
            fuel_campaign_access,
            legal_access,
            accounting_access,
            health_access,
            political_access,
            support_chat_url,
            address,
            phone,
            contact_mail,
            main_brand_color,
            secondary_brand_color,
            font_family,
            logo_image,
            header_image,
            favicon_image,
            currency_multiplier,
            currency_name,
            currency_name_position,
            signup_flow,
            login_with,
            time_zone,
            created_at,
            establishment,
        } = station;
        Self {
            id,
            name,
            subdomain,
            custom_host,
            url,
            app_scheme,
            ios_link,
            android_link,
            has_app,
            has_majority_security,
            age_gate,
            is_public,
            affiliated,
            promotional,
            no_cpf,
            feed_access,
            events_access,
            files_access,
            checkout_access,
            my_account_access,
            lucky_numbers_access,
            member_card_access,
            pre_registration_access,
            home_shortcuts_access,
            enterprise_plan_access,
            fuel_campaign_access,
            legal_access,
            accounting_access,
            health_access,
            political_access,
            support_chat_url,
            address,
            phone,
            contact_mail,
            main_brand_color,
            secondary_brand_color,
            font_family,
            logo_image,
            header_image,
            favicon_image,
            currency_multiplier,
            currency_name,
            currency_name_position,
            signup_flow,
            login_with,
            time_zone,
            created_at,
            establishment: establishment.map(Establishment::from),
            plans: Vec::new(),
        }
    }
}

impl From<station::Establishment> for Establishment {
    fn from(establishment: station::Establishment) -> Self {
        let address = establishment.address;
        Self {
            id: establishment.id,
            cnpj: establishment.cnpj,
            full_social_name: establishment.full_social_name,
            address: EstablishmentAddress {
                city: address.city,
                line_1: address.line_1,
                line_2: address.line_2,
                state: address.state,
                zipcode: address.zipcode,
            },
        }
    }
}

/// A station's public data: branding, flags and main establishment
#[utoipa::path(
    get,
    path = "/stations/{id}",
    tag = "stations",
    params(("id" = i64, Path, description = "The station's id")),
    responses(
        (status = 200, description = "The station", body = Station),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 404, description = "No such station", body = ErrorMessage),
    )
)]
async fn show_station(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<Station>> {
    let mut station = Station::from(station::named(&state.db, id).await?);
    station.plans = station_plans(&state, domain::shared::ids::StationId(station.id)).await?;
    Ok(Json(station))
}
