//! Lucky numbers (spec 001 "Lucky numbers", issue 14): a station's giveaway campaigns give
//! one number per participation their rule matches. The k-th number of a campaign is
//! [`Permutation::at`]`(k)`, a keyed permutation of 0..range_size: numbers never collide,
//! are never drawn again at random, look unrelated to the order they were given in, and the
//! whole draw can be recomputed from the campaign's secret for an audit. k is taken under
//! the campaign's row lock in the transaction that inserts the number, so concurrent grants
//! never share one and a grant that inserts nothing takes none.

use std::collections::HashMap;

use chrono::{DateTime, Timelike, Utc};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use sqlx::{PgConnection, PgExecutor, PgPool};

use crate::shared::ids::{ActivityId, StationId, UserId};
use crate::shared::secret::random_bytes;
use crate::shared::time::{Tz, zone_named};

type HmacSha256 = Hmac<Sha256>;

/// Feistel rounds; 4 make a pseudo-random permutation (Luby-Rackoff), more cost nothing here.
const ROUNDS: u8 = 8;

/// A keyed permutation of `0..range`: a balanced Feistel network over the smallest even
/// number of bits that holds `range - 1`, its round function HMAC-SHA256 under the key,
/// and cycle-walking (re-encrypting a value that falls outside the range until it is in,
/// which ends because the walk follows a cycle of a permutation that holds the start).
#[derive(Clone)]
pub struct Permutation {
    mac: HmacSha256,
    range: u64,
    half_bits: u32,
}

impl std::fmt::Debug for Permutation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key stays out of logs.
        f.debug_struct("Permutation")
            .field("range", &self.range)
            .finish_non_exhaustive()
    }
}

impl Permutation {
    pub fn new(key: &[u8], range: u64) -> Self {
        let bits = (u64::BITS - range.saturating_sub(1).leading_zeros()).max(2);
        Self {
            mac: HmacSha256::new_from_slice(key).expect("HMAC takes a key of any length"),
            range,
            half_bits: bits.div_ceil(2),
        }
    }

    pub fn range(&self) -> u64 {
        self.range
    }

    fn round(&self, round: u8, half: u64) -> u64 {
        let mut mac = self.mac.clone();
        mac.update(&[round]);
        mac.update(&self.range.to_be_bytes());
        mac.update(&half.to_be_bytes());
        let digest = mac.finalize().into_bytes();
        let mut word = [0u8; 8];
        word.copy_from_slice(&digest[..8]);
        u64::from_be_bytes(word) & self.half_mask()
    }

    fn half_mask(&self) -> u64 {
        (1u64 << self.half_bits) - 1
    }

    fn encrypt(&self, value: u64) -> u64 {
        let (mut left, mut right) = (value >> self.half_bits, value & self.half_mask());
        for round in 0..ROUNDS {
            (left, right) = (right, left ^ self.round(round, right));
        }
        (left << self.half_bits) | right
    }

    /// The value `index` maps to; `None` when `index` is outside the range.
    pub fn at(&self, index: u64) -> Option<u64> {
        if index >= self.range {
            return None;
        }
        let mut value = self.encrypt(index);
        while value >= self.range {
            value = self.encrypt(value);
        }
        Some(value)
    }
}

/// How many digits a campaign's numbers are shown with: those of its largest number.
pub fn width(range_size: i64) -> usize {
    (range_size - 1).max(0).to_string().len()
}

/// `number` zero-padded to the campaign's width (`4217` of 100000 → `04217`).
pub fn padded(number: i64, range_size: i64) -> String {
    format!("{number:0width$}", width = width(range_size))
}

/// The member screen's text (spec 001: "the numbers will be published until 01/02/2023 at
/// 16h"), in the station's time zone; minutes only when there are any (`16h30`).
pub fn publication_text(publish_at: DateTime<Utc>, zone: Tz) -> String {
    let local = publish_at.with_timezone(&zone);
    let hour = if local.minute() == 0 {
        format!("{}h", local.hour())
    } else {
        format!("{}h{:02}", local.hour(), local.minute())
    };
    format!(
        "Os números da sorte serão publicados até {} às {hour}.",
        local.format("%d/%m/%Y")
    )
}

/// What a campaign counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// One number per participation in this activity.
    Activity(i64),
    /// One number per participation in any activity of this category.
    Category(i64),
}

/// A new campaign, as the console (and the demo seed, and tests) write one.
#[derive(Debug, Clone)]
pub struct NewCampaign {
    pub station_id: i64,
    pub name: String,
    pub rule: Rule,
    /// Numbers are 0 .. range_size - 1 (100000: 00000 to 99999).
    pub range_size: i64,
    /// The permutation's key, at least 16 bytes: [`new_secret`] for a real campaign.
    pub secret: Vec<u8>,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub publish_at: DateTime<Utc>,
}

/// A fresh random key for a campaign.
pub fn new_secret() -> anyhow::Result<Vec<u8>> {
    Ok(random_bytes::<32>()?.to_vec())
}

pub async fn create(db: impl PgExecutor<'_>, campaign: &NewCampaign) -> sqlx::Result<i64> {
    let (rule, action_id, category_id) = match campaign.rule {
        Rule::Activity(id) => ("activity", Some(id), None),
        Rule::Category(id) => ("category", None, Some(id)),
    };
    sqlx::query_scalar(
        "INSERT INTO giveaway_campaigns (station_id, name, rule, action_id, category_id,
                                         range_size, secret, starts_at, ends_at, publish_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
    )
    .bind(campaign.station_id)
    .bind(&campaign.name)
    .bind(rule)
    .bind(action_id)
    .bind(category_id)
    .bind(campaign.range_size)
    .bind(&campaign.secret)
    .bind(campaign.starts_at)
    .bind(campaign.ends_at)
    .bind(campaign.publish_at)
    .fetch_one(db)
    .await
}

/// The campaigns participation `$1` is owed a number in: active ones of its station whose
/// rule it matches, completed inside their dates, earning, not holding their number yet. A
/// macro so `concat!` builds static query strings from it.
macro_rules! matching_campaigns {
    () => {
        "SELECT c.id
           FROM participations p
           JOIN giveaway_campaigns c
             ON c.station_id = p.station_id AND c.active
            AND p.completed_at >= c.starts_at AND p.completed_at < c.ends_at
          WHERE p.id = $1 AND p.earns
            AND (c.action_id = p.action_id
                 OR EXISTS (SELECT 1 FROM category_actions ca
                             WHERE ca.category_id = c.category_id AND ca.action_id = p.action_id))
            AND NOT EXISTS (SELECT 1 FROM giveaway_numbers n
                             WHERE n.campaign_id = c.id AND n.participation_id = p.id)"
    };
}

/// A number given by [`grant`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Granted {
    pub campaign_id: i64,
    pub sequence: i64,
    pub number: i64,
}

/// Gives participation `participation_id` its number in every active campaign of its
/// station whose rule it matches, completed inside the campaign's dates and earning (a
/// participation that pays nothing, a quiz lost or one past the first of an activity paying
/// once, earns no number either). Idempotent: a participation holding a campaign's number
/// gets no other. Each campaign's row is locked (in id order, so two grants never wait on
/// each other crosswise) before its next index is read and taken in this transaction: two
/// grants at once get consecutive indexes, and only a number inserted takes one. A full
/// campaign gives nothing and says so in the log.
pub async fn grant(tx: &mut PgConnection, participation_id: i64) -> sqlx::Result<Vec<Granted>> {
    let campaigns: Vec<i64> = sqlx::query_scalar(concat!(matching_campaigns!(), " ORDER BY c.id"))
        .bind(participation_id)
        .fetch_all(&mut *tx)
        .await?;
    let mut granted = Vec::new();
    for campaign_id in campaigns {
        let (range_size, secret, next_index): (i64, Vec<u8>, i64) = sqlx::query_as(
            "SELECT range_size, secret, next_index FROM giveaway_campaigns
              WHERE id = $1 FOR UPDATE",
        )
        .bind(campaign_id)
        .fetch_one(&mut *tx)
        .await?;
        // A statement of its own, after the lock: it sees a number another grant of this
        // participation committed while this one waited.
        let held: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM giveaway_numbers
                             WHERE campaign_id = $1 AND participation_id = $2)",
        )
        .bind(campaign_id)
        .bind(participation_id)
        .fetch_one(&mut *tx)
        .await?;
        if held {
            continue;
        }
        let permutation = Permutation::new(&secret, u64::try_from(range_size).unwrap_or(0));
        let Some(number) = u64::try_from(next_index)
            .ok()
            .and_then(|index| permutation.at(index))
        else {
            tracing::warn!(
                campaign_id,
                participation_id,
                range_size,
                "giveaway campaign full: no lucky number given"
            );
            continue;
        };
        let number = i64::try_from(number).unwrap_or(i64::MAX);
        // The unique (campaign, participation) is the last guard; the index moves only when
        // the number was inserted.
        let inserted = sqlx::query(
            "WITH given AS (
                 INSERT INTO giveaway_numbers (campaign_id, user_id, participation_id, sequence, number)
                 SELECT $1, p.user_id, p.id, $3, $4 FROM participations p WHERE p.id = $2
                 ON CONFLICT (campaign_id, participation_id) DO NOTHING
                 RETURNING 1)
             UPDATE giveaway_campaigns SET next_index = next_index + 1
              WHERE id = $1 AND EXISTS (SELECT 1 FROM given)",
        )
        .bind(campaign_id)
        .bind(participation_id)
        .bind(next_index)
        .bind(number)
        .execute(&mut *tx)
        .await?;
        if inserted.rows_affected() > 0 {
            granted.push(Granted {
                campaign_id,
                sequence: next_index,
                number,
            });
        }
    }
    Ok(granted)
}

/// Participations read per statement by [`backfill`].
const BACKFILL_BATCH: i64 = 500;

/// The nightly backfill: [`grant`] for every participation an active campaign still owes a
/// number (a campaign created after the participations it counts, a grant job that gave
/// up), campaign by campaign, in participation id order and batches, each participation on
/// a transaction of its own. Only campaigns that ended less than a day ago or run still:
/// numbers are not handed out after the draw. A participation whose grant fails (annulled
/// meanwhile) is logged and left. Answers how many numbers were given; a second run gives
/// none.
pub async fn backfill(db: &PgPool) -> sqlx::Result<usize> {
    let campaigns: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM giveaway_campaigns
          WHERE active AND now() < ends_at + interval '1 day' ORDER BY id",
    )
    .fetch_all(db)
    .await?;
    let mut given = 0;
    for campaign_id in campaigns {
        let mut after = 0_i64;
        loop {
            // By the campaign's activity or its category's, through participations'
            // (action_id, user_id) index, within the campaign's dates.
            let owed: Vec<i64> = sqlx::query_scalar(
                "SELECT p.id
                   FROM giveaway_campaigns c
                   JOIN participations p
                     ON p.station_id = c.station_id
                    AND p.completed_at >= c.starts_at AND p.completed_at < c.ends_at
                  WHERE c.id = $1 AND p.id > $2 AND p.earns
                    AND (p.action_id = c.action_id
                         OR p.action_id IN (SELECT ca.action_id FROM category_actions ca
                                             WHERE ca.category_id = c.category_id))
                    AND NOT EXISTS (SELECT 1 FROM giveaway_numbers n
                                     WHERE n.campaign_id = c.id AND n.participation_id = p.id)
                  ORDER BY p.id LIMIT $3",
            )
            .bind(campaign_id)
            .bind(after)
            .bind(BACKFILL_BATCH)
            .fetch_all(db)
            .await?;
            let Some(&last) = owed.last() else {
                break;
            };
            for participation_id in owed {
                match grant_alone(db, participation_id).await {
                    Ok(granted) => given += granted,
                    Err(err) => tracing::warn!(
                        participation_id,
                        error = %crate::infra::telemetry::Loggable(&err),
                        "lucky numbers backfill left a participation"
                    ),
                }
            }
            after = last;
        }
    }
    Ok(given)
}

async fn grant_alone(db: &PgPool, participation_id: i64) -> sqlx::Result<usize> {
    let mut tx = db.begin().await?;
    let granted = grant(&mut tx, participation_id).await?.len();
    tx.commit().await?;
    Ok(granted)
}

/// Whether participation `participation_id` matches a campaign it holds no number in: the
/// participation hook queues a grant only then, so stations without campaigns queue none.
pub async fn owed(conn: &mut PgConnection, participation_id: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar(concat!("SELECT EXISTS (", matching_campaigns!(), ")"))
        .bind(participation_id)
        .fetch_one(conn)
        .await
}

/// A number a member holds.
#[derive(Debug, Clone)]
pub struct LuckyNumber {
    /// Zero-padded to the campaign's width ("04217").
    pub number: String,
    pub participation_id: i64,
    pub action_id: ActivityId,
    /// The activity whose participation gave it.
    pub action_name: String,
    /// When the participation was completed.
    pub participated_at: DateTime<Utc>,
    /// When the number was given.
    pub granted_at: DateTime<Utc>,
}

/// A campaign as the member's screen shows it, with the member's numbers in it.
#[derive(Debug, Clone)]
pub struct CampaignNumbers {
    pub id: i64,
    pub name: String,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub publish_at: DateTime<Utc>,
    /// "Os números da sorte serão publicados até 01/02/2023 às 16h." (the station's time).
    pub publication_text: String,
    /// The member's numbers, in the order they were given.
    pub numbers: Vec<LuckyNumber>,
}

/// The campaigns `user_id` of `station_id` sees: the station's active ones and any they
/// hold numbers in, by publication date (latest first), each with the member's numbers.
/// `None` when the station does not show lucky numbers (`lucky_numbers_access`).
pub async fn of_member(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
) -> sqlx::Result<Option<Vec<CampaignNumbers>>> {
    let station: Option<(bool, String)> =
        sqlx::query_as("SELECT lucky_numbers_access, time_zone FROM stations WHERE id = $1")
            .bind(station_id)
            .fetch_optional(db)
            .await?;
    let zone = match station {
        Some((true, time_zone)) => zone_named(&time_zone),
        _ => return Ok(None),
    };
    #[derive(sqlx::FromRow)]
    struct CampaignRow {
        id: i64,
        name: String,
        range_size: i64,
        starts_at: DateTime<Utc>,
        ends_at: DateTime<Utc>,
        publish_at: DateTime<Utc>,
    }
    let campaigns: Vec<CampaignRow> = sqlx::query_as(
        "SELECT c.id, c.name, c.range_size, c.starts_at, c.ends_at, c.publish_at
           FROM giveaway_campaigns c
          WHERE c.station_id = $1
            AND (c.active OR EXISTS (SELECT 1 FROM giveaway_numbers n
                                      WHERE n.campaign_id = c.id AND n.user_id = $2))
          ORDER BY c.publish_at DESC, c.id DESC",
    )
    .bind(station_id)
    .bind(user_id)
    .fetch_all(db)
    .await?;
    #[derive(sqlx::FromRow)]
    struct NumberRow {
        campaign_id: i64,
        number: i64,
        participation_id: i64,
        action_id: ActivityId,
        action_name: String,
        participated_at: DateTime<Utc>,
        granted_at: DateTime<Utc>,
    }
    let numbers: Vec<NumberRow> = sqlx::query_as(
        "SELECT n.campaign_id, n.number, n.participation_id, p.action_id,
                a.name AS action_name, p.completed_at AS participated_at, n.granted_at
           FROM giveaway_numbers n
           JOIN giveaway_campaigns c ON c.id = n.campaign_id
           JOIN participations p ON p.id = n.participation_id
           JOIN actions a ON a.id = p.action_id
          WHERE n.user_id = $1 AND c.station_id = $2
          ORDER BY n.campaign_id, n.id",
    )
    .bind(user_id)
    .bind(station_id)
    .fetch_all(db)
    .await?;
    let range_of: HashMap<i64, i64> = campaigns.iter().map(|c| (c.id, c.range_size)).collect();
    let mut held: HashMap<i64, Vec<LuckyNumber>> = HashMap::new();
    for row in numbers {
        let range_size = range_of.get(&row.campaign_id).copied().unwrap_or(1);
        held.entry(row.campaign_id).or_default().push(LuckyNumber {
            number: padded(row.number, range_size),
            participation_id: row.participation_id,
            action_id: row.action_id,
            action_name: row.action_name,
            participated_at: row.participated_at,
            granted_at: row.granted_at,
        });
    }
    Ok(Some(
        campaigns
            .into_iter()
            .map(|c| CampaignNumbers {
                numbers: held.remove(&c.id).unwrap_or_default(),
                publication_text: publication_text(c.publish_at, zone),
                id: c.id,
                name: c.name,
                starts_at: c.starts_at,
                ends_at: c.ends_at,
                publish_at: c.publish_at,
            })
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use chrono::TimeZone;

    use super::*;

    /// The first `count` values of the permutation of `0..range` under `key`.
    fn first(key: &[u8], range: u64, count: u64) -> Vec<u64> {
        let permutation = Permutation::new(key, range);
        (0..count)
            .map(|index| permutation.at(index).expect("inside the range"))
            .collect()
    }

    fn order(key: &[u8], range: u64) -> Vec<u64> {
        first(key, range, range)
    }

    #[test]
    fn it_is_a_bijection_over_small_ranges() {
        for range in (1..=130).chain([255, 256, 257, 1000, 4097]) {
            let values = order(b"chave-secreta-de-teste", range);
            let distinct: HashSet<u64> = values.iter().copied().collect();
            assert_eq!(distinct.len() as u64, range, "range {range}");
            assert!(values.iter().all(|&v| v < range), "range {range}");
        }
        assert_eq!(Permutation::new(b"k", 10).at(10), None);
    }

    #[test]
    fn it_is_reproducible_from_the_key_and_keys_give_different_orders() {
        let given = first(b"chave-da-campanha-1", 100_000, 1000);
        assert_eq!(given, first(b"chave-da-campanha-1", 100_000, 1000));
        let other = first(b"chave-da-campanha-2", 100_000, 1000);
        assert_ne!(given, other);
        // Not the identity, nor sorted: the first numbers look unrelated to their order.
        assert_ne!(given[..20], (0..20).collect::<Vec<u64>>()[..]);
        assert!(given.windows(2).any(|pair| pair[0] > pair[1]));
        let same_place = given.iter().zip(&other).filter(|(a, b)| a == b).count();
        assert!(same_place < 5, "{same_place} values in the same place");
        // Spread over the range, not bunched at its start.
        assert!(given.iter().any(|&v| v > 90_000) && given.iter().any(|&v| v < 10_000));
    }

    #[test]
    fn numbers_are_padded_to_the_largest_and_the_date_is_in_the_stations_time() {
        assert_eq!(padded(4217, 100_000), "04217");
        assert_eq!(padded(0, 100_000), "00000");
        assert_eq!(padded(7, 10), "7");
        assert_eq!(padded(42, 5000), "0042");
        let at = Utc
            .with_ymd_and_hms(2023, 2, 1, 19, 0, 0)
            .single()
            .expect("date");
        assert_eq!(
            publication_text(at, crate::shared::time::DEFAULT_ZONE),
            "Os números da sorte serão publicados até 01/02/2023 às 16h."
        );
        assert_eq!(
            publication_text(at, chrono_tz::America::Manaus),
            "Os números da sorte serão publicados até 01/02/2023 às 15h."
        );
        let half = Utc
            .with_ymd_and_hms(2023, 2, 1, 19, 30, 0)
            .single()
            .expect("date");
        assert_eq!(
            publication_text(half, crate::shared::time::DEFAULT_ZONE),
            "Os números da sorte serão publicados até 01/02/2023 às 16h30."
        );
    }
}
