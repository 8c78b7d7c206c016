//! What a video file holds, as the `media` crate's ffprobe reports it: the value the rules
//! check an upload against (`videos::check`).

/// What ffprobe finds in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The container's duration, or the video stream's; `None` when neither is known.
    pub duration_ms: Option<u64>,
    /// The first video stream: codec, width and height (0 when unknown).
    pub video: Option<(String, u32, u32)>,
    /// The first audio stream's codec.
    pub audio: Option<String>,
}
