//! Lucky numbers over HTTP against the real database: a participation a campaign counts
//! queues one `lucky_numbers.grant` keyed by it; its handler, run any number of times at
//! once, gives one number; concurrent members get the campaign's first numbers of its keyed
//! permutation, reproducibly; `GET /giveaway-numbers/{userId}` shows only the caller's, and
//! only where the station shows lucky numbers.

use crate::common;
use std::collections::BTreeSet;

use crate::common::{insert_member, insert_station, send_json, session_of};
use axum::Router;
use axum::http::StatusCode;
use chrono::{Duration, TimeZone, Utc};
use domain::activities::ActivityType;
use domain::activities::catalogue::{self, NewActivity};
use domain::activities::lucky_numbers::{self, NewCampaign, Permutation, Rule};
use jobs::kinds::LuckyNumbersGrant;
use jobs::{Job, JobContext};
use serde_json::{Value, json};
use sqlx::PgPool;

const SECRET: &[u8] = b"segredo-do-sorteio-de-teste";
const FORBIDDEN: &str = "Você não possui autorização para acessar esta página.";

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    member_id: i64,
    token: String,
}

async fn world(db: PgPool) -> World {
    let station_id = insert_station(&db, "sorteio").await;
    sqlx::query("UPDATE stations SET lucky_numbers_access = true WHERE id = $1")
        .bind(station_id)
        .execute(&db)
        .await
        .expect("flag");
    let member_id = insert_member(&db, station_id, "maria@example.com").await;
    let token = session_of(&db, member_id).await;
    World {
        app: common::app(db.clone()),
        db,
        station_id,
        member_id,
        token,
    }
}

fn new_campaign(station_id: i64, rule: Rule, range_size: i64) -> NewCampaign {
    NewCampaign {
        station_id,
        name: "Sorteio de fim de ano".into(),
        rule,
        range_size,
        secret: SECRET.to_vec(),
        starts_at: Utc::now() - Duration::days(1),
        ends_at: Utc::now() + Duration::days(30),
        publish_at: Utc
            .with_ymd_and_hms(2023, 2, 1, 19, 0, 0)
            .single()
            .expect("date"),
    }
}

impl World {
    async fn content(&self, station_id: i64, name: &str) -> i64 {
        catalogue::create(
            &self.db,
            &NewActivity {
                station_id,
                type_id: ActivityType::RawContent,
                name: name.into(),
                participation_start: Some(Utc::now() - Duration::days(1)),
                participation_end: Some(Utc::now() + Duration::days(1)),
                active: true,
                ..NewActivity::default()
            },
        )
        .await
        .expect("activity")
    }

    async fn campaign(&self, campaign: NewCampaign) -> i64 {
        lucky_numbers::create(&self.db, &campaign)
            .await
            .expect("campaign")
    }

    /// Takes part through the HTTP call; answers the participation.
    async fn view(&self, token: &str, action_id: i64) -> i64 {
        let answer = send_json(
            &self.app,
            "POST",
            "/api/raw-content-participation",
            Some(token),
            &[],
            &json!({ "action_id": action_id }),
        )
        .await;
        assert!(answer.status.is_success(), "{}", answer.text);
        answer.json()["participation_id"]
            .as_i64()
            .expect("participation id")
    }

    /// The `lucky_numbers.grant` jobs queued, as (idempotency key, payload).
    async fn grant_jobs(&self) -> Vec<(String, Value)> {
        sqlx::query_as(
            "SELECT idempotency_key, convert_from(job, 'UTF8')::jsonb -> 'args' FROM apalis.jobs
              WHERE job_type = 'lucky_numbers.grant' ORDER BY 1",
        )
        .fetch_all(&self.db)
        .await
        .expect("jobs")
    }

    /// Runs `job`'s handler `runs` times at once, as that many workers would.
    async fn run_at_once(&self, jobs: Vec<LuckyNumbersGrant>) {
        let services =
            jobs::Services::new(self.db.clone(), common::config_with(&[])).expect("services");
        let runs = jobs.into_iter().enumerate().map(|(index, job)| {
            let context = JobContext {
                id: format!("test-{index}"),
                attempt: 1,
                worker: "test".into(),
                taken_at: None,
                services: services.clone(),
            };
            job.run(context)
        });
        for result in futures_util::future::join_all(runs).await {
            result.expect("grant job");
        }
    }

    /// Every number given in `campaign_id`, as (participation, sequence, number).
    async fn numbers(&self, campaign_id: i64) -> Vec<(i64, i64, i64)> {
        sqlx::query_as(
            "SELECT participation_id, sequence, number FROM giveaway_numbers
              WHERE campaign_id = $1 ORDER BY sequence",
        )
        .bind(campaign_id)
        .fetch_all(&self.db)
        .await
        .expect("numbers")
    }

    async fn next_index(&self, campaign_id: i64) -> i64 {
        sqlx::query_scalar("SELECT next_index FROM giveaway_campaigns WHERE id = $1")
            .bind(campaign_id)
            .fetch_one(&self.db)
            .await
            .expect("campaign")
    }

    async fn list(&self, token: &str, user_id: i64) -> common::Answer {
        let uri = format!("/api/giveaway-numbers/{user_id}");
        common::call(&self.app, "GET", &uri, Some(token), &[]).await
    }
}

fn permuted(range: u64, indexes: std::ops::Range<u64>) -> BTreeSet<i64> {
    let permutation = Permutation::new(SECRET, range);
    indexes
        .map(|k| {
            let number = permutation.at(k).expect("inside the range");
            i64::try_from(number).expect("small")
        })
        .collect()
}

#[testkit::db_test]
async fn a_participation_gets_one_number_however_many_grants_run(db: PgPool) {
    let world = world(db).await;
    let counted = world.content(world.station_id, "Conheça o clube").await;
    let other = world.content(world.station_id, "Outro conteúdo").await;
    let campaign = world
        .campaign(new_campaign(
            world.station_id,
            Rule::Activity(counted),
            100_000,
        ))
        .await;

    let participation = world.view(&world.token, counted).await;
    // Viewed again: the same participation (no limit), no second job.
    assert_eq!(world.view(&world.token, counted).await, participation);
    // An activity the campaign does not count queues no grant.
    world.view(&world.token, other).await;
    let queued = world.grant_jobs().await;
    assert_eq!(queued.len(), 1, "{queued:?}");
    assert_eq!(
        queued[0].0,
        format!("lucky_numbers:participation:{participation}")
    );
    let job: LuckyNumbersGrant = serde_json::from_value(queued[0].1.clone()).expect("payload");
    assert_eq!(job.participation_id, Some(participation));

    world.run_at_once(vec![job; 10]).await;
    let numbers = world.numbers(campaign).await;
    let expected = *permuted(100_000, 0..1).first().expect("one");
    assert_eq!(numbers, vec![(participation, 0, expected)]);
    assert_eq!(world.next_index(campaign).await, 1, "no index burnt");

    let mut tx = world.db.begin().await.expect("tx");
    let again = lucky_numbers::grant(&mut tx, participation)
        .await
        .expect("grant");
    tx.commit().await.expect("commit");
    assert!(again.is_empty(), "granted once: {again:?}");
}

#[testkit::db_test]
async fn twenty_members_at_once_get_the_first_twenty_numbers_of_the_permutation(db: PgPool) {
    let world = world(db).await;
    let counted = world.content(world.station_id, "Conheça o clube").await;
    let campaign = world
        .campaign(new_campaign(
            world.station_id,
            Rule::Activity(counted),
            100_000,
        ))
        .await;
    let mut tokens = Vec::new();
    for index in 0..20 {
        let member = insert_member(
            &world.db,
            world.station_id,
            &format!("m{index}@example.com"),
        )
        .await;
        tokens.push(session_of(&world.db, member).await);
    }
    let views = tokens.iter().map(|token| world.view(token, counted));
    let participations: BTreeSet<i64> = futures_util::future::join_all(views)
        .await
        .into_iter()
        .collect();
    assert_eq!(participations.len(), 20);

    let jobs: Vec<LuckyNumbersGrant> = world
        .grant_jobs()
        .await
        .into_iter()
        .map(|(_, payload)| serde_json::from_value(payload).expect("payload"))
        .collect();
    assert_eq!(jobs.len(), 20);
    // Each job twice, all at once.
    world
        .run_at_once(jobs.iter().chain(jobs.iter()).cloned().collect())
        .await;

    let numbers = world.numbers(campaign).await;
    assert_eq!(numbers.len(), 20);
    let given: BTreeSet<i64> = numbers.iter().map(|(_, _, number)| *number).collect();
    assert_eq!(given, permuted(100_000, 0..20), "reproducible from the key");
    let sequences: Vec<i64> = numbers.iter().map(|(_, sequence, _)| *sequence).collect();
    assert_eq!(sequences, (0..20).collect::<Vec<i64>>());
    let holders: BTreeSet<i64> = numbers.iter().map(|(p, _, _)| *p).collect();
    assert_eq!(holders, participations);
    // Each number is the permutation of its own sequence index.
    let permutation = Permutation::new(SECRET, 100_000);
    for (_, sequence, number) in &numbers {
        let index = u64::try_from(*sequence).expect("index");
        assert_eq!(permutation.at(index), u64::try_from(*number).ok());
    }
    assert_eq!(world.next_index(campaign).await, 20);
}

#[testkit::db_test]
async fn only_matching_earning_participations_of_the_station_inside_the_dates_get_numbers(
    db: PgPool,
) {
    let world = world(db).await;
    let [a, b, c] = [
        world.content(world.station_id, "Conteúdo A").await,
        world.content(world.station_id, "Conteúdo B").await,
        world.content(world.station_id, "Conteúdo C").await,
    ];
    let category: i64 = sqlx::query_scalar(
        "INSERT INTO participant_categories (station_id, name) VALUES ($1, 'Participe') RETURNING id",
    )
    .bind(world.station_id)
    .fetch_one(&world.db)
    .await
    .expect("category");
    for action in [a, b] {
        sqlx::query("INSERT INTO category_actions (category_id, action_id) VALUES ($1, $2)")
            .bind(category)
            .bind(action)
            .execute(&world.db)
            .await
            .expect("category action");
    }
    let by_category = world
        .campaign(new_campaign(
            world.station_id,
            Rule::Category(category),
            1000,
        ))
        .await;
    // Another station's campaign, even pointing at this station's activity, never grants.
    let elsewhere = insert_station(&world.db, "longe").await;
    let foreign = world
        .campaign(new_campaign(elsewhere, Rule::Activity(c), 1000))
        .await;
    // Ended, and switched off.
    let ended = world
        .campaign(NewCampaign {
            starts_at: Utc::now() - Duration::days(10),
            ends_at: Utc::now() - Duration::days(2),
            ..new_campaign(world.station_id, Rule::Activity(c), 1000)
        })
        .await;
    let off = world
        .campaign(new_campaign(world.station_id, Rule::Activity(c), 1000))
        .await;
    sqlx::query("UPDATE giveaway_campaigns SET active = false WHERE id = $1")
        .bind(off)
        .execute(&world.db)
        .await
        .expect("off");

    for action in [a, b, c] {
        world.view(&world.token, action).await;
    }
    let keys: Vec<String> = world
        .grant_jobs()
        .await
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        keys.len(),
        2,
        "only the category's two activities: {keys:?}"
    );
    let jobs = world
        .grant_jobs()
        .await
        .into_iter()
        .map(|(_, payload)| serde_json::from_value(payload).expect("payload"))
        .collect();
    world.run_at_once(jobs).await;
    assert_eq!(world.numbers(by_category).await.len(), 2);
    for campaign in [foreign, ended, off] {
        assert!(world.numbers(campaign).await.is_empty(), "{campaign}");
    }

    // A participation that earns nothing (a lost quiz, a replay of a once-paying activity)
    // gets no number.
    let unpaid: i64 = sqlx::query_scalar(
        "INSERT INTO participations (station_id, user_id, action_id, attempt, earns)
         VALUES ($1, $2, $3, 2, false) RETURNING id",
    )
    .bind(world.station_id)
    .bind(world.member_id)
    .bind(a)
    .fetch_one(&world.db)
    .await
    .expect("participation");
    let mut tx = world.db.begin().await.expect("tx");
    assert!(!lucky_numbers::owed(&mut tx, unpaid).await.expect("owed"));
    assert!(
        lucky_numbers::grant(&mut tx, unpaid)
            .await
            .expect("grant")
            .is_empty()
    );
    tx.commit().await.expect("commit");
}

#[testkit::db_test]
async fn a_full_campaign_gives_no_more_numbers_and_takes_no_index(db: PgPool) {
    let world = world(db).await;
    let counted = world.content(world.station_id, "Conheça o clube").await;
    let campaign = world
        .campaign(new_campaign(world.station_id, Rule::Activity(counted), 2))
        .await;
    let mut participations = Vec::new();
    for index in 0..3 {
        let member = insert_member(
            &world.db,
            world.station_id,
            &format!("m{index}@example.com"),
        )
        .await;
        let token = session_of(&world.db, member).await;
        participations.push(world.view(&token, counted).await);
    }
    for participation in participations {
        world
            .run_at_once(vec![LuckyNumbersGrant {
                participation_id: Some(participation),
            }])
            .await;
    }
    let given: BTreeSet<i64> = world
        .numbers(campaign)
        .await
        .into_iter()
        .map(|(_, _, number)| number)
        .collect();
    assert_eq!(given, BTreeSet::from([0, 1]));
    assert_eq!(world.next_index(campaign).await, 2);
}

#[testkit::db_test]
async fn a_member_sees_only_their_own_numbers_with_the_publication_text(db: PgPool) {
    let world = world(db).await;
    let counted = world.content(world.station_id, "Conheça o clube").await;
    let campaign = world
        .campaign(new_campaign(
            world.station_id,
            Rule::Activity(counted),
            100_000,
        ))
        .await;
    let participation = world.view(&world.token, counted).await;
    world
        .run_at_once(vec![LuckyNumbersGrant {
            participation_id: Some(participation),
        }])
        .await;
    let joao = insert_member(&world.db, world.station_id, "joao@example.com").await;
    let joao_token = session_of(&world.db, joao).await;

    let mine = world.list(&world.token, world.member_id).await;
    assert_eq!(mine.status, StatusCode::OK, "{}", mine.text);
    let body = mine.json();
    assert_eq!(body.as_array().expect("campaigns").len(), 1);
    assert_eq!(body[0]["id"], campaign);
    assert_eq!(body[0]["name"], "Sorteio de fim de ano");
    assert_eq!(
        body[0]["publication_text"],
        "Os números da sorte serão publicados até 01/02/2023 às 16h."
    );
    assert_eq!(body[0]["publish_at"], "2023-02-01T19:00:00Z");
    let numbers = body[0]["numbers"].as_array().expect("numbers");
    assert_eq!(numbers.len(), 1);
    let expected = *permuted(100_000, 0..1).first().expect("one");
    assert_eq!(numbers[0]["number"], format!("{expected:05}"));
    assert_eq!(numbers[0]["participation_id"], participation);
    assert_eq!(numbers[0]["action_id"], counted);
    assert_eq!(numbers[0]["action_name"], "Conheça o clube");
    assert!(numbers[0]["participated_at"].is_string());
    assert!(numbers[0]["createdAt"].is_string());

    // João sees the campaign, without Maria's number.
    let his = world.list(&joao_token, joao).await;
    assert_eq!(his.status, StatusCode::OK);
    assert_eq!(his.json()[0]["numbers"], json!([]));
    let peek = world.list(&joao_token, world.member_id).await;
    assert_eq!(peek.status, StatusCode::FORBIDDEN);
    assert_eq!(peek.json(), json!({ "messages": [FORBIDDEN] }));
    let anonymous = common::call(
        &world.app,
        "GET",
        &format!("/api/giveaway-numbers/{}", world.member_id),
        None,
        &[],
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let garbled = common::call(
        &world.app,
        "GET",
        "/api/giveaway-numbers/abc",
        Some(&world.token),
        &[],
    )
    .await;
    assert_eq!(garbled.status, StatusCode::BAD_REQUEST);

    // A member of another station whose flag is off: 404, whatever campaigns exist there.
    let elsewhere = insert_station(&world.db, "longe").await;
    world
        .campaign(new_campaign(elsewhere, Rule::Activity(counted), 1000))
        .await;
    let outsider = insert_member(&world.db, elsewhere, "fora@example.com").await;
    let outsider_token = session_of(&world.db, outsider).await;
    let off = world.list(&outsider_token, outsider).await;
    assert_eq!(off.status, StatusCode::NOT_FOUND);
    assert_eq!(
        off.json(),
        json!({ "error": "Números da sorte não disponíveis." })
    );
}

/// The publication is said on the station's clock: 19:00 UTC is 16h in Brasília, 15h in
/// Manaus, and the station says which zone it is in.
#[testkit::db_test]
async fn a_station_in_manaus_says_the_publication_on_its_own_clock(db: PgPool) {
    let world = world(db).await;
    sqlx::query("UPDATE stations SET time_zone = 'America/Manaus' WHERE id = $1")
        .bind(world.station_id)
        .execute(&world.db)
        .await
        .expect("Manaus");
    let counted = world.content(world.station_id, "Conheça o clube").await;
    world
        .campaign(new_campaign(
            world.station_id,
            Rule::Activity(counted),
            1_000,
        ))
        .await;

    let mine = world.list(&world.token, world.member_id).await;
    assert_eq!(mine.status, StatusCode::OK, "{}", mine.text);
    assert_eq!(
        mine.json()[0]["publication_text"],
        "Os números da sorte serão publicados até 01/02/2023 às 15h."
    );
    let station = common::get(&world.app, &format!("/api/stations/{}", world.station_id)).await;
    assert_eq!(
        station.json()["time_zone"],
        "America/Manaus",
        "{}",
        station.text
    );
}

#[testkit::db_test]
async fn turning_the_flag_off_hides_the_numbers(db: PgPool) {
    let world = world(db).await;
    let station = common::get(&world.app, &format!("/api/stations/{}", world.station_id)).await;
    assert_eq!(
        station.json()["lucky_numbers_access"],
        true,
        "{}",
        station.text
    );
    sqlx::query("UPDATE stations SET lucky_numbers_access = false WHERE id = $1")
        .bind(world.station_id)
        .execute(&world.db)
        .await
        .expect("flag");
    let answer = world.list(&world.token, world.member_id).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
}

#[testkit::db_test]
async fn the_demo_member_holds_a_number_of_the_demo_campaign_seeded_once(db: PgPool) {
    let dir = std::env::temp_dir().join(format!("filia-lucky-{}", ulid::Ulid::generate()));
    let objects = domain::infra::objects::Objects::local(&dir).expect("objects");
    let (demo, token) = common::demo_member_session(&db).await;
    let app = common::app(db.clone());
    let listed = || async {
        let uri = format!("/api/giveaway-numbers/{}", demo.member_id);
        let answer = common::call(&app, "GET", &uri, Some(&token), &[]).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        answer.json()
    };
    seed::demo::activities::seed(&db, &objects, &demo)
        .await
        .expect("catalogue");
    let first = listed().await;
    assert_eq!(first[0]["name"], seed::demo::lucky_numbers::CAMPAIGN);
    let numbers = first[0]["numbers"].as_array().expect("numbers");
    assert!(!numbers.is_empty(), "{first}");
    assert_eq!(
        numbers[0]["number"].as_str().map(str::len),
        Some(5),
        "00000 to 99999"
    );
    let publication = first[0]["publication_text"].as_str().expect("text");
    assert!(
        publication.starts_with("Os números da sorte serão publicados até 01/02/")
            && publication.ends_with(" às 16h."),
        "{publication}"
    );

    seed::demo::activities::seed(&db, &objects, &demo)
        .await
        .expect("seeded again");
    assert_eq!(listed().await, first, "a second seed changes nothing");
    let _ = std::fs::remove_dir_all(dir);
}

#[testkit::db_test]
async fn the_backfill_gives_numbers_a_later_campaign_owes_once(db: PgPool) {
    let world = world(db).await;
    let counted = world.content(world.station_id, "Conheça o clube").await;
    // Participations made before the campaign exists: the hook queues no grant for them.
    let mut participations = Vec::new();
    for index in 0..3 {
        let member = insert_member(
            &world.db,
            world.station_id,
            &format!("m{index}@example.com"),
        )
        .await;
        let token = session_of(&world.db, member).await;
        participations.push(world.view(&token, counted).await);
    }
    let campaign = world
        .campaign(new_campaign(
            world.station_id,
            Rule::Activity(counted),
            1000,
        ))
        .await;
    assert!(world.numbers(campaign).await.is_empty());

    // Two backfills at once and one after: each participation once, in id order.
    world
        .run_at_once(vec![
            LuckyNumbersGrant::default(),
            LuckyNumbersGrant::default(),
        ])
        .await;
    world.run_at_once(vec![LuckyNumbersGrant::default()]).await;
    let numbers = world.numbers(campaign).await;
    assert_eq!(numbers.len(), 3, "{numbers:?}");
    let holders: BTreeSet<i64> = numbers.iter().map(|(p, _, _)| *p).collect();
    assert_eq!(holders, participations.into_iter().collect());
    assert_eq!(world.next_index(campaign).await, 3);
}
