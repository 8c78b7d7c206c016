//! `mail.send` through the fleet: delivered to a real SMTP listener on loopback, and retried
//! when the server cannot be reached.

mod common;

use std::time::Duration;

use common::{services, wait_for, wait_for_state};
use domain::infra::mail::{Branding, Button, Notice, OutgoingMail};
use domain::staff::Scope;
use jobs::console::{self, Change};
use jobs::fleet;
use jobs::kinds::MailSend;
use jobs::{Enqueue, JobState};
use mail_parser::{MessageParser, MimeHeaders};
use sqlx::PgPool;
use testkit::smtp::start_sink;

fn welcome(to: &str) -> MailSend {
    let branding = Branding::new(
        "Clube Filia Demo",
        Some("/brand/demo/logo.svg"),
        "#0E7C66",
        "https://demo.filia.com.br",
    );
    MailSend::new(OutgoingMail::notice(
        &branding,
        to,
        "Bem-vindo ao Clube Filia Demo",
        &Notice {
            heading: "Sua conta está ativa".into(),
            paragraphs: vec!["Você já pode acumular pontos.".into()],
            button: Some(Button {
                label: "Entrar".into(),
                url: "https://demo.filia.com.br/login".into(),
            }),
        },
    ))
}

async fn enqueue(db: &PgPool, job: MailSend) -> String {
    Enqueue::new(job).commit(db).await.expect("enqueue").id
}

#[sqlx::test(migrator = "schema::MIGRATOR")]
async fn an_email_job_is_delivered_with_html_and_text_parts(db: PgPool) {
    let (port, mut inbox) = start_sink("250 2.1.5 Ok").await;
    let fleet = fleet::spawn(
        services(&db, Some(&format!("smtp://127.0.0.1:{port}"))),
        Vec::new(),
    );

    let id = enqueue(&db, welcome("Ana Lima <ana@example.com>")).await;

    let done = wait_for_state(&db, &id, JobState::Succeeded, Duration::from_secs(10)).await;
    assert_eq!(
        done.result,
        Some(serde_json::json!({ "to": "Ana Lima <ana@example.com>" }))
    );
    let captured = tokio::time::timeout(Duration::from_secs(5), inbox.recv())
        .await
        .expect("in time")
        .expect("one message");
    assert!(
        captured
            .rcpt_to
            .iter()
            .any(|rcpt| rcpt.contains("<ana@example.com>"))
    );
    let message = MessageParser::default()
        .parse(&captured.data)
        .expect("MIME");
    assert_eq!(message.subject(), Some("Bem-vindo ao Clube Filia Demo"));
    let to = message.to().and_then(|to| to.first()).expect("To");
    assert_eq!(to.address(), Some("ana@example.com"));
    let text = message.body_text(0).expect("text part");
    assert!(text.contains("Você já pode acumular pontos."));
    assert!(text.contains("https://demo.filia.com.br/login"));
    let html = message.body_html(0).expect("html part");
    assert!(html.contains("#0E7C66") && html.contains("Sua conta está ativa"));
    assert!(message.parts.iter().any(|part| {
        part.content_type()
            .is_some_and(|ct| ct.subtype() == Some("html"))
    }));
    fleet.stop().await.expect("clean stop");
}

#[sqlx::test(migrator = "schema::MIGRATOR")]
async fn an_unreachable_smtp_server_is_a_retried_failure(db: PgPool) {
    // A port that was just free: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("free port")
        .port();
    let fleet = fleet::spawn(
        services(&db, Some(&format!("smtp://127.0.0.1:{port}"))),
        Vec::new(),
    );

    let id = enqueue(&db, welcome("ana@example.com")).await;

    let retrying = wait_for(&db, &id, Duration::from_secs(15), |view| {
        view.attempts >= 1 && !matches!(view.state, JobState::Running | JobState::Queued)
    })
    .await;
    assert_eq!(retrying.state, JobState::Retrying, "{retrying:?}");
    assert_eq!(retrying.attempts, 1);
    assert_eq!(
        retrying.error.as_deref(),
        Some("O servidor de e-mail não respondeu; vamos tentar de novo.")
    );
    // The next attempt waits for mail.send's backoff (30 s), not a busy loop.
    let wait = (retrying.run_at - chrono::Utc::now()).num_seconds();
    assert!((25..=34).contains(&wait), "next attempt in {wait}s");
    let detail: String = sqlx::query_scalar("SELECT detail FROM job_failures WHERE job_id = $1")
        .bind(&id)
        .fetch_one(&db)
        .await
        .expect("failure recorded");
    assert!(detail.contains("unreachable"), "{detail}");
    fleet.stop().await.expect("clean stop");
}

/// The stored payload of a job, as JSON.
async fn stored_payload(db: &PgPool, id: &str) -> serde_json::Value {
    sqlx::query_scalar("SELECT convert_from(job, 'UTF8')::jsonb FROM apalis.jobs WHERE id = $1")
        .bind(id)
        .fetch_one(db)
        .await
        .expect("job")
}

#[sqlx::test(migrator = "schema::MIGRATOR")]
async fn a_delivered_email_leaves_no_body_behind_and_is_never_sent_twice(db: PgPool) {
    let (port, mut inbox) = start_sink("250 2.1.5 Ok").await;
    let fleet = fleet::spawn(
        services(&db, Some(&format!("smtp://127.0.0.1:{port}"))),
        Vec::new(),
    );
    let id = enqueue(&db, welcome("ana@example.com")).await;
    wait_for_state(&db, &id, JobState::Succeeded, Duration::from_secs(10)).await;
    tokio::time::timeout(Duration::from_secs(5), inbox.recv())
        .await
        .expect("in time")
        .expect("one message");

    // What the console shows stays; the body (codes, reset links) is gone.
    let stored = stored_payload(&db, &id).await;
    let mail = &stored["args"]["mail"];
    assert_eq!(mail["to"], "ana@example.com", "{stored}");
    assert_eq!(mail["subject"], "Bem-vindo ao Clube Filia Demo");
    assert!(
        mail.get("text").is_none() && mail.get("html").is_none(),
        "{stored}"
    );
    assert!(!stored.to_string().contains("acumular pontos"), "{stored}");

    // Run again (staff re-run it after its worker died before the queue heard back): the
    // job succeeds without sending anything.
    sqlx::query(
        "UPDATE apalis.jobs SET status = 'Failed', attempts = max_attempts, done_at = now()
          WHERE id = $1",
    )
    .bind(&id)
    .execute(&db)
    .await
    .expect("as if failed");
    let mut tx = db.begin().await.expect("tx");
    let change = console::rerun(&mut tx, Scope::AllStations, &id)
        .await
        .expect("rerun");
    assert!(matches!(change, Change::Done { .. }), "{change:?}");
    tx.commit().await.expect("commit");
    let again = wait_for(&db, &id, Duration::from_secs(10), |view| {
        view.state == JobState::Succeeded && view.attempts == 1
    })
    .await;
    assert_eq!(
        again.result,
        Some(serde_json::json!({ "to": "ana@example.com", "already_delivered": true }))
    );
    assert!(inbox.try_recv().is_err(), "sent twice");
    fleet.stop().await.expect("clean stop");
}
