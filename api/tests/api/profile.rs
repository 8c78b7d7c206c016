//! A member's own profile: `PUT /api/auth/update-participant/{id}`,
//! `PUT /api/update-user-profile-image/{id}` and the stored image at `/api/media/...`.

use crate::common;
use std::io::Cursor;

use crate::common::{app_with, call, get, post_json, send_json};
use axum::Router;
use axum::http::StatusCode;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use image::{ImageFormat, Rgb, RgbImage, Rgba, RgbaImage};
use seed::demo::{self, DemoStation};
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::build;

const NOT_AUTHORIZED: &str = "Você não possui autorização para acessar esta página.";
const UPDATED: &str = "Cadastro atualizado com sucesso";
const IMAGE_UPDATED: &str = "Você atualizou a seu perfil com sucesso";

struct Setup {
    app: Router,
    demo: DemoStation,
    token: String,
    data_dir: std::path::PathBuf,
}

/// The demo station, a session of its member, and objects in a directory of this test's own.
async fn setup(db: &PgPool) -> Setup {
    let demo = demo::seed(db, "http://127.0.0.1:8080").await.expect("seed");
    let token = domain::accounts::session::create(db, demo.member_id)
        .await
        .expect("session");
    let data_dir = std::env::temp_dir().join(format!("filia-profile-{}", ulid::Ulid::generate()));
    let app = app_with(
        db.clone(),
        &[("FILIA_DATA_DIR", data_dir.to_str().expect("utf-8 path"))],
    );
    Setup {
        app,
        demo,
        token,
        data_dir,
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.data_dir).ok();
    }
}

impl Setup {
    async fn update(&self, id: i64, body: Value) -> common::Answer {
        send_json(
            &self.app,
            "PUT",
            &format!("/api/auth/update-participant/{id}"),
            Some(&self.token),
            &[],
            &body,
        )
        .await
    }

    async fn upload(&self, id: i64, base64: &str) -> common::Answer {
        send_json(
            &self.app,
            "PUT",
            &format!("/api/update-user-profile-image/{id}"),
            Some(&self.token),
            &[],
            &json!({ "imageType": "image/png", "base64": base64 }),
        )
        .await
    }

    fn stored_files(&self) -> usize {
        let dir = self
            .data_dir
            .join(format!("objects/users/{}", self.demo.member_id));
        std::fs::read_dir(dir)
            .map(|entries| entries.count())
            .unwrap_or(0)
    }
}

fn invalid(messages: &[&str]) -> Value {
    json!({ "messages": messages })
}

fn encoded(image: impl FnOnce(&mut Cursor<&mut Vec<u8>>)) -> Vec<u8> {
    let mut bytes = Vec::new();
    image(&mut Cursor::new(&mut bytes));
    bytes
}

fn png(width: u32, height: u32) -> Vec<u8> {
    encoded(|out| {
        RgbaImage::from_fn(width, height, |x, y| {
            Rgba([(x % 256) as u8, (y % 256) as u8, 90, 200])
        })
        .write_to(out, ImageFormat::Png)
        .expect("png")
    })
}

fn jpeg(width: u32, height: u32) -> Vec<u8> {
    encoded(|out| {
        RgbImage::from_fn(width, height, |x, y| {
            Rgb([(x % 256) as u8, (y % 256) as u8, 30])
        })
        .write_to(out, ImageFormat::Jpeg)
        .expect("jpeg")
    })
}

#[testkit::db_test]
async fn a_member_updates_their_data_and_address(db: PgPool) {
    let s = setup(&db).await;
    let answer = s
        .update(
            s.demo.member_id,
            json!({
                "name": "  Maria   Souza ",
                "cpf": "529.982.247-25",
                "tel": "(11) 91234-5678",
                "birthday": "1990-05-17 00:00:00",
                "state": "rj",
                "city": "Niterói",
                "zipcode": "24.020-005",
                "address_line_1": "Rua da Conceição",
                "address_number": "100",
                "address_line_2": "Apto 2",
                "neighborhood": "Centro",
                "briefingDone": true,
            }),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let body = answer.json();
    assert_eq!(body["message"], UPDATED);
    let user = &body["user"];
    assert_eq!(user["name"], "Maria Souza");
    assert_eq!(user["cpf"], "52998224725");
    assert_eq!(user["birthday"], "1990-05-17");
    assert_eq!(user["state"], "RJ");
    assert_eq!(user["city"], "Niterói");
    assert_eq!(user["briefingDone"], true);
    assert_eq!(user["email"], demo::MEMBER_EMAIL, "untouched fields stay");
    let addresses = user["addresses"].as_array().expect("addresses");
    assert_eq!(addresses.len(), 1);
    assert_eq!(addresses[0]["zipcode"], "24020005");
    assert_eq!(addresses[0]["line_1"], "Rua da Conceição");
    assert_eq!(addresses[0]["number"], "100");
    assert_eq!(addresses[0]["line_2"], "Apto 2");
    assert_eq!(addresses[0]["neighborhood"], "Centro");
    assert_eq!(addresses[0]["state"], "RJ");

    let moved = s
        .update(
            s.demo.member_id,
            json!({ "zipcode": "01310100", "address_line_1": "Av. Paulista", "address_number": "1000" }),
        )
        .await;
    let addresses = moved.json()["user"]["addresses"].clone();
    assert_eq!(
        addresses.as_array().map(Vec::len),
        Some(1),
        "the main address is replaced"
    );
    assert_eq!(addresses[0]["line_1"], "Av. Paulista");
    assert_eq!(addresses[0]["line_2"], Value::Null);
}

#[testkit::db_test]
async fn every_broken_rule_is_listed_and_nothing_is_saved(db: PgPool) {
    let s = setup(&db).await;
    let answer = s
        .update(
            s.demo.member_id,
            json!({
                "name": "   ",
                "cpf": "111.111.111-11",
                "email": "sem-arroba",
                "tel": "12",
                "birthday": "2015-01-01",
                "state": "XX",
                "password": "fraca",
                "password_confirmation": "fraca",
                "zipcode": "123",
            }),
        )
        .await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        answer.json(),
        invalid(&[
            "Esse campo é obrigatório",
            "CPF inválido",
            "Email inválido",
            "Telefone inválido",
            "É necessário ser maior de 18 anos.",
            "Estado inválido",
            "Senha precisa ter: uma letra maiúscula, uma letra minúscula, um número e tamanho entre 8 - 20.",
            "CEP inválido",
        ])
    );
    let differ = s
        .update(
            s.demo.member_id,
            json!({ "password": "Nova12345", "password_confirmation": "Nova12346" }),
        )
        .await;
    assert_eq!(differ.json(), invalid(&["As senhas não conferem."]));
    let bad_date = s
        .update(s.demo.member_id, json!({ "birthday": "1990-02-30" }))
        .await;
    assert_eq!(bad_date.json(), invalid(&["Data Inválida!"]));
    // The profile's name, state and birthday are required (spec 002): never cleared.
    for field in ["name", "state", "birthday"] {
        let cleared = s.update(s.demo.member_id, json!({ field: " " })).await;
        assert_eq!(cleared.status, StatusCode::UNPROCESSABLE_ENTITY, "{field}");
        assert_eq!(
            cleared.json(),
            invalid(&["Esse campo é obrigatório"]),
            "{field}"
        );
    }

    let name: String = sqlx::query_scalar("SELECT name FROM users WHERE id = $1")
        .bind(s.demo.member_id)
        .fetch_one(&db)
        .await
        .expect("name");
    assert_eq!(name, "Maria Demo");
}

#[testkit::db_test]
async fn an_email_or_cpf_of_another_account_is_taken(db: PgPool) {
    let s = setup(&db).await;
    sqlx::query("UPDATE users SET cpf = '52998224725' WHERE id = $1")
        .bind(s.demo.staff_id)
        .execute(&db)
        .await
        .expect("staff cpf");
    let email = s
        .update(
            s.demo.member_id,
            json!({
                "email": demo::STAFF_EMAIL.to_uppercase(),
                "current_password": demo::MEMBER_PASSWORD,
            }),
        )
        .await;
    assert_eq!(email.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(email.json(), invalid(&["Este e-mail já está cadastrado."]));
    let cpf = s
        .update(s.demo.member_id, json!({ "cpf": "529.982.247-25" }))
        .await;
    assert_eq!(cpf.json(), invalid(&["Este CPF já está cadastrado."]));

    // The same address in another station is someone else's business.
    let other = common::insert_station(&db, "outro").await;
    common::insert_member(&db, other, "livre@example.com").await;
    let free = s
        .update(
            s.demo.member_id,
            json!({ "email": "livre@example.com", "current_password": demo::MEMBER_PASSWORD }),
        )
        .await;
    assert_eq!(free.status, StatusCode::OK, "{}", free.text);
    assert_eq!(free.json()["user"]["email"], "livre@example.com");
}

#[testkit::db_test]
async fn an_account_without_a_password_sets_email_and_password_here(db: PgPool) {
    let s = setup(&db).await;
    let simple = build::member(s.demo.station_id)
        .cpf("39053344705")
        .insert(&db)
        .await;
    let token = domain::accounts::session::create(&db, simple)
        .await
        .expect("session");
    let update = async |body: Value| {
        send_json(
            &s.app,
            "PUT",
            &format!("/api/auth/update-participant/{simple}"),
            Some(&token),
            &[],
            &body,
        )
        .await
    };

    let before = call(
        &s.app,
        "GET",
        &format!("/api/users-web/{simple}"),
        Some(&token),
        &[],
    )
    .await;
    assert_eq!(before.json()["has_password"], false, "{}", before.text);
    let nothing = update(json!({ "briefingDone": true })).await;
    assert_eq!(nothing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        nothing.json(),
        invalid(&[
            "Informe um e-mail para acessar a sua conta.",
            "Crie uma senha para acessar a sua conta."
        ])
    );
    let done = update(json!({
        "email": "simples@example.com",
        "password": "Simples123",
        "password_confirmation": "Simples123",
        "briefingDone": true,
    }))
    .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert_eq!(done.json()["user"]["briefingDone"], true);
    assert_eq!(done.json()["user"]["has_password"], true);
    let login = post_json(
        &s.app,
        &format!("/api/auth/login/establishment/{}", s.demo.station_id),
        &json!({ "email": "simples@example.com", "password": "Simples123" }).to_string(),
    )
    .await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.text);
}

#[testkit::db_test]
async fn changing_email_or_password_needs_the_current_password(db: PgPool) {
    let s = setup(&db).await;
    let other_device = domain::accounts::session::create(&db, s.demo.member_id)
        .await
        .expect("session");
    let new_password = json!({ "password": "Nova12345", "password_confirmation": "Nova12345" });
    let new_email = json!({ "email": "nova@example.com" });
    for change in [&new_password, &new_email] {
        let missing = s.update(s.demo.member_id, change.clone()).await;
        assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(missing.json(), invalid(&["Informe a sua senha atual."]));
        let mut wrong = change.clone();
        wrong["current_password"] = json!("Errada123");
        let wrong = s.update(s.demo.member_id, wrong).await;
        assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(wrong.json(), invalid(&["Senha atual incorreta."]));
    }
    // The same e-mail again, or other fields, need nothing.
    let same = s
        .update(
            s.demo.member_id,
            json!({ "email": demo::MEMBER_EMAIL.to_uppercase(), "city": "Santos" }),
        )
        .await;
    assert_eq!(same.status, StatusCode::OK, "{}", same.text);
    assert_eq!(same.json()["user"]["has_password"], true);
    assert_eq!(same.json()["user"]["email"], demo::MEMBER_EMAIL);

    let mut right = new_password.clone();
    right["current_password"] = json!(demo::MEMBER_PASSWORD);
    let changed = s.update(s.demo.member_id, right).await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    let me = format!("/api/users-web/{}", s.demo.member_id);
    let this_device = call(&s.app, "GET", &me, Some(&s.token), &[]).await;
    assert_eq!(
        this_device.status,
        StatusCode::OK,
        "the caller stays signed in"
    );
    let elsewhere = call(&s.app, "GET", &me, Some(&other_device), &[]).await;
    assert_eq!(
        elsewhere.status,
        StatusCode::UNAUTHORIZED,
        "other sessions end"
    );
    let login = post_json(
        &s.app,
        &format!("/api/auth/login/establishment/{}", s.demo.station_id),
        &json!({ "email": demo::MEMBER_EMAIL, "password": "Nova12345" }).to_string(),
    )
    .await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.text);
}

#[testkit::db_test]
async fn only_the_member_themselves_may_update(db: PgPool) {
    let s = setup(&db).await;
    let outsider = common::insert_member(
        &db,
        common::insert_station(&db, "outro").await,
        "fora@example.com",
    )
    .await;
    for other in [s.demo.staff_id, outsider, 999_999] {
        let data = s.update(other, json!({ "name": "Invasor" })).await;
        assert_eq!(data.status, StatusCode::FORBIDDEN);
        assert_eq!(data.json(), invalid(&[NOT_AUTHORIZED]));
        let image = s.upload(other, &STANDARD.encode(png(10, 10))).await;
        assert_eq!(image.status, StatusCode::FORBIDDEN);
        assert_eq!(image.json(), invalid(&[NOT_AUTHORIZED]));
    }
    let anonymous = send_json(
        &s.app,
        "PUT",
        &format!("/api/auth/update-participant/{}", s.demo.member_id),
        None,
        &[],
        &json!({ "name": "Anônimo" }),
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let staff_name: String = sqlx::query_scalar("SELECT name FROM users WHERE id = $1")
        .bind(s.demo.staff_id)
        .fetch_one(&db)
        .await
        .expect("name");
    assert_eq!(staff_name, "Equipe Demo");
}

#[testkit::db_test]
async fn a_profile_image_is_stored_shrunk_served_and_replaced(db: PgPool) {
    let s = setup(&db).await;

    let first = s
        .upload(
            s.demo.member_id,
            &format!("data:image/png;base64,{}", STANDARD.encode(png(1200, 800))),
        )
        .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(first.json()["message"], IMAGE_UPDATED);
    let url = first.json()["user"]["image"]
        .as_str()
        .expect("image url")
        .to_string();
    assert!(
        url.starts_with(&format!("/api/media/users/{}/", s.demo.member_id)),
        "{url}"
    );
    assert!(url.ends_with(".png"), "transparency keeps PNG: {url}");

    let served = get(&s.app, &url).await;
    assert_eq!(served.status, StatusCode::OK);
    assert_eq!(served.headers["content-type"], "image/png");
    assert_eq!(
        served.headers["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let bytes = call_bytes(&s.app, &url).await;
    let image = image::load_from_memory(&bytes).expect("an image");
    assert_eq!((image.width(), image.height()), (512, 341));

    // A JPEG (the type the client claims does not matter) replaces it; the old file goes.
    let second = s
        .upload(s.demo.member_id, &STANDARD.encode(jpeg(300, 200)))
        .await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text);
    let new_url = second.json()["user"]["image"]
        .as_str()
        .expect("url")
        .to_string();
    assert!(new_url.ends_with(".jpg"), "{new_url}");
    assert_ne!(new_url, url);
    assert_eq!(get(&s.app, &url).await.status, StatusCode::NOT_FOUND);
    let bytes = call_bytes(&s.app, &new_url).await;
    let image = image::load_from_memory(&bytes).expect("an image");
    assert_eq!((image.width(), image.height()), (300, 200));
    assert_eq!(s.stored_files(), 1);

    let user = call(
        &s.app,
        "GET",
        &format!("/api/users-web/{}", s.demo.member_id),
        Some(&s.token),
        &[],
    )
    .await;
    assert_eq!(user.json()["image"], new_url.as_str());
}

#[testkit::db_test]
async fn what_is_not_a_small_image_is_refused(db: PgPool) {
    let s = setup(&db).await;
    let not_an_image = "Imagem inválida. Envie um arquivo JPG, PNG, WEBP ou GIF.";

    let text = s
        .upload(
            s.demo.member_id,
            &format!(
                "data:image/png;base64,{}",
                STANDARD.encode("não sou uma imagem")
            ),
        )
        .await;
    assert_eq!(text.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(text.json(), invalid(&[not_an_image]));

    let garbage = s
        .upload(s.demo.member_id, "@@@ isto não é base64 @@@")
        .await;
    assert_eq!(garbage.json(), invalid(&[not_an_image]));

    let truncated = png(64, 64);
    let half = s
        .upload(
            s.demo.member_id,
            &STANDARD.encode(&truncated[..truncated.len() / 2]),
        )
        .await;
    assert_eq!(half.json(), invalid(&[not_an_image]));

    // 1.5 MB decoded: over the limit, yet under the body limit, so the spec's message.
    let mut oversize = png(8, 8);
    oversize.resize(1_500_000, 0);
    let big = s
        .upload(s.demo.member_id, &STANDARD.encode(&oversize))
        .await;
    assert_eq!(big.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(big.json(), invalid(&["Erro: Imagem maior que 1MB"]));

    // Small on the wire (one flat colour), but 5000 px a side: refused before decoding.
    let huge = encoded(|out| {
        image::GrayImage::new(5000, 5000)
            .write_to(out, ImageFormat::Png)
            .expect("png")
    });
    assert!(huge.len() < 1024 * 1024, "{} bytes", huge.len());
    let canvas = s.upload(s.demo.member_id, &STANDARD.encode(&huge)).await;
    assert_eq!(canvas.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(canvas.json(), invalid(&[not_an_image]));

    let image: Option<String> = sqlx::query_scalar("SELECT image FROM users WHERE id = $1")
        .bind(s.demo.member_id)
        .fetch_one(&db)
        .await
        .expect("image");
    assert_eq!(image, None);
    assert_eq!(s.stored_files(), 0);
    assert_eq!(
        get(&s.app, "/api/media/users/1/nada.jpg").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get(&s.app, "/api/media/../../etc/passwd").await.status,
        StatusCode::NOT_FOUND
    );
}

/// The raw body of a GET (the `Answer` text is lossy for binary data).
async fn call_bytes(app: &Router, uri: &str) -> Vec<u8> {
    get_range(app, uri, None).await.2
}

/// A GET with an optional `Range`: status, `Content-Range`, raw body.
async fn get_range(
    app: &Router,
    uri: &str,
    range: Option<&str>,
) -> (StatusCode, Option<String>, Vec<u8>) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let mut request = axum::http::Request::get(uri);
    if let Some(range) = range {
        request = request.header("range", range);
    }
    let request = request.body(axum::body::Body::empty()).expect("request");
    let response = app.clone().oneshot(request).await.expect("infallible");
    let status = response.status();
    let content_range = response
        .headers()
        .get("content-range")
        .map(|value| value.to_str().expect("ascii").to_string());
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes()
        .to_vec();
    (status, content_range, body)
}

#[testkit::db_test]
async fn media_answers_one_byte_range_so_players_can_seek(db: PgPool) {
    let s = setup(&db).await;
    let image = s
        .upload(s.demo.member_id, &STANDARD.encode(png(64, 64)))
        .await;
    let url = image.json()["user"]["image"]
        .as_str()
        .expect("image url")
        .to_string();
    let whole = call_bytes(&s.app, &url).await;
    let size = whole.len();
    assert!(size > 100, "{size}");
    let plain = get(&s.app, &url).await;
    assert_eq!(plain.headers["accept-ranges"], "bytes");

    let (status, range, body) = get_range(&s.app, &url, Some("bytes=10-19")).await;
    assert_eq!(status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(
        range.as_deref(),
        Some(format!("bytes 10-19/{size}").as_str())
    );
    assert_eq!(body, whole[10..20]);

    let (status, range, body) = get_range(&s.app, &url, Some("bytes=-5")).await;
    assert_eq!(status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(
        range.as_deref(),
        Some(format!("bytes {}-{}/{size}", size - 5, size - 1).as_str())
    );
    assert_eq!(body, whole[size - 5..]);

    let past = format!("bytes={size}-");
    let (status, range, body) = get_range(&s.app, &url, Some(&past)).await;
    assert_eq!(status, StatusCode::RANGE_NOT_SATISFIABLE);
    assert_eq!(range.as_deref(), Some(format!("bytes */{size}").as_str()));
    assert_eq!(
        serde_json::from_slice::<Value>(&body).expect("envelope"),
        json!({ "error": "O intervalo pedido começa depois do fim do arquivo" })
    );

    // Several ranges at once: the whole object, as HTTP allows.
    let (status, range, body) = get_range(&s.app, &url, Some("bytes=0-1,4-5")).await;
    assert_eq!((status, range), (StatusCode::OK, None));
    assert_eq!(body, whole);

    let (status, _, _) = get_range(&s.app, "/api/media/users/1/nada.jpg", Some("bytes=0-1")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[testkit::db_test]
async fn over_long_or_malformed_media_keys_answer_404(db: PgPool) {
    let s = setup(&db).await;
    let image = s
        .upload(s.demo.member_id, &STANDARD.encode(png(64, 64)))
        .await;
    assert_eq!(image.status, StatusCode::OK, "{}", image.text);
    let url = image.json()["user"]["image"]
        .as_str()
        .expect("image url")
        .to_string();
    let folder = url.rsplit_once('/').expect("folder").0.to_string();

    for path in [
        format!("/api/media/users/{}", "a".repeat(300)),
        format!("/api/media/{}", "a/".repeat(3000) + "a.jpg"),
        format!("{url}/outro.jpg"),
        folder,
        "/api/media/users".to_string(),
        "/api/media/users/1/%00.jpg".to_string(),
        "/api/media/users/1/%FF.jpg".to_string(),
    ] {
        let answer = get(&s.app, &path).await;
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "{path}: {}",
            answer.text
        );
    }
}
