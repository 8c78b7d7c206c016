//! The cheap check that lets a reset through to the hasher (`recovery::is_open`) and the
//! redemption that takes the link (`recovery::redeem`) agree on every link: whatever one
//! says of a link, the other does too.

use domain::accounts::recovery::{self, Requested};
use sqlx::PgPool;
use testkit::build::member;

const EMAIL: &str = "ana@example.com";

/// A new account of the station with a fresh reset link: (user id, token).
async fn account_with_link(db: &PgPool, station_id: i64, email: &str) -> (i64, String) {
    let user_id = member(station_id).email(email).insert(db).await;
    let mut tx = db.begin().await.expect("tx");
    let Requested::Issued(issued) = recovery::request(&mut tx, station_id, email)
        .await
        .expect("request")
    else {
        panic!("no link issued");
    };
    tx.commit().await.expect("commit");
    (user_id, issued.token)
}

async fn run(db: &PgPool, sql: &'static str, user_id: i64) {
    sqlx::query(sql)
        .bind(user_id)
        .execute(db)
        .await
        .expect("change");
}

/// What `is_open` says of the link, then what `redeem` does with it.
async fn verdicts(db: &PgPool, station_id: i64, email: &str, token: &str) -> (bool, bool) {
    let open = recovery::is_open(db, station_id, email, token)
        .await
        .expect("is_open");
    let mut tx = db.begin().await.expect("tx");
    let redeemed = recovery::redeem(&mut tx, station_id, email, token)
        .await
        .expect("redeem")
        .is_some();
    // Rolled back: each case looks at the link as it was.
    tx.rollback().await.expect("rollback");
    (open, redeemed)
}

#[testkit::db_test]
async fn is_open_and_redeem_take_the_same_links(db: PgPool) {
    let home = testkit::insert_station(&db, "casa").await;
    let elsewhere = testkit::insert_station(&db, "fora").await;
    let mut cases = Vec::new();

    let (_, token) = account_with_link(&db, home, "live@example.com").await;
    cases.push(("live", home, "live@example.com".to_string(), token, true));
    let (_, token) = account_with_link(&db, home, EMAIL).await;
    cases.push((
        "another station",
        elsewhere,
        EMAIL.into(),
        token.clone(),
        false,
    ));
    cases.push((
        "another e-mail",
        home,
        "outra@example.com".into(),
        token,
        false,
    ));
    cases.push((
        "a made-up token",
        home,
        EMAIL.into(),
        "ab".repeat(32),
        false,
    ));
    for (case, sql) in [
        (
            "used",
            "UPDATE password_resets SET used_at = now() WHERE user_id = $1",
        ),
        (
            "voided",
            "UPDATE password_resets SET voided_at = now() WHERE user_id = $1",
        ),
        (
            "expired",
            "UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1",
        ),
        (
            "of a blocked account",
            "UPDATE users SET deleted_at = now() WHERE id = $1",
        ),
    ] {
        let email = format!("{}@example.com", case.replace(' ', "."));
        let (user_id, token) = account_with_link(&db, home, &email).await;
        run(&db, sql, user_id).await;
        cases.push((case, home, email, token, false));
    }

    for (case, station_id, email, token, live) in cases {
        assert_eq!(
            verdicts(&db, station_id, &email, &token).await,
            (live, live),
            "{case}"
        );
    }
}
