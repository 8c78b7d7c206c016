//! `GET /fuel-campaigns`, `GET /fuel-campaigns/{id}` and `POST /fuel-campaigns` (spec 002
//! section 7, "Fuel campaign"; the spec hides the resource's brand, docs/decisions.md "The
//! fuel campaign"): the station's open campaigns, the member's vouchers, and taking one.
//! Only where the station offers the campaign (`fuel_campaign_access`; 404 elsewhere).

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use domain::fuel::{campaigns, vouchers};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::member::{Member, own_scope};
use crate::member_throttle::{MemberLimit, throttle};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(open_campaigns, take_voucher))
        .routes(routes!(member_vouchers))
}

/// Taking vouchers: a member holds one per campaign, so a few tries in ten minutes is all
/// a person needs; the rest is a script.
struct FuelTakeLimit;

pub const TOO_MANY_TAKES: &str =
    "Muitas solicitações de voucher em pouco tempo. Aguarde alguns minutos e tente novamente.";

impl MemberLimit for FuelTakeLimit {
    const NAME: &'static str = "fuel-vouchers";
    const MESSAGE: &'static str = TOO_MANY_TAKES;
    fn limit(_: &domain::Config) -> (u32, u64) {
        (10, 600)
    }
}

/// A fuel campaign open to the member.
#[derive(Debug, Serialize, ToSchema)]
pub struct FuelCampaign {
    pub id: i64,
    #[serde(rename = "nomeCampanha")]
    pub name: String,
    #[serde(rename = "descricao")]
    pub description: String,
    /// The picture's URL, when it has one.
    #[serde(rename = "imagem")]
    pub image: Option<String>,
    /// The fuel ("Gasolina comum").
    #[serde(rename = "tipoVoucher")]
    pub voucher_type: String,
    /// Litres a voucher gives.
    #[serde(rename = "volume")]
    #[schema(value_type = f64)]
    pub litres: Decimal,
    /// What a voucher is worth, in centavos.
    #[serde(rename = "valorVoucher")]
    pub value_cents: i64,
    /// A voucher is valid this many days from its issue.
    #[serde(rename = "diasValidade")]
    pub valid_days: i32,
    /// Vouchers are given from this instant...
    #[serde(rename = "dataInicio")]
    pub starts_at: DateTime<Utc>,
    /// ...until this one.
    #[serde(rename = "dataFim")]
    pub ends_at: DateTime<Utc>,
    /// Whether the member already holds this campaign's voucher.
    #[serde(rename = "possuiVoucher")]
    pub taken: bool,
}

impl From<campaigns::Campaign> for FuelCampaign {
    fn from(campaign: campaigns::Campaign) -> Self {
        let campaigns::Campaign {
            id,
            name,
            description,
            image,
            voucher_type,
            litres,
            value_cents,
            valid_days,
            starts_at,
            ends_at,
            taken,
        } = campaign;
        Self {
            id,
            name,
            description,
            image,
            voucher_type,
            litres,
            value_cents,
            valid_days,
            starts_at,
            ends_at,
            taken,
        }
    }
}

/// Where a voucher stands: `expired` once past its validity.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum FuelVoucherStatus {
    Issued,
    Expired,
    Used,
}

/// A member's fuel voucher.
#[derive(Debug, Serialize, ToSchema)]
pub struct FuelVoucher {
    pub id: i64,
    /// The campaign it is of.
    pub fuel_id: i64,
    #[serde(rename = "nomeCampanha")]
    pub campaign_name: String,
    #[serde(rename = "tipoVoucher")]
    pub voucher_type: String,
    /// Litres, as the campaign gave them when the voucher was taken.
    #[serde(rename = "volume")]
    #[schema(value_type = f64)]
    pub litres: Decimal,
    /// Its worth in centavos, as the campaign gave it when the voucher was taken.
    #[serde(rename = "valorVoucher")]
    pub value_cents: i64,
    /// What the pump reads: "ABCD-EFGH-JKLM".
    #[serde(rename = "codigo")]
    pub code: String,
    #[serde(rename = "dataEmissao")]
    pub issued_at: DateTime<Utc>,
    #[serde(rename = "dataValidade")]
    pub valid_until: DateTime<Utc>,
    pub status: FuelVoucherStatus,
}

impl From<vouchers::Voucher> for FuelVoucher {
    fn from(voucher: vouchers::Voucher) -> Self {
        let vouchers::Voucher {
            id,
            campaign_id,
            campaign_name,
            voucher_type,
            litres,
            value_cents,
            code,
            issued_at,
            valid_until,
            status,
        } = voucher;
        Self {
            id,
            fuel_id: campaign_id,
            campaign_name,
            voucher_type,
            litres,
            value_cents,
            code,
            issued_at,
            valid_until,
            status: match status {
                vouchers::VoucherStatus::Issued => FuelVoucherStatus::Issued,
                vouchers::VoucherStatus::Expired => FuelVoucherStatus::Expired,
                vouchers::VoucherStatus::Used => FuelVoucherStatus::Used,
            },
        }
    }
}

/// The spec's generate payload.
#[derive(Debug, Deserialize, ToSchema)]
struct TakeVoucher {
    /// The campaign (required).
    #[serde(default)]
    fuel_id: Option<i64>,
    /// The caller's own id (the session's is used; another member's is refused).
    #[serde(default)]
    user_id: Option<i64>,
}

/// The station's open fuel campaigns
///
/// Published campaigns of the caller's station within their window with vouchers left
/// (or whose voucher the member holds), ending soonest first, each saying whether the
/// member holds its voucher (`possuiVoucher`).
#[utoipa::path(
    get,
    path = "/fuel-campaigns",
    tag = "fuel",
    security(("member" = [])),
    responses(
        (status = 200, description = "The open campaigns", body = [FuelCampaign]),
        (status = 404, description = "The station offers no fuel campaign: 'Campanha de combustível não disponível.'", body = ErrorMessage),
    )
)]
async fn open_campaigns(
    State(state): State<AppState>,
    member: Member,
) -> ApiResult<Json<Vec<FuelCampaign>>> {
    let found = campaigns::open(&state.db, member.station(), member.user(), Utc::now()).await?;
    Ok(Json(found.into_iter().map(FuelCampaign::from).collect()))
}

/// The member's fuel vouchers
///
/// The caller's vouchers, newest first; `{id}` is the caller's own user id (the spec's
/// "GET on it with /{id}"). A voucher past its validity is `expired`.
#[utoipa::path(
    get,
    path = "/fuel-campaigns/{id}",
    tag = "fuel",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    responses(
        (status = 200, description = "The member's vouchers", body = [FuelVoucher]),
        (status = 403, description = "Another member's id: 'Você não possui autorização para acessar esta página.'", body = Messages),
        (status = 404, description = "The station offers no fuel campaign: 'Campanha de combustível não disponível.'", body = ErrorMessage),
    )
)]
async fn member_vouchers(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Json<Vec<FuelVoucher>>> {
    own_scope(member, None, Some(id))?;
    let found = vouchers::of_member(&state.db, member.station(), member.user(), Utc::now()).await?;
    Ok(Json(found.into_iter().map(FuelVoucher::from).collect()))
}

/// Takes a campaign's fuel voucher
///
/// One per member and campaign, however many requests arrive at once: the first makes it
/// (201), the others are refused (409). The voucher copies the campaign's fuel, litres and
/// value, and is valid the campaign's days from now. Throttled per member (10 in 10
/// minutes).
#[utoipa::path(
    post,
    path = "/fuel-campaigns",
    tag = "fuel",
    security(("member" = [])),
    request_body = TakeVoucher,
    responses(
        (status = 201, description = "The voucher taken", body = FuelVoucher),
        (status = 403, description = "Another member's user_id: 'Você não possui autorização para acessar esta página.'", body = Messages),
        (status = 404, description = "The station offers no fuel campaign ('Campanha de combustível não disponível.'), or the campaign is unknown, unpublished or another station's ('Campanha não encontrada.')", body = ErrorMessage),
        (status = 409, description = "The member holds this campaign's voucher ('Você já possui um voucher desta campanha.'), the campaign is outside its window ('Esta campanha não está aberta para novos vouchers.') or its vouchers are all given ('Os vouchers desta campanha se esgotaram.')", body = ErrorMessage),
        (status = 422, description = "No fuel_id ('fuel_id: Esse campo é obrigatório'), or a field that is not a number ('O campo \"fuel_id\" tem um valor inválido')", body = Messages),
        (status = 429, description = "More than 10 takes in 10 minutes: 'Muitas solicitações de voucher em pouco tempo. Aguarde alguns minutos e tente novamente.'", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn take_voucher(
    State(state): State<AppState>,
    member: Member,
    Json(form): Json<TakeVoucher>,
) -> ApiResult<(StatusCode, Json<FuelVoucher>)> {
    own_scope(member, None, form.user_id)?;
    throttle::<FuelTakeLimit>(&state, &member).await?;
    let voucher =
        app::fuel::take_voucher(&state.db, member.station(), member.user(), form.fuel_id).await?;
    Ok((StatusCode::CREATED, Json(FuelVoucher::from(voucher))))
}
