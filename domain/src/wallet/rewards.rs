//! What members earn for the events that exist so far: the sign-up reward and
//! member-get-member when an account is confirmed, the share activity per new visitor, and
//! completed participations. These functions only decide what is owed (and mark what they
//! consume, on the caller's transaction); the caller enqueues each credit as a
//! `points.credit` job in the same transaction, and the job writes the lot.

use std::collections::HashSet;

use chrono::Utc;
use sqlx::PgConnection;

use super::ledger::{Credit, SourceKind};
use super::rules;
use crate::activities::ActivityType;
use crate::activities::sharing::Visit;
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{ActivityId, StationId, UserId};
use crate::shared::time::{day_start, zone_named};

pub const INVITER_DESCRIPTION: &str = "Indicação de amigo";
pub const INVITED_DESCRIPTION: &str = "Bônus de boas-vindas por indicação";

/// Activities pay whole points; the ledger counts hundredths. What an activity pays is its
/// cashback, `points + additional_cashback` (spec 001: "Cashback shown is points plus
/// additional_cashback"), so the member is paid what the activity shows.
fn cents(points: i32) -> i64 {
    i64::from(points) * 100
}

/// The credits a newly confirmed account earns: the station's sign-up reward (its active
/// type 2 activity, recorded as a participation once) and, when the member was invited,
/// the offer's points for the inviter and for the member. The invitation is marked
/// credited here, so confirming twice owes nothing more; the sign-up credit's key is the
/// member, so it is one lot whatever happens.
pub async fn on_account_confirmed(
    conn: &mut PgConnection,
    user_id: i64,
) -> sqlx::Result<Vec<Credit>> {
    let mut credits = Vec::new();
    let station_id: Option<i64> = sqlx::query_scalar("SELECT station_id FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(station_id) = station_id else {
        return Ok(credits);
    };

    let reward: Option<(i64, String, i32)> = sqlx::query_as(
        "SELECT id, name, points + additional_cashback FROM actions
          WHERE station_id = $1 AND type_id = $2 AND active AND points + additional_cashback > 0
          ORDER BY id DESC LIMIT 1",
    )
    .bind(station_id)
    .bind(ActivityType::SignupReward)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some((action_id, name, points)) = reward {
        sqlx::query(
            "INSERT INTO participations (station_id, user_id, action_id, attempt)
             SELECT $1, $2, $3, 1
              WHERE NOT EXISTS (SELECT 1 FROM participations WHERE user_id = $2 AND action_id = $3)",
        )
        .bind(station_id)
        .bind(user_id)
        .bind(action_id)
        .execute(&mut *conn)
        .await?;
        credits.push(signup_credit(user_id, station_id, action_id, name, points));
    }

    let invitation: Option<(i64, i64, i32, i32)> = sqlx::query_as(
        "UPDATE mgm_invitations i SET credited_at = now()
           FROM mgm_rules r
          WHERE i.invitee_id = $1 AND i.credited_at IS NULL AND r.id = i.rule_id
         RETURNING i.inviter_id, i.station_id, r.points_inviter, r.points_invited",
    )
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some((inviter_id, station_id, points_inviter, points_invited)) = invitation {
        let invitation = |to: i64, rule: &str, points: i32, description: &str| Credit {
            user_id: UserId(to),
            station_id: StationId(station_id),
            source_kind: SourceKind::Invitation,
            source_id: user_id.to_string(),
            rule: rule.to_string(),
            amount: cents(points),
            description: description.to_string(),
            action_id: None,
        };
        if points_inviter > 0 {
            credits.push(invitation(
                inviter_id,
                rules::MGM_INVITER,
                points_inviter,
                INVITER_DESCRIPTION,
            ));
        }
        if points_invited > 0 {
            credits.push(invitation(
                user_id,
                rules::MGM_INVITED,
                points_invited,
                INVITED_DESCRIPTION,
            ));
        }
    }
    Ok(credits)
}

fn signup_credit(
    user_id: i64,
    station_id: i64,
    action_id: i64,
    name: String,
    points: i32,
) -> Credit {
    Credit {
        user_id: UserId(user_id),
        station_id: StationId(station_id),
        source_kind: SourceKind::Activity,
        source_id: user_id.to_string(),
        rule: rules::SIGNUP.to_string(),
        amount: cents(points),
        description: name,
        action_id: Some(ActivityId(action_id)),
    }
}

/// Share credits one sharer can earn per share activity per day (the station's day): past it,
/// visits are still recorded but pay nothing until the next day.
pub const SHARE_CREDITS_PER_DAY: i64 = 20;

/// The share activity's points for the sharer, for a visit just recorded as new, or `None`
/// when the activity pays nothing or the sharer has reached [`SHARE_CREDITS_PER_DAY`] for
/// it today. The credit's key is the activity, the sharer and the visitor's network
/// ([`crate::activities::sharing::network_key`]), so another user agent, visitor id or address of a
/// network already credited is the same credit: its job and its lot exist already and
/// nothing more is paid (a failed job of it is re-armed by the enqueue).
///
/// The cap counts the sharer's `share_credits` rows earned today for the activity, one per
/// credit, written here on the caller's transaction (the one that enqueues the credit's
/// job), not the lots, which their jobs write later, nor the job tables, which retention
/// prunes. Visits of one sharer and activity are serialised here, so two at once cannot
/// both take the last credit of the day.
pub async fn on_share_visit(
    conn: &mut PgConnection,
    visit: &Visit<'_>,
) -> sqlx::Result<Option<Credit>> {
    // The station's zone with the activity: the day the cap counts is the station's.
    let found: Option<(i32, String)> = sqlx::query_as(
        "SELECT a.points + a.additional_cashback, s.time_zone
           FROM actions a JOIN stations s ON s.id = a.station_id
          WHERE a.id = $1 AND a.station_id = $2 AND a.type_id = $3 AND a.active",
    )
    .bind(visit.action.id)
    .bind(visit.action.station_id)
    .bind(ActivityType::Share)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((points, time_zone)) = found.filter(|(points, _)| *points > 0) else {
        return Ok(None);
    };
    let credit = Credit {
        user_id: UserId(visit.sharer_id),
        station_id: StationId(visit.action.station_id),
        source_kind: SourceKind::Activity,
        source_id: format!("{}:{}:{}", visit.action.id, visit.sharer_id, visit.network),
        rule: rules::SHARE.to_string(),
        amount: cents(points),
        description: visit.action.name.clone(),
        action_id: Some(ActivityId(visit.action.id)),
    };
    sqlx::query(
        "SELECT pg_advisory_xact_lock(hashtextextended('share-credit:' || $1::text || ':' || $2::text, 0))",
    )
    .bind(visit.action.id)
    .bind(visit.sharer_id)
    .execute(&mut *conn)
    .await?;
    let (known, today): (bool, i64) = sqlx::query_as(
        "SELECT EXISTS (SELECT 1 FROM share_credits
                         WHERE action_id = $1 AND sharer_user_id = $2 AND network = $3),
                (SELECT count(*) FROM share_credits
                  WHERE action_id = $1 AND sharer_user_id = $2 AND earned_at >= $4)",
    )
    .bind(visit.action.id)
    .bind(visit.sharer_id)
    .bind(visit.network)
    .bind(day_start(zone_named(&time_zone), Utc::now()))
    .fetch_one(&mut *conn)
    .await?;
    if known {
        return Ok(Some(credit));
    }
    if today >= SHARE_CREDITS_PER_DAY {
        tracing::info!(
            action_id = visit.action.id,
            sharer_id = visit.sharer_id,
            "share credit cap reached for today"
        );
        return Ok(None);
    }
    sqlx::query(
        "INSERT INTO share_credits (station_id, action_id, sharer_user_id, network)
         VALUES ($1, $2, $3, $4)",
    )
    .bind(visit.action.station_id)
    .bind(visit.action.id)
    .bind(visit.sharer_id)
    .bind(visit.network)
    .execute(&mut *conn)
    .await?;
    Ok(Some(credit))
}

pub const CPF_MISMATCH: &str = "CPF não confere com o do participante.";
pub const ESTABLISHMENT_INVALID: &str = "Estabelecimento inválido.";

/// Why a member's claim for participation credits (`user-earn-points`) is refused.
#[derive(Debug, thiserror::Error)]
pub enum ClaimRefused {
    /// A card or account number is not the member's CPF.
    #[error("{CPF_MISMATCH}")]
    CpfMismatch,
    /// The establishment is not one of the member's station.
    #[error("{ESTABLISHMENT_INVALID}")]
    UnknownEstablishment,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for ClaimRefused {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

impl IntoFailure for ClaimRefused {
    fn into_failure(self) -> Failure {
        match self {
            Self::Internal(err) => Failure::Internal(err),
            other => Failure::invalid(other.to_string()),
        }
    }
}

/// A member's claim for what their completed participations earn: both numbers they gave
/// (CPF digits) must be their CPF, when they have one, and the establishment one of their
/// station's. Answers the credits owed ([`uncredited_participations`]) for the caller to
/// enqueue on this same transaction.
pub async fn claim_participation_credits(
    conn: &mut PgConnection,
    user_id: i64,
    station_id: i64,
    cpf_given: [Option<&str>; 2],
    establishment_id: Option<i64>,
) -> Result<Vec<Credit>, ClaimRefused> {
    let cpf: Option<String> = sqlx::query_scalar("SELECT cpf FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(&mut *conn)
        .await?;
    if let Some(cpf) = cpf
        && cpf_given.iter().any(|given| *given != Some(cpf.as_str()))
    {
        return Err(ClaimRefused::CpfMismatch);
    }
    let establishment_ok =
        match establishment_id {
            Some(id) => sqlx::query_scalar(
                "SELECT EXISTS (SELECT 1 FROM establishments WHERE id = $1 AND station_id = $2)",
            )
            .bind(id)
            .bind(station_id)
            .fetch_one(&mut *conn)
            .await?,
            None => false,
        };
    if !establishment_ok {
        return Err(ClaimRefused::UnknownEstablishment);
    }
    Ok(uncredited_participations(conn, user_id).await?)
}

/// The credits of the member's completed participations that have no lot yet: the
/// sign-up reward's participation maps to the sign-up credit (keyed by the member), any
/// other to an activity credit keyed by the participation. A credit already queued but
/// not yet written is answered again: enqueueing it finds its job by the idempotency key,
/// and re-arms that job if it failed for good or was cancelled (else the credit would
/// never be written); the lot's unique key keeps it one credit.
pub async fn uncredited_participations(
    conn: &mut PgConnection,
    user_id: i64,
) -> sqlx::Result<Vec<Credit>> {
    let rows: Vec<(i64, i64, i64, String, i32, ActivityType)> = sqlx::query_as(
        "SELECT p.id, p.station_id, a.id, a.name, a.points + a.additional_cashback, a.type_id
           FROM participations p
           JOIN actions a ON a.id = p.action_id AND a.station_id = p.station_id
          WHERE p.user_id = $1 AND p.earns AND a.points + a.additional_cashback > 0
            AND NOT EXISTS (
                SELECT 1 FROM credit_lots l
                 WHERE l.source_kind = 'activity'
                   AND l.source_id = CASE WHEN a.type_id = $2 THEN p.user_id ELSE p.id END::text
                   AND l.rule = CASE WHEN a.type_id = $2 THEN $3 ELSE $4 END)
          ORDER BY p.id",
    )
    .bind(user_id)
    .bind(ActivityType::SignupReward)
    .bind(rules::SIGNUP)
    .bind(rules::ACTIVITY)
    .fetch_all(&mut *conn)
    .await?;
    let mut seen = HashSet::new();
    Ok(rows
        .into_iter()
        .map(
            |(participation_id, station_id, action_id, name, points, type_id)| {
                if type_id == ActivityType::SignupReward {
                    signup_credit(user_id, station_id, action_id, name, points)
                } else {
                    activity_credit(
                        user_id,
                        station_id,
                        participation_id,
                        action_id,
                        name,
                        points,
                    )
                }
            },
        )
        .filter(|credit| seen.insert(credit.key()))
        .collect())
}

/// The activity credit a participation earns (none for an activity that pays no points):
/// keyed by the participation, as [`uncredited_participations`] keys it, so a credit
/// enqueued when the participation is recorded and one claimed later are the same credit.
pub async fn on_participation(
    conn: &mut PgConnection,
    participation_id: i64,
) -> sqlx::Result<Option<Credit>> {
    let row: Option<(i64, i64, i64, String, i32)> = sqlx::query_as(
        "SELECT p.user_id, p.station_id, a.id, a.name, a.points + a.additional_cashback
           FROM participations p
           JOIN actions a ON a.id = p.action_id AND a.station_id = p.station_id
          WHERE p.id = $1 AND p.earns AND a.points + a.additional_cashback > 0
            AND a.type_id <> $2",
    )
    .bind(participation_id)
    .bind(ActivityType::SignupReward)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row.map(|(user_id, station_id, action_id, name, points)| {
        activity_credit(
            user_id,
            station_id,
            participation_id,
            action_id,
            name,
            points,
        )
    }))
}

/// The credit participation `participation_id` earns, as its job writes it: the activity's
/// ([`on_participation`]), or for the sign-up reward (type 2) the member's sign-up credit.
pub async fn participation_credit(
    conn: &mut PgConnection,
    participation_id: i64,
) -> sqlx::Result<Option<Credit>> {
    if let Some(credit) = on_participation(&mut *conn, participation_id).await? {
        return Ok(Some(credit));
    }
    let signup: Option<(i64, i64, i64, String, i32)> = sqlx::query_as(
        "SELECT p.user_id, p.station_id, a.id, a.name, a.points + a.additional_cashback
           FROM participations p
           JOIN actions a ON a.id = p.action_id AND a.station_id = p.station_id
          WHERE p.id = $1 AND a.type_id = $2 AND a.points + a.additional_cashback > 0",
    )
    .bind(participation_id)
    .bind(ActivityType::SignupReward)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(
        signup.map(|(user_id, station_id, action_id, name, points)| {
            signup_credit(user_id, station_id, action_id, name, points)
        }),
    )
}

/// An activity's credit for one participation, keyed by it.
fn activity_credit(
    user_id: i64,
    station_id: i64,
    participation_id: i64,
    action_id: i64,
    name: String,
    points: i32,
) -> Credit {
    Credit {
        user_id: UserId(user_id),
        station_id: StationId(station_id),
        source_kind: SourceKind::Activity,
        source_id: participation_id.to_string(),
        rule: rules::ACTIVITY.to_string(),
        amount: cents(points),
        description: name,
        action_id: Some(ActivityId(action_id)),
    }
}
