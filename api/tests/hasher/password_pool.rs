//! Hashing and checking passwords hold no database connection: a burst of requests that
//! wait for the hasher must not hold the pool. In the `hasher` test binary, because it
//! saturates the process-wide hasher.

use crate::{SERIAL, common};
use std::time::Duration;

use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;

const PASSWORD: &str = "Senha123";
const POOL: u32 = 2;
/// More requests than connections.
const REQUESTS: usize = 4;

/// Waits until `REQUESTS` calls wait for the saturated hasher while none of `pool`'s
/// connections is in use (a released connection goes back to the pool on a task of its
/// own, so it may take a moment); panics with what it saw.
async fn until_all_wait_for_the_hasher_holding_no_connection(pool: &PgPool) {
    let in_use = || pool.size() - u32::try_from(pool.num_idle()).expect("idle");
    for _ in 0..750 {
        if domain::accounts::password::in_flight() >= REQUESTS && in_use() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!(
        "{} of {REQUESTS} requests reached the hasher, {} connections in use",
        domain::accounts::password::in_flight(),
        in_use()
    );
}

/// Members of the demo station with [`PASSWORD`], each with a session.
async fn members(db: &PgPool, count: usize) -> Vec<(i64, String)> {
    let demo = seed::demo::seed(db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let hash = domain::accounts::password::hash(PASSWORD).expect("hash");
    let mut members = Vec::new();
    for n in 0..count {
        let id = testkit::build::member(demo.station_id)
            .email(&format!("pessoa{n}@example.com"))
            .password_hash(&hash)
            .insert(db)
            .await;
        let token = domain::accounts::session::create(db, id)
            .await
            .expect("session");
        members.push((id, token));
    }
    members
}

async fn small_pool(db: &PgPool) -> PgPool {
    PgPoolOptions::new()
        .max_connections(POOL)
        .acquire_timeout(Duration::from_secs(5))
        .connect_with((*db.connect_options()).clone())
        .await
        .expect("pool")
}

#[testkit::db_test]
async fn password_changes_wait_for_the_hasher_without_a_connection(db: PgPool) {
    let _serial = SERIAL.lock().await;
    let members = members(&db, REQUESTS).await;
    let pool = small_pool(&db).await;
    let app = common::app(pool.clone());

    let busy = domain::accounts::password::saturate()
        .await
        .expect("hasher");
    let requests: Vec<_> = members
        .iter()
        .map(|(id, token)| {
            let (app, id, token) = (app.clone(), *id, token.clone());
            tokio::spawn(async move {
                common::send_json(
                    &app,
                    "PUT",
                    &format!("/api/auth/update-participant/{id}"),
                    Some(&token),
                    &[],
                    &json!({"password": "Nova12345", "password_confirmation": "Nova12345",
                            "current_password": PASSWORD}),
                )
                .await
            })
        })
        .collect();
    until_all_wait_for_the_hasher_holding_no_connection(&pool).await;
    drop(busy);
    for request in requests {
        let answer = request.await.expect("request");
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
}

#[testkit::db_test]
async fn logins_wait_for_the_hasher_without_a_connection(db: PgPool) {
    let _serial = SERIAL.lock().await;
    let members = members(&db, REQUESTS).await;
    let station_id: i64 = sqlx::query_scalar("SELECT station_id FROM users WHERE id = $1")
        .bind(members[0].0)
        .fetch_one(&db)
        .await
        .expect("station");
    let pool = small_pool(&db).await;
    let app = common::app(pool.clone());

    let busy = domain::accounts::password::saturate()
        .await
        .expect("hasher");
    let requests: Vec<_> = (0..REQUESTS)
        .map(|n| {
            let app = app.clone();
            tokio::spawn(async move {
                common::post_json(
                    &app,
                    &format!("/api/auth/login/establishment/{station_id}"),
                    &json!({"email": format!("pessoa{n}@example.com"), "password": PASSWORD})
                        .to_string(),
                )
                .await
            })
        })
        .collect();
    until_all_wait_for_the_hasher_holding_no_connection(&pool).await;
    drop(busy);
    for request in requests {
        let answer = request.await.expect("request");
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
}

#[testkit::db_test]
async fn password_resets_wait_for_the_hasher_without_a_connection(db: PgPool) {
    let _serial = SERIAL.lock().await;
    let members = members(&db, REQUESTS).await;
    let mut links = Vec::new();
    for (n, (member_id, _)) in members.iter().enumerate() {
        let email = format!("pessoa{n}@example.com");
        let station_id: i64 = sqlx::query_scalar("SELECT station_id FROM users WHERE id = $1")
            .bind(member_id)
            .fetch_one(&db)
            .await
            .expect("station");
        let mut tx = db.begin().await.expect("tx");
        let domain::accounts::recovery::Requested::Issued(issued) =
            domain::accounts::recovery::request(&mut tx, station_id, &email)
                .await
                .expect("link")
        else {
            panic!("no link for {email}");
        };
        tx.commit().await.expect("commit");
        links.push((station_id, email, issued.token));
    }
    let pool = small_pool(&db).await;
    let app = common::app(pool.clone());

    let busy = domain::accounts::password::saturate()
        .await
        .expect("hasher");
    let requests: Vec<_> = links
        .into_iter()
        .map(|(station_id, email, token)| {
            let app = app.clone();
            tokio::spawn(async move {
                common::post_json(
                    &app,
                    "/api/auth/update-password",
                    &json!({"password": "Nova12345", "password_confirmation": "Nova12345",
                            "userHash": token, "userEmail": email, "station_id": station_id})
                    .to_string(),
                )
                .await
            })
        })
        .collect();
    until_all_wait_for_the_hasher_holding_no_connection(&pool).await;
    drop(busy);
    for request in requests {
        let answer = request.await.expect("request");
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
}
