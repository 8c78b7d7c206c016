//! Plans and subscriptions (spec 002 "Subscriptions and plans", spec 001 type 21): what a
//! station sells by the period, the member's subscription to it, and its periods, each
//! charged once. docs/decisions.md ("Subscriptions") has the rules; the billing engine's
//! jobs are in `jobs/src/kinds/subscriptions/`.
//!
//! This module holds what every part shares: the states of the rows (each the TEXT column
//! it is stored in) and how long a period is.

pub mod billing;
pub mod dispatch;
pub mod mail;
pub mod orders;
pub mod plans;
pub mod subscribe;
pub mod views;

use chrono::{DateTime, Months, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

use crate::shared::text_enum;

text_enum!(
    /// A subscription's status (`subscriptions.status`).
    SubscriptionStatus {
        /// Its first period is not paid yet: no access.
        Incomplete => "incomplete",
        /// Paid up: access to `current_period_end`.
        Active => "active",
        /// A renewal was declined and is being retried; access is kept meanwhile.
        PastDue => "past_due",
        /// The member cancelled; access ran to the end of the paid period.
        Canceled => "canceled",
        /// The last retry failed, or the first charge never paid.
        Ended => "ended",
    }
);

impl SubscriptionStatus {
    /// Still running: the one a member can have per plan or type 21 activity.
    pub fn is_live(self) -> bool {
        matches!(self, Self::Incomplete | Self::Active | Self::PastDue)
    }

    /// The member has what it gives now.
    pub fn grants_access(self) -> bool {
        matches!(self, Self::Active | Self::PastDue)
    }
}

text_enum!(
    /// What a period row is for (`subscription_periods.kind`).
    PeriodKind {
        /// Period 0, paid when the member subscribes.
        First => "first",
        Renewal => "renewal",
        /// The difference an upgrade charges for the rest of the current period.
        Proration => "proration",
    }
);

text_enum!(
    /// A period's status (`subscription_periods.status`).
    PeriodStatus {
        /// Not paid yet; tried at `next_attempt_at`.
        Due => "due",
        Paid => "paid",
        /// The last try failed (dunning exhausted) or the first charge was refused.
        Failed => "failed",
        /// No longer owed: the subscription was cancelled or replaced first.
        Void => "void",
    }
);

text_enum!(
    /// One try at the provider for a period (`subscription_charges.status`).
    AttemptStatus {
        /// The provider was (maybe) called; no answer is recorded yet.
        Started => "started",
        /// A PIX waiting for its payer.
        Pending => "pending",
        /// A card under the provider's analysis.
        Processing => "processing",
        Paid => "paid",
        Failed => "failed",
        /// A PIX that expired or was replaced.
        Canceled => "canceled",
        Refunded => "refunded",
    }
);

text_enum!(
    /// How a subscription pays (`subscriptions.method`).
    BillingMethod {
        /// A saved card, charged off-session.
        Card => "card",
        /// A PIX charge with a due date, e-mailed ahead of it.
        Pix => "pix",
    }
);

/// How long each period of a subscription is: whole calendar months, or days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Period {
    pub months: u32,
    pub days: u32,
}

impl Period {
    /// Where period `index` starts, counted from the anchor (never from the previous
    /// period's end, so a subscription anchored on the 31st renews on the 31st where the
    /// month has one and on the month's last day where it does not).
    pub fn start(self, anchor: DateTime<Utc>, index: u32) -> DateTime<Utc> {
        let months = anchor
            .checked_add_months(Months::new(self.months * index))
            .unwrap_or(DateTime::<Utc>::MAX_UTC);
        months + TimeDelta::days(i64::from(self.days) * i64::from(index))
    }

    /// Where period `index` ends: where the next one starts.
    pub fn end(self, anchor: DateTime<Utc>, index: u32) -> DateTime<Utc> {
        self.start(anchor, index + 1)
    }
}

text_enum!(
    /// The recurrences of spec 001's type 21 (`action_subscriptions.recurrence`).
    Recurrence {
        Weekly => "weekly",
        Biweekly => "biweekly",
        Monthly => "monthly",
        Bimonthly => "bimonthly",
        Quarterly => "quarterly",
        Halfyearly => "halfyearly",
        Yearly => "yearly",
    }
);

impl Recurrence {
    pub const ALL: [Recurrence; 7] = [
        Self::Weekly,
        Self::Biweekly,
        Self::Monthly,
        Self::Bimonthly,
        Self::Quarterly,
        Self::Halfyearly,
        Self::Yearly,
    ];

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.as_str() == text)
    }

    pub fn period(self) -> Period {
        let (months, days) = match self {
            Self::Weekly => (0, 7),
            Self::Biweekly => (0, 14),
            Self::Monthly => (1, 0),
            Self::Bimonthly => (2, 0),
            Self::Quarterly => (3, 0),
            Self::Halfyearly => (6, 0),
            Self::Yearly => (12, 0),
        };
        Period { months, days }
    }

    /// As the member reads it (the spec's 'Recorrência' column).
    pub fn label(self) -> &'static str {
        match self {
            Self::Weekly => "Semanal",
            Self::Biweekly => "Quinzenal",
            Self::Monthly => "Mensal",
            Self::Bimonthly => "Bimestral",
            Self::Quarterly => "Trimestral",
            Self::Halfyearly => "Semestral",
            Self::Yearly => "Anual",
        }
    }
}

/// A plan's period as spec 002 states it in `days`: 30 a month, 183 a semester, 365 a year
/// (the only values `plans.days` holds). The period itself is calendar months.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlanPeriod {
    Month,
    Semester,
    Year,
}

impl PlanPeriod {
    pub fn from_days(days: i32) -> Option<Self> {
        match days {
            30 => Some(Self::Month),
            183 => Some(Self::Semester),
            365 => Some(Self::Year),
            _ => None,
        }
    }

    /// `subscriptions.recurrence` of a plan's subscription.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Month => "month",
            Self::Semester => "semester",
            Self::Year => "year",
        }
    }

    pub fn period(self) -> Period {
        let months = match self {
            Self::Month => 1,
            Self::Semester => 6,
            Self::Year => 12,
        };
        Period { months, days: 0 }
    }

    /// The plan card's label (spec 002 section 9: month, semester, year).
    pub fn label(self) -> &'static str {
        match self {
            Self::Month => "mês",
            Self::Semester => "semestre",
            Self::Year => "ano",
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn at(y: i32, m: u32, d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, 12, 0, 0).unwrap()
    }

    #[test]
    fn months_count_from_the_anchor_and_keep_its_day() {
        let monthly = Recurrence::Monthly.period();
        let anchor = at(2027, 1, 31);
        assert_eq!(monthly.start(anchor, 0), anchor);
        assert_eq!(monthly.end(anchor, 0), at(2027, 2, 28));
        // Not Feb 28 + 1 month: the anchor's day comes back.
        assert_eq!(monthly.start(anchor, 2), at(2027, 3, 31));
        assert_eq!(monthly.start(anchor, 3), at(2027, 4, 30));
    }

    #[test]
    fn days_and_years_add_up() {
        let anchor = at(2028, 2, 29);
        assert_eq!(
            Recurrence::Weekly.period().start(anchor, 2),
            at(2028, 3, 14)
        );
        assert_eq!(
            Recurrence::Biweekly.period().end(anchor, 0),
            at(2028, 3, 14)
        );
        assert_eq!(PlanPeriod::Year.period().end(anchor, 0), at(2029, 2, 28));
        assert_eq!(PlanPeriod::Year.period().start(anchor, 4), at(2032, 2, 29));
        assert_eq!(
            PlanPeriod::Semester.period().end(anchor, 0),
            at(2028, 8, 29)
        );
    }

    #[test]
    fn plan_days_are_the_specs_three() {
        assert_eq!(PlanPeriod::from_days(30), Some(PlanPeriod::Month));
        assert_eq!(PlanPeriod::from_days(183), Some(PlanPeriod::Semester));
        assert_eq!(PlanPeriod::from_days(365), Some(PlanPeriod::Year));
        assert_eq!(PlanPeriod::from_days(31), None);
    }

    #[test]
    fn recurrences_round_trip_their_words() {
        for recurrence in Recurrence::ALL {
            assert_eq!(Recurrence::parse(recurrence.as_str()), Some(recurrence));
        }
        assert_eq!(Recurrence::parse("daily"), None);
    }
}
