//! Activities: what members browse and take part in to earn. The catalogue (activities,
//! search, journeys, now playing, categories, public activities), the participation rules
//! every participation call goes through, and sharing an activity's link.

pub mod catalogue;
pub mod participation;
pub mod sharing;
