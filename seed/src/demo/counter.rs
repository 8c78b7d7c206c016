//! The partner's counter in the demo station: an account the demo partner granted
//! (`partner_staff`), the welcome kit picked up at that partner's counter, and a paid order
//! of the second demo member (Ana, [`super::feed`]) to hand over at
//! `/validador/pedido/{code}`. Runs after [`super::shop::seed`] and [`super::feed::seed`];
//! seeding again adds nothing.

use sqlx::PgPool;

use super::DemoStation;
use super::feed::NEIGHBOUR_EMAIL;
use super::shop::KIT_ACTIVITY;
use domain::accounts::password;
use domain::commerce::cart::Wanted;
use domain::commerce::checkout;
use domain::commerce::orders::{self, DeliveryChoice, PlaceOrder};
use domain::shared::ids::{StationId, UserId};
use domain::wallet::ledger::{self, Credit, SourceKind};

/// Staff of the demo partner ("Rede de Parceiros Paulista"): hands receipts' lines over and
/// validates vouchers of its activities.
pub const COUNTER_NAME: &str = "Paulo Balcão";
pub const COUNTER_EMAIL: &str = "balcao@demo.filia.com.br";
pub const COUNTER_PASSWORD: &str = "Balcao123";
/// What Ana bought, paid with her wallet, to pick up at the counter.
pub const PICKUP_PRODUCT: &str = "Caneca de cerâmica";
const PICKUP_PLACE: &str = "Retirada na sede do clube";

pub async fn seed(db: &PgPool, demo: &DemoStation) -> anyhow::Result<()> {
    debug_assert!(password::meets_rule(COUNTER_PASSWORD));
    let station_id = demo.station_id;
    let mut tx = db.begin().await?;
    sqlx::query(
        "INSERT INTO users (station_id, name, email, password_hash, type_id, role, active,
                            briefing_done, state)
         VALUES ($1, $2, $3, $4, 2, 'member', true, true, 'SP')
         ON CONFLICT (station_id, email) WHERE email IS NOT NULL DO NOTHING",
    )
    .bind(station_id)
    .bind(COUNTER_NAME)
    .bind(COUNTER_EMAIL)
    .bind(password::hash(COUNTER_PASSWORD)?)
    .execute(&mut *tx)
    .await?;
    let counter: i64 =
        sqlx::query_scalar("SELECT id FROM users WHERE station_id = $1 AND email = $2")
            .bind(station_id)
            .bind(COUNTER_EMAIL)
            .fetch_one(&mut *tx)
            .await?;
    sqlx::query(
        "INSERT INTO user_establishments (user_id, establishment_id) VALUES ($1, $2)
         ON CONFLICT DO NOTHING",
    )
    .bind(counter)
    .bind(demo.establishment_id)
    .execute(&mut *tx)
    .await?;
    // The partner the catalogue's type 3 and 4 activities have; the kit is picked up at
    // its counter too.
    let partner: Option<i64> = sqlx::query_scalar(
        "SELECT partner_id FROM actions
          WHERE station_id = $1 AND partner_id IS NOT NULL ORDER BY id LIMIT 1",
    )
    .bind(station_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(partner) = partner else {
        tracing::warn!("demo partner missing; counter skipped");
        return Ok(());
    };
    sqlx::query(
        "INSERT INTO partner_staff (user_id, partner_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
    )
    .bind(counter)
    .bind(partner)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE actions SET partner_id = $3
          WHERE station_id = $1 AND name = $2 AND partner_id IS NULL",
    )
    .bind(station_id)
    .bind(KIT_ACTIVITY)
    .bind(partner)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    ana_order(db, station_id).await
}

/// Ana's paid order of one mug, to pick up at the club: once.
async fn ana_order(db: &PgPool, station_id: i64) -> anyhow::Result<()> {
    let found: Option<(i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT u.id, p.id, p.action_id, d.id FROM users u
           JOIN products p ON p.station_id = u.station_id AND p.name = $3
           JOIN delivery_locations d ON d.action_id = p.action_id AND d.name = $4
          WHERE u.station_id = $1 AND u.email = $2",
    )
    .bind(station_id)
    .bind(NEIGHBOUR_EMAIL)
    .bind(PICKUP_PRODUCT)
    .bind(PICKUP_PLACE)
    .fetch_optional(db)
    .await?;
    let Some((ana, product_id, action_id, pickup)) = found else {
        tracing::warn!("demo pickup product missing; Ana's order skipped");
        return Ok(());
    };
    let ordered: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM orders o JOIN order_lines l ON l.order_id = o.id
                         WHERE o.user_id = $1 AND l.product_id = $2)",
    )
    .bind(ana)
    .bind(product_id)
    .fetch_one(db)
    .await?;
    if ordered {
        return Ok(());
    }
    let price: i64 =
        sqlx::query_scalar("SELECT value - discount_value FROM products WHERE id = $1")
            .bind(product_id)
            .fetch_one(db)
            .await?;
    let mut tx = db.begin().await?;
    ledger::credit(
        &mut tx,
        &Credit {
            user_id: UserId(ana),
            station_id: StationId(station_id),
            source_kind: SourceKind::Adjustment,
            source_id: "demo:caneca".into(),
            rule: "adjustment".into(),
            amount: price,
            description: "Crédito de boas-vindas".into(),
            action_id: None,
        },
        None,
    )
    .await?;
    checkout::confirm(
        &mut tx,
        station_id,
        ana,
        &[Wanted {
            product_id,
            quantity: 1,
        }],
    )
    .await?;
    let placed = orders::place(
        &mut tx,
        StationId(station_id),
        UserId(ana),
        &PlaceOrder {
            deliveries: vec![DeliveryChoice {
                action_id,
                delivery_location_id: Some(pickup),
                zipcode: None,
                address: None,
                number: None,
                reference: None,
            }],
            ..PlaceOrder::default()
        },
    )
    .await?;
    anyhow::ensure!(placed.paid, "Ana's demo order is not paid by her wallet");
    tx.commit().await?;
    Ok(())
}
