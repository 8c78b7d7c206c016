//! Money into the wallet (docs/api-wallet.md "Top-ups"): the station's top-up settings,
//! PIX and card top-ups (`/user-buy-points-transaction`) with "Verificar pagamento", and
//! the spec's bank-transfer requests (`/transfer-request`). Every call is the member's own:
//! another member's top-up reads as absent (404), another member's id is 403.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use domain::commerce::cards as saved_cards;
use domain::shared::money::parse_reais;
use domain::wallet::ledger;
use domain::wallet::topups::{self, BankDetails, Method, Status, TopUp, TopUpError};
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::points::Points;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::member::Member;
use crate::member_throttle::{MemberLimit, throttle};
use crate::routes::commerce::orders::GatewayCharge;
use crate::routes::commerce::{own, whole};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(topup_settings))
        .routes(routes!(buy_points, list_topups))
        .routes(routes!(one_topup))
        .routes(routes!(check_topup))
        .routes(routes!(create_transfer_request))
        .routes(routes!(list_transfer_requests))
}

/// The most top-ups (and transfer requests) one member may see in a list.
const LIST_LIMIT: i64 = 200;

/// Opening top-ups and transfer requests, each of which may call the payment provider:
/// `FILIA_ORDERS_MAX_PER_MEMBER` per `FILIA_ORDERS_WINDOW_SECONDS`, the orders' numbers on
/// a counter of their own.
struct TopUpLimit;

impl MemberLimit for TopUpLimit {
    const NAME: &'static str = "topups";
    const MESSAGE: &'static str =
        "Muitos pedidos de recarga em pouco tempo. Aguarde alguns minutos e tente novamente.";
    fn limit(config: &domain::Config) -> (u32, u64) {
        (config.orders_max_per_member, config.orders_window_seconds)
    }
}

/// "Verificar pagamento" of a top-up: the payment checks' own numbers.
struct TopUpCheckLimit;

impl MemberLimit for TopUpCheckLimit {
    const NAME: &'static str = "topup-checks";
    const MESSAGE: &'static str = "Muitas verificações de pagamento em pouco tempo. Aguarde alguns minutos e tente novamente.";
    fn limit(config: &domain::Config) -> (u32, u64) {
        (
            config.payment_checks_max_per_member,
            config.payment_checks_window_seconds,
        )
    }
}

/// The station's bank details for a transfer.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TopUpBankDetails)]
pub struct BankDetailsView {
    pub bank_name: String,
    pub agency: String,
    pub account: String,
    pub holder: String,
    /// The holder's CNPJ or CPF, as the station wrote it.
    pub document: String,
    pub pix_key: Option<String>,
}

impl From<BankDetails> for BankDetailsView {
    fn from(details: BankDetails) -> Self {
        let BankDetails {
            bank_name,
            agency,
            account,
            holder,
            document,
            pix_key,
        } = details;
        Self {
            bank_name,
            agency,
            account,
            holder,
            document,
            pix_key,
        }
    }
}

/// The station's top-up limits (centavos) and what the caller may still ask for today.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TopUpSettings)]
struct SettingsView {
    min_cents: i64,
    max_cents: i64,
    daily_max_cents: i64,
    /// The daily maximum less the caller's pending, under review and credited top-ups of
    /// the station's day.
    daily_left_cents: i64,
    /// A paid PIX or card top-up above this waits for staff (`review`).
    review_above_cents: i64,
    transfer_expiry_hours: i32,
    /// Null when the station takes no transfers (the method is not offered).
    bank: Option<BankDetailsView>,
}

/// The station's top-up settings
///
/// What 'Abastecer créditos' shows: the limits, what the caller may still top up today,
/// and the bank details for a transfer (null: no transfers).
#[utoipa::path(
    get,
    path = "/wallet/topup-settings",
    tag = "wallet",
    security(("member" = [])),
    responses((status = 200, description = "The settings", body = SettingsView))
)]
async fn topup_settings(
    State(state): State<AppState>,
    member: Member,
) -> ApiResult<Json<SettingsView>> {
    let mut conn = state.db.acquire().await?;
    let settings = topups::settings(&mut conn, member.station_id).await?;
    let left = topups::daily_left(&mut conn, member.station_id, member.user_id, &settings).await?;
    let bank = topups::bank_details(&mut conn, member.station_id).await?;
    Ok(Json(SettingsView {
        min_cents: settings.min_cents,
        max_cents: settings.max_cents,
        daily_max_cents: settings.daily_max_cents,
        daily_left_cents: left,
        review_above_cents: settings.review_above_cents,
        transfer_expiry_hours: settings.transfer_expiry_hours,
        bank: bank.map(BankDetailsView::from),
    }))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
enum TopUpMethod {
    Pix,
    Card,
    Transfer,
}

impl From<Method> for TopUpMethod {
    fn from(method: Method) -> Self {
        match method {
            Method::Pix => Self::Pix,
            Method::Card => Self::Card,
            Method::Transfer => Self::Transfer,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
enum TopUpStatus {
    Pending,
    Review,
    Credited,
    Failed,
    Expired,
    Rejected,
    Refunded,
}

impl From<Status> for TopUpStatus {
    fn from(status: Status) -> Self {
        match status {
            Status::Pending => Self::Pending,
            Status::Review => Self::Review,
            Status::Credited => Self::Credited,
            Status::Failed => Self::Failed,
            Status::Expired => Self::Expired,
            Status::Rejected => Self::Rejected,
            Status::Refunded => Self::Refunded,
        }
    }
}

/// One top-up. `points` is BRL (1 point = R$ 1,00), `amount_cents` its centavos.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TopUp)]
pub struct TopUpView {
    id: i64,
    method: TopUpMethod,
    points: Points,
    amount_cents: i64,
    /// A pending PIX or transfer past its expiry reads `expired`.
    status: TopUpStatus,
    /// Why a card was declined, in the provider's words.
    failure_reason: Option<String>,
    created_at: DateTime<Utc>,
    credited_at: Option<DateTime<Utc>>,
    expires_at: Option<DateTime<Utc>>,
    /// A PIX's code to pay, as the shop's checkout answers it (`payment_method` `pix`,
    /// `charge_id` for the sandbox's 'Simular pagamento', `pix_qr_code` the BR Code,
    /// `expiration_date`); null for other methods.
    pix: Option<GatewayCharge>,
}

impl From<TopUp> for TopUpView {
    fn from(topup: TopUp) -> Self {
        let status = topup.status_now(Utc::now());
        let pix = match (topup.method, topup.br_code) {
            (Method::Pix, Some(code)) => Some(GatewayCharge {
                payment_method: "pix".into(),
                charge_id: topup.gateway_charge_id,
                pix_qr_code: Some(code),
                expiration_date: topup.expires_at,
            }),
            _ => None,
        };
        Self {
            id: topup.id,
            method: topup.method.into(),
            points: Points::from(ledger::Points(topup.amount)),
            amount_cents: topup.amount,
            status: status.into(),
            failure_reason: topup.failure_reason,
            created_at: topup.created_at,
            credited_at: topup.credited_at,
            expires_at: topup.expires_at,
            pix,
        }
    }
}

/// A top-up's amount: a JSON number (or numeric text) of reais with at most two decimals.
fn amount_of(points: &Value) -> Result<i64, TopUpError> {
    let text = match points {
        Value::Number(number) => number.to_string(),
        Value::String(text) => text.clone(),
        _ => return Err(TopUpError::InvalidAmount),
    };
    parse_reais(&text).ok_or(TopUpError::InvalidAmount)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
enum PurchaseMethod {
    Pix,
    Card,
}

/// A new card's billing address, needed only to save it (`save_card`).
#[derive(Debug, Deserialize, ToSchema)]
struct BillingAddressForm {
    #[serde(default)]
    cep: String,
    #[serde(default)]
    street: String,
    #[serde(default)]
    #[schema(value_type = String)]
    street_number: Value,
    #[serde(default)]
    city: String,
    /// The state's two letters.
    #[serde(default)]
    state: String,
}

/// A PIX or card top-up. Its Debug never shows the card token.
#[derive(Deserialize, ToSchema)]
struct BuyPoints {
    /// Reais (1 point = R$ 1,00), at most two decimals.
    #[schema(value_type = f64)]
    points: Value,
    method: PurchaseMethod,
    /// A saved card's id (`GET /user-credit-cards/{id}`).
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    card_id: Value,
    /// A new card, as the browser tokeniser's token (at the sandbox,
    /// `POST /sandbox/card-tokens`).
    #[serde(default)]
    card_token: Option<String>,
    /// Save the new card first (it then needs `billing_address`) and charge the saved card.
    #[serde(default)]
    save_card: Option<bool>,
    #[serde(default)]
    billing_address: Option<BillingAddressForm>,
}

impl std::fmt::Debug for BuyPoints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuyPoints")
            .field("points", &self.points)
            .field("method", &self.method)
            .field("card_id", &self.card_id)
            .finish_non_exhaustive()
    }
}

const CARD_REQUIRED: &str = "Escolha um cartão salvo ou informe um novo cartão.";

impl BuyPoints {
    fn pay_with(&self) -> ApiResult<app::wallet::topups::PayWith> {
        use app::wallet::topups::PayWith;
        if matches!(self.method, PurchaseMethod::Pix) {
            return Ok(PayWith::Pix);
        }
        if let Some(card_id) = whole(&self.card_id).filter(|id| *id > 0) {
            return Ok(PayWith::SavedCard(card_id));
        }
        let token = self
            .card_token
            .as_deref()
            .map(str::trim)
            .filter(|token| !token.is_empty())
            .ok_or_else(|| ApiError::invalid(CARD_REQUIRED))?;
        let save_with = if self.save_card.unwrap_or(false) {
            let form = self.billing_address.as_ref();
            let field = |pick: fn(&BillingAddressForm) -> &str| form.map(pick).unwrap_or("");
            let number = match form.map(|form| &form.street_number) {
                Some(Value::String(text)) => text.clone(),
                Some(Value::Number(number)) => number.to_string(),
                _ => String::new(),
            };
            Some(
                saved_cards::billing_address(
                    field(|f| &f.cep),
                    field(|f| &f.street),
                    &number,
                    field(|f| &f.city),
                    field(|f| &f.state),
                )
                .map_err(ApiError::invalid)?,
            )
        } else {
            None
        };
        Ok(PayWith::NewCard {
            token: token.to_string(),
            save_with,
        })
    }
}

/// Buys points: a PIX or card top-up
///
/// Checks the station's limits ('O valor mínimo é R$ 10,00.', 'O valor máximo por pedido é
/// R$ 5.000,00.', 'Limite diário de recarga atingido: você ainda pode pedir R$ X.'). PIX:
/// 201 pending with its code; paid by webhook or 'Verificar pagamento'. Card (a saved
/// `card_id`, or a new `card_token`, saved first with `save_card`): 201 credited, or 202
/// `review` above the station's threshold; a declined card is 422 with the provider's
/// reason; a card that is not the caller's (removed, unknown) is 422.
#[utoipa::path(
    post,
    path = "/user-buy-points-transaction",
    tag = "wallet",
    security(("member" = [])),
    request_body = BuyPoints,
    responses(
        (status = 201, description = "Credited (card) or pending (PIX, with its code)", body = TopUpView),
        (status = 202, description = "Paid above the review threshold: waits for staff (`review`)", body = TopUpView),
        (status = 422, description = "A bad amount ('Informe um valor válido.'), a limit, no card ('Escolha um cartão salvo ou informe um novo cartão.'), an unknown or removed card ('Cartão não encontrado. Escolha outro cartão ou cadastre um novo.'), a card refused or declined (the provider's reason), or a bad billing address to save the card", body = Messages),
        (status = 429, description = "More top-ups than FILIA_ORDERS_MAX_PER_MEMBER (10) in FILIA_ORDERS_WINDOW_SECONDS (600)", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn buy_points(
    State(state): State<AppState>,
    member: Member,
    Json(body): Json<BuyPoints>,
) -> ApiResult<(StatusCode, Json<TopUpView>)> {
    throttle::<TopUpLimit>(&state, &member).await?;
    let amount = amount_of(&body.points)?;
    let pay_with = body.pay_with()?;
    let topup = app::wallet::topups::buy(
        &state.db,
        &state.gateway,
        &JobOutbox,
        &state.config.public_url,
        app::wallet::topups::Purchase {
            station_id: member.station_id,
            user_id: member.user_id,
            amount,
            pay_with,
        },
    )
    .await?;
    let status = if topup.status == Status::Review {
        StatusCode::ACCEPTED
    } else {
        StatusCode::CREATED
    };
    Ok((status, Json(topup.into())))
}

/// The caller's top-ups
///
/// Every method (PIX, card, transfer), newest first (at most 200).
#[utoipa::path(
    get,
    path = "/user-buy-points-transaction",
    tag = "wallet",
    security(("member" = [])),
    responses((status = 200, description = "The caller's top-ups, newest first", body = Vec<TopUpView>))
)]
async fn list_topups(
    State(state): State<AppState>,
    member: Member,
) -> ApiResult<Json<Vec<TopUpView>>> {
    let mut conn = state.db.acquire().await?;
    let list = topups::list_of_member(&mut conn, member.user_id, None, LIST_LIMIT).await?;
    Ok(Json(list.into_iter().map(TopUpView::from).collect()))
}

/// One of the caller's top-ups
#[utoipa::path(
    get,
    path = "/user-buy-points-transaction/{id}",
    tag = "wallet",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The top-up's id")),
    responses(
        (status = 200, description = "The top-up", body = TopUpView),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 404, description = "No such top-up of the caller's ('Recarga não encontrada.')", body = ErrorMessage),
    )
)]
async fn one_topup(
    State(state): State<AppState>,
    member: Member,
    Path(topup_id): Path<i64>,
) -> ApiResult<Json<TopUpView>> {
    let mut conn = state.db.acquire().await?;
    let topup = topups::of_member(&mut conn, member.user_id, topup_id)
        .await?
        .ok_or(TopUpError::NotFound)?;
    Ok(Json(topup.into()))
}

/// Verificar pagamento: asks the provider about a top-up's charge now
///
/// Re-reads a pending PIX or card charge and applies it through the same idempotent path
/// as the webhook (the two racing credit once). A charge read in the last
/// `FILIA_PAYMENT_READ_REUSE_SECONDS` (5) is not read again. Answers the top-up.
#[utoipa::path(
    post,
    path = "/user-buy-points-transaction/{id}/check-payment",
    tag = "wallet",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The top-up's id")),
    responses(
        (status = 200, description = "The top-up as it now is", body = TopUpView),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 404, description = "No such top-up of the caller's ('Recarga não encontrada.')", body = ErrorMessage),
        (status = 429, description = "More checks than FILIA_PAYMENT_CHECKS_MAX_PER_MEMBER (20) in FILIA_PAYMENT_CHECKS_WINDOW_SECONDS (600)", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn check_topup(
    State(state): State<AppState>,
    member: Member,
    Path(topup_id): Path<i64>,
) -> ApiResult<Json<TopUpView>> {
    throttle::<TopUpCheckLimit>(&state, &member).await?;
    let topup = app::wallet::topups::check(
        &state.db,
        &state.gateway,
        &JobOutbox,
        &state.config.public_url,
        member.user_id,
        topup_id,
        state.config.payment_read_reuse_seconds,
    )
    .await?;
    Ok(Json(topup.into()))
}

/// The spec's transfer request: `{ user_id, type_id: 5, points }`.
#[derive(Debug, Deserialize, ToSchema)]
struct NewTransferRequest {
    /// The caller's own id.
    #[schema(value_type = i64)]
    user_id: Value,
    /// 5, a bank transfer.
    #[schema(value_type = i64)]
    type_id: Value,
    /// Reais, at most two decimals.
    #[schema(value_type = f64)]
    points: Value,
}

/// The spec's transfer-request type: a bank transfer.
const TRANSFER_TYPE: i64 = 5;

#[derive(Debug, Serialize, ToSchema)]
struct TransferStatus {
    /// 'Aguardando confirmação', 'Confirmado', 'Expirado' or 'Recusado'.
    name: &'static str,
}

/// A bank-transfer request, as 'Pedidos de transferência' lists it.
#[derive(Debug, Serialize, ToSchema)]
struct TransferRequest {
    id: i64,
    points: Points,
    #[serde(rename = "createdAt")]
    created_at: DateTime<Utc>,
    #[serde(rename = "expiresAt")]
    expires_at: Option<DateTime<Utc>>,
    status: TransferStatus,
}

impl From<TopUp> for TransferRequest {
    fn from(topup: TopUp) -> Self {
        let name = match topup.status_now(Utc::now()) {
            Status::Pending | Status::Review => "Aguardando confirmação",
            Status::Credited => "Confirmado",
            Status::Expired | Status::Failed => "Expirado",
            Status::Rejected | Status::Refunded => "Recusado",
        };
        Self {
            id: topup.id,
            points: Points::from(ledger::Points(topup.amount)),
            created_at: topup.created_at,
            expires_at: topup.expires_at,
            status: TransferStatus { name },
        }
    }
}

/// Asks to top up by bank transfer (type 5)
///
/// The member transfers to the station's bank details ('Abastecer créditos' shows them)
/// and staff confirm the request in the console, which credits it and e-mails the member;
/// unconfirmed, it expires after the station's `transfer_expiry_hours`. The limits of every
/// top-up apply. `user_id` must be the caller's own.
#[utoipa::path(
    post,
    path = "/transfer-request",
    tag = "wallet",
    security(("member" = [])),
    request_body = NewTransferRequest,
    responses(
        (status = 201, description = "The request, waiting for confirmation", body = TransferRequest),
        (status = 403, description = "Another member's user_id", body = Messages),
        (status = 422, description = "user_id not a whole number ('user_id inválido.'), type_id other than 5 ('Tipo de pedido inválido.'), a bad amount, a limit, or a station without bank details ('Esta estação não recebe transferências bancárias.')", body = Messages),
        (status = 429, description = "More requests than FILIA_ORDERS_MAX_PER_MEMBER (10) in FILIA_ORDERS_WINDOW_SECONDS (600)", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn create_transfer_request(
    State(state): State<AppState>,
    member: Member,
    Json(body): Json<NewTransferRequest>,
) -> ApiResult<(StatusCode, Json<TransferRequest>)> {
    let user_id = whole(&body.user_id).ok_or_else(|| ApiError::invalid("user_id inválido."))?;
    own(member, user_id)?;
    if whole(&body.type_id) != Some(TRANSFER_TYPE) {
        return Err(ApiError::invalid(topups::WRONG_TYPE));
    }
    throttle::<TopUpLimit>(&state, &member).await?;
    let amount = amount_of(&body.points)?;
    let topup = app::wallet::topups::request_transfer(
        &state.db,
        &JobOutbox,
        member.station_id,
        member.user_id,
        amount,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(topup.into())))
}

/// `?where[user_id]={id}`: the caller's own id (the default when absent).
#[derive(Debug, Deserialize)]
struct TransferQuery {
    #[serde(rename = "where[user_id]")]
    user_id: Option<i64>,
}

/// The caller's bank-transfer requests
///
/// Newest first (at most 200), with the spec's status names.
#[utoipa::path(
    get,
    path = "/transfer-request/",
    tag = "wallet",
    security(("member" = [])),
    params(("where[user_id]" = Option<i64>, Query, description = "The caller's own id")),
    responses(
        (status = 200, description = "The requests, newest first", body = Vec<TransferRequest>),
        (status = 400, description = "A parameter is not a number", body = Messages),
        (status = 403, description = "Another member's id", body = Messages),
    )
)]
async fn list_transfer_requests(
    State(state): State<AppState>,
    member: Member,
    Query(query): Query<TransferQuery>,
) -> ApiResult<Json<Vec<TransferRequest>>> {
    let user_id = own(member, query.user_id.unwrap_or(member.user_id))?;
    let mut conn = state.db.acquire().await?;
    let list =
        topups::list_of_member(&mut conn, user_id, Some(Method::Transfer), LIST_LIMIT).await?;
    Ok(Json(list.into_iter().map(TransferRequest::from).collect()))
}
