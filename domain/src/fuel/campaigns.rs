//! A station's fuel campaigns: the open ones a member may take a voucher of (published,
//! within their window, budget left), each with whether the member holds its voucher; and
//! making one (the back office's and the demo's).

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use sqlx::{PgExecutor, PgPool};

use super::{FuelRefused, offered};
use crate::infra::objects::Objects;
use crate::shared::ids::{StationId, UserId};

/// The most campaigns one answer holds (a station runs a handful at once).
pub const MAX_CAMPAIGNS: i64 = 100;

/// A campaign as a member sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Campaign {
    pub id: i64,
    pub name: String,
    pub description: String,
    /// The picture's URL.
    pub image: Option<String>,
    pub voucher_type: String,
    pub litres: Decimal,
    pub value_cents: i64,
    /// A voucher is valid this many days from its issue.
    pub valid_days: i32,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    /// Whether the member asking holds this campaign's voucher.
    pub taken: bool,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    name: String,
    description: String,
    image_key: Option<String>,
    voucher_type: String,
    litres: Decimal,
    value_cents: i64,
    valid_days: i32,
    starts_at: DateTime<Utc>,
    ends_at: DateTime<Utc>,
    taken: bool,
}

impl From<Row> for Campaign {
    fn from(row: Row) -> Self {
        Self {
            id: row.id,
            name: row.name,
            description: row.description,
            image: row.image_key.as_deref().map(Objects::url),
            voucher_type: row.voucher_type,
            litres: row.litres,
            value_cents: row.value_cents,
            valid_days: row.valid_days,
            starts_at: row.starts_at,
            ends_at: row.ends_at,
            taken: row.taken,
        }
    }
}

/// The station's campaigns open at `now` (published, started, not ended, budget left),
/// ending soonest first, each saying whether `user` holds its voucher. A campaign whose
/// budget is spent still shows to a member who holds one of its vouchers.
pub async fn open(
    db: &PgPool,
    station: StationId,
    user: UserId,
    now: DateTime<Utc>,
) -> Result<Vec<Campaign>, FuelRefused> {
    offered(db, station).await?;
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT c.id, c.name, c.description, c.image_key, c.voucher_type, c.litres,
                c.value_cents, c.valid_days, c.starts_at, c.ends_at,
                EXISTS (SELECT 1 FROM fuel_vouchers v
                         WHERE v.campaign_id = c.id AND v.user_id = $2) AS taken
           FROM fuel_campaigns c
          WHERE c.station_id = $1 AND c.published AND c.starts_at <= $3 AND c.ends_at > $3
            AND (c.vouchers_issued < c.voucher_budget
                 OR EXISTS (SELECT 1 FROM fuel_vouchers v
                             WHERE v.campaign_id = c.id AND v.user_id = $2))
          ORDER BY c.ends_at, c.id
          LIMIT $4",
    )
    .bind(station.0)
    .bind(user.0)
    .bind(now)
    .bind(MAX_CAMPAIGNS)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(Campaign::from).collect())
}

/// A campaign to make.
#[derive(Debug, Clone)]
pub struct NewCampaign {
    pub station_id: i64,
    pub name: String,
    pub description: String,
    pub image_key: Option<String>,
    pub voucher_type: String,
    pub litres: Decimal,
    pub value_cents: i64,
    pub valid_days: i32,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub voucher_budget: i32,
    pub published: bool,
}

/// Makes a campaign; answers its id.
pub async fn create(db: impl PgExecutor<'_>, campaign: &NewCampaign) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO fuel_campaigns (station_id, name, description, image_key, voucher_type,
                                     litres, value_cents, valid_days, starts_at, ends_at,
                                     voucher_budget, published)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         RETURNING id",
    )
    .bind(campaign.station_id)
    .bind(&campaign.name)
    .bind(&campaign.description)
    .bind(&campaign.image_key)
    .bind(&campaign.voucher_type)
    .bind(campaign.litres)
    .bind(campaign.value_cents)
    .bind(campaign.valid_days)
    .bind(campaign.starts_at)
    .bind(campaign.ends_at)
    .bind(campaign.voucher_budget)
    .bind(campaign.published)
    .fetch_one(db)
    .await
}
