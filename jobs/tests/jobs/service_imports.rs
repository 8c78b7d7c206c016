//! `services.import`: a desk's CSV imported row by row in batches, its bad rows rejected
//! with their line and message, its progress on the import row and the job; a re-run or
//! the same file again changes nothing, and a run stopped after a batch continues after
//! it.

use std::sync::{Arc, Mutex};

use app::services::imports::{self, Ran, Sent};
use domain::services::Desk;
use jobs::kinds::ServicesImport;
use jobs::{Job, JobContext, JobOutbox};
use serde_json::Value;
use sqlx::PgPool;
use testkit::build;

use crate::common;

const HEADER: &str = "cpf;numero_processo;tipo;situacao;data_protocolo;tribunal_orgao;titulo;valor_causa;link_processo;coletiva";

/// A valid CPF from its first nine digits.
fn cpf(base: u32) -> String {
    let mut digits: Vec<u32> = format!("{base:09}")
        .chars()
        .map(|c| c.to_digit(10).expect("digit"))
        .collect();
    for _ in 0..2 {
        let len = digits.len() as u32;
        let sum: u32 = digits
            .iter()
            .zip((2..=len + 1).rev())
            .map(|(d, w)| d * w)
            .sum();
        digits.push(match sum % 11 {
            0 | 1 => 0,
            rest => 11 - rest,
        });
    }
    digits.iter().map(|d| d.to_string()).collect()
}

/// Ten rows: eight good cases (two parties of case 7), a bad CPF and a bad date.
fn file() -> String {
    let mut lines = vec![HEADER.to_string()];
    for n in 1..=7u32 {
        lines.push(format!(
            "{};000{n};Trabalhista;Em andamento;0{n}/03/2025;TRT-2;Caso {n};1.000,{n:02};https://pje.example/{n};não",
            cpf(100_000_000 + n)
        ));
    }
    lines.push(format!("{};0007;Trabalhista;;;;;;;sim", cpf(200_000_000)));
    lines.push("123.456.789-00;0009;;;;;;;;".into());
    lines.push(format!("{};0010;;;31/02/2025;;;;;", cpf(300_000_000)));
    lines.join("\r\n")
}

struct World {
    db: PgPool,
    station_id: i64,
    staff_id: i64,
}

async fn world(db: PgPool) -> World {
    let station_id = build::station("sindicato")
        .url("https://sindicato.example.com")
        .insert(&db)
        .await;
    sqlx::query("UPDATE stations SET legal_access = true WHERE id = $1")
        .bind(station_id)
        .execute(&db)
        .await
        .expect("legal on");
    let staff_id = build::member(station_id)
        .name("Advogada")
        .email("advogada@example.com")
        .staff()
        .insert(&db)
        .await;
    World {
        db,
        station_id,
        staff_id,
    }
}

async fn send(world: &World, file: &str) -> i64 {
    imports::start(
        &world.db,
        &JobOutbox,
        Sent {
            station_id: world.station_id,
            desk: Desk::Legal,
            kind: "cases",
            file_name: "processos.csv",
            bytes: file.as_bytes(),
            user_id: world.staff_id,
        },
    )
    .await
    .expect("stored")
    .id
}

/// Runs the import's job as a worker would.
async fn run_job(db: &PgPool, import_id: i64) -> (Value, Option<i16>) {
    let job_id: String = sqlx::query_scalar("SELECT job_id FROM service_imports WHERE id = $1")
        .bind(import_id)
        .fetch_one(db)
        .await
        .expect("job id");
    let context = JobContext {
        id: job_id.clone(),
        attempt: 1,
        worker: "test".into(),
        taken_at: None,
        services: common::services(db, None),
    };
    let result = ServicesImport { import_id }
        .run(context)
        .await
        .expect("imported");
    let progress: Option<i16> =
        sqlx::query_scalar("SELECT progress FROM job_records WHERE job_id = $1")
            .bind(&job_id)
            .fetch_optional(db)
            .await
            .expect("progress")
            .flatten();
    (result, progress)
}

async fn counts(db: &PgPool, import_id: i64) -> (String, i32, i32, i32, i32, i32, Value) {
    sqlx::query_as(
        "SELECT status, total_rows, processed_rows, inserted, updated, unchanged, rejected
         FROM service_imports WHERE id = $1",
    )
    .bind(import_id)
    .fetch_one(db)
    .await
    .expect("import")
}

async fn cases(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM service_cases")
        .fetch_one(db)
        .await
        .expect("cases")
}

#[test]
fn the_kind_is_registered() {
    assert!(jobs::kinds::QUEUES.contains(&"services.import"));
}

#[testkit::db_test]
async fn bad_rows_are_rejected_and_the_same_file_again_changes_nothing(db: PgPool) {
    let world = world(db).await;
    let first = send(&world, &file()).await;
    assert_eq!(
        counts(&world.db, first).await.1,
        10,
        "total counted when sent"
    );
    let (result, progress) = run_job(&world.db, first).await;
    assert_eq!(result["inserted"], 8);
    assert_eq!(result["rejected"], 2);
    assert_eq!(progress, Some(100));
    let (status, total, processed, inserted, updated, unchanged, rejected) =
        counts(&world.db, first).await;
    assert_eq!(
        (
            status.as_str(),
            total,
            processed,
            inserted,
            updated,
            unchanged
        ),
        ("done", 10, 10, 8, 0, 0)
    );
    assert_eq!(
        rejected,
        serde_json::json!([
            { "line": 10, "message": "cpf: CPF inválido" },
            { "line": 11, "message": "data_protocolo: Data inválida (use DD/MM/AAAA)" },
        ])
    );
    assert_eq!(cases(&world.db).await, 8);
    let (claim, filed, link): (Option<i64>, String, Option<String>) = sqlx::query_as(
        "SELECT claim_cents, filed_on::text, link FROM service_cases WHERE case_number = '0003'",
    )
    .fetch_one(&world.db)
    .await
    .expect("case");
    assert_eq!(
        (claim, filed.as_str(), link.as_deref()),
        (Some(100_003), "2025-03-03", Some("https://pje.example/3"))
    );

    // The job run again: a done import is left as it is.
    run_job(&world.db, first).await;
    assert_eq!(counts(&world.db, first).await.3, 8);

    // The same file again, once the first is done: every good row unchanged.
    let second = send(&world, &file()).await;
    run_job(&world.db, second).await;
    let (status, _, processed, inserted, updated, unchanged, rejected) =
        counts(&world.db, second).await;
    assert_eq!(
        (status.as_str(), processed, inserted, updated, unchanged),
        ("done", 10, 0, 0, 8)
    );
    assert_eq!(rejected.as_array().map(Vec::len), Some(2));
    assert_eq!(cases(&world.db).await, 8);
}

#[testkit::db_test]
async fn progress_is_counted_per_batch_and_a_stopped_run_continues(db: PgPool) {
    let world = world(db).await;
    let import_id = send(&world, &file()).await;
    // The first run stops after its second batch (of three rows), as a crash would.
    let seen = Arc::new(Mutex::new(Vec::new()));
    let stopped = imports::run(&world.db, import_id, 3, |processed, total| {
        let seen = seen.clone();
        async move {
            seen.lock().expect("seen").push((processed, total));
            if processed >= 6 {
                return Err(sqlx::Error::PoolTimedOut);
            }
            Ok(())
        }
    })
    .await;
    assert!(stopped.is_err());
    assert_eq!(*seen.lock().expect("seen"), vec![(3, 10), (6, 10)]);
    let (status, _, processed, inserted, ..) = counts(&world.db, import_id).await;
    assert_eq!((status.as_str(), processed, inserted), ("running", 6, 6));

    // The next run continues after the committed batches: rows 7 to 10 only.
    seen.lock().expect("seen").clear();
    let ran = imports::run(&world.db, import_id, 3, |processed, total| {
        let seen = seen.clone();
        async move {
            seen.lock().expect("seen").push((processed, total));
            Ok(())
        }
    })
    .await
    .expect("continued");
    assert!(matches!(ran, Ran::Done(_)));
    assert_eq!(*seen.lock().expect("seen"), vec![(9, 10), (10, 10)]);
    let (status, _, processed, inserted, updated, unchanged, rejected) =
        counts(&world.db, import_id).await;
    assert_eq!(
        (status.as_str(), processed, inserted, updated, unchanged),
        ("done", 10, 8, 0, 0)
    );
    assert_eq!(rejected.as_array().map(Vec::len), Some(2));
    assert_eq!(cases(&world.db).await, 8);
}
