//! The ledger: credits are lots, spends draw on available lots, and the wallet row caches
//! the totals in the same transaction as every change (invariants in
//! migrations/20261121000009_wallet.sql; [`check`] proves them).
//!
//! Lock order, so that waits between transactions never form a cycle (a deadlock):
//! - **lot, then wallet**: a release batch (`wallet::release`) and the reversal of a
//!   *pending* lot. They lock only lots that are `pending` (the release skips locked ones)
//!   and then update the wallets of those lots.
//! - **wallet, then lots**: [`spend`], [`expire_due`] and the reversal of an *available*
//!   lot. They lock the wallet row, then only `available` lots of that wallet.
//!
//! A lot-first transaction never holds an `available` lot: the lot a release turns
//! available stays `pending` for everyone else until the release commits, and a locking
//! query skips a row whose committed state does not match its `state = ...` filter. So a
//! wallet-first transaction never waits for a lot that a lot-first transaction holds, and
//! two wallet-first transactions of one member queue on the wallet. A wallet-first
//! transaction holds one wallet, except [`expire_due`], which takes its wallets with SKIP
//! LOCKED and so never waits for one. A credit inserts a lot nobody else can see yet and
//! then updates one wallet. The wallet lock is `FOR NO KEY UPDATE`: it serialises every
//! change to the wallet without blocking the foreign-key checks of lots being inserted.
//!
//! Debts (issue 26): paying a debt ([`settle_debts`]) draws on `available` lots of a wallet
//! whose lock the transaction already holds, like a spend: after an instant credit, after a
//! reversal that recorded a debt, and after a release batch credited the wallet (lot,
//! wallet, then that wallet's available lots). Only a transaction holding a wallet holds
//! its available lots, so that last step waits for nobody who could be waiting for it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{Connection, PgConnection, PgExecutor};

use super::rules;
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{ActivityId, StationId, UserId};

/// Statement pages hold this many lines.
pub const PAGE_SIZE: i64 = 50;

/// What the statement shows for a debt, before the reversed credit's own description.
pub const DEBT_DESCRIPTION: &str = "Estorno de crédito já utilizado";
/// What the statement shows for what a credit paid of a debt.
pub const DEBT_PAYMENT_DESCRIPTION: &str = "Quitação de débito";

/// What a credit came from (`credit_lots.source_kind`).
/// Stored as the lowercase text of its column, read and written by sqlx like `JobState`.
/// Serialised in the `points.credit` job's payload ([`Credit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, sqlx::Type)]
#[serde(rename_all = "lowercase")]
#[sqlx(type_name = "text", rename_all = "lowercase")]
pub enum SourceKind {
    Activity,
    Purchase,
    Invitation,
    Donation,
    Refund,
    Topup,
    Adjustment,
    /// A health co-payment's cashback (`health_copays`).
    Copay,
}

impl SourceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Activity => "activity",
            Self::Purchase => "purchase",
            Self::Invitation => "invitation",
            Self::Donation => "donation",
            Self::Refund => "refund",
            Self::Topup => "topup",
            Self::Adjustment => "adjustment",
            Self::Copay => "copay",
        }
    }
}

/// What a spend paid for (`spends.source_kind`).
/// Stored as the lowercase text of its column, read and written by sqlx like `JobState`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "lowercase")]
pub enum SpendKind {
    Purchase,
    Donation,
    Transfer,
    Adjustment,
    /// A payment of a debt (`wallet_debts`): what a credit paid of it.
    Debt,
}

impl SpendKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Purchase => "purchase",
            Self::Donation => "donation",
            Self::Transfer => "transfer",
            Self::Adjustment => "adjustment",
            Self::Debt => "debt",
        }
    }
}

/// Stored as the lowercase text of its column, read and written by sqlx like `JobState`.
/// Serialised in the `points.credit` job's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, sqlx::Type)]
#[serde(rename_all = "lowercase")]
#[sqlx(type_name = "text", rename_all = "lowercase")]
pub enum LotState {
    Pending,
    Available,
    Reversed,
    Expired,
}

/// An amount in hundredths of a point, as members read it (the API writes it as the number
/// of points the screens show). For display only: the ledger never computes with it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Points(pub i64);

impl From<i64> for Points {
    fn from(cents: i64) -> Self {
        Self(cents)
    }
}

/// One credit to write: who gets how much, for which event, under which rule.
/// `(source_kind, source_id, rule)` names it: writing it again changes nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Credit {
    pub user_id: UserId,
    pub station_id: StationId,
    pub source_kind: SourceKind,
    pub source_id: String,
    /// A rule name of [`rules`] (or a station's own).
    pub rule: String,
    /// Hundredths of a point, > 0.
    pub amount: i64,
    /// What the statement shows.
    pub description: String,
    pub action_id: Option<ActivityId>,
}

impl Credit {
    /// `{source_kind}:{source_id}:{rule}`: the lot's unique key as one string, also the
    /// idempotency key of its `points.credit` job.
    pub fn key(&self) -> String {
        format!(
            "{}:{}:{}",
            self.source_kind.as_str(),
            self.source_id,
            self.rule
        )
    }
}

/// The lot a credit wrote, or found when it had been written before (`created` false).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Credited {
    pub lot_id: i64,
    pub created: bool,
    pub state: LotState,
}

/// One spend to write. `(kind, source_id)` is the thing paid for: paying for it again
/// changes nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spend {
    pub user_id: UserId,
    pub station_id: StationId,
    pub kind: SpendKind,
    pub source_id: String,
    pub amount: i64,
    pub description: String,
    pub action_id: Option<ActivityId>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spent {
    pub spend_id: i64,
    pub created: bool,
}

/// What [`reverse`] did. `was` is the lot's state before; `Reversed` or `Expired` means it
/// was closed already and nothing changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reversal {
    pub lot_id: i64,
    pub user_id: UserId,
    pub was: LotState,
    /// What left the member's pending total (a pending lot) or balance (the unspent
    /// remainder of an available lot).
    pub taken: i64,
    /// What the member had already spent of an available lot: recorded as a debt (0 when
    /// nothing was spent, or when the lot was closed already).
    pub owed: i64,
}

impl Reversal {
    /// A reversal that changed nothing: the lot was `was` (reversed already, or expired
    /// with nothing spent).
    fn nothing(lot_id: i64, user_id: UserId, was: LotState) -> Self {
        Self {
            lot_id,
            user_id,
            was,
            taken: 0,
            owed: 0,
        }
    }
}

/// What one [`expire_due`] call ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Expired {
    pub lots: i64,
    pub amount: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("insufficient balance: {balance} available, {requested} requested")]
    Insufficient { balance: i64, requested: i64 },
    #[error("amounts are positive hundredths of a point, not {0}")]
    NonPositiveAmount(i64),
    #[error("user {user_id} has no account in station {station_id}")]
    NotAMember {
        user_id: UserId,
        station_id: StationId,
    },
    #[error("credit lot {0} does not exist")]
    LotNotFound(i64),
    #[error("spend {0} is another member's")]
    KeyTaken(String),
    #[error("ledger inconsistent: {0}")]
    Inconsistent(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// A ledger failure under a request is never the member's to fix: the rules that can
/// refuse a member (an insufficient balance) turn it into their own refusal first.
impl IntoFailure for LedgerError {
    fn into_failure(self) -> Failure {
        Failure::Internal(self.into())
    }
}

async fn find_lot(
    conn: &mut PgConnection,
    credit: &Credit,
) -> Result<Option<Credited>, LedgerError> {
    let found: Option<(i64, LotState)> = sqlx::query_as(
        "SELECT id, state FROM credit_lots WHERE source_kind = $1 AND source_id = $2 AND rule = $3",
    )
    .bind(credit.source_kind)
    .bind(&credit.source_id)
    .bind(&credit.rule)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(found.map(|(lot_id, state)| Credited {
        lot_id,
        created: false,
        state,
    }))
}

/// The member's wallet, created on first use; the member must belong to the station.
async fn ensure_wallet(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
) -> Result<(), LedgerError> {
    sqlx::query(
        "INSERT INTO wallets (user_id, station_id)
         SELECT id, station_id FROM users WHERE id = $1 AND station_id = $2
         ON CONFLICT (user_id) DO NOTHING",
    )
    .bind(user_id)
    .bind(station_id)
    .execute(&mut *conn)
    .await?;
    let wallet_station: Option<StationId> =
        sqlx::query_scalar("SELECT station_id FROM wallets WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&mut *conn)
            .await?;
    if wallet_station == Some(station_id) {
        Ok(())
    } else {
        Err(LedgerError::NotAMember {
            user_id,
            station_id,
        })
    }
}

/// Writes a credit as a lot, on the caller's transaction, with its station's rule:
/// `pending` until a release at or after `available_at`, or `available` at once for an
/// instant rule. The wallet's pending total or balance moves with it. A credit whose key
/// exists already answers that lot and changes nothing, also when two race.
pub async fn credit(
    conn: &mut PgConnection,
    credit: &Credit,
    job_id: Option<&str>,
) -> Result<Credited, LedgerError> {
    if credit.amount <= 0 {
        return Err(LedgerError::NonPositiveAmount(credit.amount));
    }
    if let Some(existing) = find_lot(conn, credit).await? {
        return Ok(existing);
    }
    let rule = rules::for_station(&mut *conn, credit.station_id, &credit.rule).await?;
    ensure_wallet(conn, credit.user_id, credit.station_id).await?;
    let state = if rule.instant {
        LotState::Available
    } else {
        LotState::Pending
    };
    let lot_id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO credit_lots
             (user_id, station_id, source_kind, source_id, rule, amount, state, description,
              action_id, job_id, available_at, expires_at, released_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                 now() + $11 * interval '1 second',
                 now() + $11 * interval '1 second' + $12 * interval '1 second',
                 CASE WHEN $7 = 'available' THEN now() END)
         ON CONFLICT (source_kind, source_id, rule) DO NOTHING
         RETURNING id",
    )
    .bind(credit.user_id)
    .bind(credit.station_id)
    .bind(credit.source_kind)
    .bind(&credit.source_id)
    .bind(&credit.rule)
    .bind(credit.amount)
    .bind(state)
    .bind(&credit.description)
    .bind(credit.action_id)
    .bind(job_id)
    .bind(if rule.instant {
        0
    } else {
        rule.hold.num_seconds()
    })
    .bind(rule.expires_after.map(|after| after.num_seconds()))
    .fetch_optional(&mut *conn)
    .await?;
    let Some(lot_id) = lot_id else {
        // A concurrent credit with the same key committed first.
        return find_lot(conn, credit)
            .await?
            .ok_or_else(|| LedgerError::Inconsistent(format!("lot {} vanished", credit.key())));
    };
    // The update locks the wallet, so paying its debts below keeps the wallet-first order.
    let debt: i64 = sqlx::query_scalar(
        "UPDATE wallets
            SET balance = balance + CASE WHEN $2 THEN $3 ELSE 0 END,
                pending = pending + CASE WHEN $2 THEN 0 ELSE $3 END,
                updated_at = now()
          WHERE user_id = $1
          RETURNING debt",
    )
    .bind(credit.user_id)
    .bind(rule.instant)
    .bind(credit.amount)
    .fetch_one(&mut *conn)
    .await?;
    if rule.instant && debt > 0 {
        settle_debts(conn, credit.user_id).await?;
    }
    Ok(Credited {
        lot_id,
        created: true,
        state,
    })
}

/// Locks the member's wallet (wallet-first order) and answers its station and balance.
async fn lock_wallet(
    conn: &mut PgConnection,
    user_id: UserId,
) -> Result<Option<(StationId, i64)>, LedgerError> {
    Ok(sqlx::query_as(
        "SELECT station_id, balance FROM wallets WHERE user_id = $1 FOR NO KEY UPDATE",
    )
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?)
}

/// The balance a spend in this transaction can draw on: locks the member's wallet (wallet
/// first) and ends its lots past their expiry, like [`spend`] does, so the amount read is
/// the amount spendable. 0 without a wallet.
pub async fn spendable(conn: &mut PgConnection, user_id: UserId) -> Result<i64, LedgerError> {
    if lock_wallet(conn, user_id).await?.is_none() {
        return Ok(0);
    }
    Ok(expire_wallet(conn, user_id).await?)
}

/// Lots locked per round of a spend; a spend drawing on more takes another round.
const SPEND_ROUND: i64 = 100;

/// Pays with the member's balance, on the caller's transaction: ends the wallet's lots past
/// their expiry, then draws on available lots, the first to expire first (then the first
/// available, then the oldest), records how much came from each and lowers the balance. Never overdraws: the wallet row is locked first,
/// so spends of one member run one at a time, and the balance is checked under that lock.
/// Paying for the same thing again answers the first spend.
pub async fn spend(conn: &mut PgConnection, spend: &Spend) -> Result<Spent, LedgerError> {
    if spend.amount <= 0 {
        return Err(LedgerError::NonPositiveAmount(spend.amount));
    }
    let Some((station_id, _)) = lock_wallet(conn, spend.user_id).await? else {
        return Err(LedgerError::Insufficient {
            balance: 0,
            requested: spend.amount,
        });
    };
    if station_id != spend.station_id {
        return Err(LedgerError::NotAMember {
            user_id: spend.user_id,
            station_id: spend.station_id,
        });
    }
    // Lots past their expiry end before the balance is read, so a spend never draws on
    // one, even before the scheduled expiry (the release job) reached it.
    let balance = expire_wallet(conn, spend.user_id).await?;
    let key = format!("{}:{}", spend.kind.as_str(), spend.source_id);
    let existing: Option<(i64, UserId)> =
        sqlx::query_as("SELECT id, user_id FROM spends WHERE source_kind = $1 AND source_id = $2")
            .bind(spend.kind)
            .bind(&spend.source_id)
            .fetch_optional(&mut *conn)
            .await?;
    match existing {
        Some((spend_id, user_id)) if user_id == spend.user_id => {
            return Ok(Spent {
                spend_id,
                created: false,
            });
        }
        Some(_) => return Err(LedgerError::KeyTaken(key)),
        None => {}
    }
    if balance < spend.amount {
        return Err(LedgerError::Insufficient {
            balance,
            requested: spend.amount,
        });
    }
    let spend_id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO spends (user_id, station_id, source_kind, source_id, amount, description,
                             action_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (source_kind, source_id) DO NOTHING
         RETURNING id",
    )
    .bind(spend.user_id)
    .bind(spend.station_id)
    .bind(spend.kind)
    .bind(&spend.source_id)
    .bind(spend.amount)
    .bind(&spend.description)
    .bind(spend.action_id)
    .fetch_optional(&mut *conn)
    .await?;
    // Spends of this member wait for the wallet lock, so only another member's spend with
    // the same key can have committed in between.
    let spend_id = spend_id.ok_or(LedgerError::KeyTaken(key))?;

    draw(conn, spend_id, spend.user_id, spend.amount).await?;
    sqlx::query("UPDATE wallets SET balance = balance - $2, updated_at = now() WHERE user_id = $1")
        .bind(spend.user_id)
        .bind(spend.amount)
        .execute(&mut *conn)
        .await?;
    Ok(Spent {
        spend_id,
        created: true,
    })
}

/// Draws `amount` for spend `spend_id` on the member's available lots, the first to expire
/// first (then the first available, then the oldest), and records how much came from each.
/// The caller holds the wallet lock (wallet, then lots), has checked the balance and lowers
/// it.
async fn draw(
    conn: &mut PgConnection,
    spend_id: i64,
    user_id: UserId,
    amount: i64,
) -> Result<(), LedgerError> {
    let mut left = amount;
    while left > 0 {
        // Fully drawn lots leave the filter, so each round starts where the last ended.
        let lots: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT id, amount - spent FROM credit_lots
              WHERE user_id = $1 AND state = 'available' AND spent < amount
              ORDER BY expires_at, available_at, id
              LIMIT $2
              FOR UPDATE",
        )
        .bind(user_id)
        .bind(SPEND_ROUND)
        .fetch_all(&mut *conn)
        .await?;
        if lots.is_empty() {
            return Err(LedgerError::Inconsistent(format!(
                "wallet {user_id} lacks {left} in its lots to draw {amount}"
            )));
        }
        let (mut ids, mut takes) = (Vec::new(), Vec::new());
        for (lot_id, free) in lots {
            if left == 0 {
                break;
            }
            let take = free.min(left);
            ids.push(lot_id);
            takes.push(take);
            left -= take;
        }
        sqlx::query(
            "WITH drawn AS (SELECT * FROM unnest($2::bigint[], $3::bigint[]) AS d(lot_id, amount)),
                  allocated AS (
                      INSERT INTO spend_allocations (spend_id, lot_id, amount)
                      SELECT $1, lot_id, amount FROM drawn)
             UPDATE credit_lots l SET spent = l.spent + d.amount
               FROM drawn d WHERE l.id = d.lot_id",
        )
        .bind(spend_id)
        .bind(&ids)
        .bind(&takes)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Gives back what a spend drew (an order that ended unpaid), on the caller's transaction,
/// as instant credits under `refund`'s rule and key: one lot per expiry of the lots the
/// spend drew on (`{source_id}:{expiry}`, or `{source_id}` for lots that never expire),
/// each expiring when those lots do, so a refund never brings points past their expiry
/// back to life. What came from lots already past their expiry is not given back. At most
/// `refund.amount`, taken from the latest-expiring lots first. Answers the amount credited;
/// a second call finds the lots written and credits nothing more.
pub async fn refund_spend(
    conn: &mut PgConnection,
    kind: SpendKind,
    spend_source_id: &str,
    refund: &Credit,
) -> Result<i64, LedgerError> {
    let drawn: Vec<(Option<DateTime<Utc>>, i64)> = sqlx::query_as(
        "SELECT l.expires_at, sum(a.amount)::bigint
           FROM spends s JOIN spend_allocations a ON a.spend_id = s.id
           JOIN credit_lots l ON l.id = a.lot_id
          WHERE s.source_kind = $1 AND s.source_id = $2 AND s.user_id = $3
            AND (l.expires_at IS NULL OR l.expires_at > now())
          GROUP BY l.expires_at
          ORDER BY l.expires_at DESC NULLS FIRST",
    )
    .bind(kind)
    .bind(spend_source_id)
    .bind(refund.user_id)
    .fetch_all(&mut *conn)
    .await?;
    let (mut left, mut credited) = (refund.amount, 0);
    for (expires_at, amount) in drawn {
        let amount = amount.min(left);
        if amount <= 0 {
            break;
        }
        let part = Credit {
            source_id: match expires_at {
                Some(at) => format!("{}:{}", refund.source_id, at.timestamp_micros()),
                None => refund.source_id.clone(),
            },
            amount,
            ..refund.clone()
        };
        let lot = credit(conn, &part, None).await?;
        if lot.created {
            credited += amount;
            if let Some(at) = expires_at {
                sqlx::query(
                    "UPDATE credit_lots SET expires_at = least(expires_at, $2) WHERE id = $1",
                )
                .bind(lot.lot_id)
                .bind(at)
                .execute(&mut *conn)
                .await?;
            }
        }
        left -= amount;
    }
    Ok(credited)
}

/// Reverses a credit (a refunded purchase, a fraudulent share), on the caller's
/// transaction. A pending lot leaves the pending total whole; an available lot takes its
/// unspent remainder out of the balance, and what was already spent from it becomes a debt
/// of the member (`wallet_debts`), paid at once from the balance left and otherwise by the
/// next credits ([`settle_debts`]); the balance never goes below zero. An expired lot owes
/// what was spent of it the same way. Reversing a reversed lot changes nothing.
pub async fn reverse(conn: &mut PgConnection, lot_id: i64) -> Result<Reversal, LedgerError> {
    // Read without a lock to choose the lock order.
    let seen: Option<(UserId, LotState)> =
        sqlx::query_as("SELECT user_id, state FROM credit_lots WHERE id = $1")
            .bind(lot_id)
            .fetch_optional(&mut *conn)
            .await?;
    let (user_id, state) = seen.ok_or(LedgerError::LotNotFound(lot_id))?;
    match state {
        LotState::Pending => {
            // Lot, then wallet, like a release. A lot released meanwhile no longer matches
            // and takes the wallet-first path below; but PostgreSQL keeps the lock it took
            // on the lot's new version while finding out, and a spend holding the wallet
            // would wait for that lock while this waits for the wallet (a deadlock, seen in
            // `concurrent_mixed_operations_keep_the_invariants`). So the lock is taken in a
            // savepoint, rolled back (and the lock with it) when the lot is no longer
            // pending.
            let mut attempt = conn.begin().await?;
            let amount: Option<i64> = sqlx::query_scalar(
                "SELECT amount FROM credit_lots WHERE id = $1 AND state = 'pending' FOR UPDATE",
            )
            .bind(lot_id)
            .fetch_optional(&mut *attempt)
            .await?;
            let Some(amount) = amount else {
                attempt.rollback().await?;
                return reverse_wallet_first(conn, lot_id, user_id).await;
            };
            close_lot(&mut attempt, lot_id, LotState::Reversed).await?;
            sqlx::query(
                "UPDATE wallets SET pending = pending - $2, updated_at = now()
                  WHERE user_id = $1",
            )
            .bind(user_id)
            .bind(amount)
            .execute(&mut *attempt)
            .await?;
            attempt.commit().await?;
            return Ok(Reversal {
                lot_id,
                user_id,
                was: LotState::Pending,
                taken: amount,
                owed: 0,
            });
        }
        LotState::Available | LotState::Expired => {}
        LotState::Reversed => return Ok(Reversal::nothing(lot_id, user_id, LotState::Reversed)),
    }
    reverse_wallet_first(conn, lot_id, user_id).await
}

/// The reversal of a lot that is not pending (any more): wallet, then the lot.
async fn reverse_wallet_first(
    conn: &mut PgConnection,
    lot_id: i64,
    user_id: UserId,
) -> Result<Reversal, LedgerError> {
    lock_wallet(conn, user_id).await?;
    let (was, remainder, spent, station_id, description): (LotState, i64, i64, i64, String) =
        sqlx::query_as(
            "SELECT state, amount - spent, spent, station_id, description
               FROM credit_lots WHERE id = $1 FOR UPDATE",
        )
        .bind(lot_id)
        .fetch_one(&mut *conn)
        .await?;
    let taken = match was {
        LotState::Available => remainder,
        // Expiry took its remainder out of the balance already; what was spent of it before
        // is owed all the same (a chargeback can come months after the cashback expired).
        LotState::Expired if spent > 0 => 0,
        _ => return Ok(Reversal::nothing(lot_id, user_id, was)),
    };
    close_lot(conn, lot_id, LotState::Reversed).await?;
    if taken > 0 {
        sqlx::query(
            "UPDATE wallets SET balance = balance - $2, updated_at = now() WHERE user_id = $1",
        )
        .bind(user_id)
        .bind(taken)
        .execute(&mut *conn)
        .await?;
    }
    if spent > 0 {
        // What was spent of it is owed: a debt (one per lot), paid at once from whatever
        // balance is left and otherwise by the next credits.
        let recorded = sqlx::query(
            "INSERT INTO wallet_debts (user_id, station_id, lot_id, amount, description)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (lot_id) DO NOTHING",
        )
        .bind(user_id)
        .bind(station_id)
        .bind(lot_id)
        .bind(spent)
        .bind(format!("{DEBT_DESCRIPTION}: {description}"))
        .execute(&mut *conn)
        .await?
        .rows_affected();
        if recorded == 1 {
            sqlx::query("UPDATE wallets SET debt = debt + $2 WHERE user_id = $1")
                .bind(user_id)
                .bind(spent)
                .execute(&mut *conn)
                .await?;
            settle_debts(conn, user_id).await?;
        }
    }
    Ok(Reversal {
        lot_id,
        user_id,
        was,
        taken,
        owed: spent,
    })
}

/// Pays the member's open debts from their balance, oldest debt first, each payment a
/// spend of kind `debt` drawn on the lots like any spend, on a transaction that holds the
/// member's wallet lock (wallet, then lots). Afterwards either the debts or the balance are
/// zero. Answers what was paid.
pub(crate) async fn settle_debts(
    conn: &mut PgConnection,
    user_id: UserId,
) -> Result<i64, LedgerError> {
    // Lots past their expiry end first, as before any spend: a debt is never paid with
    // points the member could no longer spend.
    let balance = expire_wallet(conn, user_id).await?;
    let debt: i64 = sqlx::query_scalar("SELECT debt FROM wallets WHERE user_id = $1")
        .bind(user_id)
        .fetch_one(&mut *conn)
        .await?;
    if balance == 0 || debt == 0 {
        return Ok(0);
    }
    let open: Vec<(i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT id, station_id, amount - settled, settled FROM wallet_debts
          WHERE user_id = $1 AND settled < amount ORDER BY id",
    )
    .bind(user_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut paid = 0;
    for (debt_id, station_id, owed, settled) in open {
        let payment = owed.min(balance - paid);
        if payment == 0 {
            break;
        }
        // Keyed by the debt and what it had paid before: unique, as `settled` only grows.
        let spend_id: i64 = sqlx::query_scalar(
            "INSERT INTO spends (user_id, station_id, source_kind, source_id, amount,
                                 description, debt_id)
             VALUES ($1, $2, 'debt', $3, $4, $5, $6) RETURNING id",
        )
        .bind(user_id)
        .bind(station_id)
        .bind(format!("{debt_id}:{settled}"))
        .bind(payment)
        .bind(DEBT_PAYMENT_DESCRIPTION)
        .bind(debt_id)
        .fetch_one(&mut *conn)
        .await?;
        draw(conn, spend_id, user_id, payment).await?;
        sqlx::query(
            "UPDATE wallet_debts
                SET settled = settled + $2,
                    settled_at = CASE WHEN settled + $2 = amount THEN now() END
              WHERE id = $1",
        )
        .bind(debt_id)
        .bind(payment)
        .execute(&mut *conn)
        .await?;
        paid += payment;
    }
    sqlx::query(
        "UPDATE wallets SET balance = balance - $2, debt = debt - $2, updated_at = now()
          WHERE user_id = $1",
    )
    .bind(user_id)
    .bind(paid)
    .execute(&mut *conn)
    .await?;
    Ok(paid)
}

async fn close_lot(conn: &mut PgConnection, lot_id: i64, state: LotState) -> sqlx::Result<()> {
    sqlx::query("UPDATE credit_lots SET state = $2, closed_at = now() WHERE id = $1")
        .bind(lot_id)
        .bind(state)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Ends up to `limit` available lots of the station whose `expires_at` is at or before
/// `now` and that still have an unspent remainder, taking that remainder out of their
/// balances, on the caller's transaction. Wallets busy with a spend are skipped (never
/// waited for) and their lots left for the next call; zero lots means nothing could be
/// expired now. The `cashback.release` job calls it in bounded batches; a spend expires
/// its own wallet's due lots first ([`spend`]).
pub async fn expire_due(
    conn: &mut PgConnection,
    station_id: i64,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Expired> {
    // Both statements read the partial index `credit_lots_expiring` (station, expires_at).
    let wallets: Vec<i64> = sqlx::query_scalar(
        "SELECT w.user_id FROM wallets w
          WHERE w.user_id IN (
                SELECT user_id FROM credit_lots
                 WHERE station_id = $1 AND state = 'available' AND spent < amount
                   AND expires_at IS NOT NULL AND expires_at <= $2
                 ORDER BY expires_at, id LIMIT $3)
          ORDER BY w.user_id
          FOR NO KEY UPDATE OF w SKIP LOCKED",
    )
    .bind(station_id)
    .bind(now)
    .bind(limit)
    .fetch_all(&mut *conn)
    .await?;
    if wallets.is_empty() {
        return Ok(Expired::default());
    }
    let (lots, amount): (i64, i64) = sqlx::query_as(
        "WITH due AS (
             SELECT id FROM credit_lots
              WHERE station_id = $1 AND user_id = ANY($2) AND state = 'available'
                AND spent < amount AND expires_at IS NOT NULL AND expires_at <= $3
              ORDER BY expires_at, id
              LIMIT $4
              FOR UPDATE),
         -- By `id = ANY(array)`, not a join with `due`: as in the release batch, a join
         -- let the planner scan the whole primary key index.
         expired AS (
             UPDATE credit_lots l SET state = 'expired', closed_at = now()
              WHERE l.id = ANY (ARRAY(SELECT id FROM due))
             RETURNING l.user_id, l.amount - l.spent AS remainder),
         per_wallet AS (
             SELECT user_id, sum(remainder)::bigint AS amount FROM expired GROUP BY user_id),
         debited AS (
             UPDATE wallets w SET balance = w.balance - p.amount, updated_at = now()
               FROM per_wallet p WHERE w.user_id = p.user_id)
         SELECT count(*)::bigint, coalesce(sum(remainder), 0)::bigint FROM expired",
    )
    .bind(station_id)
    .bind(&wallets)
    .bind(now)
    .bind(limit)
    .fetch_one(&mut *conn)
    .await?;
    Ok(Expired { lots, amount })
}

/// Whether the station has an available lot to expire at `now` (one probe of the index).
pub async fn has_expiring(
    db: impl PgExecutor<'_>,
    station_id: i64,
    now: DateTime<Utc>,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM credit_lots
                         WHERE station_id = $1 AND state = 'available' AND spent < amount
                           AND expires_at IS NOT NULL AND expires_at <= $2)",
    )
    .bind(station_id)
    .bind(now)
    .fetch_one(db)
    .await
}

/// Ends the due lots of one wallet the caller has locked (wallet, then lots), and answers
/// the balance left.
async fn expire_wallet(conn: &mut PgConnection, user_id: UserId) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "WITH expired AS (
             UPDATE credit_lots SET state = 'expired', closed_at = now()
              WHERE user_id = $1 AND state = 'available' AND spent < amount
                AND expires_at IS NOT NULL AND expires_at <= now()
             RETURNING amount - spent AS remainder),
         debited AS (
             UPDATE wallets
                SET balance = balance - (SELECT sum(remainder) FROM expired),
                    updated_at = now()
              WHERE user_id = $1 AND EXISTS (SELECT 1 FROM expired)
             RETURNING balance)
         -- The wallet row is written only when a lot ended; otherwise its balance as read.
         SELECT coalesce((SELECT balance FROM debited),
                         (SELECT balance FROM wallets WHERE user_id = $1))",
    )
    .bind(user_id)
    .fetch_one(&mut *conn)
    .await
}

/// A member's cached totals, in hundredths. A member with no wallet has zeros.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Balance {
    /// Spendable: available lots less what was spent from them.
    pub balance: i64,
    /// Credited, not yet released.
    pub pending: i64,
}

pub async fn balance(db: impl PgExecutor<'_>, user_id: i64) -> sqlx::Result<Balance> {
    let row: Option<(i64, i64)> =
        sqlx::query_as("SELECT balance, pending FROM wallets WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(db)
            .await?;
    Ok(row
        .map(|(balance, pending)| Balance { balance, pending })
        .unwrap_or_default())
}

/// What the member owes, in hundredths: credits spent and then reversed, not yet paid by
/// later credits. More than zero only while the balance is zero.
pub async fn debt(db: impl PgExecutor<'_>, user_id: i64) -> sqlx::Result<i64> {
    Ok(
        sqlx::query_scalar::<_, i64>("SELECT debt FROM wallets WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(db)
            .await?
            .unwrap_or(0),
    )
}

/// A debt as the statement lists it: `amount` owed, `settled` of it paid so far.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DebtLine {
    pub id: i64,
    pub amount: i64,
    pub settled: i64,
    pub description: String,
    pub created_at: DateTime<Utc>,
    pub settled_at: Option<DateTime<Utc>>,
}

/// The member's debts, newest first, page `page` (from 1) of [`PAGE_SIZE`].
pub async fn debts(
    db: impl PgExecutor<'_>,
    user_id: i64,
    page: i64,
) -> Result<Vec<DebtLine>, LedgerError> {
    Ok(sqlx::query_as(
        "SELECT id, amount, settled, description, created_at, settled_at
           FROM wallet_debts WHERE user_id = $1
          ORDER BY created_at DESC, id DESC
          LIMIT $2 OFFSET $3",
    )
    .bind(user_id)
    .bind(PAGE_SIZE)
    .bind(offset(page))
    .fetch_all(db)
    .await?)
}

/// A credit as the statement lists it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct CreditLine {
    pub id: i64,
    pub amount: i64,
    pub state: LotState,
    pub source_kind: SourceKind,
    pub rule: String,
    pub description: String,
    pub action_id: Option<i64>,
    pub created_at: DateTime<Utc>,
    pub available_at: DateTime<Utc>,
    pub released_at: Option<DateTime<Utc>>,
    pub expires_at: Option<DateTime<Utc>>,
}

/// A spend as the statement lists it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SpendLine {
    pub id: i64,
    pub amount: i64,
    #[sqlx(rename = "source_kind")]
    pub kind: SpendKind,
    pub description: String,
    pub action_id: Option<i64>,
    pub created_at: DateTime<Utc>,
}

fn offset(page: i64) -> i64 {
    page.max(1).saturating_sub(1).saturating_mul(PAGE_SIZE)
}

/// The member's credits, newest first, page `page` (from 1) of [`PAGE_SIZE`].
pub async fn credits(
    db: impl PgExecutor<'_>,
    user_id: i64,
    page: i64,
) -> Result<Vec<CreditLine>, LedgerError> {
    Ok(sqlx::query_as(
        "SELECT id, amount, state, source_kind, rule, description, action_id, created_at,
                available_at, released_at, expires_at
           FROM credit_lots WHERE user_id = $1
          ORDER BY created_at DESC, id DESC
          LIMIT $2 OFFSET $3",
    )
    .bind(user_id)
    .bind(PAGE_SIZE)
    .bind(offset(page))
    .fetch_all(db)
    .await?)
}

/// The member's spends, newest first, page `page` (from 1) of [`PAGE_SIZE`].
pub async fn spends(
    db: impl PgExecutor<'_>,
    user_id: i64,
    page: i64,
) -> Result<Vec<SpendLine>, LedgerError> {
    Ok(sqlx::query_as(
        "SELECT id, amount, source_kind, description, action_id, created_at
           FROM spends WHERE user_id = $1
          ORDER BY created_at DESC, id DESC
          LIMIT $2 OFFSET $3",
    )
    .bind(user_id)
    .bind(PAGE_SIZE)
    .bind(offset(page))
    .fetch_all(db)
    .await?)
}

/// A broken invariant found by [`check`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Mismatch {
    /// `wallets.balance` differs from the unspent amount of the available lots.
    Balance {
        user_id: i64,
        cached: i64,
        ledger: i64,
    },
    /// `wallets.pending` differs from the amount of the pending lots.
    Pending {
        user_id: i64,
        cached: i64,
        ledger: i64,
    },
    /// A spend's amount differs from what its allocations drew.
    SpendAllocations {
        user_id: i64,
        spend_id: i64,
        amount: i64,
        allocated: i64,
    },
    /// A lot's `spent` differs from what allocations drew from it.
    LotSpent {
        user_id: i64,
        lot_id: i64,
        spent: i64,
        allocated: i64,
    },
    /// A spend drew on another member's lot.
    ForeignAllocation {
        user_id: i64,
        spend_id: i64,
        lot_id: i64,
    },
    /// `wallets.debt` differs from what the member's debts leave unpaid.
    Debt {
        user_id: i64,
        cached: i64,
        ledger: i64,
    },
    /// A debt's `settled` differs from the payments that name it.
    DebtPayments {
        user_id: i64,
        debt_id: i64,
        settled: i64,
        paid: i64,
    },
    /// The member owes while holding a balance that should have paid it.
    DebtBesideBalance {
        user_id: i64,
        debt: i64,
        balance: i64,
    },
}

/// The invariants of one member's wallet; empty when they hold.
pub async fn check(db: impl PgExecutor<'_>, user_id: i64) -> sqlx::Result<Vec<Mismatch>> {
    check_wallets(db, Some(user_id)).await
}

/// The invariants of every wallet; empty when they hold.
pub async fn check_all(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<Mismatch>> {
    check_wallets(db, None).await
}

async fn check_wallets(
    db: impl PgExecutor<'_>,
    user_id: Option<i64>,
) -> sqlx::Result<Vec<Mismatch>> {
    // Per spend and per lot, which implies the migration's per-member sums.
    let rows: Vec<(String, i64, i64, i64, i64)> = sqlx::query_as(
        "WITH ledger AS (
             SELECT user_id,
                    coalesce(sum(amount - spent) FILTER (WHERE state = 'available'), 0)::bigint
                        AS balance,
                    coalesce(sum(amount) FILTER (WHERE state = 'pending'), 0)::bigint AS pending
               FROM credit_lots WHERE $1::bigint IS NULL OR user_id = $1
              GROUP BY user_id)
         SELECT 'balance', w.user_id, 0::bigint, w.balance, coalesce(l.balance, 0)::bigint
           FROM wallets w LEFT JOIN ledger l USING (user_id)
          WHERE ($1::bigint IS NULL OR w.user_id = $1) AND w.balance <> coalesce(l.balance, 0)
         UNION ALL
         SELECT 'pending', w.user_id, 0::bigint, w.pending, coalesce(l.pending, 0)::bigint
           FROM wallets w LEFT JOIN ledger l USING (user_id)
          WHERE ($1::bigint IS NULL OR w.user_id = $1) AND w.pending <> coalesce(l.pending, 0)
         UNION ALL
         SELECT 'spend', s.user_id, s.id, s.amount, coalesce(sum(a.amount), 0)::bigint
           FROM spends s LEFT JOIN spend_allocations a ON a.spend_id = s.id
          WHERE $1::bigint IS NULL OR s.user_id = $1
          GROUP BY s.id HAVING s.amount <> coalesce(sum(a.amount), 0)
         UNION ALL
         SELECT 'lot', l.user_id, l.id, l.spent, coalesce(sum(a.amount), 0)::bigint
           FROM credit_lots l LEFT JOIN spend_allocations a ON a.lot_id = l.id
          WHERE $1::bigint IS NULL OR l.user_id = $1
          GROUP BY l.id HAVING l.spent <> coalesce(sum(a.amount), 0)
         UNION ALL
         SELECT 'foreign', s.user_id, s.id, l.id, 0::bigint
           FROM spend_allocations a
           JOIN spends s ON s.id = a.spend_id
           JOIN credit_lots l ON l.id = a.lot_id
          WHERE ($1::bigint IS NULL OR s.user_id = $1 OR l.user_id = $1)
            AND l.user_id <> s.user_id
         UNION ALL
         SELECT 'debt', w.user_id, 0::bigint, w.debt,
                coalesce((SELECT sum(d.amount - d.settled) FROM wallet_debts d
                           WHERE d.user_id = w.user_id), 0)::bigint
           FROM wallets w
          WHERE ($1::bigint IS NULL OR w.user_id = $1)
            AND w.debt <> coalesce((SELECT sum(d.amount - d.settled) FROM wallet_debts d
                                     WHERE d.user_id = w.user_id), 0)
         UNION ALL
         SELECT 'debt_payments', d.user_id, d.id, d.settled, coalesce(sum(s.amount), 0)::bigint
           FROM wallet_debts d LEFT JOIN spends s ON s.debt_id = d.id
          WHERE $1::bigint IS NULL OR d.user_id = $1
          GROUP BY d.id HAVING d.settled <> coalesce(sum(s.amount), 0)
         UNION ALL
         SELECT 'debt_beside_balance', w.user_id, 0::bigint, w.debt, w.balance
           FROM wallets w
          WHERE ($1::bigint IS NULL OR w.user_id = $1) AND w.debt > 0 AND w.balance > 0",
    )
    .bind(user_id)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(kind, user_id, id, a, b)| match kind.as_str() {
            "balance" => Mismatch::Balance {
                user_id,
                cached: a,
                ledger: b,
            },
            "pending" => Mismatch::Pending {
                user_id,
                cached: a,
                ledger: b,
            },
            "spend" => Mismatch::SpendAllocations {
                user_id,
                spend_id: id,
                amount: a,
                allocated: b,
            },
            "lot" => Mismatch::LotSpent {
                user_id,
                lot_id: id,
                spent: a,
                allocated: b,
            },
            "foreign" => Mismatch::ForeignAllocation {
                user_id,
                spend_id: id,
                lot_id: a,
            },
            "debt" => Mismatch::Debt {
                user_id,
                cached: a,
                ledger: b,
            },
            "debt_payments" => Mismatch::DebtPayments {
                user_id,
                debt_id: id,
                settled: a,
                paid: b,
            },
            _ => Mismatch::DebtBesideBalance {
                user_id,
                debt: a,
                balance: b,
            },
        })
        .collect())
}

#[cfg(test)]
mod tests;
