//! Accounting consultancy over HTTP against the real database: the member's cases and
//! appointments by CPF, the Thursday-only request, and a station without the desk.

use crate::common::insert_station;
use crate::services_common::{
    MEMBER_CPF, SENT, UNAVAILABLE, ids, insert_appointment, insert_case, mails_of, messages, offer,
    refused, world,
};
use axum::http::StatusCode;
use chrono::{Duration, NaiveDate, Utc};
use serde_json::json;
use sqlx::PgPool;

const PROCESSES: &str = "/api/accounting-processes";
const APPOINTMENTS: &str = "/api/accounting-appointments";

#[testkit::db_test]
async fn the_member_sees_their_accounting_cases_and_appointments(db: PgPool) {
    let w = world(db).await;
    let day = NaiveDate::from_ymd_opt(2025, 4, 2);
    let case = insert_case(
        &w.db,
        w.station_id,
        "accounting",
        MEMBER_CPF,
        "IR-2025",
        day,
    )
    .await;
    insert_case(&w.db, w.station_id, "legal", MEMBER_CPF, "0001", day).await;
    insert_case(
        &w.db,
        w.station_id,
        "accounting",
        "11144477735",
        "IR-0002",
        day,
    )
    .await;
    let other = insert_station(&w.db, "vizinho").await;
    insert_case(&w.db, other, "accounting", MEMBER_CPF, "IR-0003", day).await;

    let answer = w.get(PROCESSES).await;
    assert_eq!(ids(&answer), [case]);
    assert_eq!(
        answer.json()[0],
        json!({
            "id": case, "numeroProcesso": "IR-2025", "tipo": "Trabalhista",
            "situacao": "Em andamento", "dataProtocolo": "2025-04-02", "tribunalOrgao": "TRT-2",
            "valorCausa": 1250000, "linkProcesso": "https://processos.example.com/IR-2025",
        })
    );

    let mut confirmed = w.row("accounting", "confirmed");
    confirmed.scheduled_at = Some(Utc::now() + Duration::days(3));
    let confirmed = insert_appointment(&w.db, &confirmed).await;
    insert_appointment(&w.db, &w.row("legal", "requested")).await;
    let mut theirs = w.row("accounting", "requested");
    theirs.cpf = "11144477735".into();
    insert_appointment(&w.db, &theirs).await;
    let answer = w.get(APPOINTMENTS).await;
    assert_eq!(ids(&answer), [confirmed]);
    assert_eq!(answer.json()[0]["situacao"], "Agendado");
    assert_eq!(answer.json()[0]["descricao"], "Dúvida");
}

#[testkit::db_test]
async fn accounting_attends_on_thursdays_only(db: PgPool) {
    let w = world(db).await;
    for day in [json!("Quarta-feira"), json!("Segunda-feira"), json!(3)] {
        let answer = w
            .post(
                APPOINTMENTS,
                &json!({ "date": day, "description": "Imposto de renda" }),
            )
            .await;
        refused(
            "post",
            APPOINTMENTS,
            &answer,
            StatusCode::UNPROCESSABLE_ENTITY,
            "date: Este serviço não atende neste dia.",
        );
    }
    let answer = w
        .post(
            APPOINTMENTS,
            &json!({ "date": "Quinta-feira", "description": "Imposto de renda" }),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    assert_eq!(answer.json()["message"], SENT);
    let id = answer.json()["id"].as_i64().expect("id");
    let (service, weekday): (String, i16) =
        sqlx::query_as("SELECT service, preferred_weekday FROM service_appointments WHERE id = $1")
            .bind(id)
            .fetch_one(&w.db)
            .await
            .expect("stored");
    assert_eq!((service.as_str(), weekday), ("accounting", 4));
    let recipients: Vec<String> = mails_of(&w.db, id).await.into_iter().map(|m| m.0).collect();
    assert_eq!(
        recipients,
        ["accounting@sindicato.example.com", "maria@example.com"]
    );
    let missing = w
        .post(APPOINTMENTS, &json!({ "date": "Quinta-feira" }))
        .await;
    assert_eq!(
        messages(&missing),
        ["description: Esse campo é obrigatório"]
    );
}

#[testkit::db_test]
async fn a_station_without_accounting_answers_none_of_it(db: PgPool) {
    let w = world(db).await;
    offer(&w.db, w.station_id, &["legal"]).await;
    for path in [PROCESSES, APPOINTMENTS] {
        let answer = w.get(path).await;
        refused("get", path, &answer, StatusCode::NOT_FOUND, UNAVAILABLE);
    }
    let answer = w
        .post(
            APPOINTMENTS,
            &json!({ "date": "Quinta-feira", "description": "x" }),
        )
        .await;
    refused(
        "post",
        APPOINTMENTS,
        &answer,
        StatusCode::NOT_FOUND,
        UNAVAILABLE,
    );
}
