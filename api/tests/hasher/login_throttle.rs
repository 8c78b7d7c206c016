//! The login throttle under parallel bursts: each login takes its try before its password
//! is checked, so a burst gets exactly the tries the limits allow, however many come at
//! once. In the `hasher` test binary: it holds the process-wide hasher so that every request of a
//! burst is in flight before the first password is checked.

use crate::{SERIAL, common};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use axum::http::header::RETRY_AFTER;
use domain::accounts::password;
use seed::demo;
use serde_json::json;
use sqlx::PgPool;

const WRONG: &str = "Errada123";

/// A login: (e-mail, password, client address).
type Login = (String, &'static str, String);

/// Sends every login at once while the hasher is held, lets the hasher go once each of
/// them is either answered or waiting for it, and answers their statuses, sorted.
async fn burst(app: &Router, station_id: i64, logins: Vec<Login>) -> Vec<StatusCode> {
    let count = logins.len();
    let busy = password::saturate().await.expect("hasher");
    let answered = Arc::new(AtomicUsize::new(0));
    let requests: Vec<_> = logins
        .into_iter()
        .map(|(email, password, ip)| {
            let (app, answered) = (app.clone(), Arc::clone(&answered));
            tokio::spawn(async move {
                let answer = common::send_json(
                    &app,
                    "POST",
                    &format!("/api/auth/login/establishment/{station_id}"),
                    None,
                    &[("x-forwarded-for", &ip)],
                    &json!({"email": email, "password": password}),
                )
                .await;
                if answer.status == StatusCode::TOO_MANY_REQUESTS {
                    assert!(answer.headers.contains_key(RETRY_AFTER));
                }
                answered.fetch_add(1, Ordering::SeqCst);
                answer.status
            })
        })
        .collect();
    let mut settled = false;
    for _ in 0..750 {
        if password::in_flight() + answered.load(Ordering::SeqCst) >= count {
            settled = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(settled, "the burst never reached the hasher");
    drop(busy);
    let mut statuses = Vec::new();
    for request in requests {
        statuses.push(request.await.expect("request"));
    }
    statuses.sort();
    statuses
}

fn statuses(unauthorized: usize, refused: usize) -> Vec<StatusCode> {
    let mut expected = vec![StatusCode::UNAUTHORIZED; unauthorized];
    expected.extend(vec![StatusCode::TOO_MANY_REQUESTS; refused]);
    expected
}

async fn throttled_app(db: &PgPool, ip_limit: &str) -> (Router, i64) {
    let demo = demo::seed(db, "http://127.0.0.1:8080").await.expect("seed");
    let app = common::app_with(
        db.clone(),
        &[
            ("FILIA_TRUST_FORWARDED_FOR", "true"),
            ("FILIA_LOGIN_MAX_FAILURES_PER_IP", ip_limit),
        ],
    );
    (app, demo.station_id)
}

#[testkit::db_test]
async fn twenty_wrong_passwords_at_once_get_five_tries(db: PgPool) {
    let _serial = SERIAL.lock().await;
    let (app, station_id) = throttled_app(&db, "50").await;
    let logins = (0..20)
        .map(|n| {
            // From many addresses: only the account's own limit applies.
            (
                demo::MEMBER_EMAIL.to_string(),
                WRONG,
                format!("203.0.113.{n}"),
            )
        })
        .collect();

    assert_eq!(burst(&app, station_id, logins).await, statuses(5, 15));
    let right = burst(
        &app,
        station_id,
        vec![(
            demo::MEMBER_EMAIL.into(),
            demo::MEMBER_PASSWORD,
            "198.51.100.1".into(),
        )],
    )
    .await;
    assert_eq!(right, [StatusCode::TOO_MANY_REQUESTS], "the account waits");
}

#[testkit::db_test]
async fn twenty_wrong_logins_at_once_from_one_address_get_its_tries(db: PgPool) {
    let _serial = SERIAL.lock().await;
    let (app, station_id) = throttled_app(&db, "7").await;
    // Twenty accounts, one try each: only the address' limit applies.
    let logins = (0..20)
        .map(|n| {
            (
                format!("ninguem{n}@example.com"),
                WRONG,
                "203.0.113.7".into(),
            )
        })
        .collect();

    assert_eq!(burst(&app, station_id, logins).await, statuses(7, 13));
}

#[testkit::db_test]
async fn right_passwords_give_their_tries_back(db: PgPool) {
    let _serial = SERIAL.lock().await;
    let (app, station_id) = throttled_app(&db, "3").await;
    let member = || {
        (
            demo::MEMBER_EMAIL.to_string(),
            demo::MEMBER_PASSWORD,
            "203.0.113.7".to_string(),
        )
    };

    // Three logins at once take the address' three tries, and give them back.
    let signed_in = burst(&app, station_id, vec![member(), member(), member()]).await;
    assert_eq!(signed_in, [StatusCode::OK; 3]);
    let wrong = (0..4)
        .map(|n| {
            (
                format!("ninguem{n}@example.com"),
                WRONG,
                "203.0.113.7".into(),
            )
        })
        .collect();
    assert_eq!(burst(&app, station_id, wrong).await, statuses(3, 1));
}
