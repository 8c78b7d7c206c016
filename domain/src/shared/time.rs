//! Brazilian civil time: the programmes' days, windows and ages are read in Brasília time.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveTime, Utc};

/// Brasília time, UTC-3: Brazil has kept no daylight saving time since 2019.
pub fn brasilia() -> FixedOffset {
    // -3 h is always a valid offset; `east_opt` only refuses a day or more.
    FixedOffset::west_opt(3 * 3600).unwrap_or_else(|| FixedOffset::east_opt(0).expect("UTC"))
}

/// Today's date in Brasília: what a member's age or a birth date in the future is judged
/// against, whatever the server's own time zone (UTC in production) says.
pub fn today_in_brasilia() -> NaiveDate {
    Utc::now().with_timezone(&brasilia()).date_naive()
}

/// Midnight of `now`'s day in Brasília time, when the members' and stations' daily counts
/// start again.
pub fn brasilia_day_start(now: DateTime<Utc>) -> DateTime<Utc> {
    now.with_timezone(&brasilia())
        .date_naive()
        .and_time(NaiveTime::MIN)
        .and_local_timezone(brasilia())
        .single()
        .map_or(now, |start| start.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use super::*;

    #[test]
    fn brasilia_is_three_hours_behind_utc() {
        let late_evening = Utc
            .with_ymd_and_hms(2026, 11, 24, 23, 0, 0)
            .single()
            .expect("a time");
        let at_brasilia = late_evening.with_timezone(&brasilia());
        assert_eq!(
            at_brasilia.date_naive(),
            NaiveDate::from_ymd_opt(2026, 11, 24).expect("a date")
        );
        let after_midnight_utc = Utc
            .with_ymd_and_hms(2026, 11, 25, 2, 59, 0)
            .single()
            .expect("a time");
        assert_eq!(
            after_midnight_utc.with_timezone(&brasilia()).date_naive(),
            NaiveDate::from_ymd_opt(2026, 11, 24).expect("a date"),
            "02:59 UTC is still the previous day in Brasília"
        );
    }

    #[test]
    fn a_brasilia_day_starts_at_three_utc() {
        let utc = |day, hour, minute| {
            Utc.with_ymd_and_hms(2026, 11, day, hour, minute, 0)
                .single()
                .expect("a time")
        };
        assert_eq!(brasilia_day_start(utc(21, 2, 59)), utc(20, 3, 0));
        assert_eq!(brasilia_day_start(utc(21, 3, 0)), utc(21, 3, 0));
        assert_eq!(brasilia_day_start(utc(21, 23, 30)), utc(21, 3, 0));
    }
}
