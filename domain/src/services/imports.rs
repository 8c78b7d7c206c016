//! The CSV a law or accounting office (or a clinic) exports, imported into a desk's cases
//! or appointments (docs/api-services.md "The desk in the console", Imports): the file is
//! checked when it is sent ([`check_file`]: size, UTF-8 text, a header with the kind's
//! columns) and stored on `service_imports`; the `services.import` job reads it row by row
//! ([`read_case`], [`read_appointment`]) and upserts each row by the office's own key
//! ([`upsert_case`], [`upsert_appointment`]), so importing the same file again changes
//! nothing.

use chrono::{DateTime, NaiveDate, NaiveTime, TimeZone, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgExecutor};

use super::{AppointmentService, Desk};
use crate::shared::cpf::Cpf;

/// The largest file the desk takes.
pub const MAX_BYTES: usize = 2 * 1024 * 1024;

pub const IMPORT_NOT_FOUND: &str = "Importação não encontrada.";
pub const FILE_REQUIRED: &str = "file: Esse campo é obrigatório";
pub const FILE_TOO_LARGE: &str = "file: O arquivo deve ter no máximo 2 MB.";
pub const FILE_NOT_TEXT: &str = "file: O arquivo deve ser um CSV de texto em UTF-8.";
pub const FILE_NO_ROWS: &str = "file: O arquivo não tem linhas além do cabeçalho.";
pub const KIND_INVALID: &str = "kind: Escolha processos (cases) ou agendamentos (appointments).";
pub const KIND_NOT_FOR_DESK: &str = "kind: Este atendimento não importa processos.";
pub const ALREADY_RUNNING: &str =
    "Este arquivo já está sendo importado. Aguarde o fim da importação anterior.";

/// What a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, sqlx::Type)]
#[serde(rename_all = "lowercase")]
#[sqlx(type_name = "text", rename_all = "lowercase")]
pub enum ImportKind {
    Cases,
    Appointments,
}

impl ImportKind {
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim() {
            "cases" => Some(Self::Cases),
            "appointments" => Some(Self::Appointments),
            _ => None,
        }
    }

    /// The header's columns, in the order the offices export them.
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            Self::Cases => &[
                "cpf",
                "numero_processo",
                "tipo",
                "situacao",
                "data_protocolo",
                "tribunal_orgao",
                "titulo",
                "valor_causa",
                "link_processo",
                "coletiva",
            ],
            Self::Appointments => &[
                "referencia",
                "cpf",
                "servico",
                "data",
                "hora",
                "situacao",
                "escritorio",
                "descricao",
            ],
        }
    }

    /// The columns a file must have; the others may be left out.
    fn required(self) -> &'static [&'static str] {
        match self {
            Self::Cases => &["cpf", "numero_processo"],
            Self::Appointments => &["referencia", "cpf", "data", "hora", "situacao"],
        }
    }
}

/// Which desks import what: legal and accounting their cases and appointments, health its
/// appointments; political none.
pub fn desk_imports(desk: Desk, kind: ImportKind) -> bool {
    match desk {
        Desk::Legal | Desk::Accounting => true,
        Desk::Health => kind == ImportKind::Appointments,
        Desk::Political => false,
    }
}

/// A row the job refused, by its line in the file (the header is line 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejected {
    pub line: u32,
    pub message: String,
}

/// One import as the console shows it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct ServiceImport {
    pub id: i64,
    pub station_id: i64,
    #[sqlx(rename = "service")]
    pub desk: Desk,
    pub kind: ImportKind,
    pub file_name: String,
    pub status: String,
    pub total_rows: i32,
    pub processed_rows: i32,
    pub inserted: i32,
    pub updated: i32,
    pub unchanged: i32,
    pub rejected: sqlx::types::Json<Vec<Rejected>>,
    pub failure: Option<String>,
    pub job_id: Option<String>,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

macro_rules! columns {
    () => {
        "id, station_id, service, kind, file_name, status, total_rows, processed_rows, \
         inserted, updated, unchanged, rejected, failure, job_id, created_at, finished_at"
    };
}

/// A parsed file: the header's names (lowercased, trimmed) and each data row with its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<(u32, Vec<String>)>,
}

impl Table {
    /// A row as column name -> value (trimmed); absent columns read as empty.
    pub fn field<'a>(&self, row: &'a [String], name: &str) -> &'a str {
        self.header
            .iter()
            .position(|column| column == name)
            .and_then(|at| row.get(at))
            .map(|value| value.trim())
            .unwrap_or("")
    }
}

/// Reads a CSV separated by `;` or `,` (whichever the header uses more), with fields
/// optionally quoted (`"a;b"`, `""` for a quote). Blank lines are skipped; lines count
/// from 1, the header's.
pub fn parse(text: &str) -> Table {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first_line = text.lines().next().unwrap_or("");
    let separator = if first_line.matches(',').count() > first_line.matches(';').count() {
        ','
    } else {
        ';'
    };
    let mut records: Vec<(u32, Vec<String>)> = Vec::new();
    let mut field = String::new();
    let mut record: Vec<String> = Vec::new();
    let mut quoted = false;
    let mut line: u32 = 1;
    let mut start_line: u32 = 1;
    let mut chars = text.chars().peekable();
    let mut push_record = |record: &mut Vec<String>, start: u32| {
        let row = std::mem::take(record);
        if row.iter().any(|value| !value.trim().is_empty()) {
            records.push((start, row));
        }
    };
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    field.push(c);
                }
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' if field.trim().is_empty() => {
                field.clear();
                quoted = true;
            }
            c if c == separator => record.push(std::mem::take(&mut field)),
            '\r' => {}
            '\n' => {
                record.push(std::mem::take(&mut field));
                push_record(&mut record, start_line);
                line += 1;
                start_line = line;
            }
            _ => field.push(c),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        push_record(&mut record, start_line);
    }
    let mut rows = records.into_iter();
    let header = rows
        .next()
        .map(|(_, names)| names.iter().map(|n| n.trim().to_lowercase()).collect())
        .unwrap_or_default();
    Table {
        header,
        rows: rows.collect(),
    }
}

/// A file as sent, checked: its text and how many data rows it has. Refused with the
/// message of the first problem (each a `file: ...` text).
pub fn check_file(bytes: &[u8], kind: ImportKind) -> Result<(String, usize), String> {
    if bytes.is_empty() {
        return Err(FILE_REQUIRED.into());
    }
    if bytes.len() > MAX_BYTES {
        return Err(FILE_TOO_LARGE.into());
    }
    let text = std::str::from_utf8(bytes).map_err(|_| FILE_NOT_TEXT.to_string())?;
    if text
        .chars()
        .any(|c| c == '\0' || (c.is_control() && !matches!(c, '\n' | '\r' | '\t')))
    {
        return Err(FILE_NOT_TEXT.into());
    }
    let table = parse(text);
    let missing: Vec<&str> = kind
        .required()
        .iter()
        .copied()
        .filter(|name| !table.header.iter().any(|column| column == name))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "file: Cabeçalho inválido: a primeira linha deve ter as colunas {} (faltam: {}).",
            kind.columns().join(";"),
            missing.join(", ")
        ));
    }
    if table.rows.is_empty() {
        return Err(FILE_NO_ROWS.into());
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text).to_string();
    Ok((text, table.rows.len()))
}

/// The file's digest, as stored (`content_sha256`, hex).
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(bytes))
}

/// A case row, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseRow {
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

/// An appointment row, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppointmentRow {
    pub external_ref: String,
    pub cpf: String,
    pub service: AppointmentService,
    pub date: NaiveDate,
    pub time: NaiveTime,
    /// `confirmed`, `done`, `absent` or `cancelled`.
    pub status: &'static str,
    pub office: Option<String>,
    pub description: String,
}

fn required<'a>(table: &Table, row: &'a [String], name: &str) -> Result<&'a str, String> {
    let value = table.field(row, name);
    if value.is_empty() {
        Err(format!("{name}: Esse campo é obrigatório"))
    } else {
        Ok(value)
    }
}

fn cpf_of(table: &Table, row: &[String]) -> Result<String, String> {
    let value = required(table, row, "cpf")?;
    value
        .parse::<Cpf>()
        .map(|cpf| cpf.digits().to_string())
        .map_err(|_| super::desk::BAD_CPF.to_string())
}

/// Lowercased, without the accents Portuguese words take.
fn folded(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ã' => 'a',
            'é' | 'ê' => 'e',
            'í' => 'i',
            'ó' | 'ô' | 'õ' => 'o',
            'ú' | 'ü' => 'u',
            'ç' => 'c',
            other => other,
        })
        .collect()
}

/// `DD/MM/YYYY` or `YYYY-MM-DD`.
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    let text = text.trim();
    NaiveDate::parse_from_str(text, "%d/%m/%Y")
        .or_else(|_| NaiveDate::parse_from_str(text, "%Y-%m-%d"))
        .ok()
}

/// `HH:MM` (or `HH:MM:SS`, `HHhMM`).
pub fn parse_time(text: &str) -> Option<NaiveTime> {
    let text = text.trim().replace(['h', 'H'], ":");
    NaiveTime::parse_from_str(&text, "%H:%M")
        .or_else(|_| NaiveTime::parse_from_str(&text, "%H:%M:%S"))
        .ok()
}

/// An amount in reais as offices write it ("1.234,56", "R$ 1.234,56", "1234,5", "1234.56",
/// "1234") in centavos; negative amounts are refused.
pub fn parse_amount(text: &str) -> Option<i64> {
    let text: String = text
        .trim()
        .trim_start_matches("R$")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if text.is_empty()
        || !text
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    {
        return None;
    }
    let (whole, fraction) = if let Some((whole, fraction)) = text.rsplit_once(',') {
        // The comma is the decimal mark; dots group thousands.
        let groups: Vec<&str> = whole.split('.').collect();
        let grouped = groups.len() == 1
            || (!groups[0].is_empty()
                && groups[0].len() <= 3
                && groups[1..].iter().all(|g| g.len() == 3));
        if !grouped {
            return None;
        }
        (whole.replace('.', ""), fraction.to_string())
    } else {
        match text.rsplit_once('.') {
            Some((whole, fraction)) if fraction.len() <= 2 && !whole.contains('.') => {
                (whole.to_string(), fraction.to_string())
            }
            Some(_) => {
                // Only thousands groups: "1.234.567".
                let groups: Vec<&str> = text.split('.').collect();
                if groups[0].is_empty()
                    || groups[0].len() > 3
                    || !groups[1..].iter().all(|g| g.len() == 3)
                {
                    return None;
                }
                (text.replace('.', ""), String::new())
            }
            None => (text.clone(), String::new()),
        }
    };
    if whole.is_empty() || fraction.len() > 2 || fraction.contains(['.', ',']) {
        return None;
    }
    let reais: i64 = whole.parse().ok()?;
    let cents: i64 = match fraction.len() {
        0 => 0,
        1 => fraction.parse::<i64>().ok()? * 10,
        _ => fraction.parse().ok()?,
    };
    reais.checked_mul(100)?.checked_add(cents)
}

fn yes_no(text: &str) -> Option<bool> {
    match folded(text).as_str() {
        "" | "nao" | "n" | "false" | "0" | "no" => Some(false),
        "sim" | "s" | "true" | "1" | "x" | "yes" => Some(true),
        _ => None,
    }
}

fn at_most(name: &str, value: &str, max: usize) -> Result<String, String> {
    if value.chars().count() > max {
        Err(format!("{name}: Máximo de {max} caracteres"))
    } else {
        Ok(value.to_string())
    }
}

/// A case row of the file, or the message of its first problem.
pub fn read_case(table: &Table, row: &[String]) -> Result<CaseRow, String> {
    let cpf = cpf_of(table, row)?;
    let case_number = at_most(
        "numero_processo",
        required(table, row, "numero_processo")?,
        100,
    )?;
    let date = table.field(row, "data_protocolo");
    let filed_on = match date {
        "" => None,
        text => Some(parse_date(text).ok_or("data_protocolo: Data inválida (use DD/MM/AAAA)")?),
    };
    let claim_cents = match table.field(row, "valor_causa") {
        "" => None,
        text => Some(parse_amount(text).ok_or("valor_causa: Valor inválido (use 1.234,56)")?),
    };
    let link = match table.field(row, "link_processo") {
        "" => None,
        text if text.starts_with("https://") && text.len() > "https://".len() => {
            Some(at_most("link_processo", text, 500)?)
        }
        _ => return Err("link_processo: O link deve começar com https://".into()),
    };
    let collective = yes_no(table.field(row, "coletiva")).ok_or("coletiva: Use sim ou não")?;
    Ok(CaseRow {
        cpf,
        case_number,
        kind: at_most("tipo", table.field(row, "tipo"), 200)?,
        situation: at_most("situacao", table.field(row, "situacao"), 200)?,
        filed_on,
        court: at_most("tribunal_orgao", table.field(row, "tribunal_orgao"), 200)?,
        title: at_most("titulo", table.field(row, "titulo"), 500)?,
        claim_cents,
        link,
        collective,
    })
}

/// An appointment row of the file for `desk`, or the message of its first problem.
pub fn read_appointment(
    desk: Desk,
    table: &Table,
    row: &[String],
) -> Result<AppointmentRow, String> {
    let external_ref = at_most("referencia", required(table, row, "referencia")?, 100)?;
    let cpf = cpf_of(table, row)?;
    let service = match desk {
        Desk::Legal => AppointmentService::Legal,
        Desk::Accounting => AppointmentService::Accounting,
        Desk::Health | Desk::Political => match folded(table.field(row, "servico")).as_str() {
            "odontologia" => AppointmentService::Dental,
            "psicologia" => AppointmentService::Psychologist,
            "nutricao" => AppointmentService::Nutritionist,
            "" => return Err("servico: Esse campo é obrigatório".into()),
            _ => return Err("servico: Use odontologia, psicologia ou nutricao".into()),
        },
    };
    let date =
        parse_date(required(table, row, "data")?).ok_or("data: Data inválida (use DD/MM/AAAA)")?;
    let time =
        parse_time(required(table, row, "hora")?).ok_or("hora: Hora inválida (use HH:MM)")?;
    let status = match folded(required(table, row, "situacao")?).as_str() {
        "agendado" => "confirmed",
        "concluido" => "done",
        "ausente" => "absent",
        "cancelado" => "cancelled",
        _ => return Err("situacao: Use agendado, concluido, ausente ou cancelado".into()),
    };
    let office = match table.field(row, "escritorio") {
        "" => None,
        name => Some(at_most("escritorio", name, 200)?),
    };
    Ok(AppointmentRow {
        external_ref,
        cpf,
        service,
        date,
        time,
        status,
        office,
        description: at_most("descricao", table.field(row, "descricao"), 1000)?,
    })
}

/// What a row's upsert did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upserted {
    Inserted,
    Updated,
    Unchanged,
}

fn upserted(row: Option<bool>) -> Upserted {
    match row {
        Some(true) => Upserted::Inserted,
        Some(false) => Upserted::Updated,
        None => Upserted::Unchanged,
    }
}

/// Stores a case by its key (station, desk, case number, CPF); a row equal to the stored
/// one is left alone.
pub async fn upsert_case(
    db: &mut PgConnection,
    station_id: i64,
    desk: Desk,
    case: &CaseRow,
) -> sqlx::Result<Upserted> {
    let inserted: Option<bool> = sqlx::query_scalar(
        "INSERT INTO service_cases AS c
                (station_id, service, cpf, case_number, kind, situation, filed_on, court, title,
                 claim_cents, link, collective)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (station_id, service, case_number, cpf) DO UPDATE
            SET kind = EXCLUDED.kind, situation = EXCLUDED.situation,
                filed_on = EXCLUDED.filed_on, court = EXCLUDED.court, title = EXCLUDED.title,
                claim_cents = EXCLUDED.claim_cents, link = EXCLUDED.link,
                collective = EXCLUDED.collective, updated_at = now()
          WHERE (c.kind, c.situation, c.filed_on, c.court, c.title, c.claim_cents, c.link,
                 c.collective)
                IS DISTINCT FROM
                (EXCLUDED.kind, EXCLUDED.situation, EXCLUDED.filed_on, EXCLUDED.court,
                 EXCLUDED.title, EXCLUDED.claim_cents, EXCLUDED.link, EXCLUDED.collective)
         RETURNING (xmax = 0)",
    )
    .bind(station_id)
    .bind(desk)
    .bind(&case.cpf)
    .bind(&case.case_number)
    .bind(&case.kind)
    .bind(&case.situation)
    .bind(case.filed_on)
    .bind(&case.court)
    .bind(&case.title)
    .bind(case.claim_cents)
    .bind(&case.link)
    .bind(case.collective)
    .fetch_optional(db)
    .await?;
    Ok(upserted(inserted))
}

/// The office of that name at the desk, created if missing.
pub async fn office_named(
    db: &mut PgConnection,
    station_id: i64,
    desk: Desk,
    name: &str,
) -> sqlx::Result<i64> {
    sqlx::query(
        "INSERT INTO service_offices (station_id, service, name) VALUES ($1, $2, $3)
         ON CONFLICT (station_id, service, name) DO NOTHING",
    )
    .bind(station_id)
    .bind(desk)
    .bind(name)
    .execute(&mut *db)
    .await?;
    sqlx::query_scalar(
        "SELECT id FROM service_offices WHERE station_id = $1 AND service = $2 AND name = $3",
    )
    .bind(station_id)
    .bind(desk)
    .bind(name)
    .fetch_one(db)
    .await
}

/// Stores an appointment by its key (station, service, the office's reference), its date
/// and hour read in the station's time zone; a row equal to the stored one, or one a person
/// has moved since (`status_by`), is left alone.
pub async fn upsert_appointment(
    db: &mut PgConnection,
    station_id: i64,
    zone: chrono_tz::Tz,
    appointment: &AppointmentRow,
) -> sqlx::Result<Upserted> {
    let office_id = match &appointment.office {
        Some(name) => Some(office_named(db, station_id, appointment.service.desk(), name).await?),
        None => None,
    };
    let local = appointment.date.and_time(appointment.time);
    let scheduled_at = zone
        .from_local_datetime(&local)
        .earliest()
        .unwrap_or_else(|| zone.from_utc_datetime(&local))
        .with_timezone(&Utc);
    let cancelled_by = (appointment.status == "cancelled").then_some("staff");
    let inserted: Option<bool> = sqlx::query_scalar(
        "INSERT INTO service_appointments AS a
                (station_id, service, cpf, office_id, description, status, scheduled_at,
                 cancelled_by, status_at, external_ref)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now(), $9)
         ON CONFLICT (station_id, service, external_ref) DO UPDATE
            SET cpf = EXCLUDED.cpf, office_id = EXCLUDED.office_id,
                description = EXCLUDED.description, status = EXCLUDED.status,
                scheduled_at = EXCLUDED.scheduled_at, cancelled_by = EXCLUDED.cancelled_by,
                status_at = now(), updated_at = now(),
                -- A new date is reminded again.
                reminder_sent_at = CASE WHEN a.scheduled_at IS DISTINCT FROM EXCLUDED.scheduled_at
                                        THEN NULL ELSE a.reminder_sent_at END
          WHERE (a.cpf, a.office_id, a.description, a.status, a.scheduled_at, a.cancelled_by)
                IS DISTINCT FROM
                (EXCLUDED.cpf, EXCLUDED.office_id, EXCLUDED.description, EXCLUDED.status,
                 EXCLUDED.scheduled_at, EXCLUDED.cancelled_by)
            -- One a person moved here since (the member cancelled it, staff confirmed or
            -- closed it) is theirs: an older file never turns it back.
            AND a.status_by IS NULL
         RETURNING (xmax = 0)",
    )
    .bind(station_id)
    .bind(appointment.service)
    .bind(&appointment.cpf)
    .bind(office_id)
    .bind(&appointment.description)
    .bind(appointment.status)
    .bind(scheduled_at)
    .bind(cancelled_by)
    .bind(&appointment.external_ref)
    .fetch_optional(db)
    .await?;
    Ok(upserted(inserted))
}

/// A file about to be stored.
#[derive(Debug, Clone)]
pub struct NewImport<'a> {
    pub station_id: i64,
    pub desk: Desk,
    pub kind: ImportKind,
    pub file_name: &'a str,
    pub content: &'a str,
    pub sha256: &'a str,
    pub total_rows: i32,
    pub created_by: i64,
}

/// Whether the same file (station, desk, kind, digest) is queued or running. Takes a lock
/// on that key until the transaction ends, so two sends of one file cannot both pass.
pub async fn same_file_pending(db: &mut PgConnection, new: &NewImport<'_>) -> sqlx::Result<bool> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 31))")
        .bind(format!(
            "service_import:{}:{}:{:?}:{}",
            new.station_id,
            new.desk.as_str(),
            new.kind,
            new.sha256
        ))
        .execute(&mut *db)
        .await?;
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM service_imports
                         WHERE station_id = $1 AND service = $2 AND kind = $3
                           AND content_sha256 = $4 AND status IN ('queued', 'running'))",
    )
    .bind(new.station_id)
    .bind(new.desk)
    .bind(new.kind)
    .bind(new.sha256)
    .fetch_one(db)
    .await
}

pub async fn insert(db: &mut PgConnection, new: &NewImport<'_>) -> sqlx::Result<ServiceImport> {
    sqlx::query_as(concat!(
        "INSERT INTO service_imports
                (station_id, service, kind, file_name, content, content_sha256, total_rows,
                 created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         RETURNING ",
        columns!()
    ))
    .bind(new.station_id)
    .bind(new.desk)
    .bind(new.kind)
    .bind(new.file_name)
    .bind(new.content)
    .bind(new.sha256)
    .bind(new.total_rows)
    .bind(new.created_by)
    .fetch_one(db)
    .await
}

pub async fn set_job(
    db: &mut PgConnection,
    import_id: i64,
    job_id: &str,
) -> sqlx::Result<ServiceImport> {
    sqlx::query_as(concat!(
        "UPDATE service_imports SET job_id = $2 WHERE id = $1 RETURNING ",
        columns!()
    ))
    .bind(import_id)
    .bind(job_id)
    .fetch_one(db)
    .await
}

pub async fn find(db: impl PgExecutor<'_>, import_id: i64) -> sqlx::Result<Option<ServiceImport>> {
    sqlx::query_as(concat!(
        "SELECT ",
        columns!(),
        " FROM service_imports WHERE id = $1"
    ))
    .bind(import_id)
    .fetch_optional(db)
    .await
}

/// The desk's imports, newest first.
pub async fn list(
    db: impl PgExecutor<'_>,
    station_id: i64,
    desk: Desk,
    limit: i64,
) -> sqlx::Result<Vec<ServiceImport>> {
    sqlx::query_as(concat!(
        "SELECT ",
        columns!(),
        " FROM service_imports WHERE station_id = $1 AND service = $2
         ORDER BY created_at DESC, id DESC LIMIT $3"
    ))
    .bind(station_id)
    .bind(desk)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// What the job needs: the import, its file and its station's time zone.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Stored {
    pub station_id: i64,
    pub service: Desk,
    pub kind: ImportKind,
    pub status: String,
    pub content: String,
    pub processed_rows: i32,
    pub time_zone: String,
}

/// Takes the import for a run, locked: `None` when it is not there.
pub async fn lock_for_run(db: &mut PgConnection, import_id: i64) -> sqlx::Result<Option<Stored>> {
    sqlx::query_as(
        "SELECT i.station_id, i.service, i.kind, i.status, i.content, i.processed_rows,
                s.time_zone
         FROM service_imports i JOIN stations s ON s.id = i.station_id
         WHERE i.id = $1 FOR UPDATE OF i",
    )
    .bind(import_id)
    .fetch_optional(db)
    .await
}

/// A batch's outcome, added to the import's counts with the rows it processed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchCounts {
    pub processed: i32,
    pub inserted: i32,
    pub updated: i32,
    pub unchanged: i32,
    pub rejected: Vec<Rejected>,
}

impl BatchCounts {
    pub fn count(&mut self, outcome: Upserted) {
        self.processed += 1;
        match outcome {
            Upserted::Inserted => self.inserted += 1,
            Upserted::Updated => self.updated += 1,
            Upserted::Unchanged => self.unchanged += 1,
        }
    }

    pub fn reject(&mut self, line: u32, message: String) {
        self.processed += 1;
        self.rejected.push(Rejected { line, message });
    }
}

pub async fn add_batch(
    db: &mut PgConnection,
    import_id: i64,
    total_rows: i32,
    counts: &BatchCounts,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE service_imports
            SET status = 'running', total_rows = $2, processed_rows = processed_rows + $3,
                inserted = inserted + $4, updated = updated + $5, unchanged = unchanged + $6,
                rejected = rejected || $7
          WHERE id = $1",
    )
    .bind(import_id)
    .bind(total_rows)
    .bind(counts.processed)
    .bind(counts.inserted)
    .bind(counts.updated)
    .bind(counts.unchanged)
    .bind(sqlx::types::Json(&counts.rejected))
    .execute(db)
    .await?;
    Ok(())
}

pub async fn mark_running(db: impl PgExecutor<'_>, import_id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE service_imports SET status = 'running', failure = NULL
         WHERE id = $1 AND status <> 'done'",
    )
    .bind(import_id)
    .execute(db)
    .await?;
    Ok(())
}

pub async fn finish(db: impl PgExecutor<'_>, import_id: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE service_imports SET status = 'done', finished_at = now() WHERE id = $1")
        .bind(import_id)
        .execute(db)
        .await?;
    Ok(())
}

pub async fn fail(db: impl PgExecutor<'_>, import_id: i64, failure: &str) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE service_imports SET status = 'failed', failure = $2, finished_at = now()
         WHERE id = $1 AND status <> 'done'",
    )
    .bind(import_id)
    .bind(failure)
    .execute(db)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASES: &str = "cpf;numero_processo;tipo;situacao;data_protocolo;tribunal_orgao;titulo;valor_causa;link_processo;coletiva";

    #[test]
    fn a_file_is_read_with_either_separator_and_quoted_fields() {
        let table = parse(
            "\u{feff}CPF,Numero_Processo\r\n\"529.982.247-25\",\"1, \"\"a\"\"\"\r\n\r\n111,2\n",
        );
        assert_eq!(table.header, vec!["cpf", "numero_processo"]);
        assert_eq!(
            table.rows,
            vec![
                (
                    2,
                    vec!["529.982.247-25".to_string(), "1, \"a\"".to_string()]
                ),
                (4, vec!["111".to_string(), "2".to_string()]),
            ]
        );
        let table = parse("a;b\nx;\"multi\nline\"\ny;z");
        assert_eq!(table.rows[1].0, 4);
    }

    #[test]
    fn a_file_needs_text_a_header_and_rows() {
        assert_eq!(
            check_file(b"", ImportKind::Cases),
            Err(FILE_REQUIRED.into())
        );
        assert_eq!(
            check_file(&[0xff, 0xfe, 0x00], ImportKind::Cases),
            Err(FILE_NOT_TEXT.into())
        );
        assert_eq!(
            check_file(b"\x89PNG\r\n\x1a\n\0\0", ImportKind::Cases),
            Err(FILE_NOT_TEXT.into())
        );
        assert!(
            check_file(b"52998224725;123\n", ImportKind::Cases)
                .expect_err("refused")
                .starts_with("file: Cabe\u{e7}alho inv\u{e1}lido")
        );
        assert_eq!(
            check_file(CASES.as_bytes(), ImportKind::Cases),
            Err(FILE_NO_ROWS.into())
        );
        let file = format!("{CASES}\n52998224725;1\n");
        assert_eq!(
            check_file(file.as_bytes(), ImportKind::Cases)
                .expect("read")
                .1,
            1
        );
        assert_eq!(
            check_file(&vec![b'a'; MAX_BYTES + 1], ImportKind::Cases),
            Err(FILE_TOO_LARGE.into())
        );
    }

    #[test]
    fn amounts_dates_and_times_read_as_offices_write_them() {
        assert_eq!(parse_amount("1.234,56"), Some(123_456));
        assert_eq!(parse_amount("R$ 12.500.000,00"), Some(1_250_000_000));
        assert_eq!(parse_amount("1234,5"), Some(123_450));
        assert_eq!(parse_amount("1234.56"), Some(123_456));
        assert_eq!(parse_amount("1.234"), Some(123_400));
        assert_eq!(parse_amount("1234"), Some(123_400));
        assert_eq!(parse_amount("-5"), None);
        assert_eq!(parse_amount("12,34,5"), None);
        assert_eq!(parse_amount("1.23,00"), None);
        assert_eq!(parse_amount("abc"), None);
        assert_eq!(
            parse_date("14/03/2025"),
            NaiveDate::from_ymd_opt(2025, 3, 14)
        );
        assert_eq!(
            parse_date("2025-03-14"),
            NaiveDate::from_ymd_opt(2025, 3, 14)
        );
        assert_eq!(parse_date("31/02/2025"), None);
        assert_eq!(parse_time("09:30"), NaiveTime::from_hms_opt(9, 30, 0));
        assert_eq!(parse_time("25:00"), None);
    }

    #[test]
    fn rows_are_checked_one_rule_at_a_time() {
        let table = parse(&format!(
            "{CASES}\n529.982.247-25;0001;Trabalhista;Em andamento;14/03/2025;TRT-2;Horas;1.250,00;https://x.example;sim\n\
             11111111111;0002\n52998224725;0003;;;;;;;http://x\n52998224725;;\n52998224725;0004;;;32/01/2025"
        ));
        let case = read_case(&table, &table.rows[0].1).expect("read");
        assert_eq!(case.cpf, "52998224725");
        assert_eq!(case.claim_cents, Some(125_000));
        assert!(case.collective);
        assert_eq!(
            read_case(&table, &table.rows[1].1).expect_err("refused"),
            "cpf: CPF inválido"
        );
        assert_eq!(
            read_case(&table, &table.rows[2].1).expect_err("refused"),
            "link_processo: O link deve começar com https://"
        );
        assert_eq!(
            read_case(&table, &table.rows[3].1).expect_err("refused"),
            "numero_processo: Esse campo é obrigatório"
        );
        assert!(
            read_case(&table, &table.rows[4].1)
                .expect_err("refused")
                .starts_with("data_protocolo")
        );

        let table = parse(
            "referencia,cpf,servico,data,hora,situacao,escritorio,descricao\n\
             A1,52998224725,Nutrição,2026-12-03,09:00,Concluído,Clínica,\n\
             A2,52998224725,cardiologia,2026-12-03,09:00,agendado,,\n\
             A3,52998224725,odontologia,2026-12-03,09:00,remarcado,,",
        );
        let row = read_appointment(Desk::Health, &table, &table.rows[0].1).expect("read");
        assert_eq!(row.service, AppointmentService::Nutritionist);
        assert_eq!(row.status, "done");
        assert!(
            read_appointment(Desk::Health, &table, &table.rows[1].1)
                .expect_err("refused")
                .starts_with("servico")
        );
        assert_eq!(
            read_appointment(Desk::Legal, &table, &table.rows[1].1)
                .expect("read")
                .service,
            AppointmentService::Legal
        );
        assert!(
            read_appointment(Desk::Health, &table, &table.rows[2].1)
                .expect_err("refused")
                .starts_with("situacao")
        );
        assert!(desk_imports(Desk::Legal, ImportKind::Cases));
        assert!(!desk_imports(Desk::Health, ImportKind::Cases));
        assert!(!desk_imports(Desk::Political, ImportKind::Appointments));
    }
}
