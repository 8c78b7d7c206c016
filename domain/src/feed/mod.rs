//! The wall feed (Mural, spec 001) and what members say about each other's posts and about
//! activities: posts, likes and comments (on posts and on activities, which share their
//! tables), members' reports and staff moderation, the videos members upload and the
//! images and documents they attach.

pub mod comments;
pub mod likes;
pub mod posts;
pub mod probe;
pub mod reports;
pub mod uploads;
pub mod videos;
