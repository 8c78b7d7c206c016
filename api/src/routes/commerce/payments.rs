//! Paying the card or PIX part (docs/api-commerce.md, "Paying the card or PIX part"): the
//! provider's webhook (`POST /payments/webhooks/{provider}`), the member's "Verificar
//! pagamento" (`POST /product-orders/{id}/check-payment`), installments
//! (`POST /calculate-installments`), saved cards (`GET /user-credit-cards/{id}`, `POST
//! /user-credit-cards`, `DELETE /user-credit-cards/{id}`, `PUT
//! /user-credit-cards/{id}/default`), and the sandbox's own routes (`/sandbox/...`), which answer 404
//! unless `FILIA_PAYMENTS=sandbox`.

use ::payments::sandbox::{CardDetails, PixPayment, Sandbox};
use app::commerce::charge::{self, CARD_REQUIRED};
use axum::extract::State;
use axum::http::HeaderMap;
use chrono::{DateTime, Duration, Utc};
use domain::commerce::ORDER_NOT_FOUND;
use domain::commerce::cards;
use domain::commerce::gateway::{
    BillingAddress, CardExpiry, Customer, GatewayError, PaymentGateway,
};
use domain::commerce::installments;
use domain::commerce::order_view;
use domain::commerce::payment;
use domain::shared::cpf::Cpf;
use domain::shared::ids::{Cents, OrderId};
use domain::shared::validate;
use domain::staff::Scope;
use jobs::kinds::SandboxDeliver;
use jobs::{Enqueue, JobOutbox};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::orders::Order;
use super::{own, whole};
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path, RawBody};
use crate::member::Member;
use crate::member_throttle::{MemberLimit, throttle};
use crate::routes::ROUTE_NOT_FOUND;
use crate::staff::{OpsError, OpsResult, Staff};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(webhook))
        .routes(routes!(check_payment))
        .routes(routes!(calculate_installments))
        .routes(routes!(saved_cards))
        .routes(routes!(save_card))
        .routes(routes!(remove_card))
        .routes(routes!(make_default_card))
        .routes(routes!(sandbox_pay_pix))
        .routes(routes!(sandbox_card_token))
        .routes(routes!(sandbox_clock))
}

/// "Verificar pagamento", which may read the charge at the provider:
/// `FILIA_PAYMENT_CHECKS_MAX_PER_MEMBER` per `FILIA_PAYMENT_CHECKS_WINDOW_SECONDS`.
struct CheckLimit;

impl MemberLimit for CheckLimit {
    const NAME: &'static str = "payment-checks";
    const MESSAGE: &'static str = "Muitas verificações de pagamento em pouco tempo. Aguarde alguns minutos e tente novamente.";
    fn limit(config: &domain::Config) -> (u32, u64) {
        (
            config.payment_checks_max_per_member,
            config.payment_checks_window_seconds,
        )
    }
}

/// The sandbox's own routes (simulated payments, card tokens), which stand for calls to a
/// provider: `FILIA_SANDBOX_CALLS_MAX_PER_MEMBER` per `FILIA_SANDBOX_CALLS_WINDOW_SECONDS`.
struct SandboxLimit;

impl MemberLimit for SandboxLimit {
    const NAME: &'static str = "sandbox-calls";
    fn limit(config: &domain::Config) -> (u32, u64) {
        (
            config.sandbox_calls_max_per_member,
            config.sandbox_calls_window_seconds,
        )
    }
}

/// The spec's saved card: `id, brand, last_digits, issuing`, and the subscription card's
/// `expiration_date`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SavedCard {
    pub id: i64,
    pub brand: String,
    pub last_digits: String,
    /// The issuer as the provider names it; the brand when it does not.
    pub issuing: String,
    /// `MM/YY`; null for a card saved before its expiry was kept.
    pub expiration_date: Option<String>,
    /// The card the member chose to pay with first (listed first).
    pub is_default: bool,
}

impl From<cards::SavedCard> for SavedCard {
    fn from(card: cards::SavedCard) -> Self {
        let expiration_date = card.expiry().map(CardExpiry::short);
        let cards::SavedCard {
            id,
            brand,
            last_digits,
            issuing,
            exp_month: _,
            exp_year: _,
            is_default,
        } = card;
        Self {
            id,
            brand,
            last_digits,
            issuing,
            expiration_date,
            is_default,
        }
    }
}

/// One option, as the spec answers it: `{installment, installment_amount}` (centavos).
#[derive(Debug, Serialize, ToSchema)]
pub struct InstallmentOption {
    pub installment: u32,
    pub installment_amount: i64,
}

impl From<installments::InstallmentOption> for InstallmentOption {
    fn from(option: installments::InstallmentOption) -> Self {
        let installments::InstallmentOption {
            installment,
            installment_amount,
        } = option;
        Self {
            installment,
            installment_amount: installment_amount.into(),
        }
    }
}

const UNKNOWN_PROVIDER: &str = "Meio de pagamento não encontrado";
const BAD_SIGNATURE: &str = "Assinatura do aviso de pagamento inválida.";

#[derive(Debug, Serialize, ToSchema)]
struct Received {
    received: bool,
    /// The event had been received before: nothing was done again.
    duplicate: bool,
}

/// A payment provider's webhook
///
/// Verifies the signature over the raw body (the sandbox's `X-Filia-Sandbox-Signature`,
/// Pagar.me's `X-Webhook-Asymmetric-Signature`), records the event id once and enqueues a
/// `payment.sync` of its charge, which re-reads the charge from the provider: the body is
/// never trusted. Answers at once; a repeated event answers 200 and does nothing.
#[utoipa::path(
    post,
    path = "/payments/webhooks/{provider}",
    tag = "commerce",
    params(("provider" = String, Path, description = "`sandbox` or `pagarme`: the configured provider only")),
    request_body(content = Object, description = "The provider's event, as it sent it"),
    responses(
        (status = 200, description = "Recorded (or seen before)", body = Received),
        (status = 400, description = "Signed, but not an event we can read", body = Messages),
        (status = 401, description = "Signature missing or invalid: nothing recorded", body = Messages),
        (status = 404, description = "Not the configured provider", body = ErrorMessage),
    )
)]
async fn webhook(
    State(state): State<AppState>,
    Path(provider): Path<String>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> ApiResult<Json<Received>> {
    if provider != state.gateway.provider() {
        return Err(ApiError::not_found(UNKNOWN_PROVIDER));
    }
    let event = match state.gateway.verify_webhook(&body, &headers) {
        Ok(event) if !event.holds_nul() => event,
        Err(GatewayError::InvalidSignature) => {
            return Err(ApiError::Unauthorized(BAD_SIGNATURE.into()));
        }
        Ok(_) | Err(_) => return Err(ApiError::BadRequest("Aviso de pagamento ilegível.".into())),
    };
    let new = charge::receive_event(&state.db, &JobOutbox, &event).await?;
    Ok(Json(Received {
        received: true,
        duplicate: !new,
    }))
}

/// The sandbox's token for a card's raw data (its stand-in for the provider's browser
/// tokeniser); a card it refuses is 'Dados do cartão inválidos.'.
pub(crate) async fn sandbox_token(sandbox: &Sandbox, card: CardDetails) -> ApiResult<String> {
    sandbox.tokenize_card(&card).await.map_err(|err| match err {
        GatewayError::Rejected(_) => ApiError::invalid("Dados do cartão inválidos."),
        other => ApiError::Internal(other.into()),
    })
}

/// Verificar pagamento: asks the provider about the order's charge now
///
/// Re-reads the card or PIX charge of one of the caller's orders and applies it through the
/// same idempotent confirmation as the webhook (so the two racing confirm once); a card
/// whose charge was never recorded is charged with the request first made. A charge read
/// in the last `FILIA_PAYMENT_READ_REUSE_SECONDS` (5) is not read again. Answers the
/// order: `status` 'Pagamento confirmado' when paid.
#[utoipa::path(
    post,
    path = "/product-orders/{id}/check-payment",
    tag = "commerce",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The order's id")),
    responses(
        (status = 200, description = "The order as it now is", body = Order),
        (status = 403, description = "Another member's order", body = Messages),
        (status = 404, description = "No such order in the caller's station", body = ErrorMessage),
        (status = 429, description = "More checks than FILIA_PAYMENT_CHECKS_MAX_PER_MEMBER (20) in FILIA_PAYMENT_CHECKS_WINDOW_SECONDS (600): 'Muitas verificações de pagamento em pouco tempo. Aguarde alguns minutos e tente novamente.'", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn check_payment(
    State(state): State<AppState>,
    member: Member,
    Path(order_id): Path<i64>,
) -> ApiResult<Json<Order>> {
    throttle::<CheckLimit>(&state, &member).await?;
    let mut conn = state.db.acquire().await?;
    let order = order_view::order(&mut conn, member.station_id, order_id)
        .await?
        .ok_or_else(|| ApiError::not_found(ORDER_NOT_FOUND))?;
    own(member, order.user_id)?;
    drop(conn);
    charge::check_order(
        &state.db,
        &state.gateway,
        &JobOutbox,
        &state.config.public_url,
        OrderId(order_id),
        state.config.payment_read_reuse_seconds,
    )
    .await?;
    let mut conn = state.db.acquire().await?;
    let order = order_view::order(&mut conn, member.station_id, order_id)
        .await?
        .ok_or_else(|| ApiError::not_found(ORDER_NOT_FOUND))?;
    Ok(Json(order.into()))
}

#[derive(Debug, Deserialize, ToSchema)]
struct InstallmentsRequest {
    #[schema(value_type = i64)]
    action_id: Value,
    /// Centavos.
    #[schema(value_type = i64)]
    amount: Value,
}

/// The card installments for an amount of an activity
///
/// No interest; more than 1 only when the activity allows installments, none below
/// R$ 5,00, at most 12; the first installment carries the leftover centavos.
#[utoipa::path(
    post,
    path = "/calculate-installments",
    tag = "commerce",
    security(("member" = [])),
    request_body = InstallmentsRequest,
    responses(
        (status = 200, description = "The options, 1x first", body = Vec<InstallmentOption>),
        (status = 404, description = "No such activity in the caller's station", body = ErrorMessage),
        (status = 422, description = "The amount is not a whole number of centavos", body = Messages),
    )
)]
async fn calculate_installments(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<InstallmentsRequest>,
) -> ApiResult<Json<Vec<InstallmentOption>>> {
    let action_id =
        whole(&request.action_id).ok_or_else(|| ApiError::invalid("action_id inválido."))?;
    let amount = whole(&request.amount).ok_or_else(|| ApiError::invalid("Valor inválido."))?;
    let mut conn = state.db.acquire().await?;
    let allows = cards::allows_installments(&mut conn, member.station_id, action_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Atividade não encontrada"))?;
    let options = installments::offered(Cents(amount), allows);
    Ok(Json(
        options.into_iter().map(InstallmentOption::from).collect(),
    ))
}

/// The caller's saved cards
///
/// Live cards only (removed ones are never listed), the default first.
#[utoipa::path(
    get,
    path = "/user-credit-cards/{id}",
    tag = "commerce",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's own id")),
    responses(
        (status = 200, description = "The cards (brand and last digits only)", body = Vec<SavedCard>),
        (status = 403, description = "The id is not the caller's", body = Messages),
    )
)]
async fn saved_cards(
    State(state): State<AppState>,
    member: Member,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<Vec<SavedCard>>> {
    own(member, user_id)?;
    cards_now(&state, member).await
}

/// The caller's cards as they now are (the listing, and what a change answers).
async fn cards_now(state: &AppState, member: Member) -> ApiResult<Json<Vec<SavedCard>>> {
    let mut conn = state.db.acquire().await?;
    let cards = cards::of_member(&mut conn, member.user_id, state.gateway.provider()).await?;
    Ok(Json(cards.into_iter().map(SavedCard::from).collect()))
}

/// Removes one of the caller's saved cards
///
/// At once here: the card is no longer listed, and no checkout, top-up or subscription
/// charges it again; then deleted at the provider (Pagar.me:
/// `DELETE /customers/{customer}/cards/{card}`), asked again by a `cards.delete` job while
/// the provider cannot be reached. The card of a live subscription that will
/// charge it again is refused: the member changes the subscription's card first. When the
/// default card goes, the newest other card becomes the default. Answers the cards left.
#[utoipa::path(
    delete,
    path = "/user-credit-cards/{id}",
    tag = "commerce",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The card's id")),
    responses(
        (status = 200, description = "Removed; the caller's cards left", body = Vec<SavedCard>),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 404, description = "Not one of the caller's cards (or removed before): 'Cartão não encontrado'", body = ErrorMessage),
        (status = 409, description = "The card pays a live subscription: 'Este cartão paga a sua assinatura {nome}. Cadastre outro cartão na assinatura antes de removê-lo.'", body = ErrorMessage),
    )
)]
async fn remove_card(
    State(state): State<AppState>,
    member: Member,
    Path(card_id): Path<i64>,
) -> ApiResult<Json<Vec<SavedCard>>> {
    app::commerce::cards::remove_card(
        &state.db,
        &state.gateway,
        &JobOutbox,
        member.user(),
        card_id,
    )
    .await?;
    cards_now(&state, member).await
}

/// Makes one of the caller's saved cards the default
///
/// The default is listed first and chosen first by the web app's payment forms. Answers
/// the caller's cards.
#[utoipa::path(
    put,
    path = "/user-credit-cards/{id}/default",
    tag = "commerce",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The card's id")),
    responses(
        (status = 200, description = "The caller's cards, this one the default", body = Vec<SavedCard>),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 404, description = "Not one of the caller's cards: 'Cartão não encontrado'", body = ErrorMessage),
    )
)]
async fn make_default_card(
    State(state): State<AppState>,
    member: Member,
    Path(card_id): Path<i64>,
) -> ApiResult<Json<Vec<SavedCard>>> {
    if !app::commerce::cards::make_default(&state.db, &state.gateway, member.user(), card_id)
        .await?
    {
        return Err(ApiError::not_found(cards::CARD_NOT_FOUND));
    }
    cards_now(&state, member).await
}

/// Saving cards, each of which calls the payment provider: `FILIA_ORDERS_MAX_PER_MEMBER`
/// per `FILIA_ORDERS_WINDOW_SECONDS`, the orders' own limit.
struct CardSaveLimit;

impl MemberLimit for CardSaveLimit {
    const NAME: &'static str = "card-saves";
    const MESSAGE: &'static str =
        "Muitos cartões cadastrados em pouco tempo. Aguarde alguns minutos e tente novamente.";
    fn limit(config: &domain::Config) -> (u32, u64) {
        (config.orders_max_per_member, config.orders_window_seconds)
    }
}

/// The credit card form (spec 002: `name, cpf, birthday, phone, cep, street, city, state,
/// street_number`) with the card as the browser tokeniser's `card_token`: the number, its
/// expiry and cvv never reach us. Its Debug shows nothing of the card holder.
#[derive(Deserialize, ToSchema)]
struct NewCardForm {
    #[serde(default)]
    card_token: Option<String>,
    /// Refused: a card's number is sent to the provider's tokeniser, never here.
    #[serde(default)]
    number: Option<String>,
    /// The holder's name.
    #[serde(default)]
    name: Option<String>,
    /// The holder's CPF, masked or not.
    #[serde(default)]
    cpf: Option<String>,
    /// dd/MM/yyyy.
    #[serde(default)]
    birthday: Option<String>,
    #[serde(default)]
    phone: Option<String>,
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

impl std::fmt::Debug for NewCardForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewCardForm")
            .field(
                "card_token",
                &self.card_token.as_ref().map(|_| "[redacted]"),
            )
            .finish_non_exhaustive()
    }
}

impl NewCardForm {
    /// The token, the billing address and the holder, or every text of what is wrong.
    fn read(&self) -> Result<(String, BillingAddress, Holder), ApiError> {
        let given = |value: &Option<String>| {
            value
                .as_deref()
                .map(str::trim)
                .filter(|text| !text.is_empty())
                .map(str::to_string)
        };
        if given(&self.number).is_some() {
            return Err(ApiError::invalid(RAW_CARD_REFUSED));
        }
        let mut wrong = Vec::new();
        let token = given(&self.card_token);
        if token.is_none() {
            wrong.push(CARD_REQUIRED.to_string());
        }
        let name = given(&self.name);
        if name.is_none() {
            wrong.push(HOLDER_NAME_REQUIRED.to_string());
        }
        let cpf = given(&self.cpf).and_then(|cpf| cpf.parse::<Cpf>().ok());
        if cpf.is_none() {
            wrong.push(validate::message::CPF.to_string());
        }
        if let Some(birthday) = given(&self.birthday)
            && let Err(invalid) = validate::date(&birthday)
        {
            wrong.push(invalid.message().to_string());
        }
        let field = |value: &Option<String>| value.clone().unwrap_or_default();
        let street_number = match &self.street_number {
            Value::String(text) => text.clone(),
            Value::Number(number) => number.to_string(),
            _ => String::new(),
        };
        let address = cards::billing_address(
            &field(&self.cep),
            &field(&self.street),
            &street_number,
            &field(&self.city),
            &field(&self.state),
        )
        .map_err(|message| wrong.push(message.to_string()));
        match (token, name, cpf, address) {
            (Some(token), Some(name), Some(cpf), Ok(address)) if wrong.is_empty() => {
                let phone = self
                    .phone
                    .as_deref()
                    .map(|phone| {
                        phone
                            .chars()
                            .filter(char::is_ascii_digit)
                            .collect::<String>()
                    })
                    .filter(|digits| (10..=11).contains(&digits.len()));
                Ok((token, address, Holder { name, cpf, phone }))
            }
            _ => Err(ApiError::Invalid(wrong)),
        }
    }
}

/// Who holds the card: the payer when the member becomes the provider's customer.
struct Holder {
    name: String,
    cpf: Cpf,
    phone: Option<String>,
}

/// A raw card number where only the tokeniser's token is taken (the checkout outside the
/// sandbox, and every card saved).
pub(crate) const RAW_CARD_REFUSED: &str =
    "Os dados do cartão devem ser enviados pelo tokenizador do meio de pagamento.";
const HOLDER_NAME_REQUIRED: &str = "Informe o nome do titular do cartão.";

/// Saves a new card among the caller's cards
///
/// The card comes as the browser tokeniser's `card_token` (at the sandbox,
/// `POST /sandbox/card-tokens`); a raw `number` is refused. The provider keeps it (Pagar.me
/// in the member's customer wallet, the member made its customer once); a card it refuses
/// is 'Não foi possível usar este cartão. Confira os dados ou use outro cartão.'. Saving
/// the same card again answers the same card. The web shows 'Cartão salvo com sucesso'
/// and reloads the list (`GET /user-credit-cards/{id}`).
#[utoipa::path(
    post,
    path = "/user-credit-cards",
    tag = "commerce",
    security(("member" = [])),
    request_body = NewCardForm,
    responses(
        (status = 200, description = "The saved card", body = SavedCard),
        (status = 422, description = "No card token ('Informe os dados do cartão.'), a raw card number, no holder name ('Informe o nome do titular do cartão.'), 'CPF inválido', 'Data Inválida!', the billing address's texts ('Informe o endereço de cobrança do cartão.', 'CEP inválido', 'Endereço de cobrança longo demais.', 'Estado inválido'), or the card refused by the provider", body = Messages),
        (status = 429, description = "More saves than FILIA_ORDERS_MAX_PER_MEMBER (10) in FILIA_ORDERS_WINDOW_SECONDS (600)", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn save_card(
    State(state): State<AppState>,
    member: Member,
    Json(form): Json<NewCardForm>,
) -> ApiResult<Json<SavedCard>> {
    let (token, billing_address, holder) = form.read()?;
    throttle::<CardSaveLimit>(&state, &member).await?;
    let mut conn = state.db.acquire().await?;
    let profile = payment::customer(&mut conn, member.user_id).await?;
    drop(conn);
    let customer = Customer {
        name: holder.name,
        email: profile.email,
        document: holder.cpf.digits().to_string(),
        phone: holder.phone.or(profile.phone),
    };
    let card = app::commerce::cards::save_card(
        &state.db,
        &state.gateway,
        member.station(),
        member.user(),
        app::commerce::cards::NewCard {
            token,
            billing_address,
            customer,
        },
    )
    .await?;
    Ok(Json(card.into()))
}

#[derive(Debug, Serialize, ToSchema)]
struct SimulatedPayment {
    charge_id: String,
    /// The charge's status at the sandbox after the payment (`paid`).
    status: String,
}

/// Sandbox only: pays one of the caller's PIX charges ("simulate payment")
///
/// An order's PIX or a wallet top-up's.
///
/// Only when `FILIA_PAYMENTS=sandbox` (404 otherwise). Pays as the payer's bank would, even
/// after the charge's expiry; the signed webhook is posted to our endpoint at once by a
/// `sandbox.deliver` job, so the order turns paid through the real path.
#[utoipa::path(
    post,
    path = "/sandbox/pix/{charge_id}/pay",
    tag = "commerce",
    security(("member" = [])),
    params(("charge_id" = String, Path, description = "The PIX charge's id at the sandbox")),
    responses(
        (status = 200, description = "Paid at the sandbox; the order follows", body = SimulatedPayment),
        (status = 404, description = "Not in sandbox mode, or not one of the caller's charges", body = ErrorMessage),
        (status = 422, description = "The charge was paid before, or is not a PIX", body = Messages),
        (status = 429, description = "More sandbox calls than FILIA_SANDBOX_CALLS_MAX_PER_MEMBER (30) in FILIA_SANDBOX_CALLS_WINDOW_SECONDS (600)", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn sandbox_pay_pix(
    State(state): State<AppState>,
    member: Member,
    Path(charge_id): Path<String>,
) -> ApiResult<Json<SimulatedPayment>> {
    let Some(sandbox) = state.gateway.sandbox() else {
        return Err(ApiError::not_found(ROUTE_NOT_FOUND));
    };
    throttle::<SandboxLimit>(&state, &member).await?;
    let mut conn = state.db.acquire().await?;
    // An order's PIX, or a wallet top-up's; either way one of the caller's.
    let about = match payment::part_by_charge(&mut conn, &charge_id).await? {
        Some(part) => Some((part.station_id, part.user_id, "order", part.order_id)),
        None => domain::wallet::topups::by_charge(&mut conn, &charge_id)
            .await?
            .map(|topup| (topup.station_id, topup.user_id, "topup", topup.id)),
    };
    let (station_id, _, kind, id) = about
        .filter(|(_, user_id, ..)| *user_id == member.user_id)
        .ok_or_else(|| ApiError::not_found(ORDER_NOT_FOUND))?;
    drop(conn);
    let charge = sandbox
        .pay_pix(&charge_id, &PixPayment::default())
        .await
        .map_err(|err| match err {
            GatewayError::Rejected(_) => ApiError::invalid("Este PIX já foi pago."),
            other => ApiError::Internal(other.into()),
        })?;
    Enqueue::new(SandboxDeliver::default())
        .owner(station_id, Some(member.user_id))
        .about(kind, id)
        .commit(&state.db)
        .await?;
    Ok(Json(SimulatedPayment {
        charge_id,
        status: charge.status.as_str().into(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
struct CardToTokenize {
    number: String,
    #[serde(alias = "name")]
    holder_name: String,
    #[serde(default)]
    expiry: String,
    #[serde(alias = "cvc")]
    cvv: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct CardToken {
    card_token: String,
}

/// Sandbox only: the browser's card tokeniser
///
/// Only when `FILIA_PAYMENTS=sandbox` (404 otherwise; in production the browser tokenises
/// with the provider and card data never reaches us), for a member at the checkout. The
/// last four digits decide what charges of the card do: `0010` approved, `0028` declined,
/// `0036` processing then paid, `0044` processing then failed, `0051` fails once saved, `0069` pays once then declines.
#[utoipa::path(
    post,
    path = "/sandbox/card-tokens",
    tag = "commerce",
    security(("member" = [])),
    request_body = CardToTokenize,
    responses(
        (status = 200, description = "The token to send as `payment.card_token`", body = CardToken),
        (status = 404, description = "Not in sandbox mode", body = ErrorMessage),
        (status = 422, description = "Not a card number, or no holder name or cvv", body = Messages),
        (status = 429, description = "More sandbox calls than FILIA_SANDBOX_CALLS_MAX_PER_MEMBER (30) in FILIA_SANDBOX_CALLS_WINDOW_SECONDS (600)", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn sandbox_card_token(
    State(state): State<AppState>,
    member: Member,
    Json(card): Json<CardToTokenize>,
) -> ApiResult<Json<CardToken>> {
    let Some(sandbox) = state.gateway.sandbox() else {
        return Err(ApiError::not_found(ROUTE_NOT_FOUND));
    };
    throttle::<SandboxLimit>(&state, &member).await?;
    let token = sandbox_token(
        sandbox,
        CardDetails {
            number: card.number,
            holder_name: card.holder_name,
            expiry: card.expiry,
            cvv: card.cvv,
        },
    )
    .await?;
    Ok(Json(CardToken { card_token: token }))
}

#[derive(Debug, Deserialize, ToSchema)]
struct ClockAdvance {
    /// Whole days, 1 to 400.
    #[schema(value_type = i64, minimum = 1, maximum = 400)]
    advance_days: Value,
}

#[derive(Debug, Serialize, ToSchema)]
struct ClockNow {
    /// The sandbox's time now, which the billing engine reads.
    now: DateTime<Utc>,
}

/// The clock is the whole deployment's: staff of one station do not move it.
const CLOCK_NEEDS_ALL_STATIONS: &str =
    "Somente a equipe de todas as estações pode mover o relógio do ambiente de testes.";
const ADVANCE_DAYS: &str = "advance_days deve ser um número inteiro de 1 a 400.";

/// Sandbox only, support staff: moves the sandbox's clock forward
///
/// Only when `FILIA_PAYMENTS=sandbox` (404 otherwise, and in a build without the sandbox;
/// staff are asked for first, as every staff route does).
/// Every process of the deployment reads the same clock (`sandbox_clock`): the sandbox's
/// charges and expiries and the billing engine's due periods move with it, so a demo sees
/// a month of renewals at once. Never back. For support staff of every station (`support`,
/// no station scope), since it moves time for every station of the deployment.
#[utoipa::path(
    post,
    path = "/sandbox/clock",
    tag = "commerce",
    security(("staff" = [])),
    request_body = ClockAdvance,
    responses(
        (status = 200, description = "The clock moved; the time it now reads", body = ClockNow),
        (status = 403, description = "Not support staff of every station, or a viewer", body = ErrorMessage),
        (status = 404, description = "Not in sandbox mode", body = ErrorMessage),
        (status = 422, description = "advance_days is not a whole number from 1 to 400", body = Messages),
    )
)]
async fn sandbox_clock(
    State(state): State<AppState>,
    staff: Staff,
    Json(body): Json<ClockAdvance>,
) -> OpsResult<Json<ClockNow>> {
    let Some(sandbox) = state.gateway.sandbox() else {
        return Err(ApiError::not_found(ROUTE_NOT_FOUND).into());
    };
    staff.require_support()?;
    if staff.scope() != Scope::AllStations {
        return Err(OpsError::forbidden(CLOCK_NEEDS_ALL_STATIONS));
    }
    let days = whole(&body.advance_days)
        .filter(|days| (1..=400).contains(days))
        .ok_or_else(|| ApiError::invalid(ADVANCE_DAYS))?;
    let now = sandbox.advance_clock(Duration::days(days)).await?;
    Ok(Json(ClockNow { now }))
}
