//! `GET /api/media/{*key}` with objects larger than one answer's chunk: streamed, and a
//! range is answered a chunk at a time, so a video never sits whole in memory.

use crate::common::{call, config_with};
use axum::http::StatusCode;
use domain::infra::objects::Objects;
use sqlx::PgPool;

/// A 206 carries at most this much (`routes::media::RANGE_CHUNK`).
const CHUNK: usize = 2 * 1024 * 1024;

#[testkit::db_test]
async fn a_large_object_is_served_whole_or_a_chunk_per_range(db: PgPool) {
    let data = tempdir("media");
    let data_dir = data.display().to_string();
    let config = config_with(&[("FILIA_DATA_DIR", &data_dir)]);
    let app = api::app(api::AppState::new(config, db).expect("state"));
    let objects = Objects::local(&data.join("objects")).expect("store");
    let size = CHUNK + CHUNK / 2;
    let video: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
    let key = Objects::new_key("videos", "mp4");
    objects.put(&key, video.clone()).await.expect("stored");
    let url = Objects::url(&key);

    let whole = call(&app, "GET", &url, None, &[]).await;
    assert_eq!(whole.status, StatusCode::OK);
    assert_eq!(whole.headers["content-length"], size.to_string().as_str());
    assert_eq!(whole.headers["content-type"], "video/mp4");
    assert_eq!(whole.headers["accept-ranges"], "bytes");

    // A player's first ask: everything from the start; it gets the first chunk.
    let first = call(&app, "GET", &url, None, &[("range", "bytes=0-")]).await;
    assert_eq!(first.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(
        first.headers["content-range"],
        format!("bytes 0-{}/{size}", CHUNK - 1).as_str()
    );
    assert_eq!(first.headers["content-length"], CHUNK.to_string().as_str());

    // Then what it still lacks: the rest fits in one chunk.
    let rest = format!("bytes={CHUNK}-");
    let second = call(&app, "GET", &url, None, &[("range", &rest)]).await;
    assert_eq!(second.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(
        second.headers["content-range"],
        format!("bytes {CHUNK}-{}/{size}", size - 1).as_str()
    );
    assert_eq!(
        second.headers["content-length"],
        (size - CHUNK).to_string().as_str()
    );

    let past = format!("bytes={size}-");
    let refused = call(&app, "GET", &url, None, &[("range", &past)]).await;
    assert_eq!(refused.status, StatusCode::RANGE_NOT_SATISFIABLE);
    assert_eq!(
        refused.json(),
        serde_json::json!({ "error": "O intervalo pedido começa depois do fim do arquivo" })
    );
    assert_eq!(refused.headers["accept-ranges"], "bytes");
    assert_eq!(
        refused.headers["content-range"],
        format!("bytes */{size}").as_str()
    );
    std::fs::remove_dir_all(&data).ok();
}

/// A folder of its own under the system's temporary folder.
fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("filia-{name}-{}", ulid::Ulid::generate()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    dir
}

#[testkit::db_test]
async fn a_private_document_is_never_served_as_media(db: PgPool) {
    let data = tempdir("media-private");
    let data_dir = data.display().to_string();
    let config = config_with(&[("FILIA_DATA_DIR", &data_dir)]);
    let app = api::app(api::AppState::new(config, db).expect("state"));
    let objects = Objects::local(&data.join("objects")).expect("store");
    let receipt = Objects::new_private_key("receipts", "pdf");
    assert!(receipt.starts_with("private/receipts/"), "{receipt}");
    objects
        .put(&receipt, b"%PDF-1.7".to_vec())
        .await
        .expect("stored");
    let picture = Objects::new_key("actions", "png");
    objects
        .put(&picture, vec![0x89, b'P', b'N', b'G'])
        .await
        .expect("stored");

    // Holding the key is not enough: the receipt has its owner's route.
    let answer = call(&app, "GET", &Objects::url(&receipt), None, &[]).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    let ranged = call(
        &app,
        "GET",
        &Objects::url(&receipt),
        None,
        &[("range", "bytes=0-3")],
    )
    .await;
    assert_eq!(ranged.status, StatusCode::NOT_FOUND);
    assert_eq!(
        call(&app, "GET", &Objects::url(&picture), None, &[])
            .await
            .status,
        StatusCode::OK
    );
}
