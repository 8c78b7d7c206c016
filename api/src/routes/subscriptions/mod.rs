//! Plans and subscriptions (docs/api-subscriptions.md): the station's plans, the member's
//! plan (buy, change, cancel, its card), their charges, type 21 product subscriptions and
//! the enterprise plan form. Every member call sees only the member's station and the
//! member's own subscriptions.

use chrono::{DateTime, Utc};
use domain::subscriptions::plans as plan_rules;
use domain::subscriptions::views;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub mod card_form;
pub mod member_subscriptions;
pub mod plans;
pub mod products;

pub fn router() -> OpenApiRouter<AppState> {
    plans::router()
        .merge(member_subscriptions::router())
        .merge(products::router())
}

/// A plan's benefit line.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlanBenefit {
    pub id: i64,
    pub benefit: String,
}

/// A plan (spec 002 "Plan"). Money in centavos.
#[derive(Debug, Serialize, ToSchema)]
pub struct Plan {
    pub id: i64,
    pub external_id: Option<String>,
    pub name: String,
    pub description: String,
    pub benefits: Vec<PlanBenefit>,
    /// Centavos a period; null is 'A negociar' (sold by contact only).
    pub amount: Option<i64>,
    /// Centavos off the amount.
    pub discount: i64,
    /// 30 (month), 183 (semester) or 365 (year).
    pub days: i32,
    pub is_highlighted: bool,
    /// Null for a plan on sale; a subscription's plan may have been deleted since.
    #[serde(rename = "deletedAt")]
    pub deleted_at: Option<DateTime<Utc>>,
    pub image: Option<String>,
    pub purchase_text: Option<String>,
}

impl From<plan_rules::Plan> for Plan {
    fn from(plan: plan_rules::Plan) -> Self {
        let plan_rules::Plan {
            id,
            station_id: _,
            external_id,
            name,
            description,
            benefits,
            amount,
            discount,
            days,
            is_highlighted,
            image,
            purchase_text,
            deleted_at,
        } = plan;
        Self {
            id,
            external_id,
            name,
            description,
            benefits: benefits
                .into_iter()
                .map(|plan_rules::Benefit { id, benefit }| PlanBenefit { id, benefit })
                .collect(),
            amount: amount.map(i64::from),
            discount: discount.into(),
            days,
            is_highlighted,
            deleted_at,
            image,
            purchase_text,
        }
    }
}

/// The card that pays the subscription.
#[derive(Debug, Serialize, ToSchema)]
pub struct SubscriptionCard {
    /// The saved card's id (`selected_card`).
    pub id: i64,
    pub brand: String,
    pub last_digits: String,
    /// `MM/YY`, null when not known.
    pub expiration_date: Option<String>,
}

/// The last paid period's charge.
#[derive(Debug, Serialize, ToSchema)]
pub struct SubscriptionTransaction {
    /// The paid charge's id; null when the period cost nothing.
    pub id: Option<i64>,
    /// When the period was paid.
    pub date_created: DateTime<Utc>,
}

/// The member's plan subscription (spec 002 "User subscription").
#[derive(Debug, Serialize, ToSchema)]
pub struct UserSubscription {
    pub id: i64,
    pub plan: Plan,
    /// `incomplete` (first charge not paid yet), `active`, `past_due` (a renewal declined,
    /// being retried), `canceled`, `ended`.
    #[schema(value_type = String, examples("active"))]
    pub status: &'static str,
    /// Centavos a period (fixed when subscribing or changing plan).
    pub amount: i64,
    pub card: Option<SubscriptionCard>,
    pub current_period_end: DateTime<Utc>,
    pub cancel_at_period_end: bool,
    /// A downgrade waiting for the period's end.
    pub next_plan: Option<Plan>,
    pub transaction: Option<SubscriptionTransaction>,
    pub internal_id: String,
}

impl From<views::UserSubscription> for UserSubscription {
    fn from(subscription: views::UserSubscription) -> Self {
        let views::UserSubscription {
            id,
            plan,
            status,
            amount,
            card,
            current_period_end,
            cancel_at_period_end,
            next_plan,
            transaction,
            internal_id,
        } = subscription;
        Self {
            id,
            plan: plan.into(),
            status: status.as_str(),
            amount: amount.into(),
            card: card.map(
                |views::Card {
                     id,
                     brand,
                     last_digits,
                     expiration_date,
                 }| SubscriptionCard {
                    id,
                    brand,
                    last_digits,
                    expiration_date,
                },
            ),
            current_period_end,
            cancel_at_period_end,
            next_plan: next_plan.map(Plan::from),
            transaction: transaction.map(|views::Transaction { id, date_created }| {
                SubscriptionTransaction { id, date_created }
            }),
            internal_id,
        }
    }
}

/// The member's live plan as `User.subscription` carries it.
pub async fn member_subscription(
    state: &AppState,
    station_id: domain::shared::ids::StationId,
    user_id: domain::shared::ids::UserId,
) -> Result<Option<UserSubscription>, sqlx::Error> {
    let mut conn = state.db.acquire().await?;
    Ok(views::live_plan(&mut conn, station_id, user_id)
        .await?
        .map(UserSubscription::from))
}

/// The station's plans as `Station.plans` carries them.
pub async fn station_plans(
    state: &AppState,
    station_id: domain::shared::ids::StationId,
) -> Result<Vec<Plan>, sqlx::Error> {
    let mut conn = state.db.acquire().await?;
    Ok(plan_rules::of_station(&mut conn, station_id)
        .await?
        .into_iter()
        .map(Plan::from)
        .collect())
}
