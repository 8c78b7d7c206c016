//! An activity's type (spec 001 "Activity types"): what the member does in it, which call
//! records the participation and when it pays. Stored as the spec's number in
//! `actions.type_id` (a `SMALLINT` whose foreign key holds it to `action_types`), and
//! sent as that number on the wire.

use std::fmt;

/// The spec's activity types, by their `type_id`. The column cannot hold another number
/// (its foreign key to `action_types`, whose rows are these); a migration that adds a type
/// adds its variant here, or reading such a row fails loudly instead of guessing.
/// A new activity is raw content until told otherwise, the simplest type: a description
/// to read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, sqlx::Type)]
#[repr(i16)]
pub enum ActivityType {
    /// Member-get-member invitation, the earlier view.
    EarlierInvitation = 1,
    /// The sign-up reward: recorded as a participation once per account.
    SignupReward = 2,
    /// A coupon or voucher paid for in the shop.
    PaidCoupon = 3,
    PresentialCourse = 4,
    /// Sharing on social media: paid per visitor of the share link.
    Share = 5,
    /// Judged answer by answer, won at half the questions right at the first try.
    Quiz = 6,
    /// Its answers are a contact's, recorded by the member.
    ContactSurvey = 7,
    StepSurvey = 8,
    ChecklistPoll = 9,
    /// A poll whose results chart the member sees after answering.
    ChartPoll = 10,
    ChecklistQuiz = 11,
    /// Its result is the feedback its chosen options point to most.
    PersonalityTest = 12,
    /// Sends the member to its first redirect link.
    ExternalLink = 13,
    DeliveryOrder = 14,
    /// Accepting its terms is the participation.
    Agreement = 15,
    /// Its view is the participation.
    #[default]
    RawContent = 16,
    Voucher = 17,
    /// Every video of it watched is the participation.
    VideoPlaylist = 18,
    /// Member-get-member invitation.
    Invitation = 19,
    Donation = 20,
    ProductSubscription = 21,
}

impl ActivityType {
    /// The surveys, submitted by `POST /answer`.
    pub const SURVEYS: [Self; 6] = [
        Self::ContactSurvey,
        Self::StepSurvey,
        Self::ChecklistPoll,
        Self::ChartPoll,
        Self::ChecklistQuiz,
        Self::PersonalityTest,
    ];
    /// The invitation types (`send-html-to-mails-mgp`).
    pub const INVITATIONS: [Self; 2] = [Self::EarlierInvitation, Self::Invitation];
    /// The types whose videos count (spec 001 "Videos (types 15, 16, 18)").
    pub const WITH_VIDEOS: [Self; 3] = [Self::Agreement, Self::RawContent, Self::VideoPlaylist];

    const ALL: [Self; 21] = [
        Self::EarlierInvitation,
        Self::SignupReward,
        Self::PaidCoupon,
        Self::PresentialCourse,
        Self::Share,
        Self::Quiz,
        Self::ContactSurvey,
        Self::StepSurvey,
        Self::ChecklistPoll,
        Self::ChartPoll,
        Self::ChecklistQuiz,
        Self::PersonalityTest,
        Self::ExternalLink,
        Self::DeliveryOrder,
        Self::Agreement,
        Self::RawContent,
        Self::Voucher,
        Self::VideoPlaylist,
        Self::Invitation,
        Self::Donation,
        Self::ProductSubscription,
    ];

    /// The spec's number, as the column and the wire hold it.
    pub const fn id(self) -> i16 {
        self as i16
    }

    /// The type of the spec's number; `None` for a number the spec does not give.
    pub fn from_id(id: i16) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.id() == id)
    }
}

impl fmt::Display for ActivityType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.id().fmt(f)
    }
}

impl From<ActivityType> for i16 {
    fn from(kind: ActivityType) -> i16 {
        kind.id()
    }
}

/// The wire holds the spec's number.
impl serde::Serialize for ActivityType {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i16(self.id())
    }
}

impl<'de> serde::Deserialize<'de> for ActivityType {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = i16::deserialize(deserializer)?;
        Self::from_id(id).ok_or_else(|| {
            serde::de::Error::custom(format!("{id} is not an activity type of the spec"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_is_the_specs_number_and_back() {
        for (index, kind) in ActivityType::ALL.into_iter().enumerate() {
            assert_eq!(usize::try_from(kind.id()).ok(), Some(index + 1));
            assert_eq!(ActivityType::from_id(kind.id()), Some(kind));
        }
        assert_eq!(ActivityType::from_id(0), None);
        assert_eq!(ActivityType::from_id(22), None);
        assert_eq!(
            serde_json::to_string(&ActivityType::Quiz).expect("serialised"),
            "6"
        );
        assert_eq!(
            serde_json::from_str::<ActivityType>("18").expect("read"),
            ActivityType::VideoPlaylist
        );
        assert!(serde_json::from_str::<ActivityType>("99").is_err());
    }

    #[testkit::db_test]
    async fn every_type_the_database_knows_is_a_variant(db: sqlx::PgPool) {
        let stored: Vec<(i16, ActivityType)> =
            sqlx::query_as("SELECT id, id FROM action_types ORDER BY id")
                .fetch_all(&db)
                .await
                .expect("the types read as variants");
        assert_eq!(stored.len(), ActivityType::ALL.len());
        for (id, kind) in stored {
            assert_eq!(kind.id(), id);
        }
    }
}
