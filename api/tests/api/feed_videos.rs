//! Video uploads over HTTP against the real database and a real upload area: a resumable
//! upload of a real clip (made by ffmpeg here) that survives a dropped connection and
//! becomes, through `video.transcode`, an H.264/AAC MP4 with its poster and a published
//! post; plain uploads; content, size and offset checks; other members' and stations'
//! uploads; cancelling an upload; the per-member limits under concurrent starts, with idle
//! uploads no longer holding a place.

use crate::common;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use crate::common::{Answer, insert_member, insert_station, send, send_json, session_of};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use jobs::kinds::VideoTranscode;
use jobs::{Job, JobContext};
use serde_json::{Value, json};
use sqlx::PgPool;

const FILE_INVALID: &str = "Tamanho ou formato inválido";
const UPLOAD_FAILED: &str = "Erro no upload";
const TOO_MANY: &str = "Muitas ações em pouco tempo. Aguarde alguns minutos e tente novamente.";
const NOT_AUTHORIZED: &str = "Você não possui autorização para acessar esta página.";
const NOT_FOUND: &str = "Vídeo não encontrado.";

struct World {
    app: Router,
    db: PgPool,
    /// This test's FILIA_DATA_DIR: ids repeat across test databases, so each test has its
    /// own upload area and store.
    data: PathBuf,
    station_id: i64,
    member_id: i64,
    token: String,
    /// Another member of the same station, and a member of another station.
    neighbour: String,
    stranger: String,
}

impl Drop for World {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.data).ok();
    }
}

async fn world(db: PgPool) -> World {
    let data = std::env::temp_dir().join(format!(
        "filia-feed-videos-{}",
        ulid::Ulid::generate().to_string().to_lowercase()
    ));
    let station_id = insert_station(&db, "clube").await;
    let member_id = insert_member(&db, station_id, "maria@example.com").await;
    let neighbour = insert_member(&db, station_id, "joao@example.com").await;
    let other_station = insert_station(&db, "outro").await;
    let stranger = insert_member(&db, other_station, "ana@example.com").await;
    World {
        app: common::app_with(
            db.clone(),
            &[("FILIA_DATA_DIR", &data.display().to_string())],
        ),
        token: session_of(&db, member_id).await,
        neighbour: session_of(&db, neighbour).await,
        stranger: session_of(&db, stranger).await,
        db,
        data,
        station_id,
        member_id,
    }
}

/// An MP4 made by ffmpeg's own sources: a test pattern and a tone.
fn clip(dir: &Path, seconds: u32, size: &str) -> Vec<u8> {
    std::fs::create_dir_all(dir).expect("dir");
    let out = dir.join(format!("clip-{seconds}-{size}.mp4"));
    let status = Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-nostdin", "-y"])
        .args(["-f", "lavfi", "-i"])
        .arg(format!("testsrc=duration={seconds}:size={size}:rate=25"))
        .args(["-f", "lavfi", "-i"])
        .arg(format!("sine=duration={seconds}"))
        .args([
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-c:a",
            "aac",
            "-shortest",
        ])
        .arg(&out)
        .status()
        .expect("ffmpeg is installed");
    assert!(status.success(), "ffmpeg made no clip");
    let bytes = std::fs::read(&out).expect("clip");
    std::fs::remove_file(out).ok();
    bytes
}

fn png() -> Vec<u8> {
    let mut bytes = Vec::new();
    image::RgbImage::from_pixel(8, 8, image::Rgb([1, 2, 3]))
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .expect("png");
    bytes
}

impl World {
    async fn start(&self, token: &str, size: i64) -> Answer {
        send_json(
            &self.app,
            "POST",
            "/api/uploads/videos",
            Some(token),
            &[],
            &json!({ "name": "praia.mp4", "size": size }),
        )
        .await
    }

    async fn patch(&self, token: &str, id: i64, offset: Option<i64>, bytes: &[u8]) -> Answer {
        let mut request = Request::patch(format!("/api/uploads/videos/{id}"))
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", "application/offset+octet-stream");
        if let Some(offset) = offset {
            request = request.header("upload-offset", offset.to_string());
        }
        send(
            &self.app,
            request.body(Body::from(bytes.to_vec())).expect("request"),
        )
        .await
    }

    async fn cancel(&self, token: &str, id: i64) -> Answer {
        common::call(
            &self.app,
            "DELETE",
            &format!("/api/uploads/videos/{id}"),
            Some(token),
            &[],
        )
        .await
    }

    async fn video(&self, token: &str, id: i64) -> Answer {
        common::call(
            &self.app,
            "GET",
            &format!("/api/videos/{id}"),
            Some(token),
            &[],
        )
        .await
    }

    async fn plain(&self, body: Body) -> Answer {
        let boundary = "filia-video-boundary";
        let request = Request::post("/api/upload-video")
            .header("authorization", format!("Bearer {}", self.token))
            .header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(body)
            .expect("request");
        send(&self.app, request).await
    }

    fn part_file(&self, id: i64) -> PathBuf {
        self.data.join("uploads").join(format!("{id}.part"))
    }

    fn objects(&self) -> PathBuf {
        self.data.join("objects")
    }

    /// Runs the upload's `video.transcode` as a worker would, recording every progress
    /// value seen on the job while it runs.
    async fn transcode(&self, id: i64, job_id: &str) -> (Result<Value, jobs::JobError>, Vec<i16>) {
        let config = common::config_with(&[("FILIA_DATA_DIR", &self.data.display().to_string())]);
        let services = jobs::Services::new(self.db.clone(), config).expect("services");
        let ctx = JobContext {
            id: job_id.to_string(),
            attempt: 1,
            worker: "test".into(),
            taken_at: None,
            services,
        };
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let watcher = {
            let (db, seen, job_id) = (self.db.clone(), seen.clone(), job_id.to_string());
            tokio::spawn(async move {
                loop {
                    let progress: Option<i16> =
                        sqlx::query_scalar("SELECT progress FROM job_records WHERE job_id = $1")
                            .bind(&job_id)
                            .fetch_optional(&db)
                            .await
                            .expect("progress")
                            .flatten();
                    if let Some(progress) = progress {
                        let mut seen = seen.lock().expect("seen");
                        if seen.last() != Some(&progress) {
                            seen.push(progress);
                        }
                    }
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            })
        };
        let result = VideoTranscode { video_id: id }.run(ctx).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        watcher.abort();
        let seen = seen.lock().expect("seen").clone();
        (result, seen)
    }
}

/// A multipart body with `bytes` in `file`.
fn multipart(name: &str, bytes: &[u8]) -> Body {
    let boundary = "filia-video-boundary";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
         Content-Type: video/mp4\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    Body::from(body)
}

fn id_of(answer: &Answer) -> i64 {
    answer.json()["id"].as_i64().expect("id")
}

fn ffprobe(path: &Path, entries: &str) -> String {
    let output = Command::new("ffprobe")
        .args(["-v", "error", "-show_entries", entries, "-of", "csv=p=0"])
        .arg(path)
        .output()
        .expect("ffprobe");
    assert!(
        output.status.success(),
        "ffprobe failed on {}",
        path.display()
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[testkit::db_test]
async fn a_resumable_upload_survives_a_dropped_connection_and_ends_in_a_published_video(
    db: PgPool,
) {
    let world = world(db).await;
    let bytes = clip(&world.data.join("clips"), 6, "320x240");
    let size = bytes.len() as i64;
    let started = world.start(&world.token, size).await;
    assert_eq!(started.status, StatusCode::CREATED, "{}", started.text);
    let video = started.json();
    assert_eq!(video["status"], "uploading");
    assert_eq!(
        (video["size"].as_i64(), video["received"].as_i64()),
        (Some(size), Some(0))
    );
    assert!(video["jobId"].is_null() && video["url"].is_null());
    let id = id_of(&started);

    let (a, b) = (bytes.len() / 3, 2 * bytes.len() / 3);
    let first = world.patch(&world.token, id, Some(0), &bytes[..a]).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(first.json()["received"], a as i64);

    // A chunk at the wrong offset changes nothing and says where the upload is.
    let wrong = world
        .patch(&world.token, id, Some(5), &bytes[5..a + 10])
        .await;
    assert_eq!(wrong.status, StatusCode::CONFLICT, "{}", wrong.text);
    assert_eq!(
        wrong.json(),
        json!({ "messages": [UPLOAD_FAILED], "received": a as i64 })
    );

    // The second chunk arrives but its answer is lost: the client sends it again, is told
    // where the upload is, and goes on from `received` as GET /videos/{id} reads it.
    let second = world
        .patch(&world.token, id, Some(a as i64), &bytes[a..b])
        .await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text);
    let again = world
        .patch(&world.token, id, Some(a as i64), &bytes[a..b])
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.json()["received"], b as i64);
    let resumed = world.video(&world.token, id).await;
    assert_eq!(resumed.status, StatusCode::OK);
    let received = resumed.json()["received"].as_i64().expect("received");
    assert_eq!(received, b as i64);
    assert_eq!(
        std::fs::metadata(world.part_file(id)).expect("part").len(),
        b as u64
    );

    let last = world
        .patch(
            &world.token,
            id,
            Some(received),
            &bytes[received as usize..],
        )
        .await;
    assert_eq!(last.status, StatusCode::OK, "{}", last.text);
    let whole = last.json();
    assert_eq!(whole["status"], "processing");
    assert_eq!(whole["received"], size);
    let job_id = whole["jobId"]
        .as_str()
        .expect("a transcode job")
        .to_string();
    let job = common::call(
        &world.app,
        "GET",
        &format!("/api/jobs/{job_id}"),
        Some(&world.token),
        &[],
    )
    .await;
    assert_eq!(job.status, StatusCode::OK, "{}", job.text);
    assert_eq!(job.json()["kind"], "video.transcode");
    // Whole: no more bytes.
    let more = world.patch(&world.token, id, Some(size), b"x").await;
    assert_eq!(more.status, StatusCode::CONFLICT);
    assert_eq!(more.json()["received"], size);

    // A post carrying the video, unpublished until the video is ready.
    let post_id: i64 = sqlx::query_scalar(
        "INSERT INTO feed_posts (station_id, user_id, description, video_id)
         VALUES ($1, $2, 'Olha que praia!', $3) RETURNING id",
    )
    .bind(world.station_id)
    .bind(world.member_id)
    .bind(id)
    .fetch_one(&world.db)
    .await
    .expect("post");

    let (result, progress) = world.transcode(id, &job_id).await;
    let result = result.expect("transcoded");
    assert!(
        progress.len() >= 3 && progress.windows(2).all(|w| w[0] < w[1]),
        "progress rises: {progress:?}"
    );
    assert_eq!(progress.last(), Some(&100));

    let ready = world.video(&world.token, id).await.json();
    assert_eq!(ready["status"], "ready", "{ready}");
    let url = ready["url"].as_str().expect("url");
    let poster = ready["poster"].as_str().expect("poster");
    assert_eq!(result["url"], url);
    assert!(
        url.starts_with("/api/media/feed/videos/") && url.ends_with(".mp4"),
        "{url}"
    );
    assert!(poster.ends_with(".jpg"), "{poster}");
    let duration = ready["durationMs"].as_i64().expect("duration");
    assert!((5_500..=6_500).contains(&duration), "{duration}");

    let mp4 = world.objects().join(url.trim_start_matches("/api/media/"));
    assert_eq!(
        ffprobe(&mp4, "stream=codec_name")
            .lines()
            .collect::<Vec<_>>(),
        ["h264", "aac"]
    );
    assert_eq!(
        ffprobe(&mp4, "stream=width,height").lines().next(),
        Some("320,240")
    );
    let stored = std::fs::read(&mp4).expect("mp4");
    let find = |name: &[u8]| stored.windows(4).position(|w| w == name).expect("box");
    assert!(
        find(b"moov") < find(b"mdat"),
        "faststart: the index comes first"
    );
    let jpeg = std::fs::read(
        world
            .objects()
            .join(poster.trim_start_matches("/api/media/")),
    )
    .expect("poster");
    assert_eq!(
        domain::infra::uploads::kind_of(&jpeg),
        Some(domain::infra::uploads::FileKind::Jpeg)
    );
    // A real picture, not only a JPEG's first bytes: a frame of the video, same size.
    let poster_file = world
        .objects()
        .join(poster.trim_start_matches("/api/media/"));
    assert_eq!(
        ffprobe(&poster_file, "stream=codec_type,codec_name,width,height").trim(),
        "mjpeg,video,320,240"
    );
    let served = common::call(&world.app, "GET", url, None, &[]).await;
    assert_eq!(served.status, StatusCode::OK);
    assert_eq!(served.headers["content-type"], "video/mp4");

    let published: Option<chrono::DateTime<chrono::Utc>> =
        sqlx::query_scalar("SELECT published_at FROM feed_posts WHERE id = $1")
            .bind(post_id)
            .fetch_one(&world.db)
            .await
            .expect("post");
    assert!(published.is_some(), "the post is published with its video");
    // The bytes received and the attempt's folder are gone.
    assert!(!world.part_file(id).exists());
    let left: Vec<_> = std::fs::read_dir(world.data.join("uploads"))
        .expect("area")
        .map(|entry| entry.expect("entry").file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // Run again (a retried job): nothing changes.
    let (again, _) = world.transcode(id, &job_id).await;
    assert_eq!(again.expect("again")["url"], url);
}

#[testkit::db_test]
async fn a_plain_upload_is_queued_and_a_png_renamed_mp4_is_refused_by_content(db: PgPool) {
    let world = world(db).await;
    let bytes = clip(&world.data.join("clips"), 1, "160x120");
    let answer = world.plain(multipart("clip.mp4", &bytes)).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let video = answer.json();
    assert_eq!(video["status"], "processing");
    assert_eq!(video["size"], bytes.len() as i64);
    assert_eq!(video["received"], bytes.len() as i64);
    assert!(video["jobId"].is_string());
    let id = id_of(&answer);
    assert_eq!(std::fs::read(world.part_file(id)).expect("part"), bytes);

    let refused = world.plain(multipart("foto.mp4", &png())).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert_eq!(refused.json()["messages"], json!([FILE_INVALID]));
    let (refused_id, status, failure): (i64, String, Option<String>) =
        sqlx::query_as("SELECT id, status, failure FROM feed_videos WHERE id <> $1")
            .bind(id)
            .fetch_one(&world.db)
            .await
            .expect("the refused upload");
    assert_eq!(
        (status.as_str(), failure.as_deref()),
        ("failed", Some(FILE_INVALID))
    );
    assert!(!world.part_file(refused_id).exists());

    let empty = world.plain(multipart("vazio.mp4", b"")).await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    let no_file = world
        .plain(Body::from("--filia-video-boundary--\r\n"))
        .await;
    assert_eq!(no_file.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(no_file.json()["messages"], json!([UPLOAD_FAILED]));
}

#[testkit::db_test]
async fn a_plain_upload_past_200_mb_is_refused_as_it_streams(db: PgPool) {
    let world = world(db).await;
    let head = "--filia-video-boundary\r\nContent-Disposition: form-data; name=\"file\"; \
         filename=\"grande.mp4\"\r\nContent-Type: video/mp4\r\n\r\n\0\0\0\x18ftypmp42";
    // 192 MiB (over 200 000 000 bytes) after the header: produced as sent, never held.
    let chunk = axum::body::Bytes::from(vec![0u8; 1 << 20]);
    let chunks = std::iter::once(axum::body::Bytes::from(head))
        .chain(std::iter::repeat_n(chunk, 192))
        .chain(std::iter::once(axum::body::Bytes::from(
            "\r\n--filia-video-boundary--\r\n",
        )))
        .map(Ok::<_, std::io::Error>);
    let answer = world
        .plain(Body::from_stream(futures_util::stream::iter(chunks)))
        .await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.text
    );
    assert_eq!(answer.json()["messages"], json!([FILE_INVALID]));
    let (id, status): (i64, String) = sqlx::query_as("SELECT id, status FROM feed_videos")
        .fetch_one(&world.db)
        .await
        .expect("the refused upload");
    assert_eq!(status, "failed");
    assert!(!world.part_file(id).exists(), "its bytes are removed");
}

#[testkit::db_test]
async fn sizes_offsets_and_content_are_checked(db: PgPool) {
    let world = world(db).await;
    for size in [json!(0), json!(-5), json!(200_000_001)] {
        let answer = send_json(
            &world.app,
            "POST",
            "/api/uploads/videos",
            Some(&world.token),
            &[],
            &json!({ "name": "x.mp4", "size": size }),
        )
        .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{size}");
        assert_eq!(answer.json()["messages"], json!([FILE_INVALID]));
    }
    let without = send_json(
        &world.app,
        "POST",
        "/api/uploads/videos",
        Some(&world.token),
        &[],
        &json!({ "name": "x.mp4" }),
    )
    .await;
    assert_eq!(without.status, StatusCode::UNPROCESSABLE_ENTITY);
    let largest = world.start(&world.token, 200_000_000).await;
    assert_eq!(largest.status, StatusCode::CREATED, "{}", largest.text);

    // A PNG declared and sent whole under a video's name: refused by its content.
    let png = png();
    let id = id_of(&world.start(&world.token, png.len() as i64).await);
    let past = world
        .patch(&world.token, id, Some(0), &[png.as_slice(), b"!"].concat())
        .await;
    assert_eq!(
        past.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "bytes past the size"
    );
    assert_eq!(past.json()["messages"], json!([FILE_INVALID]));
    let no_offset = world.patch(&world.token, id, None, &png).await;
    assert_eq!(no_offset.status, StatusCode::BAD_REQUEST);
    let bad_offset = world.patch(&world.token, id, Some(-1), &png).await;
    assert_eq!(bad_offset.status, StatusCode::BAD_REQUEST);
    let whole = world.patch(&world.token, id, Some(0), &png).await;
    assert_eq!(
        whole.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        whole.text
    );
    assert_eq!(whole.json()["messages"], json!([FILE_INVALID]));
    let failed = world.video(&world.token, id).await.json();
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["failure"], FILE_INVALID);
    assert!(failed["jobId"].is_null());
    assert!(!world.part_file(id).exists());

    // A chunk over 8 MiB.
    let big = world.start(&world.token, 20_000_000).await;
    let big_id = id_of(&big);
    let chunk = vec![0u8; 8 * 1024 * 1024 + 1];
    let too_big = world.patch(&world.token, big_id, Some(0), &chunk).await;
    assert_eq!(too_big.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        world.video(&world.token, big_id).await.json()["received"],
        0
    );
    let most = world
        .patch(&world.token, big_id, Some(0), &chunk[1..])
        .await;
    assert_eq!(most.status, StatusCode::OK, "{}", most.text);
    assert_eq!(most.json()["received"], 8 * 1024 * 1024);

    // Not a number, unknown ids.
    let unknown = world.video(&world.token, 999_999).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let unknown = world.patch(&world.token, 999_999, Some(0), b"x").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let no_token = common::call(&world.app, "GET", &format!("/api/videos/{id}"), None, &[]).await;
    assert_eq!(no_token.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn another_members_or_stations_upload_is_not_found(db: PgPool) {
    let world = world(db).await;
    let id = id_of(&world.start(&world.token, 100).await);
    for token in [&world.neighbour, &world.stranger] {
        let read = world.video(token, id).await;
        assert_eq!(read.status, StatusCode::NOT_FOUND, "{}", read.text);
        assert_eq!(read.json()["error"], NOT_FOUND);
        let write = world.patch(token, id, Some(0), b"0123456789").await;
        assert_eq!(write.status, StatusCode::NOT_FOUND);
        let cancel = world.cancel(token, id).await;
        assert_eq!(cancel.status, StatusCode::NOT_FOUND, "{}", cancel.text);
        assert_eq!(cancel.json()["error"], NOT_FOUND);
    }
    let own = world.video(&world.token, id).await.json();
    assert_eq!(
        (own["status"].as_str(), own["received"].as_i64()),
        (Some("uploading"), Some(0))
    );
    assert!(!world.part_file(id).exists());
}

#[testkit::db_test]
async fn three_unfinished_uploads_at_once_even_when_started_together(db: PgPool) {
    let world = world(db).await;
    let starts = (0..6).map(|_| world.start(&world.token, 1_000));
    let answers = futures_util::future::join_all(starts).await;
    let created = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .count();
    let refused: Vec<_> = answers
        .iter()
        .filter(|a| a.status == StatusCode::TOO_MANY_REQUESTS)
        .collect();
    assert_eq!((created, refused.len()), (3, 3), "{answers:?}");
    assert_eq!(refused[0].json()["messages"], json!([TOO_MANY]));
    assert!(refused[0].headers.contains_key("retry-after"));
    // Another member has places of their own.
    assert_eq!(
        world.start(&world.neighbour, 1_000).await.status,
        StatusCode::CREATED
    );
}

#[testkit::db_test]
async fn ten_uploads_a_day(db: PgPool) {
    let world = world(db).await;
    // Nine finished today (failed ones count: they were started) and one yesterday.
    sqlx::query(
        "INSERT INTO feed_videos (station_id, user_id, size, received, status, failure, created_at)
         SELECT $1, $2, 10, 10, 'failed', 'x', now() - make_interval(hours => i)
           FROM generate_series(1, 9) i
         UNION ALL SELECT $1, $2, 10, 10, 'failed', 'x', now() - interval '25 hours'",
    )
    .bind(world.station_id)
    .bind(world.member_id)
    .execute(&world.db)
    .await
    .expect("earlier uploads");
    let tenth = world.start(&world.token, 1_000).await;
    assert_eq!(tenth.status, StatusCode::CREATED, "{}", tenth.text);
    let eleventh = world.start(&world.token, 1_000).await;
    assert_eq!(eleventh.status, StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = eleventh.headers["retry-after"]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("seconds");
    // The oldest of today's frees its place 15 hours from now.
    assert!((14 * 3600..=15 * 3600).contains(&retry), "{retry}");
    let plain = world.plain(multipart("x.mp4", b"\0\0\0\x18ftypmp42")).await;
    assert_eq!(plain.status, StatusCode::TOO_MANY_REQUESTS);
}

#[testkit::db_test]
async fn a_closed_feed_takes_no_videos(db: PgPool) {
    let world = world(db).await;
    sqlx::query("UPDATE stations SET feed_access = false WHERE id = $1")
        .bind(world.station_id)
        .execute(&world.db)
        .await
        .expect("closed");
    let answer = world.start(&world.token, 1_000).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    assert_eq!(answer.json()["messages"], json!([NOT_AUTHORIZED]));
}

#[testkit::db_test]
async fn a_cancelled_upload_is_failed_and_frees_its_place_at_once(db: PgPool) {
    let world = world(db).await;
    let ids: Vec<i64> =
        futures_util::future::join_all((0..3).map(|_| world.start(&world.token, 1_000)))
            .await
            .iter()
            .map(id_of)
            .collect();
    let sent = world
        .patch(&world.token, ids[0], Some(0), b"\0\0\0\x18ftypmp42")
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    assert!(world.part_file(ids[0]).exists());
    assert_eq!(
        world.start(&world.token, 1_000).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );

    let cancelled = world.cancel(&world.token, ids[0]).await;
    assert_eq!(
        cancelled.status,
        StatusCode::NO_CONTENT,
        "{}",
        cancelled.text
    );
    let video = world.video(&world.token, ids[0]).await.json();
    assert_eq!(video["status"], "failed");
    assert_eq!(video["failure"], UPLOAD_FAILED);
    assert!(!world.part_file(ids[0]).exists(), "its bytes are removed");
    // No more bytes, and cancelling again changes nothing.
    let late = world.patch(&world.token, ids[0], Some(12), b"more").await;
    assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.text);
    assert_eq!(
        world.cancel(&world.token, ids[0]).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        world.video(&world.token, ids[0]).await.json()["failure"],
        UPLOAD_FAILED
    );
    // Its place is free.
    let fourth = world.start(&world.token, 1_000).await;
    assert_eq!(fourth.status, StatusCode::CREATED, "{}", fourth.text);

    // A whole upload is left as it is: a cancel that crosses the last chunk is harmless.
    let clip = clip(&world.data.join("clips"), 1, "160x120");
    let whole_id = {
        sqlx::query("UPDATE feed_videos SET status = 'failed' WHERE id = ANY($1)")
            .bind(&ids[1..])
            .execute(&world.db)
            .await
            .expect("places");
        let id = id_of(&world.start(&world.token, clip.len() as i64).await);
        let whole = world.patch(&world.token, id, Some(0), &clip).await;
        assert_eq!(whole.json()["status"], "processing", "{}", whole.text);
        id
    };
    let crossed = world.cancel(&world.token, whole_id).await;
    assert_eq!(crossed.status, StatusCode::NO_CONTENT);
    let whole = world.video(&world.token, whole_id).await.json();
    assert_eq!(whole["status"], "processing");
    assert!(whole["jobId"].is_string());
    assert!(
        world.part_file(whole_id).exists(),
        "its bytes wait for the transcode"
    );

    assert_eq!(
        world.cancel(&world.token, 999_999).await.status,
        StatusCode::NOT_FOUND
    );
    let anonymous = common::call(
        &world.app,
        "DELETE",
        &format!("/api/uploads/videos/{whole_id}"),
        None,
        &[],
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn an_upload_idle_for_an_hour_no_longer_holds_a_place(db: PgPool) {
    let world = world(db).await;
    // Three uploads left by a browser that crashed: one last touched 61 minutes ago.
    let ids: Vec<i64> =
        futures_util::future::join_all((0..3).map(|_| world.start(&world.token, 1_000)))
            .await
            .iter()
            .map(id_of)
            .collect();
    assert_eq!(
        world.start(&world.token, 1_000).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    sqlx::query("UPDATE feed_videos SET updated_at = now() - interval '61 minutes' WHERE id = $1")
        .bind(ids[0])
        .execute(&world.db)
        .await
        .expect("idle");
    let started = world.start(&world.token, 1_000).await;
    assert_eq!(started.status, StatusCode::CREATED, "{}", started.text);
    assert_eq!(
        world.start(&world.token, 1_000).await.status,
        StatusCode::TOO_MANY_REQUESTS,
        "the other three are still moving"
    );
    // The idle one may still go on.
    let resumed = world
        .patch(&world.token, ids[0], Some(0), b"0123456789")
        .await;
    assert_eq!(resumed.status, StatusCode::OK, "{}", resumed.text);
}
