//! Taking part in an activity: [`admit`] holds the rules every participation call checks
//! (docs/api-activities.md, "Participation rules"), under the member's row lock so two
//! requests at once cannot both pass the limit; [`take_part`] records the participations
//! that are one act (a raw content view, an agreement) through them.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::ActivityType;
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{ActivityId, StationId, UserId};
use crate::shared::time::{Tz, station_zone};

pub const UNAVAILABLE: &str = "Erro! Esta atividade não está disponível.";
pub const DATE_MISSING: &str = "Houve um problema com a data de publicação desta atividade.";
pub const LIMIT_REACHED: &str =
    "Olá, você já ultrapassou o limite de participações nessa atividade!";

/// Why a participation is refused, in the order the rules are checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// Unknown, another station's, unpublished (or not of the call's type).
    Unavailable,
    DateMissing,
    OutsideWindow {
        start: DateTime<Utc>,
        end: DateTime<Utc>,
        /// The station's: the member reads the window on its clock.
        zone: Tz,
    },
    LimitReached,
    /// The names of the prerequisites not done yet, in order.
    PrerequisitesMissing(Vec<String>),
}

impl Refused {
    /// The spec's text, window dates in the station's time zone.
    pub fn message(&self) -> String {
        match self {
            Self::Unavailable => UNAVAILABLE.into(),
            Self::DateMissing => DATE_MISSING.into(),
            Self::OutsideWindow { start, end, zone } => {
                let local = |at: &DateTime<Utc>| {
                    at.with_timezone(zone).format("%d/%m/%Y %H:%M").to_string()
                };
                format!(
                    "Esta atividade está disponível de {} até {}.",
                    local(start),
                    local(end)
                )
            }
            Self::LimitReached => LIMIT_REACHED.into(),
            Self::PrerequisitesMissing(names) => format!("Complete antes: {}.", names.join(", ")),
        }
    }
}

/// An unavailable activity reads as absent (404); any other rule is the member's to meet
/// (422).
impl IntoFailure for Refused {
    fn into_failure(self) -> Failure {
        match self {
            Self::Unavailable => Failure::NotFound(self.message()),
            other => Failure::invalid(other.message()),
        }
    }
}

/// Why a participation call did not go through: the rules refused it, or something broke.
#[derive(Debug, thiserror::Error)]
pub enum NotTaken {
    #[error("{}", .0.message())]
    Refused(Refused),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<Refused> for NotTaken {
    fn from(refused: Refused) -> Self {
        Self::Refused(refused)
    }
}

impl From<sqlx::Error> for NotTaken {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

/// `?` on the participation rules and on a query, for a refusal type of the area that has
/// `Refused(Refused)` and `Internal(anyhow::Error)` variants.
macro_rules! through_the_rules {
    ($refusal:ty) => {
        impl From<$crate::activities::participation::NotTaken> for $refusal {
            fn from(not: $crate::activities::participation::NotTaken) -> Self {
                match not {
                    $crate::activities::participation::NotTaken::Refused(refused) => {
                        Self::Refused(refused)
                    }
                    $crate::activities::participation::NotTaken::Internal(err) => {
                        Self::Internal(err)
                    }
                }
            }
        }

        impl From<sqlx::Error> for $refusal {
            fn from(err: sqlx::Error) -> Self {
                Self::Internal(err.into())
            }
        }
    };
}
pub(crate) use through_the_rules;

impl IntoFailure for NotTaken {
    fn into_failure(self) -> Failure {
        match self {
            Self::Refused(refused) => refused.into_failure(),
            Self::Internal(err) => Failure::Internal(err),
        }
    }
}

/// An activity the member was admitted to, with what they did in it so far. Only [`admit`]
/// makes one and [`record`] takes it: a participation is recorded through the rules, once
/// per admission.
#[derive(Debug, PartialEq, Eq)]
pub struct Admitted {
    action_id: ActivityId,
    station_id: StationId,
    user_id: UserId,
    points: i32,
    additional_cashback: i32,
    limit_per_user: Option<i32>,
    user_actions: i64,
    last_participation_id: Option<i64>,
    /// The member's highest attempt number in it (0 before the first).
    last_attempt: i32,
    /// Whether the participation to record earns the activity's points: without a
    /// `limitPerUser` an activity pays a member once, so a participation after one that
    /// earned does not (a quiz replayed once its key is known, a survey or a donation sent
    /// again); with a limit each participation does.
    earns: bool,
}

impl Admitted {
    /// The participation to record pays nothing (a quiz lost): no credit is queued with
    /// it, nor paid by a later claim.
    pub fn without_reward(self) -> Self {
        Self {
            earns: false,
            ..self
        }
    }

    pub fn action_id(&self) -> ActivityId {
        self.action_id
    }

    pub fn points(&self) -> i32 {
        self.points
    }

    /// `points` + `additional_cashback`, what the member is shown to earn.
    pub fn cashback(&self) -> i64 {
        i64::from(self.points) + i64::from(self.additional_cashback)
    }

    pub fn limit_per_user(&self) -> Option<i32> {
        self.limit_per_user
    }

    /// The member's participations in it before this one.
    pub fn user_actions(&self) -> i64 {
        self.user_actions
    }

    /// This admission as participation `participation_id` (`created` by this call, or an
    /// earlier one's).
    pub fn participated(&self, participation_id: i64, created: bool) -> Participated {
        Participated {
            participation_id,
            action_id: self.action_id,
            points: self.points,
            cashback: self.cashback(),
            created,
        }
    }

    /// The earlier participation a call that is one act answers again: without a
    /// `limitPerUser` the first participation is the one (a view, an acceptance, a
    /// playlist watched), and later calls find it.
    pub fn answered_before(&self) -> Option<Participated> {
        match (self.limit_per_user, self.last_participation_id) {
            (None, Some(existing)) => Some(self.participated(existing, false)),
            _ => None,
        }
    }
}

#[derive(Debug, sqlx::FromRow)]
struct ActionRow {
    points: i32,
    additional_cashback: i32,
    participation_start: Option<DateTime<Utc>>,
    participation_end: Option<DateTime<Utc>>,
    limit_per_user: Option<i32>,
}

/// Takes the member's row lock (`FOR NO KEY UPDATE`) that serialises the member's
/// participations until the caller's transaction ends; [`admit`] takes it first. A call
/// that must look at what an earlier request did before the rules (a submission sent
/// again) takes it itself.
pub async fn lock_member(conn: &mut PgConnection, user_id: UserId) -> sqlx::Result<()> {
    sqlx::query("SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE")
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Checks the rules for `user_id` (a member of `station_id`) taking part in `action_id`
/// now, through a call that takes part in activities of the `accepted` types only (another
/// type is unavailable to it, before any other rule). Locks the member's row first (`FOR
/// NO KEY UPDATE`: rows referring to the member can still be written by others), so the
/// caller's transaction holds it until it records the participation and commits:
/// concurrent calls of one member are checked one by one. Only published prerequisites
/// count: an unpublished one could never be met.
pub async fn admit(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
    action_id: ActivityId,
    accepted: &[ActivityType],
    now: DateTime<Utc>,
) -> Result<Admitted, NotTaken> {
    lock_member(&mut *conn, user_id).await?;
    let action: Option<ActionRow> = sqlx::query_as(
        "SELECT points, additional_cashback, participation_start, participation_end,
                limit_per_user
           FROM actions WHERE id = $1 AND station_id = $2 AND active AND type_id = ANY ($3)",
    )
    .bind(action_id)
    .bind(station_id)
    .bind(accepted.iter().map(|kind| kind.id()).collect::<Vec<i16>>())
    .fetch_optional(&mut *conn)
    .await?;
    let Some(action) = action else {
        return Err(Refused::Unavailable.into());
    };
    let (Some(start), Some(end)) = (action.participation_start, action.participation_end) else {
        return Err(Refused::DateMissing.into());
    };
    if now < start || now > end {
        let zone = station_zone(&mut *conn, station_id.0).await?;
        return Err(Refused::OutsideWindow { start, end, zone }.into());
    }
    let (user_actions, last_participation_id, last_attempt, earned): (i64, Option<i64>, i32, bool) =
        // Annulled participations count too: an annulment takes back what one paid, not
        // the member's turn (a quiz won by fraud, annulled, is not paid again).
        sqlx::query_as(
            "SELECT count(*), max(id) FILTER (WHERE NOT annulled),
                    coalesce(max(attempt), 0), coalesce(bool_or(earns), false)
               FROM (SELECT id, attempt, earns, false AS annulled FROM participations
                      WHERE action_id = $1 AND user_id = $2
                     UNION ALL
                     SELECT id, attempt, earns, true FROM annulled_participations
                      WHERE action_id = $1 AND user_id = $2) taken",
        )
        .bind(action_id)
        .bind(user_id)
        .fetch_one(&mut *conn)
        .await?;
    if action
        .limit_per_user
        .is_some_and(|limit| user_actions >= i64::from(limit))
    {
        return Err(Refused::LimitReached.into());
    }
    let missing: Vec<String> = sqlx::query_scalar(
        "SELECT r.name FROM action_prerequisites ap
           JOIN actions r ON r.id = ap.required_action_id AND r.active
          WHERE ap.action_id = $1
            AND NOT EXISTS (SELECT 1 FROM participations p
                             WHERE p.action_id = r.id AND p.user_id = $2)
          ORDER BY ap.position, r.id",
    )
    .bind(action_id)
    .bind(user_id)
    .fetch_all(&mut *conn)
    .await?;
    if !missing.is_empty() {
        return Err(Refused::PrerequisitesMissing(missing).into());
    }
    Ok(Admitted {
        action_id,
        station_id,
        user_id,
        points: action.points,
        additional_cashback: action.additional_cashback,
        limit_per_user: action.limit_per_user,
        user_actions,
        last_participation_id,
        last_attempt,
        earns: action.limit_per_user.is_some() || !earned,
    })
}

/// Records the participation [`admit`] let through, on the same transaction, as the
/// member's next attempt (numbered after the highest, read under the member's lock; the
/// unique attempt number is the last guard).
pub async fn record(conn: &mut PgConnection, admitted: Admitted) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO participations (station_id, user_id, action_id, attempt, earns)
         VALUES ($1, $2, $3, $4, $5)
         RETURNING id",
    )
    .bind(admitted.station_id)
    .bind(admitted.user_id)
    .bind(admitted.action_id)
    .bind(admitted.last_attempt.saturating_add(1))
    .bind(admitted.earns)
    .fetch_one(conn)
    .await
}

/// The member and station of participation `id`.
pub async fn owner(conn: &mut PgConnection, id: i64) -> sqlx::Result<(UserId, StationId)> {
    sqlx::query_as("SELECT user_id, station_id FROM participations WHERE id = $1")
        .bind(id)
        .fetch_one(conn)
        .await
}

/// A participation that is one act (a raw content view, an agreement) as recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Participated {
    pub participation_id: i64,
    pub action_id: ActivityId,
    pub points: i32,
    pub cashback: i64,
    /// False when the call found the participation an earlier one recorded.
    pub created: bool,
}

/// A member takes part in an activity of `kind` whose participation is one act: a raw
/// content view, an agreement accepted. Through [`admit`]'s rules, each
/// call is a participation up to `limitPerUser`; without a limit the first call is the one
/// participation and later calls answer it again.
pub async fn take_part(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
    action_id: ActivityId,
    kind: ActivityType,
    now: DateTime<Utc>,
) -> Result<Participated, NotTaken> {
    let admitted = admit(&mut *conn, user_id, station_id, action_id, &[kind], now).await?;
    if let Some(earlier) = admitted.answered_before() {
        return Ok(earlier);
    }
    let recorded = admitted.participated(0, true);
    let participation_id = record(&mut *conn, admitted).await?;
    Ok(Participated {
        participation_id,
        ..recorded
    })
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn refusals_say_the_spec_texts_in_the_stations_time() {
        let start = Utc
            .with_ymd_and_hms(2026, 3, 1, 12, 0, 0)
            .single()
            .expect("date");
        let end = Utc
            .with_ymd_and_hms(2026, 3, 31, 2, 59, 0)
            .single()
            .expect("date");
        let zone = crate::shared::time::DEFAULT_ZONE;
        assert_eq!(
            Refused::OutsideWindow { start, end, zone }.message(),
            "Esta atividade está disponível de 01/03/2026 09:00 até 30/03/2026 23:59."
        );
        let zone = chrono_tz::America::Manaus;
        assert_eq!(
            Refused::OutsideWindow { start, end, zone }.message(),
            "Esta atividade está disponível de 01/03/2026 08:00 até 30/03/2026 22:59."
        );
        assert_eq!(
            Refused::PrerequisitesMissing(vec!["A".into(), "B".into()]).message(),
            "Complete antes: A, B."
        );
    }
}
