//! Media the platform processes outside the rules: videos through ffmpeg and ffprobe
//! (`ffmpeg`), images through the `image` crate (`images`, the adapter of
//! `domain::infra::images::ImageCodec`).

pub mod ffmpeg;
pub mod images;
