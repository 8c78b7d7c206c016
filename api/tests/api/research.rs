//! Quizzes and surveys over HTTP against the real database (docs/api-activities.md,
//! "Quizzes and surveys"): the answer key stays on the server until the member answers; a
//! quiz is judged answer by answer and scored on the first try; surveys are scored by
//! question type from the stored answers; a submission sent again or many times at once
//! is one participation and one credit; the participation rules hold on every save; other
//! stations' and members' researches and attempts are out of reach; file answers are
//! checked by content and size.

use crate::common;
use crate::common::{insert_member, insert_station, send_json, session_of};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chrono::{Duration, Utc};
use domain::activities::ActivityType;
use domain::activities::catalogue::{self, NewActivity};
use domain::activities::research::{self, NewFeedback, NewOption, NewQuestion, NewResearch};
use domain::shared::ids::ActivityId;
use serde_json::{Value, json};
use sqlx::PgPool;

const UNAVAILABLE: &str = "Erro! Esta atividade não está disponível.";
const UNANSWERED: &str = "Uma pergunta não foi respondida!";

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    member_id: i64,
    token: String,
}

async fn world(db: PgPool) -> World {
    let station_id = insert_station(&db, "clube").await;
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

fn option(label: &str, correct: bool) -> NewOption {
    NewOption {
        label: label.into(),
        correct,
        feedback: None,
    }
}

fn question(text: &str, type_id: i16, options: Vec<NewOption>) -> NewQuestion {
    NewQuestion {
        question: text.into(),
        type_id,
        options,
        message_for_correct: Some(format!("Acertou: {text}")),
        message_for_incorrect: Some(format!("Errou: {text}")),
        explanation: Some(format!("Explicação secreta de {text}")),
    }
}

/// The three questions of the quiz: the right option of each is "Certa N".
fn quiz_questions() -> Vec<NewQuestion> {
    (1..=3)
        .map(|n| {
            question(
                &format!("Pergunta {n}"),
                1,
                vec![
                    option(&format!("Errada {n}"), false),
                    option(&format!("Certa {n}"), true),
                ],
            )
        })
        .collect()
}

/// A published activity of `type_id` of `station_id`, open now, with a research of
/// `questions`; answers (action id, research id).
async fn research_activity(
    db: &PgPool,
    station_id: i64,
    type_id: i16,
    questions: Vec<NewQuestion>,
    edit: impl FnOnce(&mut NewActivity),
) -> (i64, i64) {
    let mut new = NewActivity {
        station_id,
        type_id: ActivityType::from_id(type_id).expect("a type of the spec"),
        name: format!("Atividade {type_id}"),
        points: 30,
        additional_cashback: 10,
        participation_start: Some(Utc::now() - Duration::days(1)),
        participation_end: Some(Utc::now() + Duration::days(1)),
        active: true,
        ..NewActivity::default()
    };
    edit(&mut new);
    let action_id = catalogue::create(db, &new).await.expect("activity");
    let mut conn = db.acquire().await.expect("conn");
    let research_id = research::create(
        &mut conn,
        &NewResearch {
            action_id,
            name: new.name.clone(),
            synopsis: "Resumo".into(),
            questions,
            feedbacks: vec![
                NewFeedback {
                    range_from: 0,
                    range_to: 49,
                    feedback: "<p>Tente de novo</p><script>alert(1)</script>".into(),
                    feedback_lottie_id: None,
                },
                NewFeedback {
                    range_from: 50,
                    range_to: 100,
                    feedback: "<p>Mandou bem</p>".into(),
                    feedback_lottie_id: None,
                },
            ],
        },
    )
    .await
    .expect("research");
    (action_id, research_id)
}

impl World {
    async fn get(&self, uri: &str) -> common::Answer {
        common::call(&self.app, "GET", uri, Some(&self.token), &[]).await
    }

    async fn research(&self, id: i64) -> Value {
        let answer = self.get(&format!("/api/research/{id}")).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        answer.json()
    }

    async fn answer_as(
        &self,
        token: &str,
        research: i64,
        question: i64,
        body: Value,
    ) -> common::Answer {
        send_json(
            &self.app,
            "PUT",
            &format!("/api/research/{research}/answers/{question}"),
            Some(token),
            &[],
            &body,
        )
        .await
    }

    async fn answer(&self, research: i64, question: i64, body: Value) -> common::Answer {
        self.answer_as(&self.token, research, question, body).await
    }

    async fn submit_as(&self, token: &str, path: &str, body: Value) -> common::Answer {
        send_json(&self.app, "POST", path, Some(token), &[], &body).await
    }

    async fn submit(&self, path: &str, body: Value) -> common::Answer {
        self.submit_as(&self.token, path, body).await
    }
}

/// The ids of a research's questions and, per question, its options by label.
fn layout(research: &Value) -> Vec<(i64, Vec<(String, i64)>)> {
    research["questions"]
        .as_array()
        .expect("questions")
        .iter()
        .map(|question| {
            let options = question["options"]
                .as_array()
                .expect("options")
                .iter()
                .map(|option| {
                    (
                        option["label"].as_str().expect("label").to_owned(),
                        option["id"].as_i64().expect("id"),
                    )
                })
                .collect();
            (question["id"].as_i64().expect("id"), options)
        })
        .collect()
}

fn option_id(options: &[(String, i64)], label: &str) -> i64 {
    options
        .iter()
        .find(|(l, _)| l == label)
        .map(|(_, id)| *id)
        .unwrap_or_else(|| panic!("no option {label}"))
}

#[testkit::db_test]
async fn the_answer_key_stays_on_the_server_until_the_member_answers(db: PgPool) {
    let world = world(db).await;
    let (action, id) =
        research_activity(&world.db, world.station_id, 6, quiz_questions(), |_| {}).await;
    let detail = world.get(&format!("/api/actions/{action}/")).await;
    assert_eq!(detail.json()["researches"][0]["id"], id);
    assert_eq!(detail.json()["researches"][0]["question_count"], 3);

    let before = world.get(&format!("/api/research/{id}")).await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.text);
    for secret in [
        "correct",
        "Acertou",
        "Errou",
        "Explicação",
        "Mandou bem",
        "range",
    ] {
        assert!(
            !before.text.contains(secret),
            "{secret} leaked: {}",
            before.text
        );
    }
    assert!(!detail.text.contains("Explicação") && !detail.text.contains("\"correct\""));

    let body = before.json();
    assert_eq!(body["type_id"], 6);
    assert_eq!(body["attempt_id"], Value::Null);
    let questions = layout(&body);
    let (first, options) = &questions[0];
    // A wrong answer says it is wrong, and neither which one is right nor why.
    let wrong = world
        .answer(
            id,
            *first,
            json!({ "options": [option_id(options, "Errada 1")] }),
        )
        .await;
    assert_eq!(wrong.status, StatusCode::OK, "{}", wrong.text);
    assert_eq!(
        wrong.json()["verdict"],
        json!({ "correct": false, "message": "Errou: Pergunta 1", "explanation": null })
    );
    assert!(
        !wrong
            .text
            .contains(&option_id(options, "Certa 1").to_string())
    );
    let right = world
        .answer(
            id,
            *first,
            json!({ "options": [option_id(options, "Certa 1")] }),
        )
        .await;
    assert_eq!(
        right.json()["verdict"],
        json!({ "correct": true, "message": "Acertou: Pergunta 1", "explanation": "Explicação secreta de Pergunta 1" })
    );
    assert_eq!(
        right.json()["tried"],
        json!([option_id(options, "Errada 1")])
    );
    // The other questions are still unanswered, and still keyless.
    let during = world.get(&format!("/api/research/{id}")).await;
    assert!(!during.text.contains("Acertou: Pergunta 2"));
    assert!(!during.text.contains("Explicação secreta de Pergunta 2"));
}

#[testkit::db_test]
async fn a_quiz_is_judged_answer_by_answer_and_won_on_first_tries(db: PgPool) {
    let world = world(db).await;
    let (action, id) =
        research_activity(&world.db, world.station_id, 6, quiz_questions(), |_| {}).await;
    let questions = layout(&world.research(id).await);
    // Question 1: wrong, then right. Questions 2 and 3: right at once.
    let (q1, o1) = &questions[0];
    world
        .answer(id, *q1, json!({ "options": [option_id(o1, "Errada 1")] }))
        .await;
    world
        .answer(id, *q1, json!({ "options": [option_id(o1, "Certa 1")] }))
        .await;
    // A right answer is locked.
    let again = world
        .answer(id, *q1, json!({ "options": [option_id(o1, "Errada 1")] }))
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    assert_eq!(again.json()["error"], "Esta pergunta já foi respondida.");
    let (q2, o2) = &questions[1];
    world
        .answer(id, *q2, json!({ "options": [option_id(o2, "Certa 2")] }))
        .await;

    // Resumed on another device: the same attempt, the answers so far and their verdicts.
    let other_device = session_of(&world.db, world.member_id).await;
    let resumed = common::call(
        &world.app,
        "GET",
        &format!("/api/research/{id}"),
        Some(&other_device),
        &[],
    )
    .await
    .json();
    let attempt = resumed["attempt_id"].as_i64().expect("an open attempt");
    assert_eq!(resumed["answers"].as_array().expect("answers").len(), 2);
    assert_eq!(resumed["answers"][0]["verdict"]["correct"], true);

    // Every question needs an answer.
    let early = world
        .submit(
            "/api/answer-quiz",
            json!({ "action_id": action, "research": id, "attempt_id": attempt }),
        )
        .await;
    assert_eq!(
        early.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        early.text
    );
    assert_eq!(early.json()["messages"], json!([UNANSWERED]));

    let (q3, o3) = &questions[2];
    world
        .answer(id, *q3, json!({ "options": [option_id(o3, "Certa 3")] }))
        .await;
    // The client's percentage is ignored: 2 of 3 right at the first try.
    let done = world
        .submit(
            "/api/answer-quiz",
            json!({ "action_id": action, "research": id, "attempt_id": attempt,
                    "correct_answer_percentage": 0, "answer_percentage": 0, "author": "contact" }),
        )
        .await;
    assert_eq!(done.status, StatusCode::CREATED, "{}", done.text);
    let result = done.json();
    assert_eq!(result["recorded"], true);
    assert_eq!(result["correct_count"], 2);
    assert_eq!(result["question_count"], 3);
    assert!(
        (result["correct_answer_percentage"]
            .as_f64()
            .expect("a number")
            - 2.0 / 3.0)
            .abs()
            < 1e-9
    );
    assert_eq!(result["won"], true);
    assert_eq!(result["earned"], true);
    assert_eq!(result["cashback"], 40);
    assert!(result["job_id"].is_string());
    assert_eq!(result["feedback"]["feedback"], "<p>Mandou bem</p>");
    assert_eq!(
        result["questions"],
        json!([
            { "question_id": q1, "correct": false },
            { "question_id": q2, "correct": true },
            { "question_id": q3, "correct": true },
        ])
    );
    assert_eq!(common::participations(&world.db, action).await, 1);
    assert_eq!(common::credit_jobs(&world.db, action).await, 1);
    // The result stays with the research; the attempt is closed.
    let replay = world.research(id).await;
    assert_eq!(replay["last_result"]["earned"], true);
    let after = world.research(id).await;
    assert_eq!(after["attempt_id"], Value::Null);
    assert_eq!(after["last_result"]["correct_count"], 2);
    // A survey's call does not take a quiz.
    let wrong_call = world
        .submit(
            "/api/answer",
            json!({ "action_id": action, "research": id, "attempt_id": attempt }),
        )
        .await;
    assert_eq!(wrong_call.status, StatusCode::NOT_FOUND);
}

#[testkit::db_test]
async fn a_lost_quiz_is_a_participation_that_pays_nothing_even_when_claimed(db: PgPool) {
    let world = world(db).await;
    let (action, id) =
        research_activity(&world.db, world.station_id, 6, quiz_questions(), |_| {}).await;
    let questions = layout(&world.research(id).await);
    // One of three right at the first try: a third, below the pass mark.
    for (n, (question, options)) in questions.iter().enumerate() {
        let n = n + 1;
        if n > 1 {
            world
                .answer(
                    id,
                    *question,
                    json!({ "options": [option_id(options, &format!("Errada {n}"))] }),
                )
                .await;
        }
        world
            .answer(
                id,
                *question,
                json!({ "options": [option_id(options, &format!("Certa {n}"))] }),
            )
            .await;
    }
    let lost = world
        .submit(
            "/api/answer-quiz",
            json!({ "action_id": action, "research": id }),
        )
        .await;
    assert_eq!(lost.status, StatusCode::CREATED, "{}", lost.text);
    let result = lost.json();
    assert_eq!(result["won"], false);
    assert_eq!(result["earned"], false);
    assert_eq!(result["job_id"], Value::Null);
    assert_eq!(
        result["feedback"]["feedback"], "<p>Tente de novo</p>",
        "sanitised"
    );
    assert_eq!(
        common::participations(&world.db, action).await,
        1,
        "the loss counts as a participation"
    );
    assert_eq!(common::credit_jobs(&world.db, action).await, 0);
    // A claim of uncredited participations does not find it either.
    let mut conn = world.db.acquire().await.expect("conn");
    let owed = domain::wallet::rewards::uncredited_participations(&mut conn, world.member_id)
        .await
        .expect("owed");
    assert!(owed.is_empty(), "{owed:?}");
}

#[testkit::db_test]
async fn a_submission_sent_again_or_many_times_at_once_pays_once(db: PgPool) {
    let world = world(db).await;
    let (action, id) =
        research_activity(&world.db, world.station_id, 6, quiz_questions(), |_| {}).await;
    let questions = layout(&world.research(id).await);
    for (n, (question, options)) in questions.iter().enumerate() {
        let answer = world
            .answer(
                id,
                *question,
                json!({ "options": [option_id(options, &format!("Certa {}", n + 1))] }),
            )
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
    let attempt = world.research(id).await["attempt_id"]
        .as_i64()
        .expect("attempt");
    let body = json!({ "action_id": action, "research": id, "attempt_id": attempt });
    let calls = (0..10).map(|_| world.submit("/api/answer-quiz", body.clone()));
    let answers = futures_util::future::join_all(calls).await;
    let created: Vec<_> = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .collect();
    assert_eq!(
        created.len(),
        1,
        "{:?}",
        answers.iter().map(|a| &a.text).collect::<Vec<_>>()
    );
    for answer in answers.iter().filter(|a| a.status != StatusCode::CREATED) {
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        assert_eq!(answer.json()["recorded"], false);
        assert_eq!(
            answer.json()["participation_id"],
            created[0].json()["participation_id"]
        );
    }
    assert_eq!(common::participations(&world.db, action).await, 1);
    assert_eq!(common::credit_jobs(&world.db, action).await, 1);

    // A survey of limit 1 sent at once by many requests without an attempt: one passes.
    let (survey, survey_id) = research_activity(
        &world.db,
        world.station_id,
        8,
        vec![question("Gostou?", 3, vec![])],
        |a| a.limit_per_user = Some(1),
    )
    .await;
    let question_id = layout(&world.research(survey_id).await)[0].0;
    let body = json!({ "action_id": survey, "research": survey_id,
                       "answers": [{ "question": question_id, "answer": "Sim" }] });
    let answers =
        futures_util::future::join_all((0..8).map(|_| world.submit("/api/answer", body.clone())))
            .await;
    let statuses: Vec<_> = answers.iter().map(|a| a.status).collect();
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::CREATED)
            .count(),
        1,
        "{statuses:?}"
    );
    for answer in answers.iter().filter(|a| a.status != StatusCode::CREATED) {
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            answer.json()["messages"],
            json!(["Olá, você já ultrapassou o limite de participações nessa atividade!"])
        );
    }
    assert_eq!(common::participations(&world.db, survey).await, 1);
    assert_eq!(common::credit_jobs(&world.db, survey).await, 1);
}

#[testkit::db_test]
async fn surveys_score_each_question_type_from_the_stored_answers(db: PgPool) {
    let world = world(db).await;
    let (action, id) = research_activity(
        &world.db,
        world.station_id,
        11,
        vec![
            question("Única", 1, vec![option("A", true), option("B", false)]),
            question(
                "Várias",
                2,
                vec![option("C", true), option("D", true), option("E", false)],
            ),
            question("Subconjunto", 2, vec![option("F", true), option("G", true)]),
            question("Texto", 3, vec![]),
            question("Outra", 4, vec![option("H", false)]),
            question("Várias com outra", 5, vec![option("I", false)]),
        ],
        |_| {},
    )
    .await;
    let q = layout(&world.research(id).await);
    let put = |n: usize, body: Value| world.answer(id, q[n].0, body);
    // Field errors, in the spec's texts; nothing saved by them.
    for (n, body, message) in [
        (
            0,
            json!({ "options": [option_id(&q[0].1, "A"), option_id(&q[0].1, "B")] }),
            "Apenas uma opção por pergunta",
        ),
        (
            0,
            json!({ "options": [option_id(&q[1].1, "C")] }),
            "Opção inválida.",
        ),
        (0, json!({ "options": [] }), "Esse campo é obrigatório"),
        (3, json!({ "text": "   " }), "Esse campo é obrigatório"),
        (
            3,
            json!({ "text": "a".repeat(601) }),
            "Esse campo deve possuir no máximo 600 caracteres",
        ),
        (
            4,
            json!({ "options": [option_id(&q[4].1, "H")], "other": "Outra" }),
            "Apenas uma opção por pergunta",
        ),
    ] {
        let answer = put(n, body.clone()).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            answer.text
        );
        assert_eq!(answer.json()["messages"], json!([message]), "{body}");
    }
    assert_eq!(
        world.research(id).await["attempt_id"],
        Value::Null,
        "a refused answer opens nothing"
    );
    // A survey answer has no verdict and may be changed.
    let first = put(0, json!({ "options": [option_id(&q[0].1, "B")] })).await;
    assert_eq!(first.json()["verdict"], Value::Null);
    put(0, json!({ "options": [option_id(&q[0].1, "A")] })).await;
    put(
        1,
        json!({ "options": [option_id(&q[1].1, "D"), option_id(&q[1].1, "C")] }),
    )
    .await;
    put(2, json!({ "options": [option_id(&q[2].1, "F")] })).await;
    // The required text and "other" answers are still missing.
    let missing = world
        .submit(
            "/api/answer",
            json!({ "action_id": action, "research": id }),
        )
        .await;
    assert_eq!(missing.json()["messages"], json!([UNANSWERED]));
    // Sent with the submission, in the spec's payload.
    let done = world
        .submit(
            "/api/answer",
            json!({ "action_id": action, "research": id, "correct_answer_percentage": 1,
                    "answers": [
                        { "question": q[3].0, "answer": "Gosto do clube" },
                        { "question": q[4].0, "other": "Nenhuma destas" },
                    ] }),
        )
        .await;
    assert_eq!(done.status, StatusCode::CREATED, "{}", done.text);
    let result = done.json();
    // Right: the single choice and the exact set; the subset is wrong; 3 of 6 keyed or not.
    assert_eq!(result["correct_count"], 2);
    assert_eq!(
        result["answered_count"], 5,
        "the multiple choice with other left empty"
    );
    assert!(
        (result["correct_answer_percentage"]
            .as_f64()
            .expect("a number")
            - 2.0 / 6.0)
            .abs()
            < 1e-9
    );
    assert_eq!(result["won"], Value::Null);
    assert_eq!(
        result["questions"]
            .as_array()
            .expect("a list")
            .iter()
            .map(|q| q["correct"].clone())
            .collect::<Vec<_>>(),
        vec![
            json!(true),
            json!(true),
            json!(false),
            Value::Null,
            Value::Null,
            Value::Null
        ]
    );
    let stored: (Option<String>, Option<String>) = sqlx::query_as(
        "SELECT (SELECT text FROM research_answers WHERE question_id = $1),
                (SELECT other FROM research_answers WHERE question_id = $2)",
    )
    .bind(q[3].0)
    .bind(q[4].0)
    .fetch_one(&world.db)
    .await
    .expect("stored");
    assert_eq!(
        stored,
        (Some("Gosto do clube".into()), Some("Nenhuma destas".into()))
    );
}

#[testkit::db_test]
async fn the_window_the_limit_and_the_prerequisites_hold_on_every_save(db: PgPool) {
    let world = world(db).await;
    let text = || vec![question("Conte", 3, vec![])];
    let (_, closed) = research_activity(&world.db, world.station_id, 8, text(), |a| {
        a.participation_end = Some(Utc::now() - Duration::hours(1));
    })
    .await;
    let (first, _) = research_activity(&world.db, world.station_id, 16, vec![], |_| {}).await;
    let (_, gated) = research_activity(&world.db, world.station_id, 8, text(), |a| {
        a.prerequisites = vec![ActivityId(first)];
        a.name = "Depois".into();
    })
    .await;
    let (once, limited) = research_activity(&world.db, world.station_id, 8, text(), |a| {
        a.limit_per_user = Some(1)
    })
    .await;
    for (id, start) in [
        (closed, "Esta atividade está disponível de"),
        (gated, "Complete antes: Atividade 16."),
    ] {
        let q = layout(&world.research(id).await)[0].0;
        let answer = world.answer(id, q, json!({ "text": "Oi" })).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            answer.text
        );
        assert!(
            answer.json()["messages"][0]
                .as_str()
                .expect("a text")
                .starts_with(start),
            "{}",
            answer.text
        );
    }
    let q = layout(&world.research(limited).await)[0].0;
    world.answer(limited, q, json!({ "text": "Oi" })).await;
    let done = world
        .submit(
            "/api/answer",
            json!({ "action_id": once, "research": limited }),
        )
        .await;
    assert_eq!(done.status, StatusCode::CREATED, "{}", done.text);
    // Past the limit a new attempt cannot even start.
    let again = world.answer(limited, q, json!({ "text": "De novo" })).await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        again.json()["messages"],
        json!(["Olá, você já ultrapassou o limite de participações nessa atividade!"])
    );
    // The activity named must be the research's.
    let mismatch = world
        .submit(
            "/api/answer",
            json!({ "action_id": first, "research": limited }),
        )
        .await;
    assert_eq!(mismatch.status, StatusCode::NOT_FOUND);
}

#[testkit::db_test]
async fn other_stations_researches_and_other_members_attempts_are_out_of_reach(db: PgPool) {
    let world = world(db).await;
    let (action, id) =
        research_activity(&world.db, world.station_id, 6, quiz_questions(), |_| {}).await;
    let elsewhere = insert_station(&world.db, "longe").await;
    let (_, foreign) = research_activity(&world.db, elsewhere, 6, quiz_questions(), |_| {}).await;
    let (_, unpublished) = research_activity(
        &world.db,
        world.station_id,
        8,
        vec![question("X", 3, vec![])],
        |a| a.active = false,
    )
    .await;
    for research in [foreign, unpublished, 999_999] {
        let answer = world.get(&format!("/api/research/{research}")).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND);
        assert_eq!(answer.json()["error"], UNAVAILABLE);
    }
    let foreign_question = {
        let mut conn = world.db.acquire().await.expect("conn");
        let question: i64 =
            sqlx::query_scalar("SELECT id FROM research_questions WHERE research_id = $1 LIMIT 1")
                .bind(foreign)
                .fetch_one(&mut *conn)
                .await
                .expect("question");
        question
    };
    let answer = world
        .answer(foreign, foreign_question, json!({ "options": [] }))
        .await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    // Another research's question through this research is no question of it.
    let answer = world
        .answer(id, foreign_question, json!({ "options": [] }))
        .await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(
        world
            .get(&format!("/api/quizzes/establishment/{elsewhere}"))
            .await
            .status,
        StatusCode::FORBIDDEN
    );

    // Maria answers; João, of the same station, sees none of it and cannot submit it.
    let questions = layout(&world.research(id).await);
    for (n, (question, options)) in questions.iter().enumerate() {
        world
            .answer(
                id,
                *question,
                json!({ "options": [option_id(options, &format!("Certa {}", n + 1))] }),
            )
            .await;
    }
    let attempt = world.research(id).await["attempt_id"]
        .as_i64()
        .expect("attempt");
    let joao = insert_member(&world.db, world.station_id, "joao@example.com").await;
    let joao_token = session_of(&world.db, joao).await;
    let seen = common::call(
        &world.app,
        "GET",
        &format!("/api/research/{id}"),
        Some(&joao_token),
        &[],
    )
    .await;
    assert_eq!(seen.json()["attempt_id"], Value::Null);
    assert_eq!(seen.json()["answers"], json!([]));
    let stolen = world
        .submit_as(
            &joao_token,
            "/api/answer-quiz",
            json!({ "action_id": action, "research": id, "attempt_id": attempt }),
        )
        .await;
    assert_eq!(stolen.status, StatusCode::NOT_FOUND, "{}", stolen.text);
    assert_eq!(common::participations(&world.db, action).await, 0);
    // Without a token there is nothing.
    let anonymous =
        common::call(&world.app, "GET", &format!("/api/research/{id}"), None, &[]).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

fn multipart(name: &str, bytes: &[u8]) -> (String, Vec<u8>) {
    let boundary = "filia-test-boundary";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
         Content-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

async fn upload(
    world: &World,
    research: i64,
    question: i64,
    name: &str,
    bytes: &[u8],
) -> common::Answer {
    let (content_type, body) = multipart(name, bytes);
    let request = Request::post(format!("/api/research/{research}/answers/{question}/file"))
        .header("authorization", format!("Bearer {}", world.token))
        .header("content-type", content_type)
        .body(Body::from(body))
        .expect("request");
    common::send(&world.app, request).await
}

#[testkit::db_test]
async fn file_answers_are_checked_by_content_and_size(db: PgPool) {
    let world = world(db).await;
    let (action, id) = research_activity(
        &world.db,
        world.station_id,
        8,
        vec![
            question("Vídeo", 6, vec![]),
            question("Documento", 7, vec![]),
        ],
        |_| {},
    )
    .await;
    let q = layout(&world.research(id).await);
    let pdf = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF".to_vec();
    let mp4 = b"\0\0\0\x18ftypisom\0\0\x02\0isomiso2".to_vec();
    for (n, name, bytes, why) in [
        (1, "nota.pdf", b"apenas texto".to_vec(), "text renamed .pdf"),
        (0, "video.mp4", pdf.clone(), "a PDF for a video"),
        (
            1,
            "grande.pdf",
            [pdf.as_slice(), &vec![b' '; 10_000_000]].concat(),
            "over 10 MB",
        ),
    ] {
        let answer = upload(&world, id, q[n].0, name, &bytes).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{why}: {}",
            answer.text
        );
        assert_eq!(
            answer.json()["messages"],
            json!(["Tamanho ou formato inválido"]),
            "{why}"
        );
    }
    // A text answer is no answer to a file question.
    let text = world.answer(id, q[1].0, json!({ "text": "Segue" })).await;
    assert_eq!(
        text.json()["messages"],
        json!(["Envie o arquivo da resposta."])
    );
    let video = upload(&world, id, q[0].0, "meu video.mp4", &mp4).await;
    assert_eq!(video.status, StatusCode::OK, "{}", video.text);
    assert_eq!(video.json()["file"], json!({ "name": "meu video.mp4" }));
    let document = upload(&world, id, q[1].0, "comprovante.pdf", &pdf).await;
    assert_eq!(document.status, StatusCode::OK, "{}", document.text);
    let replaced = upload(&world, id, q[1].0, "comprovante-2.pdf", &pdf).await;
    assert_eq!(replaced.json()["file"]["name"], "comprovante-2.pdf");
    let stored: Vec<String> =
        sqlx::query_scalar("SELECT file_key FROM research_answers ORDER BY question_id")
            .fetch_all(&world.db)
            .await
            .expect("keys");
    assert!(
        stored
            .iter()
            .all(|key| key.ends_with(".mp4") || key.ends_with(".pdf")),
        "{stored:?}"
    );
    let done = world
        .submit(
            "/api/answer",
            json!({ "action_id": action, "research": id }),
        )
        .await;
    assert_eq!(done.status, StatusCode::CREATED, "{}", done.text);
}

#[testkit::db_test]
async fn a_polls_results_show_once_the_member_has_voted(db: PgPool) {
    let world = world(db).await;
    let (action, id) = research_activity(
        &world.db,
        world.station_id,
        10,
        vec![question(
            "Tema?",
            1,
            vec![option("Finanças", false), option("Saúde", false)],
        )],
        |_| {},
    )
    .await;
    let locked = world.get(&format!("/api/research/{id}/results")).await;
    assert_eq!(locked.status, StatusCode::FORBIDDEN);
    assert_eq!(
        locked.json()["messages"],
        json!(["Responda a enquete para ver o resultado."])
    );
    let q = layout(&world.research(id).await);
    let saude = option_id(&q[0].1, "Saúde");
    // Another member voted too; an unsubmitted vote does not count.
    let ana = insert_member(&world.db, world.station_id, "ana@example.com").await;
    let ana_token = session_of(&world.db, ana).await;
    let body = json!({ "action_id": action, "research": id, "answers": [{ "question": q[0].0, "options": [saude] }] });
    assert_eq!(
        world
            .submit_as(&ana_token, "/api/answer", body.clone())
            .await
            .status,
        StatusCode::CREATED
    );
    let carlos = insert_member(&world.db, world.station_id, "carlos@example.com").await;
    let carlos_token = session_of(&world.db, carlos).await;
    world
        .answer_as(&carlos_token, id, q[0].0, json!({ "options": [saude] }))
        .await;
    assert_eq!(
        world.submit("/api/answer", body.clone()).await.status,
        StatusCode::CREATED
    );
    // Ana votes again for the same: her latest vote counts, once.
    assert_eq!(
        world
            .submit_as(&ana_token, "/api/answer", body)
            .await
            .status,
        StatusCode::CREATED
    );
    let results = world.get(&format!("/api/research/{id}/results")).await;
    assert_eq!(results.status, StatusCode::OK, "{}", results.text);
    assert_eq!(results.json()["respondents"], 2);
    assert_eq!(
        results.json()["questions"][0]["options"],
        json!([
            { "id": option_id(&q[0].1, "Finanças"), "label": "Finanças", "count": 0 },
            { "id": saude, "label": "Saúde", "count": 2 },
        ])
    );
    // A survey without a chart has no results call.
    let (_, other) = research_activity(
        &world.db,
        world.station_id,
        9,
        vec![question("X", 2, vec![option("Y", false)])],
        |_| {},
    )
    .await;
    assert_eq!(
        world
            .get(&format!("/api/research/{other}/results"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[testkit::db_test]
async fn the_quiz_list_holds_the_stations_published_quizzes(db: PgPool) {
    let world = world(db).await;
    let (quiz, research_id) =
        research_activity(&world.db, world.station_id, 6, quiz_questions(), |a| {
            a.name = "Quiz A".into()
        })
        .await;
    research_activity(
        &world.db,
        world.station_id,
        8,
        vec![question("X", 3, vec![])],
        |_| {},
    )
    .await;
    research_activity(&world.db, world.station_id, 6, quiz_questions(), |a| {
        a.active = false
    })
    .await;
    let list = world
        .get(&format!("/api/quizzes/establishment/{}", world.station_id))
        .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let body = list.json();
    assert_eq!(body.as_array().expect("list").len(), 1, "{body}");
    assert_eq!(body[0]["id"], quiz);
    assert_eq!(body[0]["research_id"], research_id);
    assert_eq!(body[0]["question_count"], 3);
    assert_eq!(body[0]["cashback"], 40);
    assert_eq!(body[0]["availability"], "open");
    assert!(body[0]["expiration"].is_string());
    assert!(!list.text.contains("correct"));
}

#[testkit::db_test]
async fn a_personality_test_answers_the_profile_its_options_point_to(db: PgPool) {
    let world = world(db).await;
    let action_id = catalogue::create(
        &world.db,
        &NewActivity {
            station_id: world.station_id,
            type_id: ActivityType::PersonalityTest,
            name: "Perfil".into(),
            participation_start: Some(Utc::now() - Duration::days(1)),
            participation_end: Some(Utc::now() + Duration::days(1)),
            active: true,
            ..NewActivity::default()
        },
    )
    .await
    .expect("activity");
    let pointing = |label: &str, feedback| NewOption {
        label: label.into(),
        correct: false,
        feedback: Some(feedback),
    };
    let mut conn = world.db.acquire().await.expect("conn");
    let id = research::create(
        &mut conn,
        &NewResearch {
            action_id,
            name: "Perfil".into(),
            synopsis: String::new(),
            questions: (1..=3)
                .map(|n| NewQuestion {
                    question: format!("P{n}"),
                    type_id: 1,
                    options: vec![pointing("Calmo", 0), pointing("Ousado", 1)],
                    ..NewQuestion::default()
                })
                .collect(),
            feedbacks: ["<p>Conservador</p>", "<p>Arrojado</p>"]
                .map(|feedback| NewFeedback {
                    range_from: 0,
                    range_to: 100,
                    feedback: feedback.into(),
                    feedback_lottie_id: None,
                })
                .to_vec(),
        },
    )
    .await
    .expect("research");
    drop(conn);
    let q = layout(&world.research(id).await);
    let answers: Vec<Value> = q
        .iter()
        .zip(["Ousado", "Calmo", "Ousado"])
        .map(|((question, options), label)| json!({ "question": question, "options": [option_id(options, label)] }))
        .collect();
    let unanswered = world
        .submit(
            "/api/answer",
            json!({ "action_id": action_id, "research": id, "answers": &answers[..2] }),
        )
        .await;
    assert_eq!(unanswered.json()["messages"], json!([UNANSWERED]));
    let done = world
        .submit(
            "/api/answer",
            json!({ "action_id": action_id, "research": id, "answers": answers }),
        )
        .await;
    assert_eq!(done.status, StatusCode::CREATED, "{}", done.text);
    assert_eq!(done.json()["feedback"]["feedback"], "<p>Arrojado</p>");
    assert_eq!(done.json()["correct_answer_percentage"], Value::Null);
}

#[testkit::db_test]
async fn without_a_limit_a_quiz_or_a_survey_pays_a_member_once(db: PgPool) {
    let world = world(db).await;
    let (action, id) =
        research_activity(&world.db, world.station_id, 6, quiz_questions(), |_| {}).await;
    // Once the key is known, every replay is a first-try win: only the first pays.
    for play in 1..=3 {
        let questions = layout(&world.research(id).await);
        for (n, (question, options)) in questions.iter().enumerate() {
            let right = option_id(options, &format!("Certa {}", n + 1));
            world
                .answer(id, *question, json!({ "options": [right] }))
                .await;
        }
        let done = world
            .submit(
                "/api/answer-quiz",
                json!({ "action_id": action, "research": id }),
            )
            .await;
        assert_eq!(done.status, StatusCode::CREATED, "{}", done.text);
        assert_eq!(done.json()["won"], true);
        assert_eq!(done.json()["earned"], play == 1, "play {play}");
    }
    assert_eq!(common::participations(&world.db, action).await, 3);
    assert_eq!(common::credit_jobs(&world.db, action).await, 1);

    // A survey sent again and again, in one call each: one credit.
    let (survey, survey_id) = research_activity(
        &world.db,
        world.station_id,
        8,
        vec![question("Gostou?", 3, vec![])],
        |_| {},
    )
    .await;
    let question_id = layout(&world.research(survey_id).await)[0].0;
    for _ in 0..3 {
        let body = json!({ "action_id": survey, "research": survey_id,
                           "answers": [{ "question": question_id, "answer": "Sim" }] });
        assert_eq!(
            world.submit("/api/answer", body).await.status,
            StatusCode::CREATED
        );
    }
    assert_eq!(common::credit_jobs(&world.db, survey).await, 1);
    // A claim finds only the two first participations, already queued.
    let mut conn = world.db.acquire().await.expect("conn");
    let owed = domain::wallet::rewards::uncredited_participations(&mut conn, world.member_id)
        .await
        .expect("owed");
    assert_eq!(owed.len(), 2, "{owed:?}");
}

#[testkit::db_test]
async fn an_empty_quiz_answer_spends_no_try(db: PgPool) {
    let world = world(db).await;
    let (_, id) = research_activity(
        &world.db,
        world.station_id,
        6,
        vec![question(
            "Quais?",
            2,
            vec![option("A", true), option("B", true), option("C", false)],
        )],
        |_| {},
    )
    .await;
    let q = layout(&world.research(id).await);
    let empty = world.answer(id, q[0].0, json!({ "options": [] })).await;
    assert_eq!(
        empty.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        empty.text
    );
    assert_eq!(
        empty.json()["messages"],
        json!(["Esse campo é obrigatório"])
    );
    let both = [option_id(&q[0].1, "A"), option_id(&q[0].1, "B")];
    let right = world.answer(id, q[0].0, json!({ "options": both })).await;
    assert_eq!(right.json()["verdict"]["correct"], true);
    let first_try: Option<bool> =
        sqlx::query_scalar("SELECT first_try_correct FROM research_answers WHERE question_id = $1")
            .bind(q[0].0)
            .fetch_one(&world.db)
            .await
            .expect("answer");
    assert_eq!(first_try, Some(true));
}
