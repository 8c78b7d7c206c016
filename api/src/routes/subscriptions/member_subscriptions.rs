//! The member's plan: `POST /subscriptions` (comprar), `PUT /subscriptions/{id}` (mudar),
//! `POST /subscriptions/cancel`, `PUT /subscriptions/{id}/card` (editar-pagamento), and
//! `GET /subscriptions/?where[user_id]=` (the charges of 'Minhas assinaturas').

use app::subscriptions::subscribe::{self as use_case, Charged, Subscribed};
use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use domain::shared::time;
use domain::subscriptions::subscribe::SUBSCRIPTION_NOT_FOUND;
use domain::subscriptions::views;
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::UserSubscription;
use super::card_form::CardFields;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::member::Member;
use crate::member_throttle::{MemberLimit, throttle};
use crate::routes::commerce::{own, whole};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(buy_plan))
        .routes(routes!(change_subscription_plan))
        .routes(routes!(cancel_plan))
        .routes(routes!(change_subscription_card))
        .routes(routes!(subscription_charges))
}

/// Calls that charge the provider: as many as the checkout's orders allow
/// (`FILIA_ORDERS_MAX_PER_MEMBER` per `FILIA_ORDERS_WINDOW_SECONDS`).
pub(super) struct SubscribeLimit;

impl MemberLimit for SubscribeLimit {
    const NAME: &'static str = "subscriptions";
    const MESSAGE: &'static str =
        "Muitas tentativas de assinatura em pouco tempo. Aguarde alguns minutos e tente novamente.";
    fn limit(config: &domain::Config) -> (u32, u64) {
        (config.orders_max_per_member, config.orders_window_seconds)
    }
}

/// The purchase form (spec 002 "Purchase form"): the plan and the card fields.
#[derive(Debug, Deserialize, ToSchema)]
struct PurchaseForm {
    #[serde(default)]
    #[schema(value_type = i64)]
    plan_id: Value,
    #[serde(flatten)]
    card: CardFields,
}

fn plan_id_of(value: &Value) -> ApiResult<i64> {
    whole(value)
        .filter(|id| *id > 0)
        .ok_or_else(|| ApiError::Invalid(vec!["plan_id: Esse campo é obrigatório".into()]))
}

/// The subscription as it now is, with 201/200, or 202 while the card is under analysis.
async fn answer(
    state: &AppState,
    member: Member,
    subscribed: Subscribed,
    done: StatusCode,
) -> ApiResult<(StatusCode, Json<UserSubscription>)> {
    let mut conn = state.db.acquire().await?;
    let subscription = views::plan_subscription(
        &mut conn,
        member.station(),
        member.user(),
        subscribed.subscription_id,
    )
    .await?
    .ok_or_else(|| ApiError::not_found(SUBSCRIPTION_NOT_FOUND))?;
    let status = match subscribed.charged {
        Charged::Done => done,
        Charged::Processing => StatusCode::ACCEPTED,
    };
    Ok((status, Json(subscription.into())))
}

/// Buys a plan ('comprar')
///
/// Makes the subscription and charges its first period at once with the card: a saved
/// card (`selected_card`) or a new one from the tokeniser (`card_token` with every card
/// and address field). A plan costing nothing needs no card. The new card is kept for the
/// renewals.
#[utoipa::path(
    post,
    path = "/subscriptions",
    tag = "subscriptions",
    security(("member" = [])),
    request_body = PurchaseForm,
    responses(
        (status = 201, description = "Subscribed and paid: the subscription, `active`", body = UserSubscription),
        (status = 202, description = "The card is under the provider's analysis: the subscription stays `incomplete` until it decides", body = UserSubscription),
        (status = 404, description = "No such plan on sale in the caller's station", body = ErrorMessage),
        (status = 409, description = "The caller already has a plan (change it with PUT)", body = ErrorMessage),
        (status = 422, description = "A field missing or wrong ('field: message'), the plan is 'A negociar', no card for a plan that costs something ('Informe os dados do cartão.'), a card the provider does not know, a raw card number outside the sandbox, the card declined (the provider's reason)", body = Messages),
        (status = 429, description = "Too many purchases in a short time", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn buy_plan(
    State(state): State<AppState>,
    member: Member,
    Json(form): Json<PurchaseForm>,
) -> ApiResult<(StatusCode, Json<UserSubscription>)> {
    throttle::<SubscribeLimit>(&state, &member).await?;
    let plan_id = plan_id_of(&form.plan_id)?;
    let card = form.card.paying_card(&state).await?;
    let subscribed = use_case::subscribe_plan(
        &state.db,
        &state.gateway,
        &JobOutbox,
        member.station(),
        member.user(),
        plan_id,
        card.as_ref(),
    )
    .await?;
    answer(&state, member, subscribed, StatusCode::CREATED).await
}

/// Changes the plan ('mudar')
///
/// To a plan costing at least as much: at once, charging the difference for the rest of
/// the period (refused as a whole when declined). To a cheaper plan: at the period's end
/// (`next_plan`). The current plan again undoes a downgrade waiting. Card fields, when
/// sent, change the card first.
#[utoipa::path(
    put,
    path = "/subscriptions/{id}",
    tag = "subscriptions",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The subscription's id")),
    request_body = PurchaseForm,
    responses(
        (status = 200, description = "The subscription, changed", body = UserSubscription),
        (status = 202, description = "The upgrade's charge is under analysis: the plan switches when it is paid", body = UserSubscription),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 404, description = "No such live subscription of the caller's, or no such plan on sale", body = ErrorMessage),
        (status = 409, description = "An upgrade to another plan is still being charged: 'Uma mudança de plano está sendo processada. Aguarde alguns instantes.' (the same upgrade again answers it, charged once)", body = ErrorMessage),
        (status = 422, description = "A field missing or wrong, the plan is 'A negociar', already the current plan ('Este é seu plano atual'), the subscription is not paid up, the card declined (the provider's reason)", body = Messages),
        (status = 429, description = "Too many changes in a short time", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn change_subscription_plan(
    State(state): State<AppState>,
    member: Member,
    Path(subscription_id): Path<i64>,
    Json(form): Json<PurchaseForm>,
) -> ApiResult<(StatusCode, Json<UserSubscription>)> {
    throttle::<SubscribeLimit>(&state, &member).await?;
    let plan_id = plan_id_of(&form.plan_id)?;
    let card = form.card.paying_card(&state).await?;
    let subscribed = use_case::change_plan(
        &state.db,
        &state.gateway,
        &JobOutbox,
        member.station(),
        member.user(),
        subscription_id,
        plan_id,
        card.as_ref(),
    )
    .await?;
    answer(&state, member, subscribed, StatusCode::OK).await
}

#[derive(Debug, Deserialize, ToSchema)]
struct CancelRequest {
    /// 'Prefiro não mencionar', 'Não acho um bom custo-benefício', 'Não utilizo mais o
    /// produto' or 'Outro'.
    #[serde(default, rename = "cancelReason")]
    cancel_reason: Option<String>,
}

/// Cancels the caller's plan
///
/// A paid-up plan runs to the end of its period (`cancel_at_period_end`) and is not
/// renewed; one not paid up ends now. Refusals are `{"messages": [...]}` (the web reads
/// `messages[0]`).
#[utoipa::path(
    post,
    path = "/subscriptions/cancel",
    tag = "subscriptions",
    security(("member" = [])),
    request_body = CancelRequest,
    responses(
        (status = 200, description = "The subscription, cancelled", body = UserSubscription),
        (status = 422, description = "No reason or not one of the four ('Selecione o motivo do cancelamento.'), no live plan ('Você não possui uma assinatura ativa.'), already cancelled ('Esta assinatura já foi cancelada.')", body = Messages),
    )
)]
async fn cancel_plan(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<CancelRequest>,
) -> ApiResult<Json<UserSubscription>> {
    let subscription_id = use_case::cancel_plan(
        &state.db,
        &state.gateway,
        member.station(),
        member.user(),
        request.cancel_reason.as_deref().unwrap_or_default(),
    )
    .await?;
    let subscribed = Subscribed {
        subscription_id,
        charged: Charged::Done,
    };
    let (_, subscription) = answer(&state, member, subscribed, StatusCode::OK).await?;
    Ok(subscription)
}

/// Changes the card of a subscription ('editar-pagamento', 'Novo cartão')
///
/// A saved card (`selected_card`) or a new one (`card_token` with every card and address
/// field). A subscription waiting for a retry of a declined renewal is tried again at once.
#[utoipa::path(
    put,
    path = "/subscriptions/{id}/card",
    tag = "subscriptions",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The subscription's id (a plan's or a type 21 product's)")),
    request_body = CardFields,
    responses(
        (status = 204, description = "The card changed"),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 404, description = "No such live subscription of the caller's", body = ErrorMessage),
        (status = 422, description = "No card ('Informe os dados do cartão.'), a field missing or wrong, a saved card not the caller's ('Cartão não encontrado.'), a card the provider does not know", body = Messages),
        (status = 429, description = "Too many calls in a short time", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn change_subscription_card(
    State(state): State<AppState>,
    member: Member,
    Path(subscription_id): Path<i64>,
    Json(form): Json<CardFields>,
) -> ApiResult<StatusCode> {
    throttle::<SubscribeLimit>(&state, &member).await?;
    let card = form
        .paying_card(&state)
        .await?
        .ok_or_else(|| ApiError::invalid(use_case::CARD_REQUIRED))?;
    use_case::change_card(
        &state.db,
        &state.gateway,
        &JobOutbox,
        member.station(),
        member.user(),
        subscription_id,
        &card,
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `?where[user_id]={id}`: the caller's own id (the default when absent).
#[derive(Debug, Deserialize)]
struct ChargesQuery {
    #[serde(rename = "where[user_id]")]
    user_id: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
struct ActionSubscriptionDescription {
    description: String,
}

/// One period of a subscription (spec 002 "Subscription charge").
#[derive(Debug, Serialize, ToSchema)]
struct SubscriptionCharge {
    id: i64,
    subscription_id: i64,
    /// The type 21 activity; null for a plan.
    #[serde(rename = "actionId")]
    action_id: Option<i64>,
    plan_id: Option<i64>,
    /// The activity's name, or the plan's.
    name: String,
    action_subscription: Option<ActionSubscriptionDescription>,
    cancelled: bool,
    /// The period was paid (also when the bank took its charge back since).
    paid: bool,
    /// 'Pago', 'Aguardando pagamento', 'Recusado' or 'Cancelado'; a paid period whose charge
    /// the bank took back: 'Estornado', 'Parcialmente estornado' or 'Contestado'.
    status: &'static str,
    /// What the bank took back of the period's paid charge; null when nothing was.
    taken_back: Option<ChargeTakenBack>,
    /// 'dd/mm/aaaa a dd/mm/aaaa'.
    vigencia: String,
    #[serde(rename = "priceFormatted")]
    price_formatted: String,
    #[serde(rename = "paidFormatted")]
    paid_formatted: String,
    /// 'Semanal' ... 'Anual'; 'Mensal', 'Semestral', 'Anual' for plans.
    #[serde(rename = "recurrenceFormatted")]
    recurrence_formatted: &'static str,
    #[serde(rename = "createdAt")]
    created_at: DateTime<Utc>,
}

/// How the bank took back a paid period's charge.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum ChargeTakenBack {
    Refunded,
    PartiallyRefunded,
    Chargedback,
}

impl From<views::TakenBack> for ChargeTakenBack {
    fn from(taken: views::TakenBack) -> Self {
        match taken {
            views::TakenBack::Refunded => Self::Refunded,
            views::TakenBack::PartiallyRefunded => Self::PartiallyRefunded,
            views::TakenBack::Chargedback => Self::Chargedback,
        }
    }
}

impl From<views::ChargeLine> for SubscriptionCharge {
    fn from(line: views::ChargeLine) -> Self {
        let views::ChargeLine {
            id,
            subscription_id,
            action_id,
            plan_id,
            name,
            action_subscription_description,
            cancelled,
            paid,
            status,
            taken_back,
            vigencia,
            price_formatted,
            paid_formatted,
            recurrence_formatted,
            created_at,
        } = line;
        Self {
            id,
            subscription_id,
            action_id,
            plan_id,
            name,
            action_subscription: action_subscription_description
                .map(|description| ActionSubscriptionDescription { description }),
            cancelled,
            paid,
            status,
            taken_back: taken_back.map(ChargeTakenBack::from),
            vigencia,
            price_formatted,
            paid_formatted,
            recurrence_formatted,
            created_at,
        }
    }
}

/// The caller's subscription charges, newest first ('Minhas assinaturas')
///
/// One line per period of every subscription (plans and type 21), grouped by `actionId`
/// on the screen.
#[utoipa::path(
    get,
    path = "/subscriptions/",
    tag = "subscriptions",
    security(("member" = [])),
    params(("where[user_id]" = Option<i64>, Query, description = "The caller's own id (the default)")),
    responses(
        (status = 200, description = "The charges", body = Vec<SubscriptionCharge>),
        (status = 400, description = "A parameter is not a number", body = Messages),
        (status = 403, description = "the user id is not the caller's", body = Messages),
    )
)]
async fn subscription_charges(
    State(state): State<AppState>,
    member: Member,
    Query(query): Query<ChargesQuery>,
) -> ApiResult<Json<Vec<SubscriptionCharge>>> {
    own(member, query.user_id.unwrap_or(member.user_id))?;
    let zone = time::station_zone(&state.db, member.station_id).await?;
    let mut conn = state.db.acquire().await?;
    let lines = views::charges(&mut conn, member.station(), member.user(), zone).await?;
    Ok(Json(
        lines.into_iter().map(SubscriptionCharge::from).collect(),
    ))
}
