//! The service desk in the console (docs/api-services.md "The desk in the console"): the
//! desk's queue of appointments and what staff do with them (confirm, done, absent,
//! cancel, the health co-payment), the cases a legal or accounting desk records by CPF,
//! the political desk's suggestions, news for a desk's page, and the reminder of the day
//! before. Who may do each is `services::access`; this module reads and writes the rows.

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::{PgConnection, PgExecutor};

use super::appointments::Status;
use super::{AppointmentService, Desk, weekday_label};
use crate::accounts::change::Mail;
use crate::infra::mail::{Branding, Notice, OutgoingMail};
use crate::shared::cpf::Cpf;
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::paging::Listed;
use crate::shared::validate::message::REQUIRED;
use crate::stations::station::Station;

pub use super::appointments::NOT_FOUND as APPOINTMENT_NOT_FOUND;
pub const CASE_NOT_FOUND: &str = "Processo não encontrado.";
pub const WRONG_STATE: &str = "Este agendamento não está em um estado que permita esta ação.";
pub const COPAY_TWICE: &str = "Coparticipação já registrada.";
pub const CASE_TWICE: &str = "Este processo já está cadastrado para este CPF.";
pub const NOT_FUTURE: &str = "scheduled_at: A data deve ser futura.";
pub const BAD_SCHEDULE: &str = "scheduled_at: Data inválida";
pub const BAD_OFFICE: &str = "office_id: Escritório inválido.";
pub const BAD_AMOUNT: &str = "amount_cents: Valor inválido";
/// The largest co-payment a desk records (R$ 10.000,00): a typo never credits a fortune.
pub const MAX_COPAY_CENTS: i64 = 1_000_000;
pub const BAD_CPF: &str = "cpf: CPF inválido";
pub const BAD_LINK: &str = "link: O link deve começar com https://";
pub const BAD_FILED_ON: &str = "filed_on: Data inválida";
pub const BAD_CLAIM: &str = "claim_cents: Valor inválido";
pub const BAD_TAG: &str = "tags: Tag inválida";

#[derive(Debug, thiserror::Error)]
pub enum DeskError {
    #[error("{APPOINTMENT_NOT_FOUND}")]
    AppointmentNotFound,
    #[error("{CASE_NOT_FOUND}")]
    CaseNotFound,
    #[error("{WRONG_STATE}")]
    WrongState,
    #[error("{COPAY_TWICE}")]
    CopayTwice,
    #[error("{CASE_TWICE}")]
    CaseTwice,
    #[error("invalid: {0:?}")]
    Invalid(Vec<String>),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Ledger(#[from] crate::wallet::ledger::LedgerError),
}

impl IntoFailure for DeskError {
    fn into_failure(self) -> Failure {
        match self {
            Self::AppointmentNotFound | Self::CaseNotFound => Failure::NotFound(self.to_string()),
            Self::WrongState | Self::CopayTwice | Self::CaseTwice => {
                Failure::Conflict(self.to_string())
            }
            Self::Invalid(messages) => Failure::Invalid(messages),
            Self::Db(err) => err.into_failure(),
            Self::Ledger(err) => err.into_failure(),
        }
    }
}

/// Who an appointment or suggestion is for, as the console shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberRef {
    pub id: i64,
    pub name: String,
    pub email: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Office {
    pub id: i64,
    pub name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Copay {
    pub amount_cents: i64,
    pub cashback_cents: i64,
}

/// An appointment as the desk sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeskAppointment {
    pub id: i64,
    pub station_id: i64,
    pub service: AppointmentService,
    pub cpf: String,
    /// The member who asked, else the station's member with that CPF.
    pub member: Option<MemberRef>,
    /// 'Quinta-feira'.
    pub preferred_day: Option<&'static str>,
    pub description: String,
    pub phone: Option<String>,
    pub status: Status,
    pub scheduled_at: Option<DateTime<Utc>>,
    pub office: Option<Office>,
    pub cancelled_by: Option<String>,
    pub created_at: DateTime<Utc>,
    pub copay: Option<Copay>,
}

#[derive(sqlx::FromRow)]
struct AppointmentRow {
    id: i64,
    station_id: i64,
    service: AppointmentService,
    cpf: String,
    preferred_weekday: Option<i16>,
    description: String,
    phone: Option<String>,
    status: Status,
    scheduled_at: Option<DateTime<Utc>>,
    cancelled_by: Option<String>,
    created_at: DateTime<Utc>,
    member_id: Option<i64>,
    member_name: Option<String>,
    member_email: Option<String>,
    office_id: Option<i64>,
    office_name: Option<String>,
    copay_amount: Option<i64>,
    copay_cashback: Option<i64>,
}

impl From<AppointmentRow> for DeskAppointment {
    fn from(row: AppointmentRow) -> Self {
        let preferred_day = row
            .preferred_weekday
            .and_then(|n| u8::try_from(n - 1).ok())
            .and_then(|n| chrono::Weekday::try_from(n).ok())
            .map(weekday_label);
        Self {
            id: row.id,
            station_id: row.station_id,
            service: row.service,
            cpf: row.cpf,
            member: row.member_id.map(|id| MemberRef {
                id,
                name: row.member_name.unwrap_or_default(),
                email: row.member_email,
            }),
            preferred_day,
            description: row.description,
            phone: row.phone,
            status: row.status,
            scheduled_at: row.scheduled_at,
            office: row.office_id.map(|id| Office {
                id,
                name: row.office_name.unwrap_or_default(),
            }),
            cancelled_by: row.cancelled_by,
            created_at: row.created_at,
            copay: row.copay_amount.map(|amount_cents| Copay {
                amount_cents,
                cashback_cents: row.copay_cashback.unwrap_or_default(),
            }),
        }
    }
}

macro_rules! select_appointment {
    () => {
        "SELECT a.id, a.station_id, a.service, a.cpf, a.preferred_weekday, a.description,
                a.phone, a.status, a.scheduled_at, a.cancelled_by, a.created_at,
                m.id AS member_id, m.name AS member_name, m.email AS member_email,
                o.id AS office_id, o.name AS office_name,
                c.amount_cents AS copay_amount, c.cashback_cents AS copay_cashback
         FROM service_appointments a
         LEFT JOIN LATERAL (
             SELECT u.id, u.name, u.email FROM users u
             WHERE u.deleted_at IS NULL
               AND (u.id = a.user_id
                    OR (a.user_id IS NULL AND u.station_id = a.station_id AND u.cpf = a.cpf))
             ORDER BY u.id LIMIT 1) m ON true
         LEFT JOIN service_offices o ON o.id = a.office_id
         LEFT JOIN health_copays c ON c.appointment_id = a.id"
    };
}

/// The desk's appointments, newest first, optionally of one status.
pub async fn appointments(
    conn: &mut PgConnection,
    station_id: i64,
    desk: Desk,
    status: Option<Status>,
    page: i64,
    per_page: i64,
) -> sqlx::Result<Listed<DeskAppointment>> {
    let services: Vec<&str> = desk
        .appointment_services()
        .into_iter()
        .map(AppointmentService::as_str)
        .collect();
    let rows: Vec<AppointmentRow> = sqlx::query_as(concat!(
        select_appointment!(),
        " WHERE a.station_id = $1 AND a.service = ANY($2) AND ($3::text IS NULL OR a.status = $3)
          ORDER BY a.created_at DESC, a.id DESC LIMIT $4 OFFSET $5"
    ))
    .bind(station_id)
    .bind(&services)
    .bind(status)
    .bind(per_page)
    .bind((page - 1).saturating_mul(per_page))
    .fetch_all(&mut *conn)
    .await?;
    let total: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM service_appointments
         WHERE station_id = $1 AND service = ANY($2) AND ($3::text IS NULL OR status = $3)",
    )
    .bind(station_id)
    .bind(&services)
    .bind(status)
    .fetch_one(&mut *conn)
    .await?;
    Ok(Listed {
        items: rows.into_iter().map(DeskAppointment::from).collect(),
        total,
    })
}

/// One appointment, as the desk sees it.
pub async fn appointment(
    db: impl PgExecutor<'_>,
    id: i64,
) -> sqlx::Result<Option<DeskAppointment>> {
    let row: Option<AppointmentRow> =
        sqlx::query_as(concat!(select_appointment!(), " WHERE a.id = $1"))
            .bind(id)
            .fetch_optional(db)
            .await?;
    Ok(row.map(DeskAppointment::from))
}

/// The station and desk an appointment belongs to (they never change): what decides who
/// may see and act on it.
pub async fn appointment_desk(
    db: impl PgExecutor<'_>,
    id: i64,
) -> sqlx::Result<Option<(i64, Desk)>> {
    let row: Option<(i64, AppointmentService)> =
        sqlx::query_as("SELECT station_id, service FROM service_appointments WHERE id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?;
    Ok(row.map(|(station, service)| (station, service.desk())))
}

/// Locks the appointment's row for the rest of the transaction: two staff acting at once
/// act one after the other, the second on what the first left. Answers its status.
pub async fn lock(conn: &mut PgConnection, id: i64) -> Result<Status, DeskError> {
    sqlx::query_scalar("SELECT status FROM service_appointments WHERE id = $1 FOR UPDATE")
        .bind(id)
        .fetch_optional(conn)
        .await?
        .ok_or(DeskError::AppointmentNotFound)
}

/// The offices of the station's desk, by name.
pub async fn offices(
    db: impl PgExecutor<'_>,
    station_id: i64,
    desk: Desk,
) -> sqlx::Result<Vec<Office>> {
    let rows: Vec<(i64, String)> = sqlx::query_as(
        "SELECT id, name FROM service_offices WHERE station_id = $1 AND service = $2
         ORDER BY name, id",
    )
    .bind(station_id)
    .bind(desk)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, name)| Office { id, name })
        .collect())
}

/// Reads a confirmation's date: RFC 3339 with its offset, in the future.
pub fn check_schedule(
    scheduled_at: Option<&str>,
    now: DateTime<Utc>,
) -> Result<DateTime<Utc>, DeskError> {
    let text = scheduled_at.map(str::trim).filter(|text| !text.is_empty());
    let Some(text) = text else {
        return Err(DeskError::Invalid(vec![format!(
            "scheduled_at: {REQUIRED}"
        )]));
    };
    let at = DateTime::parse_from_rfc3339(text)
        .map_err(|_| DeskError::Invalid(vec![BAD_SCHEDULE.into()]))?
        .with_timezone(&Utc);
    if at <= now {
        return Err(DeskError::Invalid(vec![NOT_FUTURE.into()]));
    }
    Ok(at)
}

/// Confirms (or re-schedules) a locked `requested` or `confirmed` appointment. The office,
/// when given, must be one of the station's desk.
pub async fn confirm(
    conn: &mut PgConnection,
    id: i64,
    scheduled_at: DateTime<Utc>,
    office_id: Option<i64>,
    staff_id: i64,
) -> Result<(), DeskError> {
    let status = lock(&mut *conn, id).await?;
    if !matches!(status, Status::Requested | Status::Confirmed) {
        return Err(DeskError::WrongState);
    }
    if let Some(office_id) = office_id {
        let fits: bool = sqlx::query_scalar(
            "SELECT EXISTS (
                 SELECT 1 FROM service_appointments a
                 JOIN service_offices o ON o.station_id = a.station_id
                  AND o.service = CASE WHEN a.service IN ('dental', 'psychologist', 'nutritionist')
                                       THEN 'health' ELSE a.service END
                 WHERE a.id = $1 AND o.id = $2)",
        )
        .bind(id)
        .bind(office_id)
        .fetch_one(&mut *conn)
        .await?;
        if !fits {
            return Err(DeskError::Invalid(vec![BAD_OFFICE.into()]));
        }
    }
    sqlx::query(
        "UPDATE service_appointments
         SET status = 'confirmed', scheduled_at = $2, office_id = $3, status_by = $4,
             status_at = now(), updated_at = now(),
             reminder_sent_at = CASE WHEN scheduled_at IS DISTINCT FROM $2 THEN NULL
                                     ELSE reminder_sent_at END
         WHERE id = $1",
    )
    .bind(id)
    .bind(scheduled_at)
    .bind(office_id)
    .bind(staff_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// What staff may do to an appointment besides confirming it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Done,
    Absent,
    Cancel,
}

impl Move {
    fn allowed_from(self, status: Status) -> bool {
        match self {
            Self::Done | Self::Absent => status == Status::Confirmed,
            Self::Cancel => matches!(status, Status::Requested | Status::Confirmed),
        }
    }

    fn status(self) -> Status {
        match self {
            Self::Done => Status::Done,
            Self::Absent => Status::Absent,
            Self::Cancel => Status::Cancelled,
        }
    }
}

/// Moves a locked appointment to done, absent or cancelled (by staff), from the states
/// each allows.
pub async fn apply(
    conn: &mut PgConnection,
    id: i64,
    action: Move,
    staff_id: i64,
) -> Result<(), DeskError> {
    let status = lock(&mut *conn, id).await?;
    if !action.allowed_from(status) {
        return Err(DeskError::WrongState);
    }
    sqlx::query(
        "UPDATE service_appointments
         SET status = $2, cancelled_by = CASE WHEN $2::text = 'cancelled' THEN 'staff' END,
             status_by = $3, status_at = now(), updated_at = now()
         WHERE id = $1",
    )
    .bind(id)
    .bind(action.status())
    .bind(staff_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The co-payment's cashback: half of it, rounded down.
pub fn copay_cashback(amount_cents: i64) -> i64 {
    amount_cents / 2
}

/// Records the co-payment of a locked, `done` health appointment with a member, once.
/// Answers the member it is for.
pub async fn record_copay(
    conn: &mut PgConnection,
    id: i64,
    amount_cents: i64,
    staff_id: i64,
) -> Result<(i64, i64, i64), DeskError> {
    let status = lock(&mut *conn, id).await?;
    let recorded: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM health_copays WHERE appointment_id = $1)")
            .bind(id)
            .fetch_one(&mut *conn)
            .await?;
    if recorded {
        return Err(DeskError::CopayTwice);
    }
    let shown = appointment(&mut *conn, id)
        .await?
        .ok_or(DeskError::AppointmentNotFound)?;
    let Some(member) = shown.member.filter(|_| status == Status::Done) else {
        return Err(DeskError::WrongState);
    };
    let cashback = copay_cashback(amount_cents);
    let copay_id: i64 = sqlx::query_scalar(
        "INSERT INTO health_copays
             (station_id, user_id, appointment_id, amount_cents, cashback_cents, recorded_by)
         VALUES ($1, $2, $3, $4, $5, $6)
         RETURNING id",
    )
    .bind(shown.station_id)
    .bind(member.id)
    .bind(id)
    .bind(amount_cents)
    .bind(cashback)
    .bind(staff_id)
    .fetch_one(&mut *conn)
    .await?;
    Ok((copay_id, member.id, shown.station_id))
}

/// Ties the co-payment to the cashback lot it gave.
pub async fn set_copay_lot(
    db: impl PgExecutor<'_>,
    copay_id: i64,
    lot_id: i64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE health_copays SET lot_id = $2 WHERE id = $1")
        .bind(copay_id)
        .bind(lot_id)
        .execute(db)
        .await?;
    Ok(())
}

// --- Cases -------------------------------------------------------------------------------

/// A case the desk keeps for a CPF.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DeskCase {
    pub id: i64,
    pub station_id: i64,
    pub service: Desk,
    pub cpf: String,
    pub case_number: String,
    pub kind: String,
    pub situation: String,
    pub filed_on: Option<NaiveDate>,
    pub court: String,
    pub title: String,
    pub claim_cents: Option<i64>,
    pub link: Option<String>,
    pub collective: bool,
    pub updated_at: DateTime<Utc>,
}

macro_rules! case_columns {
    () => {
        "id, station_id, service, cpf, case_number, kind, situation, filed_on, court, title,
         claim_cents, link, collective, updated_at"
    };
}

/// A case as staff write it (every field as sent; checked by [`check_case`]).
#[derive(Debug, Clone, Default)]
pub struct CaseForm {
    pub cpf: Option<String>,
    pub case_number: Option<String>,
    pub kind: Option<String>,
    pub situation: Option<String>,
    pub filed_on: Option<String>,
    pub court: Option<String>,
    pub title: Option<String>,
    pub claim_cents: Option<i64>,
    pub link: Option<String>,
    pub collective: Option<bool>,
}

/// A case's fields, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseFields {
    pub cpf: String,
    pub case_number: String,
    pub kind: String,
    pub situation: String,
    pub filed_on: Option<NaiveDate>,
    pub court: String,
    pub title: String,
    pub claim_cents: Option<i64>,
    pub link: Option<String>,
    pub collective: bool,
}

fn text(value: &Option<String>) -> String {
    value
        .as_deref()
        .map(str::trim)
        .unwrap_or_default()
        .to_string()
}

/// Reads a CPF, bare or masked (999.999.999-99).
pub fn parse_cpf(value: &str) -> Option<String> {
    value
        .trim()
        .parse::<Cpf>()
        .ok()
        .map(|cpf| cpf.digits().to_string())
}

/// Checks a case form: every problem, one line each.
pub fn check_case(form: &CaseForm) -> Result<CaseFields, DeskError> {
    let mut problems = Vec::new();
    let cpf = parse_cpf(form.cpf.as_deref().unwrap_or_default());
    if cpf.is_none() {
        problems.push(BAD_CPF.to_string());
    }
    let case_number = text(&form.case_number);
    if case_number.is_empty() {
        problems.push(format!("case_number: {REQUIRED}"));
    }
    let filed_on = match form.filed_on.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(date) => {
            let parsed = NaiveDate::parse_from_str(date, "%Y-%m-%d").ok();
            if parsed.is_none() {
                problems.push(BAD_FILED_ON.to_string());
            }
            parsed
        }
    };
    if form.claim_cents.is_some_and(|cents| cents < 0) {
        problems.push(BAD_CLAIM.to_string());
    }
    let link = Some(text(&form.link)).filter(|link| !link.is_empty());
    if link.as_deref().is_some_and(|link| {
        !link.starts_with("https://") || link.len() <= "https://".len() || link.contains(' ')
    }) {
        problems.push(BAD_LINK.to_string());
    }
    if !problems.is_empty() {
        return Err(DeskError::Invalid(problems));
    }
    Ok(CaseFields {
        cpf: cpf.unwrap_or_default(),
        case_number,
        kind: text(&form.kind),
        situation: text(&form.situation),
        filed_on,
        court: text(&form.court),
        title: text(&form.title),
        claim_cents: form.claim_cents,
        link,
        collective: form.collective.unwrap_or(false),
    })
}

fn unique_violation(err: sqlx::Error) -> DeskError {
    match &err {
        sqlx::Error::Database(db) if db.is_unique_violation() => DeskError::CaseTwice,
        _ => DeskError::Db(err),
    }
}

/// The desk's cases, the latest changed first, optionally of one CPF.
pub async fn cases(
    conn: &mut PgConnection,
    station_id: i64,
    desk: Desk,
    cpf: Option<&str>,
    page: i64,
    per_page: i64,
) -> sqlx::Result<Listed<DeskCase>> {
    let items: Vec<DeskCase> = sqlx::query_as(concat!(
        "SELECT ",
        case_columns!(),
        " FROM service_cases
          WHERE station_id = $1 AND service = $2 AND ($3::text IS NULL OR cpf = $3)
          ORDER BY updated_at DESC, id DESC LIMIT $4 OFFSET $5"
    ))
    .bind(station_id)
    .bind(desk)
    .bind(cpf)
    .bind(per_page)
    .bind((page - 1).saturating_mul(per_page))
    .fetch_all(&mut *conn)
    .await?;
    let total: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM service_cases
         WHERE station_id = $1 AND service = $2 AND ($3::text IS NULL OR cpf = $3)",
    )
    .bind(station_id)
    .bind(desk)
    .bind(cpf)
    .fetch_one(&mut *conn)
    .await?;
    Ok(Listed { items, total })
}

pub async fn case(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<DeskCase>> {
    sqlx::query_as(concat!(
        "SELECT ",
        case_columns!(),
        " FROM service_cases WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(db)
    .await
}

pub async fn create_case(
    conn: &mut PgConnection,
    station_id: i64,
    desk: Desk,
    fields: &CaseFields,
) -> Result<DeskCase, DeskError> {
    sqlx::query_as(concat!(
        "INSERT INTO service_cases (station_id, service, cpf, case_number, kind, situation,
                                    filed_on, court, title, claim_cents, link, collective)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         RETURNING ",
        case_columns!()
    ))
    .bind(station_id)
    .bind(desk)
    .bind(&fields.cpf)
    .bind(&fields.case_number)
    .bind(&fields.kind)
    .bind(&fields.situation)
    .bind(fields.filed_on)
    .bind(&fields.court)
    .bind(&fields.title)
    .bind(fields.claim_cents)
    .bind(&fields.link)
    .bind(fields.collective)
    .fetch_one(conn)
    .await
    .map_err(unique_violation)
}

pub async fn update_case(
    conn: &mut PgConnection,
    id: i64,
    fields: &CaseFields,
) -> Result<DeskCase, DeskError> {
    sqlx::query_as(concat!(
        "UPDATE service_cases
         SET cpf = $2, case_number = $3, kind = $4, situation = $5, filed_on = $6, court = $7,
             title = $8, claim_cents = $9, link = $10, collective = $11, updated_at = now()
         WHERE id = $1
         RETURNING ",
        case_columns!()
    ))
    .bind(id)
    .bind(&fields.cpf)
    .bind(&fields.case_number)
    .bind(&fields.kind)
    .bind(&fields.situation)
    .bind(fields.filed_on)
    .bind(&fields.court)
    .bind(&fields.title)
    .bind(fields.claim_cents)
    .bind(&fields.link)
    .bind(fields.collective)
    .fetch_optional(conn)
    .await
    .map_err(unique_violation)?
    .ok_or(DeskError::CaseNotFound)
}

// --- Political suggestions -----------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    pub id: i64,
    pub member: Option<MemberRef>,
    pub description: String,
    pub created_at: DateTime<Utc>,
}

/// The station's suggestions, newest first.
pub async fn suggestions(
    conn: &mut PgConnection,
    station_id: i64,
    page: i64,
    per_page: i64,
) -> sqlx::Result<Listed<Suggestion>> {
    #[allow(clippy::type_complexity)]
    let rows: Vec<(
        i64,
        Option<i64>,
        Option<String>,
        Option<String>,
        String,
        DateTime<Utc>,
    )> = sqlx::query_as(
        "SELECT p.id, u.id, u.name, u.email, p.description, p.created_at
             FROM political_suggestions p LEFT JOIN users u ON u.id = p.user_id
             WHERE p.station_id = $1
             ORDER BY p.created_at DESC, p.id DESC LIMIT $2 OFFSET $3",
    )
    .bind(station_id)
    .bind(per_page)
    .bind((page - 1).saturating_mul(per_page))
    .fetch_all(&mut *conn)
    .await?;
    let total: i64 =
        sqlx::query_scalar("SELECT count(*) FROM political_suggestions WHERE station_id = $1")
            .bind(station_id)
            .fetch_one(&mut *conn)
            .await?;
    Ok(Listed {
        items: rows
            .into_iter()
            .map(
                |(id, member_id, name, email, description, created_at)| Suggestion {
                    id,
                    member: member_id.map(|id| MemberRef {
                        id,
                        name: name.unwrap_or_default(),
                        email,
                    }),
                    description,
                    created_at,
                },
            )
            .collect(),
        total,
    })
}

// --- News ----------------------------------------------------------------------------------

/// The desk a news tag belongs to (13752 legal, 13754 accounting, 13755 political).
pub fn desk_of_tag(tag: i64) -> Option<Desk> {
    Desk::ALL
        .into_iter()
        .find(|desk| desk.news_tag() == Some(tag))
}

// --- Reminders -----------------------------------------------------------------------------

/// Marks as reminded, at most `limit`, the confirmed appointments that start on the day
/// after `now`'s in their station's time zone and were not reminded: answers their ids.
/// Rows another tick holds are skipped, so two ticks at once mark each one once.
pub async fn claim_reminders(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(
        "UPDATE service_appointments a SET reminder_sent_at = $1, updated_at = now()
         WHERE a.id IN (
             SELECT d.id FROM service_appointments d JOIN stations s ON s.id = d.station_id
             WHERE d.status = 'confirmed' AND d.reminder_sent_at IS NULL
               AND d.scheduled_at > $1
               AND (d.scheduled_at AT TIME ZONE s.time_zone)::date
                   = ($1 AT TIME ZONE s.time_zone)::date + 1
             ORDER BY d.scheduled_at, d.id
             LIMIT $2
             FOR UPDATE OF d SKIP LOCKED)
           AND a.reminder_sent_at IS NULL
         RETURNING a.id",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(conn)
    .await
}

// --- E-mails -------------------------------------------------------------------------------

/// What an e-mail to the member says of an appointment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notify {
    Confirmed,
    Cancelled,
    Reminder,
}

/// "03/12/2026 às 09:00" in the station's time zone.
pub fn local_when(station: &Station, at: DateTime<Utc>) -> String {
    at.with_timezone(&station.zone())
        .format("%d/%m/%Y às %H:%M")
        .to_string()
}

/// The e-mail to the appointment's member (none without a member or an address), with its
/// once-key.
pub fn member_mail(
    station: &Station,
    public_url: &str,
    appointment: &DeskAppointment,
    notify: Notify,
) -> Option<(Mail, String)> {
    let member = appointment.member.as_ref()?;
    let to = member
        .email
        .as_deref()
        .map(str::trim)
        .filter(|to| !to.is_empty())?;
    let label = appointment.service.label();
    let when = appointment
        .scheduled_at
        .map(|at| local_when(station, at))
        .unwrap_or_default();
    let office = appointment
        .office
        .as_ref()
        .map(|office| format!("Local: {}.", office.name));
    let stamp = appointment.scheduled_at.map_or(0, |at| at.timestamp());
    let (subject, mut paragraphs, key) = match notify {
        Notify::Confirmed => (
            "Agendamento confirmado".to_string(),
            vec![format!(
                "Seu atendimento de {label} foi confirmado para {when}."
            )],
            format!("appointment:{}:confirmed:{stamp}", appointment.id),
        ),
        Notify::Cancelled => (
            "Agendamento cancelado".to_string(),
            vec![format!(
                "Seu atendimento de {label} (protocolo nº {}) foi cancelado pela equipe.",
                appointment.id
            )],
            format!("appointment:{}:cancelled", appointment.id),
        ),
        Notify::Reminder => (
            "Lembrete: seu atendimento é amanhã".to_string(),
            vec![format!(
                "Lembrete: seu atendimento de {label} é amanhã, {when}."
            )],
            format!("appointment:{}:reminder:{stamp}", appointment.id),
        ),
    };
    if notify != Notify::Cancelled {
        paragraphs.extend(office);
    }
    paragraphs.insert(0, format!("Olá, {}.", member.name));
    let notice = Notice {
        heading: subject.clone(),
        paragraphs,
        button: None,
    };
    Some((
        Mail {
            mail: OutgoingMail::notice(
                &Branding::of(station, public_url),
                to.to_string(),
                subject,
                &notice,
            ),
            station_id: appointment.station_id,
            user_id: Some(member.id),
            about: ("service_appointment", appointment.id),
        },
        key,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_form_is_checked_field_by_field() {
        let form = CaseForm {
            cpf: Some("529.982.247-25".into()),
            case_number: Some(" 0001234-56.2025.5.02.0001 ".into()),
            link: Some("https://tribunal.example.com/1".into()),
            filed_on: Some("2025-03-14".into()),
            ..CaseForm::default()
        };
        let fields = check_case(&form).expect("valid");
        assert_eq!(fields.cpf, "52998224725");
        assert_eq!(fields.case_number, "0001234-56.2025.5.02.0001");
        let bad = CaseForm {
            cpf: Some("123".into()),
            link: Some("http://x.example.com".into()),
            claim_cents: Some(-1),
            ..CaseForm::default()
        };
        let Err(DeskError::Invalid(problems)) = check_case(&bad) else {
            panic!("refused");
        };
        assert_eq!(
            problems,
            [
                BAD_CPF.to_string(),
                format!("case_number: {REQUIRED}"),
                BAD_CLAIM.into(),
                BAD_LINK.into()
            ]
        );
    }

    #[test]
    fn a_confirmation_is_in_the_future() {
        let now = Utc::now();
        assert!(check_schedule(Some("2020-01-01T09:00:00-03:00"), now).is_err());
        assert!(check_schedule(Some("amanhã"), now).is_err());
        assert!(check_schedule(None, now).is_err());
        let later = (now + chrono::Duration::days(2)).to_rfc3339();
        assert!(check_schedule(Some(&later), now).is_ok());
    }

    #[test]
    fn tags_belong_to_desks_and_copays_give_half() {
        assert_eq!(desk_of_tag(13752), Some(Desk::Legal));
        assert_eq!(desk_of_tag(13755), Some(Desk::Political));
        assert_eq!(desk_of_tag(1), None);
        assert_eq!(copay_cashback(8001), 4000);
        assert_eq!(Desk::Health.appointment_services().len(), 3);
    }
}
