//! The wall feed's background work: transcoding the videos members upload, and removing
//! the uploads they abandoned.

pub mod uploads_cleanup;
pub mod video_transcode;
