//! The demo calendar: a month of events around the seed's day, some with a stored picture,
//! today's tournament at 14:00 on the station's clock, one hidden; a second seed changes
//! nothing.

use chrono::{Duration, Timelike};
use domain::calendar::schedules::{self, Window};
use domain::infra::objects::Objects;
use domain::shared::ids::StationId;
use domain::shared::time::{DEFAULT_ZONE, today_in};
use seed::demo::{self, calendar};
use sqlx::PgPool;

#[testkit::db_test]
async fn the_demo_calendar_holds_a_month_of_events_around_today_seeded_once(db: PgPool) {
    let dir = std::env::temp_dir().join(format!("filia-demo-calendar-{}", ulid::Ulid::generate()));
    let objects = Objects::local(&dir).expect("objects");
    let station = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    calendar::seed(&db, &objects, &station)
        .await
        .expect("first");
    calendar::seed(&db, &objects, &station)
        .await
        .expect("second");

    let rows: Vec<(String, bool, Option<String>)> = sqlx::query_as(
        "SELECT name, published, image_key FROM schedules WHERE station_id = $1 ORDER BY id",
    )
    .bind(station.station_id)
    .fetch_all(&db)
    .await
    .expect("schedules");
    assert_eq!(rows.len(), 12, "seeded once");
    let hidden: Vec<&str> = rows
        .iter()
        .filter(|(_, published, _)| !published)
        .map(|(name, _, _)| name.as_str())
        .collect();
    assert_eq!(hidden, [calendar::HIDDEN_EVENT]);
    let pictures: Vec<&String> = rows.iter().filter_map(|(_, _, key)| key.as_ref()).collect();
    assert_eq!(pictures.len(), 5);
    for key in pictures {
        assert!(
            objects.head(key).await.expect("head").is_some(),
            "{key} stored"
        );
    }

    // What a member reads around today: the month's published events, today's at 14:00.
    let today = today_in(DEFAULT_ZONE);
    let start = today.and_hms_opt(0, 0, 0).expect("midnight").and_utc();
    let window =
        Window::new(start - Duration::days(31), start + Duration::days(31)).expect("window");
    let shown = schedules::in_window(&db, StationId(station.station_id), window)
        .await
        .expect("shown");
    assert_eq!(shown.len(), 11);
    let tournament = shown
        .iter()
        .find(|schedule| schedule.name == calendar::TODAY_EVENT)
        .expect("today's event");
    let local = tournament.starts_at.with_timezone(&DEFAULT_ZONE);
    assert_eq!(
        (local.date_naive(), local.hour(), local.minute()),
        (today, 14, 0)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
