//! The demo station: a branded station with its establishment, a member and a staff account,
//! used by `ops/run`, the browser tests and anyone trying Filia. Seeding is idempotent: rows
//! that exist are left exactly as they are.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};

pub mod activities;
pub mod art;
pub mod calendar;
pub mod content;
pub mod counter;
pub mod feed;
pub mod fuel;
pub mod full_station;
pub mod invitations;
pub mod landing;
pub mod lucky_numbers;
pub mod research;
pub mod services;
pub mod shop;
pub mod subscriptions;
pub mod topups;
pub mod trophies;

use domain::accounts::password;
use domain::shared::cnpj::Cnpj;
use domain::shared::ids::{StationId, UserId};
use domain::wallet::ledger::{self, LedgerError, LotState, Spend, SpendKind};
use domain::wallet::release::release_batch;
use domain::wallet::rewards;

/// Makes the narrower copies of a seeded picture now, by the rule the `image.variants` job
/// runs (the seed has no job runner of its own): the demo's landing serves them at once.
pub async fn make_variants(
    db: &PgPool,
    objects: &domain::infra::objects::Objects,
    key: &str,
) -> anyhow::Result<()> {
    domain::infra::variants::make(db, objects, &media::images::ImageCrate, key).await?;
    Ok(())
}

pub const DEMO_SUBDOMAIN: &str = domain::infra::config::DEFAULT_STATION_SUBDOMAIN;
pub const DEMO_STATION_NAME: &str = "Clube Filia Demo";
pub const DEMO_MAIN_BRAND_COLOR: &str = "#0E7C66";
pub const DEMO_CNPJ: &str = "11222333000181";

/// Known demo logins, printed by `ops/run`. They exist only in the demo station.
pub const MEMBER_EMAIL: &str = "membro@demo.filia.com.br";
pub const MEMBER_PASSWORD: &str = "Membro123";
pub const STAFF_EMAIL: &str = "equipe@demo.filia.com.br";
pub const STAFF_PASSWORD: &str = "Equipe123";
/// Staff who can only read the support console, for the demo station.
pub const VIEWER_EMAIL: &str = "leitura@demo.filia.com.br";
pub const VIEWER_PASSWORD: &str = "Leitura123";
/// Staff of the demo station's legal desk only: the console opens its desk and nothing else.
pub const DESK_EMAIL: &str = "juridico@demo.filia.com.br";
pub const DESK_PASSWORD: &str = "Juridico123";
/// A suspended member, to see the blocked-account notice.
pub const BLOCKED_EMAIL: &str = "bloqueado@demo.filia.com.br";
pub const BLOCKED_PASSWORD: &str = "Bloqueado123";

#[derive(Debug, Clone, Copy)]
pub struct DemoStation {
    pub station_id: i64,
    pub establishment_id: i64,
    pub member_id: i64,
    /// Support console: `support` for every station.
    pub staff_id: i64,
    /// Support console: `viewer` of the demo station.
    pub viewer_id: i64,
}

pub async fn seed(db: &PgPool, public_url: &str) -> anyhow::Result<DemoStation> {
    debug_assert!(
        [
            MEMBER_PASSWORD,
            STAFF_PASSWORD,
            VIEWER_PASSWORD,
            BLOCKED_PASSWORD
        ]
        .iter()
        .all(|p| password::meets_rule(p))
    );
    let cnpj: Cnpj = DEMO_CNPJ.parse()?;
    let mut tx = db.begin().await?;

    sqlx::query(
        "INSERT INTO stations (
             name, subdomain, url, app_scheme, has_app, has_majority_security, age_gate,
             is_public, address, phone, contact_mail, main_brand_color, secondary_brand_color,
             logo_image, favicon_image, currency_multiplier, currency_name, currency_name_position)
         VALUES ($1, $2, $3, 'filiademo', false, true, true,
                 true, 'Av. Paulista, 1000 - Bela Vista, São Paulo - SP', '(11) 4000-1234',
                 'contato@demo.filia.com.br', $4, '#F2A541',
                 '/brand/demo/logo.svg', '/brand/demo/favicon.svg', 1, 'Pontos', 'after')
         ON CONFLICT (subdomain) DO NOTHING",
    )
    .bind(DEMO_STATION_NAME)
    .bind(DEMO_SUBDOMAIN)
    .bind(public_url)
    .bind(DEMO_MAIN_BRAND_COLOR)
    .execute(&mut *tx)
    .await?;
    let station_id: i64 = sqlx::query_scalar("SELECT id FROM stations WHERE subdomain = $1")
        .bind(DEMO_SUBDOMAIN)
        .fetch_one(&mut *tx)
        .await?;
    // The demo shows the member card and the profile's pre-registration change request.
    sqlx::query(
        "UPDATE stations SET member_card_access = true, pre_registration_access = true
          WHERE id = $1",
    )
    .bind(station_id)
    .execute(&mut *tx)
    .await?;

    sqlx::query(
        "INSERT INTO establishments (
             station_id, is_main, cnpj, full_social_name, address_line_1, address_line_2,
             city, state, zipcode)
         VALUES ($1, true, $2, 'Associação Filia Demo', 'Av. Paulista, 1000', 'Conjunto 101',
                 'São Paulo', 'SP', '01310100')
         ON CONFLICT (station_id, cnpj) DO NOTHING",
    )
    .bind(station_id)
    .bind(cnpj.digits())
    .execute(&mut *tx)
    .await?;
    let establishment_id: i64 =
        sqlx::query_scalar("SELECT id FROM establishments WHERE station_id = $1 AND cnpj = $2")
            .bind(station_id)
            .bind(cnpj.digits())
            .fetch_one(&mut *tx)
            .await?;

    let mut account = async |name: &str, email: &str, pass: &str, type_id: i16, role: &str| {
        sqlx::query(
            "INSERT INTO users (station_id, name, email, password_hash, type_id, role, active,
                                briefing_done, state)
             VALUES ($1, $2, $3, $4, $5, $6, true, true, 'SP')
             ON CONFLICT (station_id, email) WHERE email IS NOT NULL DO NOTHING",
        )
        .bind(station_id)
        .bind(name)
        .bind(email)
        .bind(password::hash(pass)?)
        .bind(type_id)
        .bind(role)
        .execute(&mut *tx)
        .await?;
        let user_id: i64 =
            sqlx::query_scalar("SELECT id FROM users WHERE station_id = $1 AND email = $2")
                .bind(station_id)
                .bind(email)
                .fetch_one(&mut *tx)
                .await?;
        sqlx::query(
            "INSERT INTO user_establishments (user_id, establishment_id) VALUES ($1, $2)
             ON CONFLICT DO NOTHING",
        )
        .bind(user_id)
        .bind(establishment_id)
        .execute(&mut *tx)
        .await?;
        anyhow::Ok(user_id)
    };
    let member_id = account("Maria Demo", MEMBER_EMAIL, MEMBER_PASSWORD, 2, "member").await?;
    let staff_id = account("Equipe Demo", STAFF_EMAIL, STAFF_PASSWORD, 1, "staff").await?;
    let viewer_id = account("Leitura Demo", VIEWER_EMAIL, VIEWER_PASSWORD, 1, "staff").await?;
    let lawyer_id = account("Marina Alves", DESK_EMAIL, DESK_PASSWORD, 1, "staff").await?;
    let blocked_id = account(
        "Bruno Bloqueado",
        BLOCKED_EMAIL,
        BLOCKED_PASSWORD,
        2,
        "member",
    )
    .await?;
    // Support console grants; an existing grant is left as it is, like every demo row.
    for (user_id, role, grant_station) in [
        (staff_id, "support", None),
        (viewer_id, "viewer", Some(station_id)),
    ] {
        sqlx::query(
            "INSERT INTO staff_grants (user_id, role, station_id) VALUES ($1, $2, $3)
             ON CONFLICT (user_id) DO NOTHING",
        )
        .bind(user_id)
        .bind(role)
        .bind(grant_station)
        .execute(&mut *tx)
        .await?;
    }
    // A desk grant and no console grant: the legal desk's lawyer works that desk alone.
    sqlx::query(
        "INSERT INTO service_desk_grants (user_id, station_id, service) VALUES ($1, $2, 'legal')
         ON CONFLICT DO NOTHING",
    )
    .bind(lawyer_id)
    .bind(station_id)
    .execute(&mut *tx)
    .await?;
    for (user_id, code) in [
        (member_id, "DEMOMEMB"),
        (staff_id, "DEMOEQUI"),
        (viewer_id, "DEMOLEIT"),
        (lawyer_id, "DEMOJURI"),
        (blocked_id, "DEMOBLOQ"),
    ] {
        sqlx::query("UPDATE users SET invite_code = $2 WHERE id = $1 AND invite_code IS NULL")
            .bind(user_id)
            .bind(code)
            .execute(&mut *tx)
            .await?;
    }
    // An invitation offer and a share activity, so invite and share links work in the demo.
    sqlx::query(
        "INSERT INTO mgm_rules (station_id, points_inviter, points_invited)
         SELECT $1, 100, 50 WHERE NOT EXISTS (SELECT 1 FROM mgm_rules WHERE station_id = $1)",
    )
    .bind(station_id)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "WITH share AS (
             INSERT INTO actions (station_id, type_id, name, points)
             SELECT $1, 5, 'Compartilhe o Clube Filia Demo', 10
              WHERE NOT EXISTS (SELECT 1 FROM actions WHERE station_id = $1 AND type_id = 5)
             RETURNING id)
         INSERT INTO action_contents (action_id, position, text, link)
         SELECT id, 0, 'Conheça o Clube Filia Demo', $2 FROM share",
    )
    .bind(station_id)
    .bind(format!("{}/cadastrar", public_url.trim_end_matches('/')))
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO actions (station_id, type_id, name, points)
         SELECT $1, 2, 'Recompensa de cadastro', 50
          WHERE NOT EXISTS (SELECT 1 FROM actions WHERE station_id = $1 AND type_id = 2)",
    )
    .bind(station_id)
    .execute(&mut *tx)
    .await?;
    member_history(&mut tx, station_id, member_id).await?;
    sqlx::query("UPDATE users SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL")
        .bind(blocked_id)
        .execute(&mut *tx)
        .await?;

    tx.commit().await?;
    Ok(DemoStation {
        station_id,
        establishment_id,
        member_id,
        staff_id,
        viewer_id,
    })
}

/// A short statement for the demo member: the sign-up reward written straight through the
/// ledger on the seed's transaction (no `points.credit` job), a release batch of the demo
/// station up to that lot's `available_at` (which also releases any other of its lots due
/// by then), and one purchase paid with points. Each step is keyed, so seeding again adds
/// nothing.
async fn member_history(
    tx: &mut PgConnection,
    station_id: i64,
    member_id: i64,
) -> anyhow::Result<()> {
    for credit in rewards::on_account_confirmed(&mut *tx, member_id).await? {
        let credited = ledger::credit(&mut *tx, &credit, None).await?;
        if credited.created && credited.state == LotState::Pending {
            // Releases only what is due by this lot's own time, as the station's next
            // scheduled release would.
            let due: DateTime<Utc> =
                sqlx::query_scalar("SELECT available_at FROM credit_lots WHERE id = $1")
                    .bind(credited.lot_id)
                    .fetch_one(&mut *tx)
                    .await?;
            release_batch(&mut *tx, station_id, due, 100, "demo-seed").await?;
        }
    }
    let order = Spend {
        user_id: UserId(member_id),
        station_id: StationId(station_id),
        kind: SpendKind::Purchase,
        source_id: "demo-pedido-1".into(),
        amount: 2000,
        description: "Pedido de demonstração".into(),
        action_id: None,
    };
    match ledger::spend(&mut *tx, &order).await {
        // A station whose reward was turned off before the first seed has nothing to spend.
        Ok(_) | Err(LedgerError::Insufficient { .. }) => Ok(()),
        Err(err) => Err(err.into()),
    }
}
