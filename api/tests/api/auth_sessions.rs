//! Sessions after login: logout revokes, token validation, single-use login tokens, the
//! account states the member extractor enforces, and the Redis login throttle.

use crate::common;
use std::time::Duration;

use crate::common::{Answer, app, app_with, call, send};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use seed::demo;
use serde_json::{Value, json};
use sqlx::PgPool;

async fn validity(app: &Router, token: Option<&str>) -> Value {
    let answer = call(app, "GET", "/api/auth/validate-token", token, &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer.json()
}

fn login_url(station_id: i64) -> String {
    format!("/api/auth/login/establishment/{station_id}")
}

async fn login(
    app: &Router,
    station_id: i64,
    email: &str,
    password: &str,
    headers: &[(&str, &str)],
) -> Answer {
    let mut request =
        Request::post(login_url(station_id)).header("content-type", "application/json");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let body = json!({ "email": email, "password": password }).to_string();
    send(app, request.body(Body::from(body)).expect("request")).await
}

#[testkit::db_test]
async fn logout_revokes_the_session_everywhere(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let app = app(db.clone());
    let answer = login(
        &app,
        demo.station_id,
        demo::MEMBER_EMAIL,
        demo::MEMBER_PASSWORD,
        &[],
    )
    .await;
    let token = answer.json()["token"].as_str().expect("token").to_string();

    let valid = validity(&app, Some(&token)).await;
    assert_eq!(valid["valid"], true);
    assert_eq!(valid["user"]["id"], demo.member_id);

    assert_eq!(
        call(&app, "POST", "/api/auth/logout", Some(&token), &[])
            .await
            .status,
        StatusCode::NO_CONTENT
    );

    assert_eq!(
        validity(&app, Some(&token)).await,
        json!({ "valid": false, "user": null })
    );
    assert_eq!(
        call(&app, "POST", "/api/auth/logout", Some(&token), &[])
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        call(
            &app,
            "GET",
            "/api/jobs/01J00000000000000000000000",
            Some(&token),
            &[]
        )
        .await
        .status,
        StatusCode::UNAUTHORIZED
    );
}

#[testkit::db_test]
async fn token_validation_never_fails_it_answers_false(db: PgPool) {
    let app = app(db);
    assert_eq!(
        validity(&app, None).await,
        json!({ "valid": false, "user": null })
    );
    assert_eq!(
        validity(&app, Some("forged")).await,
        json!({ "valid": false, "user": null })
    );
}

#[testkit::db_test]
async fn a_login_token_starts_one_session_once(db: PgPool) {
    let (demo, session) = common::demo_member_session(&db).await;
    let app = app(db.clone());

    let issued = call(
        &app,
        "POST",
        "/api/auth/login-token/issue",
        Some(&session),
        &[],
    )
    .await;
    assert_eq!(issued.status, StatusCode::OK, "{}", issued.text);
    let login_token = issued.json()["token"].as_str().expect("token").to_string();
    assert_ne!(login_token, session);
    // The expiry answered is the one stored, two minutes ahead.
    let stored: f64 = sqlx::query_scalar(
        "SELECT extract(epoch FROM expires_at - created_at)::float8 FROM login_tokens",
    )
    .fetch_one(&db)
    .await
    .expect("stored token");
    assert!((119.0..=121.0).contains(&stored), "{stored}");
    let answered = issued.json()["expires_at"]
        .as_str()
        .expect("expires_at")
        .to_string();
    let in_db: String = sqlx::query_scalar(
        "SELECT to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') FROM login_tokens",
    )
    .fetch_one(&db)
    .await
    .expect("expiry");
    assert!(answered.starts_with(&in_db), "{answered} vs {in_db}");

    let redeemed = call(
        &app,
        "POST",
        "/api/auth/login-token",
        Some(&login_token),
        &[],
    )
    .await;
    assert_eq!(redeemed.status, StatusCode::OK, "{}", redeemed.text);
    let body = redeemed.json();
    assert_eq!(body["user"]["id"], demo.member_id);
    let new_session = body["token"].as_str().expect("session token");
    assert_eq!(validity(&app, Some(new_session)).await["valid"], true);
    assert_eq!(
        validity(&app, Some(&login_token)).await["valid"],
        false,
        "a login token is not a session"
    );

    let again = call(
        &app,
        "POST",
        "/api/auth/login-token",
        Some(&login_token),
        &[],
    )
    .await;
    assert_eq!(again.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        again.json(),
        json!({ "messages": ["Este link de acesso é inválido ou expirou. Entre novamente."] })
    );
}

#[testkit::db_test]
async fn an_expired_or_missing_login_token_is_refused(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let app = app(db.clone());
    let login_token = domain::accounts::session::issue_login_token(&db, demo.member_id)
        .await
        .expect("issue")
        .token;
    sqlx::query("UPDATE login_tokens SET expires_at = now() - interval '1 second'")
        .execute(&db)
        .await
        .expect("expire");

    for token in [Some(login_token.as_str()), None] {
        let answer = call(&app, "POST", "/api/auth/login-token", token, &[]).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{token:?}");
    }
    let issue_without_session = call(&app, "POST", "/api/auth/login-token/issue", None, &[]).await;
    assert_eq!(issue_without_session.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn blocked_and_inactive_accounts_are_kept_out_of_the_member_area(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    let member_only = "/api/auth/login-token/issue";

    sqlx::query("UPDATE users SET deleted_at = now() WHERE id = $1")
        .bind(demo.member_id)
        .execute(&db)
        .await
        .expect("block");
    let blocked = call(&app, "POST", member_only, Some(&token), &[]).await;
    assert_eq!(blocked.status, StatusCode::FORBIDDEN);
    assert_eq!(
        blocked.json(),
        json!({ "messages": ["O seu acesso está supenso..."] })
    );
    // The web app still learns who it is, to show the blocked-account notice.
    let valid = validity(&app, Some(&token)).await;
    assert_eq!(valid["valid"], true);
    assert!(valid["user"]["deletedAt"].is_string());

    sqlx::query("UPDATE users SET deleted_at = NULL, active = false WHERE id = $1")
        .bind(demo.member_id)
        .execute(&db)
        .await
        .expect("deactivate");
    let inactive = call(&app, "POST", member_only, Some(&token), &[]).await;
    assert_eq!(inactive.status, StatusCode::UNAUTHORIZED);
}

fn throttled_app(db: &PgPool, extra: &[(&str, &str)]) -> Router {
    // A prefix of its own keeps this test's counters apart from every other run's.
    let prefix = format!("filia-test:{}:", ulid::Ulid::generate());
    let mut overrides = vec![
        ("FILIA_REDIS_PREFIX", prefix.as_str()),
        // Long enough for six hashed logins on a loaded machine, short enough to wait out.
        ("FILIA_LOGIN_WINDOW_SECONDS", "5"),
    ];
    overrides.extend_from_slice(extra);
    app_with(db.clone(), &overrides)
}

#[testkit::db_test]
async fn the_sixth_wrong_password_in_a_row_is_refused_until_the_window_ends(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let app = throttled_app(&db, &[]);

    for attempt in 1..=5 {
        let answer = login(&app, demo.station_id, demo::MEMBER_EMAIL, "Errada123", &[]).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "attempt {attempt}");
    }
    // Even the right password waits now, so guessing cannot go on.
    let sixth = login(
        &app,
        demo.station_id,
        demo::MEMBER_EMAIL,
        demo::MEMBER_PASSWORD,
        &[],
    )
    .await;
    assert_eq!(
        sixth.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        sixth.text
    );
    assert_eq!(
        sixth.json(),
        json!({ "messages": ["Muitas tentativas de acesso sem sucesso. Aguarde alguns minutos e tente novamente."] })
    );
    let retry_after: u64 = sixth.headers["retry-after"]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("seconds");
    assert!((1..=5).contains(&retry_after), "{retry_after}");
    // Another account is not affected.
    let other = login(
        &app,
        demo.station_id,
        demo::STAFF_EMAIL,
        demo::STAFF_PASSWORD,
        &[],
    )
    .await;
    assert_eq!(other.status, StatusCode::OK);

    tokio::time::sleep(Duration::from_millis(5_200)).await;
    let after = login(
        &app,
        demo.station_id,
        demo::MEMBER_EMAIL,
        demo::MEMBER_PASSWORD,
        &[],
    )
    .await;
    assert_eq!(after.status, StatusCode::OK, "{}", after.text);
}

#[testkit::db_test]
async fn one_address_guessing_many_accounts_is_refused(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let app = throttled_app(
        &db,
        &[
            ("FILIA_LOGIN_MAX_FAILURES_PER_IP", "3"),
            ("FILIA_TRUST_FORWARDED_FOR", "true"),
        ],
    );
    let from = |ip: &'static str| [("x-forwarded-for", ip)];

    for n in 1..=3 {
        let email = format!("ninguem{n}@example.com");
        let answer = login(
            &app,
            demo.station_id,
            &email,
            "Errada123",
            &from("203.0.113.7"),
        )
        .await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    let fourth = login(
        &app,
        demo.station_id,
        "ninguem4@example.com",
        "Errada123",
        &from("203.0.113.7"),
    )
    .await;
    assert_eq!(fourth.status, StatusCode::TOO_MANY_REQUESTS);
    // The last hop is the one the proxy added; a forged first hop changes nothing.
    let forged = login(
        &app,
        demo.station_id,
        "ninguem5@example.com",
        "Errada123",
        &from("10.0.0.1, 203.0.113.7"),
    )
    .await;
    assert_eq!(forged.status, StatusCode::TOO_MANY_REQUESTS);
    let elsewhere = login(
        &app,
        demo.station_id,
        demo::MEMBER_EMAIL,
        demo::MEMBER_PASSWORD,
        &from("198.51.100.2"),
    )
    .await;
    assert_eq!(elsewhere.status, StatusCode::OK);
}

#[testkit::db_test]
async fn an_ipv6_client_is_counted_by_its_slash_64(db: PgPool) {
    let demo = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let app = throttled_app(
        &db,
        &[
            ("FILIA_LOGIN_MAX_FAILURES_PER_IP", "3"),
            ("FILIA_TRUST_FORWARDED_FOR", "true"),
        ],
    );
    let from = |ip: &'static str| [("x-forwarded-for", ip)];

    // One host rotating through the addresses of its /64.
    for (n, ip) in ["2001:db8:0:1::1", "2001:db8:0:1::2", "2001:db8:0:1:abcd::3"]
        .into_iter()
        .enumerate()
    {
        let email = format!("ninguem{n}@example.com");
        let answer = login(&app, demo.station_id, &email, "Errada123", &from(ip)).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{ip}");
    }
    let rotated = login(
        &app,
        demo.station_id,
        "ninguem9@example.com",
        "Errada123",
        &from("2001:db8:0:1:ffff::9"),
    )
    .await;
    assert_eq!(rotated.status, StatusCode::TOO_MANY_REQUESTS);
    let next_block = login(
        &app,
        demo.station_id,
        demo::MEMBER_EMAIL,
        demo::MEMBER_PASSWORD,
        &from("2001:db8:0:2::1"),
    )
    .await;
    assert_eq!(next_block.status, StatusCode::OK, "{}", next_block.text);
}
