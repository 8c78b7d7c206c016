//! Type 21 product subscriptions (spec 001 type 21, spec 002 'Minhas assinaturas'):
//! `POST /subscribe-product-action`, `GET /user-subscribed-action`,
//! `GET /last-action-subscription`, `POST /cancel-user-subscribed-action/{id}`.

use app::subscriptions::subscribe::{self as use_case, Charged, ProductChoice};
use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use domain::subscriptions::subscribe::SUBSCRIPTION_NOT_FOUND;
use domain::subscriptions::views;
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::card_form::CardFields;
use super::member_subscriptions::SubscribeLimit;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::member::Member;
use crate::member_throttle::throttle;
use crate::routes::commerce::whole;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(subscribe_product))
        .routes(routes!(subscribed_actions))
        .routes(routes!(last_action_subscription))
        .routes(routes!(cancel_subscribed_action))
}

/// A product line of the form.
#[derive(Debug, Deserialize, ToSchema)]
struct ProductLine {
    #[schema(value_type = i64)]
    id: Value,
    #[serde(default)]
    #[schema(value_type = i64)]
    quantity: Value,
}

#[derive(Debug, Deserialize, ToSchema)]
struct SubscribeProductForm {
    #[serde(default)]
    #[schema(value_type = i64)]
    action_id: Value,
    /// One of the activity's `action_subscriptions` (its recurrence).
    #[serde(default)]
    #[schema(value_type = i64)]
    action_subscription_id: Value,
    /// One product with a quantity above 0.
    #[serde(default)]
    products: Vec<ProductLine>,
    #[serde(flatten)]
    card: CardFields,
}

#[derive(Debug, Serialize, ToSchema)]
struct ActionRef {
    id: i64,
    name: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct ProductRef {
    id: i64,
    name: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct ActionSubscriptionRef {
    id: Option<i64>,
    /// `weekly`, `biweekly`, `monthly`, `bimonthly`, `quarterly`, `halfyearly`, `yearly`.
    recurrence: String,
    description: Option<String>,
}

/// A member's type 21 subscription.
#[derive(Debug, Serialize, ToSchema)]
struct SubscribedAction {
    id: i64,
    action_id: i64,
    action_subscription_id: Option<i64>,
    product_id: i64,
    quantity: i32,
    /// Centavos a period.
    amount: i64,
    /// `incomplete`, `active`, `past_due`, `canceled`, `ended`.
    status: &'static str,
    /// The subscription is over (cancelled or ended) or will not renew.
    cancelled: bool,
    current_period_start: DateTime<Utc>,
    current_period_end: DateTime<Utc>,
    cancel_at_period_end: bool,
    canceled_at: Option<DateTime<Utc>>,
    #[serde(rename = "createdAt")]
    created_at: DateTime<Utc>,
    action: ActionRef,
    product: ProductRef,
    action_subscription: ActionSubscriptionRef,
}

impl From<views::ProductSubscription> for SubscribedAction {
    fn from(subscription: views::ProductSubscription) -> Self {
        let views::ProductSubscription {
            id,
            action_id,
            action_name,
            action_subscription_id,
            recurrence,
            description,
            product_id,
            product_name,
            quantity,
            amount,
            status,
            current_period_start,
            current_period_end,
            cancel_at_period_end,
            canceled_at,
            created_at,
        } = subscription;
        Self {
            id,
            action_id,
            action_subscription_id,
            product_id,
            quantity,
            amount: amount.into(),
            status: status.as_str(),
            cancelled: !status.is_live() || cancel_at_period_end,
            current_period_start,
            current_period_end,
            cancel_at_period_end,
            canceled_at,
            created_at,
            action: ActionRef {
                id: action_id,
                name: action_name,
            },
            product: ProductRef {
                id: product_id,
                name: product_name,
            },
            action_subscription: ActionSubscriptionRef {
                id: action_subscription_id,
                recurrence,
                description,
            },
        }
    }
}

async fn subscribed_action(
    state: &AppState,
    member: Member,
    subscription_id: i64,
) -> ApiResult<SubscribedAction> {
    let mut conn = state.db.acquire().await?;
    Ok(
        views::product_subscription(&mut conn, member.station(), member.user(), subscription_id)
            .await?
            .ok_or_else(|| ApiError::not_found(SUBSCRIPTION_NOT_FOUND))?
            .into(),
    )
}

/// Subscribes to a type 21 activity's product
///
/// Amount a period: the product's price (value less discount) times the quantity; the
/// period is the chosen recurrence's. The first period is charged at once with the card
/// (a saved one or a new one from the tokeniser); one that costs nothing needs none.
#[utoipa::path(
    post,
    path = "/subscribe-product-action",
    tag = "subscriptions",
    security(("member" = [])),
    request_body = SubscribeProductForm,
    responses(
        (status = 201, description = "Subscribed and paid", body = SubscribedAction),
        (status = 202, description = "The card is under the provider's analysis: `incomplete` until it decides", body = SubscribedAction),
        (status = 409, description = "The caller already subscribes to this activity", body = ErrorMessage),
        (status = 422, description = "'Produto não selecionado' (no product with a quantity), 'Selecione apenas um produto para a assinatura.', 'Produto indisponível para assinatura no momento.' (the product inactive or out of stock, the activity not a live type 21 of the station), 'Recorrência de assinatura inválida.', a card field missing or wrong, the card declined (the provider's reason)", body = Messages),
        (status = 429, description = "Too many calls in a short time", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn subscribe_product(
    State(state): State<AppState>,
    member: Member,
    Json(form): Json<SubscribeProductForm>,
) -> ApiResult<(StatusCode, Json<SubscribedAction>)> {
    throttle::<SubscribeLimit>(&state, &member).await?;
    let unavailable = || ApiError::invalid(domain::subscriptions::subscribe::PRODUCT_UNAVAILABLE);
    let action_id = whole(&form.action_id).ok_or_else(unavailable)?;
    let action_subscription_id = whole(&form.action_subscription_id)
        .ok_or_else(|| ApiError::invalid(domain::subscriptions::subscribe::RECURRENCE_NOT_FOUND))?;
    let mut products = Vec::new();
    for line in &form.products {
        let id = whole(&line.id).ok_or_else(unavailable)?;
        let quantity = match &line.quantity {
            Value::Null => 1,
            other => whole(other).ok_or_else(unavailable)?,
        };
        products.push((id, quantity));
    }
    let card = form.card.paying_card(&state).await?;
    let subscribed = use_case::subscribe_product(
        &state.db,
        &state.gateway,
        &JobOutbox,
        member.station(),
        member.user(),
        &ProductChoice {
            action_id,
            action_subscription_id,
            products,
        },
        card.as_ref(),
    )
    .await?;
    let status = match subscribed.charged {
        Charged::Done => StatusCode::CREATED,
        Charged::Processing => StatusCode::ACCEPTED,
    };
    let subscription = subscribed_action(&state, member, subscribed.subscription_id).await?;
    Ok((status, Json(subscription)))
}

/// `?where[action_id]={id}`: one activity's subscriptions only.
#[derive(Debug, Deserialize)]
struct ActionQuery {
    #[serde(rename = "where[action_id]")]
    action_id: Option<i64>,
}

/// The caller's type 21 subscriptions, newest first
#[utoipa::path(
    get,
    path = "/user-subscribed-action",
    tag = "subscriptions",
    security(("member" = [])),
    params(("where[action_id]" = Option<i64>, Query, description = "Only this activity's")),
    responses(
        (status = 200, description = "The subscriptions", body = Vec<SubscribedAction>),
        (status = 400, description = "A parameter is not a number", body = Messages),
    )
)]
async fn subscribed_actions(
    State(state): State<AppState>,
    member: Member,
    Query(query): Query<ActionQuery>,
) -> ApiResult<Json<Vec<SubscribedAction>>> {
    let mut conn = state.db.acquire().await?;
    let list =
        views::product_subscriptions(&mut conn, member.station(), member.user(), query.action_id)
            .await?;
    Ok(Json(list.into_iter().map(SubscribedAction::from).collect()))
}

/// The caller's latest subscription to one type 21 activity, or null
#[utoipa::path(
    get,
    path = "/last-action-subscription",
    tag = "subscriptions",
    security(("member" = [])),
    params(("where[action_id]" = i64, Query, description = "The activity")),
    responses(
        (status = 200, description = "The latest subscription, or null", body = Option<SubscribedAction>),
        (status = 400, description = "No activity, or not a number", body = Messages),
    )
)]
async fn last_action_subscription(
    State(state): State<AppState>,
    member: Member,
    Query(query): Query<ActionQuery>,
) -> ApiResult<Json<Option<SubscribedAction>>> {
    let action_id = query
        .action_id
        .ok_or_else(|| ApiError::BadRequest("where[action_id] é obrigatório.".into()))?;
    let mut conn = state.db.acquire().await?;
    let latest =
        views::product_subscriptions(&mut conn, member.station(), member.user(), Some(action_id))
            .await?
            .into_iter()
            .next();
    Ok(Json(latest.map(SubscribedAction::from)))
}

#[derive(Debug, Deserialize, ToSchema)]
struct CancelActionRequest {
    /// The subscription's activity, when sent, must match it.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    action_id: Value,
}

/// Cancels one of the caller's type 21 subscriptions
///
/// A paid-up one runs to its period's end and is not renewed; one not paid up ends now.
#[utoipa::path(
    post,
    path = "/cancel-user-subscribed-action/{id}",
    tag = "subscriptions",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The subscription's id")),
    request_body = CancelActionRequest,
    responses(
        (status = 200, description = "The subscription, cancelled", body = SubscribedAction),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 404, description = "No such type 21 subscription of the caller's (or not of that activity)", body = ErrorMessage),
        (status = 422, description = "Already cancelled ('Esta assinatura já foi cancelada.')", body = Messages),
    )
)]
async fn cancel_subscribed_action(
    State(state): State<AppState>,
    member: Member,
    Path(subscription_id): Path<i64>,
    Json(request): Json<CancelActionRequest>,
) -> ApiResult<Json<SubscribedAction>> {
    let action_id = match &request.action_id {
        Value::Null => None,
        other => Some(whole(other).ok_or_else(|| ApiError::invalid("action_id inválido."))?),
    };
    use_case::cancel_product(
        &state.db,
        &state.gateway,
        member.station(),
        member.user(),
        subscription_id,
        action_id,
    )
    .await?;
    Ok(Json(
        subscribed_action(&state, member, subscription_id).await?,
    ))
}
