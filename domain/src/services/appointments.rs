//! A member's appointments with a desk (docs/api-services.md "Legal", "Accounting",
//! "Health"): the request form's rules, the hourly allowance per member and desk, the
//! member's list (theirs by CPF, whoever recorded them), the member's cancellation (more
//! than 48 hours ahead), and the e-mails each sends.

use chrono::{DateTime, Duration, Utc, Weekday};
use sqlx::{PgConnection, PgExecutor};

use super::allowance::{self, TOO_MANY_REQUESTS};
use super::{
    AppointmentService, DESCRIPTION_MAX, DESCRIPTION_TOO_LONG, Desk, SERVICE_UNAVAILABLE,
    ServiceRefused, parse_weekday,
};
use crate::accounts::change::Mail;
use crate::accounts::signup::INVALID_PHONE;
use crate::infra::mail::{Branding, Notice, OutgoingMail};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{StationId, UserId};
use crate::shared::validate::message::REQUIRED;
use crate::stations::station::Station;

pub const NO_CPF: &str = "cpf: Cadastre seu CPF no seu perfil para solicitar atendimento.";
pub const INVALID_DAY: &str = "date: Dia inválido";
pub const DAY_NOT_ATTENDED: &str = "date: Este serviço não atende neste dia.";
pub const CANCELLED: &str = "Agendamento cancelado com sucesso!";
pub const NOT_FOUND: &str = "Agendamento não encontrado.";
pub const NOT_CANCELLABLE: &str = "Este agendamento não pode mais ser cancelado.";
pub const TOO_LATE: &str =
    "O agendamento só pode ser cancelado com mais de 48 horas de antecedência.";
pub const RECEIVED_SUBJECT: &str = "Recebemos sua solicitação";

/// A member cancels a confirmed appointment only more than this ahead (the spec's
/// 172 800 000 ms); exactly 48 hours ahead is too late.
pub fn cancel_notice() -> Duration {
    Duration::hours(48)
}

/// Why a request or a cancellation is refused.
#[derive(Debug, thiserror::Error)]
pub enum AppointmentRefused {
    #[error("{SERVICE_UNAVAILABLE}")]
    Unavailable,
    /// One `field: message` per broken rule.
    #[error("invalid: {0:?}")]
    Invalid(Vec<String>),
    #[error("too many requests")]
    TooMany { retry_after: u64 },
    #[error("{NOT_FOUND}")]
    NotFound,
    #[error("{NOT_CANCELLABLE}")]
    NotCancellable,
    #[error("{TOO_LATE}")]
    TooLate,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl From<ServiceRefused> for AppointmentRefused {
    fn from(refused: ServiceRefused) -> Self {
        match refused {
            ServiceRefused::Unavailable => Self::Unavailable,
            ServiceRefused::Db(err) => Self::Db(err),
        }
    }
}

impl IntoFailure for AppointmentRefused {
    fn into_failure(self) -> Failure {
        match self {
            Self::Unavailable | Self::NotFound => Failure::NotFound(self.to_string()),
            Self::Invalid(messages) => Failure::Invalid(messages),
            Self::TooMany { retry_after } => Failure::TooMany {
                message: TOO_MANY_REQUESTS.into(),
                retry_after,
            },
            Self::NotCancellable | Self::TooLate => Failure::Conflict(self.to_string()),
            Self::Db(err) => err.into_failure(),
        }
    }
}

/// The request form's fields as sent (`date` as text: a label or the ISO number).
#[derive(Debug, Clone, Default)]
pub struct Form<'a> {
    pub date: Option<&'a str>,
    pub description: Option<&'a str>,
    pub phone: Option<&'a str>,
}

/// A request that keeps the rules, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    pub weekday: Weekday,
    pub description: String,
    /// Digits, for the health services (which require it); `None` elsewhere.
    pub phone: Option<String>,
}

fn present(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

/// A phone as the health forms mask it (`(99) 9.9999-9999`) or its digits: 10 or 11
/// digits; answers the digits.
fn phone_digits(value: &str) -> Option<String> {
    let only_phone_chars = value
        .chars()
        .all(|c| c.is_ascii_digit() || "()-. ".contains(c));
    let digits: String = value.chars().filter(char::is_ascii_digit).collect();
    (only_phone_chars && (10..=11).contains(&digits.len())).then_some(digits)
}

/// Checks a request for `service`: the CPF of the account (`cpf`), the preferred weekday
/// among the service's days, the description, and the phone for the health services. One
/// `field: message` per broken rule, the account's CPF first.
pub fn check(
    service: AppointmentService,
    account_cpf: Option<&str>,
    form: &Form<'_>,
) -> Result<Checked, AppointmentRefused> {
    let mut problems = Vec::new();
    if present(account_cpf).is_none() {
        problems.push(NO_CPF.to_string());
    }
    let weekday = match present(form.date) {
        None => {
            problems.push(format!("date: {REQUIRED}"));
            None
        }
        Some(text) => match parse_weekday(text) {
            None => {
                problems.push(INVALID_DAY.into());
                None
            }
            Some(day) if !service.weekdays().contains(&day) => {
                problems.push(DAY_NOT_ATTENDED.into());
                None
            }
            Some(day) => Some(day),
        },
    };
    let description = match present(form.description) {
        None => {
            problems.push(format!("description: {REQUIRED}"));
            None
        }
        Some(text) if text.chars().count() > DESCRIPTION_MAX => {
            problems.push(DESCRIPTION_TOO_LONG.into());
            None
        }
        Some(text) => Some(text.to_string()),
    };
    let phone = if service.desk() == Desk::Health {
        match present(form.phone) {
            None => {
                problems.push(format!("phone: {REQUIRED}"));
                None
            }
            Some(text) => match phone_digits(text) {
                None => {
                    problems.push(format!("phone: {INVALID_PHONE}"));
                    None
                }
                digits => digits,
            },
        }
    } else {
        None
    };
    match (weekday, description) {
        (Some(weekday), Some(description)) if problems.is_empty() => Ok(Checked {
            weekday,
            description,
            phone,
        }),
        _ => Err(AppointmentRefused::Invalid(problems)),
    }
}

/// The account a request is from, as the desk's e-mail and the acknowledgement need it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Requester {
    pub id: i64,
    pub name: String,
    pub email: Option<String>,
    pub cpf: Option<String>,
}

pub async fn requester(
    db: impl PgExecutor<'_>,
    station: StationId,
    user: UserId,
) -> sqlx::Result<Option<Requester>> {
    sqlx::query_as(
        "SELECT id, name, email, cpf FROM users
          WHERE id = $1 AND station_id = $2 AND deleted_at IS NULL",
    )
    .bind(user)
    .bind(station)
    .fetch_optional(db)
    .await
}

/// Refuses a request once the member's hourly allowance for the desk is used up
/// ([`allowance`]).
pub async fn within_allowance(
    tx: &mut PgConnection,
    user: UserId,
    desk: Desk,
) -> Result<(), AppointmentRefused> {
    match allowance::used_up(tx, user, desk).await? {
        None => Ok(()),
        Some(retry_after) => Err(AppointmentRefused::TooMany { retry_after }),
    }
}

/// Stores a member's request (`requested`, under the account's CPF); answers its id.
pub async fn insert(
    tx: &mut PgConnection,
    station: StationId,
    service: AppointmentService,
    requester: &Requester,
    cpf: &str,
    checked: &Checked,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO service_appointments
             (station_id, service, cpf, user_id, preferred_weekday, description, phone)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         RETURNING id",
    )
    .bind(station)
    .bind(service)
    .bind(cpf)
    .bind(requester.id)
    .bind(super::weekday_number(checked.weekday))
    .bind(&checked.description)
    .bind(&checked.phone)
    .fetch_one(tx)
    .await
}

/// Where an appointment stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "lowercase")]
pub enum Status {
    Requested,
    Confirmed,
    Done,
    Absent,
    Cancelled,
}

impl Status {
    pub const ALL: [Self; 5] = [
        Self::Requested,
        Self::Confirmed,
        Self::Done,
        Self::Absent,
        Self::Cancelled,
    ];

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.as_str() == text)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Requested => "requested",
            Self::Confirmed => "confirmed",
            Self::Done => "done",
            Self::Absent => "absent",
            Self::Cancelled => "cancelled",
        }
    }

    /// The label the member's list shows (`situacao`).
    pub fn label(self) -> &'static str {
        match self {
            Self::Requested => "Aguardando confirmação",
            Self::Confirmed => "Agendado",
            Self::Done => "Concluído",
            Self::Absent => "Não compareceu",
            Self::Cancelled => "Cancelado",
        }
    }
}

/// Whether the member may still cancel: a request awaiting its date, or a confirmed
/// appointment more than 48 hours ahead of `now`.
pub fn cancellable(
    status: Status,
    scheduled_at: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> bool {
    match status {
        Status::Requested => true,
        Status::Confirmed => scheduled_at.is_some_and(|at| at > now + cancel_notice()),
        Status::Done | Status::Absent | Status::Cancelled => false,
    }
}

/// An appointment as its member sees it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Appointment {
    pub id: i64,
    pub station_id: i64,
    pub service: AppointmentService,
    pub status: Status,
    pub scheduled_at: Option<DateTime<Utc>>,
    pub preferred_weekday: Option<i16>,
    pub description: String,
    pub office_id: Option<i64>,
    pub office_name: Option<String>,
    pub created_at: DateTime<Utc>,
}

impl Appointment {
    pub fn preferred_day(&self) -> Option<Weekday> {
        self.preferred_weekday
            .and_then(|number| u8::try_from(number - 1).ok())
            .and_then(|index| Weekday::try_from(index).ok())
    }
}

const COLUMNS: &str = "a.id, a.station_id, a.service, a.status, a.scheduled_at, \
                       a.preferred_weekday, a.description, a.office_id, o.name AS office_name, \
                       a.created_at";

/// The member's appointments of `service` in their station, by the account's CPF
/// (none without one): the upcoming first (confirmed ones ahead, soonest first, then the
/// requests awaiting a date, newest first), then the rest, newest first. The station must
/// offer the service's desk.
pub async fn of_member(
    conn: &mut PgConnection,
    station: StationId,
    user: UserId,
    service: AppointmentService,
    now: DateTime<Utc>,
) -> Result<Vec<Appointment>, ServiceRefused> {
    super::offered(&mut *conn, station, service.desk()).await?;
    let rows = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS}
           FROM service_appointments a
           JOIN users u ON u.id = $2 AND u.station_id = a.station_id AND u.cpf = a.cpf
           LEFT JOIN service_offices o ON o.id = a.office_id
          WHERE a.station_id = $1 AND a.service = $3
          ORDER BY CASE WHEN a.status = 'confirmed' AND a.scheduled_at > $4 THEN 0
                        WHEN a.status = 'requested' THEN 1
                        ELSE 2 END,
                   CASE WHEN a.status = 'confirmed' AND a.scheduled_at > $4
                        THEN a.scheduled_at END ASC,
                   coalesce(a.scheduled_at, a.created_at) DESC,
                   a.id DESC"
    )))
    .bind(station)
    .bind(user)
    .bind(service)
    .bind(now)
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows)
}

/// What a cancellation changed, for the desk's e-mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cancelled {
    pub appointment: Appointment,
    pub was_scheduled: bool,
}

/// The member cancels their appointment `id` of `service` (the row locked, so two cancels
/// at once cancel once): theirs by CPF, of `office_id` (`None`: one without an office).
pub async fn cancel(
    tx: &mut PgConnection,
    station: StationId,
    user: UserId,
    service: AppointmentService,
    office_id: Option<i64>,
    id: i64,
    now: DateTime<Utc>,
) -> Result<Cancelled, AppointmentRefused> {
    let found: Option<Appointment> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS}
           FROM service_appointments a
           JOIN users u ON u.id = $3 AND u.station_id = a.station_id AND u.cpf = a.cpf
           LEFT JOIN service_offices o ON o.id = a.office_id
          WHERE a.id = $1 AND a.station_id = $2 AND a.service = $4
          FOR UPDATE OF a"
    )))
    .bind(id)
    .bind(station)
    .bind(user)
    .bind(service)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(mut appointment) = found.filter(|found| found.office_id == office_id) else {
        return Err(AppointmentRefused::NotFound);
    };
    match appointment.status {
        Status::Cancelled | Status::Done | Status::Absent => {
            return Err(AppointmentRefused::NotCancellable);
        }
        status if !cancellable(status, appointment.scheduled_at, now) => {
            return Err(AppointmentRefused::TooLate);
        }
        _ => {}
    }
    sqlx::query(
        "UPDATE service_appointments
            SET status = 'cancelled', cancelled_by = 'member', status_by = $2, status_at = $3,
                updated_at = $3
          WHERE id = $1",
    )
    .bind(id)
    .bind(user)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    let was_scheduled = appointment.status == Status::Confirmed;
    appointment.status = Status::Cancelled;
    Ok(Cancelled {
        appointment,
        was_scheduled,
    })
}

fn mail(
    station: &Station,
    public_url: &str,
    id: i64,
    to: String,
    subject: String,
    notice: Notice,
    user_id: Option<i64>,
) -> Mail {
    Mail {
        mail: OutgoingMail::notice(&Branding::of(station, public_url), to, subject, &notice),
        station_id: station.id,
        user_id,
        about: ("service_appointment", id),
    }
}

fn who(requester: &Requester, cpf: &str) -> String {
    let mut who = format!("{} (CPF {cpf}", requester.name);
    if let Some(email) = &requester.email {
        who.push_str(&format!(", {email}"));
    }
    who.push(')');
    who
}

/// A stored request, as its e-mails tell it.
#[derive(Debug, Clone, Copy)]
pub struct Requested<'a> {
    pub id: i64,
    pub service: AppointmentService,
    pub requester: &'a Requester,
    pub cpf: &'a str,
    pub checked: &'a Checked,
}

/// The request for the desk's staff at `to`: who asks, how to reach them, which day they
/// prefer and what for.
pub fn request_to_desk(
    station: &Station,
    public_url: &str,
    request: Requested<'_>,
    to: &str,
) -> (Mail, String) {
    let Requested {
        id,
        service,
        requester,
        cpf,
        checked,
    } = request;
    let mut paragraphs = vec![
        format!(
            "{} pediu atendimento ({}), protocolo nº {id}.",
            who(requester, cpf),
            service.label()
        ),
        format!("Dia preferido: {}", super::weekday_label(checked.weekday)),
    ];
    if let Some(phone) = &checked.phone {
        paragraphs.push(format!("Telefone: {phone}"));
    }
    paragraphs.push(checked.description.clone());
    paragraphs.push("Confirme a data e o horário no console do atendimento.".into());
    let notice = Notice {
        heading: format!("Nova solicitação: {}", service.label()),
        paragraphs,
        button: None,
    };
    let subject = format!("Nova solicitação: {}", service.label());
    (
        mail(
            station,
            public_url,
            id,
            to.to_string(),
            subject,
            notice,
            None,
        ),
        format!("services:appointment:{id}:desk"),
    )
}

/// The acknowledgement to the member's address. It repeats none of the member's words:
/// the protocol number ties it to the request the desk sees.
pub fn received(
    station: &Station,
    public_url: &str,
    request: Requested<'_>,
    to: &str,
) -> (Mail, String) {
    let Requested {
        id,
        service,
        requester,
        checked,
        ..
    } = request;
    let notice = Notice {
        heading: RECEIVED_SUBJECT.into(),
        paragraphs: vec![
            format!("Olá, {}.", requester.name),
            format!(
                "Recebemos sua solicitação de {} (protocolo nº {id}), com preferência por {}.",
                service.label(),
                super::weekday_label(checked.weekday)
            ),
            "Em breve entraremos em contato para confirmar os horários disponíveis.".into(),
        ],
        button: None,
    };
    (
        mail(
            station,
            public_url,
            id,
            to.to_string(),
            RECEIVED_SUBJECT.into(),
            notice,
            Some(requester.id),
        ),
        format!("services:appointment:{id}:received"),
    )
}

/// The member's cancellation, for the desk's staff at `to`.
pub fn cancelled_to_desk(
    station: &Station,
    public_url: &str,
    cancelled: &Cancelled,
    requester: &Requester,
    cpf: &str,
    zone: crate::shared::time::Tz,
    to: &str,
) -> (Mail, String) {
    let appointment = &cancelled.appointment;
    let when = match (cancelled.was_scheduled, appointment.scheduled_at) {
        (true, Some(at)) => format!(
            "O agendamento de {} às {} foi cancelado pelo associado; o horário está livre.",
            at.with_timezone(&zone).format("%d/%m/%Y"),
            at.with_timezone(&zone).format("%H:%M")
        ),
        _ => "A solicitação, ainda sem data, foi cancelada pelo associado.".into(),
    };
    let notice = Notice {
        heading: format!("Agendamento cancelado: {}", appointment.service.label()),
        paragraphs: vec![
            format!("{}, protocolo nº {}.", who(requester, cpf), appointment.id),
            when,
        ],
        button: None,
    };
    let subject = format!("Agendamento cancelado: {}", appointment.service.label());
    (
        mail(
            station,
            public_url,
            appointment.id,
            to.to_string(),
            subject,
            notice,
            None,
        ),
        format!("services:appointment:{}:cancelled", appointment.id),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form<'a>(date: &'a str, description: &'a str, phone: Option<&'a str>) -> Form<'a> {
        Form {
            date: Some(date),
            description: Some(description),
            phone,
        }
    }

    #[test]
    fn a_request_keeps_the_services_days_and_texts() {
        let cpf = Some("12345678901");
        let legal = check(
            AppointmentService::Legal,
            cpf,
            &form("Segunda-feira", " Férias ", None),
        )
        .expect("valid");
        assert_eq!(legal.weekday, Weekday::Mon);
        assert_eq!(legal.description, "Férias");
        assert_eq!(legal.phone, None);
        let refused = |service, cpf, form: &Form<'_>| match check(service, cpf, form) {
            Err(AppointmentRefused::Invalid(messages)) => messages,
            other => panic!("refused: {other:?}"),
        };
        assert_eq!(
            refused(
                AppointmentService::Accounting,
                cpf,
                &form("Quarta-feira", "x", None)
            ),
            [DAY_NOT_ATTENDED]
        );
        assert_eq!(
            refused(AppointmentService::Legal, None, &form("Feriado", "", None)),
            [NO_CPF, INVALID_DAY, "description: Esse campo é obrigatório"]
        );
        let long = "a".repeat(DESCRIPTION_MAX + 1);
        assert_eq!(
            refused(AppointmentService::Legal, cpf, &form("1", &long, None)),
            [DESCRIPTION_TOO_LONG]
        );
        assert_eq!(
            refused(AppointmentService::Dental, cpf, &Form::default()),
            [
                "date: Esse campo é obrigatório",
                "description: Esse campo é obrigatório",
                "phone: Esse campo é obrigatório"
            ]
        );
        assert_eq!(
            refused(
                AppointmentService::Dental,
                cpf,
                &form("6", "x", Some("(11) 9876"))
            ),
            ["phone: Telefone inválido"]
        );
        let dental = check(
            AppointmentService::Dental,
            cpf,
            &form("Sábado", "Limpeza", Some("(11) 9.8765-4321")),
        )
        .expect("valid");
        assert_eq!(dental.phone.as_deref(), Some("11987654321"));
        assert_eq!(phone_digits("1133334444").as_deref(), Some("1133334444"));
        assert_eq!(phone_digits("+55 11 98765-4321"), None);
    }

    #[test]
    fn only_requests_and_appointments_more_than_48_hours_ahead_are_cancellable() {
        let now = Utc::now();
        let edge = now + Duration::hours(48);
        assert!(cancellable(Status::Requested, None, now));
        assert!(!cancellable(Status::Confirmed, Some(edge), now));
        assert!(!cancellable(
            Status::Confirmed,
            Some(edge - Duration::seconds(1)),
            now
        ));
        assert!(cancellable(
            Status::Confirmed,
            Some(edge + Duration::seconds(1)),
            now
        ));
        assert!(!cancellable(
            Status::Done,
            Some(edge + Duration::days(1)),
            now
        ));
        assert!(!cancellable(Status::Cancelled, None, now));
        assert_eq!(Status::Requested.label(), "Aguardando confirmação");
        assert_eq!(Status::Absent.label(), "Não compareceu");
    }
}
