//! The checkout: `POST /single-product-orders` confirms the cart (the hold, answering
//! `reserveTime`), `POST /cart/apply-coupon` claims a coupon into the hold, and
//! `POST /cupom-product-order-cart` places the order (the wallet part now; a card or PIX
//! part left pending for the gateway).

use ::payments::sandbox::CardDetails;
use app::commerce::charge::{self, CARD_REQUIRED, CardToCharge, Charged};
use app::commerce::checkout;
use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::commerce::ORDER_NOT_FOUND;
use domain::commerce::cards;
use domain::commerce::cart::Wanted;
use domain::commerce::checkout::{self as hold, seconds_left};
use domain::commerce::coupons;
use domain::commerce::gateway::{BillingAddress, CardSource, PaymentGateway};
use domain::commerce::order_view;
use domain::commerce::orders::{self, DeliveryChoice, PlaceOrder};
use domain::commerce::payment;
use domain::commerce::totals;
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::orders::Order;
use super::payments::{self, RAW_CARD_REFUSED};
use super::{own_body, product_entries, whole};
use crate::error::{ApiError, ApiResult, Messages};
use crate::extract::Json;
use crate::member::Member;
use crate::member_throttle::{MemberLimit, throttle};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(confirm_cart))
        .routes(routes!(apply_coupon))
        .routes(routes!(remove_coupon))
        .routes(routes!(cart_totals))
        .routes(routes!(place_order))
}

/// Placing orders, each of which charges the payment provider: `FILIA_ORDERS_MAX_PER_MEMBER`
/// per `FILIA_ORDERS_WINDOW_SECONDS`, so one member cannot spend the deployment's quota.
struct OrderLimit;

impl MemberLimit for OrderLimit {
    const NAME: &'static str = "orders";
    const MESSAGE: &'static str =
        "Muitos pedidos em pouco tempo. Aguarde alguns minutos e tente novamente.";
    fn limit(config: &domain::Config) -> (u32, u64) {
        (config.orders_max_per_member, config.orders_window_seconds)
    }
}

/// The totals, every field in centavos.
#[derive(Debug, Serialize, ToSchema)]
pub struct Totals {
    /// Sum of line prices (after each product's own discount).
    pub product_items_sum_value: i64,
    /// Sum of the chosen delivery prices.
    pub delivery_tax_value: i64,
    /// Delivery discounts applied plus the coupon's discount applied.
    pub additional_discount_value: i64,
    /// The coupon's part of `additional_discount_value`.
    pub coupon_discount_value: i64,
    /// Items + delivery - discounts.
    pub total_final_value: i64,
    /// What the wallet pays.
    pub wallet_value: i64,
    /// What card or PIX pays.
    pub credit_card_value: i64,
    /// `(points + additional_cashback) x 100` per activity.
    pub cashback_value: i64,
}

impl From<totals::Totals> for Totals {
    fn from(totals: totals::Totals) -> Self {
        let totals::Totals {
            product_items_sum_value,
            delivery_tax_value,
            additional_discount_value,
            coupon_discount_value,
            total_final_value,
            wallet_value,
            credit_card_value,
            cashback_value,
        } = totals;
        Self {
            product_items_sum_value: product_items_sum_value.into(),
            delivery_tax_value: delivery_tax_value.into(),
            additional_discount_value: additional_discount_value.into(),
            coupon_discount_value: coupon_discount_value.into(),
            total_final_value: total_final_value.into(),
            wallet_value: wallet_value.into(),
            credit_card_value: credit_card_value.into(),
            cashback_value: cashback_value.into(),
        }
    }
}

/// The coupon as the coupon dialog shows it (spec: `coupon (code, discountValue)`).
#[derive(Debug, Serialize, ToSchema)]
pub struct Coupon {
    pub code: String,
    /// Centavos.
    #[serde(rename = "discountValue")]
    pub discount_value: i64,
}

impl From<coupons::Coupon> for Coupon {
    fn from(coupon: coupons::Coupon) -> Self {
        let coupons::Coupon {
            id: _,
            code,
            discount_value,
        } = coupon;
        Self {
            code,
            discount_value: discount_value.into(),
        }
    }
}

/// The coupon a hold claimed and the hold's totals before and after it.
#[derive(Debug, Serialize, ToSchema)]
pub struct CouponApplied {
    pub coupon: Coupon,
    pub totals: TotalsBeforeAfter,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TotalsBeforeAfter {
    pub before: Totals,
    pub after: Totals,
}

impl From<hold::CouponApplied> for CouponApplied {
    fn from(applied: hold::CouponApplied) -> Self {
        let hold::CouponApplied { coupon, totals } = applied;
        let hold::TotalsBeforeAfter { before, after } = totals;
        Self {
            coupon: coupon.into(),
            totals: TotalsBeforeAfter {
                before: before.into(),
                after: after.into(),
            },
        }
    }
}

/// How the amount the wallet does not cover is paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    #[serde(alias = "card")]
    CreditCard,
    Pix,
}

impl From<Method> for orders::Method {
    fn from(method: Method) -> Self {
        match method {
            Method::CreditCard => Self::CreditCard,
            Method::Pix => Self::Pix,
        }
    }
}

/// The hold just made.
#[derive(Debug, Serialize, ToSchema)]
struct Reserved {
    checkout_id: i64,
    /// Seconds until the hold expires.
    #[serde(rename = "reserveTime")]
    reserve_time: i64,
    expires_at: DateTime<Utc>,
    /// The held lines' totals in centavos, before delivery and coupon.
    totals: Totals,
}

/// Confirms the cart: holds its stock for 15 minutes
///
/// Body: `user_id` and one `"product-{id}": quantity` entry per product; without entries,
/// the cart's lines. All or nothing: a product short of stock holds nothing.
#[utoipa::path(
    post,
    path = "/single-product-orders",
    tag = "commerce",
    security(("member" = [])),
    request_body(content = Object, description = "`{\"user_id\": 7, \"product-3\": 2}`"),
    responses(
        (status = 200, description = "The hold", body = Reserved),
        (status = 403, description = "user_id is not the caller's", body = Messages),
        (status = 404, description = "A product is not on sale in the caller's station", body = crate::error::ErrorMessage),
        (status = 422, description = "Out of stock, over the per-member limit, an empty cart", body = Messages),
    )
)]
async fn confirm_cart(
    State(state): State<AppState>,
    member: Member,
    Json(body): Json<Map<String, Value>>,
) -> ApiResult<Json<Reserved>> {
    own_body(member, body.get("user_id"))?;
    let wanted: Vec<Wanted> = product_entries(&body)?
        .into_iter()
        .map(|(product_id, quantity)| Wanted {
            product_id,
            quantity,
        })
        .collect();
    let held = checkout::hold_cart(
        &state.db,
        &JobOutbox,
        member.station(),
        member.user(),
        wanted,
        i64::from(state.config.hold_seconds),
    )
    .await?;
    Ok(Json(Reserved {
        checkout_id: held.checkout_id,
        reserve_time: seconds_left(held.expires_at),
        expires_at: held.expires_at,
        totals: held.totals.into(),
    }))
}

/// The spec's body; its `cart` may be sent and is not read: the hold decides what is bought.
#[derive(Debug, Deserialize, ToSchema)]
struct ApplyCoupon {
    coupon_code: String,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    user_id: Value,
}

/// Applies a coupon to the caller's live hold
#[utoipa::path(
    post,
    path = "/cart/apply-coupon",
    tag = "commerce",
    security(("member" = [])),
    request_body = ApplyCoupon,
    responses(
        (status = 200, description = "The coupon and the totals before and after it", body = CouponApplied),
        (status = 403, description = "user_id is not the caller's", body = Messages),
        (status = 422, description = "Unknown, out of its window, used up, already used by the member, or no live hold", body = Messages),
    )
)]
async fn apply_coupon(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<ApplyCoupon>,
) -> ApiResult<Json<CouponApplied>> {
    own_body(member, Some(&request.user_id))?;
    let applied = checkout::apply_coupon(
        &state.db,
        member.station(),
        member.user(),
        &request.coupon_code,
    )
    .await?;
    Ok(Json(applied.into()))
}

/// `user_id`, when sent, must be the caller's.
#[derive(Debug, Deserialize, ToSchema)]
struct RemoveCoupon {
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    user_id: Value,
}

/// Removes the coupon from the caller's live hold (the coupon dialog's 'Remover')
///
/// The use goes back to the coupon; answers the hold's totals without it. A hold without a
/// coupon answers its totals unchanged.
#[utoipa::path(
    post,
    path = "/cart/remove-coupon",
    tag = "commerce",
    security(("member" = [])),
    request_body = RemoveCoupon,
    responses(
        (status = 200, description = "The hold's totals without the coupon", body = Totals),
        (status = 403, description = "user_id is not the caller's", body = Messages),
        (status = 422, description = "No live hold", body = Messages),
    )
)]
async fn remove_coupon(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<RemoveCoupon>,
) -> ApiResult<Json<Totals>> {
    own_body(member, Some(&request.user_id))?;
    let totals = checkout::remove_coupon(&state.db, member.user()).await?;
    Ok(Json(totals.into()))
}

/// The cart's totals without holding it (step 0 of the cart)
///
/// What confirming the cart now would answer as `totals`: its lines still on sale, the
/// caller's balance, no coupon, no delivery. Nothing is held; stock and limits are checked
/// when the cart is confirmed.
#[utoipa::path(
    get,
    path = "/cart/totals",
    tag = "commerce",
    security(("member" = [])),
    responses(
        (status = 200, description = "The cart's totals", body = Totals),
    )
)]
async fn cart_totals(State(state): State<AppState>, member: Member) -> ApiResult<Json<Totals>> {
    let mut conn = state.db.acquire().await?;
    let totals = hold::cart_totals(&mut conn, member.station_id, member.user_id).await?;
    Ok(Json(totals.into()))
}

/// One activity's part of the order form.
#[derive(Debug, Deserialize, ToSchema)]
struct CartAction {
    #[schema(value_type = i64)]
    action_id: Value,
    /// A location id, or the location object with its `id`.
    #[serde(default, rename = "deliveryLocation")]
    #[schema(value_type = Option<i64>)]
    delivery_location: Value,
    #[serde(default)]
    zipcode: Option<String>,
    #[serde(default)]
    address: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    number: Value,
    #[serde(default)]
    reference: Option<String>,
}

/// The payment form. The card arrives as the browser tokeniser's `card_token`, or as
/// `selected_card`, a saved card's id (0 means a new card). A raw card number is refused
/// unless the provider is the sandbox, which tokenises it here for the demo. Its Debug
/// shows how it pays, never the card or the address.
#[derive(Deserialize, ToSchema)]
struct PaymentForm {
    #[serde(rename = "type")]
    method: Option<Method>,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    installments: Value,
    #[serde(default)]
    card_token: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    selected_card: Value,
    /// Sandbox only: the card number, tokenised by the sandbox.
    #[serde(default)]
    number: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    expiry: Option<String>,
    #[serde(default)]
    cvv: Option<String>,
    /// Save the new card for later purchases ('Salvar este cartão'): it is saved first,
    /// then the saved card is charged (a provider's token is single use).
    #[serde(default)]
    save: bool,
    /// A new card's billing address (providers do not tokenise it): CEP, with or without
    /// its mask.
    #[serde(default)]
    cep: Option<String>,
    #[serde(default)]
    street: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    street_number: Value,
    #[serde(default)]
    city: Option<String>,
    /// The state's two letters.
    #[serde(default)]
    state: Option<String>,
}

impl std::fmt::Debug for PaymentForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaymentForm")
            .field("method", &self.method)
            .field("installments", &self.installments)
            .field("selected_card", &self.selected_card)
            .field("save", &self.save)
            .finish_non_exhaustive()
    }
}

impl PaymentForm {
    fn billing_address(&self) -> ApiResult<BillingAddress> {
        let field = |value: &Option<String>| value.clone().unwrap_or_default();
        cards::billing_address(
            &field(&self.cep),
            &field(&self.street),
            &text(&self.street_number).unwrap_or_default(),
            &field(&self.city),
            &field(&self.state),
        )
        .map_err(ApiError::invalid)
    }
}

/// Saves a new card before it is charged ('Salvar este cartão'): a provider's token is
/// single use (Pagar.me's), so the card is kept first, at the provider (the sandbox by its
/// token; Pagar.me in the member's customer wallet) and here, and the order then charges
/// the saved card. A card the provider refuses to keep is refused before any order.
async fn save_before_charge(
    state: &AppState,
    member: Member,
    token: String,
    billing_address: BillingAddress,
) -> ApiResult<CardToCharge> {
    let mut conn = state.db.acquire().await?;
    let customer = payment::customer(&mut conn, member.user_id).await?;
    drop(conn);
    let card = app::commerce::cards::NewCard {
        token,
        billing_address,
        customer,
    };
    let saved = app::commerce::cards::save_card(
        &state.db,
        &state.gateway,
        member.station(),
        member.user(),
        card,
    )
    .await?;
    let mut conn = state.db.acquire().await?;
    let gateway_id = cards::gateway_card_id(
        &mut conn,
        member.user_id,
        state.gateway.provider(),
        saved.id,
    )
    .await?
    .ok_or_else(|| ApiError::invalid(CARD_REQUIRED))?;
    Ok(CardToCharge {
        source: CardSource::SavedCard(gateway_id),
        billing_address: None,
    })
}

/// The card the form names: a token from the browser's tokeniser, a saved card of the
/// caller's, or (sandbox only) a raw number tokenised by the sandbox; a new card with its
/// billing address.
async fn card_of(
    state: &AppState,
    member: Member,
    form: &PaymentForm,
) -> ApiResult<Option<CardToCharge>> {
    if form.method != Some(Method::CreditCard) {
        return Ok(None);
    }
    if let Some(card_id) = whole(&form.selected_card).filter(|id| *id > 0) {
        let mut conn = state.db.acquire().await?;
        let gateway_id =
            cards::gateway_card_id(&mut conn, member.user_id, state.gateway.provider(), card_id)
                .await?
                .ok_or_else(|| ApiError::invalid(CARD_REQUIRED))?;
        return Ok(Some(CardToCharge {
            source: CardSource::SavedCard(gateway_id),
            billing_address: None,
        }));
    }
    let given = |value: &Option<String>| {
        value
            .as_deref()
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map(str::to_string)
    };
    let (token, number) = (given(&form.card_token), given(&form.number));
    if token.is_none() && number.is_none() {
        return Ok(None);
    }
    let billing_address = form.billing_address()?;
    let token = match token {
        Some(token) => token,
        None => sandbox_token(state, form, number.as_deref().unwrap_or_default()).await?,
    };
    if form.save {
        return save_before_charge(state, member, token, billing_address)
            .await
            .map(Some);
    }
    Ok(Some(CardToCharge {
        source: CardSource::Token(token),
        billing_address: Some(billing_address),
    }))
}

/// The sandbox's token for a raw card number (the demo's shortcut; refused elsewhere).
async fn sandbox_token(state: &AppState, form: &PaymentForm, number: &str) -> ApiResult<String> {
    let Some(sandbox) = state.gateway.sandbox() else {
        return Err(ApiError::invalid(RAW_CARD_REFUSED));
    };
    payments::sandbox_token(
        sandbox,
        CardDetails {
            number: number.to_string(),
            holder_name: form.name.clone().unwrap_or_default(),
            expiry: form.expiry.clone().unwrap_or_default(),
            cvv: form.cvv.clone().unwrap_or_default(),
        },
    )
    .await
}

/// The spec's body. `isOnlyPayment` may be sent and is not read: whether the wallet pays
/// follows the activities' `payment_option`, on the server.
#[derive(Debug, Deserialize, ToSchema)]
struct PlaceOrderRequest {
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    user_id: Value,
    #[serde(default)]
    cart: Vec<CartAction>,
    #[serde(default)]
    payment: Option<PaymentForm>,
    #[serde(default)]
    coupon_code: Option<String>,
    /// The `checkout_id` of the confirmation (`POST /single-product-orders`): the hold the
    /// member reviewed. Without it, the member's latest hold.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    checkout_id: Value,
}

fn text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// Places the order of the caller's live hold
///
/// The wallet pays what it can (not for a `payment_only` activity); the rest is a card or
/// PIX payment part left pending ('Aguardando pagamento'). The wallet covering all pays the
/// order at once ('Pagamento confirmado'). A repeated call answers the same order.
#[utoipa::path(
    post,
    path = "/cupom-product-order-cart",
    tag = "commerce",
    security(("member" = [])),
    request_body = PlaceOrderRequest,
    responses(
        (status = 200, description = "The order", body = Order),
        (status = 403, description = "user_id is not the caller's", body = Messages),
        (status = 422, description = "The hold expired, a delivery choice or address is missing, the coupon is refused, no payment method or card for the amount left, a card installment count not among the options `POST /calculate-installments` offers for the card amount ('Número de parcelas inválido.', 'Esta compra não pode ser parcelada: escolha o pagamento em 1x.', 'Este valor pode ser parcelado em até {n}x (parcela mínima de R$ 5,00).', 'Este valor não pode ser parcelado: a parcela mínima é de R$ 5,00.'), a raw card number outside the sandbox, the card declined (its reason)", body = Messages),
        (status = 429, description = "More orders than FILIA_ORDERS_MAX_PER_MEMBER (10) in FILIA_ORDERS_WINDOW_SECONDS (600): 'Muitos pedidos em pouco tempo. Aguarde alguns minutos e tente novamente.'", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn place_order(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<PlaceOrderRequest>,
) -> ApiResult<Json<Order>> {
    throttle::<OrderLimit>(&state, &member).await?;
    own_body(member, Some(&request.user_id))?;
    let mut deliveries = Vec::new();
    for action in &request.cart {
        let action_id =
            whole(&action.action_id).ok_or_else(|| ApiError::invalid("action_id inválido."))?;
        let location = match &action.delivery_location {
            Value::Object(object) => object.get("id").and_then(whole),
            other => whole(other),
        };
        deliveries.push(DeliveryChoice {
            action_id,
            delivery_location_id: location,
            zipcode: action.zipcode.clone(),
            address: action.address.clone(),
            number: text(&action.number),
            reference: action.reference.clone(),
        });
    }
    let payment = request.payment.as_ref();
    let order = PlaceOrder {
        deliveries,
        coupon_code: request.coupon_code.clone(),
        method: payment.and_then(|p| p.method).map(orders::Method::from),
        // Absent: 1x. Anything but a whole number in range is no option (0): refused for a
        // card, not read for PIX.
        installments: match payment.map(|p| &p.installments) {
            None | Some(Value::Null) => 1,
            Some(count) => whole(count)
                .and_then(|n| i32::try_from(n).ok())
                .unwrap_or(0),
        },
        checkout_id: match &request.checkout_id {
            Value::Null => None,
            other => Some(whole(other).ok_or_else(|| ApiError::invalid("checkout_id inválido."))?),
        },
    };
    // A hold placed before (a replay) answers its order: its card is not read, tokenised
    // or saved again (a new card's single-use token was spent the first time).
    let placed_before = charge::placed_order(&state.db, member.user(), order.checkout_id).await?;
    let card = match payment {
        Some(form) if placed_before.is_none() => card_of(&state, member, form).await?,
        _ => None,
    };
    let placed = charge::place_and_charge(
        &state.db,
        &state.gateway,
        &JobOutbox,
        member.station(),
        member.user(),
        &order,
        card.as_ref(),
    )
    .await;
    let placed = match placed {
        Ok((_, Charged::Declined(reason))) => return Err(ApiError::invalid(reason)),
        Ok((placed, _)) => placed,
        Err(err) => return Err(err.into()),
    };
    let mut conn = state.db.acquire().await?;
    let order = order_view::order(&mut conn, member.station_id, placed.order_id)
        .await?
        .ok_or_else(|| ApiError::not_found(ORDER_NOT_FOUND))?;
    Ok(Json(order.into()))
}
