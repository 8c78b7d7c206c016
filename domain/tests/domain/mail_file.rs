//! Without `FILIA_SMTP_URL`, messages are written as `.eml` files under the data folder.

use std::path::PathBuf;

use domain::Config;
use domain::infra::mail::{Mailer, OutgoingMail};

/// A fresh data folder inside Cargo's temporary directory for integration tests.
fn data_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "mail-file-{}-{}",
        std::process::id(),
        chrono::Utc::now().timestamp_nanos_opt().unwrap_or_default()
    ));
    std::fs::create_dir_all(&dir).expect("data folder");
    dir
}

#[tokio::test]
async fn each_message_becomes_one_eml_file() {
    let dir = data_dir();
    let data_dir = dir.to_string_lossy().into_owned();
    let config = Config::from_lookup(|name| (name == "FILIA_DATA_DIR").then(|| data_dir.clone()))
        .expect("valid configuration");
    let mailer = Mailer::from_config(&config).expect("mailer");
    let mail = OutgoingMail {
        from: "Clube Demo <nao-responda@demo.filia.local>".into(),
        to: "maria@example.com".into(),
        subject: "Seu pedido MARKER-SUBJECT".into(),
        html: "<p>MARKER-HTML</p>".into(),
        text: "MARKER-TEXT".into(),
    };

    mailer.send(&mail).await.expect("written");

    let files: Vec<PathBuf> = std::fs::read_dir(dir.join("mail"))
        .expect("mail folder exists")
        .map(|entry| entry.expect("entry").path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(
        files[0].extension().and_then(|ext| ext.to_str()),
        Some("eml")
    );
    let eml = std::fs::read_to_string(&files[0]).expect("readable");
    assert!(eml.contains("Subject: Seu pedido MARKER-SUBJECT"));
    assert!(eml.contains("multipart/alternative"));
    assert!(eml.contains("Content-Type: text/plain"));
    assert!(eml.contains("Content-Type: text/html"));
    assert!(eml.contains("MARKER-TEXT"));
    assert!(eml.contains("<p>MARKER-HTML</p>"));

    mailer.send(&mail).await.expect("written again");
    assert_eq!(
        std::fs::read_dir(dir.join("mail")).expect("folder").count(),
        2
    );

    std::fs::remove_dir_all(&dir).expect("clean up");
}
