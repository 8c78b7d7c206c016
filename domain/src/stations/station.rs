//! Stations: the branded programmes. A station is public data (branding, flags, currency
//! display, the establishment behind it); every station-owned row carries its `station_id`.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use sqlx::{PgConnection, PgExecutor, PgPool};

use crate::infra::config::StationRef;
use crate::stations::StationError;

/// A station: its branding, flags, currency display and the establishment behind it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Station {
    pub id: i64,
    pub name: String,
    pub subdomain: String,
    pub custom_host: Option<String>,
    pub url: String,
    /// The app's custom URL scheme.
    pub app_scheme: Option<String>,
    pub ios_link: Option<String>,
    pub android_link: Option<String>,
    pub has_app: bool,
    pub has_majority_security: bool,
    pub age_gate: bool,
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
    /// The virtual member card (`/homepage/carteirinha`), its menu entry and its API.
    pub member_card_access: bool,
    /// The profile's pre-registration change request (`POST /pre-registration-change`).
    pub pre_registration_access: bool,
    /// The home's shortcut tiles.
    pub home_shortcuts_access: bool,
    /// The Enterprise card beside the plans (landing and `/homepage/planos`).
    pub enterprise_plan_access: bool,
    /// The fuel campaign (`/homepage/legisclub-gasolina`), its menu entry and its API.
    pub fuel_campaign_access: bool,
    /// Legal consultancy (`/homepage/consultoria-juridica`), its menu entry, tile and API.
    pub legal_access: bool,
    /// Accounting consultancy (`/homepage/consultoria-contabil`).
    pub accounting_access: bool,
    /// Health appointments (`/homepage/saude`) and the co-payment cashback.
    pub health_access: bool,
    /// The political-union page (`/homepage/politico-sindical`).
    pub political_access: bool,
    /// An external chat where the station answers its members (https), opened by the
    /// menu's 'Fale conosco' instead of `/homepage/support`.
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
    pub created_at: DateTime<Utc>,
    #[sqlx(json(nullable))]
    pub establishment: Option<Establishment>,
}

/// Read from the station's query as JSON.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Establishment {
    pub id: i64,
    pub cnpj: String,
    pub full_social_name: String,
    pub address: EstablishmentAddress,
}

#[derive(Debug, Clone, serde::Deserialize)]
pub struct EstablishmentAddress {
    pub city: Option<String>,
    pub line_1: Option<String>,
    pub line_2: Option<String>,
    pub state: Option<String>,
    pub zipcode: Option<String>,
}

/// One SELECT for every read of a station, so the JSON shape is defined once. A macro, not a
/// const, so `concat!` can build static query strings from it.
macro_rules! select_station {
    () => {
        r#"
    SELECT s.id, s.name, s.subdomain, s.custom_host, s.url, s.app_scheme, s.ios_link,
           s.android_link, s.has_app, s.has_majority_security, s.age_gate, s.is_public,
           s.affiliated, s.promotional, s.no_cpf, s.feed_access, s.events_access,
           s.files_access, s.checkout_access, s.my_account_access, s.lucky_numbers_access,
           s.member_card_access, s.pre_registration_access, s.home_shortcuts_access,
           s.enterprise_plan_access, s.fuel_campaign_access, s.legal_access,
           s.accounting_access, s.health_access, s.political_access, s.support_chat_url,
           s.address, s.phone,
           s.contact_mail, s.main_brand_color, s.secondary_brand_color, s.font_family,
           s.logo_image, s.header_image, s.favicon_image, s.currency_multiplier,
           s.currency_name, s.currency_name_position, s.signup_flow, s.login_with,
           s.time_zone, s.created_at,
           (SELECT jsonb_build_object(
                'id', e.id, 'cnpj', e.cnpj, 'full_social_name', e.full_social_name,
                'address', jsonb_build_object(
                    'city', e.city, 'line_1', e.address_line_1, 'line_2', e.address_line_2,
                    'state', e.state, 'zipcode', e.zipcode))
              FROM establishments e
             WHERE e.station_id = s.id AND e.is_main) AS establishment
      FROM stations s
"#
    };
}

impl Station {
    /// The time zone its rules read dates in.
    pub fn zone(&self) -> crate::shared::time::Tz {
        crate::shared::time::zone_named(&self.time_zone)
    }
}

pub async fn find(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<Station>> {
    sqlx::query_as(concat!(select_station!(), " WHERE s.id = $1"))
        .bind(id)
        .fetch_optional(db)
        .await
}

/// The station a request names, or [`StationError::NotFound`].
pub async fn named(db: impl PgExecutor<'_>, id: i64) -> Result<Station, StationError> {
    find(db, id).await?.ok_or(StationError::NotFound)
}

/// The id of the station a request's host name belongs to: a station's own host first,
/// then its subdomain (the host's first label), then the configured default station.
pub async fn resolve_host(
    db: &PgPool,
    host: Option<&str>,
    default: Option<&StationRef>,
) -> sqlx::Result<Option<i64>> {
    if let Some(host) = host.map(normalize_host).filter(|h| !h.is_empty()) {
        let subdomain = subdomain_of(&host);
        let found: Option<i64> = sqlx::query_scalar(
            "SELECT id FROM stations
              WHERE custom_host = $1 OR subdomain = $2
              ORDER BY (custom_host = $1) DESC NULLS LAST
              LIMIT 1",
        )
        .bind(&host)
        .bind(subdomain)
        .fetch_optional(db)
        .await?;
        if found.is_some() {
            return Ok(found);
        }
    }
    match default {
        Some(StationRef::Id(id)) => {
            sqlx::query_scalar("SELECT id FROM stations WHERE id = $1")
                .bind(id)
                .fetch_optional(db)
                .await
        }
        Some(StationRef::Subdomain(subdomain)) => {
            sqlx::query_scalar("SELECT id FROM stations WHERE subdomain = $1")
                .bind(subdomain)
                .fetch_optional(db)
                .await
        }
        None => Ok(None),
    }
}

/// Lowercases and drops the port (and the brackets of an IPv6 literal).
fn normalize_host(host: &str) -> String {
    let host = host.trim().to_ascii_lowercase();
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or_default().to_string();
    }
    host.split(':').next().unwrap_or_default().to_string()
}

/// The first label of a multi-label host name; IP addresses and bare names have none.
fn subdomain_of(host: &str) -> Option<&str> {
    if host.parse::<std::net::IpAddr>().is_ok() {
        return None;
    }
    let (first, rest) = host.split_once('.')?;
    (!rest.is_empty() && is_valid_subdomain(first)).then_some(first)
}

/// Lowercase letters, digits and inner hyphens, 1 to 63 characters (a DNS label).
pub fn is_valid_subdomain(value: &str) -> bool {
    let bytes = value.as_bytes();
    (1..=63).contains(&bytes.len())
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        && bytes.first() != Some(&b'-')
        && bytes.last() != Some(&b'-')
}

/// A company's own station, created by its administrator's sign-up, with its main
/// establishment (the company's CNPJ).
#[derive(Debug, Clone, Copy)]
pub struct NewStation<'a> {
    pub name: &'a str,
    pub subdomain: &'a str,
    pub url: &'a str,
    pub main_brand_color: &'a str,
    pub cnpj: &'a str,
    pub social_name: &'a str,
}

/// Creates the station and its main establishment on the caller's transaction; answers
/// their ids, or `None` when the subdomain is taken.
pub async fn create(
    tx: &mut PgConnection,
    new: &NewStation<'_>,
) -> sqlx::Result<Option<(i64, i64)>> {
    let station_id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO stations (name, subdomain, url, main_brand_color)
         VALUES ($1, $2, $3, $4) ON CONFLICT (subdomain) DO NOTHING RETURNING id",
    )
    .bind(new.name)
    .bind(new.subdomain)
    .bind(new.url)
    .bind(new.main_brand_color)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(station_id) = station_id else {
        return Ok(None);
    };
    let establishment_id: i64 = sqlx::query_scalar(
        "INSERT INTO establishments (station_id, is_main, cnpj, full_social_name)
         VALUES ($1, true, $2, $3) RETURNING id",
    )
    .bind(station_id)
    .bind(new.cnpj)
    .bind(new.social_name)
    .fetch_one(&mut *tx)
    .await?;
    Ok(Some((station_id, establishment_id)))
}

pub async fn set_logo(
    db: impl PgExecutor<'_>,
    station_id: i64,
    logo_url: &str,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE stations SET logo_image = $2 WHERE id = $1")
        .bind(station_id)
        .bind(logo_url)
        .execute(db)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_normalization_drops_ports_and_case() {
        assert_eq!(normalize_host("Demo.Filia.app:8080"), "demo.filia.app");
        assert_eq!(normalize_host("[::1]:8080"), "::1");
        assert_eq!(normalize_host("127.0.0.1:8080"), "127.0.0.1");
    }

    #[test]
    fn subdomain_is_the_first_label_of_a_name() {
        assert_eq!(subdomain_of("demo.filia.app"), Some("demo"));
        assert_eq!(subdomain_of("demo.localhost"), Some("demo"));
        assert_eq!(subdomain_of("localhost"), None);
        assert_eq!(subdomain_of("127.0.0.1"), None);
        assert_eq!(subdomain_of("::1"), None);
    }

    #[test]
    fn subdomains_are_dns_labels() {
        assert!(is_valid_subdomain("clube-azul2"));
        assert!(!is_valid_subdomain("-clube"));
        assert!(!is_valid_subdomain("Clube"));
        assert!(!is_valid_subdomain(""));
        assert!(!is_valid_subdomain(&"a".repeat(64)));
    }
}
