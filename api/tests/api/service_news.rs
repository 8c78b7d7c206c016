//! The member services' news by tag over HTTP against the real database:
//! `GET /legal/news`, `/accounting/news` and `/political/news` answer the caller's station's
//! published news carrying the tag (the desk's by default), newest first, 9 a page from page
//! 1, with `X-Total-Count`, the body and the picture's widths; another station's news and
//! another tag's never show; each desk's route answers 404 where the station does not offer
//! that desk.

use crate::common::{self, Answer, call, insert_member, insert_station, off_contract, session_of};
use axum::Router;
use axum::http::StatusCode;
use chrono::{Duration, Utc};
use domain::content::news;
use serde_json::{Value, json};
use sqlx::PgPool;

const LEGAL: i64 = 13752;
const ACCOUNTING: i64 = 13754;
const POLITICAL: i64 = 13755;
const UNAVAILABLE: &str = "Serviço não disponível.";

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    token: String,
}

async fn world(db: PgPool) -> World {
    let station_id = insert_station(&db, "sindicato").await;
    set_offered(&db, station_id, true).await;
    let member_id = insert_member(&db, station_id, "maria@example.com").await;
    World {
        app: common::app(db.clone()),
        token: session_of(&db, member_id).await,
        db,
        station_id,
    }
}

async fn set_offered(db: &PgPool, station_id: i64, on: bool) {
    sqlx::query(
        "UPDATE stations SET legal_access = $2, accounting_access = $2, political_access = $2
          WHERE id = $1",
    )
    .bind(station_id)
    .bind(on)
    .execute(db)
    .await
    .expect("flags");
}

/// A news item of `station_id` published `hours_ago`, carrying `tags`.
async fn tagged(
    db: &PgPool,
    station_id: i64,
    title: &str,
    hours_ago: i64,
    published: bool,
    tags: &[i64],
) -> i64 {
    let id = news::create(
        db,
        &news::NewNews {
            station_id,
            title: title.into(),
            subtitle: format!("Subtítulo de {title}"),
            body: "<p>Texto <strong>forte</strong><script>alert(1)</script></p>".into(),
            image_key: Some(format!("news/{station_id}/{hours_ago}.png")),
            published,
            published_at: Some(Utc::now() - Duration::hours(hours_ago)),
        },
    )
    .await
    .expect("news");
    for tag in tags {
        news::tag(db, id, &[*tag]).await.expect("tag");
    }
    id
}

impl World {
    async fn get(&self, uri: &str) -> Answer {
        call(&self.app, "GET", uri, Some(&self.token), &[]).await
    }
}

fn titles(answer: &Answer) -> Vec<String> {
    answer
        .json()
        .as_array()
        .unwrap_or_else(|| panic!("a list: {}", answer.text))
        .iter()
        .map(|item| {
            item["title"]["rendered"]
                .as_str()
                .expect("title")
                .to_string()
        })
        .collect()
}

fn total(answer: &Answer) -> i64 {
    answer.headers["x-total-count"]
        .to_str()
        .expect("text")
        .parse()
        .expect("number")
}

fn refused(path: &str, answer: &Answer, status: StatusCode, text: &str) {
    assert_eq!(answer.status, status, "{}", answer.text);
    assert_eq!(off_contract("get", path, answer), None);
    let body = answer.json();
    let found = body["error"]
        .as_str()
        .map(String::from)
        .or_else(|| body["messages"][0].as_str().map(String::from));
    assert_eq!(found.as_deref(), Some(text), "{body}");
}

#[testkit::db_test]
async fn each_desk_lists_its_tags_news_9_a_page_newest_first(db: PgPool) {
    let w = world(db).await;
    for n in 1..=11 {
        tagged(
            &w.db,
            w.station_id,
            &format!("Jurídico {n}"),
            n,
            true,
            &[LEGAL],
        )
        .await;
    }
    tagged(&w.db, w.station_id, "Contábil 1", 1, true, &[ACCOUNTING]).await;
    tagged(
        &w.db,
        w.station_id,
        "Dois temas",
        30,
        true,
        &[ACCOUNTING, POLITICAL],
    )
    .await;
    tagged(&w.db, w.station_id, "Sem tag", 2, true, &[]).await;
    tagged(&w.db, w.station_id, "Rascunho", 3, false, &[LEGAL]).await;
    tagged(&w.db, w.station_id, "Agendada", -5, true, &[LEGAL]).await;
    let other = insert_station(&w.db, "outro").await;
    set_offered(&w.db, other, true).await;
    tagged(
        &w.db,
        other,
        "De outra estação",
        0,
        true,
        &[LEGAL, POLITICAL],
    )
    .await;

    let first = w.get("/api/legal/news").await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let expected: Vec<String> = (1..=9).map(|n| format!("Jurídico {n}")).collect();
    assert_eq!(titles(&first), expected);
    assert_eq!(total(&first), 11);
    let page = w.get("/api/legal/news?page=1&tagId=13752").await;
    assert_eq!(titles(&page), expected);
    let second = w.get("/api/legal/news?page=2").await;
    assert_eq!(titles(&second), ["Jurídico 10", "Jurídico 11"]);
    assert_eq!(total(&second), 11);
    let past = w.get("/api/legal/news?page=3").await;
    assert_eq!(past.status, StatusCode::OK);
    assert_eq!(past.json(), json!([]));
    assert_eq!(total(&past), 11);

    let accounting = w.get("/api/accounting/news").await;
    assert_eq!(titles(&accounting), ["Contábil 1", "Dois temas"]);
    let political = w.get("/api/political/news").await;
    assert_eq!(titles(&political), ["Dois temas"]);
    assert_eq!(total(&political), 1);
    // Another tag asked by name.
    let asked = w.get("/api/political/news?tagId=13754").await;
    assert_eq!(titles(&asked), ["Contábil 1", "Dois temas"]);
    let unknown = w.get("/api/political/news?tagId=1").await;
    assert_eq!(unknown.json(), json!([]));
}

#[testkit::db_test]
async fn an_item_carries_its_body_and_its_pictures_widths(db: PgPool) {
    let w = world(db).await;
    let id = tagged(&w.db, w.station_id, "Reforma", 1, true, &[POLITICAL]).await;
    let key = format!("news/{}/1.png", w.station_id);
    let answer = w.get("/api/political/news").await;
    let item = &answer.json()[0];
    assert_eq!(item["image_srcset"], Value::Null);
    sqlx::query(
        "INSERT INTO image_variants (source_key, width, height, key, bytes)
         VALUES ($1, 480, 160, $2, 10), ($1, 1200, 400, $1, 20)",
    )
    .bind(&key)
    .bind(key.replace(".png", ".480w.jpg"))
    .execute(&w.db)
    .await
    .expect("variants");

    let answer = w.get("/api/political/news").await;
    let item = &answer.json()[0];
    let date = item["date"].as_str().expect("date");
    assert!(chrono::DateTime::parse_from_rfc3339(date).is_ok(), "{date}");
    assert_eq!(
        *item,
        json!({
            "id": id,
            "date": date,
            "title": { "rendered": "Reforma" },
            "content": { "rendered": "<p>Texto <strong>forte</strong></p>" },
            "subtitle": "Subtítulo de Reforma",
            "image": format!("/api/media/{key}"),
            "image_srcset": format!(
                "/api/media/{} 480w, /api/media/{key} 1200w",
                key.replace(".png", ".480w.jpg")
            ),
        })
    );
}

#[testkit::db_test]
async fn a_bad_page_or_tag_is_refused(db: PgPool) {
    let w = world(db).await;
    for page in ["0", "-1", "um", "1.5"] {
        let answer = w.get(&format!("/api/legal/news?page={page}")).await;
        refused(
            "/api/legal/news",
            &answer,
            StatusCode::BAD_REQUEST,
            "page: Página inválida",
        );
    }
    let answer = w.get("/api/accounting/news?tagId=contabil").await;
    refused(
        "/api/accounting/news",
        &answer,
        StatusCode::BAD_REQUEST,
        "tagId: Tag inválida",
    );
}

#[testkit::db_test]
async fn each_route_answers_404_where_its_desk_is_not_offered(db: PgPool) {
    let w = world(db).await;
    tagged(
        &w.db,
        w.station_id,
        "Notícia",
        1,
        true,
        &[LEGAL, ACCOUNTING, POLITICAL],
    )
    .await;
    for (desk, path) in [
        ("legal", "/api/legal/news"),
        ("accounting", "/api/accounting/news"),
        ("political", "/api/political/news"),
    ] {
        sqlx::query(
            "UPDATE stations SET legal_access = ($2 <> 'legal'),
                                 accounting_access = ($2 <> 'accounting'),
                                 political_access = ($2 <> 'political')
              WHERE id = $1",
        )
        .bind(w.station_id)
        .bind(desk)
        .execute(&w.db)
        .await
        .expect("flags");
        refused(path, &w.get(path).await, StatusCode::NOT_FOUND, UNAVAILABLE);
        // The other desks still answer.
        for other in [
            "/api/legal/news",
            "/api/accounting/news",
            "/api/political/news",
        ] {
            if other != path {
                assert_eq!(w.get(other).await.status, StatusCode::OK, "{other}");
            }
        }
    }
    let answer = call(&w.app, "GET", "/api/legal/news", None, &[]).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
}
