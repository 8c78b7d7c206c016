//! Paths outside `/api` answer the web app, so deep links work after a reload.

use crate::common::{app_with, call, get};
use axum::http::StatusCode;
use sqlx::PgPool;

fn built_app_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "filia-web-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(dir.join("assets")).expect("dir");
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><div id=root>filia</div>",
    )
    .expect("index");
    std::fs::write(dir.join("assets/app-1a2b.js"), "console.log(1)").expect("asset");
    dir
}

#[testkit::db_test]
async fn deep_links_answer_the_app_and_assets_are_cached(db: PgPool) {
    let dir = built_app_dir();
    let app = app_with(db, &[("FILIA_WEB_DIR", dir.to_str().expect("utf-8"))]);

    let deep_link = get(&app, "/not-autorized").await;
    let asset = get(&app, "/assets/app-1a2b.js").await;
    let api = get(&app, "/api/not-autorized").await;

    assert_eq!(deep_link.status, StatusCode::OK);
    assert!(deep_link.text.contains("filia"));
    assert_eq!(deep_link.headers["cache-control"], "no-cache");
    assert_eq!(asset.status, StatusCode::OK);
    assert_eq!(
        asset.headers["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(
        api.status,
        StatusCode::NOT_FOUND,
        "/api paths never fall back to the app"
    );
    assert_eq!(api.json()["error"], "Rota não encontrada");
    std::fs::remove_dir_all(dir).ok();
}

#[testkit::db_test]
async fn the_build_s_compressed_copies_go_to_browsers_that_accept_them(db: PgPool) {
    let dir = built_app_dir();
    // The build writes these beside each file (web/scripts/compress-assets.js); the server
    // sends them as they are, so any bytes tell which copy was chosen.
    for (file, copy) in [
        ("assets/app-1a2b.js.gz", "gzip copy of the script"),
        ("assets/app-1a2b.js.br", "brotli copy of the script"),
        ("index.html.gz", "gzip copy of the page"),
    ] {
        std::fs::write(dir.join(file), copy).expect("compressed copy");
    }
    let app = app_with(db, &[("FILIA_WEB_DIR", dir.to_str().expect("utf-8"))]);
    let fetch = |path: &'static str, accepts: &'static str| {
        let app = app.clone();
        async move { call(&app, "GET", path, None, &[("accept-encoding", accepts)]).await }
    };

    let gzip = fetch("/assets/app-1a2b.js", "gzip").await;
    assert_eq!(gzip.status, StatusCode::OK);
    assert_eq!(gzip.headers["content-encoding"], "gzip");
    assert_eq!(gzip.text, "gzip copy of the script");
    assert!(
        gzip.headers["content-type"]
            .to_str()
            .expect("ascii")
            .contains("javascript")
    );
    assert_eq!(gzip.headers["vary"], "accept-encoding");
    assert_eq!(
        gzip.headers["cache-control"],
        "public, max-age=31536000, immutable"
    );

    let brotli = fetch("/assets/app-1a2b.js", "gzip, deflate, br").await;
    assert_eq!(brotli.headers["content-encoding"], "br");
    assert_eq!(brotli.text, "brotli copy of the script");

    let plain = fetch("/assets/app-1a2b.js", "identity").await;
    assert!(!plain.headers.contains_key("content-encoding"));
    assert_eq!(plain.text, "console.log(1)");

    let deep_link = fetch("/homepage/extrato/extratos-totais", "gzip").await;
    assert_eq!(deep_link.status, StatusCode::OK);
    assert_eq!(deep_link.headers["content-encoding"], "gzip");
    assert_eq!(deep_link.text, "gzip copy of the page");
    assert_eq!(deep_link.headers["cache-control"], "no-cache");
    std::fs::remove_dir_all(dir).ok();
}

const CSP: &str = "default-src 'self'; script-src 'self' https://challenges.cloudflare.com; \
frame-src https://challenges.cloudflare.com https://www.youtube-nocookie.com \
https://player.vimeo.com; connect-src 'self'; \
img-src 'self' data:; style-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; \
form-action 'self'; frame-ancestors 'none'";

#[testkit::db_test]
async fn every_answer_carries_the_security_headers(db: PgPool) {
    let dir = built_app_dir();
    let app = app_with(
        db.clone(),
        &[("FILIA_WEB_DIR", dir.to_str().expect("utf-8"))],
    );
    for path in [
        "/",
        "/redefinir-senha/abc/maria%40example.com",
        "/assets/app-1a2b.js",
        "/api/config",
        "/api/stations/999999",
        "/api/nada",
        "/healthz",
    ] {
        let answer = get(&app, path).await;
        assert_eq!(answer.headers["content-security-policy"], CSP, "{path}");
        assert_eq!(
            answer.headers["x-content-type-options"], "nosniff",
            "{path}"
        );
        assert_eq!(
            answer.headers["referrer-policy"], "strict-origin-when-cross-origin",
            "{path}"
        );
        assert!(
            !answer.headers.contains_key("strict-transport-security"),
            "{path}: plain http"
        );
    }

    let https = app_with(
        db,
        &[
            ("FILIA_WEB_DIR", dir.to_str().expect("utf-8")),
            ("FILIA_PUBLIC_URL", "https://clube.example.com.br"),
        ],
    );
    for path in ["/", "/api/nada"] {
        let answer = get(&https, path).await;
        assert_eq!(
            answer.headers["strict-transport-security"], "max-age=31536000",
            "{path}"
        );
        assert_eq!(answer.headers["content-security-policy"], CSP, "{path}");
    }
}

#[testkit::db_test]
async fn with_pagarme_the_page_may_reach_its_card_tokenizer_only(db: PgPool) {
    let key = include_str!("../../../domain/tests/fixtures/pagarme_test_public.pem");
    let app = app_with(
        db,
        &[
            ("FILIA_PAYMENTS", "pagarme"),
            ("FILIA_PAGARME_SECRET_KEY", "sk_test_x"),
            ("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY", key),
            ("FILIA_PAGARME_PUBLIC_KEY", "pk_test_x"),
        ],
    );
    let answer = get(&app, "/api/nada").await;
    assert_eq!(
        answer.headers["content-security-policy"],
        CSP.replace(
            "connect-src 'self';",
            "connect-src 'self' https://api.pagar.me;"
        )
    );
}
