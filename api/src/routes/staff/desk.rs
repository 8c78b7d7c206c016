//! The service desk in the console (docs/api-services.md "The desk in the console"): the
//! desks a staff member reaches, a desk's appointments and offices, what staff do to an
//! appointment (confirm, done, absent, cancel, the health co-payment), the political
//! desk's suggestions, and news for a desk's page. Access is [`DeskStaff`]: 403 for anyone
//! without a desk, 404 for a station, desk or record out of reach, 403 for reading staff
//! who try to act. The cases are `desk_cases`.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, NaiveDate, Utc};
use domain::services::appointments::Status;
use domain::services::desk::{
    self as rules, APPOINTMENT_NOT_FOUND, DeskAppointment as Appointment, DeskCase as Case, Move,
};
use domain::services::{self, Desk, SERVICE_UNAVAILABLE, access};
use domain::shared::paging::Listed;
use domain::stations::STATION_NOT_FOUND;
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::params::{BAD_STATE, given, invalid_if_any, parse_page};
use crate::desk_staff::DeskStaff;
use crate::error::{ApiError, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::routes::services::AppointmentStatus;
use crate::staff::OpsResult;
use crate::state::AppState;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(desk_me))
        .routes(routes!(desk_appointments))
        .routes(routes!(desk_offices))
        .routes(routes!(confirm_appointment))
        .routes(routes!(appointment_done))
        .routes(routes!(appointment_absent))
        .routes(routes!(appointment_cancel))
        .routes(routes!(appointment_copay))
        .routes(routes!(political_suggestions))
        .routes(routes!(publish_news))
}

/// Opens a desk of a station named in a path: a desk the list serves (another: 404), in
/// the staff member's reach (reading or acting), offered by the station (404
/// `Serviço não disponível.` otherwise).
pub(super) async fn open_desk(
    state: &AppState,
    staff: &DeskStaff,
    station_id: i64,
    desk: &str,
    serves: &[Desk],
    act: bool,
) -> OpsResult<Desk> {
    let desk = Desk::parse(desk)
        .filter(|desk| serves.contains(desk))
        .ok_or_else(|| ApiError::not_found(SERVICE_UNAVAILABLE))?;
    if act {
        staff.require_act(station_id, desk, STATION_NOT_FOUND)?;
    } else {
        staff.require_read(station_id, desk, STATION_NOT_FOUND)?;
    }
    services::offered(&state.db, domain::shared::ids::StationId(station_id), desk).await?;
    Ok(desk)
}

/// A record of a station and desk: 404 (`not_found`) unless the staff member reaches that
/// desk; then, to act, 403 for a reader.
pub(super) fn reach_record(
    staff: &DeskStaff,
    station_id: i64,
    desk: Desk,
    act: bool,
    not_found: &str,
) -> OpsResult<()> {
    if !staff.0.allows(station_id, desk, false) {
        return Err(ApiError::not_found(not_found).into());
    }
    if act {
        staff.require_act(station_id, desk, not_found)?;
    }
    Ok(())
}

#[derive(Debug, Deserialize)]
pub(super) struct PageQuery {
    page: Option<String>,
    per_page: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
struct DeskUser {
    id: i64,
    name: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct DeskOpen {
    station_id: i64,
    station_name: String,
    /// `legal`, `accounting`, `health` or `political`.
    desk: String,
    /// False: reads only (a `viewer` console grant).
    can_act: bool,
}

#[derive(Debug, Serialize, ToSchema)]
struct DeskMe {
    user: DeskUser,
    desks: Vec<DeskOpen>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(super) struct DeskMember {
    id: i64,
    name: String,
    email: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
struct DeskOffice {
    id: i64,
    name: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct DeskCopay {
    amount_cents: i64,
    cashback_cents: i64,
}

/// An appointment as the desk sees it.
#[derive(Debug, Serialize, ToSchema)]
struct DeskAppointment {
    id: i64,
    station_id: i64,
    /// `legal`, `accounting`, `dental`, `psychologist` or `nutritionist`.
    service: String,
    /// 11 digits.
    cpf: String,
    /// The member who asked, else the station's member with that CPF; null for none.
    member: Option<DeskMember>,
    /// The weekday the member prefers ('Quinta-feira').
    preferred_day: Option<String>,
    description: String,
    /// Digits (health).
    phone: Option<String>,
    status: AppointmentStatus,
    scheduled_at: Option<DateTime<Utc>>,
    office: Option<DeskOffice>,
    /// `member` or `staff`, when cancelled.
    cancelled_by: Option<String>,
    created_at: DateTime<Utc>,
    /// The health co-payment, once recorded.
    copay: Option<DeskCopay>,
}

impl From<Appointment> for DeskAppointment {
    fn from(row: Appointment) -> Self {
        Self {
            id: row.id,
            station_id: row.station_id,
            service: row.service.as_str().into(),
            cpf: row.cpf,
            member: row.member.map(|member| DeskMember {
                id: member.id,
                name: member.name,
                email: member.email,
            }),
            preferred_day: row.preferred_day.map(str::to_string),
            description: row.description,
            phone: row.phone,
            status: row.status.into(),
            scheduled_at: row.scheduled_at,
            office: row.office.map(|office| DeskOffice {
                id: office.id,
                name: office.name,
            }),
            cancelled_by: row.cancelled_by,
            created_at: row.created_at,
            copay: row.copay.map(|copay| DeskCopay {
                amount_cents: copay.amount_cents,
                cashback_cents: copay.cashback_cents,
            }),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
struct DeskAppointments {
    appointments: Vec<DeskAppointment>,
    total: i64,
    page: i64,
    per_page: i64,
}

#[derive(Debug, Deserialize)]
struct AppointmentsQuery {
    status: Option<String>,
    page: Option<String>,
    per_page: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
struct ConfirmBody {
    /// RFC 3339 with its offset ('2026-12-03T09:00:00-03:00'), in the future.
    #[serde(default)]
    scheduled_at: Option<String>,
    /// An office of the station's desk, or null.
    #[serde(default)]
    office_id: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
struct CopayBody {
    /// Centavos, > 0.
    #[serde(default)]
    amount_cents: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
struct DeskSuggestion {
    id: i64,
    member: Option<DeskMember>,
    description: String,
    created_at: DateTime<Utc>,
}

#[derive(Debug, Serialize, ToSchema)]
struct DeskSuggestions {
    suggestions: Vec<DeskSuggestion>,
    total: i64,
    page: i64,
    per_page: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
struct NewsBody {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    subtitle: Option<String>,
    /// HTML, sanitised.
    #[serde(default)]
    body: Option<String>,
    /// 13752 (legal), 13754 (accounting), 13755 (political).
    #[serde(default)]
    tags: Option<Vec<i64>>,
}

#[derive(Debug, Serialize, ToSchema)]
struct Created {
    id: i64,
}

/// The desks the staff member reaches
///
/// Desk grants, and every desk a console grant's stations offer.
#[utoipa::path(
    get,
    path = "/desk/me",
    tag = "staff",
    security(("staff" = [])),
    responses(
        (status = 200, description = "Who and which desks", body = DeskMe),
        (status = 403, description = "Neither a desk grant nor a console grant: 'Acesso restrito à equipe de suporte.'", body = ErrorMessage),
    )
)]
async fn desk_me(State(state): State<AppState>, staff: DeskStaff) -> OpsResult<Json<DeskMe>> {
    let desks = access::desks_in_reach(&state.db, &staff.0)
        .await
        .map_err(ApiError::from)?;
    Ok(Json(DeskMe {
        user: DeskUser {
            id: staff.user_id(),
            name: staff.0.name.clone(),
        },
        desks: desks
            .into_iter()
            .map(|desk| DeskOpen {
                station_id: desk.station_id,
                station_name: desk.station_name,
                desk: desk.desk.as_str().into(),
                can_act: desk.can_act,
            })
            .collect(),
    }))
}

/// A desk's appointments, newest first
///
/// `legal`, `accounting` or `health` (dental, psychologist and nutritionist), optionally of
/// one `status`.
#[utoipa::path(
    get,
    path = "/stations/{id}/desk/{desk}/appointments",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("id" = i64, Path, description = "The station id"),
        ("desk" = String, Path, description = "`legal`, `accounting` or `health`"),
        ("status" = Option<String>, Query, description = "`requested`, `confirmed`, `done`, `absent` or `cancelled`; all when absent"),
        ("page" = Option<i64>, Query, description = "From 1 (the default)"),
        ("per_page" = Option<i64>, Query, description = "1 to 200, 50 by default"),
    ),
    responses(
        (status = 200, description = "A page of appointments and the total", body = DeskAppointments),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "Not desk staff, or not of this desk", body = ErrorMessage),
        (status = 404, description = "A station out of reach, or a desk it does not offer: 'Serviço não disponível.'", body = ErrorMessage),
        (status = 422, description = "'Estado inválido.', 'Página inválida.'", body = Messages),
    )
)]
async fn desk_appointments(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path((station_id, desk)): Path<(i64, String)>,
    Query(query): Query<AppointmentsQuery>,
) -> OpsResult<Json<DeskAppointments>> {
    let desk = open_desk(
        &state,
        &staff,
        station_id,
        &desk,
        &Desk::WITH_APPOINTMENTS,
        false,
    )
    .await?;
    let mut messages = Vec::new();
    let status = given(query.status);
    let status = match status.as_deref().map(Status::parse) {
        Some(None) => {
            messages.push(BAD_STATE);
            None
        }
        parsed => parsed.flatten(),
    };
    let (page, per_page) = parse_page(query.page, query.per_page, &mut messages);
    invalid_if_any(messages)?;
    let mut conn = state.db.acquire().await.map_err(ApiError::from)?;
    let Listed { items, total } =
        rules::appointments(&mut conn, station_id, desk, status, page, per_page)
            .await
            .map_err(ApiError::from)?;
    Ok(Json(DeskAppointments {
        appointments: items.into_iter().map(DeskAppointment::from).collect(),
        total,
        page,
        per_page,
    }))
}

/// A desk's offices
#[utoipa::path(
    get,
    path = "/stations/{id}/desk/{desk}/offices",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("id" = i64, Path, description = "The station id"),
        ("desk" = String, Path, description = "`legal`, `accounting` or `health`"),
    ),
    responses(
        (status = 200, description = "The offices, by name", body = Vec<DeskOffice>),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "Not desk staff, or not of this desk", body = ErrorMessage),
        (status = 404, description = "A station out of reach, or a desk it does not offer: 'Serviço não disponível.'", body = ErrorMessage),
    )
)]
async fn desk_offices(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path((station_id, desk)): Path<(i64, String)>,
) -> OpsResult<Json<Vec<DeskOffice>>> {
    let desk = open_desk(
        &state,
        &staff,
        station_id,
        &desk,
        &Desk::WITH_APPOINTMENTS,
        false,
    )
    .await?;
    let offices = rules::offices(&state.db, station_id, desk)
        .await
        .map_err(ApiError::from)?;
    Ok(Json(
        offices
            .into_iter()
            .map(|office| DeskOffice {
                id: office.id,
                name: office.name,
            })
            .collect(),
    ))
}

/// The appointment's desk, reached to act: 404 when it does not exist or is out of reach.
async fn acting_on(state: &AppState, staff: &DeskStaff, id: i64) -> OpsResult<Desk> {
    let (station_id, desk) = rules::appointment_desk(&state.db, id)
        .await
        .map_err(ApiError::from)?
        .ok_or_else(|| ApiError::not_found(APPOINTMENT_NOT_FOUND))?;
    reach_record(staff, station_id, desk, true, APPOINTMENT_NOT_FOUND)?;
    // A desk the station has turned off takes no more actions, as its list is gone.
    services::offered(&state.db, domain::shared::ids::StationId(station_id), desk).await?;
    Ok(desk)
}

/// Confirms (or re-schedules) an appointment
///
/// `requested` or `confirmed` → `confirmed` at a future date, at an office of the desk or
/// none; the member is e-mailed the date and hour in the station's time zone. Audited
/// (`appointment.confirm`).
#[utoipa::path(
    post,
    path = "/desk/appointments/{id}/confirm",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The appointment's id")),
    request_body = ConfirmBody,
    responses(
        (status = 200, description = "Confirmed", body = DeskAppointment),
        (status = 400, description = "The id is not a number, or the body cannot be read", body = Messages),
        (status = 403, description = "Not desk staff, or reads only", body = ErrorMessage),
        (status = 404, description = "No such appointment in reach: 'Agendamento não encontrado.'", body = ErrorMessage),
        (status = 409, description = "Done, absent or cancelled: 'Este agendamento não está em um estado que permita esta ação.'", body = ErrorMessage),
        (status = 422, description = "'scheduled_at: Esse campo é obrigatório', 'scheduled_at: Data inválida', 'scheduled_at: A data deve ser futura.', 'office_id: Escritório inválido.'", body = Messages),
    )
)]
async fn confirm_appointment(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path(id): Path<i64>,
    Json(body): Json<ConfirmBody>,
) -> OpsResult<Json<DeskAppointment>> {
    acting_on(&state, &staff, id).await?;
    let confirmed = app::services::desk::confirm(
        &state.db,
        &JobOutbox,
        &state.config.public_url,
        staff.user_id(),
        id,
        body.scheduled_at.as_deref(),
        body.office_id,
    )
    .await?;
    Ok(Json(confirmed.into()))
}

async fn apply_move(
    state: &AppState,
    staff: &DeskStaff,
    id: i64,
    action: Move,
) -> OpsResult<Json<DeskAppointment>> {
    acting_on(state, staff, id).await?;
    let moved = app::services::desk::apply(
        &state.db,
        &JobOutbox,
        &state.config.public_url,
        staff.user_id(),
        id,
        action,
    )
    .await?;
    Ok(Json(moved.into()))
}

/// Marks a confirmed appointment done
///
/// Audited (`appointment.done`).
#[utoipa::path(
    post,
    path = "/desk/appointments/{id}/done",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The appointment's id")),
    responses(
        (status = 200, description = "Done", body = DeskAppointment),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "Not desk staff, or reads only", body = ErrorMessage),
        (status = 404, description = "No such appointment in reach: 'Agendamento não encontrado.'", body = ErrorMessage),
        (status = 409, description = "Not confirmed: 'Este agendamento não está em um estado que permita esta ação.'", body = ErrorMessage),
    )
)]
async fn appointment_done(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path(id): Path<i64>,
) -> OpsResult<Json<DeskAppointment>> {
    apply_move(&state, &staff, id, Move::Done).await
}

/// Marks a confirmed appointment as missed by the member
///
/// Audited (`appointment.absent`).
#[utoipa::path(
    post,
    path = "/desk/appointments/{id}/absent",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The appointment's id")),
    responses(
        (status = 200, description = "Absent", body = DeskAppointment),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "Not desk staff, or reads only", body = ErrorMessage),
        (status = 404, description = "No such appointment in reach: 'Agendamento não encontrado.'", body = ErrorMessage),
        (status = 409, description = "Not confirmed: 'Este agendamento não está em um estado que permita esta ação.'", body = ErrorMessage),
    )
)]
async fn appointment_absent(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path(id): Path<i64>,
) -> OpsResult<Json<DeskAppointment>> {
    apply_move(&state, &staff, id, Move::Absent).await
}

/// Cancels a requested or confirmed appointment
///
/// The member is e-mailed. Audited (`appointment.cancel`).
#[utoipa::path(
    post,
    path = "/desk/appointments/{id}/cancel",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The appointment's id")),
    responses(
        (status = 200, description = "Cancelled", body = DeskAppointment),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "Not desk staff, or reads only", body = ErrorMessage),
        (status = 404, description = "No such appointment in reach: 'Agendamento não encontrado.'", body = ErrorMessage),
        (status = 409, description = "Done, absent or cancelled: 'Este agendamento não está em um estado que permita esta ação.'", body = ErrorMessage),
    )
)]
async fn appointment_cancel(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path(id): Path<i64>,
) -> OpsResult<Json<DeskAppointment>> {
    apply_move(&state, &staff, id, Move::Cancel).await
}

/// Records a health appointment's co-payment
///
/// A `done` health appointment with a member, once; half of it is credited to the member
/// as `health.copay` cashback (held 90 days). Audited (`health.copay`).
#[utoipa::path(
    post,
    path = "/desk/appointments/{id}/copay",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The appointment's id")),
    request_body = CopayBody,
    responses(
        (status = 200, description = "Recorded", body = DeskAppointment),
        (status = 400, description = "The id is not a number, or the body cannot be read", body = Messages),
        (status = 403, description = "Not desk staff, or reads only", body = ErrorMessage),
        (status = 404, description = "No such health appointment in reach: 'Agendamento não encontrado.'", body = ErrorMessage),
        (status = 409, description = "Recorded before: 'Coparticipação já registrada.'; not done or without a member: 'Este agendamento não está em um estado que permita esta ação.'", body = ErrorMessage),
        (status = 422, description = "'amount_cents: Valor inválido'", body = Messages),
    )
)]
async fn appointment_copay(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path(id): Path<i64>,
    Json(body): Json<CopayBody>,
) -> OpsResult<Json<DeskAppointment>> {
    if acting_on(&state, &staff, id).await? != Desk::Health {
        return Err(ApiError::not_found(APPOINTMENT_NOT_FOUND).into());
    }
    let recorded =
        app::services::desk::copay(&state.db, staff.user_id(), id, body.amount_cents).await?;
    Ok(Json(recorded.into()))
}

/// The members' theme suggestions, newest first
#[utoipa::path(
    get,
    path = "/stations/{id}/desk/political/suggestions",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("id" = i64, Path, description = "The station id"),
        ("page" = Option<i64>, Query, description = "From 1 (the default)"),
        ("per_page" = Option<i64>, Query, description = "1 to 200, 50 by default"),
    ),
    responses(
        (status = 200, description = "A page of suggestions and the total", body = DeskSuggestions),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "Not desk staff, or not of the political desk", body = ErrorMessage),
        (status = 404, description = "A station out of reach, or without the desk: 'Serviço não disponível.'", body = ErrorMessage),
        (status = 422, description = "'Página inválida.'", body = Messages),
    )
)]
async fn political_suggestions(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path(station_id): Path<i64>,
    Query(query): Query<PageQuery>,
) -> OpsResult<Json<DeskSuggestions>> {
    open_desk(
        &state,
        &staff,
        station_id,
        Desk::Political.as_str(),
        &[Desk::Political],
        false,
    )
    .await?;
    let mut messages = Vec::new();
    let (page, per_page) = parse_page(query.page, query.per_page, &mut messages);
    invalid_if_any(messages)?;
    let mut conn = state.db.acquire().await.map_err(ApiError::from)?;
    let Listed { items, total } = rules::suggestions(&mut conn, station_id, page, per_page)
        .await
        .map_err(ApiError::from)?;
    Ok(Json(DeskSuggestions {
        suggestions: items
            .into_iter()
            .map(|row| DeskSuggestion {
                id: row.id,
                member: row.member.map(|member| DeskMember {
                    id: member.id,
                    name: member.name,
                    email: member.email,
                }),
                description: row.description,
                created_at: row.created_at,
            })
            .collect(),
        total,
        page,
        per_page,
    }))
}

/// Publishes news for desks' pages
///
/// Published now, tagged for each desk named (13752 legal, 13754 accounting, 13755
/// political); the staff member must act on each of those desks. The body's HTML is
/// sanitised. Audited (`news.publish`).
#[utoipa::path(
    post,
    path = "/stations/{id}/news",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The station id")),
    request_body = NewsBody,
    responses(
        (status = 201, description = "Published", body = Created),
        (status = 400, description = "The id is not a number, or the body cannot be read", body = Messages),
        (status = 403, description = "Not desk staff, or not acting on a tag's desk", body = ErrorMessage),
        (status = 404, description = "A station out of reach, or a tag's desk it does not offer: 'Serviço não disponível.'", body = ErrorMessage),
        (status = 422, description = "'title: Esse campo é obrigatório', 'tags: Esse campo é obrigatório', 'tags: Tag inválida'", body = Messages),
    )
)]
async fn publish_news(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path(station_id): Path<i64>,
    Json(body): Json<NewsBody>,
) -> OpsResult<(StatusCode, Json<Created>)> {
    let mut messages = Vec::new();
    let title = body.title.unwrap_or_default();
    if title.trim().is_empty() {
        messages.push("title: Esse campo é obrigatório");
    }
    let mut tags = body.tags.unwrap_or_default();
    tags.sort_unstable();
    tags.dedup();
    let desks: Vec<Option<Desk>> = tags.iter().map(|tag| rules::desk_of_tag(*tag)).collect();
    if tags.is_empty() {
        messages.push("tags: Esse campo é obrigatório");
    } else if desks.iter().any(Option::is_none) {
        messages.push(rules::BAD_TAG);
    }
    invalid_if_any(messages)?;
    for desk in desks.into_iter().flatten() {
        open_desk(&state, &staff, station_id, desk.as_str(), &[desk], true).await?;
    }
    let id = app::services::desk::publish_news(
        &state.db,
        staff.user_id(),
        station_id,
        &title,
        body.subtitle.as_deref().unwrap_or_default(),
        body.body.as_deref().unwrap_or_default(),
        &tags,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(Created { id })))
}

/// A case as the desk sees it (shared with `desk_cases`).
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct DeskCase {
    id: i64,
    station_id: i64,
    /// `legal` or `accounting`.
    service: String,
    cpf: String,
    case_number: String,
    kind: String,
    situation: String,
    filed_on: Option<NaiveDate>,
    court: String,
    title: String,
    claim_cents: Option<i64>,
    link: Option<String>,
    /// Published to the portal: 'Causas coletivas'.
    collective: bool,
    updated_at: DateTime<Utc>,
}

impl From<Case> for DeskCase {
    fn from(row: Case) -> Self {
        Self {
            id: row.id,
            station_id: row.station_id,
            service: row.service.as_str().into(),
            cpf: row.cpf,
            case_number: row.case_number,
            kind: row.kind,
            situation: row.situation,
            filed_on: row.filed_on,
            court: row.court,
            title: row.title,
            claim_cents: row.claim_cents,
            link: row.link,
            collective: row.collective,
            updated_at: row.updated_at,
        }
    }
}
