//! Member-get-member: validating invite codes and recording the invite at sign-up.

use crate::common::{app, call, post_json};
use crate::signup_support::*;
use axum::http::StatusCode;
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::build;

async fn rule(db: &PgPool, station_id: i64, active: bool) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO mgm_rules (station_id, points_inviter, points_invited, active)
         VALUES ($1, 100, 50, $2) RETURNING id",
    )
    .bind(station_id)
    .bind(active)
    .fetch_one(db)
    .await
    .expect("rule")
}

async fn inviter(db: &PgPool, station_id: i64, email: &str, code: &str) -> i64 {
    build::member(station_id)
        .name("Paula Convidante")
        .email(email)
        .invite_code(code)
        .insert(db)
        .await
}

async fn validate(app: &axum::Router, code: &str) -> serde_json::Value {
    let answer = call(
        app,
        "POST",
        &format!("/api/validate-mgm-code/{code}"),
        None,
        &[],
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer.json()
}

fn invalid() -> serde_json::Value {
    json!({"valid": false, "action": null, "points_invited": 0, "points_inviter": 0, "inviter": null})
}

#[testkit::db_test]
async fn a_valid_code_answers_the_stations_offer(db: PgPool) {
    let (station_id, _) = station(&db, "clube", &[]).await;
    let (other_station, _) = station(&db, "outro", &[]).await;
    rule(&db, station_id, false).await;
    let rule_id = rule(&db, station_id, true).await;
    rule(&db, other_station, true).await;
    let paula = inviter(&db, station_id, "paula@example.com", "ABCD1234").await;
    let app = app(db.clone());

    assert_eq!(
        validate(&app, &format!("ABCD1234-U{paula}-E{station_id}")).await,
        json!({"valid": true, "action": {"id": rule_id}, "points_invited": 50,
               "points_inviter": 100, "inviter": {"id": paula, "name": "Paula"}})
    );
    assert_eq!(
        validate(&app, &format!("abcd1234-U{paula}-E{station_id}")).await["valid"],
        true
    );

    for code in [
        format!("ZZZZ9999-U{paula}-E{station_id}"),
        format!("ABCD1234-U{paula}-E{other_station}"),
        format!("ABCD1234-U{}-E{station_id}", paula + 1),
        "ABCD1234".to_string(),
        "nada".to_string(),
    ] {
        assert_eq!(validate(&app, &code).await, invalid(), "{code}");
    }

    sqlx::query("UPDATE users SET deleted_at = now() WHERE id = $1")
        .bind(paula)
        .execute(&db)
        .await
        .expect("block");
    assert_eq!(
        validate(&app, &format!("ABCD1234-U{paula}-E{station_id}")).await,
        invalid()
    );
    sqlx::query("UPDATE users SET deleted_at = NULL, active = false WHERE id = $1")
        .bind(paula)
        .execute(&db)
        .await
        .expect("deactivate");
    assert_eq!(
        validate(&app, &format!("ABCD1234-U{paula}-E{station_id}")).await,
        invalid()
    );
}

#[testkit::db_test]
async fn a_station_without_an_active_offer_has_no_valid_codes(db: PgPool) {
    let (station_id, _) = station(&db, "clube", &[]).await;
    rule(&db, station_id, false).await;
    let paula = inviter(&db, station_id, "paula@example.com", "ABCD1234").await;
    let app = app(db);
    assert_eq!(
        validate(&app, &format!("ABCD1234-U{paula}-E{station_id}")).await,
        invalid()
    );
}

#[testkit::db_test]
async fn sign_ups_record_who_invited_them(db: PgPool) {
    let (station_id, _) = station(&db, "clube", &["signup_flow = 'simple'"]).await;
    let (other_station, _) = station(&db, "outro", &[]).await;
    let rule_id = rule(&db, station_id, true).await;
    let paula = inviter(&db, station_id, "paula@example.com", "ABCD1234").await;
    let stranger = inviter(&db, other_station, "estranha@example.com", "WXYZ9876").await;
    let app = app(db.clone());
    let invitations = async || -> Vec<(i64, i64, i64)> {
        sqlx::query_as("SELECT invitee_id, inviter_id, rule_id FROM mgm_invitations")
            .fetch_all(&db)
            .await
            .expect("invitations")
    };
    let invite = |inviter_id: i64, code: Value| json!({"member_get_member": {"action_id": rule_id, "inviter_id": inviter_id, "code": code}});

    // No code, a wrong code, someone else's code, a code of another station: the sign-ups
    // go through and nothing is recorded.
    let stranger_code = format!("WXYZ9876-U{stranger}-E{other_station}");
    let bare = json!({"member_get_member": {"action_id": rule_id, "inviter_id": paula}});
    for (n, extra) in [
        bare,
        invite(paula, json!(format!("ZZZZ9999-U{paula}-E{station_id}"))),
        invite(paula, json!(stranger_code.clone())),
        invite(stranger, json!(stranger_code)),
        invite(paula, json!("lixo")),
    ]
    .into_iter()
    .enumerate()
    {
        let answer = post_json(
            &app,
            "/api/auth/signup-participant",
            &with(
                participant(station_id, &format!("sem{n}@example.com")),
                extra,
            )
            .to_string(),
        )
        .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    }
    assert_eq!(invitations().await, []);

    let right = json!(format!("abcd1234-U{paula}-E{station_id}"));
    let invited = post_json(
        &app,
        "/api/auth/signup-participant",
        &with(
            participant(station_id, "maria@example.com"),
            invite(paula, right.clone()),
        )
        .to_string(),
    )
    .await;
    assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.text);
    let maria = invited.json()["user"]["id"].as_i64().expect("id");

    let simple = post_json(
        &app,
        "/api/auth/signup",
        &with(
            json!({"station": station_id, "cpf": CPF_B, "birthday": "1990-01-01 00:00:00",
                    "state": "SP", "firstName": "Rui", "lastName": "Lima",
                    "phoneNumber": "(11) 91111-2222"}),
            invite(paula, right),
        )
        .to_string(),
    )
    .await;
    assert_eq!(simple.status, StatusCode::CREATED, "{}", simple.text);
    let rui = simple.json()["user"]["id"].as_i64().expect("id");

    let mut recorded = invitations().await;
    recorded.sort();
    assert_eq!(recorded, [(maria, paula, rule_id), (rui, paula, rule_id)]);
}
