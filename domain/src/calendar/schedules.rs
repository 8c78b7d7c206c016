//! A station's schedules (its calendar's events): the published ones overlapping a window,
//! one by id, and making one (the back office's and the demo's). A member reads only their
//! own station's; an unpublished schedule reads as absent.

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgExecutor, PgPool};

use crate::infra::objects::Objects;
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::StationId;

/// The longest window one call may ask for: a month view's six weeks with a day on each
/// side for any time zone, and some room.
pub const MAX_WINDOW_DAYS: i64 = 62;
/// The most schedules one answer holds, earliest first, however busy the window.
pub const MAX_SCHEDULES: i64 = 500;

pub const WINDOW_DATE_INVALID: &str =
    "Data inválida no período: use o formato AAAA-MM-DDTHH:mm:ssZ.";
pub const WINDOW_BOUND_MISSING: &str = "Informe o início e o fim do período.";
pub const WINDOW_INVERTED: &str = "O fim do período deve ser posterior ao início.";
pub const WINDOW_TOO_LONG: &str = "O período pode ter no máximo 62 dias.";
pub const SCHEDULE_NOT_FOUND: &str = "Evento não encontrado.";
pub const CALENDAR_UNAVAILABLE: &str = "Calendário não disponível.";

/// One event of the calendar, as a member sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    pub id: i64,
    pub name: String,
    pub description: String,
    /// The picture's URL.
    pub image: Option<String>,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    /// What the day is ("Feriado"), when it is something.
    pub day_description: Option<String>,
}

/// The instants a calendar view covers: schedules that end at or after `from` and start at
/// or before `to` are in it (an event of several days shows on each of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    from: DateTime<Utc>,
    to: DateTime<Utc>,
}

#[derive(Debug, thiserror::Error)]
pub enum CalendarRefused {
    #[error("{WINDOW_DATE_INVALID}")]
    DateInvalid,
    #[error("{WINDOW_BOUND_MISSING}")]
    BoundMissing,
    #[error("{WINDOW_INVERTED}")]
    Inverted,
    #[error("{WINDOW_TOO_LONG}")]
    TooLong,
    #[error("{SCHEDULE_NOT_FOUND}")]
    NotFound,
    /// The station does not show a calendar (`stations.events_access` off).
    #[error("{CALENDAR_UNAVAILABLE}")]
    Unavailable,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// A bad window is a rule the caller can fix (422, the text says which); an absent, hidden
/// or another station's schedule is not there (404).
impl IntoFailure for CalendarRefused {
    fn into_failure(self) -> Failure {
        match self {
            Self::DateInvalid | Self::BoundMissing | Self::Inverted | Self::TooLong => {
                Failure::invalid(self.to_string())
            }
            Self::NotFound | Self::Unavailable => Failure::NotFound(self.to_string()),
            Self::Db(err) => err.into_failure(),
        }
    }
}

impl Window {
    /// The window two RFC 3339 instants give. Without either, the next
    /// [`MAX_WINDOW_DAYS`] from `now` (the spec's call names no window: what is coming).
    pub fn parse(
        from: Option<&str>,
        to: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Self, CalendarRefused> {
        let instant = |text: &str| {
            DateTime::parse_from_rfc3339(text.trim())
                .map(|at| at.with_timezone(&Utc))
                .map_err(|_| CalendarRefused::DateInvalid)
        };
        match (from, to) {
            (None, None) => Ok(Self {
                from: now,
                to: now + Duration::days(MAX_WINDOW_DAYS),
            }),
            (Some(from), Some(to)) => Self::new(instant(from)?, instant(to)?),
            _ => Err(CalendarRefused::BoundMissing),
        }
    }

    pub fn new(from: DateTime<Utc>, to: DateTime<Utc>) -> Result<Self, CalendarRefused> {
        if to <= from {
            Err(CalendarRefused::Inverted)
        } else if to - from > Duration::days(MAX_WINDOW_DAYS) {
            Err(CalendarRefused::TooLong)
        } else {
            Ok(Self { from, to })
        }
    }

    pub fn from(&self) -> DateTime<Utc> {
        self.from
    }

    pub fn to(&self) -> DateTime<Utc> {
        self.to
    }
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    name: String,
    description: String,
    image_key: Option<String>,
    starts_at: DateTime<Utc>,
    ends_at: DateTime<Utc>,
    day_description: Option<String>,
}

impl From<Row> for Schedule {
    fn from(row: Row) -> Self {
        Self {
            id: row.id,
            name: row.name,
            description: row.description,
            image: row.image_key.as_deref().map(Objects::url),
            starts_at: row.starts_at,
            ends_at: row.ends_at,
            day_description: row.day_description,
        }
    }
}

/// Refuses a station that does not show a calendar, as its menu does not.
async fn shows_calendar(db: &PgPool, station: StationId) -> Result<(), CalendarRefused> {
    let shown: Option<bool> =
        sqlx::query_scalar("SELECT events_access FROM stations WHERE id = $1")
            .bind(station.0)
            .fetch_optional(db)
            .await?;
    match shown {
        Some(true) => Ok(()),
        _ => Err(CalendarRefused::Unavailable),
    }
}

/// The station's published schedules overlapping `window`, earliest first (at most
/// [`MAX_SCHEDULES`]).
pub async fn in_window(
    db: &PgPool,
    station: StationId,
    window: Window,
) -> Result<Vec<Schedule>, CalendarRefused> {
    shows_calendar(db, station).await?;
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT id, name, description, image_key, starts_at, ends_at, day_description
           FROM schedules
          WHERE station_id = $1 AND published AND starts_at <= $3 AND ends_at >= $2
          ORDER BY starts_at, ends_at, id
          LIMIT $4",
    )
    .bind(station.0)
    .bind(window.from)
    .bind(window.to)
    .bind(MAX_SCHEDULES)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(Schedule::from).collect())
}

/// One of the station's published schedules; another station's or a hidden one is
/// [`CalendarRefused::NotFound`].
pub async fn find(db: &PgPool, station: StationId, id: i64) -> Result<Schedule, CalendarRefused> {
    shows_calendar(db, station).await?;
    let row: Option<Row> = sqlx::query_as(
        "SELECT id, name, description, image_key, starts_at, ends_at, day_description
           FROM schedules
          WHERE id = $1 AND station_id = $2 AND published",
    )
    .bind(id)
    .bind(station.0)
    .fetch_optional(db)
    .await?;
    row.map(Schedule::from).ok_or(CalendarRefused::NotFound)
}

/// A schedule to make.
#[derive(Debug, Clone)]
pub struct NewSchedule {
    pub station_id: i64,
    pub name: String,
    pub description: String,
    pub image_key: Option<String>,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub day_description: Option<String>,
    pub published: bool,
}

/// Makes a schedule; answers its id.
pub async fn create(db: impl PgExecutor<'_>, schedule: &NewSchedule) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO schedules (station_id, name, description, image_key, starts_at, ends_at,
                                day_description, published)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         RETURNING id",
    )
    .bind(schedule.station_id)
    .bind(&schedule.name)
    .bind(&schedule.description)
    .bind(&schedule.image_key)
    .bind(schedule.starts_at)
    .bind(schedule.ends_at)
    .bind(&schedule.day_description)
    .bind(schedule.published)
    .fetch_one(db)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(day: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, day, 0, 0, 0)
            .single()
            .expect("a date")
    }

    #[test]
    fn a_window_reads_two_instants_with_their_offsets() {
        let window = Window::parse(
            Some("2026-12-01T00:00:00-03:00"),
            Some("2026-12-31T00:00:00Z"),
            at(1),
        )
        .expect("window");
        assert_eq!(
            window.from(),
            Utc.with_ymd_and_hms(2026, 12, 1, 3, 0, 0)
                .single()
                .expect("a date")
        );
        assert_eq!(window.to(), at(31));
    }

    #[test]
    fn no_window_is_what_is_coming() {
        let window = Window::parse(None, None, at(1)).expect("window");
        assert_eq!(window.from(), at(1));
        assert_eq!(window.to(), at(1) + Duration::days(MAX_WINDOW_DAYS));
    }

    #[test]
    fn bad_windows_are_refused_with_their_texts() {
        let refused = |from: Option<&str>, to: Option<&str>| {
            Window::parse(from, to, at(1))
                .expect_err("refused")
                .to_string()
        };
        assert_eq!(
            refused(Some("01/12/2026"), Some("2026-12-31T00:00:00Z")),
            WINDOW_DATE_INVALID
        );
        assert_eq!(
            refused(Some("2026-12-01T00:00:00Z"), None),
            WINDOW_BOUND_MISSING
        );
        assert_eq!(
            refused(Some("2026-12-10T00:00:00Z"), Some("2026-12-01T00:00:00Z")),
            WINDOW_INVERTED
        );
        assert_eq!(
            refused(Some("2026-12-01T00:00:00Z"), Some("2027-02-02T00:00:01Z")),
            WINDOW_TOO_LONG
        );
        assert!(Window::new(at(1), at(1) + Duration::days(MAX_WINDOW_DAYS)).is_ok());
    }
}
