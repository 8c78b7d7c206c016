//! The demo station's content: news with drawn pictures (one a draft), downloads drawn as
//! PDFs (one private, stored where the media route never serves), transparency documents
//! over three years; a second seed changes nothing.

use domain::infra::objects::{Objects, PRIVATE_ROOT};
use seed::demo::{self, content};
use sqlx::PgPool;

async fn snapshot(db: &PgPool) -> serde_json::Value {
    sqlx::query_scalar(
        "SELECT jsonb_build_object(
             'news', (SELECT jsonb_agg(n ORDER BY id) FROM station_news n),
             'downloads', (SELECT jsonb_agg(d ORDER BY id) FROM station_downloads d),
             'documents', (SELECT jsonb_agg(t ORDER BY id) FROM transparency_documents t))",
    )
    .fetch_one(db)
    .await
    .expect("snapshot")
}

#[testkit::db_test]
async fn the_demo_content_has_news_files_and_three_years_of_documents_and_seeds_once(db: PgPool) {
    let dir = std::env::temp_dir().join(format!("filia-demo-content-{}", ulid::Ulid::generate()));
    let objects = Objects::local(&dir).expect("objects");
    let fonts = std::path::Path::new(documents::DEFAULT_FONT_DIR);
    let station = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    content::seed(&db, &objects, fonts, &station)
        .await
        .expect("content");
    let before = snapshot(&db).await;

    let news: Vec<(String, bool, String)> = sqlx::query_as(
        "SELECT title, published, image_key FROM station_news WHERE station_id = $1 ORDER BY id",
    )
    .bind(station.station_id)
    .fetch_all(&db)
    .await
    .expect("news");
    assert_eq!(
        news.iter().filter(|(_, published, _)| *published).count(),
        3
    );
    assert!(
        news.iter()
            .any(|(title, published, _)| title == content::DRAFT_NEWS_TITLE && !published)
    );
    for (_, _, key) in &news {
        let picture = objects.get(key).await.expect("read").expect("picture");
        assert_eq!(picture.content_type, "image/png");
        image::load_from_memory(&picture.bytes).expect("a PNG");
    }

    let files: Vec<(String, bool, String, i64)> = sqlx::query_as(
        "SELECT title, private, file_key, size_bytes FROM station_downloads
          WHERE station_id = $1 ORDER BY id",
    )
    .bind(station.station_id)
    .fetch_all(&db)
    .await
    .expect("downloads");
    assert_eq!(files.len(), 3);
    for (title, private, key, size) in &files {
        assert_eq!(
            *private,
            title == content::PRIVATE_DOWNLOAD_TITLE,
            "{title}"
        );
        assert_eq!(key.starts_with(PRIVATE_ROOT), *private, "{key}");
        let file = objects.get(key).await.expect("read").expect("file");
        assert!(file.bytes.starts_with(b"%PDF"), "{title} is a PDF");
        assert_eq!(file.bytes.len() as i64, *size);
    }

    let years: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT year FROM transparency_documents WHERE station_id = $1 ORDER BY year",
    )
    .bind(station.station_id)
    .fetch_all(&db)
    .await
    .expect("years");
    assert_eq!(years, ["2024", "2025", "2026"]);

    content::seed(&db, &objects, fonts, &station)
        .await
        .expect("again");
    assert_eq!(snapshot(&db).await, before);
    let _ = std::fs::remove_dir_all(&dir);
}
