//! ffprobe and ffmpeg, the Debian programs, run as child processes: what a video file holds,
//! and an H.264/AAC MP4 (with `+faststart`, so it plays while it loads) and a JPEG poster
//! made from it. Every run has a timeout and is killed when dropped (a timeout, a cancelled
//! job, a worker shutting down), so no program outlives the work that started it. Inputs
//! are members' files: the demuxer is forced from the file's signature and only local files
//! may be opened, so a file cannot make ffmpeg read anything else.

use std::ffi::OsString;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::Command;
use tokio::sync::watch;

pub use domain::feed::probe::Probe;
use domain::infra::uploads::FileKind;

/// How much of a program's error output is kept for the log: its end, where the cause is.
const STDERR_TAIL: usize = 4096;
/// ffprobe's answer is a few hundred bytes; anything far larger is not one we asked for.
const PROBE_OUTPUT_MAX: usize = 256 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum FfmpegError {
    /// The program ran and refused the input or failed on it.
    #[error("{program} failed ({status}): {stderr}")]
    Failed {
        program: &'static str,
        status: String,
        /// The exit code; `None` when a signal ended it (the OOM killer, a shutdown).
        code: Option<i32>,
        stderr: String,
    },
    /// The program answered something we cannot read (ffprobe's JSON).
    #[error("{program} answered unreadable output: {reason}")]
    Unreadable {
        program: &'static str,
        reason: String,
    },
    #[error("{program} ran longer than {timeout:?}")]
    TimedOut {
        program: &'static str,
        timeout: Duration,
    },
    /// The program could not be started or talked to (missing, out of resources).
    #[error("{program}: {source}")]
    Io {
        program: &'static str,
        source: std::io::Error,
    },
}

/// Messages of a run that failed for want of disk or memory, not because of its input.
const RESOURCE_FAILURES: [&str; 3] = [
    "No space left on device",
    "Cannot allocate memory",
    "Out of memory",
];

impl FfmpegError {
    /// The program ran to its end and refused the input: an exit code of its own, not a
    /// signal, and not a machine out of disk or memory. Running it again on the same file
    /// ends the same way.
    pub fn is_refusal(&self) -> bool {
        match self {
            Self::Failed {
                code: Some(_),
                stderr,
                ..
            } => !RESOURCE_FAILURES
                .iter()
                .any(|message| stderr.contains(message)),
            _ => false,
        }
    }
}

/// The container a video's signature names, forced on every input (required, so ffmpeg
/// never guesses, and never takes a member's file for a playlist or another format that
/// opens other files).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// MP4 and QuickTime.
    Mov,
    /// WebM.
    Matroska,
    /// WMV.
    Asf,
}

impl Container {
    pub fn of(kind: FileKind) -> Option<Self> {
        match kind {
            FileKind::Mp4 | FileKind::Mov => Some(Self::Mov),
            FileKind::Webm => Some(Self::Matroska),
            FileKind::Wmv => Some(Self::Asf),
            _ => None,
        }
    }

    fn demuxer(self) -> &'static str {
        match self {
            Self::Mov => "mov",
            Self::Matroska => "matroska",
            Self::Asf => "asf",
        }
    }
}

#[derive(Debug, Deserialize)]
struct ProbeJson {
    #[serde(default)]
    streams: Vec<StreamJson>,
    format: Option<FormatJson>,
}

#[derive(Debug, Deserialize)]
struct StreamJson {
    codec_type: Option<String>,
    codec_name: Option<String>,
    width: Option<u32>,
    height: Option<u32>,
    duration: Option<String>,
    /// Cover art in an audio file is a "video" stream of one picture.
    disposition: Option<DispositionJson>,
}

#[derive(Debug, Deserialize)]
struct DispositionJson {
    #[serde(default)]
    attached_pic: u8,
}

#[derive(Debug, Deserialize)]
struct FormatJson {
    duration: Option<String>,
}

fn seconds_to_ms(seconds: Option<&str>) -> Option<u64> {
    let seconds: f64 = seconds?.trim().parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0).then(|| (seconds * 1000.0).round() as u64)
}

/// Reads ffprobe's JSON answer.
fn parse_probe(json: &str) -> Result<Probe, FfmpegError> {
    let parsed: ProbeJson = serde_json::from_str(json).map_err(|err| FfmpegError::Unreadable {
        program: "ffprobe",
        reason: err.to_string(),
    })?;
    let video = parsed.streams.iter().find(|stream| {
        stream.codec_type.as_deref() == Some("video")
            && stream
                .disposition
                .as_ref()
                .is_none_or(|d| d.attached_pic == 0)
    });
    let audio = parsed
        .streams
        .iter()
        .find(|stream| stream.codec_type.as_deref() == Some("audio"));
    let duration_ms = seconds_to_ms(
        parsed
            .format
            .as_ref()
            .and_then(|format| format.duration.as_deref()),
    )
    .or_else(|| seconds_to_ms(video.and_then(|stream| stream.duration.as_deref())));
    Ok(Probe {
        duration_ms,
        video: video.map(|stream| {
            (
                stream.codec_name.clone().unwrap_or_default(),
                stream.width.unwrap_or(0),
                stream.height.unwrap_or(0),
            )
        }),
        audio: audio.map(|stream| stream.codec_name.clone().unwrap_or_default()),
    })
}

/// The input options every run puts before `-i`: local files only, the forced demuxer.
fn input(container: Container, path: &Path) -> Vec<OsString> {
    vec![
        "-protocol_whitelist".into(),
        "file".into(),
        "-f".into(),
        container.demuxer().into(),
        "-i".into(),
        path.as_os_str().to_owned(),
    ]
}

/// What ffprobe finds in `path`, within `timeout`.
pub async fn probe(
    path: &Path,
    container: Container,
    timeout: Duration,
) -> Result<Probe, FfmpegError> {
    let mut args: Vec<OsString> = ["-v", "error", "-print_format", "json"]
        .into_iter()
        .map(OsString::from)
        .collect();
    // Only the fields read below: a file's tags (any size, any text) stay out of it.
    args.extend([
        "-show_entries".into(),
        "format=duration:stream=codec_type,codec_name,width,height,duration:\
         stream_disposition=attached_pic"
            .into(),
    ]);
    args.extend(input(container, path));
    let mut json = String::new();
    let mut too_long = false;
    run("ffprobe", args, timeout, |line| {
        if json.len() + line.len() < PROBE_OUTPUT_MAX {
            json.push_str(line);
            json.push('\n');
        } else {
            too_long = true;
        }
    })
    .await?;
    if too_long {
        return Err(FfmpegError::Unreadable {
            program: "ffprobe",
            reason: format!("more than {PROBE_OUTPUT_MAX} bytes"),
        });
    }
    parse_probe(&json)
}

/// An MP4 to make from a member's video.
#[derive(Debug, Clone)]
pub struct Transcode<'a> {
    pub input: &'a Path,
    pub container: Container,
    pub output: &'a Path,
    /// The input's duration, to turn ffmpeg's position into a percentage.
    pub duration_ms: u64,
    /// The output stops here whatever the input's data holds: its header may lie about
    /// its duration.
    pub max_duration: Duration,
    /// The output stops growing at this many bytes.
    pub max_bytes: u64,
    /// The encoder's threads, so one video leaves the machine's other cores alone.
    pub threads: u32,
    /// The picture is scaled down (never up) to fit this box, keeping its aspect ratio.
    pub max_width: u32,
    pub max_height: u32,
    pub timeout: Duration,
}

/// Makes `job.output`: H.264 (yuv420p, even dimensions, at most 60 frames a second) and
/// AAC (when the input has sound) in an MP4 whose index comes first, at most
/// `job.max_duration` long and `job.max_bytes` large. Sends how far it has come, 0 to 99,
/// to `progress` as ffmpeg reports its position.
pub async fn transcode(
    job: &Transcode<'_>,
    progress: &watch::Sender<u8>,
) -> Result<(), FfmpegError> {
    let total_us = job.duration_ms.max(1).saturating_mul(1000);
    run("ffmpeg", transcode_args(job), job.timeout, |line| {
        // `out_time_ms` is in microseconds too (an old ffmpeg misnomer).
        let position = line
            .strip_prefix("out_time_us=")
            .or_else(|| line.strip_prefix("out_time_ms="))
            .and_then(|value| value.trim().parse::<u64>().ok());
        if let Some(us) = position {
            let percent = (us.saturating_mul(100) / total_us).min(99) as u8;
            progress.send_if_modified(|current| {
                let forward = percent > *current;
                if forward {
                    *current = percent;
                }
                forward
            });
        }
    })
    .await
}

/// ffmpeg's arguments for `job`.
fn transcode_args(job: &Transcode<'_>) -> Vec<OsString> {
    let (width, height) = (job.max_width, job.max_height);
    // The factor that fits the box (at most 1), then each side rounded down to even.
    let fit = format!("min(1,min({width}/iw,{height}/ih))");
    let scale = format!(
        "scale=w='max(2,trunc({fit}*iw/2)*2)':h='max(2,trunc({fit}*ih/2)*2)',format=yuv420p"
    );
    let mut args: Vec<OsString> = ["-hide_banner", "-nostdin", "-nostats", "-v", "error", "-y"]
        .into_iter()
        .map(OsString::from)
        .collect();
    args.extend(input(job.container, job.input));
    for arg in [
        "-map",
        "0:v:0",
        "-map",
        "0:a:0?",
        "-vf",
        &scale,
        "-fpsmax",
        "60",
        "-c:v",
        "libx264",
        "-preset",
        "veryfast",
        "-crf",
        "23",
        "-c:a",
        "aac",
        "-b:a",
        "128k",
        "-ac",
        "2",
        "-map_metadata",
        "-1",
        "-map_chapters",
        "-1",
        "-sn",
        "-dn",
        "-movflags",
        "+faststart",
        "-progress",
        "pipe:1",
    ] {
        args.push(arg.into());
    }
    args.extend([
        "-threads".into(),
        job.threads.max(1).to_string().into(),
        "-t".into(),
        format!("{:.3}", job.max_duration.as_secs_f64()).into(),
        "-fs".into(),
        job.max_bytes.to_string().into(),
        "-f".into(),
        "mp4".into(),
        job.output.as_os_str().to_owned(),
    ]);
    args
}

/// A JPEG of the frame at `at` in `video` (the first frame when the video is shorter).
pub async fn poster(
    video: &Path,
    at: Duration,
    output: &Path,
    timeout: Duration,
) -> Result<(), FfmpegError> {
    let frame = |at: Duration| {
        let mut args: Vec<OsString> = ["-hide_banner", "-nostdin", "-v", "error", "-y", "-ss"]
            .into_iter()
            .map(OsString::from)
            .collect();
        args.push(format!("{:.3}", at.as_secs_f64()).into());
        args.extend(input(Container::Mov, video));
        for arg in [
            "-frames:v",
            "1",
            "-q:v",
            "3",
            "-f",
            "image2",
            "-update",
            "1",
        ] {
            args.push(arg.into());
        }
        args.push(output.as_os_str().to_owned());
        args
    };
    run("ffmpeg", frame(at), timeout, |_| {}).await?;
    let made = tokio::fs::metadata(output)
        .await
        .is_ok_and(|meta| meta.len() > 0);
    if !made && !at.is_zero() {
        run("ffmpeg", frame(Duration::ZERO), timeout, |_| {}).await?;
    }
    match tokio::fs::metadata(output).await {
        Ok(meta) if meta.len() > 0 => Ok(()),
        _ => Err(FfmpegError::Failed {
            program: "ffmpeg",
            status: "no frame".into(),
            code: None,
            stderr: String::new(),
        }),
    }
}

/// Runs `program` with `args`, handing each line it prints to `on_line`, within `timeout`;
/// a run past it, or dropped, is killed.
async fn run(
    program: &'static str,
    args: Vec<OsString>,
    timeout: Duration,
    mut on_line: impl FnMut(&str),
) -> Result<(), FfmpegError> {
    let io = |source| FfmpegError::Io { program, source };
    let work = async {
        let mut child = Command::new(program)
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(io)?;
        let (Some(stdout), Some(mut stderr)) = (child.stdout.take(), child.stderr.take()) else {
            return Err(io(std::io::Error::other("no pipes")));
        };
        let read_stdout = async {
            let mut lines = BufReader::new(stdout).lines();
            while let Some(line) = lines.next_line().await? {
                on_line(&line);
            }
            Ok::<_, std::io::Error>(())
        };
        let read_stderr = async {
            let mut tail = Vec::new();
            let mut buffer = [0u8; 4096];
            loop {
                match stderr.read(&mut buffer).await {
                    Ok(0) | Err(_) => break,
                    Ok(read) => {
                        tail.extend_from_slice(&buffer[..read]);
                        if tail.len() > STDERR_TAIL {
                            tail.drain(..tail.len() - STDERR_TAIL);
                        }
                    }
                }
            }
            String::from_utf8_lossy(&tail).trim().to_string()
        };
        let (read, stderr) = tokio::join!(read_stdout, read_stderr);
        let status = child.wait().await.map_err(io)?;
        read.map_err(io)?;
        if !status.success() {
            return Err(FfmpegError::Failed {
                program,
                status: status.to_string(),
                code: status.code(),
                stderr,
            });
        }
        Ok(())
    };
    tokio::time::timeout(timeout, work)
        .await
        .map_err(|_| FfmpegError::TimedOut { program, timeout })?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_reads_the_first_real_video_stream_and_the_duration() {
        let probe = parse_probe(
            r#"{"streams": [
                {"codec_type": "video", "codec_name": "mjpeg", "width": 300, "height": 300,
                 "disposition": {"attached_pic": 1}},
                {"codec_type": "audio", "codec_name": "aac"},
                {"codec_type": "video", "codec_name": "h264", "width": 1920, "height": 1080,
                 "duration": "12.5", "disposition": {"attached_pic": 0}}
               ],
               "format": {"duration": "12.480000"}}"#,
        )
        .expect("probe");
        assert_eq!(probe.duration_ms, Some(12_480));
        assert_eq!(probe.video, Some(("h264".into(), 1920, 1080)));
        assert_eq!(probe.audio.as_deref(), Some("aac"));
    }

    #[test]
    fn a_probe_without_streams_or_duration_says_so() {
        let probe = parse_probe(r#"{"format": {"duration": "N/A"}}"#).expect("probe");
        assert_eq!(
            (probe.duration_ms, probe.video, probe.audio),
            (None, None, None)
        );
        assert!(parse_probe("not json").is_err());
    }

    #[test]
    fn only_an_exit_of_its_own_on_the_input_is_a_refusal() {
        let failed = |code, stderr: &str| FfmpegError::Failed {
            program: "ffmpeg",
            status: "exit".into(),
            code,
            stderr: stderr.into(),
        };
        assert!(failed(Some(1), "Invalid data found when processing input").is_refusal());
        assert!(!failed(None, "").is_refusal(), "killed by a signal");
        assert!(!failed(Some(1), "video.mp4: No space left on device").is_refusal());
        assert!(
            !FfmpegError::Io {
                program: "ffmpeg",
                source: std::io::Error::other("missing"),
            }
            .is_refusal()
        );
    }

    #[test]
    fn a_transcode_forces_the_demuxer_and_bounds_its_output() {
        let job = Transcode {
            input: Path::new("/area/7.part"),
            container: Container::Matroska,
            output: Path::new("/area/7.work-x/video.mp4"),
            duration_ms: 6_000,
            max_duration: Duration::from_millis(7_000),
            max_bytes: 400_000_000,
            threads: 2,
            max_width: 1280,
            max_height: 720,
            timeout: Duration::from_secs(60),
        };
        let args: Vec<String> = transcode_args(&job)
            .into_iter()
            .map(|arg| arg.to_string_lossy().into_owned())
            .collect();
        let after = |flag: &str| {
            let at = args.iter().position(|arg| arg == flag).expect(flag);
            args[at + 1].as_str()
        };
        assert_eq!(after("-protocol_whitelist"), "file");
        assert_eq!(after("-f"), "matroska", "the demuxer comes first");
        assert_eq!(after("-i"), "/area/7.part");
        assert_eq!(
            (after("-t"), after("-fs"), after("-threads")),
            ("7.000", "400000000", "2")
        );
        assert_eq!(
            &args[args.len() - 3..],
            ["-f", "mp4", "/area/7.work-x/video.mp4"],
            "output options before the output"
        );
    }

    #[test]
    fn the_demuxer_follows_the_signature() {
        assert_eq!(Container::of(FileKind::Mp4), Some(Container::Mov));
        assert_eq!(Container::of(FileKind::Wmv), Some(Container::Asf));
        assert_eq!(Container::of(FileKind::Png), None);
    }
}
