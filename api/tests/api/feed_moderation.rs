//! Members' reports and staff moderation over HTTP against the real database
//! (docs/api-feed.md, "Moderation"): a report counts once per member; the station's
//! threshold of reporters hides the item at once; staff list what was reported and keep,
//! hide or remove it, audited; viewers only read and staff of another station reach
//! nothing; a removed post's media leave the store; reports crossing the threshold at
//! once; the reports' rate limit.

use crate::common;
use crate::feed_support::*;
use axum::http::StatusCode;
use base64::Engine;
use domain::staff::{Role, Scope};
use serde_json::{Value, json};
use sqlx::PgPool;

impl Feed {
    async fn report(
        &self,
        who: &Someone,
        kind: &str,
        id: i64,
        reason: Option<&str>,
    ) -> common::Answer {
        let body = match reason {
            Some(reason) => json!({ "reason": reason }),
            None => json!({}),
        };
        self.call(who, "POST", &format!("/api/{kind}/{id}/report"), Some(body))
            .await
    }

    async fn reporters(&self, count: usize) -> Vec<Someone> {
        let mut members = Vec::new();
        for n in 0..count {
            members.push(member(&self.db, self.station_id, &format!("Denunciante {n}")).await);
        }
        members
    }

    async fn reported(&self, staff: &Someone, query: &str) -> Value {
        let answer = self
            .call(staff, "GET", &format!("/api/ops/reports{query}"), None)
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        answer.json()
    }

    async fn review(&self, staff: &Someone, kind: &str, id: i64, decision: &str) -> common::Answer {
        self.call(
            staff,
            "POST",
            &format!("/api/ops/reports/{kind}/{id}/review"),
            Some(json!({ "decision": decision })),
        )
        .await
    }

    async fn support(&self) -> Someone {
        self.staff(
            "suporte@example.com",
            Role::Support,
            Scope::Station(self.station_id),
        )
        .await
    }
}

#[testkit::db_test]
async fn a_report_counts_once_and_the_threshold_hides_the_post(db: PgPool) {
    let f = feed(db).await;
    let post = f.post(&f.maria, "Polêmico").await;
    let first = f.report(&f.joao, "posts", post, Some("Ofensivo")).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    assert_eq!(first.json(), json!({ "reported": true }));
    let again = f.report(&f.joao, "posts", post, Some("De novo")).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.json(), json!({ "reported": true }));
    assert_eq!(
        f.scalar("SELECT count(*) FROM feed_reports WHERE post_id = $1", post)
            .await,
        1
    );
    refused(
        &f.report(&f.joao, "posts", post, Some(&"a".repeat(501)))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "O motivo deve ter no máximo 500 caracteres.",
    );
    let far = f.stranger_post().await;
    refused(
        &f.report(&f.joao, "posts", far, None).await,
        StatusCode::NOT_FOUND,
        "Publicação não encontrada.",
    );

    // Default threshold 3: the second reporter leaves it shown, the third hides it.
    let others = f.reporters(2).await;
    assert_eq!(
        f.report(&others[0], "posts", post, None).await.status,
        StatusCode::CREATED
    );
    assert!(f.seen(&f.joao, post).await.is_some());
    assert_eq!(
        f.report(&others[1], "posts", post, Some("Spam"))
            .await
            .status,
        StatusCode::CREATED
    );
    for who in [&f.maria, &f.joao] {
        assert!(f.seen(who, post).await.is_none(), "hidden for everyone");
    }
    assert_eq!(
        f.scalar(
            "SELECT count(*) FROM feed_posts WHERE id = $1 AND hidden_at IS NOT NULL",
            post
        )
        .await,
        1
    );
}

#[testkit::db_test]
async fn the_station_threshold_hides_a_comment_and_it_leaves_the_count(db: PgPool) {
    let f = feed(db).await;
    f.execute(
        "UPDATE stations SET feed_report_threshold = 2 WHERE id = $1",
        f.station_id,
    )
    .await;
    let post = f.post(&f.maria, "Post").await;
    let comment = f
        .call(
            &f.joao,
            "POST",
            "/api/comments",
            Some(json!({ "description": "Grosseria", "post": post })),
        )
        .await
        .json()["id"]
        .as_i64()
        .expect("comment");
    assert_eq!(
        f.scalar(
            "SELECT comment_count::bigint FROM feed_posts WHERE id = $1",
            post
        )
        .await,
        1
    );
    assert_eq!(
        f.report(&f.maria, "comments", comment, Some("Grosseiro"))
            .await
            .status,
        StatusCode::CREATED
    );
    let other = f.reporters(1).await;
    assert_eq!(
        f.report(&other[0], "comments", comment, None).await.status,
        StatusCode::CREATED
    );
    let listed = f
        .call(&f.joao, "GET", &format!("/api/comments/post/{post}"), None)
        .await
        .json();
    assert_eq!(listed, json!([]), "hidden from its author too");
    assert_eq!(
        f.scalar(
            "SELECT comment_count::bigint FROM feed_posts WHERE id = $1",
            post
        )
        .await,
        0
    );
    // A hidden comment cannot be reported again.
    refused(
        &f.report(&f.joao, "comments", comment, None).await,
        StatusCode::NOT_FOUND,
        "Comentário não encontrado.",
    );

    // Activity comments are reported the same way.
    let action = f.activity(f.station_id, true, true).await;
    let on_action = f
        .call(
            &f.joao,
            "POST",
            "/api/comments-action",
            Some(json!({ "description": "Oi", "action": action })),
        )
        .await
        .json()["id"]
        .as_i64()
        .expect("comment");
    assert_eq!(
        f.report(&f.maria, "comments", on_action, None).await.status,
        StatusCode::CREATED
    );
    refused(
        &f.report(&f.stranger, "comments", on_action, None).await,
        StatusCode::NOT_FOUND,
        "Comentário não encontrado.",
    );
}

#[testkit::db_test]
async fn staff_keep_hide_and_remove_with_an_audit_row(db: PgPool) {
    let f = feed(db).await;
    let support = f.support().await;
    let post = f.post(&f.maria, "Reportado").await;
    let calm = f.post(&f.maria, "Tranquilo").await;
    let reporters = f.reporters(3).await;
    for (n, who) in reporters.iter().enumerate() {
        let reason = ["Spam", "", "Ofensivo"][n];
        f.report(who, "posts", post, Some(reason)).await;
    }
    f.report(&f.joao, "posts", calm, None).await;

    let listed = f.reported(&support, "").await;
    assert_eq!(listed["total"], 2);
    let item = &listed["items"][0];
    assert_eq!(item["kind"], "post");
    assert_eq!(item["id"], post);
    assert_eq!(item["stationId"], f.station_id);
    assert_eq!(item["description"], "Reportado");
    assert_eq!(item["author"]["id"], f.maria.id);
    assert_eq!(item["reports"], 3);
    assert_eq!(item["reasons"], json!(["Spam", "Ofensivo"]));
    assert_eq!(item["hidden"], true);
    assert_eq!(item["removed"], false);
    assert_eq!(item["reviewedAt"], json!(null));
    assert_eq!(item["decision"], json!(null));
    assert_eq!(listed["items"][1]["id"], calm);
    assert_eq!(listed["items"][1]["hidden"], false);

    // Keep: shown again, every open report closed, audited with the text.
    let kept = f.review(&support, "post", post, "keep").await;
    assert_eq!(kept.status, StatusCode::OK, "{}", kept.text);
    let kept = kept.json();
    assert_eq!(kept["hidden"], false);
    assert_eq!(kept["decision"], "keep");
    assert!(kept["reviewedAt"].is_string());
    assert!(f.seen(&f.joao, post).await.is_some());
    assert_eq!(
        f.scalar(
            "SELECT count(*) FROM feed_reports
              WHERE post_id = $1 AND reviewed_at IS NOT NULL AND decision = 'keep'",
            post
        )
        .await,
        3
    );
    let reviewed_by: Vec<Option<i64>> =
        sqlx::query_scalar("SELECT reviewed_by FROM feed_reports WHERE post_id = $1")
            .bind(post)
            .fetch_all(&f.db)
            .await
            .expect("reviewers");
    assert!(reviewed_by.iter().all(|by| *by == Some(support.id)));
    let audit: (i64, Option<i64>, Value) = sqlx::query_as(
        "SELECT user_id, station_id, details FROM staff_audit WHERE action = 'content.keep'",
    )
    .fetch_one(&f.db)
    .await
    .expect("audit row");
    assert_eq!(audit.0, support.id);
    assert_eq!(audit.1, Some(f.station_id));
    assert_eq!(audit.2["kind"], "post");
    assert_eq!(audit.2["id"], post);
    assert_eq!(audit.2["decision"], "keep");
    assert_eq!(audit.2["description"], "Reportado");
    assert_eq!(audit.2["reports_closed"], 3);

    // Reviewed items come after those with open reports, and filter by state.
    let listed = f.reported(&support, "").await;
    assert_eq!(ids(&listed["items"]), vec![calm, post]);
    let open = f.reported(&support, "?state=open").await;
    assert_eq!(
        (open["total"].clone(), ids(&open["items"])),
        (json!(1), vec![calm])
    );
    let reviewed = f.reported(&support, "?state=reviewed").await;
    assert_eq!(ids(&reviewed["items"]), vec![post]);

    // A fourth reporter after the review: open again, but under the threshold, shown.
    let late = f.reporters(4).await;
    f.report(&late[3], "posts", post, None).await;
    assert!(f.seen(&f.joao, post).await.is_some());

    // Hide, then remove: gone for good; nothing more to decide.
    let hidden = f.review(&support, "post", post, "hide").await.json();
    assert_eq!(
        (hidden["hidden"].clone(), hidden["decision"].clone()),
        (json!(true), json!("hide"))
    );
    assert!(f.seen(&f.maria, post).await.is_none());
    let removed = f.review(&support, "post", post, "remove").await;
    assert_eq!(removed.status, StatusCode::OK);
    assert_eq!(removed.json()["removed"], true);
    assert!(f.seen(&f.maria, post).await.is_none());
    refused(
        &f.review(&support, "post", post, "keep").await,
        StatusCode::CONFLICT,
        "Este conteúdo já foi removido.",
    );
    let actions: Vec<String> = sqlx::query_scalar("SELECT action FROM staff_audit ORDER BY id")
        .fetch_all(&f.db)
        .await
        .expect("audit");
    assert_eq!(actions, ["content.keep", "content.hide", "content.remove"]);

    // Bad calls: an unknown kind, a bad decision, an item never reported.
    refused(
        &f.review(&support, "video", post, "keep").await,
        StatusCode::NOT_FOUND,
        "Conteúdo não encontrado.",
    );
    assert_eq!(
        f.review(&support, "post", calm, "apagar").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let unreported = f.post(&f.maria, "Ninguém reclamou").await;
    refused(
        &f.review(&support, "post", unreported, "hide").await,
        StatusCode::NOT_FOUND,
        "Conteúdo não encontrado.",
    );
    let bad = f
        .call(
            &support,
            "GET",
            "/api/ops/reports?state=aberto&page=0&station_id=x",
            None,
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        bad.json(),
        json!({ "messages": ["Estação inválida.", "Estado inválido.", "Página inválida."] })
    );
}

/// Ten members report at once where three hide: the post is hidden once, by the third
/// report; the others find it gone (hidden items are not found, for reports too), and
/// nothing fails.
#[testkit::db_test]
async fn reports_crossing_the_threshold_at_once_hide_the_post_once(db: PgPool) {
    let wide = wide_pool(&db).await;
    let f = feed_with_app(db, common::app(wide)).await;
    let post = f.post(&f.maria, "Polêmico").await;
    let reporters = f.reporters(10).await;
    let answers = futures_util::future::join_all(
        reporters
            .iter()
            .map(|who| f.report(who, "posts", post, Some("Ofensivo"))),
    )
    .await;
    let mut statuses: Vec<StatusCode> = answers.iter().map(|answer| answer.status).collect();
    statuses.sort();
    let mut expected = vec![StatusCode::CREATED; 3];
    expected.extend([StatusCode::NOT_FOUND; 7]);
    assert_eq!(statuses, expected, "{answers:?}");
    for answer in answers.iter().filter(|a| a.status == StatusCode::NOT_FOUND) {
        refused(answer, StatusCode::NOT_FOUND, "Publicação não encontrada.");
    }
    assert_eq!(
        f.scalar("SELECT count(*) FROM feed_reports WHERE post_id = $1", post)
            .await,
        3
    );
    // Hidden in the transaction of one of the three (now() is its start).
    assert_eq!(
        f.scalar(
            "SELECT count(*) FROM feed_posts p WHERE p.id = $1
                AND p.hidden_at IN (SELECT created_at FROM feed_reports WHERE post_id = p.id)",
            post
        )
        .await,
        1
    );
    assert!(f.seen(&f.maria, post).await.is_none());

    // With a threshold of ten, all ten count and the tenth hides it.
    f.execute(
        "UPDATE stations SET feed_report_threshold = 10 WHERE id = $1",
        f.station_id,
    )
    .await;
    let other = f.post(&f.maria, "Outro").await;
    let answers = futures_util::future::join_all(
        reporters
            .iter()
            .map(|who| f.report(who, "posts", other, None)),
    )
    .await;
    assert!(
        answers.iter().all(|a| a.status == StatusCode::CREATED),
        "{answers:?}"
    );
    assert_eq!(
        f.scalar(
            "SELECT count(*) FROM feed_reports WHERE post_id = $1",
            other
        )
        .await,
        10
    );
    assert!(f.seen(&f.maria, other).await.is_none());
}

/// As for posts, and the post's count of comments drops once, not once per report.
#[testkit::db_test]
async fn reports_crossing_the_threshold_at_once_hide_a_comment_once(db: PgPool) {
    let wide = wide_pool(&db).await;
    let f = feed_with_app(db, common::app(wide)).await;
    let post = f.post(&f.maria, "Post").await;
    let mut comments = Vec::new();
    for text in ["Grosseria", "Educado"] {
        let answer = f
            .call(
                &f.joao,
                "POST",
                "/api/comments",
                Some(json!({ "description": text, "post": post })),
            )
            .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        comments.push(answer.json()["id"].as_i64().expect("comment"));
    }
    let reporters = f.reporters(10).await;
    let answers = futures_util::future::join_all(
        reporters
            .iter()
            .map(|who| f.report(who, "comments", comments[0], None)),
    )
    .await;
    let created = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .count();
    let not_found = answers
        .iter()
        .filter(|a| a.status == StatusCode::NOT_FOUND)
        .count();
    assert_eq!((created, not_found), (3, 7), "{answers:?}");
    assert_eq!(
        f.scalar(
            "SELECT count(*) FROM feed_reports WHERE comment_id = $1",
            comments[0]
        )
        .await,
        3
    );
    assert_eq!(
        f.scalar(
            "SELECT comment_count::bigint FROM feed_posts WHERE id = $1",
            post
        )
        .await,
        1
    );
    let listed = f
        .call(&f.maria, "GET", &format!("/api/comments/post/{post}"), None)
        .await
        .json();
    assert_eq!(ids(&listed), vec![comments[1]]);
}

/// Removing a post deletes its media from the store: /api/media serves them no more.
#[testkit::db_test]
async fn removing_a_post_deletes_its_image_and_video_files(db: PgPool) {
    let f = feed(db).await;
    let support = f.support().await;
    let mut png = Vec::new();
    image::RgbImage::from_pixel(4, 4, image::Rgb([10, 120, 200]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("encode");
    let pixel = base64::engine::general_purpose::STANDARD.encode(png);
    let answer = f
        .call(
            &f.maria,
            "POST",
            "/api/posts-image",
            Some(json!({ "base64": pixel, "description": "Foto", "station_id": f.station_id })),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let image_post = answer.json()["id"].as_i64().expect("id");
    let image = answer.json()["image"].as_str().expect("url").to_string();
    let video = f.stored_video(&f.maria).await;
    let answer = f
        .call(
            &f.maria,
            "POST",
            "/api/posts-vimeo",
            Some(
                json!({ "description": "Vídeo", "video_id": video.id, "station_id": f.station_id }),
            ),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let video_post = answer.json()["id"].as_i64().expect("id");
    for post in [image_post, video_post] {
        f.report(&f.joao, "posts", post, None).await;
    }
    for url in [&image, &video.url, &video.poster] {
        assert_eq!(common::get(&f.app, url).await.status, StatusCode::OK);
    }

    // Hidden, the media stay: a later keep shows the post again.
    let hidden = f.review(&support, "post", image_post, "hide").await;
    assert_eq!(hidden.json()["image"], image);
    assert_eq!(common::get(&f.app, &image).await.status, StatusCode::OK);

    for post in [image_post, video_post] {
        let removed = f.review(&support, "post", post, "remove").await;
        assert_eq!(removed.status, StatusCode::OK, "{}", removed.text);
        let removed = removed.json();
        assert_eq!(removed["removed"], true);
        assert_eq!(
            (removed["image"].clone(), removed["video"].clone()),
            (json!(null), json!(null)),
            "no dead links"
        );
    }
    for url in [&image, &video.url, &video.poster] {
        assert_eq!(
            common::get(&f.app, url).await.status,
            StatusCode::NOT_FOUND,
            "{url}"
        );
    }
    let listed = f.reported(&support, "").await;
    for item in listed["items"].as_array().expect("items") {
        assert_eq!(item["removed"], true);
        assert_eq!(
            (item["image"].clone(), item["video"].clone()),
            (json!(null), json!(null))
        );
    }
}

#[testkit::db_test]
async fn reviewing_a_comment_moves_its_posts_count(db: PgPool) {
    let f = feed(db).await;
    let support = f.support().await;
    let post = f.post(&f.maria, "Post").await;
    let comment = f
        .call(
            &f.joao,
            "POST",
            "/api/comments",
            Some(json!({ "description": "Comentário ruim", "post": post })),
        )
        .await
        .json()["id"]
        .as_i64()
        .expect("comment");
    let count = || {
        f.scalar(
            "SELECT comment_count::bigint FROM feed_posts WHERE id = $1",
            post,
        )
    };
    f.report(&f.maria, "comments", comment, Some("Ruim")).await;

    let hidden = f.review(&support, "comment", comment, "hide").await;
    assert_eq!(hidden.status, StatusCode::OK, "{}", hidden.text);
    assert_eq!(hidden.json()["kind"], "comment");
    assert_eq!(hidden.json()["description"], "Comentário ruim");
    assert_eq!(count().await, 0);
    let kept = f.review(&support, "comment", comment, "keep").await;
    assert_eq!(kept.json()["hidden"], false);
    assert_eq!(count().await, 1);
    let listed = f
        .call(&f.joao, "GET", &format!("/api/comments/post/{post}"), None)
        .await
        .json();
    assert_eq!(ids(&listed), vec![comment]);
    assert_eq!(
        f.review(&support, "comment", comment, "remove")
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(count().await, 0);
    assert_eq!(
        f.call(&f.joao, "GET", &format!("/api/comments/post/{post}"), None)
            .await
            .json(),
        json!([])
    );
}

#[testkit::db_test]
async fn viewers_only_read_and_other_stations_staff_reach_nothing(db: PgPool) {
    let f = feed(db).await;
    let post = f.post(&f.maria, "Reportado").await;
    f.report(&f.joao, "posts", post, None).await;
    let viewer = f
        .staff(
            "leitor@example.com",
            Role::Viewer,
            Scope::Station(f.station_id),
        )
        .await;
    let elsewhere = f
        .staff(
            "longe@example.com",
            Role::Support,
            Scope::Station(f.other_station_id),
        )
        .await;
    let everywhere = f
        .staff("todos@example.com", Role::Support, Scope::AllStations)
        .await;

    assert_eq!(f.reported(&viewer, "").await["total"], 1);
    let refused_review = f.review(&viewer, "post", post, "hide").await;
    refused(
        &refused_review,
        StatusCode::FORBIDDEN,
        "Seu perfil permite apenas consultar.",
    );

    let theirs = f.reported(&elsewhere, "").await;
    assert_eq!(theirs, json!({ "items": [], "total": 0 }));
    let asked = f
        .reported(&elsewhere, &format!("?station_id={}", f.station_id))
        .await;
    assert_eq!(
        asked["total"], 0,
        "a station outside the grant shows nothing"
    );
    refused(
        &f.review(&elsewhere, "post", post, "hide").await,
        StatusCode::NOT_FOUND,
        "Conteúdo não encontrado.",
    );
    // A member is not staff.
    let member = f.call(&f.joao, "GET", "/api/ops/reports", None).await;
    assert_eq!(member.status, StatusCode::FORBIDDEN);

    assert_eq!(
        f.reported(&everywhere, &format!("?station_id={}", f.station_id))
            .await["total"],
        1
    );
    assert_eq!(
        f.review(&everywhere, "post", post, "hide").await.status,
        StatusCode::OK
    );
    assert_eq!(
        f.scalar(
            "SELECT count(*) FROM staff_audit WHERE station_id = $1",
            f.station_id
        )
        .await,
        1
    );
}

#[testkit::db_test]
async fn reporting_is_limited_to_twenty_an_hour(db: PgPool) {
    let f = feed(db).await;
    let mut posts = Vec::new();
    for n in 0..10 {
        posts.push(f.post(&f.maria, &format!("Post {n}")).await);
    }
    for n in 0..20 {
        let answer = f
            .report(&f.joao, "posts", posts[n % posts.len()], None)
            .await;
        assert!(answer.status.is_success(), "{}", answer.text);
    }
    refused(
        &f.report(&f.joao, "posts", posts[0], None).await,
        StatusCode::TOO_MANY_REQUESTS,
        TOO_MANY,
    );
    assert_eq!(
        f.scalar(
            "SELECT count(*) FROM feed_reports WHERE user_id = $1",
            f.joao.id
        )
        .await,
        10,
        "repeats answered but counted once"
    );
}
