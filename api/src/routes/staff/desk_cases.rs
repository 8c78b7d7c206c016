//! The cases a legal or accounting desk records by CPF in the console
//! (docs/api-services.md "The desk in the console"): listed (optionally for one CPF),
//! created, changed. Every change is audited (`case.record`).

use axum::extract::State;
use axum::http::StatusCode;
use domain::services::Desk;
use domain::services::desk::{self as rules, CASE_NOT_FOUND, CaseForm};
use domain::shared::paging::Listed;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::desk::{DeskCase, open_desk, reach_record};
use super::params::{given, invalid_if_any, parse_page};
use crate::desk_staff::DeskStaff;
use crate::error::{ApiError, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::staff::OpsResult;
use crate::state::AppState;

const CASE_DESKS: [Desk; 2] = [Desk::Legal, Desk::Accounting];

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(desk_cases, create_case))
        .routes(routes!(update_case))
}

#[derive(Debug, Deserialize)]
struct CasesQuery {
    cpf: Option<String>,
    page: Option<String>,
    per_page: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
struct DeskCases {
    cases: Vec<DeskCase>,
    total: i64,
    page: i64,
    per_page: i64,
}

/// A case as staff write it.
#[derive(Debug, Deserialize, ToSchema)]
struct CaseBody {
    /// 11 digits, bare or masked (999.999.999-99).
    #[serde(default)]
    cpf: Option<String>,
    /// Required: the spec's numeroProcesso.
    #[serde(default)]
    case_number: Option<String>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    situation: Option<String>,
    /// YYYY-MM-DD.
    #[serde(default)]
    filed_on: Option<String>,
    #[serde(default)]
    court: Option<String>,
    #[serde(default)]
    title: Option<String>,
    /// Centavos, ≥ 0; null: unknown.
    #[serde(default)]
    claim_cents: Option<i64>,
    /// https only.
    #[serde(default)]
    link: Option<String>,
    /// Published to the portal ('Causas coletivas').
    #[serde(default)]
    collective: Option<bool>,
}

impl From<CaseBody> for CaseForm {
    fn from(body: CaseBody) -> Self {
        Self {
            cpf: body.cpf,
            case_number: body.case_number,
            kind: body.kind,
            situation: body.situation,
            filed_on: body.filed_on,
            court: body.court,
            title: body.title,
            claim_cents: body.claim_cents,
            link: body.link,
            collective: body.collective,
        }
    }
}

/// A desk's cases, the latest changed first
///
/// `legal` or `accounting`, optionally of one CPF.
#[utoipa::path(
    get,
    path = "/stations/{id}/desk/{desk}/cases",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("id" = i64, Path, description = "The station id"),
        ("desk" = String, Path, description = "`legal` or `accounting`"),
        ("cpf" = Option<String>, Query, description = "One CPF's cases, bare or masked"),
        ("page" = Option<i64>, Query, description = "From 1 (the default)"),
        ("per_page" = Option<i64>, Query, description = "1 to 200, 50 by default"),
    ),
    responses(
        (status = 200, description = "A page of cases and the total", body = DeskCases),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "Not desk staff, or not of this desk", body = ErrorMessage),
        (status = 404, description = "A station out of reach, or a desk it does not offer: 'Serviço não disponível.'", body = ErrorMessage),
        (status = 422, description = "'cpf: CPF inválido', 'Página inválida.'", body = Messages),
    )
)]
async fn desk_cases(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path((station_id, desk)): Path<(i64, String)>,
    Query(query): Query<CasesQuery>,
) -> OpsResult<Json<DeskCases>> {
    let desk = open_desk(&state, &staff, station_id, &desk, &CASE_DESKS, false).await?;
    let mut messages = Vec::new();
    let cpf = match given(query.cpf) {
        None => None,
        Some(cpf) => {
            let digits = rules::parse_cpf(&cpf);
            if digits.is_none() {
                messages.push(rules::BAD_CPF);
            }
            digits
        }
    };
    let (page, per_page) = parse_page(query.page, query.per_page, &mut messages);
    invalid_if_any(messages)?;
    let mut conn = state.db.acquire().await.map_err(ApiError::from)?;
    let Listed { items, total } =
        rules::cases(&mut conn, station_id, desk, cpf.as_deref(), page, per_page)
            .await
            .map_err(ApiError::from)?;
    Ok(Json(DeskCases {
        cases: items.into_iter().map(DeskCase::from).collect(),
        total,
        page,
        per_page,
    }))
}

/// Records a case for a CPF
///
/// Audited (`case.record`).
#[utoipa::path(
    post,
    path = "/stations/{id}/desk/{desk}/cases",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("id" = i64, Path, description = "The station id"),
        ("desk" = String, Path, description = "`legal` or `accounting`"),
    ),
    request_body = CaseBody,
    responses(
        (status = 201, description = "Recorded", body = DeskCase),
        (status = 400, description = "The id is not a number, or the body cannot be read", body = Messages),
        (status = 403, description = "Not desk staff, not of this desk, or reads only", body = ErrorMessage),
        (status = 404, description = "A station out of reach, or a desk it does not offer: 'Serviço não disponível.'", body = ErrorMessage),
        (status = 409, description = "The same case number for the same CPF: 'Este processo já está cadastrado para este CPF.'", body = ErrorMessage),
        (status = 422, description = "'cpf: CPF inválido', 'case_number: Esse campo é obrigatório', 'filed_on: Data inválida', 'claim_cents: Valor inválido', 'link: O link deve começar com https://'", body = Messages),
    )
)]
async fn create_case(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path((station_id, desk)): Path<(i64, String)>,
    Json(body): Json<CaseBody>,
) -> OpsResult<(StatusCode, Json<DeskCase>)> {
    let desk = open_desk(&state, &staff, station_id, &desk, &CASE_DESKS, true).await?;
    let fields = rules::check_case(&body.into())?;
    let case =
        app::services::desk::create_case(&state.db, staff.user_id(), station_id, desk, &fields)
            .await?;
    Ok((StatusCode::CREATED, Json(case.into())))
}

/// Changes a case
///
/// Every field as sent (the station and desk stay). Audited (`case.record`).
#[utoipa::path(
    put,
    path = "/desk/cases/{id}",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The case's id")),
    request_body = CaseBody,
    responses(
        (status = 200, description = "Changed", body = DeskCase),
        (status = 400, description = "The id is not a number, or the body cannot be read", body = Messages),
        (status = 403, description = "Not desk staff, or reads only", body = ErrorMessage),
        (status = 404, description = "No such case in reach: 'Processo não encontrado.'", body = ErrorMessage),
        (status = 409, description = "The same case number for the same CPF: 'Este processo já está cadastrado para este CPF.'", body = ErrorMessage),
        (status = 422, description = "'cpf: CPF inválido', 'case_number: Esse campo é obrigatório', 'filed_on: Data inválida', 'claim_cents: Valor inválido', 'link: O link deve começar com https://'", body = Messages),
    )
)]
async fn update_case(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path(id): Path<i64>,
    Json(body): Json<CaseBody>,
) -> OpsResult<Json<DeskCase>> {
    let case = rules::case(&state.db, id)
        .await
        .map_err(ApiError::from)?
        .ok_or_else(|| ApiError::not_found(CASE_NOT_FOUND))?;
    reach_record(&staff, case.station_id, case.service, true, CASE_NOT_FOUND)?;
    domain::services::offered(
        &state.db,
        domain::shared::ids::StationId(case.station_id),
        case.service,
    )
    .await?;
    let fields = rules::check_case(&body.into())?;
    let case = app::services::desk::update_case(&state.db, staff.user_id(), id, &fields).await?;
    Ok(Json(case.into()))
}
