//! Media the platform processes outside the process: videos through ffmpeg and ffprobe
//! (`ffmpeg`). Images stay in `domain::infra::images` for now: the rules call them inline
//! (docs/decisions.md, "Adapters out of domain").

pub mod ffmpeg;
