//! The demo catalogue: what a member and a visitor of the demo station find, and a second
//! seed that changes nothing.

use domain::activities::catalogue::{self, Availability, Filter};
use domain::activities::rows;
use domain::infra::objects::Objects;
use domain::shared::ids::{ActivityId, StationId, UserId};
use domain::shared::paging::Page;
use seed::demo::{self, activities as demo_activities};
use sqlx::PgPool;

async fn snapshot(db: &PgPool) -> serde_json::Value {
    sqlx::query_scalar(
        "SELECT jsonb_build_object(
             'actions', (SELECT jsonb_agg(a ORDER BY id) FROM actions a),
             'links', (SELECT jsonb_agg(l ORDER BY id) FROM action_redirect_links l),
             'prerequisites', (SELECT jsonb_agg(p ORDER BY action_id, required_action_id)
                                 FROM action_prerequisites p),
             'partners', (SELECT jsonb_agg(p ORDER BY id) FROM partners p),
             'lotties', (SELECT jsonb_agg(l ORDER BY id) FROM lottie_files l),
             'categories', (SELECT jsonb_agg(c ORDER BY id) FROM participant_categories c),
             'category_actions', (SELECT jsonb_agg(c ORDER BY category_id, action_id)
                                    FROM category_actions c),
             'journeys', (SELECT jsonb_agg(j ORDER BY id) FROM journeys j),
             'journey_actions', (SELECT jsonb_agg(j ORDER BY journey_id, action_id)
                                   FROM journey_actions j),
             'now_playing', (SELECT jsonb_agg(n ORDER BY id) FROM now_playing n),
             'now_playing_actions', (SELECT jsonb_agg(n ORDER BY now_playing_id, action_id)
                                       FROM now_playing_actions n),
             'videos', (SELECT jsonb_agg(v ORDER BY id) FROM action_videos v),
             'researches', (SELECT jsonb_agg(r ORDER BY id) FROM researches r),
             'questions', (SELECT jsonb_agg(q ORDER BY id) FROM research_questions q),
             'options', (SELECT jsonb_agg(o ORDER BY id) FROM research_options o),
             'participations', (SELECT jsonb_agg(p ORDER BY id) FROM participations p))",
    )
    .fetch_one(db)
    .await
    .expect("snapshot")
}

fn objects_dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("filia-demo-catalogue-{}", ulid::Ulid::generate()))
}

#[testkit::db_test]
async fn the_demo_catalogue_holds_every_case_and_seeds_once(db: PgPool) {
    let dir = objects_dir();
    let objects = Objects::local(&dir).expect("objects");
    let station = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let first = demo_activities::seed(&db, &objects, &station)
        .await
        .expect("catalogue");
    let before = snapshot(&db).await;

    let station_id = StationId(station.station_id);
    let member_id = UserId(station.member_id);
    let member = Some(member_id);
    let cards = catalogue::cards(&db, station_id, member, Filter::default())
        .await
        .expect("cards");
    for type_id in 1..=21 {
        assert!(
            cards.iter().any(|c| c.type_id.id() == type_id),
            "type {type_id}"
        );
    }
    let card = |name: &str| {
        cards
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("{name}"))
    };
    // Every quiz and survey can be answered: each has a research with questions.
    let unanswerable: Vec<String> = sqlx::query_scalar(
        "SELECT a.name FROM actions a
          WHERE a.station_id = $1 AND a.active AND a.type_id BETWEEN 6 AND 12
            AND NOT EXISTS (SELECT 1 FROM researches r
                              JOIN research_questions q ON q.research_id = r.id
                             WHERE r.action_id = a.id)",
    )
    .bind(station.station_id)
    .fetch_all(&db)
    .await
    .expect("researches");
    assert!(unanswerable.is_empty(), "{unanswerable:?}");
    for c in &cards {
        assert!(c.image.is_some(), "{} has a picture", c.name);
        let key = Objects::key_of_url(c.image.as_deref().unwrap_or_default()).expect("key");
        assert!(objects.get(key).await.expect("get").is_some(), "{key}");
    }

    let gated = card(demo_activities::GATED_ACTIVITY);
    assert!(gated.prerequisites.any);
    assert!(!gated.prerequisites.all_done);
    let required: Vec<&str> = gated
        .prerequisites
        .activities
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(required, demo_activities::PREREQUISITES);

    assert_eq!(
        card(demo_activities::ENDED_ACTIVITY).availability,
        Availability::Ended
    );
    let limited = card(demo_activities::LIMITED_ACTIVITY);
    assert_eq!(
        (limited.limit_per_user, limited.participations),
        (Some(1), 1)
    );
    assert_eq!(limited.availability, Availability::LimitReached);
    assert_eq!(
        card(demo_activities::EXTERNAL_ACTIVITY).redirect_links[0].url,
        demo_activities::EXTERNAL_URL
    );
    let open = cards
        .iter()
        .filter(|c| c.availability == Availability::Open)
        .count();
    assert!(open >= 18, "most activities are open: {open}");

    let carousel = async |viewer| {
        let filter = Filter {
            featured: true,
            ..Filter::default()
        };
        let cards = catalogue::cards(&db, station_id, viewer, filter)
            .await
            .expect("featured");
        assert!(cards.iter().all(|c| c.featured_image.is_some()));
        cards
    };
    assert!((3..=4).contains(&carousel(member).await.len()));
    // The landing's carousel for visitors has two slides.
    let names: Vec<String> = carousel(None).await.into_iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        [
            demo_activities::PUBLIC_ACTIVITY,
            demo_activities::PUBLIC_DONATION
        ]
    );

    // The playlist and the agreement have clips drawn by ffmpeg, which the tests require
    // (ops/ installs it): without it the seed would leave them out and this would pass.
    let ffmpeg = std::process::Command::new("ffmpeg")
        .arg("-version")
        .output()
        .expect("ffmpeg is installed");
    assert!(ffmpeg.status.success(), "ffmpeg -version failed");
    for (name, titles) in demo_activities::VIDEOS {
        let id = first.id(name).expect(name);
        let detail = catalogue::detail(&db, station_id, member, ActivityId(id))
            .await
            .expect("detail")
            .expect("found");
        let names: Vec<&str> = detail.videos.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, titles, "{name}");
        let required: Vec<bool> = detail.videos.iter().map(|v| v.required).collect();
        assert!(required[0] && required[1..].iter().all(|r| !r), "{name}");
        for video in &detail.videos {
            assert!(video.video.custom && video.video.embed_url.is_none());
            let key = Objects::key_of_url(&video.video.url).expect("a media url");
            assert!(key.starts_with("demo/videos/"), "{key}");
            let clip = objects.get(key).await.expect("get").expect("stored");
            assert_eq!(clip.content_type, "video/mp4");
            assert_eq!(&clip.bytes[4..8], b"ftyp");
        }
    }

    let raw = catalogue::detail(
        &db,
        station_id,
        member,
        ActivityId(
            first
                .id(demo_activities::RAW_CONTENT_ACTIVITY)
                .expect("raw content"),
        ),
    )
    .await
    .expect("detail")
    .expect("found");
    assert!(raw.feedback_message.is_some());
    let lottie_key = catalogue::lottie_key(&db, raw.feedback_lottie_id.expect("lottie"))
        .await
        .expect("lottie key")
        .expect("lottie row");
    let lottie = objects
        .get(&lottie_key)
        .await
        .expect("get")
        .expect("stored");
    assert_eq!(
        lottie.bytes.as_ref(),
        demo_activities::FEEDBACK_LOTTIE.as_bytes()
    );
    let (with_html, with_lists, with_rules, with_labels): (i64, i64, i64, i64) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE description LIKE '%<strong>%'),
                count(*) FILTER (WHERE description LIKE '%<li>%'),
                count(*) FILTER (WHERE rules <> ''),
                count(*) FILTER (WHERE click_me_label IS NOT NULL)
           FROM actions WHERE station_id = $1",
    )
    .bind(station.station_id)
    .fetch_one(&db)
    .await
    .expect("texts");
    assert!(
        with_html >= 10 && with_lists >= 5,
        "{with_html} {with_lists}"
    );
    assert!(with_rules * 2 > cards.len() as i64 && with_labels >= 5);

    // A visitor finds the public activity by a term without accents.
    let found = catalogue::cards(
        &db,
        station_id,
        None,
        Filter {
            name: Some("cafe"),
            ..Filter::default()
        },
    )
    .await
    .expect("search");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].name, demo_activities::PUBLIC_ACTIVITY);

    let categories = rows::categories(&db, station_id, member_id, None, Page::UNPAGED)
        .await
        .expect("categories");
    let names: Vec<&str> = categories.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, demo_activities::CATEGORIES);
    assert!(categories.iter().all(|c| c.icon.is_some()));
    assert!(categories.iter().all(|c| c.activities.len() > 4));
    let journeys = rows::journeys(&db, station_id, member_id)
        .await
        .expect("journeys");
    let names: Vec<&str> = journeys.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, demo_activities::JOURNEYS);
    assert!(journeys.iter().all(|j| j.activities.len() == 4));
    let now_playing = rows::now_playing(&db, station_id, member_id)
        .await
        .expect("now playing");
    assert_eq!(now_playing.len(), 1);
    assert_eq!(now_playing[0].title, demo_activities::NOW_PLAYING);

    let second_station = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let second = demo_activities::seed(&db, &objects, &second_station)
        .await
        .expect("catalogue again");
    assert_eq!(snapshot(&db).await, before);
    assert_eq!(first.activities, second.activities);
    std::fs::remove_dir_all(dir).ok();
}
