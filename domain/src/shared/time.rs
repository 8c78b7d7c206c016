//! Civil time. A station's days, participation windows, daily caps, release schedule and its
//! members' ages are read in the station's own time zone (`stations.time_zone`, an IANA name;
//! America/Sao_Paulo unless the programme says otherwise), never in the server's (UTC in
//! production): Brazil spans four offsets, from Noronha (UTC-2) to Rio Branco (UTC-5).

use chrono::{DateTime, NaiveDate, NaiveTime, TimeZone, Utc};
use sqlx::PgExecutor;

pub use chrono_tz::Tz;

/// Brasília time: the zone of a station that names none, and of most of Brazil's members.
pub const DEFAULT_ZONE: Tz = chrono_tz::America::Sao_Paulo;

/// The station's time zone. A station that does not exist (or a name the database would
/// not hold: its check refuses unknown zones) reads in [`DEFAULT_ZONE`].
pub async fn station_zone(db: impl PgExecutor<'_>, station_id: i64) -> sqlx::Result<Tz> {
    let name: Option<String> = sqlx::query_scalar("SELECT time_zone FROM stations WHERE id = $1")
        .bind(station_id)
        .fetch_optional(db)
        .await?;
    Ok(name.as_deref().map_or(DEFAULT_ZONE, zone_named))
}

/// The time zone of the member's station.
pub async fn member_zone(db: impl PgExecutor<'_>, user_id: i64) -> sqlx::Result<Tz> {
    let name: Option<String> = sqlx::query_scalar(
        "SELECT s.time_zone FROM users u JOIN stations s ON s.id = u.station_id WHERE u.id = $1",
    )
    .bind(user_id)
    .fetch_optional(db)
    .await?;
    Ok(name.as_deref().map_or(DEFAULT_ZONE, zone_named))
}

/// The zone of an IANA name, or [`DEFAULT_ZONE`] for a name chrono-tz does not know.
pub fn zone_named(name: &str) -> Tz {
    name.parse().unwrap_or_else(|_| {
        tracing::warn!(
            zone = name,
            "unknown time zone; reading it as America/Sao_Paulo"
        );
        DEFAULT_ZONE
    })
}

/// Today's date in `zone`: what a member's age or a birth date in the future is judged
/// against.
pub fn today_in(zone: Tz) -> NaiveDate {
    Utc::now().with_timezone(&zone).date_naive()
}

/// The start of `now`'s day in `zone`, when the members' and stations' daily counts start
/// again. Where the day began with a daylight-saving jump (Brazil's clocks went from 00:00
/// to 01:00 until 2019), the day starts at its first instant that exists.
pub fn day_start(zone: Tz, now: DateTime<Utc>) -> DateTime<Utc> {
    let date = now.with_timezone(&zone).date_naive();
    (0..=2)
        .find_map(|hour| {
            let time = NaiveTime::from_hms_opt(hour, 0, 0)?;
            zone.from_local_datetime(&date.and_time(time)).earliest()
        })
        .map_or(now, |start| start.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use super::*;

    fn utc(year: i32, month: u32, day: u32, hour: u32, minute: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(year, month, day, hour, minute, 0)
            .single()
            .expect("a time")
    }

    fn date(year: i32, month: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(year, month, day).expect("a date")
    }

    #[test]
    fn brasilia_is_three_hours_behind_utc() {
        let late_evening = utc(2026, 11, 24, 23, 0);
        assert_eq!(
            late_evening.with_timezone(&DEFAULT_ZONE).date_naive(),
            date(2026, 11, 24)
        );
        assert_eq!(
            utc(2026, 11, 25, 2, 59)
                .with_timezone(&DEFAULT_ZONE)
                .date_naive(),
            date(2026, 11, 24),
            "02:59 UTC is still the previous day in Brasília"
        );
    }

    #[test]
    fn a_day_starts_at_the_zones_midnight() {
        assert_eq!(
            day_start(DEFAULT_ZONE, utc(2026, 11, 21, 2, 59)),
            utc(2026, 11, 20, 3, 0)
        );
        assert_eq!(
            day_start(DEFAULT_ZONE, utc(2026, 11, 21, 3, 0)),
            utc(2026, 11, 21, 3, 0)
        );
        assert_eq!(
            day_start(DEFAULT_ZONE, utc(2026, 11, 21, 23, 30)),
            utc(2026, 11, 21, 3, 0)
        );
        // Manaus is UTC-4: 03:30 UTC is still the 20th there, whose day began at 04:00 UTC.
        let manaus = chrono_tz::America::Manaus;
        assert_eq!(
            day_start(manaus, utc(2026, 11, 21, 3, 30)),
            utc(2026, 11, 20, 4, 0)
        );
        assert_eq!(
            day_start(manaus, utc(2026, 11, 21, 4, 0)),
            utc(2026, 11, 21, 4, 0)
        );
        let noronha = chrono_tz::America::Noronha;
        assert_eq!(
            day_start(noronha, utc(2026, 11, 21, 2, 0)),
            utc(2026, 11, 21, 2, 0)
        );
    }

    #[test]
    fn a_day_that_began_with_a_clock_jump_starts_at_its_first_instant() {
        // 4 November 2018: Brasília's clocks went from 00:00 (UTC-3) to 01:00 (UTC-2), so
        // that day had no midnight; it began at 01:00 local, 03:00 UTC.
        assert_eq!(
            day_start(DEFAULT_ZONE, utc(2018, 11, 4, 15, 0)),
            utc(2018, 11, 4, 3, 0)
        );
    }

    #[test]
    fn an_unknown_name_reads_in_brasilia() {
        assert_eq!(zone_named("America/Manaus"), chrono_tz::America::Manaus);
        assert_eq!(zone_named("Marte/Olympus"), DEFAULT_ZONE);
    }
}
