//! Ids and money as types of their own, so a member's id cannot be passed where a
//! station's is expected, nor centavos where points are. Each is the column's `BIGINT` in
//! the database (`sqlx(transparent)`) and a plain number on the wire (`serde(transparent)`);
//! the API's wire types keep the spec's integers and convert at the edge.

use std::fmt;

macro_rules! id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord,
            serde::Serialize, serde::Deserialize, sqlx::Type,
        )]
        #[serde(transparent)]
        #[sqlx(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl From<$name> for i64 {
            fn from(id: $name) -> i64 {
                id.0
            }
        }
    };
}

id!(
    /// A station (the spec's "establishment"): one loyalty programme.
    StationId
);
id!(
    /// An account: a member of one station, or staff.
    UserId
);
id!(
    /// An activity (the spec's "action").
    ActivityId
);
id!(
    /// A product of a station's shop.
    ProductId
);
id!(
    /// A placed order.
    OrderId
);
id!(
    /// A post of the feed (the spec's "Mural").
    PostId
);

/// An amount of money in centavos of a real. Sums and differences stay in centavos;
/// [`crate::shared::money`] turns them into text.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
    sqlx::Type,
)]
#[serde(transparent)]
#[sqlx(transparent)]
pub struct Cents(pub i64);

impl Cents {
    pub const ZERO: Cents = Cents(0);

    /// The difference, or `None` below zero: money that cannot go negative.
    pub fn checked_sub(self, other: Cents) -> Option<Cents> {
        self.0
            .checked_sub(other.0)
            .filter(|left| *left >= 0)
            .map(Cents)
    }
}

impl std::ops::Add for Cents {
    type Output = Cents;
    fn add(self, other: Cents) -> Cents {
        Cents(self.0 + other.0)
    }
}

impl std::ops::AddAssign for Cents {
    fn add_assign(&mut self, other: Cents) {
        self.0 += other.0;
    }
}

impl std::ops::Sub for Cents {
    type Output = Cents;
    fn sub(self, other: Cents) -> Cents {
        Cents(self.0 - other.0)
    }
}

impl std::iter::Sum for Cents {
    fn sum<I: Iterator<Item = Cents>>(items: I) -> Cents {
        Cents(items.map(|cents| cents.0).sum())
    }
}

impl fmt::Display for Cents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl From<Cents> for i64 {
    fn from(cents: Cents) -> i64 {
        cents.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_a_plain_number_on_the_wire() {
        assert_eq!(serde_json::to_string(&StationId(7)).expect("json"), "7");
        assert_eq!(
            serde_json::from_str::<UserId>("42").expect("an id"),
            UserId(42)
        );
    }

    #[test]
    fn money_never_goes_below_zero_by_checked_sub() {
        assert_eq!(Cents(500).checked_sub(Cents(200)), Some(Cents(300)));
        assert_eq!(Cents(200).checked_sub(Cents(500)), None);
        assert_eq!([Cents(1), Cents(2)].into_iter().sum::<Cents>(), Cents(3));
    }
}
