//! A station's content over HTTP against the real database: news, downloads (public and
//! private files) and transparency documents; only the caller's station's published items,
//! paged; bodies stored sanitised; a private file only to a member of its station.

use crate::common::{self, Answer, call, insert_member, insert_station, session_of};
use axum::Router;
use axum::http::StatusCode;
use chrono::{Duration, Utc};
use domain::content::{downloads, news, transparency};
use domain::infra::objects::Objects;
use serde_json::{Value, json};
use sqlx::PgPool;

struct World {
    app: Router,
    db: PgPool,
    objects: Objects,
    station_id: i64,
    token: String,
    other_station_id: i64,
    other_token: String,
}

async fn world(db: PgPool) -> World {
    let station_id = insert_station(&db, "clube").await;
    let member_id = insert_member(&db, station_id, "maria@example.com").await;
    let other_station_id = insert_station(&db, "outro").await;
    let other_member_id = insert_member(&db, other_station_id, "joao@example.com").await;
    World {
        app: common::app(db.clone()),
        objects: Objects::from_config(&common::config_with(&[])).expect("objects"),
        token: session_of(&db, member_id).await,
        other_token: session_of(&db, other_member_id).await,
        db,
        station_id,
        other_station_id,
    }
}

impl World {
    async fn get(&self, uri: &str, token: Option<&str>) -> Answer {
        call(&self.app, "GET", uri, token, &[]).await
    }

    async fn news(&self, station_id: i64, title: &str, published: bool, days_ago: i64) -> i64 {
        news::create(
            &self.db,
            &news::NewNews {
                station_id,
                title: title.into(),
                subtitle: format!("Subtítulo de {title}"),
                body: "<p>Texto <strong>forte</strong><script>alert(1)</script></p>\
                       <a href=\"javascript:alert(1)\" onclick=\"x()\">link</a>"
                    .into(),
                image_key: Some(format!("news/{station_id}/{title}.png").replace(' ', "-")),
                published,
                published_at: Some(Utc::now() - Duration::days(days_ago)),
            },
        )
        .await
        .expect("news")
    }

    async fn download(&self, station_id: i64, title: &str, private: bool, published: bool) -> i64 {
        let file_key = downloads::new_file_key(station_id, private, "pdf");
        let bytes = format!("%PDF-1.4 {title}").into_bytes();
        let size = bytes.len() as i64;
        self.objects.put(&file_key, bytes).await.expect("file");
        downloads::create(
            &self.db,
            &downloads::NewDownload {
                station_id,
                name: title.into(),
                title: title.into(),
                subtitle: "Sub".into(),
                description: "Descrição".into(),
                body: "<p>Corpo</p><img src=x onerror=alert(1)>".into(),
                file_key,
                content_type: "application/pdf".into(),
                size,
                private,
                published,
                published_at: None,
            },
        )
        .await
        .expect("download")
    }

    async fn document(&self, station_id: i64, nome: &str, published: bool) -> i64 {
        let file_key = transparency::new_file_key(station_id, "pdf");
        self.objects
            .put(&file_key, b"%PDF-1.4".to_vec())
            .await
            .expect("file");
        transparency::create(
            &self.db,
            &transparency::NewDocument {
                station_id,
                nome: nome.into(),
                file_key,
                content_type: "application/pdf".into(),
                size: 8,
                published,
            },
        )
        .await
        .expect("document")
    }
}

fn titles(answer: &Answer, field: &str) -> Vec<String> {
    answer
        .json()
        .as_array()
        .expect("a list")
        .iter()
        .map(|item| item[field].as_str().expect("text").to_string())
        .collect()
}

fn total(answer: &Answer) -> &str {
    answer.headers["x-total-count"].to_str().expect("header")
}

#[testkit::db_test]
async fn news_lists_the_stations_published_items_newest_first_and_shows_one_sanitised(db: PgPool) {
    let world = world(db).await;
    let old = world.news(world.station_id, "Antiga", true, 10).await;
    world.news(world.station_id, "Recente", true, 1).await;
    world.news(world.station_id, "Meio", true, 5).await;
    let draft = world.news(world.station_id, "Rascunho", false, 0).await;
    let scheduled = world.news(world.station_id, "Agendada", true, -3).await;
    let others = world
        .news(world.other_station_id, "De outro clube", true, 0)
        .await;
    let list = format!("/api/news/?where[station_id]={}", world.station_id);

    let answer = world.get(&list, Some(&world.token)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(titles(&answer, "title"), ["Recente", "Meio", "Antiga"]);
    assert_eq!(total(&answer), "3");
    let first = &answer.json()[0];
    assert_eq!(first["subtitle"], "Subtítulo de Recente");
    assert!(
        first["image"]
            .as_str()
            .is_some_and(|url| url.starts_with("/api/media/news/"))
    );
    assert!(first.get("body").is_none(), "the list carries no bodies");

    // Absent means the caller's station.
    let answer = world.get("/api/news/", Some(&world.token)).await;
    assert_eq!(titles(&answer, "title"), ["Recente", "Meio", "Antiga"]);

    let answer = world
        .get(&format!("/api/news/{old}"), Some(&world.token))
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let item = answer.json();
    assert_eq!(item["title"], "Antiga");
    assert_eq!(
        item["body"],
        "<p>Texto <strong>forte</strong></p><a rel=\"noopener noreferrer nofollow\">link</a>"
    );

    for hidden in [draft, scheduled, others] {
        let answer = world
            .get(&format!("/api/news/{hidden}"), Some(&world.token))
            .await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{hidden}");
        assert_eq!(answer.json(), json!({"error": "Notícia não encontrada"}));
        assert_eq!(common::off_contract("get", "/api/news/{id}", &answer), None);
    }
}

#[testkit::db_test]
async fn news_pages_and_refuses_other_stations_visitors_and_bad_queries(db: PgPool) {
    let world = world(db).await;
    for (index, title) in ["A", "B", "C", "D", "E"].into_iter().enumerate() {
        world
            .news(world.station_id, title, true, index as i64)
            .await;
    }
    let list = format!("/api/news/?where[station_id]={}", world.station_id);

    let answer = world
        .get(&format!("{list}&limit=2&offset=2"), Some(&world.token))
        .await;
    assert_eq!(titles(&answer, "title"), ["C", "D"]);
    assert_eq!(total(&answer), "5");
    let answer = world
        .get(&format!("{list}&limit=2&offset=4"), Some(&world.token))
        .await;
    assert_eq!(titles(&answer, "title"), ["E"]);

    let others = format!("/api/news/?where[station_id]={}", world.other_station_id);
    let answer = world.get(&others, Some(&world.token)).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    assert_eq!(
        answer.json(),
        json!({"messages": ["Você não possui autorização para acessar esta página."]})
    );

    // Another station's member reads their own station's (empty) news, never ours.
    let answer = world.get("/api/news/", Some(&world.other_token)).await;
    assert_eq!(answer.json(), json!([]));
    assert_eq!(total(&answer), "0");

    let answer = world.get(&list, None).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);

    for (bad, message) in [
        (
            "/api/news/?where[station_id]=abc",
            "Parâmetro inválido na URL",
        ),
        (
            "/api/news/?limit=0",
            "O parâmetro limit deve ser um número inteiro de 1 a 100.",
        ),
        (
            "/api/news/?limit=101",
            "O parâmetro limit deve ser um número inteiro de 1 a 100.",
        ),
        (
            "/api/news/?offset=-1",
            domain::shared::paging::OFFSET_REFUSED,
        ),
    ] {
        let answer = world.get(bad, Some(&world.token)).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}");
        assert_eq!(answer.json(), json!({"messages": [message]}), "{bad}");
    }
    let answer = world.get("/api/news/abc", Some(&world.token)).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
}

#[testkit::db_test]
async fn downloads_list_public_and_private_files_of_the_station(db: PgPool) {
    let world = world(db).await;
    let public = world
        .download(world.station_id, "Estatuto", false, true)
        .await;
    let private = world
        .download(world.station_id, "Convenção", true, true)
        .await;
    let hidden = world
        .download(world.station_id, "Rascunho", false, false)
        .await;
    let others = world
        .download(world.other_station_id, "Alheio", false, true)
        .await;
    let list = format!("/api/downloads/?where[station_id]={}", world.station_id);

    let answer = world.get(&list, Some(&world.token)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    // Newest first: the private one was made last.
    assert_eq!(titles(&answer, "title"), ["Convenção", "Estatuto"]);
    assert_eq!(total(&answer), "2");
    let items = answer.json();
    assert_eq!(items[0]["private"], true);
    assert_eq!(items[0]["file"], format!("/api/downloads/{private}/file"));
    assert_eq!(items[1]["private"], false);
    let public_url = items[1]["file"].as_str().expect("a URL").to_string();
    assert!(public_url.starts_with(&format!("/api/media/downloads/{}/", world.station_id)));
    assert_eq!(items[1]["content_type"], "application/pdf");
    assert_eq!(items[1]["size"], "%PDF-1.4 Estatuto".len());

    let answer = world
        .get(&format!("/api/downloads/{public}"), Some(&world.token))
        .await;
    assert_eq!(answer.status, StatusCode::OK);
    let item: Value = answer.json();
    assert_eq!(item["title"], "Estatuto");
    assert_eq!(item["description"], "Descrição");
    assert_eq!(item["body"], "<p>Corpo</p>");

    for gone in [hidden, others] {
        for uri in [
            format!("/api/downloads/{gone}"),
            format!("/api/downloads/{gone}/file"),
        ] {
            let answer = world.get(&uri, Some(&world.token)).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{uri}");
            assert_eq!(answer.json(), json!({"error": "Arquivo não encontrado"}));
        }
    }
    let answer = world
        .get(
            &format!(
                "/api/downloads/?where[station_id]={}",
                world.other_station_id
            ),
            Some(&world.token),
        )
        .await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    assert_eq!(
        common::off_contract("get", "/api/downloads/", &answer),
        None
    );
    let answer = world.get(&list, None).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    let answer = world
        .get(&format!("{list}&limit=x"), Some(&world.token))
        .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let answer = world
        .get(&format!("{list}&limit=1&offset=1"), Some(&world.token))
        .await;
    assert_eq!(titles(&answer, "title"), ["Estatuto"]);

    // The public file is a stored object like a picture.
    let answer = world.get(&public_url, None).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.headers["content-type"], "application/pdf");
    assert_eq!(answer.text, "%PDF-1.4 Estatuto");
}

#[testkit::db_test]
async fn a_station_whose_menu_hides_files_shows_no_download(db: PgPool) {
    let world = world(db).await;
    let id = world
        .download(world.station_id, "Estatuto", false, true)
        .await;
    sqlx::query("UPDATE stations SET files_access = false WHERE id = $1")
        .bind(world.station_id)
        .execute(&world.db)
        .await
        .expect("files off");
    let list = format!("/api/downloads/?where[station_id]={}", world.station_id);

    let answer = world.get(&list, Some(&world.token)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(total(&answer), "0");
    for uri in [
        format!("/api/downloads/{id}"),
        format!("/api/downloads/{id}/file"),
    ] {
        let answer = world.get(&uri, Some(&world.token)).await;
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "{uri}: {}",
            answer.text
        );
    }
}

#[testkit::db_test]
async fn a_private_file_is_served_to_members_of_its_station_only(db: PgPool) {
    let world = world(db).await;
    let private = world
        .download(world.station_id, "Convenção 2026", true, true)
        .await;
    let file = format!("/api/downloads/{private}/file");

    let answer = world.get(&file, Some(&world.token)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.text, "%PDF-1.4 Convenção 2026");
    assert_eq!(answer.headers["content-type"], "application/pdf");
    assert_eq!(answer.headers["cache-control"], "private, no-store");
    assert_eq!(
        answer.headers["content-disposition"],
        "attachment; filename=\"Convencao-2026.pdf\""
    );

    // A visitor, and a member of another station.
    let answer = world.get(&file, None).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        common::off_contract("get", "/api/downloads/{id}/file", &answer),
        None
    );
    let answer = world.get(&file, Some(&world.other_token)).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.json(), json!({"error": "Arquivo não encontrado"}));
    assert_eq!(
        common::off_contract("get", "/api/downloads/{id}/file", &answer),
        None
    );

    // Nor through the public media route, whoever asks.
    let key: String = sqlx::query_scalar("SELECT file_key FROM station_downloads WHERE id = $1")
        .bind(private)
        .fetch_one(&world.db)
        .await
        .expect("key");
    assert!(key.starts_with("private/downloads/"));
    for token in [None, Some(world.token.as_str())] {
        let answer = world.get(&format!("/api/media/{key}"), token).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND);
    }
}

#[testkit::db_test]
async fn transparency_lists_the_stations_documents_newest_year_first(db: PgPool) {
    let world = world(db).await;
    world
        .document(world.station_id, "Balancete - 2024", true)
        .await;
    world
        .document(world.station_id, "Relatório anual/2025", true)
        .await;
    world.document(world.station_id, "Ata geral", true).await;
    world
        .document(world.station_id, "Balancete - 2025", true)
        .await;
    world
        .document(world.station_id, "Rascunho - 2026", false)
        .await;
    world
        .document(world.other_station_id, "Alheio - 2026", true)
        .await;

    let answer = world.get("/api/transparency", Some(&world.token)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(
        titles(&answer, "nome"),
        [
            "Balancete - 2025",
            "Relatório anual/2025",
            "Balancete - 2024",
            "Ata geral"
        ]
    );
    assert_eq!(total(&answer), "4");
    let items = answer.json();
    assert_eq!(items[0]["year"], "2025");
    assert_eq!(items[3]["year"], Value::Null);
    let url = items[0]["anexo"]["url"].as_str().expect("a URL");
    assert!(url.starts_with(&format!("/api/media/transparency/{}/", world.station_id)));
    assert_eq!(world.get(url, None).await.status, StatusCode::OK);

    let answer = world
        .get("/api/transparency?limit=1&offset=1", Some(&world.token))
        .await;
    assert_eq!(titles(&answer, "nome"), ["Relatório anual/2025"]);

    let answer = world
        .get("/api/transparency", Some(&world.other_token))
        .await;
    assert_eq!(titles(&answer, "nome"), ["Alheio - 2026"]);

    let answer = world.get("/api/transparency", None).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        common::off_contract("get", "/api/transparency", &answer),
        None
    );
    let answer = world
        .get("/api/transparency?offset=x", Some(&world.token))
        .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        common::off_contract("get", "/api/transparency", &answer),
        None
    );
}

#[testkit::db_test]
async fn transparency_pages_follow_the_years_across_page_boundaries(db: PgPool) {
    let world = world(db).await;
    for nome in [
        "Balancete - 2023",
        "Ata - 2025",
        "Relatório/2024",
        "Balancete - 2025",
        "Parecer - 2024",
        "Estatuto",
    ] {
        world.document(world.station_id, nome, true).await;
    }
    // Unpublished and another station's documents in the same years never show nor count.
    world
        .document(world.station_id, "Rascunho - 2025", false)
        .await;
    world
        .document(world.station_id, "Rascunho - 2024", false)
        .await;
    world
        .document(world.other_station_id, "Alheio - 2025", true)
        .await;
    world
        .document(world.other_station_id, "Alheio - 2024", true)
        .await;

    let whole = [
        "Ata - 2025",
        "Balancete - 2025",
        "Parecer - 2024",
        "Relatório/2024",
        "Balancete - 2023",
        "Estatuto",
    ];
    let mut walked = Vec::new();
    for (offset, expected) in [
        (0, &whole[0..3]),
        (3, &whole[3..6]),
        (6, &[][..]),
        (50, &[][..]),
    ] {
        let answer = world
            .get(
                &format!("/api/transparency?limit=3&offset={offset}"),
                Some(&world.token),
            )
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        assert_eq!(titles(&answer, "nome"), expected, "offset {offset}");
        assert_eq!(total(&answer), "6", "offset {offset}");
        walked.extend(titles(&answer, "nome"));
    }
    // The pages concatenated are the whole list: 2024 starts on the first page and ends on
    // the second, with nothing skipped or repeated.
    assert_eq!(walked, whole);
    let answer = world.get("/api/transparency", Some(&world.token)).await;
    assert_eq!(titles(&answer, "nome"), whole);

    let answer = world
        .get("/api/transparency?limit=1", Some(&world.other_token))
        .await;
    assert_eq!(titles(&answer, "nome"), ["Alheio - 2025"]);
    assert_eq!(total(&answer), "2");

    let answer = world
        .get("/api/transparency?limit=101", Some(&world.token))
        .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answer.json()["messages"][0],
        domain::shared::paging::LIMIT_REFUSED
    );
}

#[testkit::db_test]
async fn news_carry_their_picture_s_srcset_once_the_job_ran_and_only_to_their_station(db: PgPool) {
    let world = world(db).await;
    let key = format!(
        "news/{}/capa.png",
        ulid::Ulid::generate().to_string().to_lowercase()
    );
    let palette = seed::demo::art::Palette {
        from: [38, 84, 160],
        to: [90, 180, 220],
    };
    world
        .objects
        .put(
            &key,
            seed::demo::art::banner((1200, 400), palette, 2).expect("art"),
        )
        .await
        .expect("stored");
    let id = news::create(
        &world.db,
        &news::NewNews {
            station_id: world.station_id,
            title: "Com foto".into(),
            subtitle: "Sub".into(),
            body: "<p>Texto</p>".into(),
            image_key: Some(key.clone()),
            published: true,
            published_at: None,
        },
    )
    .await
    .expect("news");
    let list = format!("/api/news/?where[station_id]={}", world.station_id);
    let item = format!("/api/news/{id}");

    let before = world.get(&list, Some(&world.token)).await;
    assert_eq!(before.json()[0]["image_srcset"], Value::Null);

    let mut tx = world.db.begin().await.expect("tx");
    app::Outbox::make_image_variants(&jobs::JobOutbox, &mut tx, world.station_id, &key)
        .await
        .expect("queued");
    tx.commit().await.expect("commit");
    common::run_jobs::<jobs::kinds::ImageVariants>(&world.db, "image.variants", true).await;

    let stem = key.trim_end_matches(".png");
    let srcset = format!(
        "/api/media/{stem}.480w.jpg 480w, /api/media/{stem}.960w.jpg 960w, /api/media/{key} 1200w"
    );
    let answer = world.get(&list, Some(&world.token)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.json()[0]["image"], format!("/api/media/{key}"));
    assert_eq!(answer.json()[0]["image_srcset"], srcset);
    let answer = world.get(&item, Some(&world.token)).await;
    assert_eq!(answer.json()["image_srcset"], srcset);

    // Another station's member sees neither the item nor its picture's widths.
    let answer = world.get(&item, Some(&world.other_token)).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert!(!answer.text.contains("480w"));
    let answer = world.get(&list, Some(&world.other_token)).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
}
