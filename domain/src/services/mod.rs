//! Member services (spec 002 "Legal consultancy", "Accounting consultancy", "Health",
//! "Political"; issue 31): what a union or association offers its members beside the
//! shop. Each is a station's *desk* ([`Desk`]), turned on by a station setting
//! (`stations.legal_access` ...; elsewhere every call reads as absent), staffed by people
//! with a desk grant (`service_desk_grants`). Members request appointments
//! ([`AppointmentService`], each with its weekdays) and see the cases and appointments
//! kept under their CPF.
//!
//! The contract is docs/api-services.md; the decisions are in docs/decisions.md,
//! "Member services".

pub mod access;
pub mod allowance;
pub mod appointments;
pub mod cases;
pub mod desk;
pub mod imports;
pub mod pages;

use chrono::{Datelike, Weekday};
use serde::{Deserialize, Serialize};
use sqlx::PgExecutor;

use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::StationId;

pub const SERVICE_UNAVAILABLE: &str = "Serviço não disponível.";
/// A request's description (appointments, theme suggestions): a few paragraphs at most.
pub const DESCRIPTION_MAX: usize = 1000;
pub const DESCRIPTION_TOO_LONG: &str = "description: Máximo de 1000 caracteres";
/// What every request to a desk answers (spec 002: 'Solicitação enviada com sucesso.').
pub const REQUEST_SENT: &str = "Solicitação enviada com sucesso.";

/// A station's service desk: who attends, and the setting that turns it on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, sqlx::Type)]
#[serde(rename_all = "lowercase")]
#[sqlx(type_name = "text", rename_all = "lowercase")]
pub enum Desk {
    Legal,
    Accounting,
    Health,
    Political,
}

impl Desk {
    pub const ALL: [Self; 4] = [Self::Legal, Self::Accounting, Self::Health, Self::Political];
    /// The desks that keep appointments, offices and imported records: the political desk
    /// has themes and suggestions instead.
    pub const WITH_APPOINTMENTS: [Self; 3] = [Self::Legal, Self::Accounting, Self::Health];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Legal => "legal",
            Self::Accounting => "accounting",
            Self::Health => "health",
            Self::Political => "political",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|desk| desk.as_str() == text)
    }

    /// The desk's news tag (spec 002 section 9: legal 13752, accounting 13754, political
    /// 13755); health has none.
    pub fn news_tag(self) -> Option<i64> {
        match self {
            Self::Legal => Some(13752),
            Self::Accounting => Some(13754),
            Self::Political => Some(13755),
            Self::Health => None,
        }
    }

    /// The appointment services the desk attends (health: dental, psychologist,
    /// nutritionist; the political desk none).
    pub fn appointment_services(self) -> Vec<AppointmentService> {
        AppointmentService::ALL
            .into_iter()
            .filter(|service| service.desk() == self)
            .collect()
    }

    /// What the desk is called in e-mails and the console.
    pub fn label(self) -> &'static str {
        match self {
            Self::Legal => "Consultoria jurídica",
            Self::Accounting => "Consultoria contábil",
            Self::Health => "Saúde",
            Self::Political => "Político-sindical",
        }
    }
}

/// Refuses a station that does not offer the desk, as its menu does not show it.
pub async fn offered(
    db: impl PgExecutor<'_>,
    station: StationId,
    desk: Desk,
) -> Result<(), ServiceRefused> {
    let shown: Option<bool> = sqlx::query_scalar(
        "SELECT CASE $2 WHEN 'legal' THEN legal_access WHEN 'accounting' THEN accounting_access
                        WHEN 'health' THEN health_access WHEN 'political' THEN political_access
                END
         FROM stations WHERE id = $1",
    )
    .bind(station.0)
    .bind(desk)
    .fetch_optional(db)
    .await?
    .flatten();
    match shown {
        Some(true) => Ok(()),
        _ => Err(ServiceRefused::Unavailable),
    }
}

/// The desk's address for its requests (`service_desks.email`), when it has one.
pub async fn desk_email(
    db: impl PgExecutor<'_>,
    station: StationId,
    desk: Desk,
) -> sqlx::Result<Option<String>> {
    let email: Option<Option<String>> = sqlx::query_scalar(
        "SELECT email FROM service_desks WHERE station_id = $1 AND service = $2",
    )
    .bind(station)
    .bind(desk)
    .fetch_optional(db)
    .await?;
    Ok(email
        .flatten()
        .map(|email| email.trim().to_string())
        .filter(|email| !email.is_empty()))
}

/// What an appointment is for: the `service` of `service_appointments`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, sqlx::Type)]
#[serde(rename_all = "lowercase")]
#[sqlx(type_name = "text", rename_all = "lowercase")]
pub enum AppointmentService {
    Legal,
    Accounting,
    Dental,
    Psychologist,
    Nutritionist,
}

impl AppointmentService {
    pub const ALL: [Self; 5] = [
        Self::Legal,
        Self::Accounting,
        Self::Dental,
        Self::Psychologist,
        Self::Nutritionist,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Legal => "legal",
            Self::Accounting => "accounting",
            Self::Dental => "dental",
            Self::Psychologist => "psychologist",
            Self::Nutritionist => "nutritionist",
        }
    }

    pub fn desk(self) -> Desk {
        match self {
            Self::Legal => Desk::Legal,
            Self::Accounting => Desk::Accounting,
            Self::Dental | Self::Psychologist | Self::Nutritionist => Desk::Health,
        }
    }

    /// The weekdays a member may prefer (spec 002 "Other forms"): legal Monday to Friday,
    /// dental Monday to Saturday, psychologist Monday to Friday, nutritionist Tuesday and
    /// Thursday, accounting Thursday (the day the service runs; the spec's Wednesday
    /// preference is a day nobody attends: docs/decisions.md).
    pub fn weekdays(self) -> &'static [Weekday] {
        use Weekday::*;
        match self {
            Self::Legal | Self::Psychologist => &[Mon, Tue, Wed, Thu, Fri],
            Self::Dental => &[Mon, Tue, Wed, Thu, Fri, Sat],
            Self::Nutritionist => &[Tue, Thu],
            Self::Accounting => &[Thu],
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Legal => "Consultoria jurídica",
            Self::Accounting => "Consultoria contábil",
            Self::Dental => "Odontologia",
            Self::Psychologist => "Psicologia",
            Self::Nutritionist => "Nutrição",
        }
    }
}

/// A weekday as the forms offer it ('Segunda-feira' ... 'Sábado'), the `date` the spec's
/// requests carry.
pub fn weekday_label(day: Weekday) -> &'static str {
    match day {
        Weekday::Mon => "Segunda-feira",
        Weekday::Tue => "Terça-feira",
        Weekday::Wed => "Quarta-feira",
        Weekday::Thu => "Quinta-feira",
        Weekday::Fri => "Sexta-feira",
        Weekday::Sat => "Sábado",
        Weekday::Sun => "Domingo",
    }
}

/// Reads a form's weekday, by its label (any case, with or without the accent or the
/// '-feira'), or by its ISO number (1 Monday ... 7 Sunday).
pub fn parse_weekday(text: &str) -> Option<Weekday> {
    let text = text.trim();
    if let Ok(number) = text.parse::<u8>() {
        return (1..=7)
            .contains(&number)
            .then(|| Weekday::try_from(number - 1).ok())
            .flatten();
    }
    let folded: String = text
        .to_lowercase()
        .replace('ç', "c")
        .replace('á', "a")
        .trim_end_matches("-feira")
        .trim_end_matches(" feira")
        .to_string();
    [
        Weekday::Mon,
        Weekday::Tue,
        Weekday::Wed,
        Weekday::Thu,
        Weekday::Fri,
        Weekday::Sat,
        Weekday::Sun,
    ]
    .into_iter()
    .find(|day| {
        let label = weekday_label(*day)
            .to_lowercase()
            .replace('ç', "c")
            .replace('á', "a");
        label.trim_end_matches("-feira") == folded
    })
}

/// The ISO number stored in `service_appointments.preferred_weekday` (1 Monday).
pub fn weekday_number(day: Weekday) -> i16 {
    day.number_from_monday() as i16
}

/// Whether a date falls on one of the service's weekdays.
pub fn attends_on(service: AppointmentService, date: impl Datelike) -> bool {
    service.weekdays().contains(&date.weekday())
}

#[derive(Debug, thiserror::Error)]
pub enum ServiceRefused {
    /// The station does not offer this service.
    #[error("{SERVICE_UNAVAILABLE}")]
    Unavailable,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl IntoFailure for ServiceRefused {
    fn into_failure(self) -> Failure {
        match self {
            Self::Unavailable => Failure::NotFound(self.to_string()),
            Self::Db(err) => err.into_failure(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    #[test]
    fn weekdays_read_as_the_forms_write_them() {
        assert_eq!(parse_weekday("Segunda-feira"), Some(Weekday::Mon));
        assert_eq!(parse_weekday("terca-feira"), Some(Weekday::Tue));
        assert_eq!(parse_weekday("Terça"), Some(Weekday::Tue));
        assert_eq!(parse_weekday("Sábado"), Some(Weekday::Sat));
        assert_eq!(parse_weekday("4"), Some(Weekday::Thu));
        assert_eq!(parse_weekday("8"), None);
        assert_eq!(parse_weekday("0"), None);
        assert_eq!(parse_weekday("Feriado"), None);
        assert_eq!(weekday_number(Weekday::Mon), 1);
    }

    #[test]
    fn each_service_attends_on_its_own_days() {
        let saturday = NaiveDate::from_ymd_opt(2026, 11, 28).expect("a date");
        let thursday = NaiveDate::from_ymd_opt(2026, 11, 26).expect("a date");
        assert!(attends_on(AppointmentService::Dental, saturday));
        assert!(!attends_on(AppointmentService::Psychologist, saturday));
        assert!(attends_on(AppointmentService::Nutritionist, thursday));
        assert!(attends_on(AppointmentService::Accounting, thursday));
        assert!(!attends_on(AppointmentService::Accounting, saturday));
        assert_eq!(AppointmentService::Dental.desk(), Desk::Health);
        assert_eq!(Desk::parse("political"), Some(Desk::Political));
        assert_eq!(Desk::parse("shop"), None);
    }
}
