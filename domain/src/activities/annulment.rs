//! Annulling a participation (issue 14): support staff take back a participation that
//! should not have counted (fraud, a mistake), and with it what it granted: the activity's
//! credit, the trophies that no longer hold without it, its lucky numbers. One transaction,
//! under the member's lock; the participation moves to `annulled_participations`, so every
//! count (the rules, journeys, trophies, lucky numbers) forgets it at once.
//!
//! The credit is reversed whether or not its `points.credit` job has run: the credit is
//! written here under its own key and reversed at once, so the job, if it runs later, finds
//! the lot and writes nothing; if the job wrote it first, that lot is reversed (what the
//! member already spent of it becomes a debt the next credits pay, as any reversal:
//! `wallet::ledger::reverse`).

use serde_json::json;
use sqlx::{PgConnection, PgPool};

use super::{ActivityType, participation, trophies};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::UserId;
use crate::staff::{self, Action, AuditRecord, Scope};
use crate::wallet::ledger::{self, LedgerError};
use crate::wallet::{rewards, rules};

pub const NOT_FOUND: &str = "Participação não encontrada.";
pub const ALREADY_ANNULLED: &str = "Esta participação já foi anulada.";
pub const REASON_REQUIRED: &str = "Informe o motivo da anulação.";
pub const REASON_MAX_CHARS: usize = 500;
pub const REASON_TOO_LONG: &str = "O motivo deve ter no máximo 500 caracteres.";

#[derive(Debug, thiserror::Error)]
pub enum NotAnnulled {
    #[error("{NOT_FOUND}")]
    NotFound,
    #[error("{ALREADY_ANNULLED}")]
    AlreadyAnnulled,
    #[error("{REASON_REQUIRED}")]
    ReasonRequired,
    #[error("{REASON_TOO_LONG}")]
    ReasonTooLong,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for NotAnnulled {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

impl From<LedgerError> for NotAnnulled {
    fn from(err: LedgerError) -> Self {
        Self::Internal(err.into())
    }
}

impl IntoFailure for NotAnnulled {
    fn into_failure(self) -> Failure {
        match self {
            Self::NotFound => Failure::NotFound(self.to_string()),
            Self::AlreadyAnnulled => Failure::Conflict(self.to_string()),
            Self::ReasonRequired | Self::ReasonTooLong => Failure::invalid(self.to_string()),
            Self::Internal(err) => Failure::Internal(err),
        }
    }
}

/// What an annulment took back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annulled {
    pub participation_id: i64,
    pub user_id: i64,
    pub station_id: i64,
    pub action_id: i64,
    /// Centavos taken out of the member's wallet (pending or balance); 0 when the credit
    /// had not been written yet (it never will be) or the activity paid nothing.
    pub reversed_cents: i64,
    /// Centavos the member had already spent of the credit: recorded as a debt, paid by
    /// their balance left and otherwise by their next credits.
    pub debt_cents: i64,
    /// The names of the trophies taken back.
    pub trophies: Vec<String>,
    /// The lucky numbers voided.
    pub lucky_numbers: Vec<i64>,
}

#[derive(sqlx::FromRow)]
struct Row {
    user_id: i64,
    station_id: i64,
    action_id: i64,
}

/// [`annul`] by a member of staff, with its audit entry on the same transaction.
pub async fn annul_audited(
    db: &PgPool,
    participation_id: i64,
    scope: Scope,
    staff_id: i64,
    reason: &str,
) -> Result<Annulled, NotAnnulled> {
    let mut tx = db.begin().await?;
    let annulled = annul(&mut tx, participation_id, scope, staff_id, reason).await?;
    staff::record(
        &mut tx,
        AuditRecord {
            user_id: staff_id,
            action: Action::ParticipationAnnul,
            station_id: Some(annulled.station_id),
            job_ids: &[],
            details: json!({
                "participation_id": participation_id,
                "user_id": annulled.user_id,
                "action_id": annulled.action_id,
                "reason": reason.trim(),
                "reversed_cents": annulled.reversed_cents,
                "debt_cents": annulled.debt_cents,
                "trophies": annulled.trophies,
                "lucky_numbers": annulled.lucky_numbers,
            }),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(annulled)
}

/// Annuls participation `participation_id` (of a station `scope` covers) for `reason`, by
/// `staff_id`, on the caller's transaction, which must be rolled back on a refusal. A
/// second annulment of the same participation, also at once, is refused as already done.
pub async fn annul(
    conn: &mut PgConnection,
    participation_id: i64,
    scope: Scope,
    staff_id: i64,
    reason: &str,
) -> Result<Annulled, NotAnnulled> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(NotAnnulled::ReasonRequired);
    }
    if reason.chars().count() > REASON_MAX_CHARS {
        return Err(NotAnnulled::ReasonTooLong);
    }
    let seen: Option<Row> = sqlx::query_as(
        "SELECT user_id, station_id, action_id FROM participations
          WHERE id = $1 AND ($2::bigint IS NULL OR station_id = $2)",
    )
    .bind(participation_id)
    .bind(scope.station_id())
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = seen else {
        let annulled: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM annulled_participations
                             WHERE id = $1 AND ($2::bigint IS NULL OR station_id = $2))",
        )
        .bind(participation_id)
        .bind(scope.station_id())
        .fetch_one(&mut *conn)
        .await?;
        return Err(if annulled {
            NotAnnulled::AlreadyAnnulled
        } else {
            NotAnnulled::NotFound
        });
    };
    // The member's lock first, as every participation call takes it, then the row: a
    // concurrent annulment waits here and finds it gone.
    participation::lock_member(&mut *conn, UserId(row.user_id)).await?;
    let still: Option<i64> =
        sqlx::query_scalar("SELECT id FROM participations WHERE id = $1 FOR UPDATE")
            .bind(participation_id)
            .fetch_optional(&mut *conn)
            .await?;
    if still.is_none() {
        return Err(NotAnnulled::AlreadyAnnulled);
    }

    // The lots its credit wrote, found by their key (whatever the activity pays now; a
    // sign-up's is keyed by the member, once per account); none
    // yet: the credit its job would write is written here and reversed, so the job finds
    // it and pays nothing.
    let lots: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM credit_lots
          WHERE source_kind = 'activity'
            AND ((source_id = $1::text AND rule = $2)
                 OR (source_id = $3::text AND rule = $4 AND action_id = $5
                     AND EXISTS (SELECT 1 FROM actions WHERE id = $5 AND type_id = $6)))",
    )
    .bind(participation_id)
    .bind(rules::ACTIVITY)
    .bind(row.user_id)
    .bind(rules::SIGNUP)
    .bind(row.action_id)
    .bind(ActivityType::SignupReward)
    .fetch_all(&mut *conn)
    .await?;
    let (mut reversed_cents, mut debt_cents) = (0, 0);
    for lot_id in lots.iter().copied() {
        let reversal = ledger::reverse(&mut *conn, lot_id).await?;
        reversed_cents += reversal.taken;
        debt_cents += reversal.owed;
    }
    if lots.is_empty()
        && let Some(credit) = rewards::participation_credit(&mut *conn, participation_id).await?
    {
        let lot = ledger::credit(&mut *conn, &credit, None).await?;
        ledger::reverse(&mut *conn, lot.lot_id).await?;
    }
    let unmet_before = trophies::held_unmet(&mut *conn, row.user_id).await?;
    let lucky_numbers: Vec<i64> = sqlx::query_scalar(
        "SELECT number FROM giveaway_numbers WHERE participation_id = $1 ORDER BY id",
    )
    .bind(participation_id)
    .fetch_all(&mut *conn)
    .await?;
    // A quiz won through it no longer counts as won.
    sqlx::query("UPDATE research_attempts SET won = false WHERE participation_id = $1 AND won")
        .bind(participation_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO annulled_participations
             (id, station_id, user_id, action_id, attempt, earns, completed_at, annulled_by,
              reason, reversed_cents, lucky_numbers)
         SELECT id, station_id, user_id, action_id, attempt, earns, completed_at, $2, $3, $4, $5
           FROM participations WHERE id = $1",
    )
    .bind(participation_id)
    .bind(staff_id)
    .bind(reason)
    .bind(reversed_cents)
    .bind(&lucky_numbers)
    .execute(&mut *conn)
    .await?;
    // Its lucky numbers go with it (the foreign key); their sequence stays spent, so no
    // number is ever given twice.
    sqlx::query("DELETE FROM participations WHERE id = $1")
        .bind(participation_id)
        .execute(&mut *conn)
        .await?;
    let trophies = trophies::revoke_unmet(&mut *conn, row.user_id, &unmet_before).await?;
    sqlx::query("UPDATE annulled_participations SET trophies = $2 WHERE id = $1")
        .bind(participation_id)
        .bind(&trophies)
        .execute(&mut *conn)
        .await?;
    Ok(Annulled {
        participation_id,
        user_id: row.user_id,
        station_id: row.station_id,
        action_id: row.action_id,
        reversed_cents,
        debt_cents,
        trophies,
        lucky_numbers,
    })
}
