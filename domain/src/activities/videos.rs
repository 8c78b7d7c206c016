//! An activity's videos (spec 001 "action_videos"): a file of ours in the object store,
//! served at `/api/media/...` (`custom`), or a YouTube or Vimeo video, which the web embeds
//! from the provider's own player (`embed_url`). An external address is read once, when
//! it is written ([`ExternalVideo::parse`]): only those two providers are accepted, and the
//! video is stored by its canonical address, which the table's check also holds to.

use serde::Deserialize;
use url::Url;

use crate::infra::objects::Objects;

/// The answer to an external address that is not a YouTube or Vimeo video.
pub const VIDEO_URL_REFUSED: &str = "Informe o endereço de um vídeo do YouTube ou do Vimeo.";

/// A YouTube or Vimeo video, by its id on the provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExternalVideo {
    YouTube(String),
    Vimeo(u64),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{VIDEO_URL_REFUSED}")]
pub struct VideoUrlRefused;

impl ExternalVideo {
    /// A YouTube address (`youtube.com/watch?v=`, `youtu.be/`, `/embed/`, `/shorts/`,
    /// `/live/`, on `www.`, `m.` or `youtube-nocookie.com`) or a Vimeo one (`vimeo.com/{id}`,
    /// `player.vimeo.com/video/{id}`), http or https; anything else is refused.
    pub fn parse(address: &str) -> Result<Self, VideoUrlRefused> {
        let url = Url::parse(address.trim()).map_err(|_| VideoUrlRefused)?;
        if !matches!(url.scheme(), "https" | "http") || url.port().is_some() {
            return Err(VideoUrlRefused);
        }
        let host = url.host_str().ok_or(VideoUrlRefused)?;
        let host = host.strip_prefix("www.").unwrap_or(host);
        let segments: Vec<&str> = url
            .path_segments()
            .map(|segments| segments.filter(|s| !s.is_empty()).collect())
            .unwrap_or_default();
        let video = match (host, segments.as_slice()) {
            ("youtube.com" | "m.youtube.com", ["watch"]) => {
                let id = url
                    .query_pairs()
                    .find(|(name, _)| name == "v")
                    .map(|(_, id)| id.into_owned())
                    .ok_or(VideoUrlRefused)?;
                Self::YouTube(id)
            }
            ("youtube.com" | "m.youtube.com", ["embed" | "shorts" | "live", id])
            | ("youtube-nocookie.com", ["embed", id])
            | ("youtu.be", [id]) => Self::YouTube((*id).to_string()),
            ("vimeo.com", [id]) | ("player.vimeo.com", ["video", id]) => Self::Vimeo(vimeo_id(id)?),
            _ => return Err(VideoUrlRefused),
        };
        match &video {
            Self::YouTube(id) if !is_youtube_id(id) => Err(VideoUrlRefused),
            _ => Ok(video),
        }
    }

    /// The address it is stored and answered by.
    pub fn url(&self) -> String {
        match self {
            Self::YouTube(id) => format!("https://www.youtube.com/watch?v={id}"),
            Self::Vimeo(id) => format!("https://vimeo.com/{id}"),
        }
    }

    /// The provider's player, for an iframe (YouTube's without cookies).
    pub fn embed_url(&self) -> String {
        match self {
            Self::YouTube(id) => format!("https://www.youtube-nocookie.com/embed/{id}"),
            Self::Vimeo(id) => format!("https://player.vimeo.com/video/{id}"),
        }
    }
}

fn vimeo_id(segment: &str) -> Result<u64, VideoUrlRefused> {
    if segment.is_empty() || segment.len() > 12 || !segment.bytes().all(|b| b.is_ascii_digit()) {
        return Err(VideoUrlRefused);
    }
    segment.parse().map_err(|_| VideoUrlRefused)
}

fn is_youtube_id(id: &str) -> bool {
    id.len() == 11
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Where a video is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VideoSource {
    /// An object of our store (an MP4), by its key.
    Custom {
        object_key: String,
    },
    External(ExternalVideo),
}

/// A video of a new activity, in the activity's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewVideo {
    pub source: VideoSource,
    pub name: String,
    /// Plain text.
    pub description: String,
    /// Locks the activity's later videos until this one is viewed.
    pub required: bool,
    /// Its length, against which a "viewed" claim is judged (`video_views`).
    pub duration_seconds: u32,
}

/// Where the web plays a video from.
#[derive(Debug, Clone)]
pub struct Video {
    /// A custom video's `/api/media/...` address, or the YouTube or Vimeo page.
    pub url: String,
    /// True for a file of ours, played by the page itself.
    pub custom: bool,
    /// The provider's player for an iframe (`www.youtube-nocookie.com/embed/{id}` or
    /// `player.vimeo.com/video/{id}`); null for a custom video.
    pub embed_url: Option<String>,
}

/// One of an activity's videos, as the detail shows it.
#[derive(Debug, Clone)]
pub struct ActionVideo {
    pub video_id: i64,
    pub name: String,
    pub description: String,
    pub required: bool,
    /// Its length, shown as mm:ss.
    pub duration_seconds: i32,
    pub video: Video,
}

/// An `action_videos` row as the detail's query reads it (JSON).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct VideoRow {
    video_id: i64,
    name: String,
    description: String,
    required: bool,
    duration_seconds: i32,
    object_key: Option<String>,
    external_url: Option<String>,
}

impl VideoRow {
    pub(crate) fn into_video(self) -> ActionVideo {
        let video = match (self.object_key, self.external_url) {
            (Some(key), _) => Video {
                url: Objects::url(&key),
                custom: true,
                embed_url: None,
            },
            (None, url) => {
                let url = url.unwrap_or_default();
                let embed_url = ExternalVideo::parse(&url).ok().map(|v| v.embed_url());
                Video {
                    url,
                    custom: false,
                    embed_url,
                }
            }
        };
        ActionVideo {
            video_id: self.video_id,
            name: self.name,
            description: self.description,
            required: self.required,
            duration_seconds: self.duration_seconds,
            video,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn youtube_addresses_of_every_form_are_one_video() {
        for address in [
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
            "https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ",
            "http://m.youtube.com/watch?v=dQw4w9WgXcQ",
            "https://youtu.be/dQw4w9WgXcQ?t=42",
            "https://www.youtube.com/embed/dQw4w9WgXcQ",
            "https://www.youtube.com/shorts/dQw4w9WgXcQ",
            "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
            " https://WWW.YOUTUBE.COM/watch?v=dQw4w9WgXcQ ",
        ] {
            let video = ExternalVideo::parse(address).expect(address);
            assert_eq!(
                video,
                ExternalVideo::YouTube("dQw4w9WgXcQ".into()),
                "{address}"
            );
            assert_eq!(video.url(), "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
            assert_eq!(
                video.embed_url(),
                "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"
            );
        }
    }

    #[test]
    fn vimeo_addresses_are_read_by_their_number() {
        for address in [
            "https://vimeo.com/76979871",
            "https://player.vimeo.com/video/76979871",
        ] {
            let video = ExternalVideo::parse(address).expect(address);
            assert_eq!(video, ExternalVideo::Vimeo(76_979_871));
            assert_eq!(video.url(), "https://vimeo.com/76979871");
            assert_eq!(video.embed_url(), "https://player.vimeo.com/video/76979871");
        }
    }

    #[test]
    fn other_hosts_and_malformed_ids_are_refused() {
        for address in [
            "",
            "youtube.com/watch?v=dQw4w9WgXcQ",
            "javascript:alert(1)",
            "ftp://youtube.com/watch?v=dQw4w9WgXcQ",
            "https://evil.example/watch?v=dQw4w9WgXcQ",
            "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ",
            "https://notyoutube.com/watch?v=dQw4w9WgXcQ",
            "https://www.youtube.com:8443/watch?v=dQw4w9WgXcQ",
            "https://www.youtube.com/watch?v=short",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ%22%3E",
            "https://www.youtube.com/watch",
            "https://www.youtube.com/channel/UC123",
            "https://youtu.be/",
            "https://vimeo.com/channels/staffpicks",
            "https://vimeo.com/12ab",
            "https://player.vimeo.com/76979871",
            "https://vimeo.com/1234567890123",
        ] {
            assert_eq!(
                ExternalVideo::parse(address),
                Err(VideoUrlRefused),
                "{address}"
            );
        }
    }
}
