//! The feed's posts over HTTP against the real database (docs/api-feed.md, "Posts"): text,
//! image and video posts and their rules, who sees what (another station, unpublished,
//! hidden and removed posts, a closed feed), the author's delete and its media, a video
//! turning ready while it is posted, paging by keyset while new posts arrive, and the
//! posts' rate limit.

use crate::common;
use std::io::Cursor;

use crate::feed_support::*;
use axum::http::StatusCode;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use domain::infra::objects::Objects;
use image::{ImageFormat, Rgb, RgbImage};
use serde_json::json;
use sqlx::PgPool;

const TOO_LONG: &str = "O texto deve ter no máximo 320 caracteres.";
const REQUIRED: &str = "Escreva algo ou escolha uma imagem ou um vídeo.";
const MEDIA_INVALID: &str = "Tamanho ou formato inválido";

fn picture(format: ImageFormat, width: u32, height: u32) -> String {
    let mut bytes = Vec::new();
    RgbImage::from_pixel(width, height, Rgb([200, 30, 90]))
        .write_to(&mut Cursor::new(&mut bytes), format)
        .expect("encode");
    STANDARD.encode(bytes)
}

#[testkit::db_test]
async fn a_text_post_is_answered_and_shown_to_the_station(db: PgPool) {
    let f = feed(db).await;
    let answer = f
        .call(
            &f.maria,
            "POST",
            "/api/posts",
            Some(json!({
                "description": "  Bom dia, clube!  ",
                "station_id": f.station_id,
                "user": f.joao.id,
            })),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let post = answer.json();
    let id = post["id"].as_i64().expect("id");
    assert_eq!(post["description"], "Bom dia, clube!");
    assert_eq!(
        post["user"],
        json!({ "id": f.maria.id, "name": "Maria Souza", "image": null }),
        "the author is the caller, whatever `user` says"
    );
    assert_eq!(post["image"], json!(null));
    assert_eq!(post["video"], json!(null));
    assert_eq!(post["likes"], 0);
    assert_eq!(post["comments"], 0);
    assert_eq!(post["userLiked"], false);
    assert_eq!(post["userAuthor"], true);
    assert_eq!(post["published"], true);
    assert!(post["createdAt"].as_str().expect("time").ends_with('Z'));

    let seen = f.seen(&f.joao, id).await.expect("João sees it");
    assert_eq!(seen["userAuthor"], false);
    assert_eq!(seen["user"]["name"], "Maria Souza");
    assert_eq!(
        f.seen(&f.maria, id).await.expect("hers")["userAuthor"],
        true
    );

    // Another station's member sees neither the post nor the station's feed.
    let elsewhere = f
        .call(
            &f.stranger,
            "GET",
            &format!("/api/posts/{}", f.station_id),
            None,
        )
        .await;
    refused(&elsewhere, StatusCode::FORBIDDEN, NOT_AUTHORIZED);
    assert!(
        !f.feed_ids_of(&f.stranger, f.other_station_id)
            .await
            .contains(&id)
    );
}

impl Feed {
    async fn feed_ids_of(&self, who: &Someone, station_id: i64) -> Vec<i64> {
        let answer = self
            .call(who, "GET", &format!("/api/posts/{station_id}"), None)
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        ids(&answer.json()["posts"])
    }

    async fn image_post(&self, base64: &str, text: &str) -> common::Answer {
        self.call(
            &self.maria,
            "POST",
            "/api/posts-image",
            Some(json!({
                "base64": base64, "imageType": "image/png", "description": text,
                "station_id": self.station_id,
            })),
        )
        .await
    }

    async fn video_post(&self, who: &Someone, video_id: i64) -> common::Answer {
        self.call(
            who,
            "POST",
            "/api/posts-vimeo",
            Some(json!({
                "description": "Olha o vídeo", "video_id": video_id, "station_id": self.station_id,
            })),
        )
        .await
    }
}

#[testkit::db_test]
async fn text_rules_and_the_station_are_checked(db: PgPool) {
    let f = feed(db).await;
    let post = |description: String, station_id: i64| {
        let f = &f;
        async move {
            f.call(
                &f.maria,
                "POST",
                "/api/posts",
                Some(json!({ "description": description, "station_id": station_id })),
            )
            .await
        }
    };
    refused(
        &post("a".repeat(321), f.station_id).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        TOO_LONG,
    );
    assert_eq!(
        post("ç".repeat(320), f.station_id).await.status,
        StatusCode::CREATED,
        "320 characters, not bytes"
    );
    refused(
        &post(String::new(), f.station_id).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        REQUIRED,
    );
    refused(
        &post("   \n ".into(), f.station_id).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        REQUIRED,
    );
    refused(
        &post("Oi".into(), f.other_station_id).await,
        StatusCode::FORBIDDEN,
        NOT_AUTHORIZED,
    );
    let missing = f
        .call(
            &f.maria,
            "POST",
            "/api/posts",
            Some(json!({ "description": "Oi" })),
        )
        .await;
    refused(
        &missing,
        StatusCode::UNPROCESSABLE_ENTITY,
        "O campo \"station_id\" é obrigatório",
    );
    let visitor = common::send_json(
        &f.app,
        "POST",
        "/api/posts",
        None,
        &[],
        &json!({ "description": "Oi", "station_id": f.station_id }),
    )
    .await;
    assert_eq!(visitor.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        f.scalar(
            "SELECT count(*) FROM feed_posts WHERE user_id = $1",
            f.maria.id
        )
        .await,
        1
    );
}

#[testkit::db_test]
async fn a_closed_feed_refuses_everything(db: PgPool) {
    let f = feed(db).await;
    let id = f.post(&f.joao, "Antes de fechar").await;
    f.execute(
        "UPDATE stations SET feed_access = false WHERE id = $1",
        f.station_id,
    )
    .await;
    let calls = [
        ("GET", format!("/api/posts/{}", f.station_id), None),
        ("GET", format!("/api/posts-limit/{}/3", f.station_id), None),
        (
            "POST",
            "/api/posts".to_string(),
            Some(json!({ "description": "Oi", "station_id": f.station_id })),
        ),
        (
            "POST",
            "/api/posts-image".to_string(),
            Some(json!({ "base64": picture(ImageFormat::Png, 4, 4), "station_id": f.station_id })),
        ),
        (
            "POST",
            "/api/posts-vimeo".to_string(),
            Some(json!({ "video_id": 1, "station_id": f.station_id })),
        ),
        ("DELETE", format!("/api/posts/{id}"), None),
        (
            "POST",
            "/api/likes-web".to_string(),
            Some(json!({ "post": id })),
        ),
        ("PUT", "/api/likes".to_string(), Some(json!({ "post": id }))),
        ("GET", format!("/api/comments/post/{id}"), None),
        (
            "POST",
            "/api/comments".to_string(),
            Some(json!({ "description": "Oi", "post": id })),
        ),
        ("POST", format!("/api/posts/{id}/report"), Some(json!({}))),
    ];
    for (method, uri, body) in calls {
        let answer = f.call(&f.joao, method, &uri, body).await;
        refused(&answer, StatusCode::FORBIDDEN, NOT_AUTHORIZED);
    }
    assert_eq!(
        f.scalar("SELECT count(*) FROM feed_posts WHERE id = $1", id)
            .await,
        1
    );
}

#[testkit::db_test]
async fn an_image_post_is_stored_re_encoded_and_bad_images_are_refused(db: PgPool) {
    let f = feed(db).await;
    let answer = f
        .image_post(
            &format!(
                "data:image/png;base64,{}",
                picture(ImageFormat::Png, 2400, 1200)
            ),
            "",
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let post = answer.json();
    let url = post["image"].as_str().expect("image url").to_string();
    assert!(
        url.starts_with(&format!("/api/media/feed/{}/", f.station_id)),
        "{url}"
    );
    assert_eq!(post["description"], "");
    assert_eq!(common::get(&f.app, &url).await.status, StatusCode::OK);
    // Re-encoded to fit 1600 px.
    let objects = Objects::from_config(&common::config_with(&[])).expect("objects");
    let key = Objects::key_of_url(&url).expect("a stored object");
    let stored = objects.get(key).await.expect("read").expect("stored");
    let decoded = image::load_from_memory(&stored.bytes).expect("an image");
    assert_eq!((decoded.width(), decoded.height()), (1600, 800));

    let jpeg = f
        .image_post(&picture(ImageFormat::Jpeg, 64, 48), "Uma foto")
        .await;
    assert_eq!(jpeg.status, StatusCode::CREATED, "{}", jpeg.text);
    assert!(
        jpeg.json()["image"]
            .as_str()
            .expect("url")
            .ends_with(".jpg")
    );

    let text_file = STANDARD.encode("apenas um arquivo de texto, não uma imagem");
    let mut oversize = b"\x89PNG\r\n\x1a\n".to_vec();
    oversize.resize(1_200_001, 7);
    for bad in [
        picture(ImageFormat::Gif, 8, 8),
        text_file,
        STANDARD.encode(&oversize),
        "!!! não é base64 !!!".to_string(),
        String::new(),
    ] {
        refused(
            &f.image_post(&bad, "Oi").await,
            StatusCode::UNPROCESSABLE_ENTITY,
            MEDIA_INVALID,
        );
    }
    refused(
        &f.image_post(&picture(ImageFormat::Png, 4, 4), &"x".repeat(321))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        TOO_LONG,
    );
    assert_eq!(
        f.scalar(
            "SELECT count(*) FROM feed_posts WHERE user_id = $1 AND image_key IS NOT NULL",
            f.maria.id
        )
        .await,
        2
    );
}

#[testkit::db_test]
async fn a_video_post_shows_to_others_once_its_video_is_ready(db: PgPool) {
    let f = feed(db).await;
    let processing = f.video(&f.maria, f.station_id, "processing").await;
    let answer = f.video_post(&f.maria, processing).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let post = answer.json();
    let id = post["id"].as_i64().expect("id");
    assert_eq!(post["published"], false);
    assert_eq!(post["video"]["id"], processing);
    assert_eq!(post["video"]["status"], "processing");
    assert_eq!(post["video"]["url"], json!(null));

    // Only the author sees it until the video is ready.
    assert_eq!(
        f.seen(&f.maria, id).await.expect("the author's")["published"],
        false
    );
    assert!(f.seen(&f.joao, id).await.is_none());
    let likes = f
        .call(
            &f.joao,
            "POST",
            "/api/likes-web",
            Some(json!({ "post": id })),
        )
        .await;
    assert_eq!(likes.status, StatusCode::NOT_FOUND);

    // What `video.transcode` does once the video is ready.
    f.execute(
        "UPDATE feed_videos SET status = 'ready', video_key = 'feed/videos/v.mp4',
                poster_key = 'feed/videos/v.jpg', duration_ms = 6000 WHERE id = $1",
        processing,
    )
    .await;
    f.execute(
        "UPDATE feed_posts SET published_at = now() WHERE video_id = $1 AND published_at IS NULL",
        processing,
    )
    .await;
    let seen = f.seen(&f.joao, id).await.expect("published");
    assert_eq!(seen["published"], true);
    assert_eq!(seen["video"]["url"], "/api/media/feed/videos/v.mp4");
    assert_eq!(seen["video"]["poster"], "/api/media/feed/videos/v.jpg");
    assert_eq!(seen["video"]["durationMs"], 6000);

    // A ready video is published at once, even without text.
    let ready = f.video(&f.maria, f.station_id, "ready").await;
    let at_once = f
        .call(
            &f.maria,
            "POST",
            "/api/posts-vimeo",
            Some(json!({ "video_id": ready, "station_id": f.station_id })),
        )
        .await;
    assert_eq!(at_once.status, StatusCode::CREATED, "{}", at_once.text);
    assert_eq!(at_once.json()["published"], true);
    assert_eq!(at_once.json()["description"], "");
    let uploading = f.video(&f.maria, f.station_id, "uploading").await;
    assert_eq!(
        f.video_post(&f.maria, uploading).await.status,
        StatusCode::CREATED
    );
}

#[testkit::db_test]
async fn a_video_post_takes_the_callers_own_live_unused_upload(db: PgPool) {
    let f = feed(db).await;
    let failed = f.video(&f.maria, f.station_id, "failed").await;
    refused(
        &f.video_post(&f.maria, failed).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "Este vídeo não pôde ser processado. Envie outro vídeo.",
    );
    let ready = f.video(&f.maria, f.station_id, "ready").await;
    assert_eq!(
        f.video_post(&f.maria, ready).await.status,
        StatusCode::CREATED
    );
    refused(
        &f.video_post(&f.maria, ready).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "Este vídeo já está em outra publicação.",
    );
    let joaos = f.video(&f.joao, f.station_id, "ready").await;
    refused(
        &f.video_post(&f.maria, joaos).await,
        StatusCode::NOT_FOUND,
        "Vídeo não encontrado.",
    );
    refused(
        &f.video_post(&f.maria, 999_999).await,
        StatusCode::NOT_FOUND,
        "Vídeo não encontrado.",
    );
    let long = f
        .call(
            &f.joao,
            "POST",
            "/api/posts-vimeo",
            Some(json!({
                "description": "a".repeat(321), "video_id": joaos, "station_id": f.station_id,
            })),
        )
        .await;
    refused(&long, StatusCode::UNPROCESSABLE_ENTITY, TOO_LONG);
    for (who, posts) in [(&f.maria, 1), (&f.joao, 0)] {
        assert_eq!(
            f.scalar("SELECT count(*) FROM feed_posts WHERE user_id = $1", who.id)
                .await,
            posts
        );
    }
}

/// Two video posts of one upload at once: one is made, the other refused.
#[testkit::db_test]
async fn one_upload_makes_one_post_when_posted_twice_at_once(db: PgPool) {
    let wide = wide_pool(&db).await;
    let f = feed_with_app(db, common::app(wide)).await;
    let ready = f.video(&f.maria, f.station_id, "ready").await;
    let (a, b) = tokio::join!(f.video_post(&f.maria, ready), f.video_post(&f.maria, ready));
    let mut statuses = [a.status, b.status];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::CREATED, StatusCode::UNPROCESSABLE_ENTITY]
    );
}

/// `video.transcode` making the video ready (and publishing its posts, in one transaction,
/// as the job does) at the very moment its owner posts it: whichever comes first, the post
/// ends published, by exactly one of the two.
#[testkit::db_test]
async fn a_video_turning_ready_while_it_is_posted_publishes_the_post_once(db: PgPool) {
    let wide = wide_pool(&db).await;
    let f = feed_with_app(db, common::app(wide.clone())).await;
    let mut by_post = 0;
    let mut by_job = 0;
    for round in 0..40u64 {
        // A member per round: posts are limited to 10 per 10 minutes.
        let owner = member(&f.db, f.station_id, &format!("Autora {round}")).await;
        let video = f.video(&owner, f.station_id, "processing").await;
        let job = async {
            // Either side first, and everything in between.
            tokio::time::sleep(std::time::Duration::from_millis(round % 10 * 2)).await;
            let mut tx = wide.begin().await.expect("begin");
            sqlx::query(
                "UPDATE feed_videos SET status = 'ready', video_key = 'feed/videos/v.mp4',
                        poster_key = 'feed/videos/v.jpg' WHERE id = $1",
            )
            .bind(video)
            .execute(&mut *tx)
            .await
            .expect("ready");
            let published = sqlx::query(
                "UPDATE feed_posts SET published_at = now()
                  WHERE video_id = $1 AND published_at IS NULL",
            )
            .bind(video)
            .execute(&mut *tx)
            .await
            .expect("publish")
            .rows_affected();
            tx.commit().await.expect("commit");
            published
        };
        let (answer, published_by_job) = tokio::join!(f.video_post(&owner, video), job);
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        let published_at_once = answer.json()["published"] == json!(true);
        assert_eq!(
            u64::from(published_at_once) + published_by_job,
            1,
            "round {round}: published by the post {published_at_once}, by the job {published_by_job}"
        );
        let id = answer.json()["id"].as_i64().expect("id");
        assert_eq!(
            f.scalar(
                "SELECT count(*) FROM feed_posts WHERE id = $1 AND published_at IS NOT NULL",
                id
            )
            .await,
            1,
            "round {round}"
        );
        assert!(f.seen(&f.joao, id).await.is_some(), "round {round}");
        if published_at_once {
            by_post += 1;
        } else {
            by_job += 1;
        }
    }
    // Both orders happened, so the race was run both ways.
    assert!(
        by_post > 0 && by_job > 0,
        "published by the post {by_post}, by the job {by_job}"
    );
}

#[testkit::db_test]
async fn only_the_author_deletes_and_the_image_goes_with_the_post(db: PgPool) {
    let f = feed(db).await;
    let answer = f
        .image_post(&picture(ImageFormat::Png, 8, 8), "Apagar")
        .await;
    assert_eq!(answer.status, StatusCode::CREATED);
    let id = answer.json()["id"].as_i64().expect("id");
    let url = answer.json()["image"].as_str().expect("url").to_string();
    // Likes, comments and reports, which go with it.
    f.call(
        &f.joao,
        "POST",
        "/api/likes-web",
        Some(json!({ "post": id })),
    )
    .await;
    f.call(
        &f.joao,
        "POST",
        "/api/comments",
        Some(json!({ "description": "Bonita", "post": id })),
    )
    .await;
    f.call(
        &f.joao,
        "POST",
        &format!("/api/posts/{id}/report"),
        Some(json!({})),
    )
    .await;

    refused(
        &f.call(&f.joao, "DELETE", &format!("/api/posts/{id}"), None)
            .await,
        StatusCode::FORBIDDEN,
        "Apenas o autor pode apagar.",
    );
    refused(
        &f.call(&f.stranger, "DELETE", &format!("/api/posts/{id}"), None)
            .await,
        StatusCode::NOT_FOUND,
        "Publicação não encontrada.",
    );
    assert_eq!(common::get(&f.app, &url).await.status, StatusCode::OK);

    let deleted = f
        .call(&f.maria, "DELETE", &format!("/api/posts/{id}"), None)
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    assert!(f.seen(&f.maria, id).await.is_none());
    for table in ["feed_likes", "comments", "feed_reports"] {
        assert_eq!(
            f.scalar(
                &format!("SELECT count(*) FROM {table} WHERE post_id = $1"),
                id
            )
            .await,
            0,
            "{table}"
        );
    }
    assert_eq!(
        common::get(&f.app, &url).await.status,
        StatusCode::NOT_FOUND
    );
    refused(
        &f.call(&f.maria, "DELETE", &format!("/api/posts/{id}"), None)
            .await,
        StatusCode::NOT_FOUND,
        "Publicação não encontrada.",
    );

    // A video post goes with its upload and the files it played.
    let video = f.stored_video(&f.maria).await;
    let post = f.video_post(&f.maria, video.id).await.json()["id"]
        .as_i64()
        .expect("id");
    for url in [&video.url, &video.poster] {
        assert_eq!(common::get(&f.app, url).await.status, StatusCode::OK);
    }
    assert_eq!(
        f.call(&f.maria, "DELETE", &format!("/api/posts/{post}"), None)
            .await
            .status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        f.scalar("SELECT count(*) FROM feed_videos WHERE id = $1", video.id)
            .await,
        0
    );
    for url in [&video.url, &video.poster] {
        assert_eq!(
            common::get(&f.app, url).await.status,
            StatusCode::NOT_FOUND,
            "{url}"
        );
    }

    // So does one whose video was still processing.
    let processing = f.video(&f.maria, f.station_id, "processing").await;
    let post = f.video_post(&f.maria, processing).await.json()["id"]
        .as_i64()
        .expect("id");
    assert_eq!(
        f.call(&f.maria, "DELETE", &format!("/api/posts/{post}"), None)
            .await
            .status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        f.scalar("SELECT count(*) FROM feed_videos WHERE id = $1", processing)
            .await,
        0
    );
}

#[testkit::db_test]
async fn hidden_and_removed_posts_leave_the_feed_for_everyone(db: PgPool) {
    let f = feed(db).await;
    let shown = f.post(&f.maria, "Fica").await;
    let hidden = f.post(&f.maria, "Escondido").await;
    let removed = f.post(&f.maria, "Removido").await;
    f.execute(
        "UPDATE feed_posts SET hidden_at = now() WHERE id = $1",
        hidden,
    )
    .await;
    f.execute(
        "UPDATE feed_posts SET removed_at = now() WHERE id = $1",
        removed,
    )
    .await;
    for who in [&f.maria, &f.joao] {
        assert_eq!(f.feed_ids(who).await, vec![shown]);
    }
    for id in [hidden, removed] {
        for (method, uri, body) in [
            ("GET", format!("/api/comments/post/{id}"), None),
            (
                "POST",
                "/api/likes-web".to_string(),
                Some(json!({ "post": id })),
            ),
            ("DELETE", format!("/api/posts/{id}"), None),
        ] {
            let answer = f.call(&f.maria, method, &uri, body).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{method} {uri}");
        }
    }
}

#[testkit::db_test]
async fn paging_by_keyset_neither_repeats_nor_skips_while_posts_arrive(db: PgPool) {
    let f = feed(db).await;
    let mut older = Vec::new();
    for n in 1..=5 {
        older.push(f.post(&f.maria, &format!("Post {n}")).await);
    }
    let first = f
        .call(
            &f.joao,
            "GET",
            &format!("/api/posts/{}?limit=3", f.station_id),
            None,
        )
        .await;
    assert_eq!(first.status, StatusCode::OK);
    let first = first.json();
    assert_eq!(ids(&first["posts"]), vec![older[4], older[3], older[2]]);
    let next = first["next"].as_str().expect("a next page").to_string();

    // Posts published while João scrolls.
    let newer = [
        f.post(&f.maria, "Novo 1").await,
        f.post(&f.joao, "Novo 2").await,
    ];

    let second = f
        .call(
            &f.joao,
            "GET",
            &format!("/api/posts/{}?limit=3&before={next}", f.station_id),
            None,
        )
        .await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text);
    let second = second.json();
    assert_eq!(ids(&second["posts"]), vec![older[1], older[0]]);
    assert_eq!(second["next"], json!(null));

    // The default page is 3; the newest posts come first.
    let default = f
        .call(
            &f.joao,
            "GET",
            &format!("/api/posts/{}", f.station_id),
            None,
        )
        .await
        .json();
    assert_eq!(ids(&default["posts"]), vec![newer[1], newer[0], older[4]]);

    // The spec's growing limit: the newest n posts.
    let grown = f
        .call(
            &f.joao,
            "GET",
            &format!("/api/posts-limit/{}/6", f.station_id),
            None,
        )
        .await;
    assert_eq!(grown.status, StatusCode::OK);
    let grown = grown.json();
    assert_eq!(
        ids(&grown["posts"]),
        vec![newer[1], newer[0], older[4], older[3], older[2], older[1]]
    );
    assert!(grown["next"].is_string());
    let all = f
        .call(
            &f.joao,
            "GET",
            &format!("/api/posts-limit/{}/7", f.station_id),
            None,
        )
        .await
        .json();
    assert_eq!(all["posts"].as_array().expect("posts").len(), 7);
    assert_eq!(all["next"], json!(null));
}

#[testkit::db_test]
async fn posts_of_the_same_instant_are_paged_by_id(db: PgPool) {
    let f = feed(db).await;
    let same: Vec<i64> = sqlx::query_scalar(
        "INSERT INTO feed_posts (station_id, user_id, description, published_at, created_at)
         SELECT $1, $2, 'Mesmo instante ' || n, now(), '2026-12-01T12:00:00Z'
           FROM generate_series(1, 5) n RETURNING id",
    )
    .bind(f.station_id)
    .bind(f.maria.id)
    .fetch_all(&f.db)
    .await
    .expect("posts");
    let mut seen = Vec::new();
    let mut uri = format!("/api/posts/{}?limit=2", f.station_id);
    loop {
        let page = f.call(&f.joao, "GET", &uri, None).await.json();
        seen.extend(ids(&page["posts"]));
        match page["next"].as_str() {
            Some(next) => uri = format!("/api/posts/{}?limit=2&before={next}", f.station_id),
            None => break,
        }
    }
    let mut expected = same.clone();
    expected.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(seen, expected);
}

#[testkit::db_test]
async fn bad_paging_parameters_are_refused(db: PgPool) {
    let f = feed(db).await;
    for query in [
        "limit=0",
        "limit=31",
        "limit=três",
        "before=nao-e-um-cursor",
    ] {
        let answer = f
            .call(
                &f.joao,
                "GET",
                &format!("/api/posts/{}?{query}", f.station_id),
                None,
            )
            .await;
        refused(
            &answer,
            StatusCode::BAD_REQUEST,
            "Parâmetro inválido na URL",
        );
    }
    for page in ["0", "61"] {
        let answer = f
            .call(
                &f.joao,
                "GET",
                &format!("/api/posts-limit/{}/{page}", f.station_id),
                None,
            )
            .await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{page}");
    }
    assert_eq!(
        f.call(
            &f.joao,
            "GET",
            &format!("/api/posts/{}?limit=30", f.station_id),
            None
        )
        .await
        .status,
        StatusCode::OK
    );
    refused(
        &f.call(
            &f.joao,
            "GET",
            &format!("/api/posts-limit/{}/3", f.other_station_id),
            None,
        )
        .await,
        StatusCode::FORBIDDEN,
        NOT_AUTHORIZED,
    );
}

#[testkit::db_test]
async fn posting_is_limited_to_ten_in_ten_minutes(db: PgPool) {
    let f = feed(db).await;
    for n in 1..=10 {
        f.post(&f.maria, &format!("Post {n}")).await;
    }
    let refused_post = f
        .call(
            &f.maria,
            "POST",
            "/api/posts",
            Some(json!({ "description": "Mais um", "station_id": f.station_id })),
        )
        .await;
    refused(&refused_post, StatusCode::TOO_MANY_REQUESTS, TOO_MANY);
    assert!(refused_post.headers.contains_key("retry-after"));
    let image = f.image_post(&picture(ImageFormat::Png, 4, 4), "").await;
    assert_eq!(
        image.status,
        StatusCode::TOO_MANY_REQUESTS,
        "any kind of post"
    );
    // Others post on.
    f.post(&f.joao, "Eu posso").await;
    assert_eq!(
        f.scalar(
            "SELECT count(*) FROM feed_posts WHERE user_id = $1",
            f.maria.id
        )
        .await,
        10
    );
}

/// The `image.variants` jobs queued for `key`.
async fn variant_jobs(db: &PgPool, key: &str) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM apalis.jobs
          WHERE job_type = 'image.variants'
            AND convert_from(job, 'UTF8')::jsonb -> 'args' ->> 'key' = $1",
    )
    .bind(key)
    .fetch_one(db)
    .await
    .expect("jobs")
}

#[testkit::db_test]
async fn an_image_post_asks_for_its_image_s_copies_and_a_refused_one_does_not(db: PgPool) {
    let f = feed(db).await;
    let answer = f
        .image_post(&picture(ImageFormat::Png, 1600, 900), "Com foto")
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let url = answer.json()["image"].as_str().expect("url").to_string();
    let key = Objects::key_of_url(&url)
        .expect("a stored object")
        .to_string();
    assert_eq!(variant_jobs(&f.db, &key).await, 1);

    let refused = f
        .image_post(&picture(ImageFormat::Png, 40, 40), &"x".repeat(321))
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let all: i64 =
        sqlx::query_scalar("SELECT count(*) FROM apalis.jobs WHERE job_type = 'image.variants'")
            .fetch_one(&f.db)
            .await
            .expect("jobs");
    assert_eq!(all, 1, "a refused post queues nothing");

    let ran = common::run_jobs::<jobs::kinds::ImageVariants>(&f.db, "image.variants", true).await;
    assert_eq!(
        ran,
        [json!({ "new": true, "widths": [480, 960, 1440, 1600] })]
    );

    // The author deletes the post: its copies go with its image.
    let id = answer.json()["id"].as_i64().expect("id");
    let deleted = f
        .call(&f.maria, "DELETE", &format!("/api/posts/{id}"), None)
        .await;
    assert!(deleted.status.is_success(), "{}", deleted.text);
    let objects = Objects::from_config(&common::config_with(&[])).expect("objects");
    let stem = key.trim_end_matches(".jpg");
    assert!(
        objects
            .get(&format!("{stem}.480w.jpg"))
            .await
            .expect("get")
            .is_none()
    );
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM image_variants")
        .fetch_one(&f.db)
        .await
        .expect("rows");
    assert_eq!(rows, 0);
}
