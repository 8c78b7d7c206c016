//! A station's plans as members read them (spec 002 "Plan"): the list `/homepage/planos`
//! shows, sorted by price, and one plan by id. A deleted plan is hidden from the list but
//! still read as the plan of a subscription made before it was deleted.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use sqlx::PgConnection;
use sqlx::types::Json;

use super::PlanPeriod;
use crate::infra::objects::Objects;
use crate::shared::ids::{Cents, StationId};

/// `GET /subscription-plans/{id}` of a plan that is not the station's, or deleted.
pub const PLAN_NOT_FOUND: &str = "Plano não encontrado.";

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Benefit {
    pub id: i64,
    pub benefit: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub id: i64,
    pub station_id: StationId,
    pub external_id: Option<String>,
    pub name: String,
    pub description: String,
    pub benefits: Vec<Benefit>,
    /// `None`: 'A negociar', sold by contact only.
    pub amount: Option<Cents>,
    pub discount: Cents,
    /// 30, 183 or 365 (the column's check).
    pub days: i32,
    pub is_highlighted: bool,
    /// The image's public URL.
    pub image: Option<String>,
    pub purchase_text: Option<String>,
    pub deleted_at: Option<DateTime<Utc>>,
}

impl Plan {
    /// What a period costs: the amount less the discount; `None` for 'A negociar'.
    pub fn price(&self) -> Option<Cents> {
        self.amount.map(|amount| amount - self.discount)
    }

    pub fn period(&self) -> PlanPeriod {
        // The column only holds the three; a month is the safe reading of anything else.
        PlanPeriod::from_days(self.days).unwrap_or(PlanPeriod::Month)
    }
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    station_id: i64,
    external_id: Option<String>,
    name: String,
    description: String,
    benefits: Json<Vec<Benefit>>,
    amount: Option<i64>,
    discount: i64,
    days: i32,
    is_highlighted: bool,
    image_key: Option<String>,
    purchase_text: Option<String>,
    deleted_at: Option<DateTime<Utc>>,
}

impl From<Row> for Plan {
    fn from(row: Row) -> Self {
        Self {
            id: row.id,
            station_id: StationId(row.station_id),
            external_id: row.external_id,
            name: row.name,
            description: row.description,
            benefits: row.benefits.0,
            amount: row.amount.map(Cents),
            discount: Cents(row.discount),
            days: row.days,
            is_highlighted: row.is_highlighted,
            image: row.image_key.as_deref().map(Objects::url),
            purchase_text: row.purchase_text,
            deleted_at: row.deleted_at,
        }
    }
}

const SELECT: &str = "SELECT p.id, p.station_id, p.external_id, p.name, p.description,
        COALESCE((SELECT json_agg(json_build_object('id', b.id, 'benefit', b.benefit)
                                  ORDER BY b.position, b.id)
                    FROM plan_benefits b WHERE b.plan_id = p.id), '[]'::json) AS benefits,
        p.amount, p.discount, p.days, p.is_highlighted, p.image_key, p.purchase_text,
        p.deleted_at
   FROM plans p";

/// The station's plans on sale: deleted ones hidden, cheapest first (amount less
/// discount), 'A negociar' last.
pub async fn of_station(conn: &mut PgConnection, station_id: StationId) -> sqlx::Result<Vec<Plan>> {
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} WHERE p.station_id = $1 AND p.deleted_at IS NULL
          ORDER BY p.amount - p.discount ASC NULLS LAST, p.id"
    )))
    .bind(station_id)
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(Plan::from).collect())
}

/// One plan of the station still on sale.
pub async fn on_sale(
    conn: &mut PgConnection,
    station_id: StationId,
    plan_id: i64,
) -> sqlx::Result<Option<Plan>> {
    Ok(find(conn, station_id, plan_id)
        .await?
        .filter(|plan| plan.deleted_at.is_none()))
}

/// One plan of the station, deleted or not (a subscription's plan outlives its sale).
pub async fn find(
    conn: &mut PgConnection,
    station_id: StationId,
    plan_id: i64,
) -> sqlx::Result<Option<Plan>> {
    let row: Option<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} WHERE p.id = $1 AND p.station_id = $2"
    )))
    .bind(plan_id)
    .bind(station_id)
    .fetch_optional(conn)
    .await?;
    Ok(row.map(Plan::from))
}

/// The enterprise form's message (`/homepage/planos/sobconsulta`): at most this long.
pub const ENTERPRISE_MESSAGE_MAX: usize = 600;
pub const ENTERPRISE_MESSAGE_REQUIRED: &str = "message: Esse campo é obrigatório";
pub const ENTERPRISE_MESSAGE_TOO_LONG: &str =
    "message: Esse campo deve possuir no máximo 600 caracteres";
/// A station without a contact address cannot be asked.
pub const ENTERPRISE_NO_CONTACT: &str = "Este clube não recebe consultas de planos no momento.";

/// The enterprise form's message, trimmed, or why it is refused.
pub fn enterprise_message(message: &str) -> Result<&str, &'static str> {
    let message = message.trim();
    if message.is_empty() {
        Err(ENTERPRISE_MESSAGE_REQUIRED)
    } else if message.chars().count() > ENTERPRISE_MESSAGE_MAX {
        Err(ENTERPRISE_MESSAGE_TOO_LONG)
    } else {
        Ok(message)
    }
}

/// The e-mail an enterprise query sends to the station's `contact_mail`: who asks (name,
/// e-mail, phone) and what. `None` when the station has no contact address.
pub async fn enterprise_mail(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: crate::shared::ids::UserId,
    message: &str,
    public_url: &str,
) -> sqlx::Result<Option<crate::accounts::change::Mail>> {
    use crate::infra::mail::{Branding, Notice, OutgoingMail};
    let Some(station) = crate::stations::station::find(&mut *conn, station_id.0).await? else {
        return Ok(None);
    };
    let Some(to) = station
        .contact_mail
        .clone()
        .filter(|mail| !mail.trim().is_empty())
    else {
        return Ok(None);
    };
    let (name, email, tel): (String, Option<String>, Option<String>) =
        sqlx::query_as("SELECT name, email, tel FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_one(&mut *conn)
            .await?;
    let notice = Notice {
        heading: "Consulta de plano empresarial".into(),
        paragraphs: vec![
            format!(
                "{name} ({}, {}) pediu um plano sob consulta:",
                email.as_deref().unwrap_or("sem e-mail"),
                tel.as_deref().unwrap_or("sem telefone"),
            ),
            message.to_string(),
        ],
        button: None,
    };
    let mail = OutgoingMail::notice(
        &Branding::of(&station, public_url),
        to,
        "Consulta de plano empresarial",
        &notice,
    );
    Ok(Some(crate::accounts::change::Mail {
        mail,
        station_id: station_id.0,
        user_id: Some(user_id.0),
        about: ("user", user_id.0),
    }))
}
