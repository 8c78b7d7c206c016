//! `video.transcode` and `uploads.cleanup` on real files: a corrupt file and a file with
//! no picture fail for good with their reason on the upload and the job (through the real
//! fleet); an attempt cancelled mid-transcode leaves nothing recorded or stored, kills its
//! ffmpeg, and the next attempt completes; the cleanup removes abandoned uploads and the
//! upload area's leftovers, and a second run finds nothing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use domain::Config;
use domain::feed::videos::{self, Appended, Video, VideoStatus};
use jobs::kinds::{UploadsCleanup, VideoTranscode};
use jobs::{Job, JobContext, JobState, Services};
use serde_json::json;
use sqlx::PgPool;

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
            services: self.services(db),
        }
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
    let station_id: i64 = sqlx::query_scalar(
        "INSERT INTO stations (name, subdomain, url) VALUES ('Clube', 'clube', 'https://c.example.com')
         RETURNING id",
    )
    .fetch_one(db)
    .await
    .expect("station");
    let user_id: i64 = sqlx::query_scalar(
        "INSERT INTO users (station_id, name, email, active)
         VALUES ($1, 'Maria', 'maria@example.com', true) RETURNING id",
    )
    .bind(station_id)
    .fetch_one(db)
    .await
    .expect("member");
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
    let mut tx = db.begin().await.expect("tx");
    let size = bytes.len() as i64;
    let video = videos::start(&mut tx, station_id, user_id, "clip.mp4", size)
        .await
        .expect("start")
        .expect("started");
    let appended = videos::append(
        &mut tx,
        &area.uploads(),
        station_id,
        user_id,
        video.id,
        0,
        bytes.to_vec().into(),
    )
    .await
    .expect("append")
    .expect("appended");
    let Appended::Whole(video) = appended else {
        panic!("not whole: {appended:?}");
    };
    let video = VideoTranscode::for_video(&mut tx, &video)
        .await
        .expect("enqueue");
    tx.commit().await.expect("commit");
    video
}

async fn reload(db: &PgPool, id: i64) -> Video {
    videos::find(db, id).await.expect("find").expect("video")
}

/// Runs the job through the real fleet and waits for it to end.
async fn through_the_fleet(db: &PgPool, area: &Area, video: &Video) -> jobs::JobView {
    let fleet = jobs::fleet::spawn(area.services(db), Vec::new());
    let job_id = video.job_id.clone().expect("job");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
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

#[sqlx::test(migrator = "schema::MIGRATOR")]
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

#[sqlx::test(migrator = "schema::MIGRATOR")]
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

#[sqlx::test(migrator = "schema::MIGRATOR")]
async fn an_attempt_cancelled_mid_transcode_leaves_nothing_and_the_next_completes(db: PgPool) {
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

    let attempt =
        tokio::spawn(VideoTranscode { video_id: video.id }.run(area.context(&db, &video, 1)));
    // Cancelled once ffmpeg has reported some progress, well before it ends.
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
            "the attempt ended before it was cancelled"
        );
        assert!(tokio::time::Instant::now() < deadline, "no progress");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(ffmpeg_on(&part), 1, "ffmpeg is running");
    attempt.abort();
    assert!(attempt.await.expect_err("cancelled").is_cancelled());
    // The child is killed with the attempt.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while ffmpeg_on(&part) > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "ffmpeg outlived its attempt"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let cancelled = reload(&db, video.id).await;
    assert_eq!(cancelled.status, VideoStatus::Processing);
    assert!(cancelled.video_key.is_none() && cancelled.poster_key.is_none());
    assert!(
        area.stored_videos().is_empty(),
        "{:?}",
        area.stored_videos()
    );
    let left = area.leftovers(video.id);
    assert!(
        left.iter().any(|name| name.contains(".work-")),
        "the killed attempt's folder: {left:?}"
    );

    let done = VideoTranscode { video_id: video.id }
        .run(area.context(&db, &video, 2))
        .await
        .expect("the next attempt");
    let ready = reload(&db, video.id).await;
    assert_eq!(ready.status, VideoStatus::Ready);
    assert_eq!(
        done["url"],
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

#[sqlx::test(migrator = "schema::MIGRATOR")]
async fn the_cleanup_removes_abandoned_uploads_and_leftovers_once(db: PgPool) {
    let area = Area::new();
    let uploads = area.uploads();
    std::fs::create_dir_all(&uploads).expect("area");
    let (station_id, user_id) = member(&db).await;
    let insert = |status: &'static str, hours_ago: i64| {
        let db = db.clone();
        async move {
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO feed_videos (station_id, user_id, size, received, status,
                                          video_key, poster_key, updated_at)
                 VALUES ($1, $2, 100, 10, $3,
                         CASE WHEN $3 = 'ready' THEN 'feed/videos/a.mp4' END,
                         CASE WHEN $3 = 'ready' THEN 'feed/videos/a.jpg' END,
                         now() - make_interval(hours => $4::int))
                 RETURNING id",
            )
            .bind(station_id)
            .bind(user_id)
            .bind(status)
            .bind(hours_ago as i32)
            .fetch_one(&db)
            .await
            .expect("video");
            id
        }
    };
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
    let abandoned = insert("uploading", 25).await;
    let abandoned_part = part(abandoned);
    let posted = insert("uploading", 30).await;
    let posted_part = part(posted);
    sqlx::query("INSERT INTO feed_posts (station_id, user_id, video_id) VALUES ($1, $2, $3)")
        .bind(station_id)
        .bind(user_id)
        .bind(posted)
        .execute(&db)
        .await
        .expect("post");
    let fresh = insert("uploading", 23).await;
    let fresh_part = part(fresh);
    let ready = insert("ready", 1).await;
    let (ready_part, ready_work) = (part(ready), work(ready, "a"));
    let processing = insert("processing", 0).await;
    let (processing_part, running) = (part(processing), work(processing, "now"));
    let stale = work(processing, "old");
    let touched = Command::new("touch")
        .args(["-d", "2 days ago"])
        .arg(&stale)
        .status()
        .expect("touch");
    assert!(touched.success());
    let orphan = part(987_654);
    let unrelated = uploads.join("leia-me.txt");
    std::fs::write(&unrelated, b"not ours").expect("unrelated");

    let run = || async {
        let ctx = JobContext {
            id: "cleanup".into(),
            attempt: 1,
            worker: "test".into(),
            services: area.services(&db),
        };
        UploadsCleanup::default().run(ctx).await.expect("cleanup")
    };
    assert_eq!(run().await, json!({ "abandoned": 2, "files": 4 }));
    let status = |id: i64| {
        let db = db.clone();
        async move {
            videos::find(&db, id)
                .await
                .expect("find")
                .map(|video| video.status)
        }
    };
    assert_eq!(status(abandoned).await, None);
    assert_eq!(status(posted).await, Some(VideoStatus::Failed));
    assert_eq!(
        reload(&db, posted).await.failure.as_deref(),
        Some("Erro no upload")
    );
    assert_eq!(status(fresh).await, Some(VideoStatus::Uploading));
    for gone in [
        &abandoned_part,
        &posted_part,
        &ready_part,
        &ready_work,
        &stale,
        &orphan,
    ] {
        assert!(!gone.exists(), "{} left", gone.display());
    }
    for kept in [&fresh_part, &processing_part, &running, &unrelated] {
        assert!(kept.exists(), "{} removed", kept.display());
    }
    assert_eq!(run().await, json!({ "abandoned": 0, "files": 0 }));
}
