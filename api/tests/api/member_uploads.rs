//! What happens to the images and documents members upload on their own
//! (`upload-image-to-s3`, `files/actions`), over HTTP against the real database and store:
//! each is recorded and counted against the member's bytes of a rolling day (one member's
//! quota is not another's, and uploads at once cannot pass it); a file answer attaches one
//! (the member's own only, to one answer only); `uploads.cleanup` keeps what is attached and
//! deletes, object and row, what nothing refers to a day after it was made.

use crate::common;
use std::path::PathBuf;

use crate::common::{Answer, insert_member, insert_station, send, send_json, session_of};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chrono::{Duration, Utc};
use domain::activities::ActivityType;
use domain::activities::catalogue::{self, NewActivity};
use domain::activities::research::{self, NewQuestion, NewResearch};
use jobs::kinds::UploadsCleanup;
use jobs::{Job, JobContext};
use serde_json::{Value, json};
use sqlx::PgPool;

const NOT_FOUND: &str = "Arquivo não encontrado. Envie o arquivo novamente.";
const IN_USE: &str = "Este arquivo já foi usado em outra resposta. Envie o arquivo novamente.";

/// A megabyte as the spec counts its limits.
const MB: usize = 1_000_000;

struct World {
    app: Router,
    db: PgPool,
    data: PathBuf,
    station_id: i64,
    settings: Vec<(String, String)>,
}

impl Drop for World {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.data).ok();
    }
}

/// A member of the world's station, signed in.
struct Member {
    id: i64,
    token: String,
}

async fn world(db: PgPool, settings: &[(&str, &str)]) -> World {
    let data = std::env::temp_dir().join(format!(
        "filia-member-uploads-{}",
        ulid::Ulid::generate().to_string().to_lowercase()
    ));
    let mut settings: Vec<(String, String)> = settings
        .iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect();
    settings.push(("FILIA_DATA_DIR".into(), data.display().to_string()));
    let borrowed: Vec<(&str, &str)> = settings
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .collect();
    World {
        app: common::app_with(db.clone(), &borrowed),
        station_id: insert_station(&db, "clube").await,
        db,
        data,
        settings,
    }
}

fn pdf(size: usize) -> Vec<u8> {
    let mut bytes = b"%PDF-1.7\n".to_vec();
    bytes.resize(size, b' ');
    bytes
}

fn png() -> Vec<u8> {
    let mut bytes = Vec::new();
    image::RgbImage::from_fn(8, 8, |x, y| {
        image::Rgb([(x * 30) as u8, (y * 30) as u8, 90])
    })
    .write_to(
        &mut std::io::Cursor::new(&mut bytes),
        image::ImageFormat::Png,
    )
    .expect("picture");
    bytes
}

impl World {
    async fn member(&self, email: &str) -> Member {
        let id = insert_member(&self.db, self.station_id, email).await;
        Member {
            id,
            token: session_of(&self.db, id).await,
        }
    }

    async fn document(&self, who: &Member, name: &str, bytes: &[u8]) -> Answer {
        let boundary = "filia-upload-boundary";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(bytes);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let request = Request::post("/api/files/actions")
            .header("authorization", format!("Bearer {}", who.token))
            .header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(Body::from(body))
            .expect("request");
        send(&self.app, request).await
    }

    /// A stored document's `path`.
    async fn stored_document(&self, who: &Member, name: &str, bytes: &[u8]) -> String {
        let answer = self.document(who, name, bytes).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        answer.json()["path"].as_str().expect("path").to_string()
    }

    /// A stored image's `url`.
    async fn stored_image(&self, who: &Member) -> String {
        let answer = send_json(
            &self.app,
            "POST",
            "/api/upload-image-to-s3",
            Some(&who.token),
            &[],
            &json!({ "base64": STANDARD.encode(png()) }),
        )
        .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        answer.json()["url"].as_str().expect("url").to_string()
    }

    async fn attach(&self, who: &Member, research: i64, question: i64, path: &str) -> Answer {
        send_json(
            &self.app,
            "PUT",
            &format!("/api/research/{research}/answers/{question}/file"),
            Some(&who.token),
            &[],
            &json!({ "path": path }),
        )
        .await
    }

    fn object(&self, key_or_url: &str) -> PathBuf {
        let key = key_or_url.strip_prefix("/api/media/").unwrap_or(key_or_url);
        self.data.join("objects").join(key)
    }

    async fn rows(&self) -> Vec<(String, i64, Option<String>)> {
        sqlx::query_as("SELECT key, user_id, attached_to FROM member_uploads ORDER BY id")
            .fetch_all(&self.db)
            .await
            .expect("rows")
    }

    /// Every upload made so far, made `hours` ago.
    async fn age(&self, hours: i64) {
        sqlx::query("UPDATE member_uploads SET created_at = $1")
            .bind(Utc::now() - Duration::hours(hours))
            .execute(&self.db)
            .await
            .expect("age");
    }

    /// Runs `uploads.cleanup` as a worker would: answers its result.
    async fn clean_up(&self) -> Value {
        let settings = self.settings.clone();
        let config = domain::Config::from_lookup(move |name| {
            settings
                .iter()
                .find(|(setting, _)| setting == name)
                .map(|(_, value)| value.clone())
        })
        .expect("configuration");
        let context = JobContext {
            id: "cleanup".into(),
            attempt: 1,
            worker: "test".into(),
            taken_at: None,
            services: jobs::Services::new(self.db.clone(), config).expect("services"),
        };
        UploadsCleanup::default()
            .run(context)
            .await
            .expect("cleanup")
    }
}

/// A survey open now with two file questions and a video question: (research, the
/// questions' ids).
async fn survey(db: &PgPool, station_id: i64) -> (i64, Vec<i64>) {
    let action_id = catalogue::create(
        db,
        &NewActivity {
            station_id,
            type_id: ActivityType::StepSurvey,
            name: "Envie seus documentos".into(),
            points: 10,
            participation_start: Some(Utc::now() - Duration::days(1)),
            participation_end: Some(Utc::now() + Duration::days(1)),
            active: true,
            ..NewActivity::default()
        },
    )
    .await
    .expect("activity");
    let question = |text: &str, type_id| NewQuestion {
        question: text.into(),
        type_id,
        options: vec![],
        message_for_correct: None,
        message_for_incorrect: None,
        explanation: None,
    };
    let mut conn = db.acquire().await.expect("conn");
    let research_id = research::create(
        &mut conn,
        &NewResearch {
            action_id,
            name: "Documentos".into(),
            synopsis: "Envie".into(),
            questions: vec![
                question("Comprovante", 7),
                question("Foto", 7),
                question("Vídeo", 6),
            ],
            feedbacks: vec![],
        },
    )
    .await
    .expect("research");
    let questions =
        sqlx::query_scalar("SELECT id FROM research_questions WHERE research_id = $1 ORDER BY id")
            .bind(research_id)
            .fetch_all(db)
            .await
            .expect("questions");
    (research_id, questions)
}

fn assert_over_quota(answer: &Answer, size: &str) {
    assert_eq!(
        answer.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        answer.text
    );
    assert_eq!(
        answer.json()["messages"],
        json!([format!(
            "Você atingiu o limite de {size} de arquivos enviados em 24 horas. Aguarde e tente novamente mais tarde."
        )])
    );
    let wait: u64 = answer.headers["retry-after"]
        .to_str()
        .expect("header")
        .parse()
        .expect("seconds");
    assert!((1..=86_400).contains(&wait), "{wait}");
}

#[testkit::db_test]
async fn the_daily_quota_holds_for_one_member_and_not_another(db: PgPool) {
    let world = world(db, &[("FILIA_UPLOAD_BYTES_PER_DAY", "2500000")]).await;
    let maria = world.member("maria@example.com").await;
    let joao = world.member("joao@example.com").await;

    world.stored_document(&maria, "a.pdf", &pdf(MB)).await;
    world.stored_document(&maria, "b.pdf", &pdf(MB)).await;
    // 2 MB stored: a third would pass 2,5 MB, and is neither recorded nor stored.
    let third = world.document(&maria, "c.pdf", &pdf(MB)).await;
    assert_over_quota(&third, "2,5 MB");
    assert_eq!(world.rows().await.len(), 2);
    // What still fits is taken: the quota counts bytes, images and documents together.
    world.stored_image(&maria).await;
    // Another member's day is their own.
    world.stored_document(&joao, "a.pdf", &pdf(2 * MB)).await;
    let over = world.document(&joao, "b.pdf", &pdf(MB)).await;
    assert_over_quota(&over, "2,5 MB");

    // A day later the bytes no longer count.
    world.age(25).await;
    world.stored_document(&maria, "c.pdf", &pdf(MB)).await;
}

#[testkit::db_test]
async fn uploads_at_once_cannot_pass_the_quota(db: PgPool) {
    let world = world(db, &[("FILIA_UPLOAD_BYTES_PER_DAY", "2500000")]).await;
    let maria = world.member("maria@example.com").await;
    let document = pdf(MB);
    let answers = tokio::join!(
        world.document(&maria, "1.pdf", &document),
        world.document(&maria, "2.pdf", &document),
        world.document(&maria, "3.pdf", &document),
        world.document(&maria, "4.pdf", &document),
        world.document(&maria, "5.pdf", &document),
        world.document(&maria, "6.pdf", &document),
    );
    let answers = [
        answers.0, answers.1, answers.2, answers.3, answers.4, answers.5,
    ];
    let stored = answers
        .iter()
        .filter(|answer| answer.status == StatusCode::CREATED)
        .count();
    assert_eq!(stored, 2, "{answers:?}");
    for refused in answers
        .iter()
        .filter(|answer| answer.status != StatusCode::CREATED)
    {
        assert_over_quota(refused, "2,5 MB");
    }
    let bytes: i64 = sqlx::query_scalar("SELECT sum(bytes)::bigint FROM member_uploads")
        .fetch_one(&world.db)
        .await
        .expect("bytes");
    assert_eq!(bytes, 2 * MB as i64);
    let objects = std::fs::read_dir(world.data.join(format!(
        "objects/private/files/{}/{}",
        world.station_id, maria.id
    )))
    .expect("folder")
    .count();
    assert_eq!(objects, 2);
}

#[testkit::db_test]
async fn what_an_answer_refers_to_survives_the_cleanup_and_the_rest_goes_after_a_day(db: PgPool) {
    let world = world(db, &[]).await;
    let maria = world.member("maria@example.com").await;
    let (research, questions) = survey(&world.db, world.station_id).await;

    let kept_document = world
        .stored_document(&maria, "comprovante.pdf", &pdf(2_000))
        .await;
    let kept_image = world.stored_image(&maria).await;
    let forgotten = world
        .stored_document(&maria, "rascunho.pdf", &pdf(2_000))
        .await;
    let forgotten_image = world.stored_image(&maria).await;

    let answer = world
        .attach(&maria, research, questions[0], &kept_document)
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.json()["file"], json!({ "name": "comprovante.pdf" }));
    // An image by its URL; its name is its key's.
    let answer = world
        .attach(&maria, research, questions[1], &kept_image)
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let answered: Vec<String> =
        sqlx::query_scalar("SELECT file_key FROM research_answers ORDER BY question_id")
            .fetch_all(&world.db)
            .await
            .expect("answers");
    assert_eq!(
        answered,
        [
            kept_document.clone(),
            kept_image.trim_start_matches("/api/media/").to_string()
        ]
    );

    // Made a day ago, and one made now that nothing refers to yet.
    world.age(25).await;
    let fresh = world.stored_document(&maria, "novo.pdf", &pdf(2_000)).await;

    let swept = world.clean_up().await;
    assert_eq!(swept["unattached"], 2, "{swept}");
    for gone in [&forgotten, &forgotten_image] {
        assert!(!world.object(gone).exists(), "{gone} left in the store");
    }
    for kept in [&kept_document, &kept_image, &fresh] {
        assert!(world.object(kept).exists(), "{kept} removed");
    }
    let rows: Vec<String> = world.rows().await.into_iter().map(|row| row.0).collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(
        !rows
            .iter()
            .any(|key| forgotten.ends_with(key.as_str()) || forgotten_image.ends_with(key.as_str()))
    );
    // Nothing left to do: the next run changes nothing.
    assert_eq!(world.clean_up().await["unattached"], 0);

    // A swept upload can no longer be attached.
    let late = world
        .attach(&maria, research, questions[0], &forgotten)
        .await;
    assert_eq!(late.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(late.json()["messages"], json!([NOT_FOUND]));

    // An answer that takes another file lets go of the first: deleted at once, and its
    // row goes with the next cleanup.
    let replaced = world.attach(&maria, research, questions[0], &fresh).await;
    assert_eq!(replaced.status, StatusCode::OK, "{}", replaced.text);
    assert!(!world.object(&kept_document).exists());
    world.age(25).await;
    assert_eq!(world.clean_up().await["unattached"], 1);
    assert!(world.object(&fresh).exists() && world.object(&kept_image).exists());
}

#[testkit::db_test]
async fn an_upload_is_attached_by_its_owner_only_and_to_one_answer(db: PgPool) {
    let world = world(db, &[]).await;
    let maria = world.member("maria@example.com").await;
    let joao = world.member("joao@example.com").await;
    let (research, questions) = survey(&world.db, world.station_id).await;
    let marias = world
        .stored_document(&maria, "comprovante.pdf", &pdf(2_000))
        .await;

    // Another member of the station, by path or as a URL: not found, and not attached.
    for reference in [marias.clone(), format!("/api/media/{marias}")] {
        let answer = world
            .attach(&joao, research, questions[0], &reference)
            .await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            answer.text
        );
        assert_eq!(answer.json()["messages"], json!([NOT_FOUND]));
    }
    // A member of another station, on a research of their own.
    let other_station = insert_station(&world.db, "outro").await;
    let stranger_id = insert_member(&world.db, other_station, "ana@example.com").await;
    let stranger = Member {
        id: stranger_id,
        token: session_of(&world.db, stranger_id).await,
    };
    let (their_research, their_questions) = survey(&world.db, other_station).await;
    let answer = world
        .attach(&stranger, their_research, their_questions[0], &marias)
        .await;
    assert_eq!(
        answer.json()["messages"],
        json!([NOT_FOUND]),
        "{}",
        answer.text
    );
    // Nor junk.
    for junk in ["", "../../etc/passwd", "private/files/1/2/nada.pdf"] {
        let answer = world.attach(&maria, research, questions[0], junk).await;
        assert_eq!(answer.json()["messages"], json!([NOT_FOUND]), "{junk:?}");
    }
    // A video question takes no upload.
    let video = world.attach(&maria, research, questions[2], &marias).await;
    assert_eq!(video.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        video.json()["messages"],
        json!(["Tamanho ou formato inválido"])
    );
    assert_eq!(world.rows().await[0].2, None, "still unattached");

    // Its owner attaches it; sent again, nothing changes and the file stays.
    for _ in 0..2 {
        let answer = world.attach(&maria, research, questions[0], &marias).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        assert!(world.object(&marias).exists());
    }
    let rows = world.rows().await;
    assert_eq!(rows[0].1, maria.id);
    assert!(
        rows[0]
            .2
            .as_deref()
            .is_some_and(|to| to.starts_with("research_answers(")),
        "{rows:?}"
    );
    // One answer only: another question of the same research is refused.
    let twice = world.attach(&maria, research, questions[1], &marias).await;
    assert_eq!(twice.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(twice.json()["messages"], json!([IN_USE]));
    // Without a session, nothing.
    let anonymous = send_json(
        &world.app,
        "PUT",
        &format!("/api/research/{research}/answers/{}/file", questions[0]),
        None,
        &[],
        &json!({ "path": marias }),
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    // Joao never had one to clean up after.
    assert!(world.rows().await.iter().all(|row| row.1 != joao.id));
}
