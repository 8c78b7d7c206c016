//! Releasing pending lots whose holding period has ended, one bounded batch per
//! transaction. A lot moves from `pending` to `available` only inside a batch, and a batch
//! takes only lots still `pending`, so a release that crashed and ran again releases
//! each lot once.
//!
//! Lock order (see ledger): a batch locks the lots it releases, then their wallets (and
//! the available lots of a wallet whose debts the release pays). Batches
//! of one station are serialised by an advisory lock, so two releases of the same station
//! (the schedule and a staff request) cannot deadlock on each other's wallets.
//!
//! Also here: each station's release schedule ([`parse_schedule`]), read in its time zone,
//! so the dispatcher and the console agree on what an expression means.

use std::str::FromStr;

use chrono::{DateTime, Duration, SubsecRound, Utc};
use sqlx::{PgConnection, PgExecutor};

use super::ledger::{self, LedgerError};
use crate::shared::ids::UserId;
use crate::shared::time::Tz;

/// A station without a `cashback_schedules` row releases at the top of every hour.
pub const DEFAULT_SCHEDULE: &str = "0 0 * * * *";

/// What one batch released.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReleasedBatch {
    pub lots: i64,
    pub amount: i64,
}

/// Releases up to `limit` of the station's pending lots due at `cutoff`, oldest first,
/// on the caller's transaction, and records the batch under `job_id`. Commit the
/// transaction to make the batch count; zero lots means nothing is left to release.
pub async fn release_batch(
    tx: &mut PgConnection,
    station_id: i64,
    cutoff: DateTime<Utc>,
    limit: i64,
    job_id: &str,
) -> sqlx::Result<ReleasedBatch> {
    // Its own statement, before the release: the release's snapshot is then taken after
    // the lock is held, so it sees every batch committed by a release that held it before.
    // One bigint key per station, namespaced by its text, so any station id has its own.
    sqlx::query(
        "SELECT pg_advisory_xact_lock(hashtextextended('cashback-release:' || $1::text, 0))",
    )
    .bind(station_id)
    .execute(&mut *tx)
    .await?;
    let (lots, amount, owing): (i64, i64, Vec<i64>) = sqlx::query_as(
        "WITH due AS (
             SELECT id FROM credit_lots
             WHERE station_id = $1 AND state = 'pending' AND available_at <= $2
             ORDER BY available_at, id
             LIMIT $3
             FOR UPDATE SKIP LOCKED
         ),
         -- By `id = ANY(array)`, not a join with `due`: the planner joined the whole
         -- primary key index to the batch (a merge join), a scan that grows with the
         -- table; the array makes it look up exactly the batch's lots (ops/bench/cashback).
         released AS (
             UPDATE credit_lots l
             SET state = 'available', released_at = now()
             WHERE l.id = ANY (ARRAY(SELECT id FROM due))
             RETURNING l.user_id, l.amount
         ),
         per_wallet AS (
             SELECT user_id, sum(amount)::bigint AS amount FROM released GROUP BY user_id
         ),
         credited AS (
             UPDATE wallets w
             SET balance = w.balance + p.amount, pending = w.pending - p.amount,
                 updated_at = now()
             FROM per_wallet p
             WHERE w.user_id = p.user_id
             RETURNING w.user_id, w.debt
         ),
         batch AS (
             INSERT INTO cashback_release_batches (job_id, station_id, lots, amount)
             SELECT $4, $1, count(*), sum(amount) FROM released HAVING count(*) > 0
             RETURNING lots, amount
         )
         SELECT coalesce((SELECT lots FROM batch), 0)::bigint,
                coalesce((SELECT amount FROM batch), 0)::bigint,
                ARRAY(SELECT user_id FROM credited WHERE debt > 0 ORDER BY user_id)",
    )
    .bind(station_id)
    .bind(cutoff)
    .bind(limit)
    .bind(job_id)
    .fetch_one(&mut *tx)
    .await?;
    // What was released pays the members' debts first, in the same transaction; the
    // update above holds those wallets (lot, wallet, then the wallet's available lots).
    for user_id in owing {
        ledger::settle_debts(&mut *tx, UserId(user_id))
            .await
            .map_err(|err| match err {
                LedgerError::Db(err) => err,
                other => sqlx::Error::Protocol(other.to_string()),
            })?;
    }
    Ok(ReleasedBatch { lots, amount })
}

/// The station's pending lots due at `cutoff`: how many, and their amount.
pub async fn count_due(
    db: impl PgExecutor<'_>,
    station_id: i64,
    cutoff: DateTime<Utc>,
) -> sqlx::Result<ReleasedBatch> {
    let (lots, amount): (i64, i64) = sqlx::query_as(
        "SELECT count(*), coalesce(sum(amount), 0)::bigint FROM credit_lots
         WHERE station_id = $1 AND state = 'pending' AND available_at <= $2",
    )
    .bind(station_id)
    .bind(cutoff)
    .fetch_one(db)
    .await?;
    Ok(ReleasedBatch { lots, amount })
}

/// Whether the station has any pending lot due at `cutoff` (one probe of the due index).
pub async fn has_due(
    db: impl PgExecutor<'_>,
    station_id: i64,
    cutoff: DateTime<Utc>,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM credit_lots
                        WHERE station_id = $1 AND state = 'pending' AND available_at <= $2)",
    )
    .bind(station_id)
    .bind(cutoff)
    .fetch_one(db)
    .await
}

/// Everything a release job released, over all its attempts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JobSummary {
    pub lots: i64,
    pub amount: i64,
    pub batches: i64,
}

pub async fn job_summary(db: impl PgExecutor<'_>, job_id: &str) -> sqlx::Result<JobSummary> {
    let (lots, amount, batches): (i64, i64, i64) = sqlx::query_as(
        "SELECT coalesce(sum(lots), 0)::bigint, coalesce(sum(amount), 0)::bigint, count(*)
         FROM cashback_release_batches WHERE job_id = $1",
    )
    .bind(job_id)
    .fetch_one(db)
    .await?;
    Ok(JobSummary {
        lots,
        amount,
        batches,
    })
}

/// A station's release schedule: a cron expression with seconds
/// (`segundo minuto hora dia mês dia-da-semana`, optional year), read in the station's time
/// zone: "0 0 6 * * *" is 06:00 in Manaus for a station in Manaus.
#[derive(Debug, Clone)]
pub struct ReleaseSchedule {
    cron: cron::Schedule,
    zone: Tz,
}

/// Why an expression is not a schedule; the text is for staff, in Portuguese.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Agenda de liberação inválida: {reason}")]
pub struct InvalidSchedule {
    pub reason: String,
}

/// Reads a stored or typed schedule expression. Refuses what cron cannot read and an
/// expression that never fires again (a past year, 31 February).
pub fn parse_schedule(expression: &str, zone: Tz) -> Result<ReleaseSchedule, InvalidSchedule> {
    let expression = expression.trim();
    let fields = expression.split_whitespace().count();
    if !expression.starts_with('@') && !(6..=7).contains(&fields) {
        return Err(InvalidSchedule {
            reason: format!(
                "use seis campos, segundo minuto hora dia mês dia-da-semana \
                 (por exemplo \"{DEFAULT_SCHEDULE}\", a cada hora); esta tem {fields}."
            ),
        });
    }
    let cron = cron::Schedule::from_str(expression).map_err(|err| InvalidSchedule {
        reason: format!("expressão não reconhecida ({err})."),
    })?;
    let schedule = ReleaseSchedule { cron, zone };
    if schedule.next_tick(Utc::now()).is_none() {
        return Err(InvalidSchedule {
            reason: "a expressão nunca dispara.".into(),
        });
    }
    Ok(schedule)
}

impl ReleaseSchedule {
    /// The expression as written.
    pub fn expression(&self) -> &str {
        self.cron.source()
    }

    /// The latest tick at or before `now`; `None` when the schedule never fired.
    pub fn latest_tick(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        // cron searches strictly before a whole second, so start one second past `now`'s
        // own whole second: a tick at exactly `now` (or earlier in its second) counts.
        let start = now.with_timezone(&self.zone).trunc_subsecs(0) + Duration::seconds(1);
        self.cron
            .after(&start)
            .next_back()
            .map(|tick| tick.with_timezone(&Utc))
    }

    /// The first tick strictly after `after`; `None` when it never fires again.
    pub fn next_tick(&self, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.cron
            .after(&after.with_timezone(&self.zone))
            .next()
            .map(|tick| tick.with_timezone(&Utc))
    }
}

/// A station's release schedule as the dispatcher reads it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct StationSchedule {
    pub station_id: i64,
    pub expression: String,
    pub enabled: bool,
    /// The station's IANA time zone, which the expression is read in.
    pub time_zone: String,
    /// The latest tick already handed to the queue.
    pub last_tick: Option<DateTime<Utc>>,
}

/// Every station's release schedule, in station order. Stations without a row take the
/// default schedule, enabled.
pub async fn station_schedules(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<StationSchedule>> {
    sqlx::query_as(
        "SELECT s.id AS station_id, coalesce(c.expression, $1) AS expression,
                coalesce(c.enabled, true) AS enabled, s.time_zone, c.last_tick
         FROM stations s LEFT JOIN cashback_schedules c ON c.station_id = s.id
         ORDER BY s.id",
    )
    .bind(DEFAULT_SCHEDULE)
    .fetch_all(db)
    .await
}

/// What recording a station's schedule tick found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tick {
    /// An overlapping dispatch recorded this tick (or a later one) first.
    AlreadyRecorded,
    /// Recorded; nothing is due or expiring now, so no release is needed.
    Idle,
    /// Recorded; the station has lots to release or to expire: the caller enqueues its
    /// release on this same transaction.
    Due,
}

/// Records `tick` as the station's latest dispatched tick and tells whether a release is
/// needed, on the caller's transaction. The tick is recorded either way: with nothing due
/// now, lots falling due later go out with a later tick's release (a release job takes
/// what is due when its attempt starts, not at the tick).
pub async fn record_tick(
    conn: &mut PgConnection,
    station_id: i64,
    tick: DateTime<Utc>,
    now: DateTime<Utc>,
) -> sqlx::Result<Tick> {
    // The row lock serialises dispatches that overlap: the one that finds the tick
    // already recorded does nothing.
    let advanced: Option<i64> = sqlx::query_scalar(
        "INSERT INTO cashback_schedules (station_id, last_tick) VALUES ($1, $2)
         ON CONFLICT (station_id) DO UPDATE SET last_tick = EXCLUDED.last_tick
         WHERE cashback_schedules.last_tick IS NULL
            OR cashback_schedules.last_tick < EXCLUDED.last_tick
         RETURNING station_id",
    )
    .bind(station_id)
    .bind(tick)
    .fetch_optional(&mut *conn)
    .await?;
    if advanced.is_none() {
        return Ok(Tick::AlreadyRecorded);
    }
    if has_due(&mut *conn, station_id, now).await?
        || super::ledger::has_expiring(&mut *conn, station_id, now).await?
    {
        Ok(Tick::Due)
    } else {
        Ok(Tick::Idle)
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;
    use crate::shared::time::DEFAULT_ZONE as SAO_PAULO;

    fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, s)
            .single()
            .expect("valid")
    }

    #[test]
    fn the_default_schedule_ticks_every_hour() {
        let hourly = parse_schedule(DEFAULT_SCHEDULE, SAO_PAULO).expect("valid");
        let now = utc(2026, 11, 21, 13, 25, 7);
        assert_eq!(hourly.latest_tick(now), Some(utc(2026, 11, 21, 13, 0, 0)));
        assert_eq!(hourly.next_tick(now), Some(utc(2026, 11, 21, 14, 0, 0)));
    }

    #[test]
    fn a_tick_at_exactly_now_is_the_latest() {
        let hourly = parse_schedule(DEFAULT_SCHEDULE, SAO_PAULO).expect("valid");
        let top = utc(2026, 11, 21, 13, 0, 0);
        assert_eq!(hourly.latest_tick(top), Some(top));
        let just_after = top + Duration::milliseconds(999);
        assert_eq!(hourly.latest_tick(just_after), Some(top));
        let just_before = top - Duration::milliseconds(1);
        assert_eq!(
            hourly.latest_tick(just_before),
            Some(utc(2026, 11, 21, 12, 0, 0))
        );
        // Strictly after: the tick at `top` is not its own next tick.
        assert_eq!(hourly.next_tick(top), Some(utc(2026, 11, 21, 14, 0, 0)));
    }

    #[test]
    fn hours_are_read_in_the_stations_time_zone() {
        // 06:00 in Manaus (UTC-4) is 10:00 UTC; the same expression in Brasília is 09:00.
        let manaus = parse_schedule("0 0 6 * * *", chrono_tz::America::Manaus).expect("valid");
        let now = utc(2026, 1, 15, 9, 30, 0); // 06:30 in Brasília, 05:30 in Manaus
        assert_eq!(manaus.latest_tick(now), Some(utc(2026, 1, 14, 10, 0, 0)));
        assert_eq!(manaus.next_tick(now), Some(utc(2026, 1, 15, 10, 0, 0)));
        let brasilia = parse_schedule("0 0 6 * * *", SAO_PAULO).expect("valid");
        assert_eq!(brasilia.latest_tick(now), Some(utc(2026, 1, 15, 9, 0, 0)));
    }

    #[test]
    fn hours_are_read_in_brasilia_time() {
        // 06:00 in Brasília is 09:00 UTC, all year round.
        let daily = parse_schedule("0 0 6 * * *", SAO_PAULO).expect("valid");
        let now = utc(2026, 1, 15, 8, 59, 59); // 05:59:59 in Brasília
        assert_eq!(daily.latest_tick(now), Some(utc(2026, 1, 14, 9, 0, 0)));
        assert_eq!(daily.next_tick(now), Some(utc(2026, 1, 15, 9, 0, 0)));
        let july = utc(2026, 7, 15, 9, 0, 0);
        assert_eq!(daily.latest_tick(july), Some(july));
        // Weekdays too: Monday 01:00 in Brasília is Monday 04:00 UTC; Sunday 23:00 in
        // Brasília is already Monday in UTC and must not count as Monday.
        let mondays = parse_schedule("0 0 1 * * Mon", SAO_PAULO).expect("valid");
        let sunday_night = utc(2026, 11, 23, 2, 0, 0); // Sun 23:00 in Brasília
        assert_eq!(
            mondays.latest_tick(sunday_night),
            Some(utc(2026, 11, 16, 4, 0, 0))
        );
        assert_eq!(
            mondays.next_tick(sunday_night),
            Some(utc(2026, 11, 23, 4, 0, 0))
        );
    }

    #[test]
    fn bad_expressions_are_refused_in_portuguese() {
        for bad in [
            "",
            "0 * * * *",
            "a b c d e f",
            "0 0 25 * * *",
            "0 0 0 31 2 *",
        ] {
            let err = parse_schedule(bad, SAO_PAULO).expect_err(bad);
            assert!(
                err.to_string()
                    .starts_with("Agenda de liberação inválida: "),
                "{bad}: {err}"
            );
        }
        assert!(
            parse_schedule("0 0 0 1 1 * 2020", SAO_PAULO).is_err(),
            "only past years"
        );
        assert!(parse_schedule(" 0 30 9,18 * * Mon-Fri ", SAO_PAULO).is_ok());
    }

    #[test]
    fn a_schedule_that_never_fired_has_no_latest_tick() {
        let future = parse_schedule("0 0 0 1 1 * 2099", SAO_PAULO).expect("fires in 2099");
        assert_eq!(future.latest_tick(utc(2026, 11, 21, 0, 0, 0)), None);
    }
}
