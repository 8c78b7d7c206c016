//! `GET /api/services/{desk}` over HTTP against the real database: the desk's pages as the
//! station filled them in (empty when it never did), only the member's own station's, the
//! landing's carousel category only ever one of the station's own, and 404 for a desk the
//! station does not offer or one that does not exist.

use crate::common::{call, insert_station};
use crate::services_common::{UNAVAILABLE, desk_row, offer, refused, world};
use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;

const PATH: &str = "/api/services/{desk}";

async fn fill(db: &PgPool, station_id: i64, desk: &str, guidance: &str) {
    desk_row(db, station_id, desk, None).await;
    sqlx::query(
        "UPDATE service_desks
            SET contacts = $3, guidance = $4, information = 'Atendimento de segunda a sexta.',
                playlists = $5
          WHERE station_id = $1 AND service = $2",
    )
    .bind(station_id)
    .bind(desk)
    .bind(
        json!([{ "name": "Dra. Marina Alves", "role": "Advogada trabalhista",
                   "email": "juridico@example.com", "phone": "1133334444" }]),
    )
    .bind(guidance)
    .bind(
        // Only an https address is ever embedded: the other is left out.
        json!([{ "slug": "videos", "title": "Vídeos", "url": "https://www.youtube.com/embed/x" },
               { "slug": "transforma", "title": "Transforma", "url": "javascript:alert(1)" }]),
    )
    .execute(db)
    .await
    .expect("desk pages");
}

async fn category(db: &PgPool, station_id: i64, name: &str) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO participant_categories (station_id, name) VALUES ($1, $2) RETURNING id",
    )
    .bind(station_id)
    .bind(name)
    .fetch_one(db)
    .await
    .expect("category")
}

async fn show_category(
    db: &PgPool,
    station_id: i64,
    desk: &str,
    category_id: i64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE service_desks SET category_id = $3 WHERE station_id = $1 AND service = $2")
        .bind(station_id)
        .bind(desk)
        .bind(category_id)
        .execute(db)
        .await
        .map(drop)
}

#[testkit::db_test]
async fn a_desk_page_shows_what_the_station_filled_in(db: PgPool) {
    let w = world(db).await;
    fill(&w.db, w.station_id, "legal", "Traga seus documentos.").await;
    let other = insert_station(&w.db, "vizinho").await;
    offer(&w.db, other, &["legal"]).await;
    fill(&w.db, other, "legal", "Do vizinho.").await;

    let rights = category(&w.db, w.station_id, "Direitos em foco").await;
    show_category(&w.db, w.station_id, "legal", rights)
        .await
        .expect("the station's own category");

    let answer = w.get("/api/services/legal").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(
        answer.json(),
        json!({
            "desk": "legal",
            "contatos": [{ "name": "Dra. Marina Alves", "role": "Advogada trabalhista",
                           "email": "juridico@example.com", "phone": "1133334444" }],
            "orientacoes": "Traga seus documentos.",
            "informacoes": "Atendimento de segunda a sexta.",
            "playlists": [{ "slug": "videos", "title": "Vídeos",
                            "url": "https://www.youtube.com/embed/x" }],
            "categoria": rights,
        })
    );

    // A desk offered but never filled in: empty lists and texts.
    sqlx::query("DELETE FROM service_desks WHERE station_id = $1 AND service = 'health'")
        .bind(w.station_id)
        .execute(&w.db)
        .await
        .expect("no health row");
    let empty = w.get("/api/services/health").await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.text);
    assert_eq!(
        empty.json(),
        json!({ "desk": "health", "contatos": [], "orientacoes": "", "informacoes": "",
                "playlists": [], "categoria": null })
    );
}

#[testkit::db_test]
async fn the_carousel_is_only_ever_a_category_of_the_desks_station(db: PgPool) {
    let w = world(db).await;
    fill(&w.db, w.station_id, "legal", "Traga seus documentos.").await;
    let other = insert_station(&w.db, "vizinho").await;
    let theirs = category(&w.db, other, "Do vizinho").await;
    assert!(
        show_category(&w.db, w.station_id, "legal", theirs)
            .await
            .is_err(),
        "another station's category is refused by the schema"
    );
    assert_eq!(
        w.get("/api/services/legal").await.json()["categoria"],
        json!(null)
    );

    let ours = category(&w.db, w.station_id, "Direitos em foco").await;
    show_category(&w.db, w.station_id, "legal", ours)
        .await
        .expect("ours");
    // Only the legal and accounting landings have a carousel.
    fill(&w.db, w.station_id, "political", "Temas.").await;
    assert!(
        show_category(&w.db, w.station_id, "political", ours)
            .await
            .is_err(),
        "the political page shows no carousel"
    );
    assert_eq!(
        w.get("/api/services/legal").await.json()["categoria"],
        json!(ours)
    );
    // Deleting the category takes the carousel away and leaves the desk.
    sqlx::query("DELETE FROM participant_categories WHERE id = $1")
        .bind(ours)
        .execute(&w.db)
        .await
        .expect("category deleted");
    let answer = w.get("/api/services/legal").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.json()["categoria"], json!(null));
    assert_eq!(
        answer.json()["orientacoes"],
        json!("Traga seus documentos.")
    );
}

#[testkit::db_test]
async fn a_desk_the_station_does_not_offer_or_that_does_not_exist_is_not_found(db: PgPool) {
    let w = world(db).await;
    // Political is not offered by the station, whatever its row says.
    fill(&w.db, w.station_id, "political", "Oculto.").await;
    for desk in ["political", "shop", "Legal"] {
        let answer = w.get(&format!("/api/services/{desk}")).await;
        refused("get", PATH, &answer, StatusCode::NOT_FOUND, UNAVAILABLE);
    }
    offer(&w.db, w.station_id, &["accounting"]).await;
    let answer = w.get("/api/services/legal").await;
    refused("get", PATH, &answer, StatusCode::NOT_FOUND, UNAVAILABLE);

    let anonymous = call(&w.app, "GET", "/api/services/accounting", None, &[]).await;
    assert_eq!(
        anonymous.status,
        StatusCode::UNAUTHORIZED,
        "{}",
        anonymous.text
    );
}
