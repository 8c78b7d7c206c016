//! Top-ups: money a member puts into the wallet (issue 29, docs/api-wallet.md "Top-ups").
//! One row per top-up, whatever its method: a PIX charge, a card charge, or a bank-transfer
//! request that staff confirm. 1 point = R$ 1,00, so the amount is centavos and the
//! ledger's hundredths alike.
//!
//! Every change of a row is a conditional update of its status under the row's lock, so a
//! webhook's sync, a member's check, the expiry job and staff racing each other move it
//! once; its credit is one `points.credit` keyed `topup:{id}:topup` (the lot's own key).

use chrono::{DateTime, Duration, Utc};
use sqlx::PgConnection;

use crate::commerce::gateway::{
    CardChargeRequest, CardSource, Charge, ChargeStatus, Customer, GatewayError, PixCharge,
    PixChargeRequest,
};
use crate::commerce::payment::{PIX_SECONDS, source_from_column, source_to_column};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{StationId, UserId};
use crate::shared::money::format_brl;
use crate::shared::text_enum;
use crate::shared::time::{day_start, station_zone};
use crate::wallet::ledger::{self, Credit, LedgerError, Reversal, SourceKind};
use crate::wallet::rules;

pub mod mail;

text_enum! {
    /// How the money comes in.
    Method {
        Pix => "pix",
        Card => "card",
        Transfer => "transfer",
    }
}

text_enum! {
    /// A top-up's state (see the migration for each one's meaning).
    Status {
        Pending => "pending",
        Review => "review",
        Credited => "credited",
        Failed => "failed",
        Expired => "expired",
        Rejected => "rejected",
        Refunded => "refunded",
    }
}

/// How long a card top-up may stay without an answer from the provider before the expiry
/// job reads its charge again (or fails it when none was recorded).
pub const CARD_SECONDS: i64 = 30 * 60;

/// The texts a member reads.
pub const INVALID_AMOUNT: &str = "Informe um valor válido.";
pub const NOT_FOUND: &str = "Recarga não encontrada.";
pub const CARD_NOT_FOUND: &str = "Cartão não encontrado. Escolha outro cartão ou cadastre um novo.";
pub const NO_TRANSFER: &str = "Esta estação não recebe transferências bancárias.";
pub const WRONG_TYPE: &str = "Tipo de pedido inválido.";
pub const DECLINED_DEFAULT: &str = crate::commerce::payment::DECLINED_DEFAULT;
/// A card top-up the provider never answered in time.
pub const NOT_COMPLETED: &str = "O pagamento não foi concluído.";
/// A card charge the provider still had not decided after [`CARD_EXPIRY_ROUNDS`] expiries
/// (and that it then cancelled).
pub const NOT_CONFIRMED: &str =
    "A operadora do cartão não confirmou o pagamento a tempo. Nenhum valor foi cobrado.";
/// How many times a card top-up whose charge is still processing at its expiry is given
/// another [`CARD_SECONDS`] before its charge is cancelled.
pub const CARD_EXPIRY_ROUNDS: i32 = 4;

/// The station's limits (`stations.topup_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct Settings {
    pub min_cents: i64,
    pub max_cents: i64,
    pub daily_max_cents: i64,
    pub review_above_cents: i64,
    pub transfer_expiry_hours: i32,
}

/// Where members send a bank transfer to.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct BankDetails {
    pub bank_name: String,
    pub agency: String,
    pub account: String,
    pub holder: String,
    pub document: String,
    pub pix_key: Option<String>,
}

/// One top-up as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TopUp {
    pub id: i64,
    pub station_id: i64,
    pub user_id: i64,
    pub method: Method,
    pub amount: i64,
    pub status: Status,
    pub failure_reason: Option<String>,
    pub saved_card_id: Option<i64>,
    pub gateway_charge_id: Option<String>,
    pub br_code: Option<String>,
    pub paid_at: Option<DateTime<Utc>>,
    pub expires_at: Option<DateTime<Utc>>,
    pub credited_at: Option<DateTime<Utc>>,
    pub decided_by: Option<i64>,
    pub decided_at: Option<DateTime<Utc>>,
    pub refund_sent_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

impl TopUp {
    /// The state a member reads: a pending PIX or transfer past its expiry is expired at
    /// once, whether or not the expiry job has run yet.
    pub fn status_now(&self, now: DateTime<Utc>) -> Status {
        match (self.status, self.method, self.expires_at) {
            (Status::Pending, Method::Pix | Method::Transfer, Some(at)) if at <= now => {
                Status::Expired
            }
            (status, ..) => status,
        }
    }

    /// The idempotency key of its charge: one top-up, one charge.
    pub fn charge_key(&self) -> String {
        format!("topup:{}", self.id)
    }

    /// Its charge's reference at the provider (its dashboard shows it).
    pub fn reference(&self) -> String {
        format!("RECARGA-{}", self.id)
    }

    /// Its PIX charge, as the shop's checkout asks for one: under its own key.
    pub fn pix_request(&self, customer: Customer) -> PixChargeRequest {
        PixChargeRequest {
            amount_cents: self.amount,
            expires_in_seconds: PIX_SECONDS,
            reference: self.reference(),
            idempotency_key: self.charge_key(),
            customer,
        }
    }

    /// Its card charge, one installment, under its own key (asked again with the same card,
    /// the provider answers the original charge).
    pub fn card_request(&self, customer: Customer, source: CardSource) -> CardChargeRequest {
        CardChargeRequest {
            amount_cents: self.amount,
            installments: 1,
            source,
            billing_address: None,
            reference: self.reference(),
            idempotency_key: self.charge_key(),
            customer,
        }
    }

    /// Its credit: instant (`topup` rule), keyed by the top-up.
    pub fn credit(&self) -> Credit {
        Credit {
            user_id: UserId(self.user_id),
            station_id: StationId(self.station_id),
            source_kind: SourceKind::Topup,
            source_id: self.id.to_string(),
            rule: rules::TOPUP.into(),
            amount: self.amount,
            description: description(self.method).into(),
            action_id: None,
        }
    }

    /// What a partial bank refund leaves of its credit: a lot of its own, keyed by the
    /// amount it keeps, so each partial refund replaces the last one's lot once.
    pub fn kept_credit(&self, kept: i64) -> Credit {
        Credit {
            source_id: format!("{}:kept:{kept}", self.id),
            amount: kept,
            ..self.credit()
        }
    }
}

/// What the statement shows for a top-up's credit.
pub fn description(method: Method) -> &'static str {
    match method {
        Method::Pix => "Recarga de créditos por PIX",
        Method::Card => "Recarga de créditos por cartão",
        Method::Transfer => "Recarga de créditos por transferência",
    }
}

/// Why a top-up is refused or cannot move.
#[derive(Debug, thiserror::Error)]
pub enum TopUpError {
    #[error("below the minimum")]
    BelowMinimum(i64),
    #[error("above the maximum")]
    AboveMaximum(i64),
    #[error("daily limit reached")]
    DailyLimit { left: i64 },
    #[error("invalid amount")]
    InvalidAmount,
    #[error("the station takes no transfers")]
    NoBankDetails,
    #[error("unknown card")]
    UnknownCard,
    #[error("card declined: {0}")]
    Declined(String),
    #[error("no such top-up")]
    NotFound,
    /// Staff asked for a move its state does not allow.
    #[error("not {0}")]
    Conflict(&'static str),
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// The provider is unreachable or failed: safe to retry (same idempotency key).
    #[error("payment provider: {0}")]
    Gateway(#[from] GatewayError),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl IntoFailure for TopUpError {
    fn into_failure(self) -> Failure {
        match self {
            Self::BelowMinimum(min) => {
                Failure::invalid(format!("O valor mínimo é {}.", format_brl(min)))
            }
            Self::AboveMaximum(max) => {
                Failure::invalid(format!("O valor máximo por pedido é {}.", format_brl(max)))
            }
            Self::DailyLimit { left } => Failure::invalid(format!(
                "Limite diário de recarga atingido: você ainda pode pedir {}.",
                format_brl(left)
            )),
            Self::InvalidAmount => Failure::invalid(INVALID_AMOUNT),
            Self::NoBankDetails => Failure::invalid(NO_TRANSFER),
            Self::UnknownCard => Failure::invalid(CARD_NOT_FOUND),
            Self::Declined(reason) => Failure::Invalid(vec![reason]),
            Self::NotFound => Failure::NotFound(NOT_FOUND.into()),
            Self::Conflict(what) => Failure::Conflict(what.into()),
            Self::Ledger(err) => err.into_failure(),
            Self::Gateway(err) => err.into_failure(),
            Self::Db(err) => err.into_failure(),
        }
    }
}

/// The staff's 409 texts.
pub const NOT_CONFIRMABLE: &str = "Só um pedido de transferência pendente ou expirado ou uma recarga em análise pode ser confirmado.";
pub const NOT_REJECTABLE: &str =
    "Só um pedido de transferência pendente ou uma recarga em análise pode ser recusado.";
pub const NOT_REFUNDABLE: &str = "Só uma recarga por PIX ou cartão creditada pode ser estornada.";

pub async fn settings(conn: &mut PgConnection, station_id: i64) -> sqlx::Result<Settings> {
    sqlx::query_as(
        "SELECT topup_min_cents AS min_cents, topup_max_cents AS max_cents,
                topup_daily_max_cents AS daily_max_cents,
                topup_review_above_cents AS review_above_cents, topup_transfer_expiry_hours
                AS transfer_expiry_hours
           FROM stations WHERE id = $1",
    )
    .bind(station_id)
    .fetch_one(conn)
    .await
}

pub async fn bank_details(
    conn: &mut PgConnection,
    station_id: i64,
) -> sqlx::Result<Option<BankDetails>> {
    sqlx::query_as(
        "SELECT bank_name, agency, account, holder, document, pix_key
           FROM station_bank_details WHERE station_id = $1",
    )
    .bind(station_id)
    .fetch_optional(conn)
    .await
}

/// Sets (or replaces) the station's bank details.
pub async fn set_bank_details(
    conn: &mut PgConnection,
    station_id: i64,
    details: &BankDetails,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO station_bank_details
             (station_id, bank_name, agency, account, holder, document, pix_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (station_id) DO UPDATE SET bank_name = $2, agency = $3, account = $4,
             holder = $5, document = $6, pix_key = $7",
    )
    .bind(station_id)
    .bind(&details.bank_name)
    .bind(&details.agency)
    .bind(&details.account)
    .bind(&details.holder)
    .bind(&details.document)
    .bind(&details.pix_key)
    .execute(conn)
    .await?;
    Ok(())
}

/// What the member may still ask for today (the station's day): the daily maximum less
/// their live top-ups of every method since the day started (a pending one past its
/// expiry no longer counts).
pub async fn daily_left(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    settings: &Settings,
) -> sqlx::Result<i64> {
    let zone = station_zone(&mut *conn, station_id).await?;
    let since = day_start(zone, Utc::now());
    let used: i64 = sqlx::query_scalar(
        "SELECT coalesce(sum(amount), 0)::bigint FROM topups
          WHERE user_id = $1 AND station_id = $2 AND created_at >= $3
            AND status IN ('pending', 'review', 'credited')
            AND NOT (status = 'pending' AND expires_at IS NOT NULL AND expires_at <= now())",
    )
    .bind(user_id)
    .bind(station_id)
    .bind(since)
    .fetch_one(conn)
    .await?;
    Ok((settings.daily_max_cents - used).max(0))
}

/// A new top-up to open.
#[derive(Debug, Clone)]
pub struct Opening {
    pub station_id: i64,
    pub user_id: i64,
    pub method: Method,
    pub amount: i64,
    pub saved_card_id: Option<i64>,
}

/// Checks the station's limits and opens the top-up, on the caller's transaction. The
/// member's top-ups are serialised (a transaction-scoped advisory lock), so two requests at
/// once cannot both pass the daily limit. A transfer request expires after the station's
/// hours, a card top-up after [`CARD_SECONDS`], a PIX after [`PIX_SECONDS`] until its
/// charge's own expiry replaces it.
pub async fn open(tx: &mut PgConnection, opening: &Opening) -> Result<TopUp, TopUpError> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('topups:' || $1::text, 0))")
        .bind(opening.user_id)
        .execute(&mut *tx)
        .await?;
    let settings = settings(tx, opening.station_id).await?;
    if opening.amount < settings.min_cents {
        return Err(TopUpError::BelowMinimum(settings.min_cents));
    }
    if opening.amount > settings.max_cents {
        return Err(TopUpError::AboveMaximum(settings.max_cents));
    }
    let left = daily_left(tx, opening.station_id, opening.user_id, &settings).await?;
    if opening.amount > left {
        return Err(TopUpError::DailyLimit { left });
    }
    let expires_in = match opening.method {
        Method::Transfer => {
            if bank_details(tx, opening.station_id).await?.is_none() {
                return Err(TopUpError::NoBankDetails);
            }
            Some(Duration::hours(settings.transfer_expiry_hours.into()))
        }
        Method::Card => Some(Duration::seconds(CARD_SECONDS)),
        // Until its charge is recorded (which sets the charge's own expiry): a PIX whose
        // charge was never made ends all the same.
        Method::Pix => Some(Duration::seconds(i64::from(PIX_SECONDS))),
    };
    let expires_at = expires_in.map(|after| Utc::now() + after);
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "INSERT INTO topups (station_id, user_id, method, amount, saved_card_id, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING {COLUMNS}"
    )))
    .bind(opening.station_id)
    .bind(opening.user_id)
    .bind(opening.method)
    .bind(opening.amount)
    .bind(opening.saved_card_id)
    .bind(expires_at)
    .fetch_one(&mut *tx)
    .await?)
}

const COLUMNS: &str = "id, station_id, user_id, method, amount, status, failure_reason,
    saved_card_id, gateway_charge_id, br_code, paid_at, expires_at, credited_at, decided_by,
    decided_at, refund_sent_at, created_at";

/// One of the member's top-ups (another member's reads as absent).
pub async fn of_member(
    conn: &mut PgConnection,
    user_id: i64,
    topup_id: i64,
) -> sqlx::Result<Option<TopUp>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM topups WHERE id = $1 AND user_id = $2"
    )))
    .bind(topup_id)
    .bind(user_id)
    .fetch_optional(conn)
    .await
}

/// The member's top-ups, newest first, of one method or all; at most `limit`.
pub async fn list_of_member(
    conn: &mut PgConnection,
    user_id: i64,
    method: Option<Method>,
    limit: i64,
) -> sqlx::Result<Vec<TopUp>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM topups
          WHERE user_id = $1 AND ($2::text IS NULL OR method = $2)
          ORDER BY id DESC LIMIT $3"
    )))
    .bind(user_id)
    .bind(method.map(Method::as_str))
    .bind(limit)
    .fetch_all(conn)
    .await
}

pub async fn find(conn: &mut PgConnection, topup_id: i64) -> sqlx::Result<Option<TopUp>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM topups WHERE id = $1"
    )))
    .bind(topup_id)
    .fetch_optional(conn)
    .await
}

/// Locks the top-up (a station's staff see only their stations': `station` when scoped).
pub async fn lock(
    conn: &mut PgConnection,
    topup_id: i64,
    station: Option<i64>,
) -> sqlx::Result<Option<TopUp>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM topups
          WHERE id = $1 AND ($2::bigint IS NULL OR station_id = $2) FOR UPDATE"
    )))
    .bind(topup_id)
    .bind(station)
    .fetch_optional(conn)
    .await
}

/// Whether a charge is a top-up's (the payment webhook's sync routes it here).
pub async fn is_topup_charge(conn: &mut PgConnection, charge_id: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM topups WHERE gateway_charge_id = $1)")
        .bind(charge_id)
        .fetch_one(conn)
        .await
}

/// The top-up of a charge, with its owner (the sandbox's "simulate payment" checks it).
pub async fn by_charge(conn: &mut PgConnection, charge_id: &str) -> sqlx::Result<Option<TopUp>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM topups WHERE gateway_charge_id = $1"
    )))
    .bind(charge_id)
    .fetch_optional(conn)
    .await
}

/// Records the PIX charge made for a pending top-up: its code and expiry.
pub async fn record_pix(
    conn: &mut PgConnection,
    topup_id: i64,
    charge: &PixCharge,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE topups SET gateway_charge_id = $2, br_code = $3, expires_at = $4
          WHERE id = $1 AND gateway_charge_id IS NULL",
    )
    .bind(topup_id)
    .bind(&charge.charge_id)
    .bind(&charge.br_code)
    .bind(charge.expires_at)
    .execute(conn)
    .await?;
    Ok(())
}

/// Keeps the card a card top-up is to be charged with, before the provider is called, so
/// the expiry or the member's check can repeat the same request when its answer was lost.
pub async fn keep_card_source(
    conn: &mut PgConnection,
    topup_id: i64,
    source: &CardSource,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE topups SET charge_source = $2
          WHERE id = $1 AND gateway_charge_id IS NULL AND status = 'pending'",
    )
    .bind(topup_id)
    .bind(source_to_column(source))
    .execute(conn)
    .await?;
    Ok(())
}

/// The card kept for a pending card top-up whose charge was never recorded: `None` when
/// no charge was asked for (or it was recorded, or the top-up ended).
pub async fn unrecorded_card_source(
    conn: &mut PgConnection,
    topup_id: i64,
) -> sqlx::Result<Option<CardSource>> {
    let kept: Option<Option<String>> = sqlx::query_scalar(
        "SELECT charge_source FROM topups
          WHERE id = $1 AND gateway_charge_id IS NULL AND status = 'pending'",
    )
    .bind(topup_id)
    .fetch_optional(conn)
    .await?;
    Ok(kept.flatten().as_deref().map(source_from_column))
}

/// Records the card charge made for a top-up (before its answer is applied); the card kept
/// for it is no longer needed.
pub async fn record_charge(
    conn: &mut PgConnection,
    topup_id: i64,
    charge_id: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE topups SET gateway_charge_id = $2, charge_source = NULL
          WHERE id = $1 AND gateway_charge_id IS NULL",
    )
    .bind(topup_id)
    .bind(charge_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Gives a pending card top-up whose charge is still processing another [`CARD_SECONDS`]:
/// its new expiry, or `None` after [`CARD_EXPIRY_ROUNDS`] rounds since it was opened.
pub async fn postpone_expiry(
    conn: &mut PgConnection,
    topup_id: i64,
) -> sqlx::Result<Option<DateTime<Utc>>> {
    sqlx::query_scalar(
        "UPDATE topups SET expires_at = now() + $2 * interval '1 second'
          WHERE id = $1 AND status = 'pending' AND method = 'card'
            AND now() + $2 * interval '1 second'
                <= created_at + $3 * $2 * interval '1 second' + interval '1 minute'
          RETURNING expires_at",
    )
    .bind(topup_id)
    .bind(CARD_SECONDS)
    .bind(CARD_EXPIRY_ROUNDS + 1)
    .fetch_optional(conn)
    .await
}

/// Claims the right to read the top-up's charge at the provider now: `false` when it was
/// read less than `reuse_seconds` ago (that read stands), across API processes.
pub async fn claim_charge_read(
    conn: &mut PgConnection,
    topup_id: i64,
    reuse_seconds: u64,
) -> sqlx::Result<bool> {
    let claimed = sqlx::query(
        "UPDATE topups SET charge_read_at = now()
          WHERE id = $1 AND (charge_read_at IS NULL
                OR charge_read_at <= now() - $2 * interval '1 second')",
    )
    .bind(topup_id)
    .bind(i64::try_from(reuse_seconds).unwrap_or(i64::MAX))
    .execute(conn)
    .await?
    .rows_affected();
    Ok(claimed == 1)
}

/// What applying a provider's word (or staff's) did to a top-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// Paid (or confirmed) now: its credit and e-mail are to be queued.
    Credited(TopUp),
    /// Paid above the review threshold: staff decide.
    Review(TopUp),
    Failed(TopUp),
    Expired(TopUp),
    /// The bank gave money back (a refund, whole or partial, or a chargeback at the
    /// provider): the credit's reversal, or `None` when nothing had been credited.
    Reversed(TopUp, Option<Reversal>),
    /// Nothing to change (applied before, or not a word about this state).
    Unchanged(TopUp),
}

impl Applied {
    /// The top-up as it is now.
    pub fn topup(&self) -> &TopUp {
        match self {
            Self::Credited(topup)
            | Self::Review(topup)
            | Self::Failed(topup)
            | Self::Expired(topup)
            | Self::Reversed(topup, _)
            | Self::Unchanged(topup) => topup,
        }
    }
}

/// Applies what the provider says of a top-up's charge, under the row's lock: paid moves a
/// pending (or expired: a PIX paid late is still money in) top-up to `credited`, or to
/// `review` above the station's threshold; failed declines it; canceled expires it. Money
/// the bank took back (docs/decisions.md, "Top-ups: money the bank takes back"): a whole
/// refund or a chargeback of a credited top-up reverses its credit (`refunded`), of one
/// never credited (pending, under review) ends it `refunded` with nothing credited, ever; a
/// partial refund takes back that much of the credit and leaves it `credited`. Only what is
/// new against what was taken back before is applied, so replays change nothing. A top-up
/// under review partly refunded is rejected (the caller refunds the rest). `None`: no
/// top-up has this charge.
pub async fn apply_charge(
    tx: &mut PgConnection,
    charge: &Charge,
) -> Result<Option<Applied>, TopUpError> {
    let id: Option<i64> = sqlx::query_scalar("SELECT id FROM topups WHERE gateway_charge_id = $1")
        .bind(&charge.charge_id)
        .fetch_optional(&mut *tx)
        .await?;
    let Some(id) = id else { return Ok(None) };
    let topup = lock(tx, id, None).await?.ok_or(TopUpError::NotFound)?;
    let open = matches!(topup.status, Status::Pending | Status::Expired);
    let whole_taken_back = matches!(
        charge.status,
        ChargeStatus::Refunded | ChargeStatus::Chargedback
    );
    Ok(Some(match charge.status {
        ChargeStatus::Paid | ChargeStatus::PartiallyRefunded if open => {
            let settings = settings(tx, topup.station_id).await?;
            if topup.amount > settings.review_above_cents {
                if charge.status == ChargeStatus::PartiallyRefunded {
                    Applied::Reversed(reject_taken_back(tx, id).await?, None)
                } else {
                    Applied::Review(set_status(tx, id, Status::Review, None, true).await?)
                }
            } else {
                let credited = set_status(tx, id, Status::Credited, None, true).await?;
                // Paid, then partly refunded before we heard of it: credited, less that.
                match take_back(tx, &credited, refunded_total(charge, &credited)).await? {
                    Some(reversal) => Applied::Reversed(credited, Some(reversal)),
                    None => Applied::Credited(credited),
                }
            }
        }
        ChargeStatus::Failed if topup.status == Status::Pending => {
            let reason = charge
                .failure_reason
                .clone()
                .unwrap_or_else(|| DECLINED_DEFAULT.into());
            Applied::Failed(set_status(tx, id, Status::Failed, Some(&reason), false).await?)
        }
        ChargeStatus::Canceled if topup.status == Status::Pending => {
            Applied::Expired(set_status(tx, id, Status::Expired, None, false).await?)
        }
        // Partly given back while staff had not decided yet.
        ChargeStatus::PartiallyRefunded if topup.status == Status::Review => {
            Applied::Reversed(reject_taken_back(tx, id).await?, None)
        }
        // Given back whole before anything was credited: nothing to reverse, and staff can
        // no longer confirm it.
        _ if whole_taken_back && (open || topup.status == Status::Review) => {
            let ended = set_status(tx, id, Status::Refunded, None, true).await?;
            refund_sent(tx, id).await?;
            Applied::Reversed(ended, None)
        }
        ChargeStatus::Refunded | ChargeStatus::PartiallyRefunded | ChargeStatus::Chargedback
            if topup.status == Status::Credited =>
        {
            match take_back(tx, &topup, refunded_total(charge, &topup)).await? {
                Some(reversal) if whole_taken_back => {
                    let ended = set_status(tx, id, Status::Refunded, None, false).await?;
                    refund_sent(tx, id).await?;
                    Applied::Reversed(ended, Some(reversal))
                }
                Some(reversal) => Applied::Reversed(topup, Some(reversal)),
                None => Applied::Unchanged(topup),
            }
        }
        // Staff's refund or rejection that the provider took while our call failed: the
        // money is back with the payer, nothing is owed any more.
        _ if whole_taken_back && matches!(topup.status, Status::Refunded | Status::Rejected) => {
            refund_sent(tx, id).await?;
            Applied::Unchanged(topup)
        }
        _ => Applied::Unchanged(topup),
    }))
}

/// A top-up under review (or about to be) whose charge the bank partly gave back: rejected,
/// never credited; the caller refunds the rest at the provider (its refund is owed).
async fn reject_taken_back(tx: &mut PgConnection, topup_id: i64) -> sqlx::Result<TopUp> {
    set_status(tx, topup_id, Status::Rejected, None, true).await
}

/// What the provider says it gave back of the top-up's charge: all of it for a whole refund
/// or a chargeback.
fn refunded_total(charge: &Charge, topup: &TopUp) -> i64 {
    match charge.status {
        ChargeStatus::Refunded | ChargeStatus::Chargedback => topup.amount,
        _ => charge.refunded_amount_cents.clamp(0, topup.amount),
    }
}

/// Moves a locked top-up to `status`; `paid` stamps its payment's time, `credited` its
/// credit's.
async fn set_status(
    tx: &mut PgConnection,
    topup_id: i64,
    status: Status,
    reason: Option<&str>,
    paid: bool,
) -> sqlx::Result<TopUp> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE topups SET status = $2, failure_reason = coalesce($3, failure_reason),
                paid_at = CASE WHEN $4 THEN coalesce(paid_at, now()) ELSE paid_at END,
                credited_at = CASE WHEN $2 = 'credited' THEN now() ELSE credited_at END,
                charge_source = NULL
          WHERE id = $1 RETURNING {COLUMNS}"
    )))
    .bind(topup_id)
    .bind(status)
    .bind(reason)
    .bind(paid)
    .fetch_one(tx)
    .await
}

/// Declines a pending card top-up with the provider's reason (a refused charge request).
pub async fn decline(
    tx: &mut PgConnection,
    topup_id: i64,
    reason: &str,
) -> Result<Applied, TopUpError> {
    let topup = lock(tx, topup_id, None)
        .await?
        .ok_or(TopUpError::NotFound)?;
    if topup.status != Status::Pending {
        return Ok(Applied::Unchanged(topup));
    }
    Ok(Applied::Failed(
        set_status(tx, topup_id, Status::Failed, Some(reason), false).await?,
    ))
}

/// Ends a pending top-up whose time ran out without money (the expiry job): a PIX or a
/// transfer request expires, a card top-up with no answer fails.
pub async fn end_unpaid(tx: &mut PgConnection, topup_id: i64) -> Result<Applied, TopUpError> {
    let topup = lock(tx, topup_id, None)
        .await?
        .ok_or(TopUpError::NotFound)?;
    if topup.status != Status::Pending {
        return Ok(Applied::Unchanged(topup));
    }
    Ok(match topup.method {
        Method::Card => Applied::Failed(
            set_status(tx, topup_id, Status::Failed, Some(NOT_COMPLETED), false).await?,
        ),
        Method::Pix | Method::Transfer => {
            Applied::Expired(set_status(tx, topup_id, Status::Expired, None, false).await?)
        }
    })
}

/// Staff's decision on a locked top-up, stamped with who and when.
async fn decide(
    tx: &mut PgConnection,
    topup_id: i64,
    status: Status,
    staff_id: i64,
) -> sqlx::Result<TopUp> {
    sqlx::query("UPDATE topups SET decided_by = $2, decided_at = now() WHERE id = $1")
        .bind(topup_id)
        .bind(staff_id)
        .execute(&mut *tx)
        .await?;
    set_status(tx, topup_id, status, None, false).await
}

/// Staff confirm a transfer request, pending or expired (the member paid late: the expiry
/// e-mail sends them to support), or a paid top-up under review: it becomes `credited`. A
/// second confirmation finds it credited: a conflict.
pub async fn confirm(
    tx: &mut PgConnection,
    topup: &TopUp,
    staff_id: i64,
) -> Result<TopUp, TopUpError> {
    let confirmable = matches!(
        (topup.method, topup.status),
        (_, Status::Review) | (Method::Transfer, Status::Pending | Status::Expired)
    );
    if !confirmable {
        return Err(TopUpError::Conflict(NOT_CONFIRMABLE));
    }
    Ok(decide(tx, topup.id, Status::Credited, staff_id).await?)
}

/// Staff refuse a pending transfer request or a top-up under review (whose charge the
/// caller then refunds at the provider).
pub async fn reject(
    tx: &mut PgConnection,
    topup: &TopUp,
    staff_id: i64,
) -> Result<TopUp, TopUpError> {
    let rejectable = matches!(
        (topup.method, topup.status),
        (_, Status::Review) | (Method::Transfer, Status::Pending)
    );
    if !rejectable {
        return Err(TopUpError::Conflict(NOT_REJECTABLE));
    }
    Ok(decide(tx, topup.id, Status::Rejected, staff_id).await?)
}

/// Staff refund a credited PIX or card top-up: the unspent part of its lot leaves the
/// balance, the spent part becomes a debt (`ledger::reverse`). Answers the top-up as
/// refunded and what the reversal did.
pub async fn refund(
    tx: &mut PgConnection,
    topup: &TopUp,
    staff_id: i64,
) -> Result<(TopUp, Reversal), TopUpError> {
    if topup.method == Method::Transfer || topup.status != Status::Credited {
        return Err(TopUpError::Conflict(NOT_REFUNDABLE));
    }
    let reversal = take_back(tx, topup, topup.amount)
        .await?
        .ok_or(TopUpError::Conflict(NOT_REFUNDABLE))?;
    Ok((
        decide(tx, topup.id, Status::Refunded, staff_id).await?,
        reversal,
    ))
}

/// Takes back a credited top-up's credit down to what the bank left of its charge
/// (`amount - refunded`): its live lot (the credit, or what an earlier partial refund kept)
/// is reversed (the unspent part leaves the balance, the spent part becomes a debt) and the
/// kept part credited again as a lot of its own (keyed by what it keeps), which pays that
/// debt first. `None` when that much was taken back already (a replay). The credit's
/// `points.credit` job may not have run yet: it is written here first under the same key
/// (the job then finds it and does nothing), so the reversal always has its lot.
async fn take_back(
    tx: &mut PgConnection,
    topup: &TopUp,
    refunded: i64,
) -> Result<Option<Reversal>, TopUpError> {
    ledger::credit(tx, &topup.credit(), None).await?;
    let live: Option<(i64, i64)> = sqlx::query_as(
        "SELECT id, amount FROM credit_lots
          WHERE source_kind = 'topup' AND (source_id = $1 OR source_id LIKE $1 || ':kept:%')
            AND state <> 'reversed'
          ORDER BY id DESC LIMIT 1",
    )
    .bind(topup.id.to_string())
    .fetch_optional(&mut *tx)
    .await?;
    let kept = topup.amount - refunded.clamp(0, topup.amount);
    let Some((lot_id, _)) = live.filter(|(_, amount)| kept < *amount) else {
        return Ok(None);
    };
    let reversal = ledger::reverse(tx, lot_id).await?;
    if kept > 0 {
        ledger::credit(tx, &topup.kept_credit(kept), None).await?;
    }
    Ok(Some(reversal))
}

/// Marks the refund of a rejected or refunded top-up's charge as taken by the provider.
pub async fn refund_sent(conn: &mut PgConnection, topup_id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE topups SET refund_sent_at = now() WHERE id = $1 AND refund_sent_at IS NULL",
    )
    .bind(topup_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// A top-up as the console lists it, with its member.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ConsoleTopUp {
    #[sqlx(flatten)]
    pub topup: TopUp,
    pub user_name: String,
    pub user_email: Option<String>,
}

const CONSOLE_COLUMNS: &str = "t.id, t.station_id, t.user_id, t.method, t.amount, t.status,
    t.failure_reason, t.saved_card_id, t.gateway_charge_id, t.br_code, t.paid_at, t.expires_at,
    t.credited_at, t.decided_by, t.decided_at, t.refund_sent_at, t.created_at,
    u.name AS user_name, u.email AS user_email
    FROM topups t JOIN users u ON u.id = t.user_id";

/// A station's top-ups, newest first, filtered by status and method; at most `limit`.
pub async fn of_station(
    conn: &mut PgConnection,
    station_id: i64,
    status: Option<Status>,
    method: Option<Method>,
    limit: i64,
) -> sqlx::Result<Vec<ConsoleTopUp>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {CONSOLE_COLUMNS}
          WHERE t.station_id = $1 AND ($2::text IS NULL OR t.status = $2)
            AND ($3::text IS NULL OR t.method = $3)
          ORDER BY t.id DESC LIMIT $4"
    )))
    .bind(station_id)
    .bind(status.map(Status::as_str))
    .bind(method.map(Method::as_str))
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// One top-up as the console shows it.
pub async fn console_one(
    conn: &mut PgConnection,
    topup_id: i64,
) -> sqlx::Result<Option<ConsoleTopUp>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {CONSOLE_COLUMNS} WHERE t.id = $1"
    )))
    .bind(topup_id)
    .fetch_optional(conn)
    .await
}

/// The saved card a new card top-up was saved as (its charge then names that card).
pub async fn set_saved_card(
    conn: &mut PgConnection,
    topup_id: i64,
    saved_card_id: i64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE topups SET saved_card_id = $2 WHERE id = $1")
        .bind(topup_id)
        .bind(saved_card_id)
        .execute(conn)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topup(method: Method, status: Status, expires_at: Option<DateTime<Utc>>) -> TopUp {
        let now = Utc::now();
        TopUp {
            id: 1,
            station_id: 1,
            user_id: 1,
            method,
            amount: 1000,
            status,
            failure_reason: None,
            saved_card_id: None,
            gateway_charge_id: None,
            br_code: None,
            paid_at: None,
            expires_at,
            credited_at: None,
            decided_by: None,
            decided_at: None,
            refund_sent_at: None,
            created_at: now,
        }
    }

    #[test]
    fn a_pending_pix_or_transfer_past_its_expiry_reads_expired_at_once() {
        let now = Utc::now();
        let past = Some(now - Duration::seconds(1));
        let future = Some(now + Duration::hours(1));
        assert_eq!(
            topup(Method::Pix, Status::Pending, past).status_now(now),
            Status::Expired
        );
        assert_eq!(
            topup(Method::Transfer, Status::Pending, past).status_now(now),
            Status::Expired
        );
        assert_eq!(
            topup(Method::Pix, Status::Pending, future).status_now(now),
            Status::Pending
        );
        // A card waits for its provider's answer; a credited one stays credited.
        assert_eq!(
            topup(Method::Card, Status::Pending, past).status_now(now),
            Status::Pending
        );
        assert_eq!(
            topup(Method::Pix, Status::Credited, past).status_now(now),
            Status::Credited
        );
    }

    #[test]
    fn the_limits_say_their_amounts_in_reais() {
        let text = |err: TopUpError| match err.into_failure() {
            Failure::Invalid(messages) => messages.join(""),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            text(TopUpError::BelowMinimum(1000)),
            "O valor mínimo é R$ 10,00."
        );
        assert_eq!(
            text(TopUpError::AboveMaximum(500_000)),
            "O valor máximo por pedido é R$ 5.000,00."
        );
        assert_eq!(
            text(TopUpError::DailyLimit { left: 123_456 }),
            "Limite diário de recarga atingido: você ainda pode pedir R$ 1.234,56."
        );
    }

    #[test]
    fn a_top_ups_credit_is_instant_and_keyed_by_the_top_up() {
        let credit = topup(Method::Transfer, Status::Credited, None).credit();
        assert_eq!(credit.key(), "topup:1:topup");
        assert!(rules::Rule::default_for(&credit.rule).instant);
    }
}
