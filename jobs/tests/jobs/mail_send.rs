//! `mail.send` through the fleet: delivered to a real SMTP listener on loopback, retried
//! when the server cannot be reached, and never sent twice: not by a re-run of a delivered
//! job, not by a run that finds a send begun and unsettled (until staff re-run it), not by
//! two runs at once.

use std::time::Duration;

use crate::common::{services, wait_for, wait_for_state};
use domain::infra::mail::{Branding, Button, Notice, OutgoingMail};
use domain::staff::Scope;
use jobs::console::{self, Change};
use jobs::fleet;
use jobs::kinds::MailSend;
use jobs::{Enqueue, Job, JobContext, JobState};
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

#[testkit::db_test]
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

#[testkit::db_test]
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
    // Nothing went out: the mark is gone, so the next attempt sends.
    assert_eq!(effect_begun_at(&db, &id).await, None);
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

#[testkit::db_test]
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

/// What the member reads when a message may have gone out and is not sent again by itself.
const MAY_HAVE_ARRIVED: &str = "O envio do e-mail foi interrompido e ele pode ter sido entregue; não será reenviado automaticamente.";

/// When the job's last run began handing its message to the relay, if it did.
async fn effect_begun_at(db: &PgPool, id: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    sqlx::query_scalar("SELECT effect_begun_at FROM job_records WHERE job_id = $1")
        .bind(id)
        .fetch_optional(db)
        .await
        .expect("record")
        .flatten()
}

#[testkit::db_test]
async fn a_send_begun_and_never_settled_is_not_repeated_until_staff_rerun_it(db: PgPool) {
    let (port, mut inbox) = start_sink("250 2.1.5 Ok").await;
    let id = enqueue(&db, welcome("ana@example.com")).await;
    // A run began delivering, then its process died (or lost the database) before the
    // outcome was recorded; the rescue put the job back with that attempt counted.
    sqlx::query(
        "INSERT INTO job_records (job_id, effect_begun_at) VALUES ($1, now() - interval '1 minute')
         ON CONFLICT (job_id) DO UPDATE SET effect_begun_at = EXCLUDED.effect_begun_at",
    )
    .bind(&id)
    .execute(&db)
    .await
    .expect("mark");
    sqlx::query("UPDATE apalis.jobs SET attempts = 1 WHERE id = $1")
        .bind(&id)
        .execute(&db)
        .await
        .expect("one attempt lost");
    let fleet = fleet::spawn(
        services(&db, Some(&format!("smtp://127.0.0.1:{port}"))),
        Vec::new(),
    );

    let failed = wait_for_state(&db, &id, JobState::Failed, Duration::from_secs(10)).await;
    assert_eq!(failed.error.as_deref(), Some(MAY_HAVE_ARRIVED));
    assert_eq!(
        failed.attempts, 2,
        "failed at once, without using the other attempts"
    );
    let detail: String = sqlx::query_scalar(
        "SELECT detail FROM job_failures WHERE job_id = $1 ORDER BY id DESC LIMIT 1",
    )
    .bind(&id)
    .fetch_one(&db)
    .await
    .expect("failure recorded");
    assert!(
        detail.contains("re-run the job to send it again"),
        "{detail}"
    );
    assert!(inbox.try_recv().is_err(), "sent again by itself");

    // Staff decide the member should get it, knowing it may be a second copy.
    let mut tx = db.begin().await.expect("tx");
    let change = console::rerun(&mut tx, Scope::AllStations, &id)
        .await
        .expect("rerun");
    assert!(matches!(change, Change::Done { .. }), "{change:?}");
    tx.commit().await.expect("commit");
    wait_for_state(&db, &id, JobState::Succeeded, Duration::from_secs(10)).await;
    tokio::time::timeout(Duration::from_secs(5), inbox.recv())
        .await
        .expect("in time")
        .expect("sent by the re-run");
    assert!(inbox.try_recv().is_err(), "sent once");
    fleet.stop().await.expect("clean stop");
}

/// Two runs of one job at the same moment (a fetch lost in a crash lets a second worker
/// take a job the first still runs): one sends, the other finds the send begun.
#[testkit::db_test]
async fn two_runs_of_one_mail_job_at_once_send_it_once(db: PgPool) {
    let (port, mut inbox) = start_sink("250 2.1.5 Ok").await;
    let services = services(&db, Some(&format!("smtp://127.0.0.1:{port}")));
    let id = enqueue(&db, welcome("ana@example.com")).await;
    let run = |worker: &str| {
        let ctx = JobContext {
            id: id.clone(),
            attempt: 1,
            worker: worker.into(),
            taken_at: None,
            services: services.clone(),
        };
        tokio::spawn(welcome("ana@example.com").run(ctx))
    };
    let (first, second) = (run("mail.send@a:1#0"), run("mail.send@b:2#0"));
    let outcomes = [first.await.expect("run"), second.await.expect("run")];

    let sent = outcomes.iter().filter(|outcome| outcome.is_ok()).count();
    assert_eq!(sent, 1, "{outcomes:?}");
    let refused = outcomes
        .iter()
        .find_map(|outcome| outcome.as_ref().err())
        .expect("one refused");
    assert_eq!(refused.summary, MAY_HAVE_ARRIVED);
    tokio::time::timeout(Duration::from_secs(5), inbox.recv())
        .await
        .expect("in time")
        .expect("one message");
    assert!(inbox.try_recv().is_err(), "sent twice");
}

/// A run whose hold is gone (the job was taken again after a lost fetch) leaves the
/// message to the run that holds the job now.
#[testkit::db_test]
async fn a_run_that_no_longer_holds_its_job_sends_nothing(db: PgPool) {
    let (port, mut inbox) = start_sink("250 2.1.5 Ok").await;
    let id = enqueue(&db, welcome("ana@example.com")).await;
    let taken_again: chrono::DateTime<chrono::Utc> = sqlx::query_scalar(
        "UPDATE apalis.jobs SET status = 'Running', lock_by = 'mail.send@a:1#0', lock_at = now()
         WHERE id = $1 RETURNING lock_at",
    )
    .bind(&id)
    .fetch_one(&db)
    .await
    .expect("held");
    let ctx = JobContext {
        id: id.clone(),
        attempt: 1,
        worker: "mail.send@a:1#0".into(),
        taken_at: Some(taken_again - chrono::Duration::seconds(5)),
        services: services(&db, Some(&format!("smtp://127.0.0.1:{port}"))),
    };

    let outcome = welcome("ana@example.com")
        .run(ctx)
        .await
        .expect("no failure");
    assert_eq!(outcome["sent"], false, "{outcome}");
    assert_eq!(effect_begun_at(&db, &id).await, None);
    assert!(
        inbox.try_recv().is_err(),
        "sent by a run that lost its hold"
    );
}
