//! Member services (docs/api-services.md): the desks' pages, the member's legal and
//! accounting cases and appointments, and the requests to the legal, accounting and
//! health desks. Each answers only where the station offers the desk (404 'Serviço não
//! disponível.' elsewhere) and only the member's own records, by the account's CPF.

use app::services::appointments::Caller;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use domain::services::REQUEST_SENT;
use domain::services::appointments::{self, Appointment, Form, Status};
use domain::services::{AppointmentService, weekday_label};
use domain::shared::time;
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::error::ApiResult;
use crate::extract::Json;
use crate::member::Member;
use crate::state::AppState;

mod accounting;
mod health;
mod legal;
mod pages;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(pages::router())
        .merge(legal::router())
        .merge(accounting::router())
        .merge(health::router())
}

/// The answer of every request to a desk (appointments, theme suggestions):
/// `201 { "id", "message": "Solicitação enviada com sucesso." }`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServiceRequestCreated {
    /// The request's id (its protocol number in the e-mails).
    pub id: i64,
    /// "Solicitação enviada com sucesso."
    #[schema(value_type = String)]
    pub message: &'static str,
}

/// The preferred weekday as the forms send it: its label ('Segunda-feira' ... 'Sábado') or
/// its ISO number (1 Monday ... 6 Saturday).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum PreferredDay {
    Label(String),
    Number(i64),
}

impl PreferredDay {
    fn text(&self) -> String {
        match self {
            Self::Label(label) => label.clone(),
            Self::Number(number) => number.to_string(),
        }
    }
}

/// Stores a request of `service` for the member and queues its e-mails.
async fn request(
    state: &AppState,
    member: Member,
    service: AppointmentService,
    date: Option<&PreferredDay>,
    description: Option<&str>,
    phone: Option<&str>,
) -> ApiResult<(StatusCode, Json<ServiceRequestCreated>)> {
    let date = date.map(PreferredDay::text);
    let id = app::services::appointments::request(
        &state.db,
        &JobOutbox,
        &state.config.public_url,
        Caller {
            station_id: member.station(),
            user_id: member.user(),
        },
        service,
        &Form {
            date: date.as_deref(),
            description,
            phone,
        },
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(ServiceRequestCreated {
            id,
            message: REQUEST_SENT,
        }),
    ))
}

/// How an appointment ended: `isFiliadoAusente` when the member did not come.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppointmentConclusion {
    #[serde(rename = "isFiliadoAusente")]
    pub member_absent: bool,
}

/// The office (the spec's escritorio) attending an appointment.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppointmentOffice {
    pub id: i64,
    #[serde(rename = "nome")]
    pub name: String,
}

/// Where an appointment stands.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AppointmentStatus {
    Requested,
    Confirmed,
    Done,
    Absent,
    Cancelled,
}

impl From<Status> for AppointmentStatus {
    fn from(status: Status) -> Self {
        match status {
            Status::Requested => Self::Requested,
            Status::Confirmed => Self::Confirmed,
            Status::Done => Self::Done,
            Status::Absent => Self::Absent,
            Status::Cancelled => Self::Cancelled,
        }
    }
}

/// A member's appointment with a desk.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServiceAppointment {
    pub id: i64,
    /// The confirmed instant; null while the request awaits its date.
    #[serde(rename = "data")]
    pub scheduled_at: Option<DateTime<Utc>>,
    /// The confirmed instant's hour in the station's time zone ("09:00"); null with `data`.
    #[serde(rename = "horaInicio")]
    pub starts_at: Option<String>,
    pub status: AppointmentStatus,
    /// The status as the page shows it: 'Aguardando confirmação', 'Agendado', 'Concluído',
    /// 'Não compareceu' or 'Cancelado'.
    #[serde(rename = "situacao")]
    pub situation: &'static str,
    /// The weekday the member asked for ('Quinta-feira'), when known.
    #[serde(rename = "diaPreferido")]
    pub preferred_day: Option<&'static str>,
    #[serde(rename = "descricao")]
    pub description: String,
    #[serde(rename = "conclusao")]
    pub conclusion: AppointmentConclusion,
    /// The office attending it; null until one is set.
    #[serde(rename = "escritorio")]
    pub office: Option<AppointmentOffice>,
    /// Whether the member may cancel it now: a request awaiting its date, or a confirmed
    /// appointment more than 48 hours ahead.
    #[serde(rename = "cancelavel")]
    pub cancellable: bool,
}

impl ServiceAppointment {
    fn of(appointment: Appointment, zone: time::Tz, now: DateTime<Utc>) -> Self {
        let office = match (appointment.office_id, appointment.office_name.clone()) {
            (Some(id), Some(name)) => Some(AppointmentOffice { id, name }),
            _ => None,
        };
        Self {
            id: appointment.id,
            scheduled_at: appointment.scheduled_at,
            starts_at: appointment
                .scheduled_at
                .map(|at| at.with_timezone(&zone).format("%H:%M").to_string()),
            status: appointment.status.into(),
            situation: appointment.status.label(),
            preferred_day: appointment.preferred_day().map(weekday_label),
            conclusion: AppointmentConclusion {
                member_absent: appointment.status == Status::Absent,
            },
            office,
            cancellable: appointments::cancellable(
                appointment.status,
                appointment.scheduled_at,
                now,
            ),
            description: appointment.description,
        }
    }
}

/// The member's appointments of `service`, as the pages list them.
async fn appointments_of(
    state: &AppState,
    member: Member,
    service: AppointmentService,
) -> ApiResult<Json<Vec<ServiceAppointment>>> {
    let now = Utc::now();
    let mut conn = state.db.acquire().await?;
    let found =
        appointments::of_member(&mut conn, member.station(), member.user(), service, now).await?;
    let zone = time::station_zone(&mut *conn, member.station_id).await?;
    Ok(Json(
        found
            .into_iter()
            .map(|appointment| ServiceAppointment::of(appointment, zone, now))
            .collect(),
    ))
}
