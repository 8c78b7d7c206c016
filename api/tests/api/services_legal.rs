//! Legal consultancy over HTTP against the real database: the member's cases and
//! appointments (theirs by CPF, never another member's or another station's), the request
//! with its e-mails and its rules, the hourly allowance, and the member's cancellation
//! (more than 48 hours ahead; two at once cancel once).

use crate::common::{call, insert_station};
use crate::services_common::{
    MEMBER_CPF, MEMBER_MAIL, SENT, TOO_MANY, UNAVAILABLE, World, desk_row, ids, insert_appointment,
    insert_case, mails_of, messages, offer, office, refused, world,
};
use axum::http::StatusCode;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde_json::{Value, json};
use sqlx::PgPool;

const PROCESSES: &str = "/api/legal-processes";
const APPOINTMENTS: &str = "/api/legal-appointments";
const CANCEL: &str = "/api/cancel-legal-appointments";
const NOT_FOUND: &str = "Agendamento não encontrado.";
const NOT_CANCELLABLE: &str = "Este agendamento não pode mais ser cancelado.";
const TOO_LATE: &str = "O agendamento só pode ser cancelado com mais de 48 horas de antecedência.";

/// An appointment's station, service, CPF, member, weekday, description, phone and status.
type Stored = (
    i64,
    String,
    String,
    Option<i64>,
    Option<i16>,
    String,
    Option<String>,
    String,
);

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .expect("instant")
        .with_timezone(&Utc)
}

async fn status_of(w: &World, id: i64) -> (String, Option<String>, Option<i64>) {
    sqlx::query_as("SELECT status, cancelled_by, status_by FROM service_appointments WHERE id = $1")
        .bind(id)
        .fetch_one(&w.db)
        .await
        .expect("status")
}

async fn cancel(w: &World, office_id: Option<i64>, id: i64) -> crate::common::Answer {
    w.post(
        CANCEL,
        &json!({ "escritorioId": office_id, "appointmentId": id }),
    )
    .await
}

#[testkit::db_test]
async fn the_member_sees_the_cases_under_their_cpf_newest_first(db: PgPool) {
    let w = world(db).await;
    let day = |d| NaiveDate::from_ymd_opt(2025, 3, d);
    let older = insert_case(&w.db, w.station_id, "legal", MEMBER_CPF, "0001", day(1)).await;
    let newer = insert_case(&w.db, w.station_id, "legal", MEMBER_CPF, "0002", day(14)).await;
    let undated = insert_case(&w.db, w.station_id, "legal", MEMBER_CPF, "0003", None).await;
    // Another member's, an accounting case, and another station's under the same CPF.
    insert_case(&w.db, w.station_id, "legal", "11144477735", "0004", day(20)).await;
    insert_case(
        &w.db,
        w.station_id,
        "accounting",
        MEMBER_CPF,
        "0005",
        day(20),
    )
    .await;
    let other = insert_station(&w.db, "vizinho").await;
    offer(&w.db, other, &["legal"]).await;
    insert_case(&w.db, other, "legal", MEMBER_CPF, "0006", day(20)).await;

    let answer = w.get(PROCESSES).await;
    assert_eq!(ids(&answer), [newer, older, undated]);
    assert_eq!(
        answer.json()[0],
        json!({
            "id": newer, "numeroProcesso": "0002", "tipo": "Trabalhista",
            "situacao": "Em andamento", "dataProtocolo": "2025-03-14", "tribunalOrgao": "TRT-2",
            "titulo": "Horas extras", "valorCausa": 1250000,
            "linkProcesso": "https://processos.example.com/0002", "publicadoPortal": true,
        })
    );
    assert_eq!(answer.json()[2]["dataProtocolo"], Value::Null);

    // A member without a CPF has none; another member sees only theirs.
    let (_, no_cpf) = w.member("semcpf@example.com", None).await;
    let empty = call(&w.app, "GET", PROCESSES, Some(&no_cpf), &[]).await;
    assert_eq!(ids(&empty), Vec::<i64>::new());
    let (_, joao) = w.member("joao@example.com", Some("11144477735")).await;
    let theirs = call(&w.app, "GET", PROCESSES, Some(&joao), &[]).await;
    assert_eq!(theirs.json().as_array().map(Vec::len), Some(1));
    assert_eq!(theirs.json()[0]["numeroProcesso"], "0004");
}

#[testkit::db_test]
async fn the_appointments_list_upcoming_first_with_their_labels_and_hours(db: PgPool) {
    let w = world(db).await;
    let office_id = office(&w.db, w.station_id, "legal", "Alves & Lima Advogados").await;
    let now = Utc::now();
    let mut soon = w.row("legal", "confirmed");
    soon.scheduled_at = Some(now + Duration::hours(24));
    let soon = insert_appointment(&w.db, &soon).await;
    let mut later = w.row("legal", "confirmed");
    // 13:00 UTC is 09:00 in Manaus.
    later.scheduled_at = Some(at("2030-01-10T13:00:00Z"));
    later.office_id = Some(office_id);
    later.description = "Dúvida sobre férias".into();
    let later = insert_appointment(&w.db, &later).await;
    let requested = insert_appointment(&w.db, &w.row("legal", "requested")).await;
    let mut done = w.row("legal", "done");
    done.scheduled_at = Some(now - Duration::days(30));
    let done = insert_appointment(&w.db, &done).await;
    let mut absent = w.row("legal", "absent");
    absent.scheduled_at = Some(now - Duration::days(10));
    let absent = insert_appointment(&w.db, &absent).await;
    let mut cancelled = w.row("legal", "cancelled");
    cancelled.created_at = now - Duration::days(60);
    let cancelled = insert_appointment(&w.db, &cancelled).await;
    // Not the member's: another CPF, another service, another station.
    let mut others = w.row("legal", "requested");
    others.cpf = "11144477735".into();
    insert_appointment(&w.db, &others).await;
    insert_appointment(&w.db, &w.row("accounting", "requested")).await;
    let elsewhere = insert_station(&w.db, "vizinho").await;
    let mut elsewhere_row = w.row("legal", "requested");
    elsewhere_row.station_id = elsewhere;
    insert_appointment(&w.db, &elsewhere_row).await;

    let answer = w.get(APPOINTMENTS).await;
    assert_eq!(
        ids(&answer),
        [soon, later, requested, absent, done, cancelled]
    );
    let list = answer.json();
    assert_eq!(
        list[1],
        json!({
            "id": later, "data": "2030-01-10T13:00:00Z", "horaInicio": "09:00",
            "status": "confirmed", "situacao": "Agendado", "diaPreferido": "Quinta-feira",
            "descricao": "Dúvida sobre férias", "conclusao": { "isFiliadoAusente": false },
            "escritorio": { "id": office_id, "nome": "Alves & Lima Advogados" },
            "cancelavel": true,
        })
    );
    let field = |i: usize, name: &str| list[i][name].clone();
    assert_eq!(field(0, "cancelavel"), false, "24 hours ahead is too late");
    assert_eq!(field(2, "situacao"), "Aguardando confirmação");
    assert_eq!(field(2, "data"), Value::Null);
    assert_eq!(field(2, "horaInicio"), Value::Null);
    assert_eq!(field(2, "escritorio"), Value::Null);
    assert_eq!(field(2, "cancelavel"), true);
    assert_eq!(field(3, "situacao"), "Não compareceu");
    assert_eq!(field(3, "conclusao"), json!({ "isFiliadoAusente": true }));
    assert_eq!(field(4, "situacao"), "Concluído");
    assert_eq!(field(5, "situacao"), "Cancelado");
    assert_eq!(field(5, "cancelavel"), false);

    let (_, no_cpf) = w.member("semcpf@example.com", None).await;
    let empty = call(&w.app, "GET", APPOINTMENTS, Some(&no_cpf), &[]).await;
    assert_eq!(ids(&empty), Vec::<i64>::new());
}

#[testkit::db_test]
async fn a_request_is_stored_under_the_cpf_and_mailed_to_the_desk_and_the_member(db: PgPool) {
    let w = world(db).await;
    let answer = w
        .post(
            APPOINTMENTS,
            &json!({ "date": "Segunda-feira", "description": "  Dúvida sobre férias " }),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    assert_eq!(answer.json()["message"], SENT);
    let id = answer.json()["id"].as_i64().expect("id");
    let stored: Stored = sqlx::query_as(
        "SELECT station_id, service, cpf, user_id, preferred_weekday, description, phone, status
               FROM service_appointments WHERE id = $1",
    )
    .bind(id)
    .fetch_one(&w.db)
    .await
    .expect("stored");
    assert_eq!(
        stored,
        (
            w.station_id,
            "legal".into(),
            MEMBER_CPF.into(),
            Some(w.member_id),
            Some(1),
            "Dúvida sobre férias".into(),
            None,
            "requested".into()
        )
    );
    assert_eq!(
        mails_of(&w.db, id).await,
        [
            (
                "legal@sindicato.example.com".to_string(),
                "Nova solicitação: Consultoria jurídica".to_string(),
                None
            ),
            (
                MEMBER_MAIL.to_string(),
                "Recebemos sua solicitação".to_string(),
                Some(w.member_id)
            ),
        ]
    );
    // The ISO number reads as the label does; it lists as awaiting confirmation.
    let by_number = w
        .post(
            APPOINTMENTS,
            &json!({ "date": 5, "description": "Rescisão" }),
        )
        .await;
    assert_eq!(by_number.status, StatusCode::CREATED, "{}", by_number.text);
    let list = w.get(APPOINTMENTS).await.json();
    assert_eq!(list[0]["diaPreferido"], "Sexta-feira");
    assert_eq!(list[0]["situacao"], "Aguardando confirmação");

    // A desk without an address keeps it for the console; a member without an e-mail gets
    // no acknowledgement.
    desk_row(&w.db, w.station_id, "legal", None).await;
    let (member_id, token) = w.member("sememail@example.com", Some("11144477735")).await;
    sqlx::query("UPDATE users SET email = NULL WHERE id = $1")
        .bind(member_id)
        .execute(&w.db)
        .await
        .expect("no e-mail");
    let answer = crate::common::send_json(
        &w.app,
        "POST",
        APPOINTMENTS,
        Some(&token),
        &[],
        &json!({ "date": "Terça-feira", "description": "Dúvida" }),
    )
    .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let id = answer.json()["id"].as_i64().expect("id");
    assert_eq!(mails_of(&w.db, id).await, []);
}

#[testkit::db_test]
async fn a_request_that_breaks_the_rules_is_refused_field_by_field(db: PgPool) {
    let w = world(db).await;
    let cases: [(Value, Vec<&str>); 6] = [
        (
            json!({}),
            vec![
                "date: Esse campo é obrigatório",
                "description: Esse campo é obrigatório",
            ],
        ),
        (
            json!({ "date": "Feriado", "description": "x" }),
            vec!["date: Dia inválido"],
        ),
        (
            json!({ "date": 9, "description": "x" }),
            vec!["date: Dia inválido"],
        ),
        (
            json!({ "date": "Sábado", "description": "x" }),
            vec!["date: Este serviço não atende neste dia."],
        ),
        (
            json!({ "date": "Segunda-feira", "description": "   " }),
            vec!["description: Esse campo é obrigatório"],
        ),
        (
            json!({ "date": "Segunda-feira", "description": "a".repeat(1001) }),
            vec!["description: Máximo de 1000 caracteres"],
        ),
    ];
    for (body, expected) in cases {
        let answer = w.post(APPOINTMENTS, &body).await;
        refused(
            "post",
            "/api/legal-appointments",
            &answer,
            StatusCode::UNPROCESSABLE_ENTITY,
            expected[0],
        );
        assert_eq!(messages(&answer), expected, "{body}");
    }
    let at_most = w
        .post(
            APPOINTMENTS,
            &json!({ "date": "Segunda-feira", "description": "a".repeat(1000) }),
        )
        .await;
    assert_eq!(at_most.status, StatusCode::CREATED, "{}", at_most.text);

    let (_, no_cpf) = w.member("semcpf@example.com", None).await;
    let answer = crate::common::send_json(
        &w.app,
        "POST",
        APPOINTMENTS,
        Some(&no_cpf),
        &[],
        &json!({ "date": "Segunda-feira", "description": "x" }),
    )
    .await;
    assert_eq!(
        messages(&answer),
        ["cpf: Cadastre seu CPF no seu perfil para solicitar atendimento."]
    );
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM service_appointments")
        .fetch_one(&w.db)
        .await
        .expect("count");
    assert_eq!(stored, 1);
}

#[testkit::db_test]
async fn five_requests_an_hour_per_member_and_desk(db: PgPool) {
    let w = world(db).await;
    let body = json!({ "date": "Quinta-feira", "description": "Dúvida" });
    for _ in 0..5 {
        let answer = w.post(APPOINTMENTS, &body).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    }
    let sixth = w.post(APPOINTMENTS, &body).await;
    refused(
        "post",
        "/api/legal-appointments",
        &sixth,
        StatusCode::TOO_MANY_REQUESTS,
        TOO_MANY,
    );
    let wait: u64 = sixth.headers["retry-after"]
        .to_str()
        .expect("header")
        .parse()
        .expect("seconds");
    assert!((3500..=3600).contains(&wait), "{wait}");
    // Another desk, and another member, have their own allowance.
    let accounting = w.post("/api/accounting-appointments", &body).await;
    assert_eq!(
        accounting.status,
        StatusCode::CREATED,
        "{}",
        accounting.text
    );
    let (_, joao) = w.member("joao@example.com", Some("11144477735")).await;
    let theirs =
        crate::common::send_json(&w.app, "POST", APPOINTMENTS, Some(&joao), &[], &body).await;
    assert_eq!(theirs.status, StatusCode::CREATED, "{}", theirs.text);
    // Requests older than an hour no longer count.
    sqlx::query(
        "UPDATE service_appointments SET created_at = now() - interval '61 minutes'
          WHERE user_id = $1",
    )
    .bind(w.member_id)
    .execute(&w.db)
    .await
    .expect("age");
    let again = w.post(APPOINTMENTS, &body).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
}

#[testkit::db_test]
async fn a_confirmed_appointment_is_cancelled_only_more_than_48_hours_ahead(db: PgPool) {
    let w = world(db).await;
    let office_id = office(&w.db, w.station_id, "legal", "Alves & Lima Advogados").await;
    let edge = Utc::now() + Duration::hours(48);
    let confirmed = |at: DateTime<Utc>| {
        let mut row = w.row("legal", "confirmed");
        row.scheduled_at = Some(at);
        row.office_id = Some(office_id);
        row
    };
    let too_late = insert_appointment(&w.db, &confirmed(edge - Duration::seconds(1))).await;
    let in_time = insert_appointment(&w.db, &confirmed(edge + Duration::seconds(1))).await;

    let answer = cancel(&w, Some(office_id), too_late).await;
    refused(
        "post",
        "/api/cancel-legal-appointments",
        &answer,
        StatusCode::CONFLICT,
        TOO_LATE,
    );
    assert_eq!(status_of(&w, too_late).await.0, "confirmed");

    let answer = cancel(&w, Some(office_id), in_time).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(
        answer.json(),
        json!({ "message": "Agendamento cancelado com sucesso!" })
    );
    assert_eq!(
        status_of(&w, in_time).await,
        ("cancelled".into(), Some("member".into()), Some(w.member_id))
    );
    assert_eq!(
        mails_of(&w.db, in_time).await,
        [(
            "legal@sindicato.example.com".to_string(),
            "Agendamento cancelado: Consultoria jurídica".to_string(),
            None
        )]
    );
    // Once cancelled, never again.
    let again = cancel(&w, Some(office_id), in_time).await;
    refused(
        "post",
        "/api/cancel-legal-appointments",
        &again,
        StatusCode::CONFLICT,
        NOT_CANCELLABLE,
    );
}

#[testkit::db_test]
async fn requests_are_cancellable_and_finished_ones_are_not(db: PgPool) {
    let w = world(db).await;
    let requested = insert_appointment(&w.db, &w.row("legal", "requested")).await;
    let answer = cancel(&w, None, requested).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(status_of(&w, requested).await.0, "cancelled");
    for status in ["done", "absent"] {
        let mut row = w.row("legal", status);
        row.scheduled_at = Some(Utc::now() - Duration::days(3));
        let id = insert_appointment(&w.db, &row).await;
        let answer = cancel(&w, None, id).await;
        refused(
            "post",
            "/api/cancel-legal-appointments",
            &answer,
            StatusCode::CONFLICT,
            NOT_CANCELLABLE,
        );
    }
    let answer = w.post(CANCEL, &json!({ "escritorioId": null })).await;
    assert_eq!(
        messages(&answer),
        ["appointmentId: Esse campo é obrigatório"]
    );
}

#[testkit::db_test]
async fn another_members_or_another_offices_appointment_is_not_found(db: PgPool) {
    let w = world(db).await;
    let office_id = office(&w.db, w.station_id, "legal", "Alves & Lima Advogados").await;
    let other_office = office(&w.db, w.station_id, "legal", "Outro Escritório").await;
    let mut theirs = w.row("legal", "requested");
    theirs.cpf = "11144477735".into();
    let theirs = insert_appointment(&w.db, &theirs).await;
    let mut mine = w.row("legal", "confirmed");
    mine.scheduled_at = Some(Utc::now() + Duration::days(10));
    mine.office_id = Some(office_id);
    let mine = insert_appointment(&w.db, &mine).await;
    let accounting = insert_appointment(&w.db, &w.row("accounting", "requested")).await;

    for (office, id) in [
        (None, theirs),
        (Some(other_office), mine),
        (None, mine),
        (None, accounting),
        (None, 999_999),
    ] {
        let answer = cancel(&w, office, id).await;
        refused(
            "post",
            "/api/cancel-legal-appointments",
            &answer,
            StatusCode::NOT_FOUND,
            NOT_FOUND,
        );
    }
    assert_eq!(status_of(&w, theirs).await.0, "requested");
    assert_eq!(status_of(&w, mine).await.0, "confirmed");
}

#[testkit::db_test]
async fn two_cancels_at_once_cancel_once(db: PgPool) {
    let w = world(db).await;
    let mut row = w.row("legal", "confirmed");
    row.scheduled_at = Some(Utc::now() + Duration::days(5));
    let id = insert_appointment(&w.db, &row).await;
    let (first, second) = tokio::join!(cancel(&w, None, id), cancel(&w, None, id));
    let mut statuses = [first.status, second.status];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::OK, StatusCode::CONFLICT],
        "{} / {}",
        first.text,
        second.text
    );
    assert_eq!(mails_of(&w.db, id).await.len(), 1);
}

#[testkit::db_test]
async fn a_station_without_legal_consultancy_answers_none_of_it(db: PgPool) {
    let w = world(db).await;
    let id = insert_appointment(&w.db, &w.row("legal", "requested")).await;
    offer(&w.db, w.station_id, &["accounting", "health"]).await;
    for path in [PROCESSES, APPOINTMENTS] {
        let answer = w.get(path).await;
        refused("get", path, &answer, StatusCode::NOT_FOUND, UNAVAILABLE);
    }
    let answer = w
        .post(
            APPOINTMENTS,
            &json!({ "date": "Segunda-feira", "description": "x" }),
        )
        .await;
    refused(
        "post",
        APPOINTMENTS,
        &answer,
        StatusCode::NOT_FOUND,
        UNAVAILABLE,
    );
    let answer = cancel(&w, None, id).await;
    refused("post", CANCEL, &answer, StatusCode::NOT_FOUND, UNAVAILABLE);
    assert_eq!(status_of(&w, id).await.0, "requested");
    let anonymous = call(&w.app, "GET", APPOINTMENTS, None, &[]).await;
    assert_eq!(
        anonymous.status,
        StatusCode::UNAUTHORIZED,
        "{}",
        anonymous.text
    );
}
