//! Accounting consultancy (docs/api-services.md "Accounting"): `GET
//! /accounting-processes`, `GET /accounting-appointments` and `POST
//! /accounting-appointments` (Thursday only).

use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use domain::services::cases::{self, Case};
use domain::services::{AppointmentService, Desk};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::legal::AppointmentRequest;
use super::{ServiceAppointment, ServiceRequestCreated};
use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::member::Member;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(accounting_processes))
        .routes(routes!(
            accounting_appointments,
            request_accounting_appointment
        ))
}

/// An accounting case the office follows for the member.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountingProcess {
    pub id: i64,
    #[serde(rename = "numeroProcesso")]
    pub case_number: String,
    #[serde(rename = "tipo")]
    pub kind: String,
    #[serde(rename = "situacao")]
    pub situation: String,
    /// The filing date ("2025-03-14"), when known.
    #[serde(rename = "dataProtocolo")]
    pub filed_on: Option<NaiveDate>,
    #[serde(rename = "tribunalOrgao")]
    pub court: String,
    /// The amount in centavos; null when unknown.
    #[serde(rename = "valorCausa")]
    pub claim_cents: Option<i64>,
    #[serde(rename = "linkProcesso")]
    pub link: Option<String>,
}

impl From<Case> for AccountingProcess {
    fn from(case: Case) -> Self {
        Self {
            id: case.id,
            case_number: case.case_number,
            kind: case.kind,
            situation: case.situation,
            filed_on: case.filed_on,
            court: case.court,
            claim_cents: case.claim_cents,
            link: case.link,
        }
    }
}

/// The member's accounting cases
///
/// The cases kept under the account's CPF (none without one), newest filing first.
#[utoipa::path(
    get,
    path = "/accounting-processes",
    tag = "services",
    security(("member" = [])),
    responses(
        (status = 200, description = "The member's cases", body = [AccountingProcess]),
        (status = 404, description = "The station offers no accounting consultancy: 'Serviço não disponível.'", body = ErrorMessage),
    )
)]
async fn accounting_processes(
    State(state): State<AppState>,
    member: Member,
) -> ApiResult<Json<Vec<AccountingProcess>>> {
    let mut conn = state.db.acquire().await?;
    let found =
        cases::of_member(&mut conn, member.station(), member.user(), Desk::Accounting).await?;
    Ok(Json(
        found.into_iter().map(AccountingProcess::from).collect(),
    ))
}

/// The member's accounting appointments
///
/// As the legal ones: the upcoming first, then the rest, newest first.
#[utoipa::path(
    get,
    path = "/accounting-appointments",
    tag = "services",
    security(("member" = [])),
    responses(
        (status = 200, description = "The member's appointments", body = [ServiceAppointment]),
        (status = 404, description = "The station offers no accounting consultancy: 'Serviço não disponível.'", body = ErrorMessage),
    )
)]
async fn accounting_appointments(
    State(state): State<AppState>,
    member: Member,
) -> ApiResult<Json<Vec<ServiceAppointment>>> {
    super::appointments_of(&state, member, AppointmentService::Accounting).await
}

/// Requests an accounting appointment
///
/// As a legal request; the service attends on Thursdays only.
#[utoipa::path(
    post,
    path = "/accounting-appointments",
    tag = "services",
    security(("member" = [])),
    request_body = AppointmentRequest,
    responses(
        (status = 201, description = "Stored, its e-mails queued", body = ServiceRequestCreated),
        (status = 404, description = "The station offers no accounting consultancy: 'Serviço não disponível.'", body = ErrorMessage),
        (status = 422, description = "One 'field: message' per broken rule: 'cpf: Cadastre seu CPF no seu perfil para solicitar atendimento.', 'date: Esse campo é obrigatório', 'date: Dia inválido', 'date: Este serviço não atende neste dia.' (any day but Thursday), 'description: Esse campo é obrigatório', 'description: Máximo de 1000 caracteres'", body = Messages),
        (status = 429, description = "5 requests to the desk in the last hour: 'Muitas solicitações em pouco tempo. Aguarde alguns minutos e tente novamente.'", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn request_accounting_appointment(
    State(state): State<AppState>,
    member: Member,
    Json(form): Json<AppointmentRequest>,
) -> ApiResult<(StatusCode, Json<ServiceRequestCreated>)> {
    super::request(
        &state,
        member,
        AppointmentService::Accounting,
        form.date.as_ref(),
        form.description.as_deref(),
        None,
    )
    .await
}
