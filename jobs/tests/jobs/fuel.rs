//! `fuel.voucher_expiry`: marks expired the vouchers past their validity, once; vouchers
//! still valid, and those used, are left as they are. Hourly on the fleet's cron.

use chrono::{DateTime, Duration, Utc};
use domain::fuel::campaigns::{self, NewCampaign};
use domain::fuel::vouchers;
use domain::shared::ids::{StationId, UserId};
use jobs::kinds::FuelVoucherExpiry;
use jobs::{Job, JobContext};
use rust_decimal::Decimal;
use serde_json::json;
use sqlx::PgPool;
use testkit::build;

#[test]
fn the_expiry_runs_hourly() {
    assert!(jobs::kinds::QUEUES.contains(&"fuel.voucher_expiry"));
    let names: Vec<&str> = jobs::kinds::schedules(&|_| None)
        .expect("schedules")
        .iter()
        .map(|schedule| schedule.name)
        .collect();
    assert!(names.contains(&"fuel-voucher-expiry"), "{names:?}");
}

async fn statuses(db: &PgPool) -> Vec<(String, String, Option<DateTime<Utc>>)> {
    sqlx::query_as(
        "SELECT u.email, v.status, v.status_at
           FROM fuel_vouchers v JOIN users u ON u.id = v.user_id ORDER BY u.email",
    )
    .fetch_all(db)
    .await
    .expect("vouchers")
}

#[testkit::db_test]
async fn vouchers_past_their_validity_are_marked_expired_once(db: PgPool) {
    let station_id = build::station("posto")
        .url("https://posto.example.com")
        .insert(&db)
        .await;
    sqlx::query("UPDATE stations SET fuel_campaign_access = true WHERE id = $1")
        .bind(station_id)
        .execute(&db)
        .await
        .expect("flag");
    let now = Utc::now();
    let campaign_id = campaigns::create(
        &db,
        &NewCampaign {
            station_id,
            name: "Gasolina do associado".into(),
            description: String::new(),
            image_key: None,
            voucher_type: "Gasolina comum".into(),
            litres: Decimal::new(2_000, 2),
            value_cents: 11_980,
            valid_days: 10,
            starts_at: now - Duration::days(30),
            ends_at: now + Duration::days(30),
            voucher_budget: 10,
            published: true,
        },
    )
    .await
    .expect("campaign");
    // Taken 20 days ago (past), 9 days ago (valid one more day), 15 days ago but used.
    for (email, days_ago) in [
        ("a@example.com", 20),
        ("b@example.com", 9),
        ("c@example.com", 15),
    ] {
        let user_id = build::member(station_id).email(email).insert(&db).await;
        let mut tx = db.begin().await.expect("tx");
        vouchers::take(
            &mut tx,
            StationId(station_id),
            UserId(user_id),
            Some(campaign_id),
            now - Duration::days(days_ago),
        )
        .await
        .expect("voucher");
        tx.commit().await.expect("commit");
    }
    sqlx::query(
        "UPDATE fuel_vouchers SET status = 'used', status_at = now()
          WHERE user_id = (SELECT id FROM users WHERE email = 'c@example.com')",
    )
    .execute(&db)
    .await
    .expect("used");

    let services = crate::common::services(&db, None);
    let run = || async {
        let ctx = JobContext {
            id: "fuel-expiry".into(),
            attempt: 1,
            worker: "test".into(),
            taken_at: None,
            services: services.clone(),
        };
        FuelVoucherExpiry::default().run(ctx).await.expect("expiry")
    };
    assert_eq!(run().await, json!({ "expired": 1 }));
    let first = statuses(&db).await;
    let states: Vec<(&str, &str)> = first
        .iter()
        .map(|(email, status, _)| (email.as_str(), status.as_str()))
        .collect();
    assert_eq!(
        states,
        [
            ("a@example.com", "expired"),
            ("b@example.com", "issued"),
            ("c@example.com", "used"),
        ]
    );
    assert!(first[0].2.is_some(), "when it expired is kept");

    // A second tick marks nothing and keeps when the first did.
    assert_eq!(run().await, json!({ "expired": 0 }));
    assert_eq!(statuses(&db).await, first);
}
