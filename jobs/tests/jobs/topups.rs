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

/// Review proof: a card top-up whose charge the provider made but whose answer never came
/// back (a timeout, a crash before it was recorded) is failed by its expiry without asking
/// the provider: the member paid and nothing is credited.
#[testkit::db_test]
async fn review_a_card_top_up_charged_but_unrecorded_is_not_failed_by_its_expiry(db: PgPool) {
    use domain::commerce::gateway::{CardChargeRequest, CardSource, PaymentGateway};
    use domain::wallet::topups::{Method, Opening};
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
    let token = sandbox
        .tokenize_card(&payments::sandbox::CardDetails {
            number: "4000000000000010".into(),
            holder_name: "MARIA".into(),
            expiry: "12/30".into(),
            cvv: "123".into(),
        })
        .await
        .expect("token");
    // What `buy` does up to the provider's call: the top-up committed first.
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
    tx.commit().await.expect("commit");
    // The provider charges the card under the top-up's key; its answer is lost.
    let mut conn = db.acquire().await.expect("conn");
    let customer = domain::commerce::payment::customer(&mut conn, member)
        .await
        .expect("customer");
    drop(conn);
    let charge = gateway
        .create_card_charge(&CardChargeRequest {
            amount_cents: 2500,
            installments: 1,
            source: CardSource::Token(token),
            billing_address: None,
            reference: format!("RECARGA-{}", topup.id),
            idempotency_key: topup.charge_key(),
            customer,
        })
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
    assert_ne!(
        status(&db, topup.id).await,
        "failed",
        "the member was charged at the provider, yet the top-up failed"
    );
}

/// Review proof: a PIX top-up paid with less than its amount (a payer who typed another
/// amount) is credited its whole amount; the shop's parts wait for the rest instead.
#[testkit::db_test]
async fn review_a_pix_top_up_paid_short_is_not_credited_whole(db: PgPool) {
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
