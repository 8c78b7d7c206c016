//! The demo station's fuel campaign: turned on, with three campaigns open from the day
//! before the seed for three months, each with a picture drawn here. Seeded once: a station
//! with any campaign keeps its campaigns (the setting is turned on again).

use chrono::{Duration, Utc};
use rust_decimal::Decimal;
use sqlx::PgPool;

use super::DemoStation;
use super::art::{self, Palette};
use domain::fuel::campaigns::{self, NewCampaign};
use domain::infra::objects::Objects;

/// The campaign the browser test takes a voucher of.
pub const FIRST_CAMPAIGN: &str = "Gasolina do associado";

const RED: Palette = Palette {
    from: [196, 40, 52],
    to: [242, 165, 65],
};
const GREEN: Palette = Palette {
    from: [14, 124, 102],
    to: [170, 214, 92],
};
const SLATE: Palette = Palette {
    from: [44, 62, 80],
    to: [120, 150, 180],
};

struct Offer {
    name: &'static str,
    description: &'static str,
    voucher_type: &'static str,
    /// Hundredths of a litre.
    centilitres: i64,
    value_cents: i64,
    valid_days: i32,
    budget: i32,
    palette: Palette,
}

const OFFERS: [Offer; 3] = [
    Offer {
        name: FIRST_CAMPAIGN,
        description: "20 litros de gasolina comum por associado, para abastecer em qualquer \
                      posto conveniado.",
        voucher_type: "Gasolina comum",
        centilitres: 2_000,
        value_cents: 11_980,
        valid_days: 30,
        budget: 500,
        palette: RED,
    },
    Offer {
        name: "Etanol na semana do associado",
        description: "25 litros de etanol para quem é associado, válidos por 15 dias a partir \
                      da emissão.",
        voucher_type: "Etanol",
        centilitres: 2_500,
        value_cents: 9_975,
        valid_days: 15,
        budget: 300,
        palette: GREEN,
    },
    Offer {
        name: "Diesel para quem trabalha na estrada",
        description: "40 litros de diesel S10 para associados motoristas e autônomos.",
        voucher_type: "Diesel S10",
        centilitres: 4_000,
        value_cents: 23_960,
        valid_days: 30,
        budget: 100,
        palette: SLATE,
    },
];

pub async fn seed(db: &PgPool, objects: &Objects, demo: &DemoStation) -> anyhow::Result<()> {
    let station_id = demo.station_id;
    sqlx::query("UPDATE stations SET fuel_campaign_access = true WHERE id = $1")
        .bind(station_id)
        .execute(db)
        .await?;
    let seeded: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM fuel_campaigns WHERE station_id = $1)")
            .bind(station_id)
            .fetch_one(db)
            .await?;
    if seeded {
        return Ok(());
    }
    let now = Utc::now();
    // The pictures first: the rows then commit together, so a failed seed leaves none.
    let mut rows = Vec::new();
    for (index, offer) in OFFERS.iter().enumerate() {
        let key = format!("demo/fuel/{index}.png");
        objects
            .put(
                &key,
                art::banner(art::CARD_SIZE, offer.palette, 60 + index as u32)?,
            )
            .await?;
        rows.push(NewCampaign {
            station_id,
            name: offer.name.into(),
            description: offer.description.into(),
            image_key: Some(key),
            voucher_type: offer.voucher_type.into(),
            litres: Decimal::new(offer.centilitres, 2),
            value_cents: offer.value_cents,
            valid_days: offer.valid_days,
            starts_at: now - Duration::days(1),
            ends_at: now + Duration::days(90),
            voucher_budget: offer.budget,
            published: true,
        });
    }
    let mut tx = db.begin().await?;
    for row in &rows {
        campaigns::create(&mut *tx, row).await?;
    }
    tx.commit().await?;
    Ok(())
}
