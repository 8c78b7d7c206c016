//! The billing engine against the real database and the sandbox provider on a clock the
//! tests move: a period charged once however often and however concurrently it is asked
//! for (two dispatchers, two runs of a job, a provider that timed out after charging),
//! dunning on the station's schedule to the end, a card change paying the declined
//! renewal once, a cancellation and a downgrade at the period's end, the e-mails queued
//! once, and the fleet running a renewal end to end.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, TimeZone, Utc};
use reqwest::header::HeaderMap;
use secrecy::SecretString;
use serde_json::Value;
use sqlx::PgPool;

use app::subscriptions::billing::{self, PeriodOutcome};
use domain::commerce::gateway::{
    BillingAddress, CardCharge, CardChargeRequest, Charge, Customer, GatewayError, PaymentGateway,
    PixCharge, PixChargeRequest, Refund, SaveCardRequest, SavedCardAtProvider, WebhookEvent,
};
use domain::subscriptions::mail::{
    CARD_EXPIRING_SUBJECT, DECLINED_SUBJECT, ENDED_SUBJECT, RECEIPT_SUBJECT,
};
use jobs::JobOutbox;
use jobs::enqueue::Enqueue;
use jobs::kinds::{SubscriptionCharge, SubscriptionsDispatch};
use payments::Gateway;
use payments::brcode::Merchant;
use payments::sandbox::{CardDetails, Clock, Sandbox};
use testkit::build;

use crate::common::{start_fleet, wait_for};

const APPROVES: &str = "4000000000000010";
const SAVED_CARD_FAILS: &str = "4000000000000051";
const PROCESSING_THEN_PAID: &str = "4000000000000036";
const PLAN_PRICE: i64 = 4_990;

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2027, 1, 10, 12, 0, 0).unwrap()
}

/// The sandbox behind a test's own wrapper: its clock is the billing engine's
/// (`PaymentGateway::now`), and it can answer a card charge with a timeout after the
/// provider made it (a connection lost on the way back).
#[derive(Clone)]
struct TestGateway {
    sandbox: Sandbox,
    lose_answers: Arc<AtomicUsize>,
    /// Refunds the provider is unavailable for, next first.
    refuse_refunds: Arc<AtomicUsize>,
}

impl TestGateway {
    /// The manual clock's time (the sandbox's own reads are async for its shared clock).
    fn clock_now(&self) -> DateTime<Utc> {
        let Clock::Manual(at) = self.sandbox.clock() else {
            panic!("the tests' sandbox runs on a manual clock");
        };
        *at.lock().expect("clock")
    }

    /// Moves the manual clock, backwards too (the sandbox's own `advance` only goes
    /// forward): a test puts it just before a moment, then on it.
    fn advance(&self, by: Duration) {
        let Clock::Manual(at) = self.sandbox.clock() else {
            panic!("the tests' sandbox runs on a manual clock");
        };
        *at.lock().expect("clock") += by;
    }
}

impl PaymentGateway for TestGateway {
    fn provider(&self) -> &'static str {
        "sandbox"
    }

    async fn create_pix_charge(
        &self,
        request: &PixChargeRequest,
    ) -> Result<PixCharge, GatewayError> {
        self.sandbox.create_pix_charge(request).await
    }

    async fn create_card_charge(
        &self,
        request: &CardChargeRequest,
    ) -> Result<CardCharge, GatewayError> {
        let answer = self.sandbox.create_card_charge(request).await;
        let lost = self
            .lose_answers
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        if lost {
            return Err(GatewayError::Unavailable("timed out".into()));
        }
        answer
    }

    async fn get_charge(&self, charge_id: &str) -> Result<Charge, GatewayError> {
        self.sandbox.get_charge(charge_id).await
    }

    async fn delete_card(&self, card_id: &str) -> Result<(), GatewayError> {
        self.sandbox.delete_card(card_id).await
    }

    async fn cancel_charge(
        &self,
        charge_id: &str,
        idempotency_key: &str,
    ) -> Result<Charge, GatewayError> {
        self.sandbox.cancel_charge(charge_id, idempotency_key).await
    }

    async fn refund(
        &self,
        charge_id: &str,
        amount_cents: Option<i64>,
        idempotency_key: &str,
    ) -> Result<Refund, GatewayError> {
        let refused = self
            .refuse_refunds
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        if refused {
            return Err(GatewayError::Unavailable("refunds are down".into()));
        }
        self.sandbox
            .refund(charge_id, amount_cents, idempotency_key)
            .await
    }

    async fn now(&self) -> Result<DateTime<Utc>, GatewayError> {
        Ok(self.clock_now())
    }

    async fn save_card(
        &self,
        request: &SaveCardRequest,
    ) -> Result<SavedCardAtProvider, GatewayError> {
        self.sandbox.save_card(request).await
    }

    fn verify_webhook(
        &self,
        body: &[u8],
        headers: &HeaderMap,
    ) -> Result<WebhookEvent, GatewayError> {
        self.sandbox.verify_webhook(body, headers)
    }
}

fn sandbox(db: &PgPool, clock: Clock) -> Sandbox {
    Sandbox::new(
        db.clone(),
        clock,
        Merchant::new("Clube", "Florianopolis").expect("merchant"),
        "https://c.example.com",
        SecretString::from("subscriptions-test-secret"),
    )
}

struct World {
    db: PgPool,
    gateway: TestGateway,
    station_id: i64,
    user_id: i64,
    plan_id: i64,
}

async fn world(db: &PgPool) -> World {
    world_at(db, start()).await
}

async fn world_at(db: &PgPool, now: DateTime<Utc>) -> World {
    let station_id = build::station("clube")
        .url("https://c.example.com")
        .insert(db)
        .await;
    let user_id = build::member(station_id)
        .name("Maria Souza")
        .email("maria@example.com")
        .insert(db)
        .await;
    let plan_id = plan(db, station_id, "Plano Ouro", PLAN_PRICE).await;
    World {
        db: db.clone(),
        gateway: TestGateway {
            sandbox: sandbox(db, Clock::manual(now)),
            lose_answers: Arc::new(AtomicUsize::new(0)),
            refuse_refunds: Arc::new(AtomicUsize::new(0)),
        },
        station_id,
        user_id,
        plan_id,
    }
}

async fn plan(db: &PgPool, station_id: i64, name: &str, amount: i64) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO plans (station_id, name, amount, days) VALUES ($1, $2, $3, 30) RETURNING id",
    )
    .bind(station_id)
    .bind(name)
    .bind(amount)
    .fetch_one(db)
    .await
    .expect("plan")
}

impl World {
    async fn member(&self, name: &str, email: &str) -> i64 {
        build::member(self.station_id)
            .name(name)
            .email(email)
            .insert(&self.db)
            .await
    }

    /// A sandbox card saved for the member: tokenised, saved at the provider, then kept.
    async fn card(&self, user_id: i64, number: &str, expiry: (i32, i32)) -> i64 {
        let token = self
            .gateway
            .sandbox
            .tokenize_card(&CardDetails {
                number: number.into(),
                holder_name: "MARIA SOUZA".into(),
                expiry: format!("{:02}/{}", expiry.0, expiry.1 % 100),
                cvv: "123".into(),
            })
            .await
            .expect("token");
        let saved = self
            .gateway
            .sandbox
            .save_card(&SaveCardRequest {
                customer: Customer {
                    name: "Maria Souza".into(),
                    email: format!("maria{user_id}@example.com"),
                    document: "52998224725".into(),
                    phone: None,
                },
                customer_id: None,
                token,
                billing_address: BillingAddress {
                    zip_code: "88010000".into(),
                    street: "Rua Felipe Schmidt".into(),
                    number: "100".into(),
                    city: "Florianópolis".into(),
                    state: "SC".into(),
                },
                idempotency_key: format!("card-{user_id}-{number}"),
            })
            .await
            .expect("saved");
        sqlx::query_scalar(
            "INSERT INTO saved_cards (station_id, user_id, provider, gateway_card_id, brand,
                                      last_digits, exp_month, exp_year)
             VALUES ($1, $2, 'sandbox', $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(self.station_id)
        .bind(user_id)
        .bind(&saved.card_id)
        .bind(&saved.brand)
        .bind(&saved.last_digits)
        .bind(expiry.0)
        .bind(expiry.1)
        .fetch_one(&self.db)
        .await
        .expect("saved card")
    }

    /// A monthly plan subscription whose period 0 runs to `ends_at`: `active` with that
    /// period paid, or `incomplete` with it due. Answers (subscription, period 0).
    async fn subscription(
        &self,
        user_id: i64,
        card_id: i64,
        amount: i64,
        ends_at: DateTime<Utc>,
        paid: bool,
    ) -> (i64, i64) {
        let starts_at = ends_at
            .checked_sub_months(chrono::Months::new(1))
            .expect("a month before");
        let subscription_id: i64 = sqlx::query_scalar(
            "INSERT INTO subscriptions (station_id, user_id, plan_id, recurrence, period_months,
                 period_days, amount, method, saved_card_id, status, anchor_at,
                 current_period_start, current_period_end)
             VALUES ($1, $2, $3, 'month', 1, 0, $4, 'card', $5, $6, $7, $7, $8) RETURNING id",
        )
        .bind(self.station_id)
        .bind(user_id)
        .bind(self.plan_id)
        .bind(amount)
        .bind(card_id)
        .bind(if paid { "active" } else { "incomplete" })
        .bind(starts_at)
        .bind(ends_at)
        .fetch_one(&self.db)
        .await
        .expect("subscription");
        let period_id: i64 = sqlx::query_scalar(
            "INSERT INTO subscription_periods (station_id, user_id, subscription_id, kind,
                 period_index, starts_at, ends_at, amount, plan_id, status, paid_at,
                 next_attempt_at)
             VALUES ($1, $2, $3, 'first', 0, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
        )
        .bind(self.station_id)
        .bind(user_id)
        .bind(subscription_id)
        .bind(starts_at)
        .bind(ends_at)
        .bind(amount)
        .bind(self.plan_id)
        .bind(if paid { "paid" } else { "due" })
        .bind(paid.then_some(starts_at))
        .bind((!paid).then_some(starts_at))
        .fetch_one(&self.db)
        .await
        .expect("first period");
        (subscription_id, period_id)
    }

    /// A monthly plan subscription of `user_id` paid by PIX, its period 0 paid and ending
    /// at `ends_at` (a card made it, as members subscribe by card; a station set it to PIX).
    async fn pix_subscription(&self, user_id: i64, ends_at: DateTime<Utc>) -> i64 {
        let card = self.card(user_id, APPROVES, (12, 2030)).await;
        let (subscription, _) = self
            .subscription(user_id, card, PLAN_PRICE, ends_at, true)
            .await;
        sqlx::query("UPDATE subscriptions SET method = 'pix', saved_card_id = NULL WHERE id = $1")
            .bind(subscription)
            .execute(&self.db)
            .await
            .expect("pix");
        subscription
    }

    async fn dispatch(&self) -> billing::Dispatched {
        billing::dispatch(&self.db, &JobOutbox, self.gateway.clock_now(), 500)
            .await
            .expect("dispatch")
    }

    /// Runs the queued `subscriptions.charge` jobs as the fleet would, each with its own
    /// payload, through this test's gateway; answers their outcomes.
    async fn run_charges(&self) -> Vec<PeriodOutcome> {
        let queued: Vec<(String, Value)> = sqlx::query_as(
            "UPDATE apalis.jobs SET status = 'Done', done_at = now()
              WHERE job_type = 'subscriptions.charge' AND status = 'Pending'
             RETURNING id, convert_from(job, 'UTF8')::jsonb -> 'args'",
        )
        .fetch_all(&self.db)
        .await
        .expect("queued charges");
        let mut outcomes = Vec::new();
        for (_, args) in queued {
            let job: SubscriptionCharge = serde_json::from_value(args).expect("payload");
            outcomes.push(
                billing::charge_try(
                    &self.db,
                    &self.gateway,
                    &JobOutbox,
                    job.period_id,
                    job.attempt,
                )
                .await
                .expect("charge"),
            );
        }
        outcomes
    }

    async fn scalar_i64(&self, sql: &'static str, id: i64) -> i64 {
        sqlx::query_scalar(sql)
            .bind(id)
            .fetch_one(&self.db)
            .await
            .expect(sql)
    }

    async fn status(&self, subscription_id: i64) -> String {
        sqlx::query_scalar("SELECT status FROM subscriptions WHERE id = $1")
            .bind(subscription_id)
            .fetch_one(&self.db)
            .await
            .expect("status")
    }

    /// Charges the sandbox made for this subscription's periods, paid or not.
    async fn provider_charges(&self, subscription_id: i64) -> i64 {
        self.scalar_i64(
            "SELECT count(*) FROM sandbox_charges
              WHERE reference IN (SELECT 'ASSINATURA-' || id FROM subscription_periods
                                   WHERE subscription_id = $1)",
            subscription_id,
        )
        .await
    }

    /// Dispatches and pays three renewals, each at the end of the period before; answers the
    /// periods' bounds.
    async fn renew_three_times(&self, subscription_id: i64) -> Vec<(DateTime<Utc>, DateTime<Utc>)> {
        let mut bounds = Vec::new();
        for _ in 0..3 {
            self.dispatch().await;
            assert_eq!(self.run_charges().await, [PeriodOutcome::Paid]);
            let (starts, ends): (DateTime<Utc>, DateTime<Utc>) = sqlx::query_as(
                "SELECT current_period_start, current_period_end FROM subscriptions WHERE id = $1",
            )
            .bind(subscription_id)
            .fetch_one(&self.db)
            .await
            .expect("period");
            bounds.push((starts, ends));
            self.gateway.advance(ends - self.gateway.clock_now());
        }
        bounds
    }

    /// E-mails queued for the member with this subject.
    async fn mails(&self, user_id: i64, subject: &str) -> Vec<String> {
        sqlx::query_scalar(
            "SELECT coalesce(convert_from(j.job, 'UTF8')::jsonb -> 'args' -> 'mail' ->> 'text', '')
               FROM apalis.jobs j JOIN job_records r ON r.job_id = j.id
              WHERE j.job_type = 'mail.send' AND r.user_id = $1
                AND convert_from(j.job, 'UTF8')::jsonb -> 'args' -> 'mail' ->> 'subject' = $2
              ORDER BY j.id",
        )
        .bind(user_id)
        .bind(subject)
        .fetch_all(&self.db)
        .await
        .expect("mails")
    }
}

async fn period_row(
    db: &PgPool,
    subscription_id: i64,
    index: i32,
) -> (i64, String, i32, Option<DateTime<Utc>>, i64) {
    sqlx::query_as(
        "SELECT id, status, attempts, next_attempt_at, amount FROM subscription_periods
          WHERE subscription_id = $1 AND period_index = $2 AND kind <> 'proration'",
    )
    .bind(subscription_id)
    .bind(index)
    .fetch_one(db)
    .await
    .expect("period")
}

#[testkit::db_test]
async fn charging_a_first_period_twice_at_once_charges_it_once(db: PgPool) {
    let w = world(&db).await;
    let card = w.card(w.user_id, APPROVES, (12, 2030)).await;
    let (subscription, period) = w
        .subscription(
            w.user_id,
            card,
            PLAN_PRICE,
            start() + Duration::days(30),
            false,
        )
        .await;

    let (a, b) = tokio::join!(
        billing::charge_period(&db, &w.gateway, &JobOutbox, period),
        billing::charge_period(&db, &w.gateway, &JobOutbox, period),
    );
    let mut outcomes = vec![a.expect("a"), b.expect("b")];
    outcomes.sort_by_key(|o| format!("{o:?}"));
    assert_eq!(outcomes, [PeriodOutcome::AlreadyPaid, PeriodOutcome::Paid]);
    assert_eq!(
        billing::charge_period(&db, &w.gateway, &JobOutbox, period)
            .await
            .expect("again"),
        PeriodOutcome::AlreadyPaid
    );

    assert_eq!(w.provider_charges(subscription).await, 1);
    assert_eq!(w.status(subscription).await, "active");
    let (_, status, attempts, next, _) = period_row(&db, subscription, 0).await;
    assert_eq!((status.as_str(), attempts, next), ("paid", 1, None));
    let receipts = w.mails(w.user_id, RECEIPT_SUBJECT).await;
    assert_eq!(receipts.len(), 1, "one receipt: {receipts:?}");
    assert!(receipts[0].contains("R$ 49,90"), "{}", receipts[0]);
    assert!(receipts[0].contains("Plano Ouro"), "{}", receipts[0]);
}

#[testkit::db_test]
async fn a_declined_first_period_ends_the_subscription(db: PgPool) {
    let w = world(&db).await;
    let card = w.card(w.user_id, SAVED_CARD_FAILS, (12, 2030)).await;
    let (subscription, period) = w
        .subscription(
            w.user_id,
            card,
            PLAN_PRICE,
            start() + Duration::days(30),
            false,
        )
        .await;
    let outcome = billing::charge_period(&db, &w.gateway, &JobOutbox, period)
        .await
        .expect("charge");
    assert_eq!(
        outcome,
        PeriodOutcome::Declined {
            reason: payments::sandbox::SAVED_CARD_REASON.into()
        }
    );
    assert_eq!(w.status(subscription).await, "ended");
    assert_eq!(period_row(&db, subscription, 0).await.1, "failed");
    // Nothing to try again: the member reads the reason on the form.
    assert_eq!(
        billing::charge_period(&db, &w.gateway, &JobOutbox, period)
            .await
            .expect("again"),
        PeriodOutcome::NotDue
    );
    assert_eq!(w.provider_charges(subscription).await, 1);
    assert!(w.mails(w.user_id, DECLINED_SUBJECT).await.is_empty());
}

#[testkit::db_test]
async fn a_provider_timeout_after_charging_is_retried_with_the_same_charge(db: PgPool) {
    let w = world(&db).await;
    let card = w.card(w.user_id, APPROVES, (12, 2030)).await;
    let (subscription, period) = w
        .subscription(
            w.user_id,
            card,
            PLAN_PRICE,
            start() + Duration::days(30),
            false,
        )
        .await;
    w.gateway.lose_answers.store(1, Ordering::SeqCst);

    let err = billing::charge_period(&db, &w.gateway, &JobOutbox, period)
        .await
        .expect_err("the answer was lost");
    assert!(matches!(
        err,
        billing::BillingError::Gateway(GatewayError::Unavailable(_))
    ));
    // The provider charged; our try is still open, its key kept for the retry.
    assert_eq!(w.provider_charges(subscription).await, 1);
    let (status, key): (String, String) = sqlx::query_as(
        "SELECT status, idempotency_key FROM subscription_charges WHERE period_id = $1",
    )
    .bind(period)
    .fetch_one(&db)
    .await
    .expect("try");
    assert_eq!(status, "started");

    assert_eq!(
        billing::charge_period(&db, &w.gateway, &JobOutbox, period)
            .await
            .expect("retry"),
        PeriodOutcome::Paid
    );
    assert_eq!(w.provider_charges(subscription).await, 1);
    let tries: Vec<(String, String)> = sqlx::query_as(
        "SELECT status, idempotency_key FROM subscription_charges WHERE period_id = $1",
    )
    .bind(period)
    .fetch_all(&db)
    .await
    .expect("tries");
    assert_eq!(tries, [("paid".to_string(), key)]);
    assert_eq!(w.status(subscription).await, "active");
}

#[testkit::db_test]
async fn two_dispatchers_at_once_renew_and_charge_each_period_once(db: PgPool) {
    let w = world(&db).await;
    let mut subscriptions = Vec::new();
    for n in 0..30 {
        let user = w
            .member(&format!("Sócio {n}"), &format!("socio{n}@example.com"))
            .await;
        let card = w.card(user, APPROVES, (12, 2030)).await;
        let ends = start() - Duration::minutes(n);
        subscriptions.push(w.subscription(user, card, PLAN_PRICE, ends, true).await.0);
    }
    // One not due yet.
    let later_card = w.card(w.user_id, APPROVES, (12, 2030)).await;
    let (later, _) = w
        .subscription(
            w.user_id,
            later_card,
            PLAN_PRICE,
            start() + Duration::hours(1),
            true,
        )
        .await;

    let now = w.gateway.clock_now();
    let (a, b) = tokio::join!(
        billing::dispatch(&db, &JobOutbox, now, 7),
        billing::dispatch(&db, &JobOutbox, now, 7),
    );
    let (a, b) = (a.expect("a"), b.expect("b"));
    assert_eq!(a.renewed.created + b.renewed.created, 30);
    assert_eq!(a.queued + b.queued, 30);
    // A third sees nothing new.
    assert_eq!(w.dispatch().await, billing::Dispatched::default());

    // Every job run twice at once.
    let jobs: Vec<Value> = sqlx::query_scalar(
        "SELECT convert_from(job, 'UTF8')::jsonb -> 'args' FROM apalis.jobs
          WHERE job_type = 'subscriptions.charge'",
    )
    .fetch_all(&db)
    .await
    .expect("jobs");
    assert_eq!(jobs.len(), 30);
    let runs = jobs.iter().flat_map(|args| {
        let job: SubscriptionCharge = serde_json::from_value(args.clone()).expect("payload");
        let (db, gateway) = (db.clone(), w.gateway.clone());
        [0, 1].map(move |_| {
            let (db, gateway, job) = (db.clone(), gateway.clone(), job.clone());
            tokio::spawn(async move {
                billing::charge_try(&db, &gateway, &JobOutbox, job.period_id, job.attempt).await
            })
        })
    });
    let outcomes: Vec<PeriodOutcome> = futures_util::future::join_all(runs)
        .await
        .into_iter()
        .map(|joined| joined.expect("task").expect("charge"))
        .collect();
    assert_eq!(
        outcomes
            .iter()
            .filter(|o| **o == PeriodOutcome::Paid)
            .count(),
        30
    );

    let charged: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM sandbox_charges WHERE reference LIKE 'ASSINATURA-%'",
    )
    .fetch_one(&db)
    .await
    .expect("count");
    assert_eq!(charged, 30);
    let doubles: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM (SELECT reference FROM sandbox_charges
                                GROUP BY reference HAVING count(*) > 1) twice",
    )
    .fetch_one(&db)
    .await
    .expect("count");
    assert_eq!(doubles, 0);
    for subscription in &subscriptions {
        let (index, status): (i32, String) =
            sqlx::query_as("SELECT current_period, status FROM subscriptions WHERE id = $1")
                .bind(subscription)
                .fetch_one(&db)
                .await
                .expect("subscription");
        assert_eq!((index, status.as_str()), (1, "active"));
    }
    let untouched: i64 = w
        .scalar_i64(
            "SELECT count(*) FROM subscription_periods WHERE subscription_id = $1",
            later,
        )
        .await;
    assert_eq!(untouched, 1);
}

#[testkit::db_test]
async fn a_declined_renewal_follows_the_schedule_and_a_new_card_pays_it_once(db: PgPool) {
    let w = world(&db).await;
    let card = w.card(w.user_id, SAVED_CARD_FAILS, (12, 2030)).await;
    let (subscription, _) = w
        .subscription(w.user_id, card, PLAN_PRICE, start(), true)
        .await;

    w.dispatch().await;
    let outcomes = w.run_charges().await;
    assert!(matches!(outcomes[..], [PeriodOutcome::Declined { .. }]));
    assert_eq!(w.status(subscription).await, "past_due");
    let (renewal, status, attempts, next, _) = period_row(&db, subscription, 1).await;
    assert_eq!((status.as_str(), attempts), ("due", 1));
    assert_eq!(next, Some(start() + Duration::days(1)));
    let declined = w.mails(w.user_id, DECLINED_SUBJECT).await;
    assert_eq!(declined.len(), 1);
    assert!(
        declined[0].contains("https://c.example.com/homepage/planos/editar-pagamento"),
        "{}",
        declined[0]
    );
    assert!(declined[0].contains(payments::sandbox::SAVED_CARD_REASON));

    // Not before its day.
    w.gateway.advance(Duration::hours(12));
    assert_eq!(w.dispatch().await.queued, 0);
    w.gateway.advance(Duration::hours(12));
    assert_eq!(w.dispatch().await.queued, 1);
    assert!(matches!(
        w.run_charges().await[..],
        [PeriodOutcome::Declined { .. }]
    ));
    let (_, _, attempts, next, _) = period_row(&db, subscription, 1).await;
    assert_eq!((attempts, next), (2, Some(start() + Duration::days(3))));
    assert_eq!(w.mails(w.user_id, DECLINED_SUBJECT).await.len(), 2);

    // The member saves a new card: the renewal is tried at once, and paid once.
    let new_card = w.card(w.user_id, APPROVES, (12, 2031)).await;
    sqlx::query("UPDATE subscriptions SET saved_card_id = $2 WHERE id = $1")
        .bind(subscription)
        .bind(new_card)
        .execute(&db)
        .await
        .expect("card changed");
    assert!(
        billing::retry_now(&db, &w.gateway, &JobOutbox, subscription)
            .await
            .expect("retry")
    );
    assert_eq!(w.run_charges().await, [PeriodOutcome::Paid]);
    assert!(
        !billing::retry_now(&db, &w.gateway, &JobOutbox, subscription)
            .await
            .expect("nothing due")
    );
    // The schedule's own tick finds nothing left.
    w.gateway.advance(Duration::days(3));
    w.dispatch().await;
    assert!(w.run_charges().await.is_empty());

    assert_eq!(w.status(subscription).await, "active");
    let (current, ends): (i32, DateTime<Utc>) = sqlx::query_as(
        "SELECT current_period, current_period_end FROM subscriptions WHERE id = $1",
    )
    .bind(subscription)
    .fetch_one(&db)
    .await
    .expect("subscription");
    assert_eq!(
        (current, ends),
        (1, Utc.with_ymd_and_hms(2027, 2, 10, 12, 0, 0).unwrap())
    );
    let paid: Vec<(i32, String)> = sqlx::query_as(
        "SELECT attempt, status FROM subscription_charges WHERE period_id = $1 ORDER BY attempt",
    )
    .bind(renewal)
    .fetch_all(&db)
    .await
    .expect("tries");
    assert_eq!(
        paid,
        [
            (1, "failed".to_string()),
            (2, "failed".to_string()),
            (3, "paid".to_string())
        ]
    );
    let provider_paid: i64 = w
        .scalar_i64(
            "SELECT count(*) FROM sandbox_charges
              WHERE reference = 'ASSINATURA-' || $1 AND status = 'paid'",
            renewal,
        )
        .await;
    assert_eq!(provider_paid, 1);
    assert_eq!(w.mails(w.user_id, RECEIPT_SUBJECT).await.len(), 1);
}

#[testkit::db_test]
async fn the_last_retry_ends_the_subscription(db: PgPool) {
    let w = world(&db).await;
    sqlx::query("UPDATE stations SET billing_retry_days = '{2}' WHERE id = $1")
        .bind(w.station_id)
        .execute(&db)
        .await
        .expect("schedule");
    let card = w.card(w.user_id, SAVED_CARD_FAILS, (12, 2030)).await;
    let (subscription, _) = w
        .subscription(w.user_id, card, PLAN_PRICE, start(), true)
        .await;
    w.dispatch().await;
    w.run_charges().await;
    assert_eq!(w.status(subscription).await, "past_due");

    w.gateway.advance(Duration::days(2));
    w.dispatch().await;
    assert!(matches!(
        w.run_charges().await[..],
        [PeriodOutcome::Declined { .. }]
    ));
    assert_eq!(w.status(subscription).await, "ended");
    let (_, status, attempts, next, _) = period_row(&db, subscription, 1).await;
    assert_eq!((status.as_str(), attempts, next), ("failed", 2, None));
    let ended = w.mails(w.user_id, ENDED_SUBJECT).await;
    assert_eq!(ended.len(), 1);
    assert!(ended[0].contains("foi encerrada"), "{}", ended[0]);
    // Nothing more is made or charged.
    w.gateway.advance(Duration::days(40));
    assert_eq!(w.dispatch().await, billing::Dispatched::default());
    assert_eq!(w.provider_charges(subscription).await, 2);
    assert!(
        !billing::retry_now(&db, &w.gateway, &JobOutbox, subscription)
            .await
            .expect("nothing due")
    );
}

#[testkit::db_test]
async fn a_cancellation_ends_at_the_period_end_even_racing_the_renewal(db: PgPool) {
    let w = world(&db).await;
    let ana = w.member("Ana", "ana@example.com").await;
    let card = w.card(w.user_id, APPROVES, (12, 2030)).await;
    let ana_card = w.card(ana, APPROVES, (12, 2030)).await;
    let (cancelled, _) = w
        .subscription(w.user_id, card, PLAN_PRICE, start(), true)
        .await;
    let (racing, _) = w
        .subscription(ana, ana_card, PLAN_PRICE, start(), true)
        .await;
    sqlx::query("UPDATE subscriptions SET cancel_at_period_end = true WHERE id = $1")
        .bind(cancelled)
        .execute(&db)
        .await
        .expect("cancel");

    // Before the end: access runs.
    w.gateway.advance(Duration::minutes(-1));
    w.dispatch().await;
    assert_eq!(w.status(cancelled).await, "active");
    w.gateway.advance(Duration::minutes(1));

    let done = w.dispatch().await;
    assert_eq!((done.renewed.canceled, done.renewed.created), (1, 1));
    assert_eq!(w.status(cancelled).await, "canceled");
    // The other member cancels after her renewal was made, before it is charged.
    sqlx::query("UPDATE subscriptions SET cancel_at_period_end = true WHERE id = $1")
        .bind(racing)
        .execute(&db)
        .await
        .expect("cancel");
    assert_eq!(w.run_charges().await, [PeriodOutcome::NotDue]);
    assert_eq!(w.status(racing).await, "canceled");
    assert_eq!(period_row(&db, racing, 1).await.1, "void");
    assert_eq!(w.provider_charges(racing).await, 0);
    assert_eq!(w.provider_charges(cancelled).await, 0);
}

#[testkit::db_test]
async fn a_downgrade_applies_at_the_period_end(db: PgPool) {
    let w = world(&db).await;
    let cheaper = plan(&db, w.station_id, "Plano Prata", 1_990).await;
    let card = w.card(w.user_id, APPROVES, (12, 2030)).await;
    let (subscription, _) = w
        .subscription(
            w.user_id,
            card,
            PLAN_PRICE,
            start() + Duration::days(1),
            true,
        )
        .await;
    sqlx::query("UPDATE subscriptions SET next_plan_id = $2 WHERE id = $1")
        .bind(subscription)
        .bind(cheaper)
        .execute(&db)
        .await
        .expect("downgrade");

    w.dispatch().await;
    let plan_now: i64 = w
        .scalar_i64(
            "SELECT plan_id FROM subscriptions WHERE id = $1",
            subscription,
        )
        .await;
    assert_eq!(plan_now, w.plan_id, "not before the end");

    w.gateway.advance(Duration::days(1));
    let done = w.dispatch().await;
    assert_eq!(done.renewed.downgraded, 1);
    assert_eq!(w.run_charges().await, [PeriodOutcome::Paid]);
    let (plan_id, amount, next): (i64, i64, Option<i64>) =
        sqlx::query_as("SELECT plan_id, amount, next_plan_id FROM subscriptions WHERE id = $1")
            .bind(subscription)
            .fetch_one(&db)
            .await
            .expect("subscription");
    assert_eq!((plan_id, amount, next), (cheaper, 1_990, None));
    let charged: i64 = w
        .scalar_i64(
            "SELECT amount_cents FROM sandbox_charges WHERE reference LIKE 'ASSINATURA-%'
              AND $1 > 0",
            1,
        )
        .await;
    assert_eq!(charged, 1_990);
    let receipt = w.mails(w.user_id, RECEIPT_SUBJECT).await;
    assert!(receipt[0].contains("Plano Prata") && receipt[0].contains("R$ 19,90"));
}

#[testkit::db_test]
async fn a_processing_card_is_settled_by_the_webhooks_sync(db: PgPool) {
    let w = world(&db).await;
    let card = w.card(w.user_id, PROCESSING_THEN_PAID, (12, 2030)).await;
    let (subscription, period) = w
        .subscription(
            w.user_id,
            card,
            PLAN_PRICE,
            start() + Duration::days(30),
            false,
        )
        .await;
    assert_eq!(
        billing::charge_period(&db, &w.gateway, &JobOutbox, period)
            .await
            .expect("charge"),
        PeriodOutcome::Processing
    );
    assert_eq!(w.status(subscription).await, "incomplete");
    let charge_id: String = sqlx::query_scalar(
        "SELECT gateway_charge_id FROM subscription_charges WHERE period_id = $1",
    )
    .bind(period)
    .fetch_one(&db)
    .await
    .expect("charge id");

    // The webhook's job goes through the shop's sync, which hands it to billing.
    w.gateway.advance(Duration::seconds(10));
    let gateway = Gateway::Sandbox(w.gateway.sandbox.clone());
    app::commerce::charge::sync_charge(&db, &gateway, &JobOutbox, "", &charge_id)
        .await
        .expect("sync");
    assert_eq!(w.status(subscription).await, "active");
    assert_eq!(period_row(&db, subscription, 0).await.1, "paid");
    // A repeated webhook changes nothing.
    app::commerce::charge::sync_charge(&db, &gateway, &JobOutbox, "", &charge_id)
        .await
        .expect("sync again");
    assert_eq!(w.mails(w.user_id, RECEIPT_SUBJECT).await.len(), 1);
    assert_eq!(w.provider_charges(subscription).await, 1);
    // A charge no try has is not the billing engine's.
    assert_eq!(
        billing::sync_attempt(&db, &w.gateway, &JobOutbox, "ch_unknown")
            .await
            .expect("unknown"),
        None
    );
}

#[testkit::db_test]
async fn a_card_expiring_before_the_renewal_is_reminded_once(db: PgPool) {
    let w = world(&db).await;
    let ana = w.member("Ana", "ana@example.com").await;
    // Expires at the end of January; the renewal is on February 5th.
    let expiring = w.card(w.user_id, APPROVES, (1, 2027)).await;
    let fine = w.card(ana, APPROVES, (2, 2027)).await;
    w.subscription(
        w.user_id,
        expiring,
        PLAN_PRICE,
        start() + Duration::days(26),
        true,
    )
    .await;
    w.subscription(ana, fine, PLAN_PRICE, start() + Duration::days(5), true)
        .await;

    let now = w.gateway.clock_now();
    billing::remind_expiring_cards(&db, &JobOutbox, now, 500)
        .await
        .expect("reminders");
    billing::remind_expiring_cards(&db, &JobOutbox, now + Duration::days(1), 500)
        .await
        .expect("again");
    let reminders = w.mails(w.user_id, CARD_EXPIRING_SUBJECT).await;
    assert_eq!(reminders.len(), 1);
    assert!(reminders[0].contains("final 0010") && reminders[0].contains("01/2027"));
    assert!(w.mails(ana, CARD_EXPIRING_SUBJECT).await.is_empty());
}

/// The monthly reminder of every saved card (`cards.expiry_reminder`), in batches of one.
async fn remind_saved_cards(db: &PgPool, now: DateTime<Utc>) -> usize {
    app::commerce::cards::remind_expiring_cards(db, &JobOutbox, "sandbox", now, 1)
        .await
        .expect("monthly reminders")
}

#[testkit::db_test]
async fn every_saved_card_about_to_expire_is_reminded_once_whichever_job_sees_it(db: PgPool) {
    use domain::commerce::card_reminders::CARD_EXPIRING_SUBJECT as SAVED_CARD_EXPIRING;
    let w = world(&db).await;
    let ana = w.member("Ana", "ana@example.com").await;
    let bia = w.member("Bia", "bia@example.com").await;
    // The clock reads January 2027: January's and February's cards are reminded.
    let subscription_card = w.card(w.user_id, APPROVES, (1, 2027)).await;
    w.subscription(
        w.user_id,
        subscription_card,
        PLAN_PRICE,
        start() + Duration::days(26),
        true,
    )
    .await;
    let next_month = w.card(ana, APPROVES, (2, 2027)).await;
    let later = w.card(ana, PROCESSING_THEN_PAID, (3, 2027)).await;
    let removed = w.card(bia, APPROVES, (2, 2027)).await;
    sqlx::query("UPDATE saved_cards SET removed_at = now() WHERE id = $1")
        .bind(removed)
        .execute(&db)
        .await
        .expect("removed");

    let now = w.gateway.clock_now();
    assert_eq!(remind_saved_cards(&db, now).await, 2);
    // The month's run again, and the subscriptions' daily run: nothing more.
    assert_eq!(remind_saved_cards(&db, now).await, 0);
    billing::remind_expiring_cards(&db, &JobOutbox, now, 500)
        .await
        .expect("subscription reminders");
    let mine = w.mails(w.user_id, SAVED_CARD_EXPIRING).await;
    assert_eq!(mine.len(), 1);
    // A card that pays a subscription is named with it.
    assert!(
        mine[0].contains("final 0010")
            && mine[0].contains("01/2027")
            && mine[0].contains("assinatura"),
        "{}",
        mine[0]
    );
    assert!(w.mails(w.user_id, CARD_EXPIRING_SUBJECT).await.is_empty());
    let anas = w.mails(ana, SAVED_CARD_EXPIRING).await;
    assert_eq!(anas.len(), 1);
    assert!(anas[0].contains("02/2027") && anas[0].contains("/homepage/meios-de-pagamento"));
    assert!(w.mails(bia, SAVED_CARD_EXPIRING).await.is_empty());
    // February's run reminds March's card, and nothing twice.
    assert_eq!(remind_saved_cards(&db, now + Duration::days(31)).await, 1);
    let reminded: Vec<i64> = sqlx::query_scalar(
        "SELECT saved_card_id FROM card_expiry_reminders ORDER BY saved_card_id",
    )
    .fetch_all(&db)
    .await
    .expect("marks");
    assert_eq!(reminded, [subscription_card, next_month, later]);
}

#[testkit::db_test]
async fn the_fleet_renews_a_due_subscription(db: PgPool) {
    // The fleet's provider is the configured sandbox, on the system clock.
    let w = world_at(&db, Utc::now()).await;
    let card = w.card(w.user_id, APPROVES, (12, 2030)).await;
    let (subscription, _) = w
        .subscription(
            w.user_id,
            card,
            PLAN_PRICE,
            Utc::now() - Duration::minutes(1),
            true,
        )
        .await;
    let fleet = start_fleet(&db);
    let dispatch = Enqueue::new(SubscriptionsDispatch { tick: Utc::now() })
        .commit(&db)
        .await
        .expect("dispatch");
    wait_for(&db, &dispatch.id, StdDuration::from_secs(30), |view| {
        view.state == jobs::JobState::Succeeded
    })
    .await;
    let charge: String =
        sqlx::query_scalar("SELECT id FROM apalis.jobs WHERE job_type = 'subscriptions.charge'")
            .fetch_one(&db)
            .await
            .expect("charge job");
    wait_for(&db, &charge, StdDuration::from_secs(30), |view| {
        view.state == jobs::JobState::Succeeded
    })
    .await;
    fleet.stop().await.expect("fleet stopped");
    assert_eq!(w.status(subscription).await, "active");
    assert_eq!(period_row(&db, subscription, 1).await.1, "paid");
    assert_eq!(w.provider_charges(subscription).await, 1);
    assert_eq!(w.mails(w.user_id, RECEIPT_SUBJECT).await.len(), 1);
}

#[testkit::db_test]
async fn a_pix_renewal_is_made_ahead_paid_by_webhook_or_failed_at_its_expiry(db: PgPool) {
    let w = world(&db).await;
    let ana = w.member("Ana", "ana@example.com").await;
    let ends = start() + Duration::days(3);
    let mut subscriptions = Vec::new();
    for user in [w.user_id, ana] {
        subscriptions.push(w.pix_subscription(user, ends).await);
    }
    let (paying, lapsing) = (subscriptions[0], subscriptions[1]);

    // Three days before the end, each renewal is made and its PIX e-mailed.
    let done = w.dispatch().await;
    assert_eq!((done.renewed.created, done.queued), (2, 2));
    assert_eq!(
        w.run_charges().await,
        [PeriodOutcome::Pending, PeriodOutcome::Pending]
    );
    let pix = w
        .mails(w.user_id, domain::subscriptions::mail::PIX_SUBJECT)
        .await;
    assert_eq!(pix.len(), 1);
    let (charge_id, br_code, expires_at): (String, String, DateTime<Utc>) = sqlx::query_as(
        "SELECT c.gateway_charge_id, c.pix_qr_code, c.expires_at
           FROM subscription_charges c JOIN subscription_periods p ON p.id = c.period_id
          WHERE p.subscription_id = $1",
    )
    .bind(paying)
    .fetch_one(&db)
    .await
    .expect("pix try");
    assert!(pix[0].contains(&br_code), "{}", pix[0]);
    assert_eq!(expires_at, ends + Duration::days(3));
    assert_eq!(w.dispatch().await.queued, 0);

    // The member pays; the webhook's sync records it.
    w.gateway
        .sandbox
        .pay_pix(
            &charge_id,
            &payments::sandbox::PixPayment {
                amount_cents: None,
                webhook_delay_seconds: 0,
            },
        )
        .await
        .expect("paid");
    let gateway = Gateway::Sandbox(w.gateway.sandbox.clone());
    app::commerce::charge::sync_charge(&db, &gateway, &JobOutbox, "", &charge_id)
        .await
        .expect("sync");
    let current: i64 = w
        .scalar_i64(
            "SELECT current_period::bigint FROM subscriptions WHERE id = $1",
            paying,
        )
        .await;
    assert_eq!(current, 1);
    assert_eq!(w.mails(w.user_id, RECEIPT_SUBJECT).await.len(), 1);

    // The other lets hers expire: a failed try, and a new PIX a day later.
    w.gateway.advance(Duration::days(6) + Duration::minutes(1));
    assert_eq!(w.dispatch().await.queued, 1);
    assert_eq!(
        w.run_charges().await,
        [PeriodOutcome::Declined {
            reason: domain::subscriptions::billing::PIX_EXPIRED.into()
        }]
    );
    assert_eq!(w.status(lapsing).await, "past_due");
    let lapsed = w.mails(ana, DECLINED_SUBJECT).await;
    assert_eq!(lapsed.len(), 1);
    assert!(lapsed[0].contains("venceu sem pagamento"), "{}", lapsed[0]);
    w.gateway.advance(Duration::days(1));
    assert_eq!(w.dispatch().await.queued, 1);
    assert_eq!(w.run_charges().await, [PeriodOutcome::Pending]);
    assert_eq!(
        w.mails(ana, domain::subscriptions::mail::PIX_SUBJECT)
            .await
            .len(),
        2
    );
    let statuses: Vec<String> = sqlx::query_scalar(
        "SELECT status FROM sandbox_charges
          WHERE reference IN (SELECT 'ASSINATURA-' || id FROM subscription_periods
                               WHERE subscription_id = $1)
          ORDER BY created_at",
    )
    .bind(lapsing)
    .fetch_all(&db)
    .await
    .expect("charges");
    assert_eq!(statuses, ["canceled", "pending"]);
}

/// An upgrade's prorated period (as subscribing's use case makes it) at `amount`, to `plan`
/// at `plan_amount` a period.
async fn proration(w: &World, subscription: i64, plan: i64, amount: i64, plan_amount: i64) -> i64 {
    let now = w.gateway.clock_now();
    sqlx::query_scalar(
        "INSERT INTO subscription_periods (station_id, user_id, subscription_id, kind,
             period_index, starts_at, ends_at, amount, plan_id, plan_amount, next_attempt_at)
         SELECT station_id, user_id, id, 'proration', current_period, $2, current_period_end,
                $3, $4, $5, $2
           FROM subscriptions WHERE id = $1
         RETURNING id",
    )
    .bind(subscription)
    .bind(now)
    .bind(amount)
    .bind(plan)
    .bind(plan_amount)
    .fetch_one(&w.db)
    .await
    .expect("proration")
}

#[testkit::db_test]
async fn an_upgrade_switches_the_plan_when_paid_and_not_when_declined(db: PgPool) {
    let w = world(&db).await;
    let premium = plan(&db, w.station_id, "Plano Diamante", 9_990).await;
    let ana = w.member("Ana", "ana@example.com").await;
    let card = w.card(w.user_id, APPROVES, (12, 2030)).await;
    let failing = w.card(ana, SAVED_CARD_FAILS, (12, 2030)).await;
    let (upgraded, _) = w
        .subscription(
            w.user_id,
            card,
            PLAN_PRICE,
            start() + Duration::days(10),
            true,
        )
        .await;
    let (refused, _) = w
        .subscription(ana, failing, PLAN_PRICE, start() + Duration::days(20), true)
        .await;

    let period = proration(&w, upgraded, premium, 3_330, 9_990).await;
    assert_eq!(
        billing::charge_period(&db, &w.gateway, &JobOutbox, period)
            .await
            .expect("upgrade"),
        PeriodOutcome::Paid
    );
    let (plan_id, amount): (i64, i64) =
        sqlx::query_as("SELECT plan_id, amount FROM subscriptions WHERE id = $1")
            .bind(upgraded)
            .fetch_one(&db)
            .await
            .expect("subscription");
    assert_eq!((plan_id, amount), (premium, 9_990));
    // The dispatcher has nothing to do with a proration already paid; the renewal is
    // charged at the new price.
    assert_eq!(w.dispatch().await.queued, 0);
    w.gateway.advance(Duration::days(10));
    w.dispatch().await;
    assert_eq!(w.run_charges().await, [PeriodOutcome::Paid]);
    assert_eq!(period_row(&db, upgraded, 1).await.4, 9_990);
    let amounts: Vec<i64> = sqlx::query_scalar(
        "SELECT amount_cents FROM sandbox_charges
          WHERE reference IN (SELECT 'ASSINATURA-' || id FROM subscription_periods
                               WHERE subscription_id = $1)
          ORDER BY created_at",
    )
    .bind(upgraded)
    .fetch_all(&db)
    .await
    .expect("charges");
    assert_eq!(amounts, [3_330, 9_990]);

    let period = proration(&w, refused, premium, 3_333, 9_990).await;
    assert!(matches!(
        billing::charge_period(&db, &w.gateway, &JobOutbox, period)
            .await
            .expect("upgrade"),
        PeriodOutcome::Declined { .. }
    ));
    let (plan_id, amount, status): (i64, i64, String) =
        sqlx::query_as("SELECT plan_id, amount, status FROM subscriptions WHERE id = $1")
            .bind(refused)
            .fetch_one(&db)
            .await
            .expect("subscription");
    assert_eq!(
        (plan_id, amount, status.as_str()),
        (w.plan_id, PLAN_PRICE, "active")
    );
    let voided: String =
        sqlx::query_scalar("SELECT status FROM subscription_periods WHERE id = $1")
            .bind(period)
            .fetch_one(&db)
            .await
            .expect("period");
    assert_eq!(voided, "void");
    assert!(w.mails(ana, DECLINED_SUBJECT).await.is_empty());
}

/// An upgrade's proration charged with a card the change brought, replacing `previous`
/// (as `app::subscriptions::subscribe::change_plan` records it).
async fn upgrade_with_new_card(w: &World, subscription: i64, previous: i64, new_card: i64) -> i64 {
    let premium = plan(&w.db, w.station_id, "Plano Diamante", 9_990).await;
    sqlx::query("UPDATE subscriptions SET saved_card_id = $2 WHERE id = $1")
        .bind(subscription)
        .bind(new_card)
        .execute(&w.db)
        .await
        .expect("the new card");
    let period = proration(w, subscription, premium, 3_330, 9_990).await;
    let mut tx = w.db.begin().await.expect("tx");
    domain::subscriptions::subscribe::remember_replaced_card(&mut tx, period, Some(previous))
        .await
        .expect("remembered");
    tx.commit().await.expect("commit");
    period
}

#[testkit::db_test]
async fn an_upgrade_with_a_new_card_keeps_it_past_a_timeout_and_gives_it_back_when_refused(
    db: PgPool,
) {
    let w = world(&db).await;
    let old = w.card(w.user_id, APPROVES, (12, 2030)).await;
    let (subscription, _) = w
        .subscription(
            w.user_id,
            old,
            PLAN_PRICE,
            start() + Duration::days(10),
            true,
        )
        .await;
    let card_of = |id: i64| {
        let db = db.clone();
        async move {
            sqlx::query_scalar::<_, Option<i64>>(
                "SELECT saved_card_id FROM subscriptions WHERE id = $1",
            )
            .bind(id)
            .fetch_one(&db)
            .await
            .expect("card")
        }
    };

    // The new card's charge times out: nothing is decided, the new card stays; the try is
    // paid when resumed, and the plan switches with that card.
    let new_card = w.card(w.user_id, "4111111111111111", (11, 2031)).await;
    let period = upgrade_with_new_card(&w, subscription, old, new_card).await;
    w.gateway.lose_answers.store(1, Ordering::SeqCst);
    billing::charge_period(&db, &w.gateway, &JobOutbox, period)
        .await
        .expect_err("timed out");
    assert_eq!(card_of(subscription).await, Some(new_card));
    assert_eq!(
        billing::charge_period(&db, &w.gateway, &JobOutbox, period)
            .await
            .expect("resumed"),
        PeriodOutcome::Paid
    );
    assert_eq!(card_of(subscription).await, Some(new_card));

    // A card the provider declines, learnt after a timeout: refused as a whole, the card it
    // replaced is back.
    let ana = w.member("Ana", "ana@example.com").await;
    let ana_old = w.card(ana, APPROVES, (12, 2030)).await;
    let (refused, _) = w
        .subscription(ana, ana_old, PLAN_PRICE, start() + Duration::days(10), true)
        .await;
    let failing = w.card(ana, SAVED_CARD_FAILS, (12, 2030)).await;
    let period = upgrade_with_new_card(&w, refused, ana_old, failing).await;
    w.gateway.lose_answers.store(1, Ordering::SeqCst);
    billing::charge_period(&db, &w.gateway, &JobOutbox, period)
        .await
        .expect_err("timed out");
    assert_eq!(card_of(refused).await, Some(failing));
    assert!(matches!(
        billing::charge_period(&db, &w.gateway, &JobOutbox, period)
            .await
            .expect("resumed"),
        PeriodOutcome::Declined { .. }
    ));
    assert_eq!(card_of(refused).await, Some(ana_old));
    let plan_now = w
        .scalar_i64("SELECT plan_id FROM subscriptions WHERE id = $1", refused)
        .await;
    assert_eq!(plan_now, w.plan_id);
}

async fn refunds_at_the_provider(db: &PgPool, charge_id: &str) -> Vec<(i64, String)> {
    sqlx::query_as("SELECT amount_cents, idempotency_key FROM sandbox_refunds WHERE charge_id = $1")
        .bind(charge_id)
        .fetch_all(db)
        .await
        .expect("refunds")
}

#[testkit::db_test]
async fn a_late_pix_pays_the_period_once_and_money_that_pays_nothing_goes_back(db: PgPool) {
    let w = world(&db).await;
    let subscription = w
        .pix_subscription(w.user_id, start() + Duration::days(3))
        .await;
    w.dispatch().await;
    assert_eq!(w.run_charges().await, [PeriodOutcome::Pending]);
    w.gateway.advance(Duration::days(6) + Duration::minutes(1));
    w.dispatch().await;
    assert!(matches!(
        w.run_charges().await[..],
        [PeriodOutcome::Declined { .. }]
    ));
    w.gateway.advance(Duration::days(1));
    w.dispatch().await;
    assert_eq!(w.run_charges().await, [PeriodOutcome::Pending]);
    let charges: Vec<String> = sqlx::query_scalar(
        "SELECT c.gateway_charge_id FROM subscription_charges c
           JOIN subscription_periods p ON p.id = c.period_id
          WHERE p.subscription_id = $1 ORDER BY c.attempt",
    )
    .bind(subscription)
    .fetch_all(&db)
    .await
    .expect("charges");
    let (first, second) = (&charges[0], &charges[1]);
    let gateway = Gateway::Sandbox(w.gateway.sandbox.clone());
    let pay = |charge: String| {
        let sandbox = w.gateway.sandbox.clone();
        async move {
            sandbox
                .pay_pix(
                    &charge,
                    &payments::sandbox::PixPayment {
                        amount_cents: None,
                        webhook_delay_seconds: 0,
                    },
                )
                .await
                .expect("paid")
        }
    };

    // The expired PIX is paid after all (the payer's bank was late): it pays the period, and
    // the new PIX is cancelled.
    pay(first.clone()).await;
    app::commerce::charge::sync_charge(&db, &gateway, &JobOutbox, "", first)
        .await
        .expect("sync");
    assert_eq!(w.status(subscription).await, "active");
    assert_eq!(period_row(&db, subscription, 1).await.1, "paid");
    let tries: Vec<(i32, String, bool)> = sqlx::query_as(
        "SELECT c.attempt, c.status, c.refund_due FROM subscription_charges c
           JOIN subscription_periods p ON p.id = c.period_id
          WHERE p.subscription_id = $1 ORDER BY c.attempt",
    )
    .bind(subscription)
    .fetch_all(&db)
    .await
    .expect("tries");
    assert_eq!(
        tries,
        [(1, "paid".into(), false), (2, "canceled".into(), false)]
    );
    let second_status: String =
        sqlx::query_scalar("SELECT status FROM sandbox_charges WHERE id = $1")
            .bind(second)
            .fetch_one(&db)
            .await
            .expect("status");
    assert_eq!(second_status, "canceled");

    // The member pays the cancelled one too: it is given back, once.
    pay(second.clone()).await;
    for _ in 0..2 {
        app::commerce::charge::sync_charge(&db, &gateway, &JobOutbox, "", second)
            .await
            .expect("sync");
    }
    let refunds = refunds_at_the_provider(&db, second).await;
    assert_eq!(refunds.len(), 1);
    assert_eq!(refunds[0].0, PLAN_PRICE);
    let (status, owed): (String, bool) = sqlx::query_as(
        "SELECT status, refund_due FROM subscription_charges WHERE gateway_charge_id = $1",
    )
    .bind(second)
    .fetch_one(&db)
    .await
    .expect("try");
    assert_eq!((status.as_str(), owed), ("refunded", false));
    assert!(refunds_at_the_provider(&db, first).await.is_empty());
    assert_eq!(w.mails(w.user_id, RECEIPT_SUBJECT).await.len(), 1);
}

/// A renewal charged at the provider whose answer was lost on the way back, then the
/// subscription cancelled at once (as one in dunning is) and its period void: money the
/// period no longer owes. Answers the subscription and the renewal's charge job.
async fn charged_then_cancelled(w: &World) -> (i64, SubscriptionCharge) {
    let card = w.card(w.user_id, APPROVES, (12, 2030)).await;
    let (subscription, _) = w
        .subscription(w.user_id, card, PLAN_PRICE, start(), true)
        .await;
    w.dispatch().await;
    w.gateway.lose_answers.store(1, Ordering::SeqCst);
    let job: Value = sqlx::query_scalar(
        "SELECT convert_from(job, 'UTF8')::jsonb -> 'args' FROM apalis.jobs
          WHERE job_type = 'subscriptions.charge'",
    )
    .fetch_one(&w.db)
    .await
    .expect("job");
    let job: SubscriptionCharge = serde_json::from_value(job).expect("payload");
    billing::charge_try(&w.db, &w.gateway, &JobOutbox, job.period_id, job.attempt)
        .await
        .expect_err("lost");
    sqlx::query("UPDATE subscriptions SET status = 'canceled', canceled_at = now() WHERE id = $1")
        .bind(subscription)
        .execute(&w.db)
        .await
        .expect("cancel");
    sqlx::query("UPDATE subscription_periods SET status = 'void' WHERE id = $1")
        .bind(job.period_id)
        .execute(&w.db)
        .await
        .expect("void");
    (subscription, job)
}

#[testkit::db_test]
async fn a_charge_that_lands_after_the_subscription_was_cancelled_is_given_back(db: PgPool) {
    let w = world(&db).await;
    let (subscription, job) = charged_then_cancelled(&w).await;

    // The job's retry learns the charge was made, and gives the money back.
    assert_eq!(
        billing::charge_try(&db, &w.gateway, &JobOutbox, job.period_id, job.attempt)
            .await
            .expect("retry"),
        PeriodOutcome::NotDue
    );
    let charge_id: String = sqlx::query_scalar(
        "SELECT gateway_charge_id FROM subscription_charges WHERE period_id = $1",
    )
    .bind(job.period_id)
    .fetch_one(&db)
    .await
    .expect("charge id");
    assert_eq!(refunds_at_the_provider(&db, &charge_id).await.len(), 1);
    assert_eq!(w.provider_charges(subscription).await, 1);
    assert_eq!(period_row(&db, subscription, 1).await.1, "void");
    assert_eq!(w.status(subscription).await, "canceled");
    // Again: nothing more.
    billing::charge_try(&db, &w.gateway, &JobOutbox, job.period_id, job.attempt)
        .await
        .expect("again");
    assert_eq!(refunds_at_the_provider(&db, &charge_id).await.len(), 1);
    assert!(w.mails(w.user_id, RECEIPT_SUBJECT).await.is_empty());
}

#[testkit::db_test]
async fn money_owed_back_that_its_run_could_not_return_is_swept_by_the_dispatcher(db: PgPool) {
    let w = world(&db).await;
    let (_, job) = charged_then_cancelled(&w).await;
    // The retry learns the charge was made and owes it back, but the provider's refunds are
    // down (as long as the job's retries last, here its last one).
    w.gateway.refuse_refunds.store(1, Ordering::SeqCst);
    billing::charge_try(&db, &w.gateway, &JobOutbox, job.period_id, job.attempt)
        .await
        .expect_err("refund refused");
    let charge_id: String = sqlx::query_scalar(
        "SELECT gateway_charge_id FROM subscription_charges WHERE period_id = $1 AND refund_due",
    )
    .bind(job.period_id)
    .fetch_one(&db)
    .await
    .expect("owed back");
    assert!(refunds_at_the_provider(&db, &charge_id).await.is_empty());

    // A quarter of an hour on, the dispatcher's sweep gives it back, once.
    w.gateway.advance(Duration::minutes(16));
    let now = w.gateway.clock_now();
    assert_eq!(
        billing::give_back_owed(&db, &w.gateway, now, 20)
            .await
            .expect("sweep"),
        1
    );
    assert_eq!(refunds_at_the_provider(&db, &charge_id).await.len(), 1);
    let status: String =
        sqlx::query_scalar("SELECT status FROM subscription_charges WHERE gateway_charge_id = $1")
            .bind(&charge_id)
            .fetch_one(&db)
            .await
            .expect("try");
    assert_eq!(status, "refunded");
    assert_eq!(
        billing::give_back_owed(&db, &w.gateway, now, 20)
            .await
            .expect("again"),
        0
    );
    assert_eq!(refunds_at_the_provider(&db, &charge_id).await.len(), 1);
}

#[testkit::db_test]
async fn a_first_period_whose_request_died_before_charging_is_charged_by_the_dispatcher(
    db: PgPool,
) {
    use domain::shared::ids::{Cents, StationId, UserId};
    use domain::subscriptions::PlanPeriod;
    use domain::subscriptions::subscribe::{self, NewSubscription, Target};

    let w = world(&db).await;
    let card = w.card(w.user_id, APPROVES, (12, 2030)).await;
    // The purchase's rows are committed; the request dies before its charge.
    let mut tx = db.begin().await.expect("tx");
    let created = subscribe::create(
        &mut tx,
        &NewSubscription {
            station_id: StationId(w.station_id),
            user_id: UserId(w.user_id),
            target: Target::Plan { plan_id: w.plan_id },
            recurrence: PlanPeriod::Month.as_str(),
            period: PlanPeriod::Month.period(),
            amount: Cents(PLAN_PRICE),
            saved_card_id: Some(card),
            anchor: w.gateway.clock_now(),
        },
    )
    .await
    .expect("created");
    tx.commit().await.expect("commit");

    // Within the lease, the request still owns it: the dispatcher leaves it alone.
    w.dispatch().await;
    assert!(w.run_charges().await.is_empty());
    // Past it, the dispatcher charges it once, and the subscription starts.
    w.gateway.advance(Duration::minutes(16));
    w.dispatch().await;
    assert_eq!(w.run_charges().await, [PeriodOutcome::Paid]);
    assert_eq!(w.status(created.subscription_id).await, "active");
    assert_eq!(w.provider_charges(created.subscription_id).await, 1);
    w.dispatch().await;
    assert!(w.run_charges().await.is_empty());
}

#[testkit::db_test]
async fn renewals_keep_the_anchors_day_at_month_ends(db: PgPool) {
    let at = |m: u32, d: u32| Utc.with_ymd_and_hms(2027, m, d, 12, 0, 0).unwrap();
    let w = world_at(&db, at(2, 28)).await;
    let card = w.card(w.user_id, APPROVES, (12, 2030)).await;
    let (subscription, _) = w
        .subscription(w.user_id, card, PLAN_PRICE, at(2, 28), true)
        .await;
    sqlx::query("UPDATE subscriptions SET anchor_at = $2, current_period_start = $2 WHERE id = $1")
        .bind(subscription)
        .bind(at(1, 31))
        .execute(&db)
        .await
        .expect("anchored on the 31st");

    let bounds = w.renew_three_times(subscription).await;
    assert_eq!(
        bounds,
        [
            (at(2, 28), at(3, 31)),
            (at(3, 31), at(4, 30)),
            (at(4, 30), at(5, 31))
        ]
    );
    assert_eq!(w.provider_charges(subscription).await, 3);
}

#[testkit::db_test]
async fn a_downgrade_to_another_length_keeps_the_31st(db: PgPool) {
    let at = |m: u32, d: u32| Utc.with_ymd_and_hms(2027, m, d, 12, 0, 0).unwrap();
    let w = world_at(&db, at(3, 30)).await;
    let semester: i64 = sqlx::query_scalar(
        "INSERT INTO plans (station_id, name, amount, days) VALUES ($1, 'Semestral', 24000, 183)
         RETURNING id",
    )
    .bind(w.station_id)
    .fetch_one(&db)
    .await
    .expect("semester plan");
    let card = w.card(w.user_id, APPROVES, (12, 2030)).await;
    let (subscription, _) = w
        .subscription(w.user_id, card, 24_000, at(3, 31), true)
        .await;
    // A semester from Sep 30 to Mar 31, anchored on Sep 30 2026; then a downgrade to the
    // monthly plan at its end.
    sqlx::query(
        "UPDATE subscriptions SET plan_id = $2, recurrence = 'semester', period_months = 6,
                anchor_at = $3, current_period_start = $3, next_plan_id = $4
          WHERE id = $1",
    )
    .bind(subscription)
    .bind(semester)
    .bind(Utc.with_ymd_and_hms(2026, 9, 30, 12, 0, 0).unwrap())
    .bind(w.plan_id)
    .execute(&db)
    .await
    .expect("a semester");

    w.gateway.advance(Duration::days(1));
    let bounds = w.renew_three_times(subscription).await;
    // Counted from the month it changed at, not from a date a month before the 31st (a
    // 28th, which would have stayed the renewal day).
    assert_eq!(
        bounds,
        [
            (at(3, 31), at(4, 30)),
            (at(4, 30), at(5, 31)),
            (at(5, 31), at(6, 30))
        ]
    );
    let charged: Vec<i64> = sqlx::query_scalar(
        "SELECT amount FROM subscription_periods WHERE subscription_id = $1 AND period_index > 0
          ORDER BY period_index",
    )
    .bind(subscription)
    .fetch_all(&db)
    .await
    .expect("amounts");
    assert_eq!(charged, [PLAN_PRICE; 3]);
}

#[test]
fn the_engines_kinds_run_and_its_schedules_tick() {
    for queue in [
        "subscriptions.dispatch",
        "subscriptions.charge",
        "subscriptions.card_reminder",
        "cards.expiry_reminder",
        "cards.delete",
    ] {
        assert!(jobs::kinds::QUEUES.contains(&queue), "{queue} is not run");
    }
    let names: Vec<&str> = jobs::kinds::schedules(&|_| None)
        .expect("schedules")
        .iter()
        .map(|schedule| schedule.name)
        .collect();
    assert!(names.contains(&"subscriptions-dispatch"), "{names:?}");
    assert!(names.contains(&"subscriptions-card-reminder"), "{names:?}");
    assert!(names.contains(&"cards-expiry-reminder"), "{names:?}");
}

#[testkit::db_test]
async fn a_pix_renewal_left_unpaid_after_a_cancellation_ends_without_dunning(db: PgPool) {
    let w = world(&db).await;
    let subscription = w
        .pix_subscription(w.user_id, start() + Duration::days(3))
        .await;
    w.dispatch().await;
    assert_eq!(w.run_charges().await, [PeriodOutcome::Pending]);
    // The member cancels after the PIX was sent, and does not pay it.
    sqlx::query("UPDATE subscriptions SET cancel_at_period_end = true WHERE id = $1")
        .bind(subscription)
        .execute(&db)
        .await
        .expect("cancel");
    w.gateway.advance(Duration::days(6) + Duration::minutes(1));
    w.dispatch().await;
    assert!(matches!(
        w.run_charges().await[..],
        [PeriodOutcome::Declined { .. }]
    ));
    assert_eq!(w.status(subscription).await, "canceled");
    assert_eq!(period_row(&db, subscription, 1).await.1, "void");
    assert!(w.mails(w.user_id, DECLINED_SUBJECT).await.is_empty());
    w.gateway.advance(Duration::days(2));
    assert_eq!(w.dispatch().await, billing::Dispatched::default());
}

#[testkit::db_test]
async fn a_paid_type_21_period_makes_its_order_and_confirms_it(db: PgPool) {
    let w = world(&db).await;
    let action: i64 = sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, digital_product, points)
         VALUES ($1, 21, 'Clube do livro', true, 5) RETURNING id",
    )
    .bind(w.station_id)
    .fetch_one(&db)
    .await
    .expect("action");
    let product: i64 = sqlx::query_scalar(
        "INSERT INTO products (station_id, action_id, name, value, stock)
         VALUES ($1, $2, 'Livro do mês', 3000, 10) RETURNING id",
    )
    .bind(w.station_id)
    .bind(action)
    .fetch_one(&db)
    .await
    .expect("product");
    let card = w.card(w.user_id, APPROVES, (12, 2030)).await;
    let anchor = start();
    let subscription: i64 = sqlx::query_scalar(
        "INSERT INTO subscriptions (station_id, user_id, action_id, product_id, quantity,
             recurrence, period_months, period_days, amount, method, saved_card_id, status,
             anchor_at, current_period_start, current_period_end)
         VALUES ($1, $2, $3, $4, 2, 'monthly', 1, 0, 6000, 'card', $5, 'incomplete', $6, $6,
                 $6 + interval '1 month') RETURNING id",
    )
    .bind(w.station_id)
    .bind(w.user_id)
    .bind(action)
    .bind(product)
    .bind(card)
    .bind(anchor)
    .fetch_one(&db)
    .await
    .expect("subscription");
    let period: i64 = sqlx::query_scalar(
        "INSERT INTO subscription_periods (station_id, user_id, subscription_id, kind,
             period_index, starts_at, ends_at, amount)
         SELECT station_id, user_id, id, 'first', 0, current_period_start, current_period_end,
                amount
           FROM subscriptions WHERE id = $1 RETURNING id",
    )
    .bind(subscription)
    .fetch_one(&db)
    .await
    .expect("period");

    for _ in 0..2 {
        billing::charge_period(&db, &w.gateway, &JobOutbox, period)
            .await
            .expect("charge");
    }
    assert_eq!(w.status(subscription).await, "active");
    let (order_id, status, total, cashback): (i64, String, i64, i64) = sqlx::query_as(
        "SELECT o.id, o.status, o.total_final_value, o.cashback_value
           FROM subscription_periods p JOIN orders o ON o.id = p.order_id
          WHERE p.id = $1",
    )
    .bind(period)
    .fetch_one(&db)
    .await
    .expect("the period's order");
    assert_eq!((status.as_str(), total, cashback), ("paid", 6000, 500));
    let lines: Vec<(i64, i32, i64)> = sqlx::query_as(
        "SELECT product_id, quantity, unit_price FROM order_lines WHERE order_id = $1",
    )
    .bind(order_id)
    .fetch_all(&db)
    .await
    .expect("lines");
    assert_eq!(lines, [(product, 2, 3000)]);
    let orders: i64 = w
        .scalar_i64("SELECT count(*) FROM orders WHERE user_id = $1", w.user_id)
        .await;
    assert_eq!(orders, 1);
    let confirmations: i64 =
        sqlx::query_scalar("SELECT count(*) FROM apalis.jobs WHERE job_type = 'order.confirm'")
            .fetch_one(&db)
            .await
            .expect("count");
    assert_eq!(confirmations, 1);
    // The shop's confirmation credits the cashback and e-mails the order's receipt; the
    // subscription sends no receipt of its own.
    let confirmed = app::commerce::fulfilment::confirm_order(
        &db,
        &JobOutbox,
        "https://c.example.com",
        order_id,
    )
    .await
    .expect("confirm")
    .expect("a paid order");
    assert_eq!(confirmed.credits, 1);
    assert!(w.mails(w.user_id, RECEIPT_SUBJECT).await.is_empty());
}

/// The webhook's job for a charge (`payment.sync`): the shop's sync, which hands a
/// subscription try's charge to billing.
async fn sync(w: &World, charge_id: &str) {
    app::commerce::charge::sync_charge(
        &w.db,
        &Gateway::Sandbox(w.gateway.sandbox.clone()),
        &JobOutbox,
        "",
        charge_id,
    )
    .await
    .expect("sync");
}

/// The charge of the try that paid a period.
async fn paid_charge(w: &World, period: i64) -> String {
    sqlx::query_scalar(
        "SELECT gateway_charge_id FROM subscription_charges WHERE period_id = $1 AND status = 'paid'",
    )
    .bind(period)
    .fetch_one(&w.db)
    .await
    .expect("the paid try's charge")
}

/// A plan subscription whose period 0 was paid by a card charge, and its renewal made and
/// queued (not charged yet): (subscription, period 0, its charge).
async fn plan_paid_by_card(w: &World) -> (i64, i64, String) {
    let card = w.card(w.user_id, APPROVES, (12, 2030)).await;
    let (subscription, period) = w
        .subscription(
            w.user_id,
            card,
            PLAN_PRICE,
            start() + Duration::days(30),
            false,
        )
        .await;
    assert_eq!(
        billing::charge_period(&w.db, &w.gateway, &JobOutbox, period)
            .await
            .expect("charge"),
        PeriodOutcome::Paid
    );
    w.gateway.advance(Duration::days(30));
    assert_eq!(w.dispatch().await.renewed.created, 1);
    (subscription, period, paid_charge(w, period).await)
}

#[testkit::db_test]
async fn a_plan_charge_charged_back_ends_the_subscription_once(db: PgPool) {
    let w = world(&db).await;
    let (subscription, period, charge) = plan_paid_by_card(&w).await;

    w.gateway
        .sandbox
        .chargeback(&charge)
        .await
        .expect("chargeback");
    sync(&w, &charge).await;
    assert_eq!(w.status(subscription).await, "ended");
    assert_eq!(period_row(&db, subscription, 1).await.1, "void");
    // The queued renewal charges nothing.
    assert_eq!(w.run_charges().await, [PeriodOutcome::NotDue]);
    assert_eq!(w.provider_charges(subscription).await, 1);
    let (refunded, chargedback): (i64, bool) = sqlx::query_as(
        "SELECT bank_refunded_cents, chargedback_at IS NOT NULL FROM subscription_charges
          WHERE period_id = $1",
    )
    .bind(period)
    .fetch_one(&db)
    .await
    .expect("try");
    assert_eq!((refunded, chargedback), (PLAN_PRICE, true));
    // A replayed webhook changes nothing; the member is told once.
    sync(&w, &charge).await;
    let ended = w.mails(w.user_id, ENDED_SUBJECT).await;
    assert_eq!(ended.len(), 1, "{ended:?}");
    assert!(
        ended[0].contains("foi estornado e ela foi encerrada")
            && ended[0].contains(domain::subscriptions::billing::CHARGEDBACK),
        "{}",
        ended[0]
    );
    // Nothing more is charged, ever.
    w.gateway.advance(Duration::days(40));
    w.dispatch().await;
    assert!(w.run_charges().await.is_empty());
    assert_eq!(w.provider_charges(subscription).await, 1);
}

/// A type 21 subscription of two units of a R$ 30,00 book with vouchers and 5 points of
/// cashback (R$ 5,00, credited at once), its period 0 paid by card and its order confirmed
/// and credited: (subscription, period, order, its charge).
async fn book_club_paid(w: &World) -> (i64, i64, i64, String) {
    sqlx::query(
        "INSERT INTO credit_rules (station_id, rule, instant) VALUES ($1, 'purchase.cashback', true)",
    )
    .bind(w.station_id)
    .execute(&w.db)
    .await
    .expect("instant cashback");
    let action: i64 = sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, digital_product, points, sell_vouchers)
         VALUES ($1, 21, 'Clube do livro', true, 5, true) RETURNING id",
    )
    .bind(w.station_id)
    .fetch_one(&w.db)
    .await
    .expect("action");
    let product: i64 = sqlx::query_scalar(
        "INSERT INTO products (station_id, action_id, name, value, stock)
         VALUES ($1, $2, 'Livro do mês', 3000, 10) RETURNING id",
    )
    .bind(w.station_id)
    .bind(action)
    .fetch_one(&w.db)
    .await
    .expect("product");
    let card = w.card(w.user_id, APPROVES, (12, 2030)).await;
    let subscription: i64 = sqlx::query_scalar(
        "INSERT INTO subscriptions (station_id, user_id, action_id, product_id, quantity,
             recurrence, period_months, period_days, amount, method, saved_card_id, status,
             anchor_at, current_period_start, current_period_end)
         VALUES ($1, $2, $3, $4, 2, 'monthly', 1, 0, 6000, 'card', $5, 'incomplete', $6, $6,
                 $6 + interval '1 month') RETURNING id",
    )
    .bind(w.station_id)
    .bind(w.user_id)
    .bind(action)
    .bind(product)
    .bind(card)
    .bind(start())
    .fetch_one(&w.db)
    .await
    .expect("subscription");
    let period: i64 = sqlx::query_scalar(
        "INSERT INTO subscription_periods (station_id, user_id, subscription_id, kind,
             period_index, starts_at, ends_at, amount)
         SELECT station_id, user_id, id, 'first', 0, current_period_start, current_period_end,
                amount
           FROM subscriptions WHERE id = $1 RETURNING id",
    )
    .bind(subscription)
    .fetch_one(&w.db)
    .await
    .expect("period");
    assert_eq!(
        billing::charge_period(&w.db, &w.gateway, &JobOutbox, period)
            .await
            .expect("charge"),
        PeriodOutcome::Paid
    );
    let order: i64 = w
        .scalar_i64(
            "SELECT order_id FROM subscription_periods WHERE id = $1",
            period,
        )
        .await;
    app::commerce::fulfilment::confirm_order(&w.db, &JobOutbox, "https://c.example.com", order)
        .await
        .expect("confirm")
        .expect("a paid order");
    // The `points.credit` jobs' work, done here.
    let mut tx = w.db.begin().await.expect("tx");
    for credit in domain::commerce::fulfilment::line_credits(&mut tx, order)
        .await
        .expect("credits")
    {
        domain::wallet::ledger::credit(&mut tx, &credit, None)
            .await
            .expect("credit");
    }
    tx.commit().await.expect("commit");
    let charge = paid_charge(w, period).await;
    // The order's card part carries the try's charge, recorded paid.
    let part: (String, i64, String, Option<String>) = sqlx::query_as(
        "SELECT method, amount, status, gateway_charge_id FROM payments WHERE order_id = $1",
    )
    .bind(order)
    .fetch_one(&w.db)
    .await
    .expect("the order's part");
    assert_eq!(
        part,
        ("card".into(), 6000, "paid".into(), Some(charge.clone()))
    );
    (subscription, period, order, charge)
}

impl World {
    async fn balance(&self) -> (i64, i64) {
        let balance = domain::wallet::ledger::balance(&self.db, self.user_id)
            .await
            .expect("balance");
        let debt = domain::wallet::ledger::debt(&self.db, self.user_id)
            .await
            .expect("debt");
        (balance.balance, debt)
    }

    async fn order_state(&self, order: i64) -> (String, i64, i64) {
        sqlx::query_as(
            "SELECT status, refunded_value,
                    (SELECT count(*) FROM vouchers v JOIN order_lines l ON l.id = v.order_line_id
                      WHERE l.order_id = o.id)
               FROM orders o WHERE id = $1",
        )
        .bind(order)
        .fetch_one(&self.db)
        .await
        .expect("order")
    }
}

#[testkit::db_test]
async fn a_type_21_chargeback_reverses_the_orders_cashback_and_vouchers(db: PgPool) {
    let w = world(&db).await;
    let (subscription, _, order, charge) = book_club_paid(&w).await;
    assert_eq!(w.order_state(order).await, ("paid".into(), 0, 2));
    assert_eq!(w.balance().await, (500, 0));
    // One book was handed over (its voucher used); R$ 3,00 of the cashback was spent.
    sqlx::query(
        "UPDATE vouchers SET validated = '1' WHERE unit = 2
            AND order_line_id = (SELECT id FROM order_lines WHERE order_id = $1)",
    )
    .bind(order)
    .execute(&db)
    .await
    .expect("used");
    let mut tx = db.begin().await.expect("tx");
    domain::wallet::ledger::spend(
        &mut tx,
        &domain::wallet::ledger::Spend {
            user_id: domain::shared::ids::UserId(w.user_id),
            station_id: domain::shared::ids::StationId(w.station_id),
            kind: domain::wallet::ledger::SpendKind::Adjustment,
            source_id: "spent".into(),
            amount: 300,
            description: "Compra".into(),
            action_id: None,
        },
    )
    .await
    .expect("spend");
    tx.commit().await.expect("commit");

    w.gateway
        .sandbox
        .chargeback(&charge)
        .await
        .expect("chargeback");
    sync(&w, &charge).await;

    // The order is refunded whole through the shop's path: the unused voucher is void, the
    // used one stays as the record of its use, the cashback is reversed and what was spent
    // of it is owed. Nothing comes back to stock: the order drew none.
    assert_eq!(w.order_state(order).await, ("refunded".into(), 6000, 1));
    assert_eq!(w.balance().await, (0, 300));
    let refunds: Vec<(String, i64, i64)> = sqlx::query_as(
        "SELECT origin, gateway_cents, wallet_cents FROM refunds WHERE order_id = $1",
    )
    .bind(order)
    .fetch_all(&db)
    .await
    .expect("refunds");
    assert_eq!(refunds, [("bank".into(), 6000, 0)]);
    let stock: i64 = w
        .scalar_i64(
            "SELECT stock::bigint FROM products WHERE action_id = (SELECT action_id FROM subscriptions WHERE id = $1)",
            subscription,
        )
        .await;
    assert_eq!(stock, 10);
    assert_eq!(w.status(subscription).await, "ended");
    assert!(
        domain::wallet::ledger::check(&db, w.user_id)
            .await
            .expect("check")
            .is_empty()
    );
    // Staff still cannot refund it as a shop order.
    let mut tx = db.begin().await.expect("tx");
    let refused = domain::commerce::refunds::request(
        &mut tx,
        Some(w.station_id),
        order,
        &domain::commerce::refunds::RefundRequest::default(),
        domain::commerce::status::RefundOrigin::Staff,
        None,
    )
    .await;
    assert!(matches!(
        refused,
        Err(domain::commerce::refunds::RefundError::Refused(
            domain::commerce::refunds::RefundRefusal::SubscriptionOrder
        ))
    ));
}

#[testkit::db_test]
async fn a_chargeback_webhook_replayed_many_times_at_once_undoes_once(db: PgPool) {
    let w = world(&db).await;
    let (subscription, _, order, charge) = book_club_paid(&w).await;
    w.gateway
        .sandbox
        .chargeback(&charge)
        .await
        .expect("chargeback");
    let syncs: Vec<_> = (0..8).map(|_| sync(&w, &charge)).collect();
    futures_util::future::join_all(syncs).await;

    assert_eq!(w.order_state(order).await, ("refunded".into(), 6000, 0));
    let refunds = w
        .scalar_i64("SELECT count(*) FROM refunds WHERE order_id = $1", order)
        .await;
    assert_eq!(refunds, 1);
    let reversed = w
        .scalar_i64(
            "SELECT count(*) FROM credit_lots WHERE user_id = $1 AND state = 'reversed'",
            w.user_id,
        )
        .await;
    assert_eq!(reversed, 1);
    assert_eq!(w.balance().await, (0, 0));
    assert_eq!(w.status(subscription).await, "ended");
    assert_eq!(w.mails(w.user_id, ENDED_SUBJECT).await.len(), 1);
    assert!(
        domain::wallet::ledger::check(&db, w.user_id)
            .await
            .expect("check")
            .is_empty()
    );
}

#[testkit::db_test]
async fn a_partial_refund_gives_back_what_it_covers_and_keeps_the_subscription(db: PgPool) {
    let w = world(&db).await;
    let (subscription, _, order, charge) = book_club_paid(&w).await;

    // Staff refund one book's price at the provider: one unit goes back, half the cashback.
    w.gateway
        .sandbox
        .bank_refund(&charge, Some(3000))
        .await
        .expect("refund");
    sync(&w, &charge).await;
    sync(&w, &charge).await;
    assert_eq!(
        w.order_state(order).await,
        ("partially_refunded".into(), 3000, 1)
    );
    assert_eq!(w.balance().await, (250, 0));
    assert_eq!(w.status(subscription).await, "active");
    assert!(w.mails(w.user_id, ENDED_SUBJECT).await.is_empty());

    // The rest of the charge: a whole refund ends it.
    w.gateway
        .sandbox
        .bank_refund(&charge, None)
        .await
        .expect("refund");
    sync(&w, &charge).await;
    assert_eq!(w.order_state(order).await, ("refunded".into(), 6000, 0));
    assert_eq!(w.balance().await, (0, 0));
    assert_eq!(w.status(subscription).await, "ended");
    let ended = w.mails(w.user_id, ENDED_SUBJECT).await;
    assert_eq!(ended.len(), 1);
    assert!(
        ended[0].contains(domain::subscriptions::billing::REFUNDED),
        "{}",
        ended[0]
    );
}

#[testkit::db_test]
async fn a_chargeback_racing_the_renewal_never_keeps_the_renewals_money(db: PgPool) {
    let w = world(&db).await;
    let (subscription, _, charge) = plan_paid_by_card(&w).await;
    // The renewal is at the provider (charged, its answer lost) when the chargeback lands.
    w.gateway.lose_answers.store(1, Ordering::SeqCst);
    let renewal = period_row(&db, subscription, 1).await.0;
    billing::charge_period(&db, &w.gateway, &JobOutbox, renewal)
        .await
        .expect_err("lost");
    w.gateway
        .sandbox
        .chargeback(&charge)
        .await
        .expect("chargeback");
    sync(&w, &charge).await;
    assert_eq!(w.status(subscription).await, "ended");
    assert_eq!(period_row(&db, subscription, 1).await.1, "void");

    // The renewal's run learns its answer: the money pays nothing and goes back, once.
    for _ in 0..2 {
        billing::charge_period(&db, &w.gateway, &JobOutbox, renewal)
            .await
            .expect("resumed");
    }
    let renewal_charge: String = sqlx::query_scalar(
        "SELECT gateway_charge_id FROM subscription_charges WHERE period_id = $1",
    )
    .bind(renewal)
    .fetch_one(&db)
    .await
    .expect("renewal charge");
    let refunds = refunds_at_the_provider(&db, &renewal_charge).await;
    assert_eq!(refunds.len(), 1);
    assert_eq!(refunds[0].0, PLAN_PRICE);
    // Our own refund read back is not the bank's: nothing more happens.
    sync(&w, &renewal_charge).await;
    assert_eq!(w.status(subscription).await, "ended");
    assert_eq!(w.mails(w.user_id, ENDED_SUBJECT).await.len(), 1);
    // Period 0's receipt only.
    assert_eq!(w.mails(w.user_id, RECEIPT_SUBJECT).await.len(), 1);
}

#[testkit::db_test]
async fn a_chargeback_and_the_renewal_at_once_end_it_and_charge_once(db: PgPool) {
    let w = world(&db).await;
    let (subscription, _, charge) = plan_paid_by_card(&w).await;
    w.gateway
        .sandbox
        .chargeback(&charge)
        .await
        .expect("chargeback");
    let (charged, ()) = tokio::join!(w.run_charges(), sync(&w, &charge));
    assert_eq!(charged.len(), 1);
    // Whichever came first, the subscription ended, once, and the renewal was charged at
    // most once; charged after the end, its money went back.
    assert_eq!(w.status(subscription).await, "ended");
    assert_eq!(w.mails(w.user_id, ENDED_SUBJECT).await.len(), 1);
    let renewal: (String, Option<String>) = sqlx::query_as(
        "SELECT p.status, c.gateway_charge_id FROM subscription_periods p
           LEFT JOIN subscription_charges c ON c.period_id = p.id
          WHERE p.subscription_id = $1 AND p.period_index = 1",
    )
    .bind(subscription)
    .fetch_one(&db)
    .await
    .expect("renewal");
    assert!(w.provider_charges(subscription).await <= 2);
    if let (status, Some(renewal_charge)) = &renewal
        && status == "void"
    {
        assert_eq!(refunds_at_the_provider(&db, renewal_charge).await.len(), 1);
    }
}

/// The card an upgrade replaced, removed by its member while the upgrade's proration was
/// still undecided, cannot be put back when the refusal is learnt (the
/// `subscriptions_card_not_removed` trigger): the refusal is recorded all the same and the
/// declined card stays (dunning asks the member to change it).
#[testkit::db_test]
async fn a_refused_upgrade_whose_old_card_was_removed_meanwhile_is_still_recorded(db: PgPool) {
    let w = world(&db).await;
    let ana = w.member("Ana", "ana@example.com").await;
    let ana_old = w.card(ana, APPROVES, (12, 2030)).await;
    let (refused, _) = w
        .subscription(ana, ana_old, PLAN_PRICE, start() + Duration::days(10), true)
        .await;
    let failing = w.card(ana, SAVED_CARD_FAILS, (12, 2030)).await;
    let period = upgrade_with_new_card(&w, refused, ana_old, failing).await;
    w.gateway.lose_answers.store(1, Ordering::SeqCst);
    billing::charge_period(&db, &w.gateway, &JobOutbox, period)
        .await
        .expect_err("timed out");
    // The old card pays no subscription now: its member removes it, as the route would.
    let mut tx = db.begin().await.expect("tx");
    domain::commerce::cards::remove(&mut tx, ana, "sandbox", ana_old)
        .await
        .expect("removed");
    tx.commit().await.expect("commit");
    let resumed = billing::charge_period(&db, &w.gateway, &JobOutbox, period).await;
    assert!(
        matches!(resumed, Ok(PeriodOutcome::Declined { .. })),
        "{resumed:?}"
    );
    let card: Option<i64> =
        sqlx::query_scalar("SELECT saved_card_id FROM subscriptions WHERE id = $1")
            .bind(refused)
            .fetch_one(&db)
            .await
            .expect("subscription");
    assert_eq!(card, Some(failing), "the removed card is not put back");
}
