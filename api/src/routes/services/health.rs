//! Health (docs/api-services.md "Health"): `POST /health/dentalAppointments`, `POST
//! /health/psychologistAappointments` and `POST /health/nutritionistAppointments`
//! (spellings as in the contract), each with the member's phone and a weekday of the
//! service's own.

use axum::extract::State;
use axum::http::StatusCode;
use domain::services::AppointmentService;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{PreferredDay, ServiceRequestCreated};
use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::member::Member;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(request_dental_appointment))
        .routes(routes!(request_psychologist_appointment))
        .routes(routes!(request_nutritionist_appointment))
}

/// The health request forms.
#[derive(Debug, Deserialize, ToSchema)]
struct HealthAppointmentRequest {
    /// What it is about (required, at most 1000 characters).
    #[serde(default)]
    description: Option<String>,
    /// The preferred weekday (required).
    #[serde(default)]
    date: Option<PreferredDay>,
    /// Required: masked "(99) 9.9999-9999" or digits, 10 or 11 digits; stored as digits.
    #[serde(default)]
    phone: Option<String>,
}

async fn request(
    state: &AppState,
    member: Member,
    service: AppointmentService,
    form: &HealthAppointmentRequest,
) -> ApiResult<(StatusCode, Json<ServiceRequestCreated>)> {
    super::request(
        state,
        member,
        service,
        form.date.as_ref(),
        form.description.as_deref(),
        form.phone.as_deref(),
    )
    .await
}

/// Requests a dental appointment
///
/// Stored as awaiting confirmation under the account's CPF, e-mailed to the health desk
/// (when it has an address) and acknowledged to the member (when the account has an
/// e-mail), in one transaction. Monday to Saturday; 5 requests an hour per member to the health desk.
#[utoipa::path(
    post,
    path = "/health/dentalAppointments",
    tag = "services",
    security(("member" = [])),
    request_body = HealthAppointmentRequest,
    responses(
        (status = 201, description = "Stored, its e-mails queued", body = ServiceRequestCreated),
        (status = 404, description = "The station offers no health services: 'Serviço não disponível.'", body = ErrorMessage),
        (status = 422, description = "One 'field: message' per broken rule: 'cpf: Cadastre seu CPF no seu perfil para solicitar atendimento.', 'date: Esse campo é obrigatório', 'date: Dia inválido', 'date: Este serviço não atende neste dia.' (Sunday), 'description: Esse campo é obrigatório', 'description: Máximo de 1000 caracteres', 'phone: Esse campo é obrigatório', 'phone: Telefone inválido'", body = Messages),
        (status = 429, description = "5 requests to the health desk in the last hour: 'Muitas solicitações em pouco tempo. Aguarde alguns minutos e tente novamente.'", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn request_dental_appointment(
    State(state): State<AppState>,
    member: Member,
    Json(form): Json<HealthAppointmentRequest>,
) -> ApiResult<(StatusCode, Json<ServiceRequestCreated>)> {
    request(&state, member, AppointmentService::Dental, &form).await
}

/// Requests a psychologist appointment
///
/// Stored as awaiting confirmation under the account's CPF, e-mailed to the health desk
/// (when it has an address) and acknowledged to the member (when the account has an
/// e-mail), in one transaction. Monday to Friday; 5 requests an hour per member to the health desk.
#[utoipa::path(
    post,
    path = "/health/psychologistAappointments",
    tag = "services",
    security(("member" = [])),
    request_body = HealthAppointmentRequest,
    responses(
        (status = 201, description = "Stored, its e-mails queued", body = ServiceRequestCreated),
        (status = 404, description = "The station offers no health services: 'Serviço não disponível.'", body = ErrorMessage),
        (status = 422, description = "One 'field: message' per broken rule: 'cpf: Cadastre seu CPF no seu perfil para solicitar atendimento.', 'date: Esse campo é obrigatório', 'date: Dia inválido', 'date: Este serviço não atende neste dia.' (Saturday), 'description: Esse campo é obrigatório', 'description: Máximo de 1000 caracteres', 'phone: Esse campo é obrigatório', 'phone: Telefone inválido'", body = Messages),
        (status = 429, description = "5 requests to the health desk in the last hour: 'Muitas solicitações em pouco tempo. Aguarde alguns minutos e tente novamente.'", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn request_psychologist_appointment(
    State(state): State<AppState>,
    member: Member,
    Json(form): Json<HealthAppointmentRequest>,
) -> ApiResult<(StatusCode, Json<ServiceRequestCreated>)> {
    request(&state, member, AppointmentService::Psychologist, &form).await
}

/// Requests a nutritionist appointment
///
/// Stored as awaiting confirmation under the account's CPF, e-mailed to the health desk
/// (when it has an address) and acknowledged to the member (when the account has an
/// e-mail), in one transaction. Tuesday and Thursday; 5 requests an hour per member to the health desk.
#[utoipa::path(
    post,
    path = "/health/nutritionistAppointments",
    tag = "services",
    security(("member" = [])),
    request_body = HealthAppointmentRequest,
    responses(
        (status = 201, description = "Stored, its e-mails queued", body = ServiceRequestCreated),
        (status = 404, description = "The station offers no health services: 'Serviço não disponível.'", body = ErrorMessage),
        (status = 422, description = "One 'field: message' per broken rule: 'cpf: Cadastre seu CPF no seu perfil para solicitar atendimento.', 'date: Esse campo é obrigatório', 'date: Dia inválido', 'date: Este serviço não atende neste dia.' (any other day), 'description: Esse campo é obrigatório', 'description: Máximo de 1000 caracteres', 'phone: Esse campo é obrigatório', 'phone: Telefone inválido'", body = Messages),
        (status = 429, description = "5 requests to the health desk in the last hour: 'Muitas solicitações em pouco tempo. Aguarde alguns minutos e tente novamente.'", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn request_nutritionist_appointment(
    State(state): State<AppState>,
    member: Member,
    Json(form): Json<HealthAppointmentRequest>,
) -> ApiResult<(StatusCode, Json<ServiceRequestCreated>)> {
    request(&state, member, AppointmentService::Nutritionist, &form).await
}
