//! The political-union page over HTTP against the real database: `GET /political` answers
//! the caller's station's published themes in their order, with the contract's wire names;
//! `POST /political` stores a suggestion, e-mails the desk (when it has an address) and
//! acknowledges it to the member, checks its description and counts 5 an hour per member.
//! Another station's themes are never shown, and a station without the desk answers none of
//! it.

use crate::common::{
    self, Answer, call, insert_member, insert_station, off_contract, send_json, session_of,
};
use axum::Router;
use axum::http::StatusCode;
use domain::political::{self, Highlight, NewTheme, ThemeProcess, UnionAction};
use serde_json::{Value, json};
use sqlx::PgPool;

const URI: &str = "/api/political";
const UNAVAILABLE: &str = "Serviço não disponível.";
const SENT: &str = "Solicitação enviada com sucesso.";
const TOO_MANY: &str =
    "Muitas solicitações em pouco tempo. Aguarde alguns minutos e tente novamente.";

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    member_id: i64,
    token: String,
}

async fn world(db: PgPool) -> World {
    let station_id = insert_station(&db, "sindicato").await;
    set_offered(&db, station_id, true).await;
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

async fn set_offered(db: &PgPool, station_id: i64, on: bool) {
    sqlx::query("UPDATE stations SET political_access = $2 WHERE id = $1")
        .bind(station_id)
        .bind(on)
        .execute(db)
        .await
        .expect("flag");
}

async fn set_desk_email(db: &PgPool, station_id: i64, email: Option<&str>) {
    sqlx::query(
        "INSERT INTO service_desks (station_id, service, email) VALUES ($1, 'political', $2)
         ON CONFLICT (station_id, service) DO UPDATE SET email = EXCLUDED.email",
    )
    .bind(station_id)
    .bind(email)
    .execute(db)
    .await
    .expect("desk");
}

async fn theme(db: &PgPool, station_id: i64, title: &str, position: i32, published: bool) -> i64 {
    political::create_theme(
        db,
        &NewTheme {
            station_id,
            kind: "Projeto de lei".into(),
            title: title.into(),
            description: format!("Sobre {title}"),
            interested: vec!["Professores".into(), "Aposentados".into()],
            highlights: vec![Highlight {
                descricao_item: "Piso salarial".into(),
                posicionamento: "Favorável".into(),
            }],
            actions: vec![UnionAction {
                data_acao: "2026-10-14".into(),
                descricao_acao: "Audiência pública na Câmara".into(),
            }],
            processes: vec![ThemeProcess {
                identificacao_processo: "PL 1234/2025".into(),
                court: "Câmara dos Deputados".into(),
            }],
            published,
            position,
        },
    )
    .await
    .expect("theme")
}

impl World {
    async fn themes(&self) -> Answer {
        call(&self.app, "GET", URI, Some(&self.token), &[]).await
    }

    async fn suggest(&self, body: Value) -> Answer {
        send_json(&self.app, "POST", URI, Some(&self.token), &[], &body).await
    }
}

/// A refusal as its contract gives it, with its status and text.
fn refused(method: &str, answer: &Answer, status: StatusCode, text: &str) {
    assert_eq!(answer.status, status, "{}", answer.text);
    assert_eq!(off_contract(method, URI, answer), None);
    let body = answer.json();
    let found = body["error"]
        .as_str()
        .map(String::from)
        .or_else(|| body["messages"][0].as_str().map(String::from));
    assert_eq!(found.as_deref(), Some(text), "{body}");
}

/// The recipients and subjects of the `mail.send` jobs about suggestion `id`, with their
/// owners' user ids.
async fn mails_of(db: &PgPool, id: i64) -> Vec<(String, String, Option<i64>)> {
    sqlx::query_as(
        "SELECT convert_from(j.job, 'UTF8')::jsonb -> 'args' -> 'mail' ->> 'to',
                convert_from(j.job, 'UTF8')::jsonb -> 'args' -> 'mail' ->> 'subject',
                r.user_id
           FROM job_records r JOIN apalis.jobs j ON j.id = r.job_id
          WHERE r.subject_kind = 'political_suggestion' AND r.subject_id = $1
          ORDER BY j.run_at, j.id",
    )
    .bind(id.to_string())
    .fetch_all(db)
    .await
    .expect("mails")
}

async fn suggestions(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM political_suggestions")
        .fetch_one(db)
        .await
        .expect("count")
}

#[testkit::db_test]
async fn themes_are_the_stations_published_ones_in_their_order(db: PgPool) {
    let w = world(db).await;
    let second = theme(&w.db, w.station_id, "Reforma administrativa", 2, true).await;
    let first = theme(&w.db, w.station_id, "Piso do magistério", 1, true).await;
    theme(&w.db, w.station_id, "Rascunho", 0, false).await;
    let other = insert_station(&w.db, "outro").await;
    set_offered(&w.db, other, true).await;
    theme(&w.db, other, "Tema de outra estação", 0, true).await;

    let answer = w.themes().await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let body = answer.json();
    let ids: Vec<i64> = body
        .as_array()
        .expect("a list")
        .iter()
        .map(|theme| theme["id"].as_i64().expect("id"))
        .collect();
    assert_eq!(ids, [first, second]);
    assert_eq!(
        body[0],
        json!({
            "id": first,
            "tipo_tema": "Projeto de lei",
            "titulo": "Piso do magistério",
            "descricao": "Sobre Piso do magistério",
            "interessados": ["Professores", "Aposentados"],
            "itens_destaque": [{ "descricao_item": "Piso salarial", "posicionamento": "Favorável" }],
            "acoes_sindicato": [{ "data_acao": "2026-10-14", "descricao_acao": "Audiência pública na Câmara" }],
            "processos": [{ "identificacao_processo": "PL 1234/2025", "tribunalOrgao": "Câmara dos Deputados" }],
        })
    );
}

#[testkit::db_test]
async fn a_suggestion_is_stored_and_mailed_to_the_desk_and_the_member(db: PgPool) {
    let w = world(db).await;
    set_desk_email(&w.db, w.station_id, Some("politico@example.com")).await;
    let answer = w
        .suggest(json!({ "description": "  Debater a reforma da previdência.  " }))
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let body = answer.json();
    assert_eq!(body["message"], SENT);
    let id = body["id"].as_i64().expect("id");
    let (station_id, user_id, description): (i64, Option<i64>, String) = sqlx::query_as(
        "SELECT station_id, user_id, description FROM political_suggestions WHERE id = $1",
    )
    .bind(id)
    .fetch_one(&w.db)
    .await
    .expect("stored");
    assert_eq!(
        (station_id, user_id, description.as_str()),
        (
            w.station_id,
            Some(w.member_id),
            "Debater a reforma da previdência."
        )
    );
    let mut mails = mails_of(&w.db, id).await;
    mails.sort();
    assert_eq!(
        mails,
        [
            (
                "maria@example.com".to_string(),
                political::mail::RECEIVED_SUBJECT.to_string(),
                Some(w.member_id)
            ),
            (
                "politico@example.com".to_string(),
                political::mail::TO_DESK_SUBJECT.to_string(),
                None
            ),
        ]
    );
}

#[testkit::db_test]
async fn a_desk_without_an_address_keeps_the_suggestion_for_the_console(db: PgPool) {
    let w = world(db).await;
    set_desk_email(&w.db, w.station_id, None).await;
    let answer = w
        .suggest(json!({ "description": "Transporte público" }))
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let id = answer.json()["id"].as_i64().expect("id");
    let recipients: Vec<String> = mails_of(&w.db, id).await.into_iter().map(|m| m.0).collect();
    assert_eq!(recipients, ["maria@example.com"]);
}

#[testkit::db_test]
async fn the_description_is_required_and_at_most_1000_characters(db: PgPool) {
    let w = world(db).await;
    for body in [
        json!({}),
        json!({ "description": "   " }),
        json!({ "description": null }),
    ] {
        let answer = w.suggest(body).await;
        refused(
            "post",
            &answer,
            StatusCode::UNPROCESSABLE_ENTITY,
            "description: Esse campo é obrigatório",
        );
    }
    let answer = w.suggest(json!({ "description": "a".repeat(1001) })).await;
    refused(
        "post",
        &answer,
        StatusCode::UNPROCESSABLE_ENTITY,
        "description: Máximo de 1000 caracteres",
    );
    let answer = w.suggest(json!({ "description": "ã".repeat(1000) })).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    assert_eq!(suggestions(&w.db).await, 1);
}

#[testkit::db_test]
async fn a_member_sends_5_suggestions_an_hour(db: PgPool) {
    let w = world(db).await;
    for n in 0..5 {
        let answer = w
            .suggest(json!({ "description": format!("Tema {n}") }))
            .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    }
    let answer = w.suggest(json!({ "description": "Mais um" })).await;
    refused("post", &answer, StatusCode::TOO_MANY_REQUESTS, TOO_MANY);
    let wait: u64 = answer.headers["retry-after"]
        .to_str()
        .expect("text")
        .parse()
        .expect("seconds");
    assert!((1..=3600).contains(&wait), "{wait}");
    assert_eq!(suggestions(&w.db).await, 5);

    // Another member has an allowance of their own; an hour later the first has theirs back.
    let other = insert_member(&w.db, w.station_id, "joao@example.com").await;
    let token = session_of(&w.db, other).await;
    let body = json!({ "description": "Outro tema" });
    let answer = send_json(&w.app, "POST", URI, Some(&token), &[], &body).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    sqlx::query(
        "UPDATE political_suggestions SET created_at = now() - interval '61 minutes'
          WHERE user_id = $1",
    )
    .bind(w.member_id)
    .execute(&w.db)
    .await
    .expect("age");
    let answer = w.suggest(json!({ "description": "De novo" })).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
}

#[testkit::db_test]
async fn a_station_without_the_desk_answers_404(db: PgPool) {
    let w = world(db).await;
    theme(&w.db, w.station_id, "Piso", 0, true).await;
    set_offered(&w.db, w.station_id, false).await;
    refused("get", &w.themes().await, StatusCode::NOT_FOUND, UNAVAILABLE);
    let answer = w.suggest(json!({ "description": "Tema" })).await;
    refused("post", &answer, StatusCode::NOT_FOUND, UNAVAILABLE);
    assert_eq!(suggestions(&w.db).await, 0);
}

#[testkit::db_test]
async fn a_visitor_is_refused(db: PgPool) {
    let w = world(db).await;
    let answer = call(&w.app, "GET", URI, None, &[]).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    assert_eq!(off_contract("get", URI, &answer), None);
    let body = json!({ "description": "Tema" });
    let answer = send_json(&w.app, "POST", URI, None, &[], &body).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    assert_eq!(suggestions(&w.db).await, 0);
}
