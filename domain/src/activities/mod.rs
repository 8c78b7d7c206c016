//! Activities: what members browse and take part in to earn. The catalogue (activities,
//! search, public activities, their videos), the home's rows (journeys, now playing,
//! categories), the participation rules every participation call goes through, and
//! sharing an activity's link, quizzes and surveys, trophies.

pub mod activity_type;
pub mod annulment;
pub mod catalogue;
pub mod donation;
pub mod invitations;
pub mod lucky_numbers;
pub mod participation;
pub mod research;
pub mod rows;
pub mod sharing;
pub mod short_links;
pub mod trophies;
pub mod video_views;
pub mod videos;

pub use activity_type::ActivityType;
