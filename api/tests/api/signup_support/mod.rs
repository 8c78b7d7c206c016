//! What the sign-up, activation, member-get-member and captcha tests share: stations of each
//! kind, form bodies, and reading the activation e-mails out of the job queue.

#![allow(dead_code)]

use serde_json::{Value, json};
use sqlx::PgPool;

/// Valid CPFs (check digits hold).
pub const CPF_A: &str = "529.982.247-25";
pub const CPF_A_DIGITS: &str = "52998224725";
pub const CPF_B: &str = "11144477735";
pub const CPF_C: &str = "39053344705";
pub const CNPJ: &str = "11.222.333/0001-81";
pub const PASSWORD: &str = "Senha123";

/// A station with a main establishment; `flags` are SQL assignments such as
/// `"affiliated = true"`. Answers (station id, establishment id).
pub async fn station(db: &PgPool, subdomain: &str, flags: &[&str]) -> (i64, i64) {
    let station_id: i64 = sqlx::query_scalar(
        "INSERT INTO stations (name, subdomain, url) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(format!("Clube {subdomain}"))
    .bind(subdomain)
    .bind(format!("https://{subdomain}.example.com"))
    .fetch_one(db)
    .await
    .expect("station");
    if !flags.is_empty() {
        // Test-only SQL from the test's own literals.
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE stations SET {} WHERE id = $1",
            flags.join(", ")
        )))
        .bind(station_id)
        .execute(db)
        .await
        .expect("flags");
    }
    let establishment_id: i64 = sqlx::query_scalar(
        "INSERT INTO establishments (station_id, is_main, cnpj, full_social_name)
         VALUES ($1, true, '11222333000181', 'Associação') RETURNING id",
    )
    .bind(station_id)
    .fetch_one(db)
    .await
    .expect("establishment");
    (station_id, establishment_id)
}

/// A multi-step sign-up body for a public station.
pub fn participant(station_id: i64, email: &str) -> Value {
    json!({
        "station_id": station_id,
        "email": email,
        "cpf": null,
        "name": "  Maria   da Silva ",
        "tel": "(11) 98765-4321",
        "password": PASSWORD,
        "password_confirmation": PASSWORD,
    })
}

/// Adds fields to a JSON object.
pub fn with(mut body: Value, extra: Value) -> Value {
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        for (key, value) in extra {
            body.insert(key.clone(), value.clone());
        }
    }
    body
}

/// The `mail.send` jobs queued, oldest first, as their `OutgoingMail`.
pub async fn mails(db: &PgPool) -> Vec<Value> {
    let payloads: Vec<Value> = sqlx::query_scalar(
        "SELECT convert_from(job, 'UTF8')::jsonb FROM apalis.jobs
          WHERE job_type = 'mail.send' ORDER BY id",
    )
    .fetch_all(db)
    .await
    .expect("jobs");
    payloads
        .into_iter()
        .map(|payload| payload["args"]["mail"].clone())
        .collect()
}

pub async fn last_mail_to(db: &PgPool, to: &str) -> Value {
    mails(db)
        .await
        .into_iter()
        .rev()
        .find(|mail| mail["to"] == to)
        .unwrap_or_else(|| panic!("no mail to {to}"))
}

/// The 6-digit code of an activation e-mail (a line of its own in the text body).
pub fn code_of(mail: &Value) -> String {
    mail["text"]
        .as_str()
        .expect("text")
        .lines()
        .map(str::trim)
        .find(|line| line.len() == 6 && line.bytes().all(|b| b.is_ascii_digit()))
        .expect("a code line")
        .to_string()
}

/// The link token of an activation e-mail: the segment after `/ativar/`.
pub fn link_token_of(mail: &Value) -> String {
    let text = mail["text"].as_str().expect("text");
    let start = text.find("/ativar/").expect("a link") + "/ativar/".len();
    text[start..].split('/').next().expect("token").to_string()
}

pub async fn is_active(db: &PgPool, user_id: i64) -> bool {
    sqlx::query_scalar("SELECT active FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(db)
        .await
        .expect("user")
}
