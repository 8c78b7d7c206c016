//! `services.appointment_reminders`: the confirmed appointments that start the next
//! calendar day in their station's time zone are e-mailed once each; the rest (today, the
//! day after tomorrow, requested, cancelled) are left. Hourly on the fleet's cron.

use chrono::{DateTime, Datelike, Duration, NaiveTime, TimeZone, Utc};
use domain::shared::time::{Tz, zone_named};
use jobs::kinds::AppointmentReminders;
use jobs::{Job, JobContext};
use serde_json::json;
use sqlx::PgPool;
use testkit::build;

#[test]
fn the_reminders_run_hourly() {
    assert!(jobs::kinds::QUEUES.contains(&"services.appointment_reminders"));
    let names: Vec<&str> = jobs::kinds::schedules(&|_| None)
        .expect("schedules")
        .iter()
        .map(|schedule| schedule.name)
        .collect();
    assert!(names.contains(&"appointment-reminders"), "{names:?}");
}

/// `days` days from today at `hour` o'clock, in `zone`.
fn local(zone: Tz, days: i64, hour: u32) -> DateTime<Utc> {
    let date = Utc::now().with_timezone(&zone).date_naive() + Duration::days(days);
    let at = date.and_time(NaiveTime::from_hms_opt(hour, 0, 0).expect("time"));
    zone.from_local_datetime(&at)
        .earliest()
        .expect("exists")
        .with_timezone(&Utc)
}

async fn appointment(
    db: &PgPool,
    station_id: i64,
    user_id: i64,
    status: &str,
    at: DateTime<Utc>,
) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO service_appointments
             (station_id, service, cpf, user_id, status, scheduled_at, cancelled_by)
         VALUES ($1, 'legal', '52998224725', $2, $3, $4,
                 CASE WHEN $3 = 'cancelled' THEN 'staff' END)
         RETURNING id",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(status)
    .bind(at)
    .fetch_one(db)
    .await
    .expect("appointment")
}

async fn reminders(db: &PgPool) -> Vec<(String, String)> {
    sqlx::query_as(
        "SELECT r.subject_id,
                convert_from(j.job, 'UTF8')::jsonb -> 'args' -> 'mail' ->> 'to'
           FROM job_records r JOIN apalis.jobs j ON j.id = r.job_id
          WHERE r.subject_kind = 'service_appointment' ORDER BY r.subject_id",
    )
    .fetch_all(db)
    .await
    .expect("mails")
}

#[testkit::db_test]
async fn tomorrows_confirmed_appointments_are_reminded_once(db: PgPool) {
    // Rio Branco (UTC-5): its "tomorrow" is not UTC's nor Brasília's.
    let zone = zone_named("America/Rio_Branco");
    let station_id = build::station("acre")
        .url("https://acre.example.com")
        .time_zone("America/Rio_Branco")
        .insert(&db)
        .await;
    let user_id = build::member(station_id)
        .email("ana@example.com")
        .insert(&db)
        .await;
    let early = appointment(&db, station_id, user_id, "confirmed", local(zone, 1, 0)).await;
    let late = appointment(&db, station_id, user_id, "confirmed", local(zone, 1, 23)).await;
    let _after = appointment(&db, station_id, user_id, "confirmed", local(zone, 2, 0)).await;
    let _cancelled = appointment(&db, station_id, user_id, "cancelled", local(zone, 1, 10)).await;
    let _done = appointment(&db, station_id, user_id, "done", local(zone, 1, 11)).await;
    assert!(
        local(zone, 1, 0).with_timezone(&zone).day()
            != local(zone, 2, 0).with_timezone(&zone).day()
    );

    let services = crate::common::services(&db, None);
    let run = || async {
        let ctx = JobContext {
            id: "appointment-reminders".into(),
            attempt: 1,
            worker: "test".into(),
            taken_at: None,
            services: services.clone(),
        };
        AppointmentReminders::default()
            .run(ctx)
            .await
            .expect("reminders")
    };
    // Two ticks at once remind each appointment once.
    let (a, b) = tokio::join!(run(), run());
    assert_eq!(
        a["reminded"].as_i64().unwrap_or(0) + b["reminded"].as_i64().unwrap_or(0),
        2
    );
    let mut expected = vec![
        (early.to_string(), "ana@example.com".to_string()),
        (late.to_string(), "ana@example.com".to_string()),
    ];
    expected.sort();
    assert_eq!(reminders(&db).await, expected);
    let marked: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM service_appointments WHERE reminder_sent_at IS NOT NULL",
    )
    .fetch_one(&db)
    .await
    .expect("marked");
    assert_eq!(marked, 2);

    // The next tick finds nothing more.
    assert_eq!(run().await, json!({ "reminded": 0 }));
    assert_eq!(reminders(&db).await.len(), 2);
}
