//! The activities catalogue over HTTP against the real database (docs/api-activities.md):
//! every call, its scoping (another station's or member's data is never answered),
//! visitors, sanitising, the accent-folded search, the rows, and the participation rules
//! through `POST /raw-content-participation`, concurrency included.

use crate::common;
use std::collections::BTreeSet;

use crate::common::{call, config_with, insert_member, insert_station, send_json};
use api::AppState;
use axum::Router;
use axum::http::StatusCode;
use chrono::{Duration, Utc};
use domain::activities::ActivityType;
use domain::activities::catalogue::{self, Content, NewActivity};
use domain::shared::ids::{ActivityId, StationId, UserId};
use serde_json::{Value, json};
use sqlx::PgPool;
use tokio::task::JoinSet;

const FORBIDDEN: &str = "Você não possui autorização para acessar esta página.";
const UNAVAILABLE: &str = "Erro! Esta atividade não está disponível.";

struct World {
    app: Router,
    state: AppState,
    db: PgPool,
    station_id: i64,
    member_id: i64,
    token: String,
    other_station_id: i64,
}

async fn world(db: PgPool) -> World {
    let (demo, token) = common::demo_member_session(&db).await;
    let other_station_id = insert_station(&db, "outro").await;
    let state = AppState::new(config_with(&[]), db.clone()).expect("state");
    World {
        app: api::app(state.clone()),
        state,
        db,
        station_id: demo.station_id,
        member_id: demo.member_id,
        token,
        other_station_id,
    }
}

/// A published activity of `station_id`, open now, changed by `edit`.
async fn activity(
    db: &PgPool,
    station_id: i64,
    name: &str,
    edit: impl FnOnce(&mut NewActivity),
) -> i64 {
    let mut new = NewActivity {
        station_id,
        type_id: ActivityType::RawContent,
        name: name.into(),
        points: 10,
        participation_start: Some(Utc::now() - Duration::days(1)),
        participation_end: Some(Utc::now() + Duration::days(1)),
        active: true,
        ..NewActivity::default()
    };
    edit(&mut new);
    catalogue::create(db, &new).await.expect("activity")
}

async fn participate(db: &PgPool, station_id: i64, user_id: i64, action_id: i64) {
    sqlx::query(
        "INSERT INTO participations (station_id, user_id, action_id, attempt)
         SELECT $1, $2, $3, count(*) + 1 FROM participations WHERE action_id = $3 AND user_id = $2",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(action_id)
    .execute(db)
    .await
    .expect("participation");
}

impl World {
    async fn get(&self, uri: &str) -> common::Answer {
        call(&self.app, "GET", uri, Some(&self.token), &[]).await
    }

    /// A visitor's GET, without a token.
    async fn visit(&self, uri: &str) -> common::Answer {
        call(&self.app, "GET", uri, None, &[]).await
    }

    async fn view(&self, action_id: i64) -> common::Answer {
        send_json(
            &self.app,
            "POST",
            "/api/raw-content-participation",
            Some(&self.token),
            &[],
            &json!({ "action_id": action_id }),
        )
        .await
    }

    async fn other_member_token(&self, station_id: i64, email: &str) -> (i64, String) {
        let id = insert_member(&self.db, station_id, email).await;
        let token = domain::accounts::session::create(&self.db, id)
            .await
            .expect("session");
        (id, token)
    }
}

fn ids(answer: &Value) -> Vec<i64> {
    answer
        .as_array()
        .expect("a list")
        .iter()
        .map(|card| card["id"].as_i64().expect("an id"))
        .collect()
}

/// `ids` of `answer` that are among `mine`, in the answer's order.
fn only(answer: &Value, mine: &[i64]) -> Vec<i64> {
    ids(answer)
        .into_iter()
        .filter(|id| mine.contains(id))
        .collect()
}

#[testkit::db_test]
async fn the_list_and_the_carousel_show_the_stations_published_activities_in_order(db: PgPool) {
    let w = world(db).await;
    let low = activity(&w.db, w.station_id, "Baixa", |a| a.priority = 1).await;
    let high = activity(&w.db, w.station_id, "Alta", |a| a.priority = 5).await;
    let hidden = activity(&w.db, w.station_id, "Rascunho", |a| a.active = false).await;
    let foreign = activity(&w.db, w.other_station_id, "De fora", |a| a.priority = 9).await;
    let second = activity(&w.db, w.station_id, "Destaque 2", |a| {
        a.featured = true;
        a.priority_carousel = 2;
    })
    .await;
    let first = activity(&w.db, w.station_id, "Destaque 1", |a| {
        a.featured = true;
        a.priority_carousel = 1;
    })
    .await;
    let mine = [low, high, hidden, foreign, second, first];

    let list = w.get("/api/actions/").await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    assert_eq!(only(&list.json(), &mine), [high, low, second, first]);

    let scoped = w
        .get(&format!(
            "/api/actions/?where[station_id]={}&where[user_id]={}",
            w.station_id, w.member_id
        ))
        .await;
    assert_eq!(scoped.json(), list.json());

    let carousel = w.get("/api/actions/?where[featuredPrivate]=1").await;
    assert_eq!(ids(&carousel.json()), [first, second]);

    let by_user = w
        .get(&format!("/api/actions/establishment/user/{}", w.member_id))
        .await;
    assert_eq!(by_user.status, StatusCode::OK);
    assert_eq!(only(&by_user.json(), &mine), [high, low, second, first]);
}

#[testkit::db_test]
async fn another_stations_or_members_data_is_refused(db: PgPool) {
    let w = world(db).await;
    let (other_member, _) = w
        .other_member_token(w.station_id, "outra@example.com")
        .await;
    let foreign = activity(&w.db, w.other_station_id, "De fora", |_| ()).await;
    let hidden = activity(&w.db, w.station_id, "Rascunho", |a| a.active = false).await;
    let own = activity(&w.db, w.station_id, "Minha", |_| ()).await;

    for uri in [
        format!("/api/actions/?where[station_id]={}", w.other_station_id),
        format!("/api/actions/?where[user_id]={other_member}"),
        format!("/api/actions/{own}/?where[user_id]={other_member}"),
        format!("/api/actions-by-name/?where[name]=a&where[user_id]={other_member}"),
        format!(
            "/api/actions-by-name/?where[name]=a&where[station_id]={}",
            w.other_station_id
        ),
        format!("/api/actions/establishment/user/{other_member}"),
        format!(
            "/api/participant-categories/?where[station_id]={}",
            w.other_station_id
        ),
        format!("/api/participant-categories/?where[user_id]={other_member}"),
    ] {
        let answer = w.get(&uri).await;
        assert_eq!(
            answer.status,
            StatusCode::FORBIDDEN,
            "{uri}: {}",
            answer.text
        );
        assert_eq!(answer.json()["messages"], json!([FORBIDDEN]), "{uri}");
    }
    for id in [foreign, hidden, 999_999] {
        let answer = w.get(&format!("/api/actions/{id}/")).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{id}");
        assert_eq!(answer.json(), json!({ "error": UNAVAILABLE }));
    }
    let no_token = call(&w.app, "GET", "/api/actions/", None, &[]).await;
    assert_eq!(no_token.status, StatusCode::UNAUTHORIZED);
    let flat = w.get(&format!("/api/actions/{own}/?flat=1")).await;
    assert_eq!(flat.status, StatusCode::OK);
    assert_eq!(flat.json()["id"], own);
}

#[testkit::db_test]
async fn the_detail_has_every_field_and_never_answers_scripts(db: PgPool) {
    let w = world(db).await;
    let id = activity(&w.db, w.station_id, "Conteúdo", |a| {
        a.description = "<p>Leia</p><script>alert(1)</script><img src=x onerror=alert(1)>".into();
        a.additional_cashback = 5;
        a.image_key = Some("activities/1.png".into());
        a.redirect_links = vec!["https://exemplo.com.br".into()];
        a.feedback_message = Some("Obrigado por participar!".into());
        a.limit_per_user = Some(2);
        a.contents = vec![Content {
            text: Some("Veja".into()),
            link: None,
        }];
    })
    .await;
    participate(&w.db, w.station_id, w.member_id, id).await;

    let answer = w.get(&format!("/api/actions/{id}/")).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let detail = answer.json();
    let description = detail["description"].as_str().expect("description");
    assert!(description.contains("<p>Leia</p>"), "{description}");
    for bad in ["<script", "alert", "onerror"] {
        assert!(!description.contains(bad), "{description}");
    }
    assert_eq!(detail["type_id"], 16);
    assert_eq!(detail["type"], "Conteúdo");
    assert_eq!(detail["points"], 10);
    assert_eq!(detail["cashback"], 15);
    assert_eq!(detail["image"], "/api/media/activities/1.png");
    assert_eq!(detail["featuredImage"], Value::Null);
    assert_eq!(
        detail["redirect_links"],
        json!([{ "url": "https://exemplo.com.br" }])
    );
    assert_eq!(detail["userActions"], 1);
    assert_eq!(detail["limitPerUser"], 2);
    assert_eq!(detail["availability"], "open");
    assert_eq!(detail["has_rules"], false);
    assert_eq!(detail["station_id"], w.station_id);
    assert_eq!(detail["feedback_message"], "Obrigado por participar!");
    assert_eq!(
        detail["contents"],
        json!([{ "text": "Veja", "link": null }])
    );
    assert_eq!(detail["prerequisites"]["user_done_prerequisites"], true);
}

#[testkit::db_test]
async fn availability_and_prerequisites_are_the_callers(db: PgPool) {
    let w = world(db).await;
    let first = activity(&w.db, w.station_id, "Cadastro completo", |_| ()).await;
    let second = activity(&w.db, w.station_id, "Perfil", |_| ()).await;
    let gated = activity(&w.db, w.station_id, "Depois", |a| {
        a.prerequisites = vec![ActivityId(first), ActivityId(second)];
    })
    .await;
    let undated = activity(&w.db, w.station_id, "Sem data", |a| {
        a.participation_end = None
    })
    .await;
    let future = activity(&w.db, w.station_id, "Futura", |a| {
        a.participation_start = Some(Utc::now() + Duration::days(1));
        a.participation_end = Some(Utc::now() + Duration::days(2));
    })
    .await;
    participate(&w.db, w.station_id, w.member_id, first).await;

    let card = w.get(&format!("/api/actions/{gated}/")).await.json();
    assert_eq!(card["prerequisites"]["action_has_prerequisites"], true);
    assert_eq!(card["prerequisites"]["user_done_prerequisites"], false);
    assert_eq!(
        card["prerequisites"]["action_prerequisites"],
        json!([
            { "id": first, "name": "Cadastro completo", "done": true },
            { "id": second, "name": "Perfil", "done": false },
        ])
    );
    let refused = w.view(gated).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused.json()["messages"],
        json!(["Complete antes: Perfil."])
    );

    participate(&w.db, w.station_id, w.member_id, second).await;
    let card = w.get(&format!("/api/actions/{gated}/")).await.json();
    assert_eq!(card["prerequisites"]["user_done_prerequisites"], true);
    assert_eq!(w.view(gated).await.status, StatusCode::CREATED);

    assert_eq!(
        w.get(&format!("/api/actions/{undated}/")).await.json()["availability"],
        "date_missing"
    );
    assert_eq!(
        w.get(&format!("/api/actions/{future}/")).await.json()["availability"],
        "not_started"
    );
}

#[testkit::db_test]
async fn search_ignores_case_and_accents_within_the_station(db: PgPool) {
    let w = world(db).await;
    let coffee = activity(&w.db, w.station_id, "Café da Manhã", |_| ()).await;
    activity(&w.db, w.station_id, "Almoço", |_| ()).await;
    activity(&w.db, w.other_station_id, "Café de fora", |_| ()).await;
    activity(&w.db, w.station_id, "Café escondido", |a| a.active = false).await;

    for term in ["CAFE", "cafe", "café", "MANHA", "a%20m"] {
        let found = w
            .get(&format!("/api/actions-by-name/?where[name]={term}"))
            .await;
        assert_eq!(found.status, StatusCode::OK, "{term}: {}", found.text);
        assert_eq!(ids(&found.json()), [coffee], "{term}");
    }
    let wildcard = w.get("/api/actions-by-name/?where[name]=%25").await;
    assert_eq!(ids(&wildcard.json()), Vec::<i64>::new());
    for empty in [
        "/api/actions-by-name/",
        "/api/actions-by-name/?where[name]=%20",
    ] {
        let answer = w.get(empty).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{empty}");
        assert_eq!(
            answer.json()["messages"],
            json!(["Informe o termo da busca."])
        );
    }
}

#[testkit::db_test]
async fn visitors_see_only_published_public_activities(db: PgPool) {
    let w = world(db).await;
    let public = activity(&w.db, w.station_id, "Aberta", |a| a.public = true).await;
    let private = activity(&w.db, w.station_id, "Fechada", |_| ()).await;
    let draft = activity(&w.db, w.station_id, "Rascunho", |a| {
        a.public = true;
        a.active = false;
    })
    .await;
    participate(&w.db, w.station_id, w.member_id, public).await;

    let list = call(
        &w.app,
        "GET",
        &format!("/api/public-actions/{}", w.station_id),
        None,
        &[],
    )
    .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    assert_eq!(ids(&list.json()), [public]);
    assert_eq!(list.json()[0]["userActions"], 0);

    let uri = |id: i64| format!("/api/public-actions/{id}/{}", w.station_id);
    let detail = call(&w.app, "GET", &uri(public), None, &[]).await;
    assert_eq!(detail.status, StatusCode::OK);
    assert_eq!(
        detail.json()["prerequisites"]["action_has_prerequisites"],
        false
    );
    for hidden in [private, draft] {
        let answer = call(&w.app, "GET", &uri(hidden), None, &[]).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{hidden}");
        assert_eq!(answer.json(), json!({ "error": UNAVAILABLE }));
    }
    let elsewhere = format!("/api/public-actions/{public}/{}", w.other_station_id);
    assert_eq!(
        call(&w.app, "GET", &elsewhere, None, &[]).await.status,
        StatusCode::NOT_FOUND
    );
    for unknown in ["/api/public-actions/999999", "/api/public-actions/1/999999"] {
        let answer = call(&w.app, "GET", unknown, None, &[]).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{unknown}");
        assert_eq!(answer.json(), json!({ "error": "Estação não encontrada" }));
    }
}

#[testkit::db_test]
async fn lottie_files_are_served_as_json_and_cached(db: PgPool) {
    let w = world(db).await;
    let key = format!(
        "lottie/{}.json",
        ulid::Ulid::generate().to_string().to_lowercase()
    );
    let animation = json!({ "v": "5.7.4", "fr": 30, "layers": [] });
    w.state
        .objects
        .put(&key, animation.to_string().into_bytes())
        .await
        .expect("stored");
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO lottie_files (name, object_key) VALUES ('Confete', $1) RETURNING id",
    )
    .bind(&key)
    .fetch_one(&w.db)
    .await
    .expect("lottie");

    let answer = call(&w.app, "GET", &format!("/api/lottie-files/{id}"), None, &[]).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json(), animation);
    assert_eq!(answer.headers["content-type"], "application/json");
    assert_eq!(answer.headers["cache-control"], "public, max-age=86400");

    let missing = call(&w.app, "GET", "/api/lottie-files/999999", None, &[]).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.json()["error"].is_string());
}

/// Inserts a row (`journeys`, `now_playing` or `participant_categories`) and its activities.
async fn row(db: &PgPool, table: &str, station_id: i64, name: &str, actions: &[i64]) -> i64 {
    let (insert, link) = match table {
        "journeys" => (
            "INSERT INTO journeys (station_id, name) VALUES ($1, $2) RETURNING id",
            "INSERT INTO journey_actions (journey_id, action_id, position) VALUES ($1, $2, $3)",
        ),
        "now_playing" => (
            "INSERT INTO now_playing (station_id, title) VALUES ($1, $2) RETURNING id",
            "INSERT INTO now_playing_actions (now_playing_id, action_id, position) VALUES ($1, $2, $3)",
        ),
        _ => (
            "INSERT INTO participant_categories (station_id, name, icon_key) VALUES ($1, $2, 'icons/a.svg')
             RETURNING id",
            "INSERT INTO category_actions (category_id, action_id, position) VALUES ($1, $2, $3)",
        ),
    };
    let id: i64 = sqlx::query_scalar(insert)
        .bind(station_id)
        .bind(name)
        .fetch_one(db)
        .await
        .expect("row");
    for (position, action_id) in actions.iter().enumerate() {
        sqlx::query(link)
            .bind(id)
            .bind(action_id)
            .bind(position as i32)
            .execute(db)
            .await
            .expect("row activity");
    }
    id
}

/// A category of `station_id` holding `actions` in that order.
async fn category(db: &PgPool, station_id: i64, name: &str, actions: &[i64]) -> i64 {
    row(db, "participant_categories", station_id, name, actions).await
}

#[testkit::db_test]
async fn journeys_put_done_activities_first_and_count_them(db: PgPool) {
    let w = world(db).await;
    let a = activity(&w.db, w.station_id, "A", |_| ()).await;
    let b = activity(&w.db, w.station_id, "B", |_| ()).await;
    let c = activity(&w.db, w.station_id, "C", |_| ()).await;
    let d = activity(&w.db, w.station_id, "D", |_| ()).await;
    let draft = activity(&w.db, w.station_id, "Rascunho", |a| a.active = false).await;
    let journey = row(
        &w.db,
        "journeys",
        w.station_id,
        "Primeiros passos",
        &[a, b, draft, c, d],
    )
    .await;
    let empty = row(&w.db, "journeys", w.station_id, "Vazia", &[draft]).await;
    row(&w.db, "journeys", w.other_station_id, "De fora", &[]).await;
    participate(&w.db, w.station_id, w.member_id, c).await;
    participate(&w.db, w.station_id, w.member_id, b).await;

    let answer = w.get("/api/journeys").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let journeys = answer.json();
    assert_eq!(ids(&journeys), [journey, empty]);
    assert_eq!(journeys[0]["name"], "Primeiros passos");
    assert_eq!(journeys[0]["completed"], 2);
    assert_eq!(ids(&journeys[0]["actions"]), [b, c, a, d]);
    let done: Vec<bool> = journeys[0]["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .map(|action| action["hasDone"].as_bool().expect("hasDone"))
        .collect();
    assert_eq!(done, [true, true, false, false]);
    assert_eq!(journeys[1]["actions"], json!([]));
    assert_eq!(journeys[1]["completed"], 0);
}

#[testkit::db_test]
async fn now_playing_and_categories_hold_the_stations_rows(db: PgPool) {
    let w = world(db).await;
    let a = activity(&w.db, w.station_id, "A", |_| ()).await;
    let b = activity(&w.db, w.station_id, "B", |_| ()).await;
    let foreign = activity(&w.db, w.other_station_id, "De fora", |_| ()).await;
    let playing = row(&w.db, "now_playing", w.station_id, "Em alta", &[b, a]).await;
    let first = category(&w.db, w.station_id, "Saúde", &[a]).await;
    let second = category(&w.db, w.station_id, "Lazer", &[b, foreign]).await;
    let elsewhere = category(&w.db, w.other_station_id, "Fora", &[foreign]).await;

    let rows = w.get("/api/now-playing").await.json();
    assert_eq!(ids(&rows), [playing]);
    assert_eq!(rows[0]["title"], "Em alta");
    assert_eq!(ids(&rows[0]["actions"]), [b, a]);

    let all = w.get("/api/participant-categories/").await.json();
    assert_eq!(ids(&all), [first, second]);
    assert_eq!(all[0]["icon"], "/api/media/icons/a.svg");
    assert_eq!(all[1]["category_actions"][0]["action"]["id"], b);
    assert_eq!(all[1]["category_actions"].as_array().map(Vec::len), Some(1));

    let one = w
        .get(&format!(
            "/api/participant-categories/?where[id]={second}&where[station_id]={}&where[user_id]={}",
            w.station_id, w.member_id
        ))
        .await;
    assert_eq!(ids(&one.json()), [second]);
    let foreign_category = w
        .get(&format!(
            "/api/participant-categories/?where[id]={elsewhere}"
        ))
        .await;
    assert_eq!(foreign_category.status, StatusCode::OK);
    assert_eq!(foreign_category.json(), json!([]));
}

#[testkit::db_test]
async fn a_raw_content_view_pays_once(db: PgPool) {
    let w = world(db).await;
    let id = activity(&w.db, w.station_id, "Leia isto", |a| {
        a.additional_cashback = 5
    })
    .await;

    let first = w.view(id).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let first = first.json();
    assert_eq!(first["action_id"], id);
    assert_eq!(first["recorded"], true);
    assert_eq!(first["points"], 10);
    assert_eq!(first["cashback"], 15);
    assert!(first["job_id"].is_string());
    // The member is paid what the activity shows: its cashback, in hundredths of a point.
    let credited: i64 = sqlx::query_scalar(
        "SELECT (convert_from(job, 'UTF8')::jsonb -> 'args' ->> 'amount')::bigint
           FROM apalis.jobs WHERE id = $1",
    )
    .bind(first["job_id"].as_str().expect("job id"))
    .fetch_one(&w.db)
    .await
    .expect("credit job");
    assert_eq!(credited, 1_500);

    let again = w.view(id).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json()["recorded"], false);
    assert_eq!(again.json()["participation_id"], first["participation_id"]);
    assert_eq!(again.json()["job_id"], first["job_id"]);
    assert_eq!(common::participations(&w.db, id).await, 1);
    assert_eq!(common::credit_jobs(&w.db, id).await, 1);
    assert_eq!(
        w.get(&format!("/api/actions/{id}/")).await.json()["userActions"],
        1
    );
}

#[testkit::db_test]
async fn raw_content_views_keep_the_participation_rules(db: PgPool) {
    let w = world(db).await;
    let limited = activity(&w.db, w.station_id, "Duas vezes", |a| {
        a.limit_per_user = Some(2)
    })
    .await;
    let undated = activity(&w.db, w.station_id, "Sem data", |a| {
        a.participation_start = None
    })
    .await;
    let start = chrono::TimeZone::with_ymd_and_hms(&Utc, 2026, 3, 1, 12, 0, 0)
        .single()
        .expect("date");
    let ended = activity(&w.db, w.station_id, "Acabou", |a| {
        a.participation_start = Some(start);
        a.participation_end = Some(start + Duration::hours(2));
    })
    .await;
    let draft = activity(&w.db, w.station_id, "Rascunho", |a| a.active = false).await;
    let foreign = activity(&w.db, w.other_station_id, "De fora", |_| ()).await;
    let quiz = activity(&w.db, w.station_id, "Quiz", |a| {
        a.type_id = ActivityType::Quiz
    })
    .await;

    assert_eq!(w.view(limited).await.status, StatusCode::CREATED);
    assert_eq!(w.view(limited).await.status, StatusCode::CREATED);
    let over = w.view(limited).await;
    assert_eq!(over.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        over.json()["messages"],
        json!(["Olá, você já ultrapassou o limite de participações nessa atividade!"])
    );
    assert_eq!(
        w.get(&format!("/api/actions/{limited}/")).await.json()["availability"],
        "limit_reached"
    );
    assert_eq!(common::credit_jobs(&w.db, limited).await, 2);

    let undated = w.view(undated).await;
    assert_eq!(undated.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        undated.json()["messages"],
        json!(["Houve um problema com a data de publicação desta atividade."])
    );
    let ended = w.view(ended).await;
    assert_eq!(ended.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        ended.json()["messages"],
        json!(["Esta atividade está disponível de 01/03/2026 09:00 até 01/03/2026 11:00."])
    );
    for unavailable in [draft, foreign, quiz, 999_999] {
        let answer = w.view(unavailable).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{unavailable}");
        assert_eq!(answer.json(), json!({ "error": UNAVAILABLE }));
        assert_eq!(common::participations(&w.db, unavailable).await, 0);
    }
}

/// A station in Manaus (UTC-4) tells its members the window on their own clock.
#[testkit::db_test]
async fn a_window_is_said_on_the_stations_clock(db: PgPool) {
    let w = world(db).await;
    sqlx::query("UPDATE stations SET time_zone = 'America/Manaus' WHERE id = $1")
        .bind(w.station_id)
        .execute(&w.db)
        .await
        .expect("Manaus");
    let start = chrono::TimeZone::with_ymd_and_hms(&Utc, 2026, 3, 1, 12, 0, 0)
        .single()
        .expect("date");
    let ended = activity(&w.db, w.station_id, "Acabou", |a| {
        a.participation_start = Some(start);
        a.participation_end = Some(start + Duration::hours(2));
    })
    .await;

    let answer = w.view(ended).await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        answer.json()["messages"],
        json!(["Esta atividade está disponível de 01/03/2026 08:00 até 01/03/2026 10:00."])
    );
}

#[testkit::db_test]
async fn simultaneous_views_at_the_limit_record_only_the_allowed_number(db: PgPool) {
    let w = world(db).await;
    let limit = 3;
    let id = activity(&w.db, w.station_id, "Corrida", |a| {
        a.limit_per_user = Some(limit)
    })
    .await;
    let unlimited = activity(&w.db, w.station_id, "Uma vez", |_| ()).await;

    let mut requests = JoinSet::new();
    for n in 0..12 {
        let app = w.app.clone();
        let token = w.token.clone();
        let action_id = if n % 2 == 0 { id } else { unlimited };
        requests.spawn(async move {
            let body = json!({ "action_id": action_id });
            let answer = send_json(
                &app,
                "POST",
                "/api/raw-content-participation",
                Some(&token),
                &[],
                &body,
            )
            .await;
            (action_id, answer.status)
        });
    }
    let mut statuses: Vec<(i64, StatusCode)> = Vec::new();
    while let Some(done) = requests.join_next().await {
        statuses.push(done.expect("request"));
    }
    let count = |action_id: i64, status: StatusCode| {
        statuses
            .iter()
            .filter(|(a, s)| *a == action_id && *s == status)
            .count()
    };
    assert_eq!(
        count(id, StatusCode::CREATED),
        limit as usize,
        "{statuses:?}"
    );
    assert_eq!(
        count(id, StatusCode::UNPROCESSABLE_ENTITY),
        6 - limit as usize
    );
    assert_eq!(count(unlimited, StatusCode::CREATED), 1, "{statuses:?}");
    assert_eq!(count(unlimited, StatusCode::OK), 5);
    assert_eq!(common::participations(&w.db, id).await, i64::from(limit));
    assert_eq!(common::credit_jobs(&w.db, id).await, i64::from(limit));
    assert_eq!(common::participations(&w.db, unlimited).await, 1);
    assert_eq!(common::credit_jobs(&w.db, unlimited).await, 1);
    let keys: BTreeSet<String> = sqlx::query_scalar::<_, String>(
        "SELECT idempotency_key FROM apalis.jobs WHERE job_type = 'points.credit'",
    )
    .fetch_all(&w.db)
    .await
    .expect("keys")
    .into_iter()
    .collect();
    assert!(
        keys.iter().all(|key| key.starts_with("activity:")),
        "{keys:?}"
    );
}

const LIMIT_REFUSED: &str = "O parâmetro limit deve ser um número inteiro de 1 a 100.";
const OFFSET_REFUSED: &str = "O parâmetro offset deve ser um número inteiro maior ou igual a 0.";

fn total(answer: &common::Answer) -> i64 {
    answer.headers["x-total-count"]
        .to_str()
        .expect("text")
        .parse()
        .expect("a number")
}

/// The list at `uri` read page by page (`limit` at a time), concatenated, and the total
/// each page announced.
async fn pages(app: &Router, token: Option<&str>, uri: &str, limit: usize) -> (Vec<i64>, i64) {
    let (mut all, mut announced) = (Vec::new(), None);
    loop {
        let separator = if uri.contains('?') { '&' } else { '?' };
        let page_uri = format!("{uri}{separator}limit={limit}&offset={}", all.len());
        let page = call(app, "GET", &page_uri, token, &[]).await;
        assert_eq!(page.status, StatusCode::OK, "{page_uri}: {}", page.text);
        let total = total(&page);
        assert!(announced.is_none_or(|t| t == total), "{page_uri}");
        announced = Some(total);
        let ids = ids(&page.json());
        assert!(ids.len() <= limit, "{page_uri}");
        let last = ids.len() < limit;
        all.extend(ids);
        if last {
            return (all, total);
        }
    }
}

#[testkit::db_test]
async fn lists_are_paged_stably_with_their_size_in_a_header(db: PgPool) {
    let w = world(db).await;
    // Equal priorities: their order is the id's, on every page.
    for n in 0..9 {
        activity(&w.db, w.station_id, &format!("Passeio {n}"), |a| {
            a.priority = n % 3;
            a.featured = n % 2 == 0;
            a.priority_carousel = n % 2;
        })
        .await;
    }
    activity(&w.db, w.station_id, "Passeio rascunho", |a| {
        a.active = false
    })
    .await;
    activity(&w.db, w.other_station_id, "Passeio de fora", |_| ()).await;
    let token = Some(w.token.as_str());

    for uri in [
        "/api/actions/".to_string(),
        format!(
            "/api/actions/?where[station_id]={}&where[user_id]={}",
            w.station_id, w.member_id
        ),
        "/api/actions/?where[featuredPrivate]=1".to_string(),
        "/api/actions-by-name/?where[name]=passeio".to_string(),
    ] {
        let whole = w.get(&uri).await;
        assert_eq!(whole.status, StatusCode::OK, "{uri}: {}", whole.text);
        let whole_ids = ids(&whole.json());
        assert_eq!(total(&whole), whole_ids.len() as i64, "{uri}");
        for limit in [1, 2, 4, 100] {
            let (paged, announced) = pages(&w.app, token, &uri, limit).await;
            assert_eq!(paged, whole_ids, "{uri} by {limit}");
            assert_eq!(announced, whole_ids.len() as i64, "{uri}");
        }
        let past_the_end = w
            .get(&format!(
                "{uri}{}offset=500&limit=5",
                if uri.contains('?') { '&' } else { '?' }
            ))
            .await;
        assert_eq!(past_the_end.json(), json!([]), "{uri}");
        assert_eq!(total(&past_the_end), whole_ids.len() as i64, "{uri}");
    }
    let found = w.get("/api/actions-by-name/?where[name]=passeio").await;
    assert_eq!(total(&found), 9);
    let featured = w
        .get("/api/actions/?where[featuredPrivate]=1&limit=2")
        .await;
    assert_eq!(total(&featured), 5);
    let nothing = w.get("/api/actions-by-name/?where[name]=inexistente").await;
    assert_eq!((nothing.json(), total(&nothing)), (json!([]), 0));
    // An offset alone skips, without a limit.
    let whole = ids(&w.get("/api/actions/").await.json());
    assert_eq!(
        ids(&w.get("/api/actions/?offset=2").await.json()),
        whole[2..]
    );
}

#[testkit::db_test]
async fn a_list_asked_without_limit_answers_its_first_500(db: PgPool) {
    let w = world(db).await;
    sqlx::query(
        "INSERT INTO actions (station_id, type_id, name, public)
         SELECT $1, 2, 'Oficina ' || n, true FROM generate_series(1, 503) AS n",
    )
    .bind(w.station_id)
    .execute(&w.db)
    .await
    .expect("activities");
    for uri in [
        "/api/actions/".to_string(),
        "/api/actions-by-name/?where[name]=oficina".to_string(),
        format!("/api/public-actions/{}", w.station_id),
    ] {
        let answer = call(&w.app, "GET", &uri, Some(w.token.as_str()), &[]).await;
        assert_eq!(answer.status, StatusCode::OK, "{uri}: {}", answer.text);
        assert_eq!(ids(&answer.json()).len(), 500, "{uri}");
        assert!(
            total(&answer) >= 503,
            "{uri}: the header tells there is more"
        );
    }
    let rest = w
        .get("/api/actions-by-name/?where[name]=oficina&offset=500")
        .await;
    assert_eq!(ids(&rest.json()).len(), 3);
}

#[testkit::db_test]
async fn bad_limits_and_offsets_are_refused_with_their_message(db: PgPool) {
    let w = world(db).await;
    let lists = [
        "/api/actions/?".to_string(),
        "/api/actions/?where[featuredPrivate]=1&".to_string(),
        "/api/actions-by-name/?where[name]=a&".to_string(),
        "/api/participant-categories/?".to_string(),
        format!("/api/public-actions/{}?", w.station_id),
        format!(
            "/api/public-actions/{}?where[featuredPublic]=1&",
            w.station_id
        ),
    ];
    for list in &lists {
        for (query, message) in [
            ("limit=0", LIMIT_REFUSED),
            ("limit=101", LIMIT_REFUSED),
            ("limit=-5", LIMIT_REFUSED),
            ("limit=abc", LIMIT_REFUSED),
            ("limit=", LIMIT_REFUSED),
            ("limit=2.5", LIMIT_REFUSED),
            ("limit=99999999999999999999", LIMIT_REFUSED),
            ("offset=-1", OFFSET_REFUSED),
            ("offset=x", OFFSET_REFUSED),
            ("limit=10&offset=-1", OFFSET_REFUSED),
        ] {
            let uri = format!("{list}{query}");
            let answer = w.get(&uri).await;
            assert_eq!(
                answer.status,
                StatusCode::BAD_REQUEST,
                "{uri}: {}",
                answer.text
            );
            assert_eq!(answer.json(), json!({ "messages": [message] }), "{uri}");
        }
        for fine in ["limit=1", "limit=100", "offset=0", "limit=%2010&offset=0"] {
            let uri = format!("{list}{fine}");
            assert_eq!(w.get(&uri).await.status, StatusCode::OK, "{uri}");
        }
    }
    // Scoping is still checked first on member lists.
    let other_station = w
        .get(&format!(
            "/api/actions/?where[station_id]={}&limit=0",
            w.other_station_id
        ))
        .await;
    assert_eq!(other_station.status, StatusCode::FORBIDDEN);
}

#[testkit::db_test]
async fn categories_page_their_own_activities_and_count_them_all(db: PgPool) {
    let w = world(db).await;
    let (other_member, other_token) = w
        .other_member_token(w.station_id, "outra@example.com")
        .await;
    let mut mine = Vec::new();
    for n in 0..5 {
        mine.push(activity(&w.db, w.station_id, &format!("Ação {n}"), |_| ()).await);
    }
    let draft = activity(&w.db, w.station_id, "Rascunho", |a| a.active = false).await;
    let foreign = activity(&w.db, w.other_station_id, "De fora", |_| ()).await;
    // Category order: 4, draft, 3, foreign, 0, 1, 2.
    let members = [mine[4], draft, mine[3], foreign, mine[0], mine[1], mine[2]];
    let big = category(&w.db, w.station_id, "Grande", &members).await;
    let small = category(&w.db, w.station_id, "Pequena", &[mine[1]]).await;
    let empty = category(&w.db, w.station_id, "Vazia", &[draft]).await;
    let elsewhere = category(&w.db, w.other_station_id, "Fora", &[foreign]).await;
    participate(&w.db, w.station_id, other_member, mine[4]).await;
    participate(&w.db, w.station_id, w.member_id, mine[3]).await;

    let card_ids = |answer: &Value| -> Vec<i64> {
        answer["category_actions"]
            .as_array()
            .expect("actions")
            .iter()
            .map(|item| item["action"]["id"].as_i64().expect("id"))
            .collect()
    };
    let whole = w.get("/api/participant-categories/").await.json();
    assert_eq!(ids(&whole), [big, small, empty]);
    let order = [mine[4], mine[3], mine[0], mine[1], mine[2]];
    assert_eq!(card_ids(&whole[0]), order);
    let counts: Vec<i64> = whole
        .as_array()
        .expect("categories")
        .iter()
        .map(|c| c["actions_count"].as_i64().expect("count"))
        .collect();
    assert_eq!(counts, [5, 1, 0]);
    // The caller's participations, not another member's.
    assert_eq!(whole[0]["category_actions"][0]["action"]["userActions"], 0);
    assert_eq!(whole[0]["category_actions"][1]["action"]["userActions"], 1);

    let home = w.get("/api/participant-categories/?limit=2").await.json();
    assert_eq!(card_ids(&home[0]), order[..2]);
    assert_eq!(card_ids(&home[1]), [mine[1]]);
    assert_eq!(card_ids(&home[2]), Vec::<i64>::new());
    assert_eq!(home[0]["actions_count"], 5);

    let mut paged = Vec::new();
    for offset in (0..8).step_by(3) {
        let page = w
            .get(&format!(
                "/api/participant-categories/?where[id]={big}&limit=3&offset={offset}"
            ))
            .await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.text);
        let page = page.json();
        assert_eq!(ids(&page), [big]);
        assert_eq!(page[0]["actions_count"], 5, "{offset}");
        assert_eq!(page[0]["name"], "Grande");
        paged.extend(card_ids(&page[0]));
    }
    assert_eq!(paged, order);

    let foreign_category = w
        .get(&format!(
            "/api/participant-categories/?where[id]={elsewhere}&limit=4"
        ))
        .await;
    assert_eq!(foreign_category.json(), json!([]));
    let others_view = call(
        &w.app,
        "GET",
        "/api/participant-categories/?limit=1",
        Some(&other_token),
        &[],
    )
    .await
    .json();
    assert_eq!(
        others_view[0]["category_actions"][0]["action"]["userActions"],
        1
    );
}

#[testkit::db_test]
async fn visitors_get_the_public_featured_carousel(db: PgPool) {
    let w = world(db).await;
    let second = activity(&w.db, w.station_id, "Pública 2", |a| {
        a.public = true;
        a.featured = true;
        a.priority_carousel = 2;
        a.priority = 9;
    })
    .await;
    let first = activity(&w.db, w.station_id, "Pública 1", |a| {
        a.public = true;
        a.featured = true;
        a.priority_carousel = 1;
    })
    .await;
    let plain = activity(&w.db, w.station_id, "Pública sem destaque", |a| {
        a.public = true
    })
    .await;
    activity(&w.db, w.station_id, "Só para membros", |a| {
        a.featured = true
    })
    .await;
    activity(&w.db, w.station_id, "Rascunho", |a| {
        a.public = true;
        a.featured = true;
        a.active = false;
    })
    .await;
    activity(&w.db, w.other_station_id, "De fora", |a| {
        a.public = true;
        a.featured = true;
    })
    .await;
    let visit = |uri: String| {
        let app = w.app.clone();
        async move { call(&app, "GET", &uri, None, &[]).await }
    };
    let station = w.station_id;

    let carousel = visit(format!(
        "/api/public-actions/{station}?where[featuredPublic]=1"
    ))
    .await;
    assert_eq!(carousel.status, StatusCode::OK, "{}", carousel.text);
    assert_eq!(ids(&carousel.json()), [first, second]);
    assert_eq!(total(&carousel), 2);
    assert_eq!(carousel.json()[0]["userActions"], 0);
    let (paged, announced) = pages(
        &w.app,
        None,
        &format!("/api/public-actions/{station}?where[featuredPublic]=1"),
        1,
    )
    .await;
    assert_eq!((paged, announced), (vec![first, second], 2));

    let all = w.visit(&format!("/api/public-actions/{station}")).await;
    assert_eq!(ids(&all.json()), [second, first, plain]);
    assert_eq!(total(&all), 3);
    let page = w
        .visit(&format!("/api/public-actions/{station}?limit=1&offset=1"))
        .await;
    assert_eq!((ids(&page.json()), total(&page)), (vec![first], 3));

    let unknown = w
        .visit("/api/public-actions/999999?where[featuredPublic]=1")
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.json(), json!({ "error": "Estação não encontrada" }));
}

#[testkit::db_test]
async fn only_published_prerequisites_are_shown_and_required(db: PgPool) {
    let w = world(db).await;
    let members_only = activity(&w.db, w.station_id, "Cadastro completo", |_| ()).await;
    let draft = activity(&w.db, w.station_id, "Rascunho secreto", |a| {
        a.active = false
    })
    .await;
    let public = activity(&w.db, w.station_id, "Boas-vindas", |a| a.public = true).await;
    let gated = activity(&w.db, w.station_id, "Depois", |a| {
        a.public = true;
        a.prerequisites = vec![
            ActivityId(members_only),
            ActivityId(draft),
            ActivityId(public),
        ];
    })
    .await;
    let required = |answer: &Value| answer["prerequisites"]["action_prerequisites"].clone();

    let member_view = w.get(&format!("/api/actions/{gated}/")).await.json();
    assert_eq!(
        required(&member_view),
        json!([
            { "id": members_only, "name": "Cadastro completo", "done": false },
            { "id": public, "name": "Boas-vindas", "done": false },
        ])
    );
    let refused = w.view(gated).await;
    assert_eq!(
        refused.json()["messages"],
        json!(["Complete antes: Cadastro completo, Boas-vindas."])
    );

    // Visitors see the public prerequisites only, in the detail and in the list.
    let visitor_view = w
        .visit(&format!("/api/public-actions/{gated}/{}", w.station_id))
        .await;
    assert!(!visitor_view.text.contains("Rascunho secreto"));
    assert!(!visitor_view.text.contains("Cadastro completo"));
    let expected = json!([{ "id": public, "name": "Boas-vindas", "done": false }]);
    assert_eq!(required(&visitor_view.json()), expected);
    let listed = w
        .visit(&format!("/api/public-actions/{}", w.station_id))
        .await
        .json();
    let card = listed
        .as_array()
        .expect("list")
        .iter()
        .find(|card| card["id"] == gated)
        .expect("the gated card")
        .clone();
    assert_eq!(required(&card), expected);

    // The unpublished prerequisite never blocks.
    participate(&w.db, w.station_id, w.member_id, members_only).await;
    participate(&w.db, w.station_id, w.member_id, public).await;
    let card = w.get(&format!("/api/actions/{gated}/")).await.json();
    assert_eq!(card["prerequisites"]["user_done_prerequisites"], true);
    assert_eq!(w.view(gated).await.status, StatusCode::CREATED);
}

#[testkit::db_test]
async fn a_view_of_another_type_is_unavailable_before_any_other_rule(db: PgPool) {
    let w = world(db).await;
    let undone = activity(&w.db, w.station_id, "Antes", |_| ()).await;
    let quiz = activity(&w.db, w.station_id, "Quiz trancado", |a| {
        a.type_id = ActivityType::Quiz;
        a.prerequisites = vec![ActivityId(undone)];
    })
    .await;
    let ended_quiz = activity(&w.db, w.station_id, "Quiz encerrado", |a| {
        a.type_id = ActivityType::Quiz;
        a.participation_start = Some(Utc::now() - Duration::days(3));
        a.participation_end = Some(Utc::now() - Duration::days(2));
    })
    .await;
    let undated_quiz = activity(&w.db, w.station_id, "Quiz sem data", |a| {
        a.type_id = ActivityType::Quiz;
        a.participation_end = None;
    })
    .await;
    for id in [quiz, ended_quiz, undated_quiz] {
        let answer = w.view(id).await;
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "{id}: {}",
            answer.text
        );
        assert_eq!(answer.json(), json!({ "error": UNAVAILABLE }));
        assert_eq!(common::participations(&w.db, id).await, 0);
    }
}

#[testkit::db_test]
async fn rules_of_empty_markup_are_no_rules(db: PgPool) {
    let w = world(db).await;
    for (rules, has_rules) in [
        ("<p></p>", false),
        ("<p>&nbsp;</p><br>", false),
        ("<p> <strong> </strong></p>", false),
        ("<script>alert(1)</script>", false),
        ("<p>Vale para associados.</p>", true),
    ] {
        let id = activity(&w.db, w.station_id, "Com regras", |a| {
            a.rules = rules.into()
        })
        .await;
        let detail = w.get(&format!("/api/actions/{id}/")).await.json();
        assert_eq!(detail["has_rules"], has_rules, "{rules}");
    }
}

#[testkit::db_test]
async fn the_detail_carries_its_videos_in_order(db: PgPool) {
    use domain::activities::videos::{ExternalVideo, NewVideo, VideoSource};
    let w = world(db).await;
    let video = |source: VideoSource, name: &str, required: bool| NewVideo {
        source,
        name: name.into(),
        description: format!("Sobre {name}"),
        required,
        duration_seconds: 95,
    };
    let external = |url: &str| VideoSource::External(ExternalVideo::parse(url).expect(url));
    let id = activity(&w.db, w.station_id, "Playlist", |a| {
        a.type_id = ActivityType::VideoPlaylist;
        a.public = true;
        a.videos = vec![
            video(
                VideoSource::Custom {
                    object_key: "videos/apresentacao.mp4".into(),
                },
                "Apresentação",
                true,
            ),
            video(
                external("https://youtu.be/dQw4w9WgXcQ?t=3"),
                "No YouTube",
                false,
            ),
            video(
                external("https://player.vimeo.com/video/76979871"),
                "No Vimeo",
                false,
            ),
        ];
    })
    .await;
    let bare = activity(&w.db, w.station_id, "Sem vídeos", |_| ()).await;

    let detail = w.get(&format!("/api/actions/{id}/")).await.json();
    let videos = detail["action_videos"].as_array().expect("videos").clone();
    assert_eq!(videos.len(), 3);
    let video_ids: Vec<i64> = videos
        .iter()
        .map(|v| v["video_id"].as_i64().expect("video id"))
        .collect();
    assert!(video_ids.windows(2).all(|pair| pair[0] != pair[1]));
    assert_eq!(
        videos[0],
        json!({
            "video_id": video_ids[0], "name": "Apresentação",
            "description": "Sobre Apresentação", "required": true, "duration_seconds": 95,
            "video": { "url": "/api/media/videos/apresentacao.mp4", "custom": true,
                       "embed_url": null },
        })
    );
    assert_eq!(
        videos[1]["video"],
        json!({ "url": "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "custom": false,
                "embed_url": "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" })
    );
    assert_eq!(
        videos[2]["video"],
        json!({ "url": "https://vimeo.com/76979871", "custom": false,
                "embed_url": "https://player.vimeo.com/video/76979871" })
    );
    assert_eq!(videos[2]["name"], "No Vimeo");
    let visitor = w
        .visit(&format!("/api/public-actions/{id}/{}", w.station_id))
        .await
        .json();
    assert_eq!(visitor["action_videos"], detail["action_videos"]);
    let none = w.get(&format!("/api/actions/{bare}/")).await.json();
    assert_eq!(none["action_videos"], json!([]));

    // Another host is refused when written, by the parser and by the table.
    for address in [
        "https://evil.example/watch?v=dQw4w9WgXcQ",
        "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ",
        "javascript:alert(1)",
    ] {
        assert!(ExternalVideo::parse(address).is_err(), "{address}");
        let written = sqlx::query(
            "INSERT INTO action_videos (action_id, position, external_url, name, duration_seconds)
             VALUES ($1, 9, $2, 'Fora', 60)",
        )
        .bind(id)
        .bind(address)
        .execute(&w.db)
        .await;
        let refused = written.expect_err(address);
        assert_eq!(
            refused
                .as_database_error()
                .and_then(|e| e.code())
                .as_deref(),
            Some("23514"),
            "{address}"
        );
    }
    let neither = sqlx::query(
        "INSERT INTO action_videos (action_id, position, name, duration_seconds)
             VALUES ($1, 9, 'Nada', 60)",
    )
    .bind(id)
    .execute(&w.db)
    .await;
    assert!(neither.is_err());
}

/// The lists and rows keep a cached generic plan: sqlx prepares each statement, and
/// PostgreSQL plans it anew on every call while its custom plans look cheaper than the
/// generic one (what made the home's calls slow; docs/decisions.md).
#[testkit::db_test]
async fn paged_lists_and_rows_are_planned_once(db: PgPool) {
    use domain::activities::catalogue::Filter;
    use domain::activities::rows;
    use domain::shared::paging::Page;
    let w = world(db).await;
    let mut ids = Vec::new();
    for n in 0..30 {
        ids.push(
            activity(&w.db, w.station_id, &format!("Plano {n}"), |a| {
                a.public = n % 2 == 0;
                a.featured = n % 3 == 0;
            })
            .await,
        );
    }
    category(&w.db, w.station_id, "Tudo", &ids).await;
    // One connection, so every call prepares on the one whose statements are read.
    let one = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect_with(w.db.connect_options().as_ref().clone())
        .await
        .expect("pool");
    let page = Page::new(Some(4), 0).expect("page");
    let member = Some(UserId(w.member_id));
    let featured = Filter {
        featured: true,
        ..Filter::default()
    };
    let search = Filter {
        name: Some("plano"),
        ..Filter::default()
    };
    for _ in 0..8 {
        for (viewer, filter) in [
            (member, Filter::default()),
            (member, search),
            (None, featured),
        ] {
            catalogue::list(&one, StationId(w.station_id), viewer, filter, page)
                .await
                .expect("list")
                .expect("station");
        }
        rows::categories(
            &one,
            StationId(w.station_id),
            UserId(w.member_id),
            None,
            page,
        )
        .await
        .expect("categories");
    }
    let plans: Vec<(String, i64, i64)> = sqlx::query_as(
        "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements
          WHERE statement LIKE '%unnest%' AND statement NOT LIKE '%pg_prepared_statements%'",
    )
    .fetch_all(&one)
    .await
    .expect("plans");
    assert_eq!(plans.len(), 4, "{plans:?}");
    for (statement, generic, custom) in plans {
        assert!(
            generic >= 3 && custom <= 5,
            "{generic} generic, {custom} custom: {statement}"
        );
    }
}

#[testkit::db_test]
async fn an_agreement_is_accepted_with_its_checkbox_ticked_and_pays_once(db: PgPool) {
    use domain::activities::catalogue::Agreement;
    let w = world(db).await;
    let id = activity(&w.db, w.station_id, "Termo de adesão", |a| {
        a.type_id = ActivityType::Agreement;
        a.agreements = vec![Agreement {
            checkbox: "Li e aceito o termo.".into(),
            button: "Confirmar adesão".into(),
        }];
    })
    .await;
    let detail = w.get(&format!("/api/actions/{id}/")).await.json();
    assert_eq!(
        detail["agreements"],
        json!([{ "checkbox": "Li e aceito o termo.", "button": "Confirmar adesão" }])
    );
    let accept = |action_id: i64, accepted: Value| {
        let (app, token) = (w.app.clone(), w.token.clone());
        async move {
            send_json(
                &app,
                "POST",
                "/api/agreement",
                Some(&token),
                &[],
                &json!({ "action_id": action_id, "accepted": accepted }),
            )
            .await
        }
    };

    // The checkbox is required: unticked (or left out) records nothing.
    for unticked in [json!(false), Value::Null] {
        let refused = accept(id, unticked).await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.text
        );
        assert_eq!(
            refused.json()["messages"],
            json!(["Esse campo é obrigatório"])
        );
    }
    assert_eq!(common::participations(&w.db, id).await, 0);

    let first = accept(id, json!(true)).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    assert_eq!(first.json()["recorded"], true);
    assert_eq!(first.json()["points"], 10);
    let again = accept(id, json!(true)).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(
        again.json()["participation_id"],
        first.json()["participation_id"]
    );
    assert_eq!(common::participations(&w.db, id).await, 1);
    assert_eq!(common::credit_jobs(&w.db, id).await, 1);

    // Another type, another station's agreement, or none at all: unavailable.
    let raw = activity(&w.db, w.station_id, "Leia isto", |_| {}).await;
    let foreign = activity(&w.db, w.other_station_id, "Termo de lá", |a| {
        a.type_id = ActivityType::Agreement
    })
    .await;
    for action_id in [raw, foreign, 999_999] {
        let answer = accept(action_id, json!(true)).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{action_id}");
        assert_eq!(answer.json()["error"], UNAVAILABLE);
    }
}
