//! Donations (type 20, spec 001): the member gives part of the wallet to the activity's
//! cause. Through the participation rules ([`participation::admit`]), the donation is a
//! participation and a spend of the wallet on one transaction, keyed by that participation;
//! the activity's points, if any, are credited like any participation's.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::ActivityType;
use super::participation::{self, Refused};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{ActivityId, StationId, UserId};
use crate::wallet::ledger::{self, LedgerError, Spend, SpendKind};

/// R$ 0,50 and R$ 10.000,00, in centavos (a wallet point is R$ 1,00).
pub const MIN_CENTS: i64 = 50;
pub const MAX_CENTS: i64 = 1_000_000;
pub const BELOW_MIN: &str = "Valor mínimo requerido de R$ 0,50";
pub const ABOVE_MAX: &str = "Valor máximo permitido de R$ 10.000,00.";
/// The spec gives no text for a wallet short of the amount (docs/decisions.md).
pub const BALANCE_SHORT: &str = "Saldo insuficiente para esta doação.";

/// Why a donation was not made.
#[derive(Debug, thiserror::Error)]
pub enum NotDonated {
    #[error("{}", .0.message())]
    Refused(Refused),
    #[error("{BELOW_MIN}")]
    BelowMin,
    #[error("{ABOVE_MAX}")]
    AboveMax,
    #[error("{BALANCE_SHORT}")]
    BalanceShort { balance: i64 },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl IntoFailure for NotDonated {
    fn into_failure(self) -> Failure {
        match self {
            Self::Refused(refused) => refused.into_failure(),
            Self::Internal(err) => Failure::Internal(err),
            other => Failure::invalid(other.to_string()),
        }
    }
}

participation::through_the_rules!(NotDonated);

impl From<LedgerError> for NotDonated {
    fn from(err: LedgerError) -> Self {
        match err {
            LedgerError::Insufficient { balance, .. } => Self::BalanceShort { balance },
            other => Self::Internal(other.into()),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Donated {
    pub participation_id: i64,
    pub action_id: ActivityId,
    pub amount_cents: i64,
    /// The activity's `points` and `points` + `additional_cashback`, as the member earns them.
    pub points: i32,
    pub cashback: i64,
}

/// Donates `amount_cents` of the member's wallet to a donation activity, on the caller's
/// transaction, which must be rolled back on a refusal (the participation is recorded
/// before the spend, so the spend can be keyed by it). Two donations at once are checked
/// one after the other (the member's row lock of `admit`), so neither the participation
/// limit nor the balance can be overrun.
pub async fn donate(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
    action_id: ActivityId,
    amount_cents: i64,
    now: DateTime<Utc>,
) -> Result<Donated, NotDonated> {
    if amount_cents < MIN_CENTS {
        return Err(NotDonated::BelowMin);
    }
    if amount_cents > MAX_CENTS {
        return Err(NotDonated::AboveMax);
    }
    let admitted = participation::admit(
        &mut *conn,
        user_id,
        station_id,
        action_id,
        &[ActivityType::Donation],
        now,
    )
    .await?;
    let (points, cashback) = (admitted.points(), admitted.cashback());
    let name: String = sqlx::query_scalar("SELECT name FROM actions WHERE id = $1")
        .bind(action_id)
        .fetch_one(&mut *conn)
        .await?;
    let participation_id = participation::record(&mut *conn, admitted).await?;
    // A wallet short of the amount is the member's refusal (`From<LedgerError>`).
    ledger::spend(
        conn,
        &Spend {
            user_id,
            station_id,
            kind: SpendKind::Donation,
            source_id: format!("participation:{participation_id}"),
            amount: amount_cents,
            description: format!("Doação: {name}"),
            action_id: Some(action_id),
        },
    )
    .await?;
    Ok(Donated {
        participation_id,
        action_id,
        amount_cents,
        points,
        cashback,
    })
}
