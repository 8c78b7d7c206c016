//! Support messages (spec 002 "Support", "Support and contact"; docs/api-support.md): what a
//! visitor or a member writes on /suporte, /suporte-enterprise or /homepage/support, kept
//! for the station's staff, e-mailed to the station's contact address and acknowledged to
//! its sender (`mail`); staff answer it once from the console, the answer e-mailed too.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use crate::accounts::signup::{INVALID_PHONE, present};
use crate::infra::captcha;
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{StationId, UserId};
use crate::shared::paging::{self, Listed};
use crate::shared::validate::{self, message};
use crate::stations::STATION_NOT_FOUND;

pub mod mail;

/// The spec's limits (section 9).
pub const SUBJECT_MAX: usize = 200;
pub const MESSAGE_MAX: usize = 600;
/// Not shown by the spec: a person's name and an address as long as any real one.
pub const NAME_MAX: usize = 120;
pub const EMAIL_MAX: usize = 254;
/// A staff answer: a few paragraphs.
pub const ANSWER_MAX: usize = 4000;

pub const NOT_FOUND: &str = "Mensagem não encontrada.";
/// The 429's text, whichever limit was reached.
pub const TOO_MANY_MESSAGES: &str =
    "Você enviou muitas mensagens em pouco tempo. Aguarde alguns minutos e tente novamente.";
pub const ALREADY_ANSWERED: &str = "Esta mensagem já foi respondida.";

/// Why a message (or an answer) is refused.
#[derive(Debug, thiserror::Error)]
pub enum SupportError {
    /// One `field: message` per broken rule, in the form's order.
    #[error("invalid: {0:?}")]
    Invalid(Vec<String>),
    #[error("captcha failed")]
    Captcha,
    #[error("no such station")]
    StationNotFound,
    #[error("no such message")]
    NotFound,
    #[error("already answered")]
    AlreadyAnswered,
    /// A sender's or the station's hourly allowance is used up.
    #[error("too many messages")]
    TooMany { retry_after: u64 },
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl IntoFailure for SupportError {
    fn into_failure(self) -> Failure {
        match self {
            Self::Invalid(messages) => Failure::Invalid(messages),
            Self::Captcha => Failure::invalid(captcha::FAILED_MESSAGE),
            Self::StationNotFound => Failure::NotFound(STATION_NOT_FOUND.into()),
            Self::NotFound => Failure::NotFound(NOT_FOUND.into()),
            Self::AlreadyAnswered => Failure::Conflict(ALREADY_ANSWERED.into()),
            Self::TooMany { retry_after } => Failure::TooMany {
                message: TOO_MANY_MESSAGES.into(),
                retry_after,
            },
            Self::Db(err) => Failure::Internal(err.into()),
        }
    }
}

/// The form's fields as sent.
#[derive(Debug, Clone, Default)]
pub struct Form<'a> {
    pub name: Option<&'a str>,
    pub email: Option<&'a str>,
    pub phone: Option<&'a str>,
    pub subject: Option<&'a str>,
    pub message: Option<&'a str>,
}

/// A message that keeps the rules, ready to store: trimmed, the e-mail lower-cased, the
/// phone as its digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    pub name: String,
    pub email: String,
    pub phone: Option<String>,
    pub subject: String,
    pub message: String,
}

/// Collects `field: message` texts, each field's first broken rule.
#[derive(Default)]
struct Problems(Vec<String>);

impl Problems {
    /// A required text no longer than `max`: trimmed, or `None` with its problem noted.
    fn text(&mut self, field: &str, value: Option<&str>, max: usize) -> Option<String> {
        let value = present(value).unwrap_or_default();
        let verdict = validate::required(value).and_then(|()| validate::max_length(value, max));
        match verdict {
            Ok(()) => Some(value.to_string()),
            Err(invalid) => {
                self.0.push(format!("{field}: {}", invalid.message()));
                None
            }
        }
    }

    fn push(&mut self, field: &str, text: &str) {
        self.0.push(format!("{field}: {text}"));
    }
}

/// The phone's digits: optional, masked or not ((99) 99999-9999, +55 ...), 10 to 13 digits.
fn phone(value: Option<&str>) -> Result<Option<String>, ()> {
    let Some(value) = present(value) else {
        return Ok(None);
    };
    let digits: String = value.chars().filter(char::is_ascii_digit).collect();
    let only_phone_chars = value
        .chars()
        .all(|c| c.is_ascii_digit() || "()+-. ".contains(c));
    if only_phone_chars && (10..=13).contains(&digits.len()) {
        Ok(Some(digits))
    } else {
        Err(())
    }
}

/// Checks the form (spec 002 "Support and contact"): name, a valid e-mail, subject (at most
/// 200 characters) and message (at most 600) required; the phone optional. The captcha is
/// the use case's (it costs a call to the provider).
pub fn check(form: &Form<'_>) -> Result<Checked, SupportError> {
    let mut problems = Problems::default();
    let name = problems
        .text("name", form.name, NAME_MAX)
        .map(|name| name.split_whitespace().collect::<Vec<_>>().join(" "));
    let email =
        problems
            .text("email", form.email, EMAIL_MAX)
            .and_then(|email| match validate::email(&email) {
                Ok(()) => Some(email.to_lowercase()),
                Err(_) => {
                    problems.push("email", message::EMAIL);
                    None
                }
            });
    let phone = phone(form.phone).unwrap_or_else(|()| {
        problems.push("phone", INVALID_PHONE);
        None
    });
    let subject = problems.text("subject", form.subject, SUBJECT_MAX);
    let message = problems.text("message", form.message, MESSAGE_MAX);
    match (name, email, subject, message) {
        (Some(name), Some(email), Some(subject), Some(message)) if problems.0.is_empty() => {
            Ok(Checked {
                name,
                email,
                phone,
                subject,
                message,
            })
        }
        _ => Err(SupportError::Invalid(problems.0)),
    }
}

/// A staff answer: required, at most [`ANSWER_MAX`] characters, trimmed.
pub fn check_answer(answer: Option<&str>) -> Result<String, SupportError> {
    let mut problems = Problems::default();
    problems
        .text("answer", answer, ANSWER_MAX)
        .ok_or(SupportError::Invalid(problems.0))
}

/// A stored message.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SupportMessage {
    pub id: i64,
    pub station_id: i64,
    pub user_id: Option<i64>,
    pub name: String,
    pub email: String,
    pub phone: Option<String>,
    pub subject: String,
    pub message: String,
    pub station_mailed: bool,
    pub answer: Option<String>,
    pub answered_by: Option<i64>,
    pub answered_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, station_id, user_id, name, email, phone, subject, message, \
                       station_mailed, answer, answered_by, answered_at, created_at";

/// Stores a message of `station_id` from `user_id` (the session's member) or a visitor.
pub async fn insert(
    tx: &mut PgConnection,
    station_id: StationId,
    user_id: Option<UserId>,
    checked: &Checked,
    station_mailed: bool,
) -> sqlx::Result<SupportMessage> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "INSERT INTO support_messages
             (station_id, user_id, name, email, phone, subject, message, station_mailed)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         RETURNING {COLUMNS}"
    )))
    .bind(station_id)
    .bind(user_id)
    .bind(&checked.name)
    .bind(&checked.email)
    .bind(&checked.phone)
    .bind(&checked.subject)
    .bind(&checked.message)
    .bind(station_mailed)
    .fetch_one(tx)
    .await
}

/// How many messages are taken within [`WINDOW_SECONDS`]: per signed-in member, per sender
/// e-mail address (from anywhere: each message mails it), and visitors' per station (its
/// inbox; members have their own allowance).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub per_member: u32,
    pub per_email: u32,
    pub per_station: u32,
}

/// The limits' rolling window: an hour.
pub const WINDOW_SECONDS: u64 = 3600;
pub const PER_MEMBER: u32 = 5;
pub const PER_EMAIL: u32 = 5;

impl Limits {
    /// The station's cap is a setting (`FILIA_SUPPORT_MAX_PER_STATION`); the senders' are
    /// fixed.
    pub fn from_config(config: &crate::Config) -> Self {
        Self {
            per_member: PER_MEMBER,
            per_email: PER_EMAIL,
            per_station: config.support_max_per_station,
        }
    }
}

/// Refuses a message once its member, its e-mail address or its station has had its
/// allowance of stored messages in the last hour: only messages that were valid and passed
/// the captcha count, so malformed posts use up nobody's allowance. The station's and the
/// address's locks line messages up, so two at once cannot both take a last place; the wait told is
/// until the oldest counted message leaves the window.
pub async fn within_limits(
    tx: &mut PgConnection,
    station_id: StationId,
    user_id: Option<UserId>,
    email: &str,
    limits: Limits,
) -> Result<(), SupportError> {
    // The station's lock, then the address's: an address's allowance counts across
    // stations, so messages to several stations for one address line up too. Always in this
    // order, so two messages never wait on each other.
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('support:' || $1::text, 0))")
        .bind(station_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('support-email:' || $1, 0))")
        .bind(email)
        .execute(&mut *tx)
        .await?;
    // Per limit: the messages counted, and the seconds until the oldest leaves the window.
    let counts: [(i64, Option<f64>); 3] = {
        let (station, station_wait, member, member_wait, mail, mail_wait): (
            i64,
            Option<f64>,
            i64,
            Option<f64>,
            i64,
            Option<f64>,
        ) = sqlx::query_as(
            "WITH recent AS (
                SELECT station_id, user_id, email,
                       extract(epoch FROM created_at + make_interval(secs => $4) - now())::float8
                           AS wait
                  FROM support_messages
                 WHERE created_at > now() - make_interval(secs => $4)
                   AND (station_id = $1 OR user_id = $2 OR email = $3)
             )
             SELECT count(*) FILTER (WHERE station_id = $1 AND user_id IS NULL),
                    min(wait) FILTER (WHERE station_id = $1 AND user_id IS NULL),
                    count(*) FILTER (WHERE user_id = $2),
                    min(wait) FILTER (WHERE user_id = $2),
                    count(*) FILTER (WHERE email = $3),
                    min(wait) FILTER (WHERE email = $3)
               FROM recent",
        )
        .bind(station_id)
        .bind(user_id)
        .bind(email)
        .bind(WINDOW_SECONDS as f64)
        .fetch_one(&mut *tx)
        .await?;
        [
            (station, station_wait),
            (member, member_wait),
            (mail, mail_wait),
        ]
    };
    // The station's cap is for visitors: a signed-in member has an allowance of their own,
    // so visitors filling the inbox never shut its members out.
    let per_station = if user_id.is_some() {
        u32::MAX
    } else {
        limits.per_station
    };
    let maxima = [per_station, limits.per_member, limits.per_email];
    let waits = counts
        .iter()
        .zip(maxima)
        .filter(|((count, _), max)| *count >= i64::from(*max))
        .map(|((_, wait), _)| wait.unwrap_or(WINDOW_SECONDS as f64));
    match waits.reduce(f64::max) {
        None => Ok(()),
        Some(wait) => {
            tracing::info!(
                station_id = station_id.0,
                "refused: too many support messages for a sender or a station"
            );
            Err(SupportError::TooMany {
                retry_after: (wait.ceil() as u64).clamp(1, WINDOW_SECONDS),
            })
        }
    }
}

/// The console's filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    Open,
    Answered,
}

/// A message as the console lists it, with who answered it by name.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ConsoleMessage {
    #[sqlx(flatten)]
    pub message: SupportMessage,
    pub answered_by_name: Option<String>,
}

/// A page of a station's messages, newest first, and how many match.
pub async fn page(
    conn: &mut PgConnection,
    station_id: i64,
    filter: Option<Filter>,
    page: i64,
    per_page: i64,
) -> sqlx::Result<Listed<ConsoleMessage>> {
    let answered = filter.map(|filter| filter == Filter::Answered);
    let condition =
        "m.station_id = $1 AND ($2::boolean IS NULL OR (m.answered_at IS NOT NULL) = $2)";
    let rows = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT m.id, m.station_id, m.user_id, m.name, m.email, m.phone, m.subject, m.message,
                m.station_mailed, m.answer, m.answered_by, m.answered_at, m.created_at,
                s.name AS answered_by_name
           FROM support_messages m
           LEFT JOIN users s ON s.id = m.answered_by
          WHERE {condition}
          ORDER BY m.id DESC
          LIMIT $3 OFFSET $4"
    )))
    .bind(station_id)
    .bind(answered)
    .bind(per_page)
    .bind((page - 1) * per_page);
    let total = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT count(*) FROM support_messages m WHERE {condition}"
    )))
    .bind(station_id)
    .bind(answered);
    paging::listed(conn, rows, total).await
}

/// One message as the console shows it, within `station_id` when the grant has one.
pub async fn console_one(
    conn: &mut PgConnection,
    id: i64,
    station_id: Option<i64>,
) -> sqlx::Result<Option<ConsoleMessage>> {
    sqlx::query_as(
        "SELECT m.id, m.station_id, m.user_id, m.name, m.email, m.phone, m.subject, m.message,
                m.station_mailed, m.answer, m.answered_by, m.answered_at, m.created_at,
                s.name AS answered_by_name
           FROM support_messages m
           LEFT JOIN users s ON s.id = m.answered_by
          WHERE m.id = $1 AND ($2::bigint IS NULL OR m.station_id = $2)",
    )
    .bind(id)
    .bind(station_id)
    .fetch_optional(conn)
    .await
}

/// Records staff's answer, once: a message already answered is refused, so two staff
/// answering at once send one answer. Another station's message reads as absent.
pub async fn answer(
    tx: &mut PgConnection,
    id: i64,
    station_id: Option<i64>,
    staff_id: i64,
    answer: &str,
) -> Result<SupportMessage, SupportError> {
    let current: SupportMessage = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM support_messages
          WHERE id = $1 AND ($2::bigint IS NULL OR station_id = $2)
          FOR UPDATE"
    )))
    .bind(id)
    .bind(station_id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(SupportError::NotFound)?;
    if current.answered_at.is_some() {
        return Err(SupportError::AlreadyAnswered);
    }
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE support_messages
            SET answer = $2, answered_by = $3, answered_at = now()
          WHERE id = $1
          RETURNING {COLUMNS}"
    )))
    .bind(current.id)
    .bind(answer)
    .bind(staff_id)
    .fetch_one(&mut *tx)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form<'a>() -> Form<'a> {
        Form {
            name: Some("  Ana   Souza "),
            email: Some(" Ana@Example.com "),
            phone: Some("(11) 98765-4321"),
            subject: Some("Cartão"),
            message: Some("Não recebi meu cartão."),
        }
    }

    #[test]
    fn a_good_form_is_trimmed_and_normalised() {
        let checked = check(&form()).expect("valid");
        assert_eq!(checked.name, "Ana Souza");
        assert_eq!(checked.email, "ana@example.com");
        assert_eq!(checked.phone.as_deref(), Some("11987654321"));
    }

    #[test]
    fn each_field_says_what_is_wrong() {
        let long_subject = "a".repeat(201);
        let long_message = "b".repeat(601);
        let bad = Form {
            name: Some("  "),
            email: Some("ana@"),
            phone: Some("123"),
            subject: Some(&long_subject),
            message: Some(&long_message),
        };
        let Err(SupportError::Invalid(messages)) = check(&bad) else {
            panic!("refused");
        };
        assert_eq!(
            messages,
            [
                "name: Esse campo é obrigatório",
                "email: Email inválido",
                "phone: Telefone inválido",
                "subject: Esse campo deve possuir no máximo 200 caracteres",
                "message: Esse campo deve possuir no máximo 600 caracteres",
            ]
        );
    }

    #[test]
    fn the_phone_is_optional_and_limits_count_characters() {
        let message = "ç".repeat(600);
        let checked = check(&Form {
            phone: None,
            message: Some(&message),
            ..form()
        })
        .expect("valid");
        assert_eq!(checked.phone, None);
    }
}
