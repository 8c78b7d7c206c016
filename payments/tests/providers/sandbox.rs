//! The sandbox provider against the real PostgreSQL: BR Codes, signed webhooks through the
//! delivery outbox, card outcomes by magic numbers, refunds (partial, asynchronous, failing,
//! bank-started) and the simulations, on a clock the tests move.

use chrono::{Duration, TimeZone, Utc};
use domain::commerce::gateway::{
    BillingAddress, CardChargeRequest, CardExpiry, CardSource, ChargeStatus, Customer,
    GatewayError, PaymentGateway, PixChargeRequest, RefundStatus, SaveCardRequest, WebhookKind,
};
use payments::brcode::{Account, BrCode, Merchant};
use payments::record_event;
use payments::sandbox::{
    CardDetails, Clock, PixPayment, SIGNATURE_HEADER, Sandbox, WebhookDelivery,
};
use reqwest::header::{HeaderMap, HeaderValue};
use secrecy::SecretString;
use sqlx::PgPool;

const SECRET: &str = "test-sandbox-secret";

fn sandbox(db: &PgPool) -> Sandbox {
    Sandbox::new(
        db.clone(),
        Clock::manual(Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap()),
        Merchant::new("Clube Filia Demo", "Florianópolis").expect("merchant"),
        "http://demo.localhost:8080/",
        SecretString::from(SECRET),
    )
}

fn customer() -> Customer {
    Customer {
        name: "Ana Souza".into(),
        email: "ana@example.com".into(),
        document: "52998224725".into(),
        phone: Some("48999998888".into()),
    }
}

fn pix_request(amount_cents: i64, key: &str) -> PixChargeRequest {
    PixChargeRequest {
        amount_cents,
        expires_in_seconds: 1800,
        reference: "PED-1".into(),
        idempotency_key: key.into(),
        customer: customer(),
    }
}

async fn card_token(sandbox: &Sandbox, number: &str) -> String {
    sandbox
        .tokenize_card(&CardDetails {
            number: number.into(),
            holder_name: "ANA SOUZA".into(),
            expiry: "1230".into(),
            cvv: "123".into(),
        })
        .await
        .expect("tokenised")
}

fn card_request(amount_cents: i64, source: CardSource, key: &str) -> CardChargeRequest {
    CardChargeRequest {
        amount_cents,
        installments: 1,
        source,
        billing_address: None,
        reference: "PED-2".into(),
        idempotency_key: key.into(),
        customer: customer(),
    }
}

fn save_request(token: &str) -> SaveCardRequest {
    SaveCardRequest {
        customer: customer(),
        customer_id: None,
        token: token.into(),
        billing_address: BillingAddress {
            zip_code: "88010400".into(),
            street: "Rua Felipe Schmidt".into(),
            number: "515".into(),
            city: "Florianópolis".into(),
            state: "SC".into(),
        },
        idempotency_key: "customer-1".into(),
    }
}

fn headers(delivery: &WebhookDelivery) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(
        SIGNATURE_HEADER,
        HeaderValue::from_str(&delivery.signature).expect("header"),
    );
    headers
}

/// Every due delivery, verified the way our endpoint does, marked delivered: their kinds.
async fn deliver_all(sandbox: &Sandbox) -> Vec<(WebhookKind, String)> {
    let mut kinds = Vec::new();
    for delivery in sandbox.due_webhooks(100).await.expect("due") {
        let event = sandbox
            .verify_webhook(delivery.body.as_bytes(), &headers(&delivery))
            .expect("signed");
        assert_eq!(event.event_id, delivery.event_id);
        kinds.push((event.kind, event.charge_id.expect("charge")));
        sandbox.mark_delivered(delivery.id).await.expect("marked");
    }
    kinds
}

#[testkit::db_test]
async fn a_pix_charge_is_a_real_dynamic_br_code_and_idempotent(db: PgPool) {
    let sandbox = sandbox(&db);
    let charge = sandbox
        .create_pix_charge(&pix_request(12_345, "order-1-pix"))
        .await
        .expect("created");
    assert_eq!(charge.status, ChargeStatus::Pending);
    assert_eq!(
        charge.expires_at,
        sandbox.clock().now().await.expect("now") + Duration::minutes(30)
    );
    let code = BrCode::parse(&charge.br_code).expect("a valid BR Code");
    assert_eq!(code.amount_cents, Some(12_345));
    assert_eq!(code.single_use, Some(true));
    assert_eq!(code.merchant_name, "CLUBE FILIA DEMO");
    assert_eq!(code.merchant_city, "FLORIANOPOLIS");
    assert_eq!(
        code.account,
        Account::Location(format!("demo.localhost/pix/{}", charge.charge_id))
    );

    let again = sandbox
        .create_pix_charge(&pix_request(12_345, "order-1-pix"))
        .await
        .expect("same key");
    assert_eq!(again, charge);
    let conflict = sandbox
        .create_pix_charge(&pix_request(99_999, "order-1-pix"))
        .await;
    assert!(matches!(conflict, Err(GatewayError::IdempotencyConflict)));
    let other = sandbox
        .create_pix_charge(&pix_request(12_345, "order-2-pix"))
        .await
        .expect("another key");
    assert_ne!(other.charge_id, charge.charge_id);
    assert!(matches!(
        sandbox
            .create_pix_charge(&pix_request(0, "order-3-pix"))
            .await,
        Err(GatewayError::Rejected(_))
    ));
}

#[testkit::db_test]
async fn paying_a_pix_sends_one_signed_webhook_recorded_once(db: PgPool) {
    let sandbox = sandbox(&db);
    let charge = sandbox
        .create_pix_charge(&pix_request(5_000, "k1"))
        .await
        .expect("created");
    assert!(sandbox.due_webhooks(10).await.expect("due").is_empty());
    let paid = sandbox
        .pay_pix(&charge.charge_id, &PixPayment::default())
        .await
        .expect("paid");
    assert_eq!(paid.status, ChargeStatus::Paid);
    assert_eq!(paid.paid_amount_cents, 5_000);
    assert_eq!(
        paid.paid_at,
        Some(sandbox.clock().now().await.expect("now"))
    );

    let due = sandbox.due_webhooks(10).await.expect("due");
    assert_eq!(due.len(), 1);
    let delivery = &due[0];
    let event = sandbox
        .verify_webhook(delivery.body.as_bytes(), &headers(delivery))
        .expect("verified");
    assert_eq!(event.kind, WebhookKind::Paid);
    assert_eq!(event.charge_id.as_deref(), Some(charge.charge_id.as_str()));
    assert_eq!(event.provider, "sandbox");

    // A changed body, a missing header, another secret: refused.
    let tampered = delivery.body.replace("5000", "9000");
    assert!(matches!(
        sandbox.verify_webhook(tampered.as_bytes(), &headers(delivery)),
        Err(GatewayError::InvalidSignature)
    ));
    assert!(matches!(
        sandbox.verify_webhook(delivery.body.as_bytes(), &HeaderMap::new()),
        Err(GatewayError::InvalidSignature)
    ));
    let stranger = Sandbox::new(
        db.clone(),
        Clock::System,
        Merchant::new("X", "Y").expect("merchant"),
        "http://x",
        SecretString::from("another-secret"),
    );
    assert!(matches!(
        stranger.verify_webhook(delivery.body.as_bytes(), &headers(delivery)),
        Err(GatewayError::InvalidSignature)
    ));

    // Paying twice is refused: the money already arrived.
    assert!(matches!(
        sandbox
            .pay_pix(&charge.charge_id, &PixPayment::default())
            .await,
        Err(GatewayError::Rejected(_))
    ));

    let mut conn = db.acquire().await.expect("conn");
    assert!(
        record_event(&mut conn, &event, Utc::now())
            .await
            .expect("recorded")
    );
    assert!(
        !record_event(&mut conn, &event, Utc::now())
            .await
            .expect("repeat")
    );
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM payment_events")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(count, 1);
}

#[testkit::db_test]
async fn a_pix_is_paid_after_its_expiry_and_even_after_its_cancel(db: PgPool) {
    let sandbox = sandbox(&db);
    let late = sandbox
        .create_pix_charge(&pix_request(2_000, "late"))
        .await
        .expect("created");
    let canceled = sandbox
        .create_pix_charge(&pix_request(3_000, "canceled"))
        .await
        .expect("created");
    sandbox
        .clock()
        .advance(Duration::minutes(31))
        .await
        .expect("moved");

    // Expiry is ours to enforce: the provider still says pending.
    let read = sandbox.get_charge(&late.charge_id).await.expect("read");
    assert_eq!(read.status, ChargeStatus::Pending);
    assert!(read.expires_at.expect("expiry") < sandbox.clock().now().await.expect("now"));
    let paid = sandbox
        .pay_pix(&late.charge_id, &PixPayment::default())
        .await
        .expect("paid late");
    assert_eq!(paid.status, ChargeStatus::Paid);

    let after_cancel = sandbox
        .cancel_charge(&canceled.charge_id, "cancel-1")
        .await
        .expect("canceled");
    assert_eq!(after_cancel.status, ChargeStatus::Canceled);
    let paid = sandbox
        .pay_pix(&canceled.charge_id, &PixPayment::default())
        .await
        .expect("a PSP's late settlement");
    assert_eq!(paid.status, ChargeStatus::Paid);

    // Canceling a paid charge leaves it paid: never a refund in disguise.
    let still = sandbox
        .cancel_charge(&late.charge_id, "cancel-2")
        .await
        .expect("answered");
    assert_eq!(still.status, ChargeStatus::Paid);

    let kinds: Vec<WebhookKind> = deliver_all(&sandbox)
        .await
        .into_iter()
        .map(|k| k.0)
        .collect();
    assert_eq!(
        kinds,
        vec![WebhookKind::Paid, WebhookKind::Canceled, WebhookKind::Paid]
    );
}

#[testkit::db_test]
async fn webhooks_come_late_twice_and_again_after_a_failure(db: PgPool) {
    let sandbox = sandbox(&db);
    let charge = sandbox
        .create_pix_charge(&pix_request(1_000, "k"))
        .await
        .expect("created");
    sandbox
        .pay_pix(
            &charge.charge_id,
            &PixPayment {
                amount_cents: None,
                webhook_delay_seconds: 60,
            },
        )
        .await
        .expect("paid");
    assert!(sandbox.due_webhooks(10).await.expect("due").is_empty());
    sandbox
        .clock()
        .advance(Duration::seconds(60))
        .await
        .expect("moved");
    let due = sandbox.due_webhooks(10).await.expect("due");
    assert_eq!(due.len(), 1);
    let first = due[0].clone();

    // Our endpoint failed: due again later, same event and body.
    sandbox
        .mark_failed(first.id, "HTTP 500", 30)
        .await
        .expect("failed");
    assert!(sandbox.due_webhooks(10).await.expect("due").is_empty());
    sandbox
        .clock()
        .advance(Duration::seconds(30))
        .await
        .expect("moved");
    let retried = sandbox.due_webhooks(10).await.expect("due");
    assert_eq!(retried, vec![first.clone()]);
    sandbox.mark_delivered(first.id).await.expect("delivered");
    assert!(sandbox.due_webhooks(10).await.expect("due").is_empty());

    // A duplicate, now and again in five minutes: same event id, same signed body.
    sandbox.redeliver(&first.event_id, 0).await.expect("dup");
    sandbox
        .redeliver(&first.event_id, 300)
        .await
        .expect("late dup");
    let dup = sandbox.due_webhooks(10).await.expect("due");
    assert_eq!(dup.len(), 1);
    assert_eq!(
        (&dup[0].event_id, &dup[0].body, &dup[0].signature),
        (&first.event_id, &first.body, &first.signature)
    );
    assert_ne!(dup[0].id, first.id);
    sandbox.mark_delivered(dup[0].id).await.expect("delivered");
    sandbox
        .clock()
        .advance(Duration::seconds(300))
        .await
        .expect("moved");
    assert_eq!(sandbox.due_webhooks(10).await.expect("due").len(), 1);
    assert!(matches!(
        sandbox.redeliver("hook_unknown", 0).await,
        Err(GatewayError::NotFound)
    ));
}

#[testkit::db_test]
async fn cards_do_what_their_magic_numbers_say(db: PgPool) {
    let sandbox = sandbox(&db);
    let approved = card_token(&sandbox, "4000 0000 0000 0010").await;
    let charge = sandbox
        .create_card_charge(&card_request(
            10_000,
            CardSource::Token(approved.clone()),
            "c1",
        ))
        .await
        .expect("charged");
    assert_eq!(charge.status, ChargeStatus::Paid);
    assert_eq!(charge.failure_reason, None);
    let again = sandbox
        .create_card_charge(&card_request(
            10_000,
            CardSource::Token(approved.clone()),
            "c1",
        ))
        .await
        .expect("same key");
    assert_eq!(again, charge);
    assert!(matches!(
        sandbox
            .create_card_charge(&card_request(
                10_001,
                CardSource::Token(approved.clone()),
                "c1"
            ))
            .await,
        Err(GatewayError::IdempotencyConflict)
    ));
    let over_limit = sandbox
        .create_card_charge(&card_request(5_000_001, CardSource::Token(approved), "c1b"))
        .await
        .expect("answered");
    assert_eq!(over_limit.status, ChargeStatus::Failed);
    assert_eq!(
        over_limit.failure_reason.as_deref(),
        Some("Limite insuficiente")
    );

    let declined = card_token(&sandbox, "4000000000000028").await;
    let charge = sandbox
        .create_card_charge(&card_request(10_000, CardSource::Token(declined), "c2"))
        .await
        .expect("answered");
    assert_eq!(charge.status, ChargeStatus::Failed);
    assert_eq!(
        charge.failure_reason.as_deref(),
        Some("Transação não autorizada pelo emissor")
    );

    let later_paid = card_token(&sandbox, "4000000000000036").await;
    let later_failed = card_token(&sandbox, "4000000000000044").await;
    let paid_later = sandbox
        .create_card_charge(&card_request(10_000, CardSource::Token(later_paid), "c3"))
        .await
        .expect("answered");
    let failed_later = sandbox
        .create_card_charge(&card_request(10_000, CardSource::Token(later_failed), "c4"))
        .await
        .expect("answered");
    assert_eq!(paid_later.status, ChargeStatus::Processing);
    assert_eq!(failed_later.status, ChargeStatus::Processing);
    sandbox
        .clock()
        .advance(Duration::seconds(4))
        .await
        .expect("moved");
    let read = sandbox
        .get_charge(&paid_later.charge_id)
        .await
        .expect("read");
    assert_eq!(read.status, ChargeStatus::Processing);
    sandbox
        .clock()
        .advance(Duration::seconds(1))
        .await
        .expect("moved");
    let read = sandbox
        .get_charge(&paid_later.charge_id)
        .await
        .expect("read");
    assert_eq!(
        (read.status, read.paid_amount_cents),
        (ChargeStatus::Paid, 10_000)
    );
    let read = sandbox
        .get_charge(&failed_later.charge_id)
        .await
        .expect("read");
    assert_eq!(read.status, ChargeStatus::Failed);
    assert!(read.failure_reason.is_some());

    // Saved, charged fine by token, then failing as a saved card.
    let fragile = card_token(&sandbox, "5555666677770051").await;
    let saved = sandbox
        .save_card(&save_request(&fragile))
        .await
        .expect("saved");
    assert_eq!(
        (saved.brand.as_str(), saved.last_digits.as_str()),
        ("mastercard", "0051")
    );
    assert_eq!(
        (saved.expiry, saved.customer_id.as_deref()),
        (
            Some(CardExpiry {
                month: 12,
                year: 2030
            }),
            None
        )
    );
    let by_token = sandbox
        .create_card_charge(&card_request(1_000, CardSource::Token(fragile), "c5"))
        .await
        .expect("answered");
    assert_eq!(by_token.status, ChargeStatus::Paid);
    let by_card = sandbox
        .create_card_charge(&card_request(
            1_000,
            CardSource::SavedCard(saved.card_id),
            "c6",
        ))
        .await
        .expect("answered");
    assert_eq!(by_card.status, ChargeStatus::Failed);
    assert!(matches!(
        sandbox
            .create_card_charge(&card_request(
                1_000,
                CardSource::SavedCard("card_x".into()),
                "c7"
            ))
            .await,
        Err(GatewayError::Rejected(_))
    ));
    assert!(matches!(
        sandbox
            .tokenize_card(&CardDetails {
                number: "1234".into(),
                holder_name: "A".into(),
                expiry: "1230".into(),
                cvv: "1".into(),
            })
            .await,
        Err(GatewayError::Rejected(_))
    ));

    let kinds: Vec<WebhookKind> = deliver_all(&sandbox)
        .await
        .into_iter()
        .map(|k| k.0)
        .collect();
    let count = |kind: WebhookKind| kinds.iter().filter(|k| **k == kind).count();
    // c1, c3 later, c5 paid; c1b, c2, c4 later, c6 failed; c3, c4 processing first.
    assert_eq!(count(WebhookKind::Paid), 3);
    assert_eq!(count(WebhookKind::PaymentFailed), 4);
    assert_eq!(count(WebhookKind::Processing), 2);
}

#[testkit::db_test]
async fn refunds_partial_full_asynchronous_failing_and_by_the_bank(db: PgPool) {
    let sandbox = sandbox(&db);
    let token = card_token(&sandbox, "4000000000000010").await;
    let card = sandbox
        .create_card_charge(&card_request(10_000, CardSource::Token(token), "card"))
        .await
        .expect("paid");
    let refund = sandbox
        .refund(&card.charge_id, Some(3_000), "r1")
        .await
        .expect("refunded");
    assert_eq!(
        (refund.status, refund.amount_cents),
        (RefundStatus::Done, 3_000)
    );
    assert_eq!(
        sandbox
            .refund(&card.charge_id, Some(3_000), "r1")
            .await
            .expect("same key"),
        refund
    );
    let read = sandbox.get_charge(&card.charge_id).await.expect("read");
    assert_eq!(
        (read.status, read.refunded_amount_cents),
        (ChargeStatus::PartiallyRefunded, 3_000)
    );
    assert!(matches!(
        sandbox.refund(&card.charge_id, Some(7_001), "r2").await,
        Err(GatewayError::Rejected(_))
    ));
    let rest = sandbox
        .refund(&card.charge_id, None, "r3")
        .await
        .expect("rest");
    assert_eq!(rest.amount_cents, 7_000);
    let read = sandbox.get_charge(&card.charge_id).await.expect("read");
    assert_eq!(read.status, ChargeStatus::Refunded);

    // A PIX devolução is in process, then done.
    let pix = sandbox
        .create_pix_charge(&pix_request(8_000, "pix"))
        .await
        .expect("created");
    assert!(matches!(
        sandbox.refund(&pix.charge_id, None, "early").await,
        Err(GatewayError::Rejected(_))
    ));
    sandbox
        .pay_pix(&pix.charge_id, &PixPayment::default())
        .await
        .expect("paid");
    let refund = sandbox
        .refund(&pix.charge_id, Some(2_000), "p1")
        .await
        .expect("asked");
    assert_eq!(refund.status, RefundStatus::Processing);
    assert_eq!(
        sandbox
            .get_charge(&pix.charge_id)
            .await
            .expect("read")
            .status,
        ChargeStatus::Paid
    );
    // What is in process cannot be refunded twice.
    assert!(matches!(
        sandbox.refund(&pix.charge_id, Some(6_001), "p2").await,
        Err(GatewayError::Rejected(_))
    ));

    // The next one stays in process, then fails; its amount is refundable again.
    sandbox
        .fail_next_refund(&pix.charge_id)
        .await
        .expect("flag");
    let failing = sandbox
        .refund(&pix.charge_id, Some(1_000), "p3")
        .await
        .expect("asked");
    assert_eq!(failing.status, RefundStatus::Processing);
    sandbox
        .clock()
        .advance(Duration::seconds(10))
        .await
        .expect("moved");
    let read = sandbox.get_charge(&pix.charge_id).await.expect("read");
    assert_eq!(
        (read.status, read.refunded_amount_cents),
        (ChargeStatus::PartiallyRefunded, 2_000)
    );
    assert_eq!(
        sandbox
            .refund(&pix.charge_id, Some(1_000), "p3")
            .await
            .expect("same key")
            .status,
        RefundStatus::Failed
    );

    // The bank returns the rest on its own (MED).
    let med = sandbox
        .bank_refund(&pix.charge_id, None)
        .await
        .expect("MED");
    assert_eq!((med.status, med.amount_cents), (RefundStatus::Done, 6_000));
    let read = sandbox.get_charge(&pix.charge_id).await.expect("read");
    assert_eq!(
        (read.status, read.refunded_amount_cents),
        (ChargeStatus::Refunded, 8_000)
    );

    let events = deliver_all(&sandbox).await;
    let pix_kinds: Vec<WebhookKind> = events
        .into_iter()
        .filter(|(_, charge)| *charge == pix.charge_id)
        .map(|(kind, _)| kind)
        .collect();
    assert_eq!(
        pix_kinds,
        vec![
            WebhookKind::Paid,
            WebhookKind::PartiallyRefunded,
            WebhookKind::RefundFailed,
            WebhookKind::Refunded,
        ]
    );
}

#[testkit::db_test]
async fn a_chargeback_and_unknown_charges(db: PgPool) {
    let sandbox = sandbox(&db);
    let token = card_token(&sandbox, "4000000000000010").await;
    let card = sandbox
        .create_card_charge(&card_request(4_000, CardSource::Token(token), "cb"))
        .await
        .expect("paid");
    let disputed = sandbox.chargeback(&card.charge_id).await.expect("disputed");
    assert_eq!(disputed.status, ChargeStatus::Chargedback);
    assert!(matches!(
        sandbox.get_charge("ch_nothing").await,
        Err(GatewayError::NotFound)
    ));
    assert!(matches!(
        sandbox.pay_pix("ch_nothing", &PixPayment::default()).await,
        Err(GatewayError::NotFound)
    ));
    assert!(matches!(
        sandbox
            .pay_pix(&card.charge_id, &PixPayment::default())
            .await,
        Err(GatewayError::Rejected(_))
    ));
}

#[testkit::db_test]
async fn concurrent_refunds_never_return_more_than_was_paid(db: PgPool) {
    let sandbox = sandbox(&db);
    let token = card_token(&sandbox, "4000000000000010").await;
    let card = sandbox
        .create_card_charge(&card_request(10_000, CardSource::Token(token), "many"))
        .await
        .expect("paid");
    let attempts = (0..12).map(|i| {
        let sandbox = sandbox.clone();
        let charge_id = card.charge_id.clone();
        tokio::spawn(async move {
            sandbox
                .refund(&charge_id, Some(2_000), &format!("refund-{i}"))
                .await
        })
    });
    let mut done = 0;
    for attempt in futures_util::future::join_all(attempts).await {
        match attempt.expect("joined") {
            Ok(refund) => {
                assert_eq!(refund.status, RefundStatus::Done);
                done += 1;
            }
            Err(GatewayError::Rejected(_)) => {}
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(done, 5);
    let read = sandbox.get_charge(&card.charge_id).await.expect("read");
    assert_eq!(
        (read.status, read.refunded_amount_cents),
        (ChargeStatus::Refunded, 10_000)
    );
}

#[testkit::db_test]
async fn one_idempotency_key_raced_makes_one_charge(db: PgPool) {
    let sandbox = sandbox(&db);
    let attempts = (0..10).map(|_| {
        let sandbox = sandbox.clone();
        tokio::spawn(async move { sandbox.create_pix_charge(&pix_request(700, "same")).await })
    });
    let ids: std::collections::HashSet<String> = futures_util::future::join_all(attempts)
        .await
        .into_iter()
        .map(|attempt| attempt.expect("joined").expect("created").charge_id)
        .collect();
    assert_eq!(ids.len(), 1);
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM sandbox_charges")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(count, 1);
}

#[testkit::db_test]
async fn two_partial_pix_payments_add_up_to_a_paid_charge(db: PgPool) {
    let sandbox = sandbox(&db);
    let charge = sandbox
        .create_pix_charge(&pix_request(3_000, "parts"))
        .await
        .expect("created");
    let part = |amount| PixPayment {
        amount_cents: Some(amount),
        webhook_delay_seconds: 0,
    };
    let first = sandbox
        .pay_pix(&charge.charge_id, &part(1_000))
        .await
        .expect("first part");
    assert_eq!(
        (first.status, first.paid_amount_cents),
        (ChargeStatus::Pending, 1_000)
    );
    let second = sandbox
        .pay_pix(&charge.charge_id, &part(2_000))
        .await
        .expect("second part");
    assert_eq!(
        (second.status, second.paid_amount_cents),
        (ChargeStatus::Paid, 3_000)
    );
}

#[test]
fn a_customer_never_prints_its_document_email_or_phone() {
    let request = pix_request(1_000, "log");
    let printed = format!("{request:?}");
    assert!(printed.contains("Ana Souza"));
    for secret in ["52998224725", "ana@example.com", "48999998888"] {
        assert!(!printed.contains(secret), "{printed}");
    }
}

#[testkit::db_test]
async fn saving_a_card_answers_its_expiry_and_refuses_a_declined_or_unknown_card(db: PgPool) {
    let sandbox = sandbox(&db);
    let token = card_token(&sandbox, "4000000000000010").await;
    let saved = sandbox
        .save_card(&save_request(&token))
        .await
        .expect("saved");
    assert_eq!(
        (
            saved.brand.as_str(),
            saved.last_digits.as_str(),
            saved.expiry
        ),
        (
            "visa",
            "0010",
            Some(CardExpiry {
                month: 12,
                year: 2030
            })
        )
    );
    // Again: the same card.
    let again = sandbox
        .save_card(&save_request(&token))
        .await
        .expect("saved");
    assert_eq!(again, saved);
    let paid = sandbox
        .create_card_charge(&card_request(
            2_500,
            CardSource::SavedCard(saved.card_id),
            "s1",
        ))
        .await
        .expect("charged");
    assert_eq!(paid.status, ChargeStatus::Paid);

    let declined = card_token(&sandbox, "4000000000000028").await;
    match sandbox.save_card(&save_request(&declined)).await {
        Err(GatewayError::Rejected(reason)) => {
            assert_eq!(reason, payments::sandbox::DECLINED_REASON);
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert!(matches!(
        sandbox.save_card(&save_request("tok_nobody")).await,
        Err(GatewayError::Rejected(_))
    ));
    // A token whose expiry the tokeniser could not read is saved without one.
    let undated = sandbox
        .tokenize_card(&CardDetails {
            number: "4000000000000010".into(),
            holder_name: "ANA".into(),
            expiry: String::new(),
            cvv: "123".into(),
        })
        .await
        .expect("tokenised");
    let saved = sandbox
        .save_card(&save_request(&undated))
        .await
        .expect("saved");
    assert_eq!(saved.expiry, None);
    assert!(!format!("{:?}", save_request(&undated)).contains(&undated));
}

#[testkit::db_test]
async fn the_shared_clock_moves_for_every_gateway_built_from_the_configuration(db: PgPool) {
    let config = domain::Config::from_lookup(|_| None).expect("defaults");
    let first = payments::Gateway::from_config(&config, db.clone()).expect("sandbox");
    let second = payments::Gateway::from_config(&config, db.clone()).expect("sandbox");
    let before = second.now().await.expect("now");
    assert!((before - Utc::now()).num_seconds().abs() < 5, "{before}");

    let moved = first
        .sandbox()
        .expect("sandbox")
        .advance_clock(Duration::days(31))
        .await
        .expect("moved");
    let seen = second.now().await.expect("now");
    assert!(
        seen >= moved && seen - moved < Duration::seconds(5),
        "{seen} {moved}"
    );
    assert!(seen - before >= Duration::days(31));

    // What the sandbox does follows it: a PIX made now expires 30 minutes after the moved
    // time, and a card saved now was made then.
    let pix = second
        .create_pix_charge(&pix_request(1_000, "clock-pix"))
        .await
        .expect("pix");
    assert!(
        pix.expires_at - seen >= Duration::minutes(29),
        "{}",
        pix.expires_at
    );

    // Never back, never more than 400 days at once.
    let sandbox = second.sandbox().expect("sandbox");
    assert!(sandbox.advance_clock(Duration::days(-1)).await.is_err());
    assert!(sandbox.advance_clock(Duration::days(401)).await.is_err());
    let offset: i64 = sqlx::query_scalar("SELECT offset_seconds FROM sandbox_clock")
        .fetch_one(&db)
        .await
        .expect("offset");
    assert_eq!(offset, 31 * 86_400);
}
