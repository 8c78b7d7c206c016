//! `topup.expire` through the real fleet: a PIX top-up paid just before its expiry is
//! credited (its `points.credit` then writes the lot), one left unpaid expires and its
//! charge is cancelled at the sandbox, and a confirmed transfer request is left alone.

use std::time::Duration;

use app::wallet::topups::{self, PayWith, Purchase};
use domain::wallet::ledger;
use domain::wallet::topups::{BankDetails, set_bank_details};
use jobs::JobOutbox;
use payments::Gateway;
use payments::sandbox::PixPayment;
use sqlx::PgPool;
use testkit::build;

use crate::common::{services, start_fleet};

const PUBLIC_URL: &str = "http://127.0.0.1:8080";

async fn pix(db: &PgPool, gateway: &Gateway, station_id: i64, user_id: i64) -> (i64, String) {
    let topup = topups::buy(
        db,
        gateway,
        &JobOutbox,
        PUBLIC_URL,
        Purchase {
            station_id,
            user_id,
            amount: 2500,
            pay_with: PayWith::Pix,
        },
    )
    .await
    .expect("PIX top-up");
    (topup.id, topup.gateway_charge_id.expect("charge"))
}

async fn status(db: &PgPool, topup_id: i64) -> String {
    sqlx::query_scalar("SELECT status FROM topups WHERE id = $1")
        .bind(topup_id)
        .fetch_one(db)
        .await
        .expect("status")
}

async fn wait_until(what: &str, mut done: impl AsyncFnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while !done().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{what} never happened"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[testkit::db_test]
async fn the_expiry_credits_a_late_paid_pix_expires_an_unpaid_one_and_leaves_confirmed_ones(
    db: PgPool,
) {
    let station_id = build::station("clube")
        .url("https://c.example.com")
        .insert(&db)
        .await;
    let paying = build::member(station_id)
        .email("paga@example.com")
        .insert(&db)
        .await;
    let forgetting = build::member(station_id)
        .email("esquece@example.com")
        .insert(&db)
        .await;
    let staff_id = build::member(station_id)
        .email("equipe@example.com")
        .staff()
        .insert(&db)
        .await;
    let gateway = Gateway::from_config(&services(&db, None).config, db.clone()).expect("gateway");
    let Gateway::Sandbox(sandbox) = &gateway else {
        panic!("the tests run the sandbox")
    };
    let (paid, paid_charge) = pix(&db, &gateway, station_id, paying).await;
    let (unpaid, unpaid_charge) = pix(&db, &gateway, station_id, forgetting).await;
    sandbox
        .pay_pix(&paid_charge, &PixPayment::default())
        .await
        .expect("paid");
    // A transfer request confirmed by staff: its expiry job must change nothing.
    let mut conn = db.acquire().await.expect("conn");
    set_bank_details(
        &mut conn,
        station_id,
        &BankDetails {
            bank_name: "Banco".into(),
            agency: "1".into(),
            account: "2".into(),
            holder: "Clube".into(),
            document: "3".into(),
            pix_key: None,
        },
    )
    .await
    .expect("bank");
    drop(conn);
    let transfer = topups::request_transfer(&db, &JobOutbox, station_id, paying, 1000)
        .await
        .expect("transfer");
    topups::confirm(
        &db,
        &JobOutbox,
        PUBLIC_URL,
        domain::staff::Scope::AllStations,
        staff_id,
        transfer.id,
    )
    .await
    .expect("confirmed");
    // Time runs out for everything: the expiry jobs become due.
    sqlx::query("UPDATE topups SET expires_at = now() - interval '1 second'")
        .execute(&db)
        .await
        .expect("top-ups");
    sqlx::query("UPDATE sandbox_charges SET expires_at = now() - interval '1 second'")
        .execute(&db)
        .await
        .expect("charges");
    sqlx::query("UPDATE apalis.jobs SET run_at = now() WHERE job_type = 'topup.expire'")
        .execute(&db)
        .await
        .expect("due");
    let fleet = start_fleet(&db);
    wait_until("the late PIX credited", async || {
        status(&db, paid).await == "credited"
            && ledger::balance(&db, paying).await.expect("balance").balance == 3500
    })
    .await;
    wait_until("the unpaid PIX expired", async || {
        status(&db, unpaid).await == "expired"
    })
    .await;
    fleet.stop().await.expect("stopped");
    assert_eq!(status(&db, transfer.id).await, "credited");
    let charge_status: String =
        sqlx::query_scalar("SELECT status FROM sandbox_charges WHERE id = $1")
            .bind(&unpaid_charge)
            .fetch_one(&db)
            .await
            .expect("charge");
    assert_eq!(charge_status, "canceled");
    assert_eq!(
        ledger::balance(&db, forgetting)
            .await
            .expect("balance")
            .balance,
        0
    );
}

/// A card top-up whose charge the provider made but whose answer never came back (a
/// timeout, a crash before it was recorded) is not failed by its expiry: the expiry asks
/// for the same charge again with the card kept for it, the provider answers the original
/// one, and the top-up is credited once.
#[testkit::db_test]
async fn a_card_top_up_charged_but_unrecorded_is_credited_by_its_expiry(db: PgPool) {
    use domain::commerce::gateway::{CardSource, PaymentGateway};
    let station_id = build::station("clube")
        .url("https://c.example.com")
        .insert(&db)
        .await;
    let member = build::member(station_id)
        .email("paga@example.com")
        .insert(&db)
        .await;
    let gateway = Gateway::from_config(&services(&db, None).config, db.clone()).expect("gateway");
    let token = card_token(&gateway, "4000000000000010").await;
    // What `buy` does up to the provider's call: the top-up committed first, with its card.
    let topup = unrecorded_card_top_up(&db, station_id, member, &token).await;
    // The provider charges the card under the top-up's key; its answer is lost.
    let mut conn = db.acquire().await.expect("conn");
    let customer = domain::commerce::payment::customer(&mut conn, member)
        .await
        .expect("customer");
    drop(conn);
    let charge = gateway
        .create_card_charge(&topup.card_request(customer, CardSource::Token(token)))
        .await
        .expect("charged");
    sqlx::query("UPDATE topups SET expires_at = now() - interval '1 second'")
        .execute(&db)
        .await
        .expect("expired");
    let _ = topups::expire(&db, &gateway, &JobOutbox, PUBLIC_URL, topup.id).await;
    let at_provider: String =
        sqlx::query_scalar("SELECT status FROM sandbox_charges WHERE id = $1")
            .bind(&charge.charge_id)
            .fetch_one(&db)
            .await
            .expect("charge");
    assert_eq!(at_provider, "paid");
    assert_eq!(status(&db, topup.id).await, "credited");
    let charges: Vec<String> = sqlx::query_scalar("SELECT id FROM sandbox_charges")
        .fetch_all(&db)
        .await
        .expect("charges");
    assert_eq!(charges.len(), 1, "charged once");
    assert_eq!(charges[0], charge.charge_id);
    let recorded: (Option<String>, Option<String>) =
        sqlx::query_as("SELECT gateway_charge_id, charge_source FROM topups WHERE id = $1")
            .bind(topup.id)
            .fetch_one(&db)
            .await
            .expect("top-up");
    assert_eq!(
        recorded,
        (Some(charge.charge_id), None),
        "the token is not kept"
    );
}

/// A PIX top-up paid with less than its amount (a payer who typed another amount) is not
/// credited its whole amount.
#[testkit::db_test]
async fn a_pix_top_up_paid_short_is_not_credited_whole(db: PgPool) {
    let station_id = build::station("clube")
        .url("https://c.example.com")
        .insert(&db)
        .await;
    let member = build::member(station_id)
        .email("paga@example.com")
        .insert(&db)
        .await;
    let gateway = Gateway::from_config(&services(&db, None).config, db.clone()).expect("gateway");
    let Gateway::Sandbox(sandbox) = &gateway else {
        panic!("the tests run the sandbox")
    };
    let (topup, charge) = pix(&db, &gateway, station_id, member).await;
    sandbox
        .pay_pix(
            &charge,
            &PixPayment {
                amount_cents: Some(100),
                webhook_delay_seconds: 0,
            },
        )
        .await
        .expect("paid R$ 1,00");
    let _ = topups::sync_charge(&db, &gateway, &JobOutbox, PUBLIC_URL, &charge).await;
    assert_ne!(
        status(&db, topup).await,
        "credited",
        "R$ 1,00 paid, R$ 25,00 credited"
    );
}

/// A sandbox card token (its last digits decide what its charges do).
async fn card_token(gateway: &Gateway, number: &str) -> String {
    let Gateway::Sandbox(sandbox) = gateway else {
        panic!("the tests run the sandbox")
    };
    sandbox
        .tokenize_card(&payments::sandbox::CardDetails {
            number: number.into(),
            holder_name: "MARIA".into(),
            expiry: "12/30".into(),
            cvv: "123".into(),
        })
        .await
        .expect("token")
}

/// A card top-up opened as `buy` opens it (its card kept), whose charge was never asked for
/// or whose answer was lost before it was recorded.
async fn unrecorded_card_top_up(
    db: &PgPool,
    station_id: i64,
    member: i64,
    token: &str,
) -> domain::wallet::topups::TopUp {
    use domain::commerce::gateway::CardSource;
    use domain::wallet::topups::{Method, Opening};
    let mut tx = db.begin().await.expect("tx");
    let topup = domain::wallet::topups::open(
        &mut tx,
        &Opening {
            station_id,
            user_id: member,
            method: Method::Card,
            amount: 2500,
            saved_card_id: None,
        },
    )
    .await
    .expect("opened");
    domain::wallet::topups::keep_card_source(&mut tx, topup.id, &CardSource::Token(token.into()))
        .await
        .expect("card kept");
    tx.commit().await.expect("commit");
    topup
}

/// The member's "Verificar pagamento" on a card top-up whose charge's answer was lost asks
/// for it again under the same key; a card the provider refuses fails it with the refusal,
/// never with "not completed".
#[testkit::db_test]
async fn the_members_check_recovers_an_unrecorded_card_charge_and_a_refusal_fails_it(db: PgPool) {
    let station_id = build::station("clube")
        .url("https://c.example.com")
        .insert(&db)
        .await;
    let member = build::member(station_id)
        .email("paga@example.com")
        .insert(&db)
        .await;
    let gateway = Gateway::from_config(&services(&db, None).config, db.clone()).expect("gateway");
    let approves = card_token(&gateway, "4000000000000010").await;
    let paid = unrecorded_card_top_up(&db, station_id, member, &approves)
        .await
        .id;
    let checked = topups::check(&db, &gateway, &JobOutbox, PUBLIC_URL, member, paid, 0)
        .await
        .expect("checked");
    assert_eq!(checked.status.as_str(), "credited");
    assert!(checked.gateway_charge_id.is_some());
    // Another member's check finds nothing and charges nothing.
    let declines = card_token(&gateway, "4000000000000028").await;
    let refused = unrecorded_card_top_up(&db, station_id, member, &declines)
        .await
        .id;
    let stranger = build::member(station_id)
        .email("outro@example.com")
        .insert(&db)
        .await;
    assert!(
        topups::check(&db, &gateway, &JobOutbox, PUBLIC_URL, stranger, refused, 0)
            .await
            .is_err()
    );
    assert_eq!(status(&db, refused).await, "pending");
    sqlx::query("UPDATE topups SET expires_at = now() - interval '1 second' WHERE id = $1")
        .bind(refused)
        .execute(&db)
        .await
        .expect("expired");
    topups::expire(&db, &gateway, &JobOutbox, PUBLIC_URL, refused)
        .await
        .expect("expiry");
    let (status_now, reason): (String, Option<String>) =
        sqlx::query_as("SELECT status, failure_reason FROM topups WHERE id = $1")
            .bind(refused)
            .fetch_one(&db)
            .await
            .expect("top-up");
    assert_eq!(status_now, "failed");
    assert_ne!(
        reason.as_deref(),
        Some(domain::wallet::topups::NOT_COMPLETED)
    );
}

/// A card charge still processing at the top-up's expiry gives it another 30 minutes (a
/// new expiry job), a bounded number of times; after the last, the charge is cancelled at
/// the provider and the top-up fails with a reason that says so.
#[testkit::db_test]
async fn a_card_charge_still_processing_at_its_expiry_waits_bounded_rounds_then_fails(db: PgPool) {
    let station_id = build::station("clube")
        .url("https://c.example.com")
        .insert(&db)
        .await;
    let member = build::member(station_id)
        .email("paga@example.com")
        .insert(&db)
        .await;
    let gateway = Gateway::from_config(&services(&db, None).config, db.clone()).expect("gateway");
    let processing = card_token(&gateway, "4000000000000036").await;
    let topup = topups::buy(
        &db,
        &gateway,
        &JobOutbox,
        PUBLIC_URL,
        Purchase {
            station_id,
            user_id: member,
            amount: 2500,
            pay_with: PayWith::NewCard {
                token: processing,
                save_with: None,
            },
        },
    )
    .await
    .expect("processing");
    assert_eq!(topup.status.as_str(), "pending");
    let charge_id = topup.gateway_charge_id.clone().expect("charge");
    // The provider takes its time.
    let hold_at_provider = || async {
        sqlx::query("UPDATE sandbox_charges SET settle_at = now() + interval '1 day'")
            .execute(&db)
            .await
            .expect("held");
    };
    hold_at_provider().await;
    let run_out = || async {
        sqlx::query("UPDATE topups SET expires_at = now() - interval '1 second'")
            .execute(&db)
            .await
            .expect("expired");
    };
    run_out().await;
    topups::expire(&db, &gateway, &JobOutbox, PUBLIC_URL, topup.id)
        .await
        .expect("expiry");
    let (status_now, expires_at): (String, chrono::DateTime<chrono::Utc>) =
        sqlx::query_as("SELECT status, expires_at FROM topups WHERE id = $1")
            .bind(topup.id)
            .fetch_one(&db)
            .await
            .expect("top-up");
    assert_eq!(status_now, "pending");
    assert!(expires_at > chrono::Utc::now() + chrono::Duration::minutes(29));
    let next: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM apalis.jobs WHERE job_type = 'topup.expire' AND idempotency_key = $1",
    )
    .bind(format!("topup:{}:{}", topup.id, expires_at.timestamp()))
    .fetch_one(&db)
    .await
    .expect("jobs");
    assert_eq!(next, 1, "its next expiry is scheduled");
    // Rounds used up: the charge is cancelled and the top-up fails, saying why.
    sqlx::query("UPDATE topups SET created_at = now() - interval '3 hours'")
        .execute(&db)
        .await
        .expect("old");
    run_out().await;
    topups::expire(&db, &gateway, &JobOutbox, PUBLIC_URL, topup.id)
        .await
        .expect("expiry");
    let (status_now, reason): (String, Option<String>) =
        sqlx::query_as("SELECT status, failure_reason FROM topups WHERE id = $1")
            .bind(topup.id)
            .fetch_one(&db)
            .await
            .expect("top-up");
    assert_eq!(
        (status_now.as_str(), reason.as_deref()),
        ("failed", Some(domain::wallet::topups::NOT_CONFIRMED))
    );
    let at_provider: String =
        sqlx::query_scalar("SELECT status FROM sandbox_charges WHERE id = $1")
            .bind(&charge_id)
            .fetch_one(&db)
            .await
            .expect("charge");
    assert_eq!(at_provider, "canceled");
}
