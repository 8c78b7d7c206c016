//! The station calendar over HTTP against the real database: `GET /schedules/` answers the
//! caller's station's published schedules overlapping the window it asks for (bounded), and
//! `GET /schedules//{id}` (the contract's double slash) one of them; another station's and
//! unpublished ones are never shown.

use crate::common::{self, Answer, call, insert_member, insert_station, session_of};
use axum::Router;
use axum::http::StatusCode;
use chrono::{DateTime, Duration, TimeZone, Utc};
use domain::calendar::schedules::{self, NewSchedule};
use serde_json::Value;
use sqlx::PgPool;

const FORBIDDEN: &str = "Você não possui autorização para acessar esta página.";
const LIST: &str = "/api/schedules/";
const ONE: &str = "/api/schedules//{id}";

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    token: String,
}

async fn world(db: PgPool) -> World {
    let station_id = insert_station(&db, "agenda").await;
    let member_id = insert_member(&db, station_id, "maria@example.com").await;
    let token = session_of(&db, member_id).await;
    World {
        app: common::app(db.clone()),
        db,
        station_id,
        token,
    }
}

fn day(day: u32, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, day, hour, 0, 0)
        .single()
        .expect("a date")
}

impl World {
    async fn schedule(
        &self,
        station_id: i64,
        name: &str,
        (starts_at, ends_at): (DateTime<Utc>, DateTime<Utc>),
        published: bool,
    ) -> i64 {
        schedules::create(
            &self.db,
            &NewSchedule {
                station_id,
                name: name.into(),
                description: format!("Sobre {name}"),
                image_key: Some(format!("demo/calendar/{name}.png")),
                starts_at,
                ends_at,
                day_description: (name == "Feriado").then(|| "Feriado".into()),
                published,
            },
        )
        .await
        .expect("schedule")
    }

    async fn get(&self, uri: &str) -> Answer {
        call(&self.app, "GET", uri, Some(&self.token), &[]).await
    }

    async fn window(&self, from: &str, to: &str) -> Answer {
        let uri = format!(
            "{LIST}?where[station_id]={}&where[end][gte]={from}&where[start][lte]={to}",
            self.station_id
        );
        self.get(&uri).await
    }
}

fn names(answer: &Answer) -> Vec<String> {
    answer
        .json()
        .as_array()
        .expect("a list")
        .iter()
        .map(|schedule| schedule["name"].as_str().expect("name").to_string())
        .collect()
}

#[testkit::db_test]
async fn a_window_answers_the_published_schedules_it_overlaps_earliest_first(db: PgPool) {
    let world = world(db).await;
    let other_station = insert_station(&world.db, "vizinho").await;
    let station = world.station_id;
    world
        .schedule(
            station,
            "Novembro",
            (
                day(1, 0) - Duration::days(20),
                day(1, 0) - Duration::days(19),
            ),
            true,
        )
        .await;
    world
        .schedule(
            station,
            "Virada do mês",
            (day(1, 0) - Duration::hours(2), day(1, 2)),
            true,
        )
        .await;
    world
        .schedule(station, "Assembleia", (day(10, 22), day(11, 0)), true)
        .await;
    world
        .schedule(station, "Feriado", (day(8, 3), day(9, 2)), true)
        .await;
    world
        .schedule(station, "Rascunho", (day(12, 19), day(12, 21)), false)
        .await;
    world
        .schedule(
            other_station,
            "Do vizinho",
            (day(12, 19), day(12, 21)),
            true,
        )
        .await;
    world
        .schedule(
            station,
            "Janeiro",
            (
                day(31, 23) + Duration::days(2),
                day(31, 23) + Duration::days(3),
            ),
            true,
        )
        .await;

    let answer = world
        .window("2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z")
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(names(&answer), ["Virada do mês", "Feriado", "Assembleia"]);
    let holiday = &answer.json()[1];
    assert_eq!(holiday["start"], "2026-12-08T03:00:00Z");
    assert_eq!(holiday["end"], "2026-12-09T02:00:00Z");
    assert_eq!(holiday["description"], "Sobre Feriado");
    assert_eq!(holiday["day"]["description"], "Feriado");
    assert_eq!(holiday["image"], "/api/media/demo/calendar/Feriado.png");
    assert_eq!(answer.json()[2]["day"], Value::Null);

    // A window with offsets reads as the instants they name.
    let brasilia = world
        .window("2026-12-10T19:30:00-03:00", "2026-12-10T20:00:00-03:00")
        .await;
    assert_eq!(names(&brasilia), ["Assembleia"]);
}

#[testkit::db_test]
async fn without_a_window_the_next_62_days_are_answered(db: PgPool) {
    let world = world(db).await;
    let now = Utc::now();
    let station = world.station_id;
    world
        .schedule(
            station,
            "Passado",
            (now - Duration::days(3), now - Duration::days(2)),
            true,
        )
        .await;
    world
        .schedule(
            station,
            "Agora",
            (now - Duration::hours(1), now + Duration::hours(1)),
            true,
        )
        .await;
    world
        .schedule(
            station,
            "Em breve",
            (now + Duration::days(60), now + Duration::days(61)),
            true,
        )
        .await;
    world
        .schedule(
            station,
            "Longe",
            (now + Duration::days(63), now + Duration::days(64)),
            true,
        )
        .await;

    let answer = world
        .get(&format!("{LIST}?where[station_id]={station}"))
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(names(&answer), ["Agora", "Em breve"]);
}

#[testkit::db_test]
async fn a_bad_window_is_refused_with_its_text(db: PgPool) {
    let world = world(db).await;
    let cases = [
        (
            "01/12/2026",
            "2026-12-31T00:00:00Z",
            schedules::WINDOW_DATE_INVALID,
        ),
        (
            "2026-12-10T00:00:00Z",
            "2026-12-01T00:00:00Z",
            schedules::WINDOW_INVERTED,
        ),
        (
            "2026-12-01T00:00:00Z",
            "2027-02-01T00:00:01Z",
            schedules::WINDOW_TOO_LONG,
        ),
    ];
    for (from, to, text) in cases {
        let answer = world.window(from, to).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{from} {to}"
        );
        assert_eq!(answer.json()["messages"][0], text);
        assert_eq!(common::off_contract("get", LIST, &answer), None);
    }
    let alone = world
        .get(&format!("{LIST}?where[end][gte]=2026-12-01T00:00:00Z"))
        .await;
    assert_eq!(alone.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(alone.json()["messages"][0], schedules::WINDOW_BOUND_MISSING);
    // 62 days exactly is a window.
    let longest = world
        .window("2026-12-01T00:00:00Z", "2027-02-01T00:00:00Z")
        .await;
    assert_eq!(longest.status, StatusCode::OK, "{}", longest.text);
}

#[testkit::db_test]
async fn another_station_is_refused_and_its_schedules_are_absent(db: PgPool) {
    let world = world(db).await;
    let other_station = insert_station(&world.db, "vizinho").await;
    let theirs = world
        .schedule(
            other_station,
            "Do vizinho",
            (day(12, 19), day(12, 21)),
            true,
        )
        .await;

    let listed = world
        .get(&format!("{LIST}?where[station_id]={other_station}"))
        .await;
    assert_eq!(listed.status, StatusCode::FORBIDDEN);
    assert_eq!(listed.json()["messages"][0], FORBIDDEN);
    assert_eq!(common::off_contract("get", LIST, &listed), None);

    let one = world.get(&format!("/api/schedules//{theirs}")).await;
    assert_eq!(one.status, StatusCode::NOT_FOUND);
    assert_eq!(one.json()["error"], schedules::SCHEDULE_NOT_FOUND);
    assert_eq!(common::off_contract("get", ONE, &one), None);

    let anonymous = call(
        &world.app,
        "GET",
        &format!("/api/schedules//{theirs}"),
        None,
        &[],
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn one_schedule_is_served_at_the_contracts_double_slash(db: PgPool) {
    let world = world(db).await;
    let station = world.station_id;
    let shown = world
        .schedule(station, "Assembleia", (day(10, 22), day(11, 0)), true)
        .await;
    let hidden = world
        .schedule(station, "Rascunho", (day(12, 19), day(12, 21)), false)
        .await;

    let answer = world.get(&format!("/api/schedules//{shown}")).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let schedule = answer.json();
    assert_eq!(schedule["id"], shown);
    assert_eq!(schedule["name"], "Assembleia");
    assert_eq!(schedule["start"], "2026-12-10T22:00:00Z");
    assert_eq!(schedule["end"], "2026-12-11T00:00:00Z");

    let unpublished = world.get(&format!("/api/schedules//{hidden}")).await;
    assert_eq!(unpublished.status, StatusCode::NOT_FOUND);
    assert_eq!(unpublished.json()["error"], schedules::SCHEDULE_NOT_FOUND);

    let not_a_number = world.get("/api/schedules//abc").await;
    assert_eq!(not_a_number.status, StatusCode::BAD_REQUEST);
    // The contract lists the path with its double slash.
    assert!(common::contract()["paths"][ONE]["get"].is_object());
}

#[testkit::db_test]
async fn a_station_without_a_calendar_answers_neither_call(db: PgPool) {
    let world = world(db).await;
    let station = world.station_id;
    let id = world
        .schedule(station, "Assembleia", (day(10, 22), day(11, 0)), true)
        .await;
    sqlx::query("UPDATE stations SET events_access = false WHERE id = $1")
        .bind(station)
        .execute(&world.db)
        .await
        .expect("flag");

    for uri in [
        format!("{LIST}?where[station_id]={station}"),
        format!("/api/schedules//{id}"),
    ] {
        let answer = world.get(&uri).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{uri}");
        assert_eq!(answer.json()["error"], schedules::CALENDAR_UNAVAILABLE);
    }
}
