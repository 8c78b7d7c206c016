//! `points.credit` through the real fleet: a credit enqueued twice is one job and one lot,
//! a second job for a credit already written changes nothing, and the wallet shows it.

use std::time::Duration;

use crate::common::{start_fleet, wait_for_state};
use domain::shared::ids::{StationId, UserId};
use domain::wallet::ledger::{self, Balance, Credit, SourceKind};
use domain::wallet::rules;
use jobs::kinds::PointsCredit;
use jobs::{Enqueue, JobOutbox, JobState};
use serde_json::json;
use sqlx::PgPool;
use testkit::build;

async fn member(db: &PgPool) -> (i64, i64) {
    let station_id = build::station("clube")
        .url("https://c.example.com")
        .insert(db)
        .await;
    let user_id = build::member(station_id)
        .email("maria@example.com")
        .insert(db)
        .await;
    (station_id, user_id)
}

fn signup_reward(station_id: i64, user_id: i64) -> Credit {
    Credit {
        user_id: UserId(user_id),
        station_id: StationId(station_id),
        source_kind: SourceKind::Activity,
        source_id: user_id.to_string(),
        rule: rules::SIGNUP.into(),
        amount: 5000,
        description: "Recompensa de cadastro".into(),
        action_id: None,
    }
}

async fn enqueue(db: &PgPool, credit: Credit) -> jobs::Enqueued {
    let mut tx = db.begin().await.expect("tx");
    let enqueued = PointsCredit::enqueue(&mut tx, credit)
        .await
        .expect("enqueue");
    tx.commit().await.expect("commit");
    enqueued
}

async fn count(db: &PgPool, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(db).await.expect("count")
}

#[testkit::db_test]
async fn a_credit_enqueued_twice_is_one_job_and_one_lot(db: PgPool) {
    let (station_id, user_id) = member(&db).await;
    let first = enqueue(&db, signup_reward(station_id, user_id)).await;
    let second = enqueue(&db, signup_reward(station_id, user_id)).await;
    assert!(first.created && !second.created);
    assert_eq!(first.id, second.id);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM apalis.jobs WHERE job_type = 'points.credit'"
        )
        .await,
        1
    );
    let owner: (Option<i64>, Option<i64>, Option<String>, Option<String>) = sqlx::query_as(
        "SELECT station_id, user_id, subject_kind, subject_id FROM job_records WHERE job_id = $1",
    )
    .bind(&first.id)
    .fetch_one(&db)
    .await
    .expect("record");
    assert_eq!(
        owner,
        (
            Some(station_id),
            Some(user_id),
            Some("credit".into()),
            Some(format!("activity:{user_id}:signup"))
        )
    );

    let fleet = start_fleet(&db);
    let done = wait_for_state(&db, &first.id, JobState::Succeeded, Duration::from_secs(15)).await;
    let lot_id: i64 = sqlx::query_scalar("SELECT id FROM credit_lots")
        .fetch_one(&db)
        .await
        .expect("one lot");
    assert_eq!(
        done.result,
        Some(json!({ "lot_id": lot_id, "created": true, "state": "pending" }))
    );
    let job_id: Option<String> = sqlx::query_scalar("SELECT job_id FROM credit_lots")
        .fetch_one(&db)
        .await
        .expect("lot");
    assert_eq!(job_id.as_deref(), Some(first.id.as_str()));

    // Another job for the same credit (no key: as if a retry had lost its key) finds the
    // lot and adds nothing.
    let duplicate = Enqueue::new(PointsCredit::from(signup_reward(station_id, user_id)))
        .commit(&db)
        .await
        .expect("enqueue");
    let again = wait_for_state(
        &db,
        &duplicate.id,
        JobState::Succeeded,
        Duration::from_secs(15),
    )
    .await;
    assert_eq!(
        again.result,
        Some(json!({ "lot_id": lot_id, "created": false, "state": "pending" }))
    );
    fleet.stop().await.expect("clean stop");

    assert_eq!(count(&db, "SELECT count(*) FROM credit_lots").await, 1);
    assert_eq!(
        ledger::balance(&db, user_id).await.expect("balance"),
        Balance {
            balance: 0,
            pending: 5000
        }
    );
    assert_eq!(ledger::check_all(&db).await.expect("check"), vec![]);
}

#[testkit::db_test]
async fn an_instant_credit_is_spendable_once_the_job_ran(db: PgPool) {
    let (station_id, user_id) = member(&db).await;
    let refund = Credit {
        source_kind: SourceKind::Refund,
        source_id: "order-42".into(),
        rule: rules::REFUND.into(),
        amount: 1250,
        description: "Estorno do pedido 42".into(),
        ..signup_reward(station_id, user_id)
    };
    let fleet = start_fleet(&db);
    let job = enqueue(&db, refund).await;
    let done = wait_for_state(&db, &job.id, JobState::Succeeded, Duration::from_secs(15)).await;
    fleet.stop().await.expect("clean stop");
    assert_eq!(done.result.expect("result")["state"], "available");
    assert_eq!(
        ledger::balance(&db, user_id).await.expect("balance"),
        Balance {
            balance: 1250,
            pending: 0
        }
    );
}

#[testkit::db_test]
async fn a_credit_for_someone_outside_the_station_fails_for_good(db: PgPool) {
    let (station_id, user_id) = member(&db).await;
    let other_station: i64 = sqlx::query_scalar(
        "INSERT INTO stations (name, subdomain, url) VALUES ('Outro', 'outro', 'https://o.example.com')
         RETURNING id",
    )
    .fetch_one(&db)
    .await
    .expect("station");
    let fleet = start_fleet(&db);
    let job = enqueue(
        &db,
        Credit {
            station_id: StationId(other_station),
            ..signup_reward(station_id, user_id)
        },
    )
    .await;
    let failed = wait_for_state(&db, &job.id, JobState::Failed, Duration::from_secs(15)).await;
    fleet.stop().await.expect("clean stop");
    assert_eq!(failed.attempts, 1);
    assert_eq!(
        failed.error.as_deref(),
        Some("Os pontos não puderam ser creditados.")
    );
    assert_eq!(count(&db, "SELECT count(*) FROM credit_lots").await, 0);
}

#[testkit::db_test]
async fn enqueueing_a_credit_whose_job_failed_for_good_or_was_cancelled_re_arms_it(db: PgPool) {
    let (station_id, user_id) = member(&db).await;
    let signup = signup_reward(station_id, user_id);
    let refund = Credit {
        source_kind: SourceKind::Refund,
        source_id: "order-7".into(),
        rule: rules::REFUND.into(),
        amount: 300,
        ..signup_reward(station_id, user_id)
    };
    let failed = enqueue(&db, signup.clone()).await;
    // Its attempts ran out (a long database outage, say).
    sqlx::query(
        r#"UPDATE apalis.jobs
           SET status = 'Failed', attempts = max_attempts, done_at = now(),
               last_result = '{"Err": "banco indisponível"}'
           WHERE id = $1"#,
    )
    .bind(&failed.id)
    .execute(&db)
    .await
    .expect("failed for good");
    let cancelled = enqueue(&db, refund.clone()).await;
    assert!(
        jobs::state::cancel(&db, &cancelled.id)
            .await
            .expect("cancel")
    );
    let state = |id: String| {
        let db = db.clone();
        async move {
            let job = jobs::state::find(&db, &id)
                .await
                .expect("find")
                .expect("job");
            (job.state, job.attempts)
        }
    };
    assert_eq!(state(failed.id.clone()).await.0, JobState::Failed);
    assert_eq!(state(cancelled.id.clone()).await.0, JobState::Cancelled);

    // The same credits owed again (user-earn-points, a confirmation replayed) put the jobs
    // back in their queue, in the caller's transaction.
    let mut tx = db.begin().await.expect("tx");
    let queued = app::wallet::credit_all(&JobOutbox, &mut tx, vec![signup.clone(), refund.clone()])
        .await
        .expect("enqueue");
    tx.commit().await.expect("commit");
    assert_eq!(queued, 2, "re-armed jobs count as queued");
    assert_eq!(state(failed.id.clone()).await, (JobState::Queued, 0));
    assert_eq!(state(cancelled.id.clone()).await, (JobState::Queued, 0));
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM apalis.jobs WHERE job_type = 'points.credit'"
        )
        .await,
        2
    );

    let fleet = start_fleet(&db);
    wait_for_state(
        &db,
        &failed.id,
        JobState::Succeeded,
        Duration::from_secs(15),
    )
    .await;
    wait_for_state(
        &db,
        &cancelled.id,
        JobState::Succeeded,
        Duration::from_secs(15),
    )
    .await;
    fleet.stop().await.expect("clean stop");

    // Owed again once written: nothing to re-arm, nothing more credited.
    let mut tx = db.begin().await.expect("tx");
    let queued = app::wallet::credit_all(&JobOutbox, &mut tx, vec![signup, refund])
        .await
        .expect("enqueue");
    tx.commit().await.expect("commit");
    assert_eq!(queued, 0);
    assert_eq!(state(failed.id.clone()).await.0, JobState::Succeeded);

    assert_eq!(count(&db, "SELECT count(*) FROM credit_lots").await, 2);
    assert_eq!(
        ledger::balance(&db, user_id).await.expect("balance"),
        Balance {
            balance: 300,
            pending: 5000
        }
    );
    assert_eq!(ledger::check_all(&db).await.expect("check"), vec![]);
}
