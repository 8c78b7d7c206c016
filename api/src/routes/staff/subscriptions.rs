//! The console's subscriptions (docs/api-subscriptions.md, "Console"): a station's
//! subscriptions with their periods and tries, a retry of the unpaid period now, a cancel.
//! Actions need the `support` role and are audited.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use domain::shared::ids::{StationId, UserId};
use domain::stations::StationError;
use domain::subscriptions::views;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::staff::{OpsResult, Staff};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(station_subscriptions))
        .routes(routes!(retry_subscription))
        .routes(routes!(cancel_subscription))
}

/// The newest subscriptions a page shows.
const LIMIT: i64 = 200;

#[derive(Debug, Deserialize)]
struct SubscriptionsQuery {
    user_id: Option<i64>,
}

/// One try at the provider for a period.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ConsoleSubscriptionTry)]
struct Try {
    id: i64,
    attempt: i32,
    /// Centavos.
    amount: i64,
    /// `started`, `pending`, `processing`, `paid`, `failed`, `canceled`, `refunded`.
    #[schema(value_type = String)]
    status: &'static str,
    failure_reason: Option<String>,
    /// The provider's charge id, as its dashboard names it.
    gateway_charge_id: Option<String>,
    created_at: DateTime<Utc>,
    settled_at: Option<DateTime<Utc>>,
    /// Centavos the provider reports given back of this paid try (the bank, or staff at the
    /// provider): a whole refund ended the subscription, a partial one kept it.
    bank_refunded_cents: i64,
    /// When the card holder disputed it (a chargeback ends the subscription).
    chargedback_at: Option<DateTime<Utc>>,
}

/// One period (or an upgrade's proration) of a subscription.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ConsoleSubscriptionPeriod)]
struct Period {
    id: i64,
    /// `first`, `renewal` or `proration`.
    #[schema(value_type = String)]
    kind: &'static str,
    period_index: i32,
    starts_at: DateTime<Utc>,
    ends_at: DateTime<Utc>,
    /// Centavos.
    amount: i64,
    /// `due`, `paid`, `failed`, `void`.
    #[schema(value_type = String)]
    status: &'static str,
    attempts: i32,
    next_attempt_at: Option<DateTime<Utc>>,
    paid_at: Option<DateTime<Utc>>,
    tries: Vec<Try>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ConsoleSubscription)]
struct Subscription {
    id: i64,
    user_id: i64,
    user_name: String,
    plan_id: Option<i64>,
    action_id: Option<i64>,
    product_id: Option<i64>,
    /// The plan's name, or the type 21 activity's.
    name: String,
    product_name: Option<String>,
    /// The card renewals charge.
    card_brand: Option<String>,
    card_last_digits: Option<String>,
    recurrence: String,
    /// Centavos a period.
    amount: i64,
    #[schema(value_type = String)]
    status: &'static str,
    current_period: i32,
    current_period_start: DateTime<Utc>,
    current_period_end: DateTime<Utc>,
    cancel_at_period_end: bool,
    next_plan_id: Option<i64>,
    /// The waiting downgrade's plan, by name.
    next_plan_name: Option<String>,
    created_at: DateTime<Utc>,
    /// Newest first.
    periods: Vec<Period>,
}

impl From<views::ConsoleSubscription> for Subscription {
    fn from(subscription: views::ConsoleSubscription) -> Self {
        let views::ConsoleSubscription {
            id,
            user_id,
            user_name,
            plan_id,
            action_id,
            product_id,
            name,
            product_name,
            card_brand,
            card_last_digits,
            recurrence,
            amount,
            status,
            current_period,
            current_period_start,
            current_period_end,
            cancel_at_period_end,
            next_plan_id,
            next_plan_name,
            created_at,
            periods,
        } = subscription;
        Self {
            id,
            user_id,
            user_name,
            plan_id,
            action_id,
            product_id,
            name,
            product_name,
            card_brand,
            card_last_digits,
            recurrence,
            amount: amount.into(),
            status: status.as_str(),
            current_period,
            current_period_start,
            current_period_end,
            cancel_at_period_end,
            next_plan_id,
            next_plan_name,
            created_at,
            periods: periods.into_iter().map(Period::from).collect(),
        }
    }
}

impl From<views::ConsolePeriod> for Period {
    fn from(period: views::ConsolePeriod) -> Self {
        let views::ConsolePeriod {
            id,
            kind,
            period_index,
            starts_at,
            ends_at,
            amount,
            status,
            attempts,
            next_attempt_at,
            paid_at,
            tries,
        } = period;
        Self {
            id,
            kind: kind.as_str(),
            period_index,
            starts_at,
            ends_at,
            amount: amount.into(),
            status: status.as_str(),
            attempts,
            next_attempt_at,
            paid_at,
            tries: tries
                .into_iter()
                .map(
                    |views::ConsoleTry {
                         id,
                         attempt,
                         amount,
                         status,
                         failure_reason,
                         gateway_charge_id,
                         created_at,
                         settled_at,
                         bank_refunded_cents,
                         chargedback_at,
                     }| Try {
                        id,
                        attempt,
                        amount: amount.into(),
                        status: status.as_str(),
                        failure_reason,
                        gateway_charge_id,
                        created_at,
                        settled_at,
                        bank_refunded_cents: bank_refunded_cents.into(),
                        chargedback_at,
                    },
                )
                .collect(),
        }
    }
}

/// A station's subscriptions with their periods and tries
///
/// The newest 200, one member's with `user_id`. Viewers and support staff, within the
/// grant's stations.
#[utoipa::path(
    get,
    path = "/stations/{id}/subscriptions",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("id" = i64, Path, description = "The station id"),
        ("user_id" = Option<i64>, Query, description = "Only this member's"),
    ),
    responses(
        (status = 200, description = "The subscriptions, newest first", body = Vec<Subscription>),
        (status = 400, description = "A parameter is not a number", body = Messages),
        (status = 404, description = "No such station in the grant's scope", body = ErrorMessage),
    )
)]
async fn station_subscriptions(
    State(state): State<AppState>,
    staff: Staff,
    Path(station_id): Path<i64>,
    Query(query): Query<SubscriptionsQuery>,
) -> OpsResult<Json<Vec<Subscription>>> {
    if !staff.scope().covers_station(station_id) {
        return Err(StationError::NotFound.into());
    }
    let mut conn = state.db.acquire().await?;
    let list = views::of_station(
        &mut conn,
        StationId(station_id),
        query.user_id.map(UserId),
        LIMIT,
    )
    .await?;
    Ok(Json(list.into_iter().map(Subscription::from).collect()))
}

/// Tries a subscription's unpaid period again now
///
/// For a subscription whose renewal was declined (`past_due`): the period is tried at
/// once instead of at its next retry. Support staff only; audited.
#[utoipa::path(
    post,
    path = "/subscriptions/{id}/retry",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The subscription's id")),
    responses(
        (status = 202, description = "The retry is asked for"),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "a viewer (reads only)", body = ErrorMessage),
        (status = 404, description = "No such live subscription in the grant's scope", body = ErrorMessage),
    )
)]
async fn retry_subscription(
    State(state): State<AppState>,
    staff: Staff,
    Path(subscription_id): Path<i64>,
) -> OpsResult<StatusCode> {
    staff.require_support()?;
    app::subscriptions::console::retry(
        &state.db,
        &state.gateway,
        &jobs::JobOutbox,
        staff.scope(),
        staff.user_id(),
        subscription_id,
    )
    .await?;
    Ok(StatusCode::ACCEPTED)
}

/// Cancels a subscription
///
/// As the member's cancel: a paid-up one runs to its period's end and is not renewed, one
/// not paid up ends now. Support staff only; audited.
#[utoipa::path(
    post,
    path = "/subscriptions/{id}/cancel",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The subscription's id")),
    responses(
        (status = 204, description = "Cancelled"),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "a viewer (reads only)", body = ErrorMessage),
        (status = 404, description = "No such subscription in the grant's scope", body = ErrorMessage),
        (status = 422, description = "Cancelled already ('Esta assinatura já foi cancelada.')", body = Messages),
    )
)]
async fn cancel_subscription(
    State(state): State<AppState>,
    staff: Staff,
    Path(subscription_id): Path<i64>,
) -> OpsResult<StatusCode> {
    staff.require_support()?;
    app::subscriptions::console::cancel(
        &state.db,
        &state.gateway,
        staff.scope(),
        staff.user_id(),
        subscription_id,
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
