//! `video.transcode` and `uploads.cleanup` on real files: a corrupt file, a file with no
//! picture and a file ffprobe takes but ffmpeg fails on fail for good with their reason on
//! the upload and the job (through the real fleet, not retried); a header that understates
//! the duration bounds the output; an attempt killed mid-transcode on a worker that died
//! leaves nothing recorded or stored, kills its ffmpeg, and the fleet rescues the job and
//! completes it; the cleanup removes abandoned uploads (skipping one a post is being
//! created with), fails videos their transcode left processing, removes whole videos no
//! post carries with their objects, and the upload area's leftovers, and a later run finds
//! nothing; an unposted video is discarded; the cleanup removes the images and documents
//! nothing refers to a day after they were made, a batch a run, skipping one being attached.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use domain::Config;
use domain::feed::videos::{self, Video, VideoStatus};
use domain::infra::objects::Objects;
use domain::shared::ids::{StationId, UserId};
use jobs::kinds::{UploadsCleanup, VideoTranscode};
use jobs::{Job, JobContext, JobState, Services};
use media::ffmpeg::{self, Container};
use serde_json::json;
use sqlx::PgPool;
use testkit::build;

/// The member's text on an upload abandoned mid-way.
const UPLOAD_FAILED: &str = "Erro no upload";

/// A data directory of the test's own: ids repeat across test databases.
struct Area {
    data: PathBuf,
}

impl Area {
    fn new() -> Self {
        Self {
            data: std::env::temp_dir().join(format!(
                "filia-video-jobs-{}",
                ulid::Ulid::generate().to_string().to_lowercase()
            )),
        }
    }

    fn uploads(&self) -> PathBuf {
        self.data.join("uploads")
    }

    fn services(&self, db: &PgPool) -> Arc<Services> {
        let data = self.data.display().to_string();
        let config = Config::from_lookup(|name| match name {
            "FILIA_DATA_DIR" => Some(data.clone()),
            _ => None,
        })
        .expect("configuration");
        Services::new(jobs::fleet::pool_beside(db), config).expect("services")
    }

    fn context(&self, db: &PgPool, video: &Video, attempt: u32) -> JobContext {
        JobContext {
            id: video.job_id.clone().expect("a job"),
            attempt,
            worker: "test".into(),
            taken_at: None,
            services: self.services(db),
        }
    }

    fn objects(&self) -> Objects {
        Objects::local(&self.data.join("objects")).expect("objects")
    }

    /// Stores a stand-in object under `key`; answers where it lies.
    fn store(&self, key: &str) -> PathBuf {
        let path = self.data.join("objects").join(key);
        std::fs::create_dir_all(path.parent().expect("folder")).expect("folder");
        std::fs::write(&path, b"stored").expect("object");
        path
    }

    /// Every file stored under `feed/videos`.
    fn stored_videos(&self) -> Vec<PathBuf> {
        std::fs::read_dir(self.data.join("objects/feed/videos"))
            .map(|dir| dir.map(|entry| entry.expect("entry").path()).collect())
            .unwrap_or_default()
    }

    fn leftovers(&self, id: i64) -> Vec<String> {
        std::fs::read_dir(self.uploads())
            .map(|dir| {
                dir.filter_map(|entry| entry.expect("entry").file_name().into_string().ok())
                    .filter(|name| name.starts_with(&format!("{id}.")))
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Drop for Area {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.data).ok();
    }
}

async fn member(db: &PgPool) -> (i64, i64) {
    let station_id = build::station("clube")
        .url("https://c.example.com")
        .insert(db)
        .await;
    let user_id = build::member(station_id)
        .email("maria@example.com")
        .insert(db)
        .await;
    (station_id, user_id)
}

/// A file made by ffmpeg's own sources with `args` (inputs and codecs), as its bytes.
fn made_by_ffmpeg(dir: &Path, name: &str, args: &[&str]) -> Vec<u8> {
    std::fs::create_dir_all(dir).expect("dir");
    let out = dir.join(name);
    let status = Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-nostdin", "-y"])
        .args(args)
        .arg(&out)
        .status()
        .expect("ffmpeg is installed");
    assert!(status.success(), "ffmpeg made no {name}");
    let bytes = std::fs::read(&out).expect("file");
    std::fs::remove_file(out).ok();
    bytes
}

/// An upload of `bytes` made whole (through the same calls the API makes) with its
/// transcode job enqueued.
async fn whole_upload(db: &PgPool, area: &Area, bytes: &[u8]) -> Video {
    let (station_id, user_id) = member(db).await;
    let (station_id, user_id) = (StationId(station_id), UserId(user_id));
    let size = bytes.len() as i64;
    let video = app::feed::videos::start(db, station_id, user_id, "clip.mp4", size)
        .await
        .expect("started");
    let video = app::feed::videos::append(
        db,
        &jobs::JobOutbox,
        &area.uploads(),
        station_id,
        user_id,
        video.id,
        0,
        bytes.to_vec().into(),
    )
    .await
    .expect("appended");
    assert_eq!(
        video.status,
        VideoStatus::Processing,
        "not whole: {video:?}"
    );
    video
}

async fn reload(db: &PgPool, id: i64) -> Video {
    videos::find(db, id).await.expect("find").expect("video")
}

/// Runs the job through the real fleet and waits for it to end.
async fn through_the_fleet(db: &PgPool, area: &Area, video: &Video) -> jobs::JobView {
    let fleet = jobs::fleet::spawn(area.services(db), Vec::new());
    let job_id = video.job_id.clone().expect("job");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(180);
    let view = loop {
        let view = jobs::state::find(db, &job_id)
            .await
            .expect("query")
            .expect("job");
        if view.state.is_final() {
            break view;
        }
        assert!(tokio::time::Instant::now() < deadline, "{view:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    fleet.stop().await.expect("fleet stopped");
    view
}

#[testkit::db_test]
async fn a_corrupt_file_fails_for_good_with_its_reason(db: PgPool) {
    let area = Area::new();
    // An MP4's first box, then noise: a video by its signature only.
    let mut bytes = b"\0\0\0\x18ftypmp42\0\0\0\0mp42isom".to_vec();
    let mut state = 0x2545_f491_u32;
    bytes.extend((0..200_000).map(|_| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state as u8
    }));
    let video = whole_upload(&db, &area, &bytes).await;
    let view = through_the_fleet(&db, &area, &video).await;
    assert_eq!(view.state, JobState::Failed, "{view:?}");
    assert_eq!(view.attempts, 1, "not retried");
    assert_eq!(view.error.as_deref(), Some(videos::NOT_A_VIDEO));
    let video = reload(&db, video.id).await;
    assert_eq!(video.status, VideoStatus::Failed);
    assert_eq!(video.failure.as_deref(), Some(videos::NOT_A_VIDEO));
    assert!(video.video_key.is_none());
    assert!(
        area.leftovers(video.id).is_empty(),
        "{:?}",
        area.leftovers(video.id)
    );
    assert!(area.stored_videos().is_empty());
}

#[testkit::db_test]
async fn a_file_with_sound_and_no_picture_is_not_a_video(db: PgPool) {
    let area = Area::new();
    let sound = made_by_ffmpeg(
        &area.data.join("clips"),
        "sound.m4a",
        &["-f", "lavfi", "-i", "sine=duration=2", "-c:a", "aac"],
    );
    let video = whole_upload(&db, &area, &sound).await;
    let error = VideoTranscode { video_id: video.id }
        .run(area.context(&db, &video, 1))
        .await
        .expect_err("no picture");
    assert_eq!(error.outcome, jobs::Outcome::Permanent);
    assert_eq!(error.summary, videos::NOT_A_VIDEO);
    let video = reload(&db, video.id).await;
    assert_eq!(
        (video.status, video.failure.as_deref()),
        (VideoStatus::Failed, Some(videos::NOT_A_VIDEO))
    );
    assert!(area.leftovers(video.id).is_empty());
}

#[testkit::db_test]
async fn a_file_ffprobe_takes_but_ffmpeg_fails_on_is_refused_without_retries(db: PgPool) {
    let area = Area::new();
    // A real MP4 with its index first, cut 200 bytes into its data: the header still says
    // 4 seconds of 320x240 video with sound, but there is nothing to decode.
    let clip = made_by_ffmpeg(
        &area.data.join("clips"),
        "whole.mp4",
        &[
            "-f",
            "lavfi",
            "-i",
            "testsrc=duration=4:size=320x240:rate=25",
            "-f",
            "lavfi",
            "-i",
            "sine=duration=4",
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-c:a",
            "aac",
            "-shortest",
            "-movflags",
            "+faststart",
        ],
    );
    let data = clip
        .windows(4)
        .position(|window| window == b"mdat")
        .expect("mdat");
    let truncated = &clip[..data + 200];
    let probed = ffmpeg::probe(
        &{
            let path = area.data.join("clips/truncated.mp4");
            std::fs::write(&path, truncated).expect("write");
            path
        },
        Container::Mov,
        Duration::from_secs(30),
    )
    .await
    .expect("ffprobe takes it");
    assert_eq!(videos::check(&probed), Ok(4_000), "{probed:?}");

    let video = whole_upload(&db, &area, truncated).await;
    let view = through_the_fleet(&db, &area, &video).await;
    assert_eq!(view.state, JobState::Failed, "{view:?}");
    assert_eq!(view.attempts, 1, "not retried");
    assert_eq!(view.error.as_deref(), Some(videos::NOT_A_VIDEO));
    assert!(
        view.progress.is_some_and(|p| p >= 1),
        "probed first: {view:?}"
    );
    let detail: String = sqlx::query_scalar("SELECT detail FROM job_failures WHERE job_id = $1")
        .bind(&view.id)
        .fetch_one(&db)
        .await
        .expect("failure");
    assert!(detail.contains("ffmpeg failed"), "{detail}");
    let video = reload(&db, video.id).await;
    assert_eq!(
        (video.status, video.failure.as_deref()),
        (VideoStatus::Failed, Some(videos::NOT_A_VIDEO))
    );
    assert!(video.video_key.is_none());
    assert!(
        area.leftovers(video.id).is_empty(),
        "{:?}",
        area.leftovers(video.id)
    );
    assert!(area.stored_videos().is_empty());
}

/// `mp4` with its header claiming 2 seconds (movie, track and media durations), whatever
/// its data holds.
fn claiming_two_seconds(mut mp4: Vec<u8>) -> Vec<u8> {
    let at = |mp4: &[u8], name: &[u8]| {
        let at = mp4.windows(4).position(|w| w == name).expect("box");
        assert_eq!(mp4[at + 4], 0, "a version 0 box");
        at
    };
    let read = |mp4: &[u8], i: usize| u32::from_be_bytes(mp4[i..i + 4].try_into().expect("4"));
    let mvhd = at(&mp4, b"mvhd");
    let movie_scale = read(&mp4, mvhd + 16);
    mp4[mvhd + 20..mvhd + 24].copy_from_slice(&(movie_scale * 2).to_be_bytes());
    let tkhd = at(&mp4, b"tkhd");
    mp4[tkhd + 24..tkhd + 28].copy_from_slice(&(movie_scale * 2).to_be_bytes());
    let mdhd = at(&mp4, b"mdhd");
    let media_scale = read(&mp4, mdhd + 16);
    mp4[mdhd + 20..mdhd + 24].copy_from_slice(&(media_scale * 2).to_be_bytes());
    mp4
}

#[testkit::db_test]
async fn a_header_that_understates_the_duration_bounds_what_is_transcoded(db: PgPool) {
    let area = Area::new();
    // 6 seconds of pictures under a header that says 2: ffmpeg alone would make all 6.
    let clip = claiming_two_seconds(made_by_ffmpeg(
        &area.data.join("clips"),
        "six.mp4",
        &[
            "-f",
            "lavfi",
            "-i",
            "testsrc=duration=6:size=160x120:rate=25",
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
        ],
    ));
    let video = whole_upload(&db, &area, &clip).await;
    VideoTranscode { video_id: video.id }
        .run(area.context(&db, &video, 1))
        .await
        .expect("transcoded");
    let ready = reload(&db, video.id).await;
    assert_eq!(ready.status, VideoStatus::Ready);
    // The probed 2 s and one more, not the 6 s of data.
    let duration = ready.duration_ms.expect("duration");
    assert!((2_900..=3_100).contains(&duration), "{duration}");
}

#[testkit::db_test]
async fn a_video_whose_post_staff_removed_meanwhile_is_never_stored(db: PgPool) {
    let area = Area::new();
    let clip = made_by_ffmpeg(
        &area.data.join("clips"),
        "two.mp4",
        &[
            "-f",
            "lavfi",
            "-i",
            "testsrc=duration=2:size=160x120:rate=25",
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
        ],
    );
    let video = whole_upload(&db, &area, &clip).await;
    post_with(&db, (video.station_id, video.user_id), video.id).await;
    sqlx::query("UPDATE feed_posts SET removed_at = now() WHERE video_id = $1")
        .bind(video.id)
        .execute(&db)
        .await
        .expect("removed by staff");
    VideoTranscode { video_id: video.id }
        .run(area.context(&db, &video, 1))
        .await
        .expect("ran");
    let video = reload(&db, video.id).await;
    assert_eq!(video.status, VideoStatus::Failed);
    assert_eq!(video.failure.as_deref(), Some(videos::REMOVED));
    assert!(video.video_key.is_none());
    assert!(
        area.stored_videos().is_empty(),
        "{:?}",
        area.stored_videos()
    );
    let published: bool =
        sqlx::query_scalar("SELECT published_at IS NOT NULL FROM feed_posts WHERE video_id = $1")
            .bind(video.id)
            .fetch_one(&db)
            .await
            .expect("post");
    assert!(!published);
}

/// The ffmpeg processes working on `path`, by their command lines.
fn ffmpeg_on(path: &Path) -> usize {
    let needle = path.display().to_string();
    std::fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(|entry| std::fs::read(entry.ok()?.path().join("cmdline")).ok())
        .map(|cmdline| String::from_utf8_lossy(&cmdline).replace('\0', " "))
        .filter(|cmdline| cmdline.starts_with("ffmpeg") && cmdline.contains(&needle))
        .count()
}

#[testkit::db_test]
async fn a_worker_killed_mid_transcode_leaves_nothing_and_the_fleet_completes_the_job(db: PgPool) {
    let area = Area::new();
    let clip = made_by_ffmpeg(
        &area.data.join("clips"),
        "long.mp4",
        &[
            "-f",
            "lavfi",
            "-i",
            "testsrc2=duration=20:size=1280x720:rate=30",
            "-f",
            "lavfi",
            "-i",
            "sine=duration=20",
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-c:a",
            "aac",
            "-shortest",
        ],
    );
    let video = whole_upload(&db, &area, &clip).await;
    let part = videos::part_path(&area.uploads(), video.id);
    let job_id = video.job_id.clone().expect("job");

    // The first attempt runs on a worker of another process, which stops heartbeating
    // while it transcodes: its lease on the job is left to expire.
    let dead = "video.transcode@gone-host:4242#0";
    sqlx::query(
        "INSERT INTO apalis.workers (id, worker_type, storage_name, last_seen)
         VALUES ($1, 'video.transcode', 'PgStorage', now() - interval '1 hour')",
    )
    .bind(dead)
    .execute(&db)
    .await
    .expect("worker");
    sqlx::query(
        "UPDATE apalis.jobs SET status = 'Running', lock_by = $2, lock_at = now()
         WHERE id = $1",
    )
    .bind(&job_id)
    .bind(dead)
    .execute(&db)
    .await
    .expect("held");
    let attempt =
        tokio::spawn(VideoTranscode { video_id: video.id }.run(area.context(&db, &video, 1)));
    // Killed once ffmpeg has reported some progress, well before it ends.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let progress: Option<i16> =
            sqlx::query_scalar("SELECT progress FROM job_records WHERE job_id = $1")
                .bind(&job_id)
                .fetch_one(&db)
                .await
                .expect("record");
        if progress.is_some_and(|p| p >= 6) {
            break;
        }
        assert!(
            !attempt.is_finished(),
            "the attempt ended before it was killed"
        );
        assert!(tokio::time::Instant::now() < deadline, "no progress");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(ffmpeg_on(&part), 1, "ffmpeg is running");
    attempt.abort();
    assert!(attempt.await.expect_err("killed").is_cancelled());
    // The child dies with the attempt.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while ffmpeg_on(&part) > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "ffmpeg outlived its attempt"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let killed = reload(&db, video.id).await;
    assert_eq!(killed.status, VideoStatus::Processing);
    assert!(killed.video_key.is_none() && killed.poster_key.is_none());
    assert!(
        area.stored_videos().is_empty(),
        "{:?}",
        area.stored_videos()
    );
    let left = area.leftovers(video.id);
    assert!(
        left.iter().any(|name| name.contains(".work-")),
        "the killed attempt's half output: {left:?}"
    );

    // The fleet finds the job held by a dead worker, puts it back and runs it again.
    let view = through_the_fleet(&db, &area, &video).await;
    assert_eq!(view.state, JobState::Succeeded, "{view:?}");
    assert_eq!(view.attempts, 2, "the killed attempt counts");
    let ready = reload(&db, video.id).await;
    assert_eq!(ready.status, VideoStatus::Ready);
    assert_eq!(
        view.result.expect("result")["url"],
        json!(format!(
            "/api/media/{}",
            ready.video_key.as_deref().expect("key")
        ))
    );
    assert_eq!((ready.width, ready.height), (Some(1280), Some(720)));
    assert!((19_000..=21_000).contains(&ready.duration_ms.expect("duration")));
    assert_eq!(area.stored_videos().len(), 2, "the MP4 and its poster only");
    assert!(
        area.leftovers(video.id).is_empty(),
        "{:?}",
        area.leftovers(video.id)
    );
}

/// A `video.transcode` job row in `status` after `attempts` of 3; answers its id.
async fn job_row(db: &PgPool, status: &str, attempts: i32) -> String {
    let id = ulid::Ulid::generate().to_string();
    sqlx::query(
        "INSERT INTO apalis.jobs (id, job_type, job, status, attempts, max_attempts)
         VALUES ($1, 'video.transcode', convert_to('{}', 'UTF8'), $2, $3, 3)",
    )
    .bind(&id)
    .bind(status)
    .bind(attempts)
    .execute(db)
    .await
    .expect("job");
    id
}

/// A video row in `status`, last changed `hours_ago`, with a job and stored keys when
/// given; answers its id.
async fn video_row(
    db: &PgPool,
    (station_id, user_id): (i64, i64),
    status: &str,
    hours_ago: i32,
    job_id: Option<&str>,
    key: Option<&str>,
) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO feed_videos (station_id, user_id, size, received, status, job_id,
                                  video_key, poster_key, failure, updated_at)
         VALUES ($1, $2, 100, 10, $3, $4, $5 || '.mp4', $5 || '.jpg',
                 CASE WHEN $3 = 'failed' THEN 'x' END,
                 now() - make_interval(hours => $6))
         RETURNING id",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(status)
    .bind(job_id)
    .bind(key)
    .bind(hours_ago)
    .fetch_one(db)
    .await
    .expect("video")
}

async fn post_with(db: &PgPool, (station_id, user_id): (i64, i64), video_id: i64) {
    sqlx::query("INSERT INTO feed_posts (station_id, user_id, video_id) VALUES ($1, $2, $3)")
        .bind(station_id)
        .bind(user_id)
        .bind(video_id)
        .execute(db)
        .await
        .expect("post");
}

#[testkit::db_test]
async fn the_cleanup_settles_abandoned_stuck_and_unposted_videos_and_leftovers(db: PgPool) {
    let area = Area::new();
    let uploads = area.uploads();
    std::fs::create_dir_all(&uploads).expect("area");
    let owner = member(&db).await;
    let part = |id: i64| {
        let path = videos::part_path(&uploads, id);
        std::fs::write(&path, b"0123456789").expect("part");
        path
    };
    let work = |id: i64, name: &str| {
        let dir = uploads.join(format!("{id}.work-{name}"));
        std::fs::create_dir_all(&dir).expect("work");
        std::fs::write(dir.join("video.mp4"), b"half").expect("half");
        dir
    };

    // Uploads left unfinished.
    let abandoned = video_row(&db, owner, "uploading", 25, None, None).await;
    let abandoned_part = part(abandoned);
    let posted = video_row(&db, owner, "uploading", 30, None, None).await;
    let posted_part = part(posted);
    post_with(&db, owner, posted).await;
    let fresh = video_row(&db, owner, "uploading", 23, None, None).await;
    let fresh_part = part(fresh);
    // A post is being created with this one as the cleanup runs: its foreign key holds the
    // row, so the cleanup skips it rather than fail.
    let racing = video_row(&db, owner, "uploading", 26, None, None).await;
    let mut creating = db.begin().await.expect("tx");
    sqlx::query("INSERT INTO feed_posts (station_id, user_id, video_id) VALUES ($1, $2, $3)")
        .bind(owner.0)
        .bind(owner.1)
        .bind(racing)
        .execute(&mut *creating)
        .await
        .expect("post being created");

    // Videos processing whose transcode ended, or will not come.
    let cancelled = video_row(
        &db,
        owner,
        "processing",
        0,
        Some(&job_row(&db, "Killed", 1).await),
        None,
    )
    .await;
    let cancelled_part = part(cancelled);
    let exhausted = video_row(
        &db,
        owner,
        "processing",
        1,
        Some(&job_row(&db, "Failed", 3).await),
        None,
    )
    .await;
    let forgotten = video_row(
        &db,
        owner,
        "processing",
        7,
        Some(&job_row(&db, "Pending", 1).await),
        None,
    )
    .await;
    let pruned = video_row(
        &db,
        owner,
        "processing",
        0,
        Some("01JOBGONE0000000000000000"),
        None,
    )
    .await;
    // ...and those it may still settle.
    let retrying = video_row(
        &db,
        owner,
        "processing",
        0,
        Some(&job_row(&db, "Failed", 1).await),
        None,
    )
    .await;
    let long_running = video_row(
        &db,
        owner,
        "processing",
        7,
        Some(&job_row(&db, "Running", 2).await),
        None,
    )
    .await;
    let processing = video_row(
        &db,
        owner,
        "processing",
        0,
        Some(&job_row(&db, "Running", 1).await),
        None,
    )
    .await;
    let (processing_part, running) = (part(processing), work(processing, "now"));
    let stale = work(processing, "old");
    let touched = Command::new("touch")
        .args(["-d", "2 days ago"])
        .arg(&stale)
        .status()
        .expect("touch");
    assert!(touched.success());

    // Whole videos with and without a post.
    let ready = video_row(&db, owner, "ready", 1, None, Some("feed/videos/fresh")).await;
    let (ready_part, ready_work) = (part(ready), work(ready, "a"));
    let unposted = video_row(&db, owner, "ready", 25, None, Some("feed/videos/unposted")).await;
    let unposted_objects = [
        area.store("feed/videos/unposted.mp4"),
        area.store("feed/videos/unposted.jpg"),
    ];
    let failed_unposted = video_row(&db, owner, "failed", 25, None, None).await;
    let carried = video_row(&db, owner, "ready", 30, None, Some("feed/videos/carried")).await;
    post_with(&db, owner, carried).await;
    let carried_objects = [
        area.store("feed/videos/carried.mp4"),
        area.store("feed/videos/carried.jpg"),
    ];

    let orphan = part(987_654);
    let unrelated = uploads.join("leia-me.txt");
    std::fs::write(&unrelated, b"not ours").expect("unrelated");

    let run = || async {
        let ctx = JobContext {
            id: "cleanup".into(),
            attempt: 1,
            worker: "test".into(),
            taken_at: None,
            services: area.services(&db),
        };
        UploadsCleanup::default().run(ctx).await.expect("cleanup")
    };
    assert_eq!(
        run().await,
        json!({ "abandoned": 2, "stuck": 4, "unposted": 2, "files": 4, "unattached": 0 })
    );
    let status = |id: i64| {
        let db = db.clone();
        async move {
            videos::find(&db, id)
                .await
                .expect("find")
                .map(|video| (video.status, video.failure))
        }
    };
    let failed = |text: &str| Some((VideoStatus::Failed, Some(text.to_string())));
    assert_eq!(status(abandoned).await, None);
    assert_eq!(status(posted).await, failed(UPLOAD_FAILED));
    assert_eq!(
        status(fresh).await.map(|s| s.0),
        Some(VideoStatus::Uploading)
    );
    assert_eq!(
        status(racing).await.map(|s| s.0),
        Some(VideoStatus::Uploading)
    );
    for id in [cancelled, exhausted, forgotten, pruned] {
        assert_eq!(
            status(id).await,
            failed(videos::NOT_PROCESSED),
            "video {id}"
        );
    }
    for id in [retrying, long_running, processing] {
        assert_eq!(
            status(id).await.map(|s| s.0),
            Some(VideoStatus::Processing),
            "video {id}"
        );
    }
    assert_eq!(status(ready).await.map(|s| s.0), Some(VideoStatus::Ready));
    assert_eq!(status(unposted).await, None);
    assert_eq!(status(failed_unposted).await, None);
    assert_eq!(status(carried).await.map(|s| s.0), Some(VideoStatus::Ready));
    for gone in [
        &abandoned_part,
        &posted_part,
        &cancelled_part,
        &ready_part,
        &ready_work,
        &stale,
        &orphan,
    ]
    .into_iter()
    .chain(&unposted_objects)
    {
        assert!(!gone.exists(), "{} left", gone.display());
    }
    for kept in [&fresh_part, &processing_part, &running, &unrelated]
        .into_iter()
        .chain(&carried_objects)
    {
        assert!(kept.exists(), "{} removed", kept.display());
    }

    // The post is created: the upload it carries is failed, not deleted, on the next run.
    creating.commit().await.expect("post created");
    assert_eq!(
        run().await,
        json!({ "abandoned": 1, "stuck": 0, "unposted": 0, "files": 0, "unattached": 0 })
    );
    assert_eq!(status(racing).await, failed(UPLOAD_FAILED));
    assert_eq!(
        run().await,
        json!({ "abandoned": 0, "stuck": 0, "unposted": 0, "files": 0, "unattached": 0 })
    );
}

#[testkit::db_test]
async fn a_video_is_discarded_with_its_files_only_once_no_post_carries_it(db: PgPool) {
    let area = Area::new();
    let uploads = area.uploads();
    std::fs::create_dir_all(&uploads).expect("area");
    let owner = member(&db).await;
    let objects = area.objects();
    let video = video_row(&db, owner, "ready", 0, None, Some("feed/videos/mine")).await;
    let stored = [
        area.store("feed/videos/mine.mp4"),
        area.store("feed/videos/mine.jpg"),
    ];
    let part = videos::part_path(&uploads, video);
    std::fs::write(&part, b"bytes").expect("part");
    post_with(&db, owner, video).await;

    let discard = || videos::discard_unposted(&db, &objects, &uploads, video);
    assert!(!discard().await.expect("discard"), "a post carries it");
    assert!(videos::find(&db, video).await.expect("find").is_some());
    assert!(stored.iter().all(|path| path.exists()));

    // The author deletes the post: the video goes with its objects and bytes.
    sqlx::query("DELETE FROM feed_posts WHERE video_id = $1")
        .bind(video)
        .execute(&db)
        .await
        .expect("post deleted");
    assert!(discard().await.expect("discard"));
    assert!(videos::find(&db, video).await.expect("find").is_none());
    assert!(stored.iter().all(|path| !path.exists()), "objects deleted");
    assert!(!part.exists());
    // Again, or an id never seen: nothing to do.
    assert!(!discard().await.expect("again"));
    assert!(
        !videos::discard_unposted(&db, &objects, &uploads, 424_242)
            .await
            .expect("unknown")
    );

    // delete_files alone (a post staff removed keeps its row): best effort, twice is fine.
    let removed = video_row(&db, owner, "ready", 0, None, Some("feed/videos/removed")).await;
    let removed_objects = [
        area.store("feed/videos/removed.mp4"),
        area.store("feed/videos/removed.jpg"),
    ];
    let removed = reload(&db, removed).await;
    videos::delete_files(&objects, &removed).await;
    videos::delete_files(&objects, &removed).await;
    assert!(removed_objects.iter().all(|path| !path.exists()));
}

/// A member upload of `owner` made `hours` ago, attached to `attached_to` or not.
async fn upload_row(
    db: &PgPool,
    (station_id, user_id): (i64, i64),
    key: &str,
    hours: i64,
    attached_to: Option<&str>,
) {
    sqlx::query(
        "INSERT INTO member_uploads (station_id, user_id, key, bytes, kind, created_at,
                                     attached_to, attached_at)
         VALUES ($1, $2, $3, 6, 'document', now() - make_interval(hours => $4), $5,
                 CASE WHEN $5::text IS NULL THEN NULL ELSE now() END)",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(key)
    .bind(hours as i32)
    .bind(attached_to)
    .execute(db)
    .await
    .expect("upload");
}

#[testkit::db_test]
async fn the_cleanup_removes_uploads_nothing_refers_to_after_a_day_a_batch_a_run(db: PgPool) {
    let area = Area::new();
    let owner = member(&db).await;
    let batch = usize::try_from(videos::SWEEP_BATCH).expect("batch");
    // More old unattached uploads than one run takes; the first few have their objects.
    for n in 0..batch + 2 {
        upload_row(&db, owner, &format!("uploads/1/1/old-{n:04}.png"), 30, None).await;
    }
    let old_objects: Vec<_> = (0..3)
        .map(|n| area.store(&format!("uploads/1/1/old-{n:04}.png")))
        .chain([area.store(&format!("uploads/1/1/old-{:04}.png", batch + 1))])
        .collect();
    let attached = area.store("private/files/1/1/answer.pdf");
    upload_row(
        &db,
        owner,
        "private/files/1/1/answer.pdf",
        30,
        Some("research_answers(1,1)"),
    )
    .await;
    let fresh = area.store("private/files/1/1/fresh.pdf");
    upload_row(&db, owner, "private/files/1/1/fresh.pdf", 23, None).await;
    // Being attached as the cleanup runs: its row is locked, so the cleanup skips it.
    let racing = area.store("private/files/1/1/racing.pdf");
    upload_row(&db, owner, "private/files/1/1/racing.pdf", 25, None).await;
    let mut attaching = db.begin().await.expect("tx");
    sqlx::query("SELECT 1 FROM member_uploads WHERE key = $1 FOR UPDATE")
        .bind("private/files/1/1/racing.pdf")
        .execute(&mut *attaching)
        .await
        .expect("lock");

    let run = || async {
        let ctx = JobContext {
            id: "cleanup".into(),
            attempt: 1,
            worker: "test".into(),
            taken_at: None,
            services: area.services(&db),
        };
        UploadsCleanup::default().run(ctx).await.expect("cleanup")["unattached"].clone()
    };
    let left = || async {
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM member_uploads")
            .fetch_one(&db)
            .await
            .expect("count")
    };
    assert_eq!(run().await, json!(batch), "one batch a run");
    assert_eq!(left().await, 5);
    assert_eq!(
        run().await,
        json!(2),
        "the rest, skipping the row being attached"
    );
    for gone in &old_objects {
        assert!(!gone.exists(), "{} left", gone.display());
    }
    for kept in [&attached, &fresh, &racing] {
        assert!(kept.exists(), "{} removed", kept.display());
    }

    // The attachment commits: the next run finds it referred to and keeps it.
    sqlx::query(
        "UPDATE member_uploads SET attached_to = 'research_answers(2,1)', attached_at = now()
          WHERE key = $1",
    )
    .bind("private/files/1/1/racing.pdf")
    .execute(&mut *attaching)
    .await
    .expect("attach");
    attaching.commit().await.expect("attached");
    assert_eq!(run().await, json!(0));
    assert_eq!(left().await, 3);
    assert!(racing.exists());
}
