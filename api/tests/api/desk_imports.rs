//! A desk's CSV imports over HTTP (docs/api-services.md "The desk in the console",
//! Imports) against the real database: the file checked as sent, the `services.import` job
//! run through its real handler, the same file refused while it runs and unchanged after,
//! and another station's desk never reached.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use domain::services::Desk;
use domain::staff::{Role, Scope};
use jobs::kinds::ServicesImport;
use serde_json::Value;
use sqlx::PgPool;
use testkit::build;

use crate::common::{self, Answer, session_of};

const CASES_HEADER: &str = "cpf;numero_processo;tipo;situacao;data_protocolo;tribunal_orgao;titulo;valor_causa;link_processo;coletiva";

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    other_station: i64,
    /// Desk staff of the station's legal desk.
    lawyer: String,
    /// The demo member (no staff).
    member: String,
}

async fn world(db: PgPool) -> World {
    let (demo, member) = common::demo_member_session(&db).await;
    let other_station = common::insert_station(&db, "outro").await;
    for station in [demo.station_id, other_station] {
        sqlx::query("UPDATE stations SET legal_access = true, health_access = true WHERE id = $1")
            .bind(station)
            .execute(&db)
            .await
            .expect("services on");
    }
    let lawyer = desk_staff(&db, demo.station_id, Desk::Legal, "advogada@example.com").await;
    World {
        app: common::app(db.clone()),
        db,
        station_id: demo.station_id,
        other_station,
        lawyer,
        member,
    }
}

async fn desk_staff(db: &PgPool, station_id: i64, desk: Desk, email: &str) -> String {
    let id = build::member(station_id)
        .name("Equipe do balcão")
        .email(email)
        .staff()
        .insert(db)
        .await;
    domain::services::access::grant_desk(db, id, station_id, desk)
        .await
        .expect("desk grant");
    session_of(db, id).await
}

/// A valid CPF from its first nine digits.
fn cpf(base: u32) -> String {
    let digits: Vec<u32> = format!("{:09}", base)
        .chars()
        .map(|c| c.to_digit(10).expect("read"))
        .collect();
    let check = |digits: &[u32]| {
        let len = digits.len() as u32;
        let sum: u32 = digits
            .iter()
            .zip((2..=len + 1).rev())
            .map(|(d, w)| d * w)
            .sum();
        match sum % 11 {
            0 | 1 => 0,
            rest => 11 - rest,
        }
    };
    let mut all = digits.clone();
    all.push(check(&all));
    all.push(check(&all));
    all.iter().map(|d| d.to_string()).collect()
}

fn form(kind: Option<&str>, file: Option<&[u8]>) -> (String, Vec<u8>) {
    let boundary = "filia-imports-boundary";
    let mut body = Vec::new();
    if let Some(kind) = kind {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"kind\"\r\n\r\n{kind}\r\n"
            )
            .as_bytes(),
        );
    }
    if let Some(file) = file {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"processos.csv\"\r\n\
                 Content-Type: text/csv\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(file);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

async fn send_import(
    world: &World,
    token: &str,
    station_id: i64,
    desk: &str,
    kind: Option<&str>,
    file: Option<&[u8]>,
) -> Answer {
    let (content_type, body) = form(kind, file);
    let request = Request::post(format!(
        "/api/ops/stations/{station_id}/desk/{desk}/imports"
    ))
    .header("authorization", format!("Bearer {token}"))
    .header("content-type", content_type)
    .body(Body::from(body))
    .expect("request");
    common::send(&world.app, request).await
}

async fn get(world: &World, token: &str, uri: &str) -> Answer {
    common::call(&world.app, "GET", uri, Some(token), &[]).await
}

fn messages(answer: &Answer) -> Vec<String> {
    serde_json::from_value(answer.json()["messages"].clone()).expect("messages")
}

fn cases_file() -> String {
    format!(
        "{CASES_HEADER}\n\
         {};0001234-56.2025.5.02.0001;Trabalhista;Em andamento;14/03/2025;TRT-2;Horas extras;12.500,00;https://pje.example/1;não\n\
         11111111111;0002;Cível;;;;;;;\n\
         {};0003;Cível;Arquivado;2024-01-31;TJSP;Indenização;;https://tj.example/3;sim\n\
         {};0004;;;;;;mil reais;;\n",
        cpf(529_982_247),
        cpf(111_444_777),
        cpf(390_533_447),
    )
}

async fn run_imports(db: &PgPool) -> Vec<Value> {
    common::run_jobs::<ServicesImport>(db, "services.import", true).await
}

#[testkit::db_test]
async fn a_cases_file_is_imported_once_with_its_rejected_rows(db: PgPool) {
    let world = world(db).await;
    let file = cases_file();
    let sent = send_import(
        &world,
        &world.lawyer,
        world.station_id,
        "legal",
        Some("cases"),
        Some(file.as_bytes()),
    )
    .await;
    assert_eq!(sent.status, StatusCode::ACCEPTED, "{}", sent.text);
    let body = sent.json();
    let import = &body["import"];
    assert_eq!(import["status"], "queued");
    assert_eq!(import["kind"], "cases");
    assert_eq!(import["desk"], "legal");
    assert_eq!(import["total_rows"], 4);
    assert_eq!(import["processed_rows"], 0);
    assert_eq!(import["file_name"], "processos.csv");
    assert!(body["job_id"].as_str().is_some_and(|id| !id.is_empty()));
    assert_eq!(import["job_id"], body["job_id"]);
    let id = import["id"].as_i64().expect("id");
    // Sending it is a staff action, audited with the job it queued.
    let (action, job_ids, audited_import): (String, Vec<String>, i64) = sqlx::query_as(
        "SELECT action, job_ids, (details->>'import_id')::bigint FROM staff_audit
         WHERE station_id = $1",
    )
    .bind(world.station_id)
    .fetch_one(&world.db)
    .await
    .expect("the import's audit row");
    assert_eq!(action, "services.import");
    assert_eq!(
        job_ids,
        vec![body["job_id"].as_str().expect("job").to_string()]
    );
    assert_eq!(audited_import, id);

    // Sent again while queued: refused.
    let again = send_import(
        &world,
        &world.lawyer,
        world.station_id,
        "legal",
        Some("cases"),
        Some(file.as_bytes()),
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    assert_eq!(
        again.json()["error"],
        "Este arquivo já está sendo importado. Aguarde o fim da importação anterior."
    );

    run_imports(&world.db).await;
    let done = get(
        &world,
        &world.lawyer,
        &format!("/api/ops/desk/imports/{id}"),
    )
    .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    let done = done.json();
    assert_eq!(done["status"], "done");
    assert_eq!(done["processed_rows"], 4);
    assert_eq!(done["inserted"], 2);
    assert_eq!(done["updated"], 0);
    assert_eq!(done["unchanged"], 0);
    assert!(done["finished_at"].is_string());
    assert_eq!(
        done["rejected"],
        serde_json::json!([
            { "line": 3, "message": "cpf: CPF inválido" },
            { "line": 5, "message": "valor_causa: Valor inválido (use 1.234,56)" },
        ])
    );
    let stored: (i64, Option<i64>, bool) = sqlx::query_as(
        "SELECT count(*) OVER (), claim_cents, collective FROM service_cases
         WHERE station_id = $1 AND service = 'legal' ORDER BY case_number LIMIT 1",
    )
    .bind(world.station_id)
    .fetch_one(&world.db)
    .await
    .expect("cases");
    assert_eq!(stored, (2, Some(1_250_000), false));

    // The same file again after it is done: every good row unchanged.
    let again = send_import(
        &world,
        &world.lawyer,
        world.station_id,
        "legal",
        Some("cases"),
        Some(file.as_bytes()),
    )
    .await;
    assert_eq!(again.status, StatusCode::ACCEPTED, "{}", again.text);
    let second = again.json()["import"]["id"].as_i64().expect("id");
    run_imports(&world.db).await;
    let done = get(
        &world,
        &world.lawyer,
        &format!("/api/ops/desk/imports/{second}"),
    )
    .await
    .json();
    assert_eq!(
        (
            done["inserted"].as_i64(),
            done["updated"].as_i64(),
            done["unchanged"].as_i64()
        ),
        (Some(0), Some(0), Some(2))
    );

    // A changed row is updated.
    let changed = file.replace("Em andamento", "Sentenciado");
    send_import(
        &world,
        &world.lawyer,
        world.station_id,
        "legal",
        Some("cases"),
        Some(changed.as_bytes()),
    )
    .await;
    run_imports(&world.db).await;

    let listed = get(
        &world,
        &world.lawyer,
        &format!("/api/ops/stations/{}/desk/legal/imports", world.station_id),
    )
    .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    let listed = listed.json();
    let listed = listed.as_array().expect("list");
    assert_eq!(listed.len(), 3);
    assert_eq!(listed[0]["updated"], 1);
    assert_eq!(listed[0]["unchanged"], 1);
    assert_eq!(listed[2]["id"].as_i64(), Some(id));
}

#[testkit::db_test]
async fn appointments_are_imported_with_their_offices(db: PgPool) {
    let world = world(db).await;
    let nurse = desk_staff(
        &world.db,
        world.station_id,
        Desk::Health,
        "saude@example.com",
    )
    .await;
    let file = format!(
        "referencia,cpf,servico,data,hora,situacao,escritorio,descricao\n\
         C-1,{},Odontologia,03/12/2026,09:30,agendado,Clínica Sorriso,Limpeza\n\
         C-2,{},psicologia,2026-12-04,14:00,cancelado,,\n\
         C-3,{},cardiologia,2026-12-04,14:00,agendado,,\n",
        cpf(529_982_247),
        cpf(111_444_777),
        cpf(390_533_447),
    );
    let sent = send_import(
        &world,
        &nurse,
        world.station_id,
        "health",
        Some("appointments"),
        Some(file.as_bytes()),
    )
    .await;
    assert_eq!(sent.status, StatusCode::ACCEPTED, "{}", sent.text);
    let id = sent.json()["import"]["id"].as_i64().expect("id");
    run_imports(&world.db).await;
    let done = get(&world, &nurse, &format!("/api/ops/desk/imports/{id}"))
        .await
        .json();
    assert_eq!(done["inserted"], 2);
    assert_eq!(done["rejected"][0]["line"], 4);
    let (service, status, at, office): (String, String, String, Option<String>) = sqlx::query_as(
        "SELECT a.service, a.status, to_char(a.scheduled_at AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD HH24:MI'), o.name
         FROM service_appointments a LEFT JOIN service_offices o ON o.id = a.office_id
         WHERE a.external_ref = 'C-1'",
    )
    .fetch_one(&world.db)
    .await
    .expect("appointment");
    assert_eq!(
        (
            service.as_str(),
            status.as_str(),
            at.as_str(),
            office.as_deref()
        ),
        (
            "dental",
            "confirmed",
            "2026-12-03 09:30",
            Some("Clínica Sorriso")
        )
    );
    // The health desk imports no cases; the lawyer does not reach the health desk.
    let cases = send_import(
        &world,
        &nurse,
        world.station_id,
        "health",
        Some("cases"),
        Some(cases_file().as_bytes()),
    )
    .await;
    assert_eq!(cases.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        messages(&cases),
        vec!["kind: Este atendimento não importa processos."]
    );
    let lawyer = get(
        &world,
        &world.lawyer,
        &format!("/api/ops/desk/imports/{id}"),
    )
    .await;
    assert_eq!(lawyer.status, StatusCode::NOT_FOUND);

    // The member cancels C-1 here; the same file sent again never turns it back.
    sqlx::query(
        "UPDATE service_appointments
         SET status = 'cancelled', cancelled_by = 'member', status_at = now(),
             status_by = (SELECT min(id) FROM users)
         WHERE external_ref = 'C-1'",
    )
    .execute(&world.db)
    .await
    .expect("cancel");
    let again = send_import(
        &world,
        &nurse,
        world.station_id,
        "health",
        Some("appointments"),
        Some(file.as_bytes()),
    )
    .await;
    assert_eq!(again.status, StatusCode::ACCEPTED, "{}", again.text);
    let again_id = again.json()["import"]["id"].as_i64().expect("id");
    run_imports(&world.db).await;
    let counted = get(&world, &nurse, &format!("/api/ops/desk/imports/{again_id}"))
        .await
        .json();
    assert_eq!(
        (counted["inserted"].as_i64(), counted["updated"].as_i64()),
        (Some(0), Some(0))
    );
    assert_eq!(counted["unchanged"], 2);
    let (status, cancelled_by): (String, String) = sqlx::query_as(
        "SELECT status, cancelled_by FROM service_appointments WHERE external_ref = 'C-1'",
    )
    .fetch_one(&world.db)
    .await
    .expect("C-1");
    assert_eq!(
        (status.as_str(), cancelled_by.as_str()),
        ("cancelled", "member")
    );
}

#[testkit::db_test]
async fn a_bad_file_or_kind_is_refused_with_its_message(db: PgPool) {
    let world = world(db).await;
    let good = cases_file();
    let cases = |kind: Option<&'static str>, file: Option<Vec<u8>>| {
        let world = &world;
        async move {
            let answer = send_import(
                world,
                &world.lawyer,
                world.station_id,
                "legal",
                kind,
                file.as_deref(),
            )
            .await;
            assert_eq!(
                answer.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{}",
                answer.text
            );
            messages(&answer)
        }
    };
    assert_eq!(
        cases(Some("processos"), Some(good.clone().into_bytes())).await,
        vec!["kind: Escolha processos (cases) ou agendamentos (appointments)."]
    );
    assert_eq!(
        cases(Some("cases"), None).await,
        vec!["file: Esse campo é obrigatório"]
    );
    assert_eq!(
        cases(Some("cases"), Some(Vec::new())).await,
        vec!["file: Esse campo é obrigatório"]
    );
    assert_eq!(
        cases(
            Some("cases"),
            Some(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec())
        )
        .await,
        vec!["file: O arquivo deve ser um CSV de texto em UTF-8."]
    );
    assert_eq!(
        cases(Some("cases"), Some(vec![0xe9, b';', b'a'])).await,
        vec!["file: O arquivo deve ser um CSV de texto em UTF-8."]
    );
    let headless = cases(Some("cases"), Some(b"52998224725;0001\n".to_vec())).await;
    assert!(
        headless[0].starts_with("file: Cabeçalho inválido"),
        "{headless:?}"
    );
    assert_eq!(
        cases(
            Some("cases"),
            Some(format!("{CASES_HEADER}\n").into_bytes())
        )
        .await,
        vec!["file: O arquivo não tem linhas além do cabeçalho."]
    );
    let mut large = format!("{CASES_HEADER}\n").into_bytes();
    large.resize(2 * 1024 * 1024 + 10, b'a');
    assert_eq!(
        cases(Some("cases"), Some(large)).await,
        vec!["file: O arquivo deve ter no máximo 2 MB."]
    );
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM service_imports")
        .fetch_one(&world.db)
        .await
        .expect("count");
    assert_eq!(stored, 0);
    // Not a form at all.
    let json = common::send_json(
        &world.app,
        "POST",
        &format!("/api/ops/stations/{}/desk/legal/imports", world.station_id),
        Some(&world.lawyer),
        &[],
        &serde_json::json!({ "kind": "cases" }),
    )
    .await;
    assert_eq!(json.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

#[testkit::db_test]
async fn another_stations_desk_and_imports_are_never_reached(db: PgPool) {
    let world = world(db).await;
    let file = cases_file();
    let other_lawyer = desk_staff(
        &world.db,
        world.other_station,
        Desk::Legal,
        "outra@example.com",
    )
    .await;
    let sent = send_import(
        &world,
        &other_lawyer,
        world.other_station,
        "legal",
        Some("cases"),
        Some(file.as_bytes()),
    )
    .await;
    assert_eq!(sent.status, StatusCode::ACCEPTED, "{}", sent.text);
    let theirs = sent.json()["import"]["id"].as_i64().expect("id");

    // The station's lawyer: the other station's import, list and desk are not there.
    let import = get(
        &world,
        &world.lawyer,
        &format!("/api/ops/desk/imports/{theirs}"),
    )
    .await;
    assert_eq!(import.status, StatusCode::NOT_FOUND);
    assert_eq!(import.json()["error"], "Importação não encontrada.");
    let list = get(
        &world,
        &world.lawyer,
        &format!(
            "/api/ops/stations/{}/desk/legal/imports",
            world.other_station
        ),
    )
    .await;
    assert_eq!(list.status, StatusCode::NOT_FOUND);
    assert_eq!(list.json()["error"], "Estação não encontrada");
    let post = send_import(
        &world,
        &world.lawyer,
        world.other_station,
        "legal",
        Some("cases"),
        Some(file.as_bytes()),
    )
    .await;
    assert_eq!(post.status, StatusCode::NOT_FOUND);
    assert_eq!(post.json()["error"], "Estação não encontrada");
    // Unknown desks and the political desk import nothing.
    for desk in ["political", "shop"] {
        let answer = send_import(
            &world,
            &world.lawyer,
            world.station_id,
            desk,
            Some("cases"),
            Some(file.as_bytes()),
        )
        .await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{desk}");
    }
    // Another desk of the station: forbidden.
    let health = send_import(
        &world,
        &world.lawyer,
        world.station_id,
        "health",
        Some("appointments"),
        Some(file.as_bytes()),
    )
    .await;
    assert_eq!(health.status, StatusCode::FORBIDDEN);
    // A member who is not staff, and a console viewer (reads only).
    let refused = send_import(
        &world,
        &world.member,
        world.station_id,
        "legal",
        Some("cases"),
        Some(file.as_bytes()),
    )
    .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert_eq!(
        refused.json()["error"],
        "Acesso restrito à equipe de suporte."
    );
    let viewer_id = build::member(world.station_id)
        .name("Leitura")
        .email("leitura@example.com")
        .staff()
        .insert(&world.db)
        .await;
    domain::staff::set_grant(
        &world.db,
        viewer_id,
        Role::Viewer,
        Scope::Station(world.station_id),
    )
    .await
    .expect("grant");
    let viewer = session_of(&world.db, viewer_id).await;
    let read_only = send_import(
        &world,
        &viewer,
        world.station_id,
        "legal",
        Some("cases"),
        Some(file.as_bytes()),
    )
    .await;
    assert_eq!(read_only.status, StatusCode::FORBIDDEN);
    let listed = get(
        &world,
        &viewer,
        &format!("/api/ops/stations/{}/desk/legal/imports", world.station_id),
    )
    .await;
    assert_eq!(listed.status, StatusCode::OK);
    assert_eq!(listed.json().as_array().map(Vec::len), Some(0));
}

#[testkit::db_test]
async fn a_station_without_the_service_has_no_imports(db: PgPool) {
    let world = world(db).await;
    let before = send_import(
        &world,
        &world.lawyer,
        world.station_id,
        "legal",
        Some("cases"),
        Some(cases_file().as_bytes()),
    )
    .await;
    assert_eq!(before.status, StatusCode::ACCEPTED, "{}", before.text);
    let earlier = before.json()["import"]["id"].as_i64().expect("id");
    sqlx::query("UPDATE stations SET legal_access = false WHERE id = $1")
        .bind(world.station_id)
        .execute(&world.db)
        .await
        .expect("legal off");
    let file = cases_file();
    let post = send_import(
        &world,
        &world.lawyer,
        world.station_id,
        "legal",
        Some("cases"),
        Some(file.as_bytes()),
    )
    .await;
    assert_eq!(post.status, StatusCode::NOT_FOUND, "{}", post.text);
    assert_eq!(post.json()["error"], "Serviço não disponível.");
    // An import made before the desk was turned off is not shown either.
    let earlier = get(
        &world,
        &world.lawyer,
        &format!("/api/ops/desk/imports/{earlier}"),
    )
    .await;
    assert_eq!(earlier.status, StatusCode::NOT_FOUND, "{}", earlier.text);
    assert_eq!(earlier.json()["error"], "Serviço não disponível.");
    let list = get(
        &world,
        &world.lawyer,
        &format!("/api/ops/stations/{}/desk/legal/imports", world.station_id),
    )
    .await;
    assert_eq!(list.status, StatusCode::NOT_FOUND);
}
