//! The support console's job queries and actions against a real fleet: the retry backoff
//! stretched by configuration, and an e-mail that failed while SMTP was down, re-run by
//! staff once it is back, delivered.

use std::sync::Arc;
use std::time::Duration;

use crate::common::{wait_for, wait_for_state};
use domain::Config;
use domain::infra::mail::{Branding, Notice, OutgoingMail};
use domain::staff::Scope;
use jobs::console::{self, Change, JobFilter};
use jobs::fleet;
use jobs::kinds::MailSend;
use jobs::{Enqueue, JobState, Services};
use sqlx::PgPool;

/// Services whose configuration has the test's SMTP address and backoff scale, on a pool
/// sized for a fleet beside the test's own.
fn services(db: &PgPool, smtp_url: &str, backoff_scale: &str) -> Arc<Services> {
    let (smtp_url, backoff_scale) = (smtp_url.to_string(), backoff_scale.to_string());
    let data_dir = std::env::temp_dir().join("filia-jobs-tests");
    let config = Config::from_lookup(|name| match name {
        "FILIA_SMTP_URL" => Some(smtp_url.clone()),
        "FILIA_JOB_BACKOFF_SCALE" => Some(backoff_scale.clone()),
        "FILIA_DATA_DIR" => Some(data_dir.display().to_string()),
        _ => None,
    })
    .expect("configuration");
    let pool = fleet::pool_beside(db);
    Services::new(pool, config).expect("services")
}

/// Waits for the fleet to have declared `queue`, answering its backoff base and cap in
/// seconds.
async fn declared_backoff(db: &PgPool, queue: &str) -> (f64, f64) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let row: Option<(f64, f64)> = sqlx::query_as(
            "SELECT extract(epoch FROM backoff_base)::float8, extract(epoch FROM backoff_max)::float8
             FROM job_queues WHERE name = $1",
        )
        .bind(queue)
        .fetch_optional(db)
        .await
        .expect("query");
        if let Some(row) = row {
            return row;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{queue} never declared"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("free port")
        .port()
}

#[testkit::db_test]
async fn the_backoff_scale_stretches_every_declared_queue(db: PgPool) {
    let stretched = services(&db, "smtp://127.0.0.1:1", "2.5");
    let fleet = fleet::spawn(stretched.clone(), Vec::new());
    // canary: 1 s up to 60 s; mail.send: 30 s up to 1 h.
    assert_eq!(declared_backoff(&db, "canary").await, (2.5, 150.0));
    assert_eq!(declared_backoff(&db, "mail.send").await, (75.0, 9000.0));
    fleet.stop().await.expect("clean stop");
    stretched.db.close().await;

    // A later fleet with the default scale declares the kinds' own backoff again.
    let default = services(&db, "smtp://127.0.0.1:1", "1");
    let fleet = fleet::spawn(default.clone(), Vec::new());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while declared_backoff(&db, "canary").await != (1.0, 60.0) {
        assert!(tokio::time::Instant::now() < deadline, "not re-declared");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    fleet.stop().await.expect("clean stop");
    default.db.close().await;
}

fn notice(to: &str) -> MailSend {
    let branding = Branding::new(
        "Clube Filia Demo",
        None,
        "#0E7C66",
        "https://demo.filia.com.br",
    );
    MailSend::new(OutgoingMail::notice(
        &branding,
        to,
        "Seu código de ativação",
        &Notice {
            heading: "Confirme seu cadastro".into(),
            paragraphs: vec!["Use o código 123456.".into()],
            button: None,
        },
    ))
}

#[testkit::db_test]
async fn an_email_that_failed_while_smtp_was_down_is_delivered_when_staff_rerun_it(db: PgPool) {
    let demo = seed::demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    // Nothing listens on this port yet; the retry waits 1000 x 30 s, so only a re-run
    // sends the mail again while the test runs.
    let port = free_port();
    let fleet_services = services(&db, &format!("smtp://127.0.0.1:{port}"), "1000");
    let fleet_db = fleet_services.db.clone();
    let fleet = fleet::spawn(fleet_services, Vec::new());
    let id = Enqueue::new(notice("maria@example.com"))
        .owner(demo.station_id, Some(demo.member_id))
        .about("user", demo.member_id)
        .commit(&db)
        .await
        .expect("enqueue")
        .id;
    let retrying = wait_for(&db, &id, Duration::from_secs(15), |view| {
        view.attempts >= 1 && !matches!(view.state, JobState::Running | JobState::Queued)
    })
    .await;
    assert_eq!(retrying.state, JobState::Retrying, "{retrying:?}");
    assert!(retrying.run_at > chrono::Utc::now() + chrono::Duration::hours(1));

    // Staff find it by the error text, in the demo station's scope.
    let filter = JobFilter {
        q: Some("SERVIDOR DE E-MAIL".into()),
        ..JobFilter::default()
    };
    let mut conn = db.acquire().await.expect("connection");
    let found = console::list(
        &mut conn,
        Scope::Station(demo.station_id),
        &filter,
        None,
        50,
    )
    .await
    .expect("list");
    let rerunnable =
        console::count_rerunnable(&mut *conn, Scope::Station(demo.station_id), &filter)
            .await
            .expect("count");
    assert_eq!((found.jobs.len(), rerunnable), (1, 1));
    assert_eq!(found.jobs[0].id, id);
    assert_eq!(found.jobs[0].state, JobState::Retrying);
    drop(conn);

    // SMTP is back on the same port; staff re-run the job.
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .expect("the port is still free");
    let (_, mut inbox) = testkit::smtp::serve_on(listener, "250 2.1.5 Ok");
    let mut tx = db.begin().await.expect("tx");
    let change = console::rerun(&mut tx, Scope::Station(demo.station_id), &id)
        .await
        .expect("rerun");
    let Change::Done {
        before,
        job: summary,
    } = change
    else {
        panic!("not re-run: {change:?}");
    };
    assert_eq!(before, JobState::Retrying);
    assert_eq!((summary.state, summary.attempts), (JobState::Queued, 0));
    assert!(!summary.can_rerun && summary.can_cancel, "{summary:?}");
    tx.commit().await.expect("commit");

    let done = wait_for_state(&db, &id, JobState::Succeeded, Duration::from_secs(10)).await;
    assert_eq!(done.attempts, 1, "the re-run's first attempt delivered it");
    let captured = tokio::time::timeout(Duration::from_secs(5), inbox.recv())
        .await
        .expect("in time")
        .expect("one message");
    assert!(
        captured
            .rcpt_to
            .iter()
            .any(|rcpt| rcpt.contains("<maria@example.com>"))
    );

    // The detail keeps the failed attempt from before the re-run, and who the job serves.
    let mut conn = db.acquire().await.expect("connection");
    let detail = console::detail(&mut conn, Scope::AllStations, &id)
        .await
        .expect("detail")
        .expect("found");
    assert_eq!(detail.summary.state, JobState::Succeeded);
    assert_eq!(detail.failures.len(), 1);
    assert_eq!(detail.failures[0].attempt, 1);
    assert!(detail.failures[0].summary.contains("não respondeu"));
    assert_eq!(
        detail
            .payload
            .as_ref()
            .and_then(|p| p["mail"]["to"].as_str()),
        Some("maria@example.com")
    );
    assert_eq!(
        detail.owner.user.as_ref().map(|user| user.id),
        Some(demo.member_id)
    );
    // A succeeded job cannot be re-run, and another station's staff cannot see it.
    let mut tx = db.begin().await.expect("tx");
    assert_eq!(
        console::rerun(&mut tx, Scope::AllStations, &id)
            .await
            .expect("rerun"),
        Change::NotAllowed
    );
    assert_eq!(
        console::rerun(&mut tx, Scope::Station(demo.station_id + 1), &id)
            .await
            .expect("rerun"),
        Change::NotFound
    );
    drop(tx);
    fleet.stop().await.expect("clean stop");
    fleet_db.close().await;
}

#[testkit::db_test]
async fn an_emails_body_is_neither_shown_nor_searchable(db: PgPool) {
    let demo = seed::demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let mut mail = notice("maria@example.com");
    mail.mail.text = "Seu código é 948271.".into();
    mail.mail.html = "<p>Seu código é <b>948271</b>.</p>".into();
    let id = Enqueue::new(mail)
        .owner(demo.station_id, Some(demo.member_id))
        .commit(&db)
        .await
        .expect("enqueue")
        .id;
    let mut conn = db.acquire().await.expect("connection");

    let detail = console::detail(&mut conn, Scope::AllStations, &id)
        .await
        .expect("detail")
        .expect("found");
    let payload = detail.payload.expect("payload");
    assert_eq!(payload["mail"]["to"], "maria@example.com");
    assert_eq!(payload["mail"]["subject"], "Seu código de ativação");
    assert!(payload["mail"].get("text").is_none() && payload["mail"].get("html").is_none());
    assert!(!payload.to_string().contains("948271"), "{payload}");
    // Waiting: it can be cancelled, not re-run; enqueued a moment ago.
    assert!(detail.summary.can_cancel && !detail.summary.can_rerun);
    let age = chrono::Utc::now() - detail.summary.created_at;
    assert!(age >= chrono::Duration::zero() && age < chrono::Duration::minutes(1));

    let search = |q: &str| JobFilter {
        q: Some(q.into()),
        ..JobFilter::default()
    };
    let by_code = console::list(&mut conn, Scope::AllStations, &search("948271"), None, 50)
        .await
        .expect("list");
    assert!(by_code.jobs.is_empty(), "the code is not searchable");
    let by_recipient = console::list(
        &mut conn,
        Scope::AllStations,
        &search("MARIA@example"),
        None,
        50,
    )
    .await
    .expect("list");
    assert_eq!(by_recipient.jobs.len(), 1);
    assert_eq!(by_recipient.jobs[0].id, id);
}

/// Jobs written straight into the table as a busy deployment leaves them: one canary job
/// per payload in `status`, enqueued and finished `age` ago, oldest first. Answers the ids.
async fn retained(
    db: &PgPool,
    payloads: &[String],
    status: &str,
    age: chrono::Duration,
) -> Vec<String> {
    let at = chrono::Utc::now() - age;
    let ids: Vec<String> = (0..payloads.len())
        .map(|n| ulid::Ulid::from_parts(at.timestamp_millis() as u64, n as u128).to_string())
        .collect();
    sqlx::query(
        r#"INSERT INTO apalis.jobs (id, job_type, job, status, attempts, max_attempts, run_at,
                                    done_at, last_result)
           SELECT id, 'canary', convert_to(payload, 'UTF8'), $3,
                  CASE WHEN $3 = 'Pending' THEN 0 ELSE 1 END, 1, $4,
                  CASE WHEN $3 IN ('Done', 'Failed', 'Killed') THEN $4 END,
                  CASE WHEN $3 = 'Done' THEN '{"Ok": null}'::jsonb END
           FROM unnest($1::text[], $2::text[]) AS t (id, payload)"#,
    )
    .bind(&ids)
    .bind(payloads)
    .bind(status)
    .bind(at)
    .execute(db)
    .await
    .expect("retained jobs");
    ids
}

fn canary_payloads(n: usize, key: &str) -> Vec<String> {
    vec![format!(r#"{{"v": 1, "args": {{"key": "{key}"}}}}"#); n]
}

#[testkit::db_test]
async fn the_overview_counts_every_unfinished_job_and_the_last_days_finished_ones(db: PgPool) {
    let day = chrono::Duration::days(1);
    retained(&db, &canary_payloads(3, "antigo"), "Done", day * 2).await;
    retained(
        &db,
        &canary_payloads(2, "recente"),
        "Done",
        chrono::Duration::minutes(5),
    )
    .await;
    retained(&db, &canary_payloads(1, "esquecida"), "Pending", day * 3).await;
    retained(&db, &canary_payloads(4, "falhou"), "Failed", day * 5).await;

    let queues = console::queues(&db, Scope::AllStations, Some("canary"))
        .await
        .expect("queues");
    let counts = queues[0].counts;
    assert_eq!(
        (counts.succeeded, counts.queued, counts.failed),
        (2, 1, 0),
        "{counts:?}"
    );
}

#[testkit::db_test]
async fn a_page_looks_at_a_bounded_window_and_hands_on_a_cursor(db: PgPool) {
    let window = usize::try_from(console::SCAN_WINDOW).expect("window");
    let mut payloads = canary_payloads(window + 5, "palha");
    payloads[0] = canary_payloads(1, "agulha").remove(0);
    let ids = retained(&db, &payloads, "Done", chrono::Duration::hours(1)).await;
    let filter = JobFilter {
        q: Some("agulha".into()),
        ..JobFilter::default()
    };
    let mut conn = db.acquire().await.expect("connection");

    let first = console::list(&mut conn, Scope::AllStations, &filter, None, 50)
        .await
        .expect("first page");
    assert!(first.jobs.is_empty(), "the needle lies past the window");
    let cursor = first.next_cursor.expect("a cursor to look further");
    assert_eq!(cursor, ids[5], "the window's oldest job");

    let second = console::list(&mut conn, Scope::AllStations, &filter, Some(&cursor), 50)
        .await
        .expect("second page");
    let found: Vec<&str> = second.jobs.iter().map(|job| job.id.as_str()).collect();
    assert_eq!(found, [ids[0].as_str()]);
    assert_eq!(second.next_cursor, None, "nothing older is left");
}

#[testkit::db_test]
async fn a_bulk_rerun_of_more_than_its_bound_touches_nothing(db: PgPool) {
    let bound = usize::try_from(console::BULK_RERUN_MAX).expect("bound");
    retained(
        &db,
        &canary_payloads(bound + 1, "lote"),
        "Failed",
        chrono::Duration::hours(1),
    )
    .await;
    let filter = JobFilter {
        state: Some(JobState::Failed),
        ..JobFilter::default()
    };
    let mut tx = db.begin().await.expect("begin");
    let rerunnable = console::count_rerunnable(&mut *tx, Scope::AllStations, &filter)
        .await
        .expect("count");
    assert_eq!(
        rerunnable,
        console::BULK_RERUN_MAX + 1,
        "counted up to one more"
    );
    let outcome = console::rerun_matching(&mut tx, Scope::AllStations, &filter, rerunnable)
        .await
        .expect("rerun");
    assert_eq!(outcome, console::BulkRerun::TooMany);
    tx.commit().await.expect("commit");
    let failed: i64 =
        sqlx::query_scalar("SELECT count(*) FROM apalis.jobs WHERE status = 'Failed'")
            .fetch_one(&db)
            .await
            .expect("count");
    assert_eq!(failed, console::BULK_RERUN_MAX + 1);
}
