//! Fuel vouchers: taking one of a campaign (once per member, within the campaign's window
//! and budget, even when asked for many times at once), the member's vouchers, and the
//! expiry of those past their validity (`fuel.voucher_expiry`).

use chrono::{DateTime, Duration, Utc};
use rust_decimal::Decimal;
use sqlx::{PgConnection, PgExecutor, PgPool};

use super::{FuelRefused, offered};
use crate::activities::short_links::ALPHABET;
use crate::shared::ids::{StationId, UserId};
use crate::shared::secret::random_bytes;

/// The most vouchers one answer holds, newest first.
pub const MAX_VOUCHERS: i64 = 200;

/// Where a voucher stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VoucherStatus {
    /// Valid until its `valid_until`.
    Issued,
    /// Past its validity unused.
    Expired,
    /// Redeemed at the station's pump.
    Used,
}

impl VoucherStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Issued => "issued",
            Self::Expired => "expired",
            Self::Used => "used",
        }
    }

    fn from_stored(value: &str) -> Self {
        match value {
            "expired" => Self::Expired,
            "used" => Self::Used,
            _ => Self::Issued,
        }
    }
}

/// A member's voucher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Voucher {
    pub id: i64,
    pub campaign_id: i64,
    pub campaign_name: String,
    pub voucher_type: String,
    pub litres: Decimal,
    pub value_cents: i64,
    pub code: String,
    pub issued_at: DateTime<Utc>,
    pub valid_until: DateTime<Utc>,
    /// As of the read: a voucher past its validity reads expired before the job marks it.
    pub status: VoucherStatus,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    campaign_id: i64,
    campaign_name: String,
    voucher_type: String,
    litres: Decimal,
    value_cents: i64,
    code: String,
    issued_at: DateTime<Utc>,
    valid_until: DateTime<Utc>,
    status: String,
}

impl Row {
    fn at(self, now: DateTime<Utc>) -> Voucher {
        let stored = VoucherStatus::from_stored(&self.status);
        let status = if stored == VoucherStatus::Issued && self.valid_until <= now {
            VoucherStatus::Expired
        } else {
            stored
        };
        Voucher {
            id: self.id,
            campaign_id: self.campaign_id,
            campaign_name: self.campaign_name,
            voucher_type: self.voucher_type,
            litres: self.litres,
            value_cents: self.value_cents,
            code: self.code,
            issued_at: self.issued_at,
            valid_until: self.valid_until,
            status,
        }
    }
}

/// One SELECT for every read of a voucher, with its campaign's name.
macro_rules! select_voucher {
    () => {
        "SELECT v.id, v.campaign_id, c.name AS campaign_name, v.voucher_type, v.litres,
                v.value_cents, v.code, v.issued_at, v.valid_until, v.status
           FROM fuel_vouchers v
           JOIN fuel_campaigns c ON c.id = v.campaign_id"
    };
}

/// Characters of a code, in groups of four.
const CODE_GROUPS: usize = 3;
const GROUP_LENGTH: usize = 4;

/// A fresh code: twelve characters of the short links' alphabet (no `0`/`O` nor `1`/`I`;
/// 60 random bits, so it cannot be guessed), grouped "ABCD-EFGH-JKLM" to be read at the
/// pump.
pub fn new_code() -> anyhow::Result<String> {
    let bytes = random_bytes::<{ CODE_GROUPS * GROUP_LENGTH }>()?;
    let groups: Vec<String> = bytes
        .chunks(GROUP_LENGTH)
        .map(|group| {
            group
                .iter()
                .map(|byte| char::from(ALPHABET[usize::from(byte & 31)]))
                .collect()
        })
        .collect();
    Ok(groups.join("-"))
}

#[derive(sqlx::FromRow)]
struct Counted {
    voucher_type: String,
    litres: Decimal,
    value_cents: i64,
    valid_days: i32,
}

/// Takes a voucher of `campaign_id` for `user`, on the caller's transaction, which must be
/// rolled back on a refusal (the budget's count is taken first). The campaign's row lock
/// orders takes of one campaign: its count never passes the budget, and of one member's
/// takes at once the first inserts and the others find it ([`FuelRefused::AlreadyTaken`]).
pub async fn take(
    tx: &mut PgConnection,
    station: StationId,
    user: UserId,
    campaign_id: Option<i64>,
    now: DateTime<Utc>,
) -> Result<Voucher, FuelRefused> {
    let campaign_id = campaign_id.ok_or(FuelRefused::CampaignRequired)?;
    offered(&mut *tx, station).await?;
    // The member's own first: holding one says so whatever else the campaign's state is.
    let held: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM fuel_vouchers
                         WHERE campaign_id = $1 AND user_id = $2 AND station_id = $3)",
    )
    .bind(campaign_id)
    .bind(user.0)
    .bind(station.0)
    .fetch_one(&mut *tx)
    .await?;
    if held {
        return Err(FuelRefused::AlreadyTaken);
    }
    let counted: Option<Counted> = sqlx::query_as(
        "UPDATE fuel_campaigns SET vouchers_issued = vouchers_issued + 1
          WHERE id = $1 AND station_id = $2 AND published AND starts_at <= $3 AND ends_at > $3
            AND vouchers_issued < voucher_budget
          RETURNING voucher_type, litres, value_cents, valid_days",
    )
    .bind(campaign_id)
    .bind(station.0)
    .bind(now)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(campaign) = counted else {
        return Err(why_not_open(&mut *tx, station, campaign_id, now).await?);
    };
    let valid_until = now + Duration::days(i64::from(campaign.valid_days));
    let inserted: Option<(i64,)> = sqlx::query_as(
        "INSERT INTO fuel_vouchers (campaign_id, user_id, station_id, code, voucher_type,
                                    litres, value_cents, issued_at, valid_until)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (campaign_id, user_id) DO NOTHING
         RETURNING id",
    )
    .bind(campaign_id)
    .bind(user.0)
    .bind(station.0)
    .bind(new_code()?)
    .bind(&campaign.voucher_type)
    .bind(campaign.litres)
    .bind(campaign.value_cents)
    .bind(now)
    .bind(valid_until)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((id,)) = inserted else {
        return Err(FuelRefused::AlreadyTaken);
    };
    let row: Row = sqlx::query_as(concat!(select_voucher!(), " WHERE v.id = $1"))
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
    Ok(row.at(now))
}

/// Why a campaign gave no voucher: not the station's (or unpublished), outside its
/// window, or its budget given.
async fn why_not_open(
    db: impl PgExecutor<'_>,
    station: StationId,
    campaign_id: i64,
    now: DateTime<Utc>,
) -> Result<FuelRefused, FuelRefused> {
    let found: Option<(DateTime<Utc>, DateTime<Utc>)> = sqlx::query_as(
        "SELECT starts_at, ends_at FROM fuel_campaigns
          WHERE id = $1 AND station_id = $2 AND published",
    )
    .bind(campaign_id)
    .bind(station.0)
    .fetch_optional(db)
    .await?;
    Ok(match found {
        None => FuelRefused::NotFound,
        Some((starts_at, ends_at)) if now < starts_at || now >= ends_at => FuelRefused::Closed,
        Some(_) => FuelRefused::SoldOut,
    })
}

/// The member's vouchers of their station, newest first (at most [`MAX_VOUCHERS`]).
pub async fn of_member(
    db: &PgPool,
    station: StationId,
    user: UserId,
    now: DateTime<Utc>,
) -> Result<Vec<Voucher>, FuelRefused> {
    offered(db, station).await?;
    let rows: Vec<Row> = sqlx::query_as(concat!(
        select_voucher!(),
        " WHERE v.user_id = $1 AND v.station_id = $2
          ORDER BY v.issued_at DESC, v.id DESC
          LIMIT $3"
    ))
    .bind(user.0)
    .bind(station.0)
    .bind(MAX_VOUCHERS)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|row| row.at(now)).collect())
}

/// Marks expired every issued voucher whose validity ended by `now`; answers how many. A
/// second run finds none: what it marked is no longer issued.
pub async fn expire_due(db: impl PgExecutor<'_>, now: DateTime<Utc>) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "UPDATE fuel_vouchers SET status = 'expired', status_at = $1
          WHERE status = 'issued' AND valid_until <= $1",
    )
    .bind(now)
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_three_readable_groups_of_four() {
        let code = new_code().expect("code");
        let groups: Vec<&str> = code.split('-').collect();
        assert_eq!(groups.len(), 3, "{code}");
        for group in groups {
            assert_eq!(group.len(), 4, "{code}");
            assert!(group.bytes().all(|byte| ALPHABET.contains(&byte)), "{code}");
        }
        assert_ne!(new_code().expect("code"), code);
    }
}
