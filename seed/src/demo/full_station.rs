//! A second demo station with every member-visible setting on (feed, events, files, cart,
//! lucky numbers, member card, "Minha conta", pre-registration, the home's shortcuts, the
//! enterprise plan card, the fuel campaign and the member services), so the browser's menu
//! walk opens every page a flag can show. It is served where the request's host starts with
//! its subdomain (`completa.localhost` in the browser tests); the demo member signs in there
//! with the same e-mail and password.
//! Seeded once (by subdomain); rows that exist are left as they are.

use sqlx::PgPool;

use super::{DEMO_CNPJ, DEMO_MAIN_BRAND_COLOR, MEMBER_EMAIL, MEMBER_PASSWORD};
use domain::accounts::password;

pub const FULL_SUBDOMAIN: &str = "completa";
pub const FULL_STATION_NAME: &str = "Clube Filia Completo";

#[derive(Debug, Clone, Copy)]
pub struct FullStation {
    pub station_id: i64,
    pub member_id: i64,
}

pub async fn seed(db: &PgPool, public_url: &str) -> anyhow::Result<FullStation> {
    let mut tx = db.begin().await?;
    let created: Option<i64> = sqlx::query_scalar(
        "INSERT INTO stations (
             name, subdomain, url, has_majority_security, age_gate, is_public, main_brand_color,
             secondary_brand_color, logo_image, favicon_image, currency_multiplier,
             currency_name, currency_name_position,
             feed_access, events_access, files_access, checkout_access, my_account_access,
             lucky_numbers_access, member_card_access, pre_registration_access,
             home_shortcuts_access, enterprise_plan_access, fuel_campaign_access,
             legal_access, accounting_access, health_access, political_access)
         VALUES ($1, $2, $3, true, false, true, $4, '#F2A541', '/brand/demo/logo.svg',
                 '/brand/demo/favicon.svg', 1, 'Pontos', 'after',
                 true, true, true, true, true, true, true, true, true, true, true,
                 true, true, true, true)
         ON CONFLICT (subdomain) DO NOTHING
         RETURNING id",
    )
    .bind(FULL_STATION_NAME)
    .bind(FULL_SUBDOMAIN)
    .bind(public_url)
    .bind(DEMO_MAIN_BRAND_COLOR)
    .fetch_optional(&mut *tx)
    .await?;
    let station_id: i64 = match created {
        Some(id) => id,
        None => {
            sqlx::query_scalar("SELECT id FROM stations WHERE subdomain = $1")
                .bind(FULL_SUBDOMAIN)
                .fetch_one(&mut *tx)
                .await?
        }
    };
    sqlx::query(
        "INSERT INTO establishments (
             station_id, is_main, cnpj, full_social_name, address_line_1, city, state, zipcode)
         VALUES ($1, true, $2, 'Associação Filia Completa', 'Av. Paulista, 1000',
                 'São Paulo', 'SP', '01310100')
         ON CONFLICT (station_id, cnpj) DO NOTHING",
    )
    .bind(station_id)
    .bind(DEMO_CNPJ)
    .execute(&mut *tx)
    .await?;
    let establishment_id: i64 =
        sqlx::query_scalar("SELECT id FROM establishments WHERE station_id = $1 AND cnpj = $2")
            .bind(station_id)
            .bind(DEMO_CNPJ)
            .fetch_one(&mut *tx)
            .await?;
    sqlx::query(
        "INSERT INTO users (station_id, name, email, password_hash, type_id, role, active,
                            briefing_done, state, invite_code)
         VALUES ($1, 'Maria Completa', $2, $3, 2, 'member', true, true, 'SP', 'COMPMEMB')
         ON CONFLICT (station_id, email) WHERE email IS NOT NULL DO NOTHING",
    )
    .bind(station_id)
    .bind(MEMBER_EMAIL)
    .bind(password::hash(MEMBER_PASSWORD)?)
    .execute(&mut *tx)
    .await?;
    let member_id: i64 =
        sqlx::query_scalar("SELECT id FROM users WHERE station_id = $1 AND email = $2")
            .bind(station_id)
            .bind(MEMBER_EMAIL)
            .fetch_one(&mut *tx)
            .await?;
    sqlx::query(
        "INSERT INTO user_establishments (user_id, establishment_id) VALUES ($1, $2)
         ON CONFLICT DO NOTHING",
    )
    .bind(member_id)
    .bind(establishment_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(FullStation {
        station_id,
        member_id,
    })
}
