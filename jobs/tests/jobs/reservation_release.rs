//! `reservation.release` through the real fleet: scheduled at a hold's expiry, it releases
//! the hold once; another run for the same hold changes nothing.

use std::time::Duration;

use crate::common::{start_fleet, wait_for_state};
use chrono::Utc;
use domain::commerce::cart::Wanted;
use domain::commerce::checkout;
use jobs::JobState;
use jobs::kinds::ReservationRelease;
use serde_json::json;
use sqlx::PgPool;
use testkit::build;

async fn setup(db: &PgPool) -> (i64, i64, i64) {
    let station_id = build::station("clube")
        .url("https://c.example.com")
        .insert(db)
        .await;
    let user_id = build::member(station_id)
        .email("maria@example.com")
        .insert(db)
        .await;
    let action_id: i64 = sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, digital_product)
         VALUES ($1, 3, 'Ingresso', true) RETURNING id",
    )
    .bind(station_id)
    .fetch_one(db)
    .await
    .expect("action");
    let product_id = build::product(station_id, action_id)
        .name("Ingresso")
        .stock(3)
        .insert(db)
        .await;
    (station_id, user_id, product_id)
}

async fn reserved(db: &PgPool, product_id: i64) -> i32 {
    sqlx::query_scalar("SELECT reserved FROM products WHERE id = $1")
        .bind(product_id)
        .fetch_one(db)
        .await
        .expect("product")
}

#[testkit::db_test]
async fn the_release_runs_at_the_expiry_and_releases_once(db: PgPool) {
    let (station_id, user_id, product_id) = setup(&db).await;
    let mut tx = db.begin().await.expect("tx");
    let hold = checkout::confirm(
        &mut tx,
        station_id,
        user_id,
        &[Wanted {
            product_id,
            quantity: 2,
        }],
    )
    .await
    .expect("hold");
    // The hold's job as the API schedules it, and an earlier one as if the hold had been
    // extended since: that one runs first and finds the hold live.
    let at_expiry = ReservationRelease::schedule(
        &mut tx,
        station_id,
        user_id,
        hold.checkout_id,
        hold.expires_at,
    )
    .await
    .expect("schedule");
    let early =
        ReservationRelease::schedule(&mut tx, station_id, user_id, hold.checkout_id, Utc::now())
            .await
            .expect("schedule");
    tx.commit().await.expect("commit");
    assert_eq!(reserved(&db, product_id).await, 2);

    let fleet = start_fleet(&db);
    let view = wait_for_state(&db, &early.id, JobState::Succeeded, Duration::from_secs(20)).await;
    assert_eq!(view.result.expect("result")["released"], json!(false));
    assert_eq!(reserved(&db, product_id).await, 2);

    // The hold's expiry comes: the scheduled job releases it.
    sqlx::query("UPDATE checkouts SET expires_at = now() WHERE id = $1;")
        .bind(hold.checkout_id)
        .execute(&db)
        .await
        .expect("expire");
    sqlx::query("UPDATE apalis.jobs SET run_at = now() WHERE id = $1")
        .bind(&at_expiry.id)
        .execute(&db)
        .await
        .expect("due");
    let view = wait_for_state(
        &db,
        &at_expiry.id,
        JobState::Succeeded,
        Duration::from_secs(20),
    )
    .await;
    assert_eq!(view.result.expect("result")["released"], json!(true));
    assert_eq!(reserved(&db, product_id).await, 0);

    // Run again (a re-run from the console): nothing more is given back.
    let mut tx = db.begin().await.expect("tx");
    let again = ReservationRelease::schedule(
        &mut tx,
        station_id,
        user_id,
        hold.checkout_id,
        Utc::now() + chrono::Duration::seconds(1),
    )
    .await
    .expect("schedule");
    tx.commit().await.expect("commit");
    let view = wait_for_state(&db, &again.id, JobState::Succeeded, Duration::from_secs(20)).await;
    assert_eq!(view.result.expect("result")["released"], json!(false));
    assert_eq!(reserved(&db, product_id).await, 0);
    fleet.stop().await.expect("clean stop");
}
