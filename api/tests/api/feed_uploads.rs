//! Images (`POST /upload-image-to-s3`) and documents (`POST /files/actions`) over HTTP
//! against the real database and store: typed by content whatever their names, the spec's
//! size limits, images re-encoded and public, documents private, and the per-member limit
//! of 30 an hour.

use crate::common;
use std::io::Cursor;
use std::path::PathBuf;

use crate::common::{Answer, insert_member, insert_station, send, send_json, session_of};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::json;
use sqlx::PgPool;

const FILE_INVALID: &str = "Tamanho ou formato inválido";
const UPLOAD_FAILED: &str = "Erro no upload";
const TOO_LARGE: &str = "Erro: Imagem maior que 1MB";
const TOO_MANY: &str = "Muitas ações em pouco tempo. Aguarde alguns minutos e tente novamente.";

struct World {
    app: Router,
    data: PathBuf,
    station_id: i64,
    member_id: i64,
    token: String,
}

impl Drop for World {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.data).ok();
    }
}

async fn world(db: PgPool) -> World {
    let data = std::env::temp_dir().join(format!(
        "filia-feed-uploads-{}",
        ulid::Ulid::generate().to_string().to_lowercase()
    ));
    let station_id = insert_station(&db, "clube").await;
    let member_id = insert_member(&db, station_id, "maria@example.com").await;
    World {
        app: common::app_with(
            db.clone(),
            &[("FILIA_DATA_DIR", &data.display().to_string())],
        ),
        token: session_of(&db, member_id).await,
        data,
        station_id,
        member_id,
    }
}

fn picture(format: image::ImageFormat, width: u32, height: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x * 7) as u8, (y * 13) as u8, ((x ^ y) * 3) as u8])
    })
    .write_to(&mut Cursor::new(&mut bytes), format)
    .expect("picture");
    bytes
}

impl World {
    async fn image(&self, base64: &str) -> Answer {
        send_json(
            &self.app,
            "POST",
            "/api/upload-image-to-s3",
            Some(&self.token),
            &[],
            &json!({ "base64": base64 }),
        )
        .await
    }

    async fn document(&self, name: &str, bytes: &[u8]) -> Answer {
        let boundary = "filia-doc-boundary";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"descricao\"\r\n\r\nfoto\r\n\
             --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(bytes);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let request = Request::post("/api/files/actions")
            .header("authorization", format!("Bearer {}", self.token))
            .header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(Body::from(body))
            .expect("request");
        send(&self.app, request).await
    }

    fn stored(&self, key: &str) -> Option<Vec<u8>> {
        std::fs::read(self.data.join("objects").join(key)).ok()
    }
}

#[testkit::db_test]
async fn images_are_stored_re_encoded_when_their_content_is_jpeg_png_or_gif(db: PgPool) {
    let world = world(db).await;
    let prefix = format!(
        "/api/media/uploads/{}/{}/",
        world.station_id, world.member_id
    );
    for (format, data_url) in [
        (image::ImageFormat::Png, true),
        (image::ImageFormat::Jpeg, false),
        (image::ImageFormat::Gif, false),
    ] {
        let encoded = STANDARD.encode(picture(format, 40, 30));
        let base64 = if data_url {
            format!("data:image/png;base64,{encoded}")
        } else {
            encoded
        };
        let answer = world.image(&base64).await;
        assert_eq!(
            answer.status,
            StatusCode::CREATED,
            "{format:?}: {}",
            answer.text
        );
        let url = answer.json()["url"].as_str().expect("url").to_string();
        assert!(url.starts_with(&prefix), "{url}");
        // Re-encoded (no metadata rides along): opaque pictures as JPEG.
        let expected = if format == image::ImageFormat::Gif {
            ".png"
        } else {
            ".jpg"
        };
        assert!(url.ends_with(expected), "{url}");
        let stored = world
            .stored(url.trim_start_matches("/api/media/"))
            .expect("stored");
        let back = image::load_from_memory(&stored).expect("an image");
        assert_eq!((back.width(), back.height()), (40, 30));
        let served = common::call(&world.app, "GET", &url, None, &[]).await;
        assert_eq!(served.status, StatusCode::OK);
        assert!(
            served.headers["content-type"]
                .to_str()
                .expect("type")
                .starts_with("image/")
        );
    }
}

#[testkit::db_test]
async fn images_of_other_kinds_or_over_1_mb_are_refused(db: PgPool) {
    let world = world(db).await;
    let refused = |answer: &Answer, message: &str| {
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            answer.text
        );
        assert_eq!(answer.json()["messages"], json!([message]));
    };
    // A text file named .jpg by its sender is still text.
    let text = STANDARD.encode("isto não é uma imagem, só se chama foto.jpg");
    refused(
        &world.image(&format!("data:image/jpeg;base64,{text}")).await,
        FILE_INVALID,
    );
    // WebP is an image, but not one this call takes.
    let webp = STANDARD.encode(picture(image::ImageFormat::WebP, 8, 8));
    refused(&world.image(&webp).await, FILE_INVALID);
    refused(&world.image("não é base64!").await, FILE_INVALID);
    refused(&world.image("").await, FILE_INVALID);
    // Over 1 MB once decoded, whatever it holds.
    let mut big = picture(image::ImageFormat::Png, 8, 8);
    big.resize(1024 * 1024 + 1, 0);
    refused(&world.image(&STANDARD.encode(&big)).await, TOO_LARGE);
    let missing = send_json(
        &world.app,
        "POST",
        "/api/upload-image-to-s3",
        Some(&world.token),
        &[],
        &json!({}),
    )
    .await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    let anonymous = send_json(
        &world.app,
        "POST",
        "/api/upload-image-to-s3",
        None,
        &[],
        &json!({ "base64": webp }),
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert!(
        std::fs::read_dir(world.data.join("objects"))
            .map(|mut dir| dir.next().is_none())
            .unwrap_or(true),
        "nothing stored"
    );
}

#[testkit::db_test]
async fn documents_are_kept_private_when_their_content_is_accepted(db: PgPool) {
    let world = world(db).await;
    let pdf = b"%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n";
    let answer = world.document("Comprovante de matrícula.pdf", pdf).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let file = answer.json();
    assert_eq!(file["original_name"], "Comprovante de matrícula.pdf");
    let path = file["path"].as_str().expect("path");
    let folder = format!("private/files/{}/{}/", world.station_id, world.member_id);
    assert!(
        path.starts_with(&folder) && path.ends_with(".pdf"),
        "{path}"
    );
    assert_eq!(world.stored(path).as_deref(), Some(pdf.as_slice()));
    // Private: the public media route never serves it.
    let public = common::call(&world.app, "GET", &format!("/api/media/{path}"), None, &[]).await;
    assert_eq!(public.status, StatusCode::NOT_FOUND);

    // A .docx is a ZIP by content and keeps its extension; a picture is a document too.
    let docx = world
        .document("carta.docx", b"PK\x03\x04word/document.xml")
        .await;
    assert_eq!(docx.status, StatusCode::CREATED, "{}", docx.text);
    assert!(
        docx.json()["path"]
            .as_str()
            .expect("path")
            .ends_with(".docx")
    );
    let zip = world.document("fotos.zip", b"PK\x03\x04fotos/").await;
    assert!(zip.json()["path"].as_str().expect("path").ends_with(".zip"));
    let doc = world
        .document(
            "antigo.doc",
            &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0],
        )
        .await;
    assert!(doc.json()["path"].as_str().expect("path").ends_with(".doc"));
    let png = world
        .document("foto.png", &picture(image::ImageFormat::Png, 4, 4))
        .await;
    assert_eq!(png.status, StatusCode::CREATED);
    // Exactly 10 MB is taken.
    let mut largest = pdf.to_vec();
    largest.resize(10_000_000, b' ');
    let answer = world.document("grande.pdf", &largest).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
}

#[testkit::db_test]
async fn documents_of_other_kinds_or_over_10_mb_are_refused(db: PgPool) {
    let world = world(db).await;
    let refused = |answer: Answer, message: &str| {
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            answer.text
        );
        assert_eq!(answer.json()["messages"], json!([message]));
    };
    refused(
        world
            .document("contrato.pdf", b"just some text renamed .pdf")
            .await,
        FILE_INVALID,
    );
    refused(
        world
            .document("video.pdf", b"\0\0\0\x18ftypmp42\0\0\0\0")
            .await,
        FILE_INVALID,
    );
    refused(world.document("vazio.pdf", b"").await, FILE_INVALID);
    let mut over = b"%PDF-1.7\n".to_vec();
    over.resize(10_000_001, b' ');
    refused(world.document("grande.pdf", &over).await, FILE_INVALID);
    // Far over: the route's body limit answers with the same text.
    over.resize(12 * 1024 * 1024, b' ');
    refused(world.document("enorme.pdf", &over).await, FILE_INVALID);
    // A form without a file.
    let request = Request::post("/api/files/actions")
        .header("authorization", format!("Bearer {}", world.token))
        .header("content-type", "multipart/form-data; boundary=x")
        .body(Body::from(
            "--x\r\nContent-Disposition: form-data; name=\"outro\"\r\n\r\n1\r\n--x--\r\n",
        ))
        .expect("request");
    refused(send(&world.app, request).await, UPLOAD_FAILED);
    assert!(
        std::fs::read_dir(world.data.join("objects"))
            .map(|mut dir| dir.next().is_none())
            .unwrap_or(true),
        "nothing stored"
    );
}

#[testkit::db_test]
async fn thirty_images_and_documents_an_hour(db: PgPool) {
    let world = world(db.clone()).await;
    // Every attempt counts, valid or not, images and documents together.
    for _ in 0..15 {
        assert_eq!(
            world.image("x").await.status,
            StatusCode::UNPROCESSABLE_ENTITY
        );
        assert_eq!(
            world.document("a.txt", b"texto").await.status,
            StatusCode::UNPROCESSABLE_ENTITY
        );
    }
    let image = world
        .image(&STANDARD.encode(picture(image::ImageFormat::Png, 4, 4)))
        .await;
    assert_eq!(image.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(image.json()["messages"], json!([TOO_MANY]));
    assert!(image.headers.contains_key("retry-after"));
    let document = world.document("a.pdf", b"%PDF-1.7").await;
    assert_eq!(document.status, StatusCode::TOO_MANY_REQUESTS);
    // Another member has an hour of their own.
    let other = insert_member(&db, world.station_id, "joao@example.com").await;
    let token = session_of(&db, other).await;
    let answer = send_json(
        &world.app,
        "POST",
        "/api/upload-image-to-s3",
        Some(&token),
        &[],
        &json!({ "base64": STANDARD.encode(picture(image::ImageFormat::Png, 4, 4)) }),
    )
    .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
}
