//! What the member services' tests share: a station offering the legal, accounting and
//! health desks (each with an address), a member with a CPF and an e-mail, and the rows
//! the desk or an import would record (appointments, cases, offices).

#![allow(dead_code)]

use crate::common::{self, Answer, call, off_contract, send_json, session_of};
use axum::Router;
use axum::http::StatusCode;
use chrono::{DateTime, NaiveDate, Utc};
use serde_json::Value;
use sqlx::PgPool;
use testkit::build;

pub const UNAVAILABLE: &str = "Serviço não disponível.";
pub const SENT: &str = "Solicitação enviada com sucesso.";
pub const TOO_MANY: &str =
    "Muitas solicitações em pouco tempo. Aguarde alguns minutos e tente novamente.";
pub const MEMBER_CPF: &str = "52998224725";
pub const MEMBER_MAIL: &str = "maria@example.com";

pub struct World {
    pub app: Router,
    pub db: PgPool,
    pub station_id: i64,
    pub member_id: i64,
    pub token: String,
}

/// A station in `America/Manaus` (UTC-4, no daylight saving) offering legal, accounting
/// and health, each desk with its address, and its member Maria (CPF, e-mail).
pub async fn world(db: PgPool) -> World {
    let station_id = build::station("sindicato")
        .time_zone("America/Manaus")
        .insert(&db)
        .await;
    offer(&db, station_id, &["legal", "accounting", "health"]).await;
    for desk in ["legal", "accounting", "health"] {
        desk_row(
            &db,
            station_id,
            desk,
            Some(&format!("{desk}@sindicato.example.com")),
        )
        .await;
    }
    let member_id = build::member(station_id)
        .name("Maria Souza")
        .email(MEMBER_MAIL)
        .cpf(MEMBER_CPF)
        .insert(&db)
        .await;
    let token = session_of(&db, member_id).await;
    World {
        app: common::app(db.clone()),
        db,
        station_id,
        member_id,
        token,
    }
}

/// Turns the desks on (and every other off) for the station.
pub async fn offer(db: &PgPool, station_id: i64, desks: &[&str]) {
    sqlx::query(
        "UPDATE stations SET legal_access = 'legal' = ANY($2),
                             accounting_access = 'accounting' = ANY($2),
                             health_access = 'health' = ANY($2),
                             political_access = 'political' = ANY($2)
          WHERE id = $1",
    )
    .bind(station_id)
    .bind(desks)
    .execute(db)
    .await
    .expect("desks");
}

pub async fn desk_row(db: &PgPool, station_id: i64, desk: &str, email: Option<&str>) {
    sqlx::query(
        "INSERT INTO service_desks (station_id, service, email) VALUES ($1, $2, $3)
         ON CONFLICT (station_id, service) DO UPDATE SET email = EXCLUDED.email",
    )
    .bind(station_id)
    .bind(desk)
    .bind(email)
    .execute(db)
    .await
    .expect("desk");
}

pub async fn office(db: &PgPool, station_id: i64, service: &str, name: &str) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO service_offices (station_id, service, name) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(station_id)
    .bind(service)
    .bind(name)
    .fetch_one(db)
    .await
    .expect("office")
}

/// An appointment as the desk or an import records it.
#[derive(Debug, Clone)]
pub struct Row {
    pub station_id: i64,
    pub service: &'static str,
    pub cpf: String,
    pub status: &'static str,
    pub scheduled_at: Option<DateTime<Utc>>,
    pub office_id: Option<i64>,
    pub description: String,
    pub preferred_weekday: Option<i16>,
    pub created_at: DateTime<Utc>,
}

impl World {
    pub fn row(&self, service: &'static str, status: &'static str) -> Row {
        Row {
            station_id: self.station_id,
            service,
            cpf: MEMBER_CPF.into(),
            status,
            scheduled_at: None,
            office_id: None,
            description: "Dúvida".into(),
            preferred_weekday: Some(4),
            created_at: Utc::now(),
        }
    }

    pub async fn get(&self, path: &str) -> Answer {
        call(&self.app, "GET", path, Some(&self.token), &[]).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> Answer {
        send_json(&self.app, "POST", path, Some(&self.token), &[], body).await
    }

    /// Another member of the station: their id and session.
    pub async fn member(&self, email: &str, cpf: Option<&str>) -> (i64, String) {
        let mut member = build::member(self.station_id).email(email);
        if let Some(cpf) = cpf {
            member = member.cpf(cpf);
        }
        let id = member.insert(&self.db).await;
        (id, session_of(&self.db, id).await)
    }
}

pub async fn insert_appointment(db: &PgPool, row: &Row) -> i64 {
    let cancelled_by = (row.status == "cancelled").then_some("staff");
    sqlx::query_scalar(
        "INSERT INTO service_appointments
             (station_id, service, cpf, status, scheduled_at, office_id, description,
              preferred_weekday, cancelled_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
    )
    .bind(row.station_id)
    .bind(row.service)
    .bind(&row.cpf)
    .bind(row.status)
    .bind(row.scheduled_at)
    .bind(row.office_id)
    .bind(&row.description)
    .bind(row.preferred_weekday)
    .bind(cancelled_by)
    .bind(row.created_at)
    .fetch_one(db)
    .await
    .expect("appointment")
}

/// A case of `service` under `cpf`, filed on `filed_on`.
pub async fn insert_case(
    db: &PgPool,
    station_id: i64,
    service: &str,
    cpf: &str,
    number: &str,
    filed_on: Option<NaiveDate>,
) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO service_cases
             (station_id, service, cpf, case_number, kind, situation, filed_on, court, title,
              claim_cents, link, collective)
         VALUES ($1, $2, $3, $4, 'Trabalhista', 'Em andamento', $5, 'TRT-2', 'Horas extras',
                 1250000, 'https://processos.example.com/' || $4, true)
         RETURNING id",
    )
    .bind(station_id)
    .bind(service)
    .bind(cpf)
    .bind(number)
    .bind(filed_on)
    .fetch_one(db)
    .await
    .expect("case")
}

/// The `mail.send` jobs about appointment `id`: recipient, subject and owner.
pub async fn mails_of(db: &PgPool, id: i64) -> Vec<(String, String, Option<i64>)> {
    let mut mails: Vec<(String, String, Option<i64>)> = sqlx::query_as(
        "SELECT convert_from(j.job, 'UTF8')::jsonb -> 'args' -> 'mail' ->> 'to',
                convert_from(j.job, 'UTF8')::jsonb -> 'args' -> 'mail' ->> 'subject',
                r.user_id
           FROM job_records r JOIN apalis.jobs j ON j.id = r.job_id
          WHERE r.subject_kind = 'service_appointment' AND r.subject_id = $1
            AND j.job_type = 'mail.send'",
    )
    .bind(id.to_string())
    .fetch_all(db)
    .await
    .expect("mails");
    mails.sort();
    mails
}

/// A refusal as its contract gives it, with its status and its (first) text.
pub fn refused(method: &str, path: &str, answer: &Answer, status: StatusCode, text: &str) {
    assert_eq!(answer.status, status, "{}", answer.text);
    assert_eq!(off_contract(method, path, answer), None);
    let body = answer.json();
    let found = body["error"]
        .as_str()
        .map(String::from)
        .or_else(|| body["messages"][0].as_str().map(String::from));
    assert_eq!(found.as_deref(), Some(text), "{body}");
}

/// The 422's lines.
pub fn messages(answer: &Answer) -> Vec<String> {
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.text
    );
    serde_json::from_value(answer.json()["messages"].clone())
        .unwrap_or_else(|_| panic!("messages: {}", answer.text))
}

/// The ids of a list answer, in order.
pub fn ids(answer: &Answer) -> Vec<i64> {
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer
        .json()
        .as_array()
        .expect("a list")
        .iter()
        .map(|item| item["id"].as_i64().expect("id"))
        .collect()
}
