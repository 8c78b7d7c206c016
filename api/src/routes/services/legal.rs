//! Legal consultancy (docs/api-services.md "Legal"): `GET /legal-processes`, `GET
//! /legal-appointments`, `POST /legal-appointments` and `POST /cancel-legal-appointments`.

use app::services::appointments::Caller;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use domain::services::appointments::CANCELLED;
use domain::services::cases::{self, Case};
use domain::services::{AppointmentService, Desk};
use domain::shared::validate::message::REQUIRED;
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{PreferredDay, ServiceAppointment, ServiceRequestCreated};
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::member::Member;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(legal_processes))
        .routes(routes!(legal_appointments, request_legal_appointment))
        .routes(routes!(cancel_legal_appointment))
}

/// A legal case the office follows for the member.
#[derive(Debug, Serialize, ToSchema)]
pub struct LegalProcess {
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
    #[serde(rename = "titulo")]
    pub title: String,
    /// The claim in centavos; null when unknown.
    #[serde(rename = "valorCausa")]
    pub claim_cents: Option<i64>,
    #[serde(rename = "linkProcesso")]
    pub link: Option<String>,
    /// Published to the portal: a collective case ('Causas coletivas').
    #[serde(rename = "publicadoPortal")]
    pub collective: bool,
}

impl From<Case> for LegalProcess {
    fn from(case: Case) -> Self {
        let Case {
            id,
            case_number,
            kind,
            situation,
            filed_on,
            court,
            title,
            claim_cents,
            link,
            collective,
        } = case;
        Self {
            id,
            case_number,
            kind,
            situation,
            filed_on,
            court,
            title,
            claim_cents,
            link,
            collective,
        }
    }
}

/// The legal and accounting request form.
#[derive(Debug, Deserialize, ToSchema)]
pub struct AppointmentRequest {
    /// The preferred weekday (required).
    #[serde(default)]
    pub date: Option<PreferredDay>,
    /// What it is about (required, at most 1000 characters).
    #[serde(default)]
    pub description: Option<String>,
}

/// The cancel form.
#[derive(Debug, Deserialize, ToSchema)]
struct CancelAppointment {
    /// The appointment's office; null for one without an office.
    #[serde(default, rename = "escritorioId")]
    office_id: Option<i64>,
    /// The appointment (required).
    #[serde(default, rename = "appointmentId")]
    appointment_id: Option<i64>,
}

/// The cancel's answer.
#[derive(Debug, Serialize, ToSchema)]
struct AppointmentCancelled {
    /// "Agendamento cancelado com sucesso!"
    #[schema(value_type = String)]
    message: &'static str,
}

/// The member's legal cases
///
/// The cases kept under the account's CPF (none without one), newest filing first.
#[utoipa::path(
    get,
    path = "/legal-processes",
    tag = "services",
    security(("member" = [])),
    responses(
        (status = 200, description = "The member's cases", body = [LegalProcess]),
        (status = 404, description = "The station offers no legal consultancy: 'Serviço não disponível.'", body = ErrorMessage),
    )
)]
async fn legal_processes(
    State(state): State<AppState>,
    member: Member,
) -> ApiResult<Json<Vec<LegalProcess>>> {
    let mut conn = state.db.acquire().await?;
    let found = cases::of_member(&mut conn, member.station(), member.user(), Desk::Legal).await?;
    Ok(Json(found.into_iter().map(LegalProcess::from).collect()))
}

/// The member's legal appointments
///
/// The appointments kept under the account's CPF (none without one): the upcoming first
/// (confirmed ones ahead, soonest first, then the requests awaiting a date), then the
/// rest, newest first.
#[utoipa::path(
    get,
    path = "/legal-appointments",
    tag = "services",
    security(("member" = [])),
    responses(
        (status = 200, description = "The member's appointments", body = [ServiceAppointment]),
        (status = 404, description = "The station offers no legal consultancy: 'Serviço não disponível.'", body = ErrorMessage),
    )
)]
async fn legal_appointments(
    State(state): State<AppState>,
    member: Member,
) -> ApiResult<Json<Vec<ServiceAppointment>>> {
    super::appointments_of(&state, member, AppointmentService::Legal).await
}

/// Requests a legal appointment
///
/// Stored as awaiting confirmation under the account's CPF, e-mailed to the desk (when it
/// has an address) and acknowledged to the member (when the account has an e-mail), in one
/// transaction. Monday to Friday; 5 requests an hour per member and desk.
#[utoipa::path(
    post,
    path = "/legal-appointments",
    tag = "services",
    security(("member" = [])),
    request_body = AppointmentRequest,
    responses(
        (status = 201, description = "Stored, its e-mails queued", body = ServiceRequestCreated),
        (status = 404, description = "The station offers no legal consultancy: 'Serviço não disponível.'", body = ErrorMessage),
        (status = 422, description = "One 'field: message' per broken rule: 'cpf: Cadastre seu CPF no seu perfil para solicitar atendimento.', 'date: Esse campo é obrigatório', 'date: Dia inválido', 'date: Este serviço não atende neste dia.', 'description: Esse campo é obrigatório', 'description: Máximo de 1000 caracteres'", body = Messages),
        (status = 429, description = "5 requests to the desk in the last hour: 'Muitas solicitações em pouco tempo. Aguarde alguns minutos e tente novamente.'", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn request_legal_appointment(
    State(state): State<AppState>,
    member: Member,
    Json(form): Json<AppointmentRequest>,
) -> ApiResult<(StatusCode, Json<ServiceRequestCreated>)> {
    super::request(
        &state,
        member,
        AppointmentService::Legal,
        form.date.as_ref(),
        form.description.as_deref(),
        None,
    )
    .await
}

/// Cancels a legal appointment
///
/// The member's own (by CPF) of the office named (`escritorioId` null for one without an
/// office): a request awaiting its date, or a confirmed appointment more than 48 hours
/// ahead. The row is locked, so two cancels at once cancel once; the desk is e-mailed.
#[utoipa::path(
    post,
    path = "/cancel-legal-appointments",
    tag = "services",
    security(("member" = [])),
    request_body = CancelAppointment,
    responses(
        (status = 200, description = "Cancelled: 'Agendamento cancelado com sucesso!'", body = AppointmentCancelled),
        (status = 404, description = "The station offers no legal consultancy ('Serviço não disponível.'), or the appointment is unknown, another member's or not of that office ('Agendamento não encontrado.')", body = ErrorMessage),
        (status = 409, description = "Already cancelled, done or missed ('Este agendamento não pode mais ser cancelado.'), or confirmed 48 hours ahead or less ('O agendamento só pode ser cancelado com mais de 48 horas de antecedência.')", body = ErrorMessage),
        (status = 422, description = "No appointmentId: 'appointmentId: Esse campo é obrigatório'", body = Messages),
    )
)]
async fn cancel_legal_appointment(
    State(state): State<AppState>,
    member: Member,
    Json(form): Json<CancelAppointment>,
) -> ApiResult<Json<AppointmentCancelled>> {
    let appointment_id = form
        .appointment_id
        .ok_or_else(|| ApiError::invalid(format!("appointmentId: {REQUIRED}")))?;
    app::services::appointments::cancel(
        &state.db,
        &JobOutbox,
        &state.config.public_url,
        Caller {
            station_id: member.station(),
            user_id: member.user(),
        },
        AppointmentService::Legal,
        form.office_id,
        appointment_id,
    )
    .await?;
    Ok(Json(AppointmentCancelled { message: CANCELLED }))
}
