//! The demo member services: the four settings on, each desk with its address and contacts,
//! an office per desk, the demo member's cases and legal appointments under their CPF (the
//! confirmed one 5 or more days ahead at 10:00 station time), three political themes and six
//! news items per desk's tag that the member's lists show, the legal landing's carousel
//! category; a second seed changes nothing.

use domain::content::news::{self, Tagged};
use domain::infra::objects::Objects;
use domain::political;
use domain::shared::cpf::Cpf;
use domain::shared::ids::StationId;
use seed::demo::{self, services};
use serde_json::Value;
use sqlx::PgPool;

async fn snapshot(db: &PgPool) -> Value {
    sqlx::query_scalar(
        "SELECT jsonb_build_object(
             'desks', (SELECT jsonb_agg(d ORDER BY service) FROM service_desks d),
             'categories', (SELECT jsonb_agg(c ORDER BY id) FROM participant_categories c),
             'offices', (SELECT jsonb_agg(o ORDER BY id) FROM service_offices o),
             'cases', (SELECT jsonb_agg(c ORDER BY id) FROM service_cases c),
             'appointments', (SELECT jsonb_agg(a ORDER BY id) FROM service_appointments a),
             'themes', (SELECT jsonb_agg(t ORDER BY id) FROM political_themes t),
             'news', (SELECT jsonb_agg(n ORDER BY id) FROM station_news n),
             'tags', (SELECT jsonb_agg(t ORDER BY news_id, tag_id) FROM station_news_tags t),
             'users', (SELECT jsonb_agg(u ORDER BY id) FROM users u))",
    )
    .fetch_one(db)
    .await
    .expect("snapshot")
}

#[testkit::db_test]
async fn the_demo_station_offers_its_member_services_seeded_once(db: PgPool) {
    let dir = std::env::temp_dir().join(format!("filia-demo-services-{}", ulid::Ulid::generate()));
    let objects = Objects::local(&dir).expect("objects");
    let station = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    services::seed(&db, &objects, &station)
        .await
        .expect("first");
    let before = snapshot(&db).await;
    services::seed(&db, &objects, &station)
        .await
        .expect("second");
    assert_eq!(snapshot(&db).await, before, "seeded once");

    let flags: (bool, bool, bool, bool) = sqlx::query_as(
        "SELECT legal_access, accounting_access, health_access, political_access
           FROM stations WHERE id = $1",
    )
    .bind(station.station_id)
    .fetch_one(&db)
    .await
    .expect("flags");
    assert_eq!(flags, (true, true, true, true));

    // Each desk: an address, its contacts, its texts, no playlists.
    let desks: Vec<(String, Option<String>, i32, String, String, Value)> = sqlx::query_as(
        "SELECT service, email, jsonb_array_length(contacts), guidance, information, playlists
           FROM service_desks WHERE station_id = $1 ORDER BY service",
    )
    .bind(station.station_id)
    .fetch_all(&db)
    .await
    .expect("desks");
    let counts: Vec<(&str, i32)> = desks.iter().map(|desk| (desk.0.as_str(), desk.2)).collect();
    assert_eq!(
        counts,
        [
            ("accounting", 4),
            ("health", 3),
            ("legal", 4),
            ("political", 5)
        ]
    );
    for (_, email, _, guidance, information, playlists) in &desks {
        assert!(email.as_deref().is_some_and(|e| e.contains('@')));
        assert!(!guidance.is_empty() && !information.is_empty());
        assert_eq!(*playlists, serde_json::json!([]));
    }
    // The legal landing's carousel is a category of the station's, the other desks show none.
    let carousels: Vec<(String, Option<String>)> = sqlx::query_as(
        "SELECT d.service, c.name FROM service_desks d
           LEFT JOIN participant_categories c ON c.id = d.category_id AND c.station_id = d.station_id
          WHERE d.station_id = $1 ORDER BY d.service",
    )
    .bind(station.station_id)
    .fetch_all(&db)
    .await
    .expect("carousels");
    let legal = Some(services::LEGAL_CATEGORY.to_string());
    assert_eq!(
        carousels,
        [
            ("accounting".to_string(), None),
            ("health".to_string(), None),
            ("legal".to_string(), legal),
            ("political".to_string(), None)
        ]
    );

    let offices: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM service_offices WHERE station_id = $1 ORDER BY service",
    )
    .bind(station.station_id)
    .fetch_all(&db)
    .await
    .expect("offices");
    assert_eq!(
        offices,
        [
            services::ACCOUNTING_OFFICE,
            services::HEALTH_OFFICE,
            services::LEGAL_OFFICE
        ]
    );

    // The member's CPF, valid, and what is kept under it.
    let cpf: String = sqlx::query_scalar("SELECT cpf FROM users WHERE id = $1")
        .bind(station.member_id)
        .fetch_one(&db)
        .await
        .expect("cpf");
    assert!(cpf.parse::<Cpf>().is_ok(), "{cpf}");
    let cases: Vec<(String, bool, i64)> = sqlx::query_as(
        "SELECT service, collective, count(*) FROM service_cases
          WHERE station_id = $1 AND cpf = $2 GROUP BY 1, 2 ORDER BY 1, 2",
    )
    .bind(station.station_id)
    .bind(&cpf)
    .fetch_all(&db)
    .await
    .expect("cases");
    assert_eq!(
        cases,
        [
            ("accounting".to_string(), false, 2),
            ("legal".to_string(), false, 2),
            ("legal".to_string(), true, 2),
        ]
    );
    let appointments: Vec<(String, bool, bool, String, f64)> = sqlx::query_as(
        "SELECT a.status, a.scheduled_at > now(), a.office_id IS NOT NULL,
                to_char(a.scheduled_at AT TIME ZONE s.time_zone, 'HH24:MI'),
                extract(epoch FROM a.scheduled_at - now())::float8 / 86400
           FROM service_appointments a JOIN stations s ON s.id = a.station_id
          WHERE a.station_id = $1 AND a.cpf = $2 AND a.service = 'legal'
          ORDER BY a.scheduled_at DESC",
    )
    .bind(station.station_id)
    .bind(&cpf)
    .fetch_all(&db)
    .await
    .expect("appointments");
    let states: Vec<(&str, bool, bool, &str)> = appointments
        .iter()
        .map(|a| (a.0.as_str(), a.1, a.2, a.3.as_str()))
        .collect();
    assert_eq!(
        states,
        [
            ("confirmed", true, true, "10:00"),
            ("done", false, true, "10:00"),
            ("absent", false, true, "10:00"),
        ]
    );
    // Cancellable by the member: more than 48 hours ahead.
    assert!(appointments[0].4 > 4.0, "{}", appointments[0].4);

    let themes = political::themes(&db, StationId(station.station_id))
        .await
        .expect("themes");
    assert_eq!(themes.len(), 3);
    assert!(themes.iter().all(|theme| !theme.highlights.0.is_empty()
        && !theme.actions.0.is_empty()
        && !theme.processes.0.is_empty()
        && !theme.interested.is_empty()));

    for tag in [13752, 13754, 13755] {
        let listed = news::list_tagged(
            &db,
            StationId(station.station_id),
            Tagged::parse(None, Some(&tag.to_string()), tag).expect("page"),
        )
        .await
        .expect("news");
        assert!(listed.total >= 6, "tag {tag}: {}", listed.total);
        for item in &listed.items {
            let key = item
                .card
                .image
                .as_deref()
                .and_then(Objects::key_of_url)
                .expect("a stored picture");
            assert!(dir.join(key).is_file(), "{key} is stored");
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}
