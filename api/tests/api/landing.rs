//! The visitors' landing page: `GET /api/stations/{id}/landing` and the about pages
//! (`GET /api/station-about-participant/{id}/{station}`).

use crate::common::{call, get, insert_station};
use axum::http::StatusCode;
use domain::shared::ids::StationId;
use domain::stations::landing::{
    self, Background, LandingError, LinkInput, NewAboutPage, NewItem, NewSection, NewSlide,
    SectionType,
};
use serde_json::json;
use sqlx::PgPool;
use testkit::build;

fn section(position: i32, type_id: SectionType) -> NewSection<'static> {
    NewSection {
        position,
        type_id,
        title: Some("Seção"),
        subtitle: None,
        title_color: None,
        text_color: None,
        background: Background::Color(None),
    }
}

/// A landing with every section type, inserted out of order, and two slides.
async fn every_type(db: &PgPool, station: StationId) -> i64 {
    let about = landing::upsert_about_page(
        db,
        station,
        &NewAboutPage {
            title: "Quem somos",
            body: "Somos um clube.\n\nDesde 1990.",
            image_key: Some("landing/sobre.png"),
        },
    )
    .await
    .expect("about page");
    for (position, title) in [(2, "Segundo slide"), (1, "Primeiro slide")] {
        landing::insert_slide(
            db,
            station,
            &NewSlide {
                position,
                title,
                image_key: "landing/slide.png",
                link: LinkInput {
                    link_type: "signup",
                    ..LinkInput::default()
                },
                button_label: Some("Cadastre-se"),
                ..NewSlide::default()
            },
        )
        .await
        .expect("slide");
    }
    // Positions 90, 80, ... 10: inserted in the reverse of the order they answer in.
    for type_id in SectionType::ALL.into_iter().rev() {
        let mut new = section(i32::from(type_id.id()) * 10, type_id);
        if type_id == SectionType::CentredText {
            new.background = Background::Image("landing/fundo.png".into());
            new.title_color = Some("#FFFFFF");
        }
        let id = landing::insert_section(db, station, &new)
            .await
            .expect("section");
        if type_id == SectionType::Blocks {
            for (position, link) in [
                (
                    2,
                    LinkInput {
                        link_type: "external",
                        external_link: Some("https://www.gov.br"),
                        ..LinkInput::default()
                    },
                ),
                (
                    1,
                    LinkInput {
                        link_type: "additional",
                        about_page_id: Some(about),
                        ..LinkInput::default()
                    },
                ),
            ] {
                landing::insert_item(
                    db,
                    station,
                    id,
                    &NewItem {
                        position,
                        name: Some("Bloco"),
                        image_key: Some("landing/bloco.png"),
                        video_id: (position == 2).then_some("dQw4w9WgXcQ"),
                        link,
                        image_left: position == 1,
                        ..NewItem::default()
                    },
                )
                .await
                .expect("item");
            }
        }
    }
    about
}

#[testkit::db_test]
async fn the_landing_answers_slides_and_sections_in_order_with_their_items(db: PgPool) {
    let station = build::station("landing").insert(&db).await;
    let about = every_type(&db, StationId(station)).await;
    let app = crate::common::app(db);

    let answer = get(&app, &format!("/api/stations/{station}/landing")).await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let body = answer.json();
    let titles: Vec<&str> = body["slides"]
        .as_array()
        .expect("slides")
        .iter()
        .map(|s| s["title"].as_str().expect("title"))
        .collect();
    assert_eq!(titles, ["Primeiro slide", "Segundo slide"]);
    assert_eq!(body["slides"][0]["image"], "/api/media/landing/slide.png");
    assert_eq!(body["slides"][0]["link_type"], "signup");
    assert_eq!(body["slides"][0]["button_label"], "Cadastre-se");

    let types: Vec<i64> = body["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .map(|s| s["type_id"].as_i64().expect("type"))
        .collect();
    assert_eq!(types, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    let blocks = &body["sections"][1];
    assert_eq!(blocks["background_type"], "color");
    assert_eq!(
        blocks["items"],
        json!([
            {
                "id": blocks["items"][0]["id"], "name": "Bloco", "description": null,
                "image": "/api/media/landing/bloco.png", "image_srcset": null, "video": null,
                "video_id": null,
                "link_type": "additional", "external_link": null, "about_page_id": about,
                "button_label": null, "image_left": true
            },
            {
                "id": blocks["items"][1]["id"], "name": "Bloco", "description": null,
                "image": "/api/media/landing/bloco.png", "image_srcset": null, "video": null,
                "video_id": "dQw4w9WgXcQ", "link_type": "external",
                "external_link": "https://www.gov.br", "about_page_id": null,
                "button_label": null, "image_left": false
            }
        ])
    );
    let centred = &body["sections"][3];
    assert_eq!(centred["background_type"], "image");
    assert_eq!(centred["background_image"], "/api/media/landing/fundo.png");
    assert_eq!(centred["title_color"], "#FFFFFF");
    assert_eq!(body["sections"][0]["items"], json!([]));
    assert_eq!(
        body["about_pages"],
        json!([{ "id": about, "title": "Quem somos" }])
    );
}

#[testkit::db_test]
async fn the_landing_is_cacheable_and_answers_304_to_its_etag(db: PgPool) {
    let station = build::station("landing").insert(&db).await;
    every_type(&db, StationId(station)).await;
    let app = crate::common::app(db.clone());
    let uri = format!("/api/stations/{station}/landing");

    let first = get(&app, &uri).await;
    let etag = first.headers["etag"].to_str().expect("etag").to_owned();
    assert!(
        first.headers["cache-control"]
            .to_str()
            .expect("cache")
            .starts_with("public, max-age=60")
    );

    let again = call(&app, "GET", &uri, None, &[("if-none-match", &etag)]).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.text.is_empty());

    // A change makes a new version.
    landing::insert_section(
        &db,
        StationId(station),
        &section(95, SectionType::CentredText),
    )
    .await
    .expect("section");
    let changed = call(&app, "GET", &uri, None, &[("if-none-match", &etag)]).await;
    assert_eq!(changed.status, StatusCode::OK);
    assert_ne!(changed.headers["etag"].to_str().expect("etag"), etag);
}

#[testkit::db_test]
async fn a_station_without_landing_answers_an_empty_one_and_an_unknown_station_404(db: PgPool) {
    let station = build::station("vazia").insert(&db).await;
    let app = crate::common::app(db);

    let empty = get(&app, &format!("/api/stations/{station}/landing")).await;
    assert_eq!(empty.status, StatusCode::OK);
    assert_eq!(
        empty.json(),
        json!({ "slides": [], "sections": [], "about_pages": [] })
    );

    let unknown = get(&app, "/api/stations/999999/landing").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.json(), json!({ "error": "Estação não encontrada" }));
}

#[testkit::db_test]
async fn an_about_page_answers_its_paragraphs_and_only_to_its_station(db: PgPool) {
    let station = build::station("landing").insert(&db).await;
    let other = insert_station(&db, "outro").await;
    let about = every_type(&db, StationId(station)).await;
    let app = crate::common::app(db);

    let page = get(
        &app,
        &format!("/api/station-about-participant/{about}/{station}"),
    )
    .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert_eq!(
        page.json(),
        json!({
            "id": about, "station_id": station, "title": "Quem somos",
            "paragraphs": ["Somos um clube.", "Desde 1990."],
            "image": "/api/media/landing/sobre.png", "image_srcset": null
        })
    );
    assert!(page.headers.contains_key("etag"));

    let elsewhere = get(
        &app,
        &format!("/api/station-about-participant/{about}/{other}"),
    )
    .await;
    assert_eq!(elsewhere.status, StatusCode::NOT_FOUND);
    assert_eq!(
        elsewhere.json(),
        json!({ "error": "Página não encontrada" })
    );

    let missing = get(
        &app,
        &format!("/api/station-about-participant/999999/{station}"),
    )
    .await;
    assert_eq!(missing.json(), json!({ "error": "Página não encontrada" }));

    let no_station = get(
        &app,
        &format!("/api/station-about-participant/{about}/999999"),
    )
    .await;
    assert_eq!(no_station.status, StatusCode::NOT_FOUND);
    assert_eq!(
        no_station.json(),
        json!({ "error": "Estação não encontrada" })
    );

    let bad = get(&app, "/api/station-about-participant/abc/1").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[testkit::db_test]
async fn links_are_validated_and_never_reach_another_station_s_page(db: PgPool) {
    let station = build::station("landing").insert(&db).await;
    let other = insert_station(&db, "outro").await;
    let about = every_type(&db, StationId(station)).await;
    let other_section =
        landing::insert_section(&db, StationId(other), &section(1, SectionType::Cards))
            .await
            .expect("section");

    let javascript = landing::insert_item(
        &db,
        StationId(other),
        other_section,
        &NewItem {
            link: LinkInput {
                link_type: "external",
                external_link: Some("javascript:alert(1)"),
                ..LinkInput::default()
            },
            ..NewItem::default()
        },
    )
    .await;
    assert!(
        matches!(&javascript, Err(LandingError::Invalid(texts)) if texts == &[landing::EXTERNAL_LINK_INVALID]),
        "{javascript:?}"
    );

    // The other station's item linking to this station's about page: the table refuses it.
    let foreign = landing::insert_item(
        &db,
        StationId(other),
        other_section,
        &NewItem {
            link: LinkInput {
                link_type: "additional",
                about_page_id: Some(about),
                ..LinkInput::default()
            },
            ..NewItem::default()
        },
    )
    .await;
    assert!(
        matches!(foreign, Err(LandingError::Internal(_))),
        "{foreign:?}"
    );

    // An item of this station into the other station's section: refused too.
    let misplaced =
        landing::insert_item(&db, StationId(station), other_section, &NewItem::default()).await;
    assert!(
        matches!(misplaced, Err(LandingError::Internal(_))),
        "{misplaced:?}"
    );

    let colour = landing::insert_section(
        &db,
        StationId(other),
        &NewSection {
            title_color: Some("red"),
            ..section(2, SectionType::Cards)
        },
    )
    .await;
    assert!(
        matches!(&colour, Err(LandingError::Invalid(texts)) if texts == &[landing::COLOR_INVALID]),
        "{colour:?}"
    );
}

/// A picture of the demo's art (opaque, so its copies are JPEG) stored under a key of the
/// test's own (the API tests share one data folder).
async fn stored_picture(folder: &str, name: &str, size: (u32, u32)) -> String {
    let key = format!("{folder}/{name}.png");
    let objects = domain::infra::objects::Objects::from_config(&crate::common::config_with(&[]))
        .expect("objects");
    let palette = seed::demo::art::Palette {
        from: [14, 124, 102],
        to: [120, 200, 160],
    };
    objects
        .put(
            &key,
            seed::demo::art::banner(size, palette, 1).expect("art"),
        )
        .await
        .expect("stored");
    key
}

#[testkit::db_test]
async fn the_landing_and_about_page_carry_their_pictures_srcset_once_the_job_ran(db: PgPool) {
    let station = build::station("landing").insert(&db).await;
    let other = build::station("outro").insert(&db).await;
    let folder = format!(
        "landing/{}",
        ulid::Ulid::generate().to_string().to_lowercase()
    );
    let slide = stored_picture(&folder, "slide", (1200, 400)).await;
    let card = stored_picture(&folder, "card", (640, 360)).await;
    let about = landing::upsert_about_page(
        &db,
        StationId(station),
        &NewAboutPage {
            title: "Quem somos",
            body: "Somos um clube.",
            image_key: Some(&card),
        },
    )
    .await
    .expect("about page");
    landing::insert_slide(
        &db,
        StationId(station),
        &NewSlide {
            position: 1,
            title: "Bem-vindo",
            image_key: &slide,
            ..NewSlide::default()
        },
    )
    .await
    .expect("slide");
    let mut centred = section(1, SectionType::CentredText);
    centred.background = Background::Image(slide.clone());
    let cards = landing::insert_section(&db, StationId(station), &centred)
        .await
        .expect("section");
    landing::insert_item(
        &db,
        StationId(station),
        cards,
        &NewItem {
            position: 1,
            name: Some("Cartão"),
            image_key: Some(&card),
            ..NewItem::default()
        },
    )
    .await
    .expect("item");
    // Another station's slide shows the same picture: its own landing is its own.
    landing::insert_slide(
        &db,
        StationId(other),
        &NewSlide {
            position: 1,
            title: "Outro",
            image_key: "landing/outro.png",
            ..NewSlide::default()
        },
    )
    .await
    .expect("other slide");
    let app = crate::common::app(db.clone());
    let uri = format!("/api/stations/{station}/landing");

    let before = get(&app, &uri).await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.text);
    assert_eq!(before.json()["slides"][0]["image_srcset"], json!(null));
    assert_eq!(
        before.json()["sections"][0]["background_image_srcset"],
        json!(null)
    );

    // What the seed and the uploads queue; the worker runs it.
    for key in [&slide, &card] {
        let mut tx = db.begin().await.expect("tx");
        app::Outbox::make_image_variants(&jobs::JobOutbox, &mut tx, station, key)
            .await
            .expect("queued");
        tx.commit().await.expect("commit");
    }
    let ran =
        crate::common::run_jobs::<jobs::kinds::ImageVariants>(&db, "image.variants", true).await;
    assert_eq!(ran.len(), 2);

    let after = get(&app, &uri).await;
    assert_eq!(after.status, StatusCode::OK, "{}", after.text);
    assert_ne!(
        after.headers["etag"], before.headers["etag"],
        "a new version"
    );
    let body = after.json();
    let slide_srcset = format!(
        "/api/media/{folder}/slide.480w.jpg 480w, /api/media/{folder}/slide.960w.jpg 960w, \
         /api/media/{folder}/slide.png 1200w"
    );
    let card_srcset =
        format!("/api/media/{folder}/card.480w.jpg 480w, /api/media/{folder}/card.png 640w");
    assert_eq!(body["slides"][0]["image"], format!("/api/media/{slide}"));
    assert_eq!(body["slides"][0]["image_srcset"], slide_srcset);
    assert_eq!(body["sections"][0]["background_image_srcset"], slide_srcset);
    assert_eq!(body["sections"][0]["items"][0]["image_srcset"], card_srcset);
    // Every width it names is served.
    for candidate in card_srcset.split(", ") {
        let url = candidate.split(' ').next().expect("url");
        assert_eq!(get(&app, url).await.status, StatusCode::OK, "{url}");
    }

    let page = get(
        &app,
        &format!("/api/station-about-participant/{about}/{station}"),
    )
    .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert_eq!(page.json()["image_srcset"], card_srcset);

    let elsewhere = get(&app, &format!("/api/stations/{other}/landing")).await;
    assert_eq!(elsewhere.json()["slides"][0]["image_srcset"], json!(null));
    let not_an_id = get(&app, "/api/stations/abc/landing").await;
    assert_eq!(not_an_id.status, StatusCode::BAD_REQUEST);
}
