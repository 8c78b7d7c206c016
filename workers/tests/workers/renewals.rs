//! A subscription's renewal charged by real `workers` processes on the sandbox provider
//! (its charges are rows of this database): a worker SIGKILLed after the provider charged
//! the card but before the answer was recorded, or while the provider was still making
//! the charge, leaves the try `started`; the process that runs the job again asks the
//! provider with the same idempotency key, gets that one charge (or makes it), and pays
//! the period once. Table and row locks the test holds place each kill exactly.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use common::{Worker, eventually};
use domain::subscriptions::mail::RECEIPT_SUBJECT;
use jobs::JobState;
use sqlx::{PgConnection, PgPool};

const PLAN_PRICE: i64 = 4_990;

/// The processes' settings: no cron adds a dispatch or a reminder to the test's counts
/// (the test queues the charge itself, as the dispatcher does); e-mails are files under
/// `data_dir`.
fn env(data_dir: &Path) -> Vec<(&'static str, String)> {
    vec![
        ("FILIA_CRON_SUBSCRIPTIONS_DISPATCH", "off".into()),
        ("FILIA_CRON_SUBSCRIPTIONS_CARD_REMINDER", "off".into()),
        ("FILIA_DATA_DIR", data_dir.display().to_string()),
    ]
}

/// A directory of the test's own, removed when it ends.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct Renewal {
    user_id: i64,
    subscription_id: i64,
    /// The renewal (period 1) the dispatcher made.
    period_id: i64,
    /// Its `subscriptions.charge` job.
    job_id: String,
}

/// A member with a saved sandbox card that approves, and an active monthly subscription
/// whose paid period 0 ended a minute ago; the dispatcher (its use case, at the system
/// clock the workers' sandbox reads too) makes the renewal and queues its charge.
async fn due_renewal(db: &PgPool) -> Renewal {
    let station_id = testkit::build::station("clube")
        .url("https://c.example.com")
        .insert(db)
        .await;
    let user_id = testkit::build::member(station_id)
        .name("Maria Souza")
        .email("maria@example.com")
        .insert(db)
        .await;
    let plan_id: i64 = sqlx::query_scalar(
        "INSERT INTO plans (station_id, name, amount, days)
         VALUES ($1, 'Plano Ouro', $2, 30) RETURNING id",
    )
    .bind(station_id)
    .bind(PLAN_PRICE)
    .fetch_one(db)
    .await
    .expect("plan");
    // The card as the sandbox keeps it once tokenised and saved (`4000000000000010`).
    sqlx::query(
        "INSERT INTO sandbox_cards (id, token, brand, last_digits, behaviour, saved,
                                    exp_month, exp_year, created_at)
         VALUES ('card_renewal', 'tok_renewal', 'visa', '0010', 'approve', true, 12, 2030, now())",
    )
    .execute(db)
    .await
    .expect("sandbox card");
    let card_id: i64 = sqlx::query_scalar(
        "INSERT INTO saved_cards (station_id, user_id, provider, gateway_card_id, brand,
                                  last_digits, exp_month, exp_year)
         VALUES ($1, $2, 'sandbox', 'card_renewal', 'visa', '0010', 12, 2030) RETURNING id",
    )
    .bind(station_id)
    .bind(user_id)
    .fetch_one(db)
    .await
    .expect("saved card");

    let ends_at = Utc::now() - chrono::Duration::minutes(1);
    let starts_at = ends_at
        .checked_sub_months(chrono::Months::new(1))
        .expect("a month before");
    let subscription_id: i64 = sqlx::query_scalar(
        "INSERT INTO subscriptions (station_id, user_id, plan_id, recurrence, period_months,
             period_days, amount, method, saved_card_id, status, anchor_at,
             current_period_start, current_period_end)
         VALUES ($1, $2, $3, 'month', 1, 0, $4, 'card', $5, 'active', $6, $6, $7) RETURNING id",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(plan_id)
    .bind(PLAN_PRICE)
    .bind(card_id)
    .bind(starts_at)
    .bind(ends_at)
    .fetch_one(db)
    .await
    .expect("subscription");
    sqlx::query(
        "INSERT INTO subscription_periods (station_id, user_id, subscription_id, kind,
             period_index, starts_at, ends_at, amount, plan_id, status, paid_at)
         VALUES ($1, $2, $3, 'first', 0, $4, $5, $6, $7, 'paid', $4)",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(subscription_id)
    .bind(starts_at)
    .bind(ends_at)
    .bind(PLAN_PRICE)
    .bind(plan_id)
    .execute(db)
    .await
    .expect("first period");

    let dispatched = app::subscriptions::billing::dispatch(db, &jobs::JobOutbox, Utc::now(), 500)
        .await
        .expect("dispatch");
    assert_eq!(
        (dispatched.renewed.created, dispatched.queued),
        (1, 1),
        "{dispatched:?}"
    );
    let (period_id, status): (i64, String) = sqlx::query_as(
        "SELECT id, status FROM subscription_periods
          WHERE subscription_id = $1 AND period_index = 1",
    )
    .bind(subscription_id)
    .fetch_one(db)
    .await
    .expect("renewal");
    assert_eq!(status, "due");
    let job_id: String = sqlx::query_scalar(
        "SELECT id FROM apalis.jobs
          WHERE job_type = 'subscriptions.charge'
            AND convert_from(job, 'UTF8')::jsonb -> 'args' ->> 'period_id' = $1::text",
    )
    .bind(period_id)
    .fetch_one(db)
    .await
    .expect("charge job");
    Renewal {
        user_id,
        subscription_id,
        period_id,
        job_id,
    }
}

/// The try the period's first charge opened: (id, status, idempotency key, provider's id).
async fn the_try(db: &PgPool, period_id: i64) -> Option<(i64, String, String, Option<String>)> {
    sqlx::query_as(
        "SELECT id, status, idempotency_key, gateway_charge_id FROM subscription_charges
          WHERE period_id = $1",
    )
    .bind(period_id)
    .fetch_optional(db)
    .await
    .expect("try")
}

/// The session (other than the test's) that waits for a lock `blocker` holds while
/// running a statement like `query`.
async fn blocked_by(db: &PgPool, blocker: i32, query: &str) -> Option<i32> {
    sqlx::query_scalar(
        "SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'
            AND query LIKE $2 AND $1 = ANY (pg_blocking_pids(pid))",
    )
    .bind(blocker)
    .bind(query)
    .fetch_optional(db)
    .await
    .expect("pg_stat_activity")
}

async fn backend_pid(conn: &mut PgConnection) -> i32 {
    sqlx::query_scalar("SELECT pg_backend_pid()")
        .fetch_one(conn)
        .await
        .expect("backend pid")
}

/// The settings of the test's processes, and the directory their e-mails go to.
struct Fleet {
    url: String,
    data: TempDir,
    env: Vec<(&'static str, String)>,
}

impl Fleet {
    fn new(db: &PgPool) -> Self {
        let data =
            TempDir(std::env::temp_dir().join(format!("filia-renewal-{}", ulid::Ulid::generate())));
        let env = env(&data.0);
        Self {
            url: testkit::database_url(db),
            data,
            env,
        }
    }

    fn start(&self) -> Worker {
        let env: Vec<(&str, &str)> = self.env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        Worker::start(&self.url, &env)
    }
}

/// Holds the sandbox's INSERT of a charge (connection A), starts a process and waits
/// until it committed the try (transaction 1) and its call to the provider waits for A.
/// Answers A, the process and its blocked session's pid.
async fn first_process_at_the_provider<'a>(
    db: &'a PgPool,
    fleet: &Fleet,
    renewal: &Renewal,
) -> (sqlx::Transaction<'a, sqlx::Postgres>, Worker, i32) {
    let mut provider_held = db.begin().await.expect("begin A");
    sqlx::query("LOCK TABLE sandbox_charges IN SHARE ROW EXCLUSIVE MODE")
        .execute(&mut *provider_held)
        .await
        .expect("lock sandbox_charges");
    let a_pid = backend_pid(&mut provider_held).await;
    let mut first = fleet.start();
    eventually(
        Duration::from_secs(30),
        "the first process opens the try",
        async || the_try(db, renewal.period_id).await,
    )
    .await;
    let charging = eventually(
        Duration::from_secs(20),
        "the provider's charge waits for A",
        async || blocked_by(db, a_pid, "%INSERT INTO sandbox_charges%").await,
    )
    .await;
    first.assert_alive("while the provider charged");
    (provider_held, first, charging)
}

/// Waits until the session `pid` of a killed process has ended.
async fn session_ends(db: &PgPool, pid: i32) {
    eventually(
        Duration::from_secs(20),
        "the killed process' session ends",
        async || {
            let alive: bool =
                sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1)")
                    .bind(pid)
                    .fetch_one(db)
                    .await
                    .expect("pg_stat_activity");
            (!alive).then_some(())
        },
    )
    .await;
}

/// The provider's charges for the renewal: (id, status, idempotency key).
async fn provider_charges(db: &PgPool, renewal: &Renewal) -> Vec<(String, String, String)> {
    sqlx::query_as(
        "SELECT id, status, idempotency_key FROM sandbox_charges WHERE reference = $1 ORDER BY id",
    )
    .bind(format!("ASSINATURA-{}", renewal.period_id))
    .fetch_all(db)
    .await
    .expect("provider charges")
}

/// After the kill: the try still `started` with no provider id, the period due, the job
/// still held by the dead process. Answers the try's id and idempotency key.
async fn left_by_the_kill(db: &PgPool, renewal: &Renewal, killed: &Worker) -> (i64, String) {
    let (try_id, status, key, recorded) = the_try(db, renewal.period_id).await.expect("the try");
    assert_eq!((status.as_str(), recorded), ("started", None));
    assert_eq!(key, format!("subscription-charge-{try_id}"));
    let (period_status, job_status, holder): (String, String, String) = sqlx::query_as(
        "SELECT p.status, j.status, j.lock_by
           FROM subscription_periods p, apalis.jobs j
          WHERE p.id = $1 AND j.id = $2",
    )
    .bind(renewal.period_id)
    .bind(&renewal.job_id)
    .fetch_one(db)
    .await
    .expect("state after the kill");
    assert_eq!(
        (period_status.as_str(), job_status.as_str()),
        ("due", "Running")
    );
    assert!(holder.contains(&format!(":{}#", killed.pid())), "{holder}");
    (try_id, key)
}

/// Starts another process, which rescues the job and resumes the try; then checks that
/// the renewal was paid once: one charge at the provider under the try's key (`charge_id`
/// when the killed process had made it), the try paid with it, the period paid, the
/// subscription's current period moved to it, one receipt queued and sent.
async fn paid_once_by_another_process(
    db: &PgPool,
    fleet: &Fleet,
    renewal: &Renewal,
    (try_id, key): (i64, String),
    charge_id: Option<String>,
) {
    let mut second = fleet.start();
    let done = eventually(
        Duration::from_secs(60),
        "the charge job runs again",
        async || {
            let view = jobs::state::find(db, &renewal.job_id)
                .await
                .expect("find")
                .expect("job");
            matches!(view.state, JobState::Succeeded | JobState::Failed).then_some(view)
        },
    )
    .await;
    second.assert_alive("after the renewal");
    assert_eq!(
        done.state,
        JobState::Succeeded,
        "{done:?}\n{}",
        second.log()
    );
    assert_eq!(done.attempts, 2, "the killed run counts");
    let holder: String = sqlx::query_scalar("SELECT lock_by FROM apalis.jobs WHERE id = $1")
        .bind(&renewal.job_id)
        .fetch_one(db)
        .await
        .expect("holder");
    assert!(holder.contains(&format!(":{}#", second.pid())), "{holder}");

    let charges = provider_charges(db, renewal).await;
    assert_eq!(charges.len(), 1, "one charge at the provider: {charges:?}");
    let (charged, status, charged_with) = charges.into_iter().next().expect("a charge");
    assert_eq!(
        (status.as_str(), charged_with.as_str()),
        ("paid", key.as_str())
    );
    if let Some(charge_id) = charge_id {
        assert_eq!(
            charged, charge_id,
            "the killed process' charge is the one kept"
        );
    }
    let tries: Vec<(i64, i32, String, Option<String>)> = sqlx::query_as(
        "SELECT id, attempt, status, gateway_charge_id FROM subscription_charges
          WHERE period_id = $1",
    )
    .bind(renewal.period_id)
    .fetch_all(db)
    .await
    .expect("tries");
    assert_eq!(tries, [(try_id, 1, "paid".to_string(), Some(charged))]);
    let (status, attempts, paid_at, starts_at, ends_at): (
        String,
        i32,
        Option<DateTime<Utc>>,
        DateTime<Utc>,
        DateTime<Utc>,
    ) = sqlx::query_as(
        "SELECT status, attempts, paid_at, starts_at, ends_at FROM subscription_periods
          WHERE id = $1",
    )
    .bind(renewal.period_id)
    .fetch_one(db)
    .await
    .expect("period");
    assert_eq!((status.as_str(), attempts), ("paid", 1));
    assert!(paid_at.is_some());
    let subscription: (String, i32, DateTime<Utc>, DateTime<Utc>) = sqlx::query_as(
        "SELECT status, current_period, current_period_start, current_period_end
           FROM subscriptions WHERE id = $1",
    )
    .bind(renewal.subscription_id)
    .fetch_one(db)
    .await
    .expect("subscription");
    assert_eq!(subscription, ("active".to_string(), 1, starts_at, ends_at));
    let (periods, charge_jobs): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM subscription_periods WHERE subscription_id = $1),
                (SELECT count(*) FROM apalis.jobs WHERE job_type = 'subscriptions.charge')",
    )
    .bind(renewal.subscription_id)
    .fetch_one(db)
    .await
    .expect("counts");
    assert_eq!(
        (periods, charge_jobs),
        (2, 1),
        "no other renewal, no other charge"
    );

    // One receipt, queued by the run that recorded the payment, and sent.
    let receipts: Vec<String> = sqlx::query_scalar(
        "SELECT j.id FROM apalis.jobs j JOIN job_records r ON r.job_id = j.id
          WHERE j.job_type = 'mail.send' AND r.user_id = $1
            AND convert_from(j.job, 'UTF8')::jsonb -> 'args' -> 'mail' ->> 'subject' = $2",
    )
    .bind(renewal.user_id)
    .bind(RECEIPT_SUBJECT)
    .fetch_all(db)
    .await
    .expect("receipts");
    assert_eq!(receipts.len(), 1, "{receipts:?}");
    eventually(Duration::from_secs(30), "the receipt is sent", async || {
        let view = jobs::state::find(db, &receipts[0])
            .await
            .expect("find")
            .expect("job");
        (view.state == JobState::Succeeded).then_some(())
    })
    .await;
    let sent: Vec<String> = std::fs::read_dir(fleet.data.0.join("mail"))
        .expect("mail dir")
        .map(|entry| std::fs::read_to_string(entry.expect("entry").path()).expect("mail"))
        .collect();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(sent[0].contains("maria@example.com"), "{}", sent[0]);
}

#[testkit::db_test]
async fn a_worker_killed_after_the_provider_charged_a_renewal_has_it_paid_once(db: PgPool) {
    let renewal = due_renewal(&db).await;
    let fleet = Fleet::new(&db);
    let (provider_held, mut first, _) = first_process_at_the_provider(&db, &fleet, &renewal).await;

    // B: the subscription's row, which transaction 2 locks first (billing::apply -> lock);
    // then A lets the provider's charge commit.
    let mut answer_held = db.begin().await.expect("begin B");
    sqlx::query("SELECT id FROM subscriptions WHERE id = $1 FOR UPDATE")
        .bind(renewal.subscription_id)
        .execute(&mut *answer_held)
        .await
        .expect("lock the subscription");
    let b_pid = backend_pid(&mut answer_held).await;
    provider_held.commit().await.expect("commit A");

    // The provider charged the card; the answer waits to be recorded.
    let recording = eventually(
        Duration::from_secs(20),
        "the answer's transaction waits for B",
        async || blocked_by(&db, b_pid, "%FOR UPDATE OF s%").await,
    )
    .await;
    let charges = provider_charges(&db, &renewal).await;
    assert_eq!(charges.len(), 1, "{charges:?}");
    let (charge_id, charge_status, _) = charges.into_iter().next().expect("a charge");
    assert_eq!(charge_status, "paid");

    first.child.kill().expect("SIGKILL");
    first.child.wait().expect("reaped");
    answer_held.rollback().await.expect("rollback B");
    // The dead process' transaction 2 gets the lock, then finds its client gone: it ends
    // without a commit (its BEGIN was sent, so nothing of it is autocommitted).
    session_ends(&db, recording).await;

    let left = left_by_the_kill(&db, &renewal, &first).await;
    paid_once_by_another_process(&db, &fleet, &renewal, left, Some(charge_id)).await;
}

/// The other side of the provider's call: killed while its charge was being made, the
/// provider never finished it; the next run makes it, under the same key, once.
#[testkit::db_test]
async fn a_worker_killed_before_the_provider_charged_a_renewal_has_it_paid_once(db: PgPool) {
    let renewal = due_renewal(&db).await;
    let fleet = Fleet::new(&db);
    let (provider_held, mut first, charging) =
        first_process_at_the_provider(&db, &fleet, &renewal).await;

    first.child.kill().expect("SIGKILL");
    first.child.wait().expect("reaped");
    // The sandbox's INSERT runs in a transaction its dead client never commits.
    provider_held.commit().await.expect("commit A");
    session_ends(&db, charging).await;
    assert_eq!(provider_charges(&db, &renewal).await, []);

    let left = left_by_the_kill(&db, &renewal, &first).await;
    paid_once_by_another_process(&db, &fleet, &renewal, left, None).await;
}
