//! Release rules: how long a kind of credit is held before it may be spent, and when an
//! unspent credit ends. Each rule has a default here; a station overrides any of them with
//! a `credit_rules` row (spec 001, "Cashback release per type").
//!
//! A non-instant lot always starts `pending`, even with no holding period, and becomes
//! `available` only in its station's scheduled release batch (`wallet::release`): one path
//! moves money from pending to spendable, and a station decides when that happens. Instant
//! lots (money the member paid in, refunds, staff adjustments) are available at once.

use crate::shared::ids::StationId;
use chrono::Duration;
use sqlx::PgExecutor;

/// Sign-up reward (activity type 2), paid when the account is confirmed.
pub const SIGNUP: &str = "signup";
/// Member-get-member: the inviter's points when the invitee joins.
pub const MGM_INVITER: &str = "mgm.inviter";
/// Member-get-member: the invitee's welcome points.
pub const MGM_INVITED: &str = "mgm.invited";
/// A new visitor opened a member's share link (activity type 5).
pub const SHARE: &str = "share";
/// Any other completed activity.
pub const ACTIVITY: &str = "activity";
/// Cashback of a purchase: held for the CDC's 7-day withdrawal period, so a refund of the
/// purchase can still reverse it.
pub const PURCHASE_CASHBACK: &str = "purchase.cashback";
/// Cashback of a purchase of a paid coupon or voucher (type 3) or presential course (type
/// 4): spec 001 releases it on the partner's confirmation, so it waits (a year at most)
/// until the voucher is validated, which makes it due at once
/// (`commerce::vouchers::validate`).
pub const PURCHASE_CASHBACK_ON_VALIDATION: &str = "purchase.cashback.validation";
/// The health co-payment cashback of spec 002: held 90 days.
pub const HEALTH_COPAY: &str = "health.copay";
pub const DONATION: &str = "donation";
pub const REFUND: &str = "refund";
pub const TOPUP: &str = "topup";
pub const ADJUSTMENT: &str = "adjustment";

/// How a station treats one kind of credit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Time from the credit to the end of its holding period (`available_at`).
    pub hold: Duration,
    /// Available at once, without waiting for a release batch.
    pub instant: bool,
    /// An unspent lot ends this long after its holding period; `None`: never.
    pub expires_after: Option<Duration>,
}

impl Rule {
    const HELD: Self = Self {
        hold: Duration::zero(),
        instant: false,
        expires_after: None,
    };
    const INSTANT: Self = Self {
        hold: Duration::zero(),
        instant: true,
        expires_after: None,
    };

    /// The rule of a station that has no row for it. Unknown names are held like
    /// activities: nothing becomes spendable without a release.
    pub fn default_for(rule: &str) -> Self {
        match rule {
            PURCHASE_CASHBACK => Self {
                hold: Duration::days(7),
                ..Self::HELD
            },
            PURCHASE_CASHBACK_ON_VALIDATION => Self {
                hold: Duration::days(365),
                ..Self::HELD
            },
            HEALTH_COPAY => Self {
                hold: Duration::days(90),
                ..Self::HELD
            },
            REFUND | TOPUP | ADJUSTMENT => Self::INSTANT,
            _ => Self::HELD,
        }
    }
}

/// The station's rule for this kind of credit: its `credit_rules` row, else the default.
pub async fn for_station(
    db: impl PgExecutor<'_>,
    station_id: StationId,
    rule: &str,
) -> sqlx::Result<Rule> {
    // Whole seconds are precise enough for holding periods and keep the interval type out
    // of Rust (an interval's months have no fixed length; here they count as 30 days).
    let row: Option<(i64, bool, Option<i64>)> = sqlx::query_as(
        "SELECT extract(epoch FROM hold)::bigint, instant,
                extract(epoch FROM expires_after)::bigint
           FROM credit_rules WHERE station_id = $1 AND rule = $2",
    )
    .bind(station_id)
    .bind(rule)
    .fetch_optional(db)
    .await?;
    Ok(match row {
        Some((hold, instant, expires_after)) => Rule {
            hold: Duration::seconds(hold),
            instant,
            expires_after: expires_after.map(Duration::seconds),
        },
        None => Rule::default_for(rule),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_hold_cashback_and_pass_paid_in_money_at_once() {
        assert_eq!(Rule::default_for(PURCHASE_CASHBACK).hold, Duration::days(7));
        assert_eq!(Rule::default_for(HEALTH_COPAY).hold, Duration::days(90));
        for instant in [REFUND, TOPUP, ADJUSTMENT] {
            assert!(Rule::default_for(instant).instant, "{instant}");
        }
        for held in [
            SIGNUP,
            MGM_INVITER,
            MGM_INVITED,
            SHARE,
            ACTIVITY,
            DONATION,
            "x.y",
        ] {
            let rule = Rule::default_for(held);
            assert!(!rule.instant && rule.hold.is_zero(), "{held}");
            assert_eq!(rule.expires_after, None);
        }
    }

    #[testkit::db_test]
    async fn a_station_row_overrides_the_default(db: sqlx::PgPool) {
        let station_id: i64 = sqlx::query_scalar(
            "INSERT INTO stations (name, subdomain, url) VALUES ('C', 'c', 'https://c.example.com')
             RETURNING id",
        )
        .fetch_one(&db)
        .await
        .expect("station");
        sqlx::query(
            "INSERT INTO credit_rules (station_id, rule, hold, expires_after)
             VALUES ($1, 'purchase.cashback', interval '30 days', interval '365 days')",
        )
        .bind(station_id)
        .execute(&db)
        .await
        .expect("rule");

        let rule = for_station(&db, StationId(station_id), PURCHASE_CASHBACK)
            .await
            .expect("rule");
        assert_eq!(rule.hold, Duration::days(30));
        assert_eq!(rule.expires_after, Some(Duration::days(365)));
        assert!(!rule.instant);
        assert_eq!(
            for_station(&db, StationId(station_id), HEALTH_COPAY)
                .await
                .expect("default"),
            Rule::default_for(HEALTH_COPAY)
        );
    }
}
