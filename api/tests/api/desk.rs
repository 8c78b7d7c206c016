//! The service desk in the console over HTTP (docs/api-services.md "The desk in the
//! console"): who reaches which desk, the queue, confirm/done/absent/cancel with their
//! e-mails, locks and audit, the health co-payment's cashback, cases by CPF, the political
//! suggestions and news for a desk's page.

use axum::Router;
use axum::http::StatusCode;
use chrono::{Duration, Utc};
use domain::services::Desk;
use domain::services::access::grant_desk;
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::build;

use crate::common::{self, Answer, call, send_json, session_of};

const CPF: &str = "52998224725";
const WRONG_STATE: &str = "Este agendamento não está em um estado que permita esta ação.";

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    member_id: i64,
    /// The member's own session (not staff).
    member: String,
    /// A lawyer: a desk grant on the demo station's legal desk.
    lawyer: String,
    /// A desk grant on the demo station's health desk.
    nurse: String,
    /// Support staff of every station (acts on every desk).
    support: String,
    /// The demo station's console viewer (reads every desk).
    viewer: String,
    /// Another station, and its own legal desk's staff.
    other_station: i64,
    stranger: String,
}

async fn staff_account(db: &PgPool, station_id: i64, email: &str) -> i64 {
    build::member(station_id)
        .name("Dra. Marina Alves")
        .email(email)
        .staff()
        .insert(db)
        .await
}

async fn world(db: PgPool) -> World {
    let (demo, member) = common::demo_member_session(&db).await;
    let other_station = common::insert_station(&db, "outro").await;
    sqlx::query(
        "UPDATE stations SET legal_access = true, accounting_access = true,
                health_access = true, political_access = true
         WHERE id IN ($1, $2)",
    )
    .bind(demo.station_id)
    .bind(other_station)
    .execute(&db)
    .await
    .expect("services on");
    sqlx::query("UPDATE users SET cpf = $2 WHERE id = $1")
        .bind(demo.member_id)
        .bind(CPF)
        .execute(&db)
        .await
        .expect("cpf");
    let lawyer = staff_account(&db, demo.station_id, "advogada@example.com").await;
    grant_desk(&db, lawyer, demo.station_id, Desk::Legal)
        .await
        .expect("grant");
    let nurse = staff_account(&db, demo.station_id, "saude@example.com").await;
    grant_desk(&db, nurse, demo.station_id, Desk::Health)
        .await
        .expect("grant");
    let stranger = staff_account(&db, other_station, "fora@example.com").await;
    grant_desk(&db, stranger, other_station, Desk::Legal)
        .await
        .expect("grant");
    World {
        app: common::app(db.clone()),
        station_id: demo.station_id,
        member_id: demo.member_id,
        member,
        lawyer: session_of(&db, lawyer).await,
        nurse: session_of(&db, nurse).await,
        support: session_of(&db, demo.staff_id).await,
        viewer: session_of(&db, demo.viewer_id).await,
        other_station,
        stranger: session_of(&db, stranger).await,
        db,
    }
}

/// A requested appointment of the member's CPF.
async fn appointment(db: &PgPool, station_id: i64, service: &str, user_id: Option<i64>) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO service_appointments
             (station_id, service, cpf, user_id, preferred_weekday, description, phone)
         VALUES ($1, $2, $3, $4, 4, 'Dúvida sobre férias', '11987654321')
         RETURNING id",
    )
    .bind(station_id)
    .bind(service)
    .bind(CPF)
    .bind(user_id)
    .fetch_one(db)
    .await
    .expect("appointment")
}

async fn office(db: &PgPool, station_id: i64, service: &str, name: &str) -> i64 {
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

async fn post(w: &World, token: &str, uri: &str, body: &Value) -> Answer {
    send_json(&w.app, "POST", uri, Some(token), &[], body).await
}

fn messages(answer: &Answer) -> Vec<String> {
    serde_json::from_value(answer.json()["messages"].clone())
        .unwrap_or_else(|_| panic!("messages: {}", answer.text))
}

/// The (recipient, subject) of the `mail.send` jobs about appointment `id`.
async fn mails_of(db: &PgPool, id: i64) -> Vec<(String, String)> {
    sqlx::query_as(
        "SELECT convert_from(j.job, 'UTF8')::jsonb -> 'args' -> 'mail' ->> 'to',
                convert_from(j.job, 'UTF8')::jsonb -> 'args' -> 'mail' ->> 'subject'
           FROM job_records r JOIN apalis.jobs j ON j.id = r.job_id
          WHERE r.subject_kind = 'service_appointment' AND r.subject_id = $1
          ORDER BY j.run_at, j.id",
    )
    .bind(id.to_string())
    .fetch_all(db)
    .await
    .expect("mails")
}

async fn audited(db: &PgPool, action: &str) -> Vec<Value> {
    sqlx::query_scalar("SELECT details FROM staff_audit WHERE action = $1 ORDER BY id")
        .bind(action)
        .fetch_all(db)
        .await
        .expect("audit")
}

fn future(days: i64) -> String {
    (Utc::now() + Duration::days(days))
        .with_timezone(&chrono::FixedOffset::west_opt(3 * 3600).expect("offset"))
        .to_rfc3339()
}

#[testkit::db_test]
async fn each_staff_member_sees_the_desks_they_reach(db: PgPool) {
    let w = world(db).await;
    let lawyer = call(&w.app, "GET", "/api/ops/desk/me", Some(&w.lawyer), &[]).await;
    assert_eq!(lawyer.status, StatusCode::OK, "{}", lawyer.text);
    let body = lawyer.json();
    assert_eq!(body["user"]["name"], "Dra. Marina Alves");
    assert_eq!(
        body["desks"],
        json!([{ "station_id": w.station_id, "station_name": body["desks"][0]["station_name"],
                 "desk": "legal", "can_act": true }])
    );
    // A viewer reads every desk of the demo station, acting on none.
    let viewer = call(&w.app, "GET", "/api/ops/desk/me", Some(&w.viewer), &[]).await;
    let desks = viewer.json()["desks"].as_array().expect("desks").clone();
    assert_eq!(desks.len(), 4);
    assert!(desks.iter().all(|desk| desk["can_act"] == false));
    // A member is no staff.
    let member = call(&w.app, "GET", "/api/ops/desk/me", Some(&w.member), &[]).await;
    assert_eq!(member.status, StatusCode::FORBIDDEN);
    assert_eq!(
        member.json()["error"],
        "Acesso restrito à equipe de suporte."
    );
    let nobody = call(&w.app, "GET", "/api/ops/desk/me", None, &[]).await;
    assert_eq!(nobody.status, StatusCode::FORBIDDEN);
}

#[testkit::db_test]
async fn the_queue_lists_the_desks_appointments_newest_first(db: PgPool) {
    let w = world(db).await;
    let first = appointment(&w.db, w.station_id, "legal", Some(w.member_id)).await;
    let second = appointment(&w.db, w.station_id, "legal", None).await;
    let dental = appointment(&w.db, w.station_id, "dental", Some(w.member_id)).await;
    appointment(&w.db, w.other_station, "legal", None).await;
    sqlx::query(
        "UPDATE service_appointments SET created_at = created_at - interval '1 hour' WHERE id = $1",
    )
    .bind(first)
    .execute(&w.db)
    .await
    .expect("older");
    let uri = format!("/api/ops/stations/{}/desk/legal/appointments", w.station_id);
    let list = call(&w.app, "GET", &uri, Some(&w.lawyer), &[]).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let body = list.json();
    assert_eq!(body["total"], 2);
    assert_eq!(body["page"], 1);
    assert_eq!(body["per_page"], 50);
    let shown = &body["appointments"];
    assert_eq!(shown[0]["id"], second);
    assert_eq!(shown[1]["id"], first);
    // One imported under the member's CPF is theirs too.
    assert_eq!(shown[0]["member"]["id"], w.member_id);
    assert_eq!(shown[1]["preferred_day"], "Quinta-feira");
    assert_eq!(shown[1]["cpf"], CPF);
    assert_eq!(shown[1]["service"], "legal");
    assert_eq!(shown[1]["status"], "requested");
    assert_eq!(shown[1]["phone"], "11987654321");
    assert!(shown[1]["office"].is_null());
    assert!(shown[1]["copay"].is_null());

    let health = format!(
        "/api/ops/stations/{}/desk/health/appointments",
        w.station_id
    );
    let health = call(&w.app, "GET", &health, Some(&w.nurse), &[]).await;
    assert_eq!(health.json()["appointments"][0]["id"], dental);
    assert_eq!(health.json()["appointments"][0]["service"], "dental");

    let confirmed = call(
        &w.app,
        "GET",
        &format!("{uri}?status=confirmed"),
        Some(&w.lawyer),
        &[],
    )
    .await;
    assert_eq!(confirmed.json()["total"], 0);
    let bad = call(
        &w.app,
        "GET",
        &format!("{uri}?status=lido"),
        Some(&w.lawyer),
        &[],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(messages(&bad), ["Estado inválido."]);

    // The lawyer reaches no other desk, and no other station.
    let not_theirs = call(
        &w.app,
        "GET",
        &format!(
            "/api/ops/stations/{}/desk/health/appointments",
            w.station_id
        ),
        Some(&w.lawyer),
        &[],
    )
    .await;
    assert_eq!(not_theirs.status, StatusCode::FORBIDDEN);
    let foreign = call(&w.app, "GET", &uri, Some(&w.stranger), &[]).await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND);
    // A desk that does not exist, and a station that turned the service off.
    let unknown = call(
        &w.app,
        "GET",
        &format!("/api/ops/stations/{}/desk/shop/appointments", w.station_id),
        Some(&w.support),
        &[],
    )
    .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    sqlx::query("UPDATE stations SET legal_access = false WHERE id = $1")
        .bind(w.station_id)
        .execute(&w.db)
        .await
        .expect("off");
    let off = call(&w.app, "GET", &uri, Some(&w.lawyer), &[]).await;
    assert_eq!(off.status, StatusCode::NOT_FOUND);
    assert_eq!(off.json()["error"], "Serviço não disponível.");
}

#[testkit::db_test]
async fn confirming_sets_a_future_date_at_an_office_and_mails_the_member(db: PgPool) {
    let w = world(db).await;
    let id = appointment(&w.db, w.station_id, "legal", Some(w.member_id)).await;
    let own = office(&w.db, w.station_id, "legal", "Alves & Lima Advogados").await;
    let health_office = office(&w.db, w.station_id, "health", "Clínica").await;
    let elsewhere = office(&w.db, w.other_station, "legal", "Outro escritório").await;
    let offices = call(
        &w.app,
        "GET",
        &format!("/api/ops/stations/{}/desk/legal/offices", w.station_id),
        Some(&w.lawyer),
        &[],
    )
    .await;
    assert_eq!(
        offices.json(),
        json!([{ "id": own, "name": "Alves & Lima Advogados" }])
    );

    let uri = format!("/api/ops/desk/appointments/{id}/confirm");
    let past = post(
        &w,
        &w.lawyer,
        &uri,
        &json!({ "scheduled_at": "2020-01-02T09:00:00-03:00", "office_id": own }),
    )
    .await;
    assert_eq!(past.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(messages(&past), ["scheduled_at: A data deve ser futura."]);
    for wrong in [health_office, elsewhere, 999_999] {
        let bad = post(
            &w,
            &w.lawyer,
            &uri,
            &json!({ "scheduled_at": future(3), "office_id": wrong }),
        )
        .await;
        assert_eq!(
            messages(&bad),
            ["office_id: Escritório inválido."],
            "office {wrong}"
        );
    }
    // Readers, other desks and other stations do not act.
    let viewer = post(&w, &w.viewer, &uri, &json!({ "scheduled_at": future(3) })).await;
    assert_eq!(viewer.status, StatusCode::FORBIDDEN);
    let nurse = post(&w, &w.nurse, &uri, &json!({ "scheduled_at": future(3) })).await;
    assert_eq!(nurse.status, StatusCode::NOT_FOUND);
    let stranger = post(&w, &w.stranger, &uri, &json!({ "scheduled_at": future(3) })).await;
    assert_eq!(stranger.status, StatusCode::NOT_FOUND);
    assert_eq!(stranger.json()["error"], "Agendamento não encontrado.");

    let at = "2030-12-05T09:00:00-03:00";
    let confirmed = post(
        &w,
        &w.lawyer,
        &uri,
        &json!({ "scheduled_at": at, "office_id": own }),
    )
    .await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text);
    let body = confirmed.json();
    assert_eq!(body["status"], "confirmed");
    assert_eq!(body["scheduled_at"], "2030-12-05T12:00:00Z");
    assert_eq!(body["office"]["name"], "Alves & Lima Advogados");
    let mails = mails_of(&w.db, id).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].1, "Agendamento confirmado");
    let text: String = sqlx::query_scalar(
        "SELECT convert_from(j.job, 'UTF8') FROM job_records r JOIN apalis.jobs j ON j.id = r.job_id
          WHERE r.subject_kind = 'service_appointment' AND r.subject_id = $1",
    )
    .bind(id.to_string())
    .fetch_one(&w.db)
    .await
    .expect("mail");
    assert!(
        text.contains("05/12/2030 às 09:00"),
        "the station's hour: {text}"
    );
    let audit = audited(&w.db, "appointment.confirm").await;
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0]["appointment_id"], id);
}

#[testkit::db_test]
async fn done_absent_and_cancel_move_from_their_states_only(db: PgPool) {
    let w = world(db).await;
    let id = appointment(&w.db, w.station_id, "legal", Some(w.member_id)).await;
    let done = format!("/api/ops/desk/appointments/{id}/done");
    let early = post(&w, &w.lawyer, &done, &json!({})).await;
    assert_eq!(early.status, StatusCode::CONFLICT);
    assert_eq!(early.json()["error"], WRONG_STATE);
    let confirm = format!("/api/ops/desk/appointments/{id}/confirm");
    let confirmed = post(
        &w,
        &w.lawyer,
        &confirm,
        &json!({ "scheduled_at": future(2), "office_id": null }),
    )
    .await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text);
    let absent = post(
        &w,
        &w.lawyer,
        &format!("/api/ops/desk/appointments/{id}/absent"),
        &json!({}),
    )
    .await;
    assert_eq!(absent.status, StatusCode::OK, "{}", absent.text);
    assert_eq!(absent.json()["status"], "absent");
    let cancel = format!("/api/ops/desk/appointments/{id}/cancel");
    let late = post(&w, &w.lawyer, &cancel, &json!({})).await;
    assert_eq!(late.status, StatusCode::CONFLICT);
    assert_eq!(audited(&w.db, "appointment.absent").await.len(), 1);

    // Two cancels at once cancel once, and e-mail the member once.
    let other = appointment(&w.db, w.station_id, "legal", Some(w.member_id)).await;
    let cancel = format!("/api/ops/desk/appointments/{other}/cancel");
    let empty = json!({});
    let (a, b) = tokio::join!(
        post(&w, &w.lawyer, &cancel, &empty),
        post(&w, &w.support, &cancel, &empty)
    );
    let mut statuses = [a.status, b.status];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT]);
    let cancelled = if a.status == StatusCode::OK { a } else { b };
    assert_eq!(cancelled.json()["cancelled_by"], "staff");
    let email: String = sqlx::query_scalar("SELECT email FROM users WHERE id = $1")
        .bind(w.member_id)
        .fetch_one(&w.db)
        .await
        .expect("email");
    assert_eq!(
        mails_of(&w.db, other).await,
        [(email, "Agendamento cancelado".to_string())]
    );
    assert_eq!(audited(&w.db, "appointment.cancel").await.len(), 1);

    // A desk the station turns off takes no more actions.
    let last = appointment(&w.db, w.station_id, "legal", Some(w.member_id)).await;
    sqlx::query("UPDATE stations SET legal_access = false WHERE id = $1")
        .bind(w.station_id)
        .execute(&w.db)
        .await
        .expect("legal off");
    let off = post(
        &w,
        &w.lawyer,
        &format!("/api/ops/desk/appointments/{last}/cancel"),
        &json!({}),
    )
    .await;
    assert_eq!(off.status, StatusCode::NOT_FOUND, "{}", off.text);
    assert!(off.text.contains("Serviço não disponível."), "{}", off.text);
}

#[testkit::db_test]
async fn a_health_copay_credits_half_as_pending_cashback_once(db: PgPool) {
    let w = world(db).await;
    let id = appointment(&w.db, w.station_id, "dental", Some(w.member_id)).await;
    let copay = format!("/api/ops/desk/appointments/{id}/copay");
    let early = post(&w, &w.nurse, &copay, &json!({ "amount_cents": 8000 })).await;
    assert_eq!(early.status, StatusCode::CONFLICT, "not done yet");
    post(
        &w,
        &w.nurse,
        &format!("/api/ops/desk/appointments/{id}/confirm"),
        &json!({ "scheduled_at": future(1) }),
    )
    .await;
    let done = post(
        &w,
        &w.nurse,
        &format!("/api/ops/desk/appointments/{id}/done"),
        &json!({}),
    )
    .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    for bad in [
        json!({}),
        json!({ "amount_cents": 0 }),
        json!({ "amount_cents": -5 }),
        // Past R$ 10.000,00: a typo, not a co-payment.
        json!({ "amount_cents": 1_000_001 }),
    ] {
        let refused = post(&w, &w.nurse, &copay, &bad).await;
        assert_eq!(
            messages(&refused),
            ["amount_cents: Valor inválido"],
            "{bad}"
        );
    }
    let before = domain::wallet::ledger::balance(&w.db, w.member_id)
        .await
        .expect("balance");
    let amount = json!({ "amount_cents": 8000 });
    let (a, b) = tokio::join!(
        post(&w, &w.nurse, &copay, &amount),
        post(&w, &w.support, &copay, &amount)
    );
    let mut statuses = [a.status, b.status];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::OK, StatusCode::CONFLICT],
        "{} {}",
        a.text,
        b.text
    );
    let refused = if a.status == StatusCode::OK { &b } else { &a };
    assert_eq!(refused.json()["error"], "Coparticipação já registrada.");
    let recorded = if a.status == StatusCode::OK { &a } else { &b };
    assert_eq!(
        recorded.json()["copay"],
        json!({ "amount_cents": 8000, "cashback_cents": 4000 })
    );
    let after = domain::wallet::ledger::balance(&w.db, w.member_id)
        .await
        .expect("balance");
    assert_eq!(after.pending, before.pending + 4000);
    assert_eq!(after.balance, before.balance);
    let (rule, source, held): (String, String, bool) = sqlx::query_as(
        "SELECT rule, source_kind, available_at > now() + interval '89 days'
           FROM credit_lots WHERE user_id = $1 AND source_kind = 'copay'",
    )
    .bind(w.member_id)
    .fetch_one(&w.db)
    .await
    .expect("lot");
    assert_eq!(
        (rule.as_str(), source.as_str(), held),
        ("health.copay", "copay", true)
    );
    assert_eq!(audited(&w.db, "health.copay").await.len(), 1);

    // A legal appointment has no co-payment.
    let legal = appointment(&w.db, w.station_id, "legal", Some(w.member_id)).await;
    let not_health = post(
        &w,
        &w.support,
        &format!("/api/ops/desk/appointments/{legal}/copay"),
        &json!({ "amount_cents": 100 }),
    )
    .await;
    assert_eq!(not_health.status, StatusCode::NOT_FOUND);
}

#[testkit::db_test]
async fn the_legal_desk_records_cases_by_cpf(db: PgPool) {
    let w = world(db).await;
    let uri = format!("/api/ops/stations/{}/desk/legal/cases", w.station_id);
    let case = json!({
        "cpf": "529.982.247-25", "case_number": "0001234-56.2025.5.02.0001",
        "kind": "Trabalhista", "situation": "Em andamento", "filed_on": "2025-03-14",
        "court": "TRT-2", "title": "Horas extras", "claim_cents": 1250000,
        "link": "https://tribunal.example.com/1", "collective": false
    });
    let created = post(&w, &w.lawyer, &uri, &case).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let body = created.json();
    assert_eq!(body["cpf"], CPF);
    assert_eq!(body["service"], "legal");
    assert_eq!(body["filed_on"], "2025-03-14");
    let id = body["id"].as_i64().expect("id");
    let twice = post(&w, &w.lawyer, &uri, &case).await;
    assert_eq!(twice.status, StatusCode::CONFLICT);

    let bad = post(
        &w,
        &w.lawyer,
        &uri,
        &json!({ "cpf": "123", "link": "http://x.example.com" }),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        messages(&bad),
        [
            "cpf: CPF inválido",
            "case_number: Esse campo é obrigatório",
            "link: O link deve começar com https://"
        ]
    );

    let mut changed = case.clone();
    changed["situation"] = json!("Arquivado");
    let put = send_json(
        &w.app,
        "PUT",
        &format!("/api/ops/desk/cases/{id}"),
        Some(&w.lawyer),
        &[],
        &changed,
    )
    .await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.text);
    assert_eq!(put.json()["situation"], "Arquivado");
    let foreign = send_json(
        &w.app,
        "PUT",
        &format!("/api/ops/desk/cases/{id}"),
        Some(&w.stranger),
        &[],
        &changed,
    )
    .await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND);
    assert_eq!(foreign.json()["error"], "Processo não encontrado.");
    let viewer = send_json(
        &w.app,
        "PUT",
        &format!("/api/ops/desk/cases/{id}"),
        Some(&w.viewer),
        &[],
        &changed,
    )
    .await;
    assert_eq!(viewer.status, StatusCode::FORBIDDEN);

    let listed = call(
        &w.app,
        "GET",
        &format!("{uri}?cpf=529.982.247-25"),
        Some(&w.viewer),
        &[],
    )
    .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    assert_eq!(listed.json()["total"], 1);
    assert_eq!(listed.json()["cases"][0]["id"], id);
    let none = call(
        &w.app,
        "GET",
        &format!("{uri}?cpf=11144477735"),
        Some(&w.viewer),
        &[],
    )
    .await;
    assert_eq!(none.json()["total"], 0);
    let bad_cpf = call(&w.app, "GET", &format!("{uri}?cpf=1"), Some(&w.viewer), &[]).await;
    assert_eq!(messages(&bad_cpf), ["cpf: CPF inválido"]);
    let other = call(
        &w.app,
        "GET",
        &format!("/api/ops/stations/{}/desk/legal/cases", w.other_station),
        Some(&w.stranger),
        &[],
    )
    .await;
    assert_eq!(
        other.json()["total"],
        0,
        "another station's cases stay there"
    );
    let health = call(
        &w.app,
        "GET",
        &format!("/api/ops/stations/{}/desk/health/cases", w.station_id),
        Some(&w.support),
        &[],
    )
    .await;
    assert_eq!(health.status, StatusCode::NOT_FOUND);
    assert_eq!(audited(&w.db, "case.record").await.len(), 2);
}

#[testkit::db_test]
async fn the_political_desk_reads_suggestions_and_staff_publish_news(db: PgPool) {
    let w = world(db).await;
    sqlx::query("INSERT INTO political_suggestions (station_id, user_id, description) VALUES ($1, $2, 'Reajuste salarial'), ($3, NULL, 'Outra estação')")
        .bind(w.station_id)
        .bind(w.member_id)
        .bind(w.other_station)
        .execute(&w.db)
        .await
        .expect("suggestions");
    let uri = format!(
        "/api/ops/stations/{}/desk/political/suggestions",
        w.station_id
    );
    let listed = call(&w.app, "GET", &uri, Some(&w.viewer), &[]).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    let body = listed.json();
    assert_eq!(body["total"], 1);
    assert_eq!(body["suggestions"][0]["description"], "Reajuste salarial");
    assert_eq!(body["suggestions"][0]["member"]["id"], w.member_id);
    let lawyer = call(&w.app, "GET", &uri, Some(&w.lawyer), &[]).await;
    assert_eq!(lawyer.status, StatusCode::FORBIDDEN);

    let news = format!("/api/ops/stations/{}/news", w.station_id);
    let published = post(
        &w,
        &w.lawyer,
        &news,
        &json!({
            "title": "Nova convenção", "subtitle": "Resumo",
            "body": "<p>Texto</p><script>alert(1)</script>", "tags": [13752]
        }),
    )
    .await;
    assert_eq!(published.status, StatusCode::CREATED, "{}", published.text);
    let id = published.json()["id"].as_i64().expect("id");
    let (body, tags): (String, Vec<i64>) = sqlx::query_as(
        "SELECT n.body, array_agg(t.tag_id) FROM station_news n
           JOIN station_news_tags t ON t.news_id = n.id WHERE n.id = $1 GROUP BY n.body",
    )
    .bind(id)
    .fetch_one(&w.db)
    .await
    .expect("news");
    assert!(!body.contains("script"), "{body}");
    assert_eq!(tags, [13752]);
    // The lawyer acts on the legal desk only; a viewer on none.
    let political = post(
        &w,
        &w.lawyer,
        &news,
        &json!({ "title": "X", "tags": [13752, 13755] }),
    )
    .await;
    assert_eq!(political.status, StatusCode::FORBIDDEN);
    let viewer = post(
        &w,
        &w.viewer,
        &news,
        &json!({ "title": "X", "tags": [13752] }),
    )
    .await;
    assert_eq!(viewer.status, StatusCode::FORBIDDEN);
    let bad = post(&w, &w.support, &news, &json!({ "title": " ", "tags": [1] })).await;
    assert_eq!(
        messages(&bad),
        ["title: Esse campo é obrigatório", "tags: Tag inválida"]
    );
    assert_eq!(audited(&w.db, "news.publish").await.len(), 1);
}
