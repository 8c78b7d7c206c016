//! The wall feed's use cases: the videos members upload (each made whole on the
//! transaction that queues its transcode) and the posts whose media outlive a transaction
//! (an image stored before its post, a post's image and video removed after it), and
//! the images members upload, each with its narrower copies asked for.

pub mod posts;
pub mod uploads;
pub mod videos;
