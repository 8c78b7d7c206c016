//! Donations (type 20, spec 001): the member gives part of the wallet to the activity's
//! cause. Through the participation rules ([`participation::admit`]), the donation is a
//! participation and a spend of the wallet on one transaction, keyed by that participation;
//! the activity's points, if any, are credited like any participation's.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::participation::{self, Refused};
use crate::wallet::ledger::{self, LedgerError, Spend, SpendKind};

pub const DONATION_TYPE: i16 = 20;

/// R$ 0,50 and R$ 10.000,00, in centavos (a wallet point is R$ 1,00).
pub const MIN_CENTS: i64 = 50;
pub const MAX_CENTS: i64 = 1_000_000;
pub const BELOW_MIN: &str = "Valor mínimo requerido de R$ 0,50";
pub const ABOVE_MAX: &str = "Valor máximo permitido de R$ 10.000,00.";
/// The spec gives no text for a wallet short of the amount (docs/decisions.md).
pub const BALANCE_SHORT: &str = "Saldo insuficiente para esta doação.";

/// Why a donation was not made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotDonated {
    Refused(Refused),
    BelowMin,
    AboveMax,
    BalanceShort { balance: i64 },
}

impl NotDonated {
    pub fn message(&self) -> String {
        match self {
            Self::Refused(refused) => refused.message(),
            Self::BelowMin => BELOW_MIN.into(),
            Self::AboveMax => ABOVE_MAX.into(),
            Self::BalanceShort { .. } => BALANCE_SHORT.into(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Donated {
    pub participation_id: i64,
    pub action_id: i64,
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
    user_id: i64,
    station_id: i64,
    action_id: i64,
    amount_cents: i64,
    now: DateTime<Utc>,
) -> Result<Result<Donated, NotDonated>, LedgerError> {
    if amount_cents < MIN_CENTS {
        return Ok(Err(NotDonated::BelowMin));
    }
    if amount_cents > MAX_CENTS {
        return Ok(Err(NotDonated::AboveMax));
    }
    let admitted = match participation::admit(
        &mut *conn,
        user_id,
        station_id,
        action_id,
        &[DONATION_TYPE],
        now,
    )
    .await?
    {
        Ok(admitted) => admitted,
        Err(refused) => return Ok(Err(NotDonated::Refused(refused))),
    };
    let (points, cashback) = (admitted.points(), admitted.cashback());
    let name: String = sqlx::query_scalar("SELECT name FROM actions WHERE id = $1")
        .bind(action_id)
        .fetch_one(&mut *conn)
        .await?;
    let participation_id = participation::record(&mut *conn, admitted).await?;
    let spent = ledger::spend(
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
    .await;
    match spent {
        Ok(_) => Ok(Ok(Donated {
            participation_id,
            action_id,
            amount_cents,
            points,
            cashback,
        })),
        Err(LedgerError::Insufficient { balance, .. }) => {
            Ok(Err(NotDonated::BalanceShort { balance }))
        }
        Err(other) => Err(other),
    }
}
