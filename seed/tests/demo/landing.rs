//! The demo's landing page: three slides, a section of every type in order, an about page
//! its links open, pictures stored here; a second seed changes nothing.

use domain::infra::objects::Objects;
use domain::shared::ids::StationId;
use domain::stations::landing;
use seed::demo::{self, landing as demo_landing};
use serde_json::Value;
use sqlx::PgPool;

async fn snapshot(db: &PgPool) -> Value {
    sqlx::query_scalar(
        "SELECT jsonb_build_object(
             'slides', (SELECT jsonb_agg(s ORDER BY id) FROM landing_slides s),
             'sections', (SELECT jsonb_agg(s ORDER BY id) FROM landing_sections s),
             'items', (SELECT jsonb_agg(i ORDER BY id) FROM landing_items i),
             'about', (SELECT jsonb_agg(a ORDER BY id) FROM about_pages a))",
    )
    .fetch_one(db)
    .await
    .expect("snapshot")
}

#[testkit::db_test]
async fn the_demo_landing_has_every_section_type_three_slides_and_an_about_page(db: PgPool) {
    let dir = std::env::temp_dir().join(format!("filia-demo-landing-{}", ulid::Ulid::generate()));
    let objects = Objects::local(&dir).expect("objects");
    let station = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    demo_landing::seed(&db, &objects, &station)
        .await
        .expect("landing");
    let before = snapshot(&db).await;

    let mut conn = db.acquire().await.expect("connection");
    let page = landing::landing(&mut conn, StationId(station.station_id))
        .await
        .expect("landing");
    let titles: Vec<&str> = page.slides.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(titles, demo_landing::SLIDE_TITLES);
    let types: Vec<i16> = page.sections.iter().map(|s| s.type_id.id()).collect();
    assert_eq!(types, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert_eq!(page.about_pages.len(), 1);
    assert_eq!(page.about_pages[0].title, demo_landing::ABOUT_TITLE);
    let about = landing::about_page(
        &mut conn,
        StationId(station.station_id),
        page.about_pages[0].id,
    )
    .await
    .expect("about page");
    assert_eq!(about.paragraphs.len(), 3);
    // Every picture the landing names is stored, and is a PNG drawn here.
    let keys = page
        .slides
        .iter()
        .map(|s| s.image_key.clone())
        .chain(
            page.sections
                .iter()
                .flat_map(|s| s.items.iter().filter_map(|i| i.image_key.clone())),
        )
        .chain(about.image_key.clone());
    for key in keys {
        let object = objects.get(&key).await.expect("read").expect("stored");
        assert!(object.bytes.starts_with(b"\x89PNG"), "{key}");
    }
    drop(conn);

    demo_landing::seed(&db, &objects, &station)
        .await
        .expect("again");
    assert_eq!(snapshot(&db).await, before);
    let _ = std::fs::remove_dir_all(dir);
}
