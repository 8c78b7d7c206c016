//! Health appointment requests over HTTP against the real database: the three forms
//! (their paths spelt as the contract spells them), each service's weekdays, the phone,
//! one hourly allowance for the health desk, and a station without health services.

use crate::services_common::{
    MEMBER_CPF, SENT, TOO_MANY, UNAVAILABLE, mails_of, messages, offer, refused, world,
};
use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;

const DENTAL: &str = "/api/health/dentalAppointments";
const PSYCHOLOGIST: &str = "/api/health/psychologistAappointments";
const NUTRITIONIST: &str = "/api/health/nutritionistAppointments";
const NOT_ATTENDED: &str = "date: Este serviço não atende neste dia.";

fn form(date: &str, phone: &str) -> serde_json::Value {
    json!({ "description": "Consulta de rotina", "date": date, "phone": phone })
}

#[testkit::db_test]
async fn each_health_service_takes_requests_on_its_own_days(db: PgPool) {
    let w = world(db).await;
    let cases = [
        (DENTAL, "Sábado", "dental", 6),
        (PSYCHOLOGIST, "Sexta-feira", "psychologist", 5),
        (NUTRITIONIST, "Terça-feira", "nutritionist", 2),
    ];
    for (path, day, service, weekday) in cases {
        let answer = w.post(path, &form(day, "(11) 9.8765-4321")).await;
        assert_eq!(
            answer.status,
            StatusCode::CREATED,
            "{path}: {}",
            answer.text
        );
        assert_eq!(answer.json()["message"], SENT);
        let id = answer.json()["id"].as_i64().expect("id");
        let stored: (String, String, i16, Option<String>, Option<i64>) = sqlx::query_as(
            "SELECT service, cpf, preferred_weekday, phone, user_id
               FROM service_appointments WHERE id = $1",
        )
        .bind(id)
        .fetch_one(&w.db)
        .await
        .expect("stored");
        assert_eq!(
            stored,
            (
                service.to_string(),
                MEMBER_CPF.to_string(),
                weekday,
                Some("11987654321".to_string()),
                Some(w.member_id)
            )
        );
        let recipients: Vec<String> = mails_of(&w.db, id).await.into_iter().map(|m| m.0).collect();
        assert_eq!(
            recipients,
            ["health@sindicato.example.com", "maria@example.com"]
        );
    }
    for (path, day) in [
        (PSYCHOLOGIST, "Sábado"),
        (NUTRITIONIST, "Segunda-feira"),
        (NUTRITIONIST, "Sexta-feira"),
        (DENTAL, "Domingo"),
    ] {
        let answer = w.post(path, &form(day, "11987654321")).await;
        refused(
            "post",
            path,
            &answer,
            StatusCode::UNPROCESSABLE_ENTITY,
            NOT_ATTENDED,
        );
    }
}

#[testkit::db_test]
async fn the_phone_is_required_and_has_10_or_11_digits(db: PgPool) {
    let w = world(db).await;
    let missing = w
        .post(
            DENTAL,
            &json!({ "description": "Limpeza", "date": "Segunda-feira" }),
        )
        .await;
    assert_eq!(messages(&missing), ["phone: Esse campo é obrigatório"]);
    for phone in [
        "(11) 9876-543",
        "+55 11 98765-4321",
        "119876543210",
        "telefone",
    ] {
        let answer = w.post(DENTAL, &form("Segunda-feira", phone)).await;
        assert_eq!(messages(&answer), ["phone: Telefone inválido"], "{phone}");
    }
    let landline = w
        .post(DENTAL, &form("Segunda-feira", "(11) 3333-4444"))
        .await;
    assert_eq!(landline.status, StatusCode::CREATED, "{}", landline.text);
    let empty = w.post(NUTRITIONIST, &json!({})).await;
    assert_eq!(
        messages(&empty),
        [
            "date: Esse campo é obrigatório",
            "description: Esse campo é obrigatório",
            "phone: Esse campo é obrigatório"
        ]
    );
}

#[testkit::db_test]
async fn the_health_desk_takes_five_requests_an_hour_from_a_member_across_its_services(db: PgPool) {
    let w = world(db).await;
    for path in [DENTAL, DENTAL, PSYCHOLOGIST, NUTRITIONIST, DENTAL] {
        let answer = w.post(path, &form("Terça-feira", "11987654321")).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    }
    let sixth = w
        .post(PSYCHOLOGIST, &form("Terça-feira", "11987654321"))
        .await;
    refused(
        "post",
        PSYCHOLOGIST,
        &sixth,
        StatusCode::TOO_MANY_REQUESTS,
        TOO_MANY,
    );
    assert!(sixth.headers.contains_key("retry-after"));
}

#[testkit::db_test]
async fn a_station_without_health_services_answers_none_of_them(db: PgPool) {
    let w = world(db).await;
    offer(&w.db, w.station_id, &["legal", "accounting"]).await;
    for path in [DENTAL, PSYCHOLOGIST, NUTRITIONIST] {
        let answer = w.post(path, &form("Terça-feira", "11987654321")).await;
        refused("post", path, &answer, StatusCode::NOT_FOUND, UNAVAILABLE);
    }
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM service_appointments")
        .fetch_one(&w.db)
        .await
        .expect("count");
    assert_eq!(stored, 0);
}
