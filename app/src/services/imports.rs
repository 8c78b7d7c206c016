//! A desk's CSV imports (docs/api-services.md, Imports): staff send a file
//! ([`start`]: checked, stored and its `services.import` job queued on one transaction),
//! the job runs it ([`run`]: row by row, each batch of rows with its counts on its own
//! transaction, so a re-run continues where the last committed batch ended).

use sqlx::PgPool;

use domain::services::Desk;
use domain::services::imports::{
    self, ALREADY_RUNNING, BatchCounts, ImportKind, KIND_INVALID, KIND_NOT_FOR_DESK, NewImport,
    ServiceImport,
};
use domain::shared::failure::{Failure, IntoFailure};
use domain::shared::time::zone_named;
use domain::staff::{self, Action, AuditRecord};

use crate::outbox::Outbox;

/// Rows per transaction of the job.
pub const BATCH_SIZE: usize = 200;

/// A file as staff sent it.
#[derive(Debug, Clone)]
pub struct Sent<'a> {
    pub station_id: i64,
    pub desk: Desk,
    /// `cases` or `appointments`, as sent.
    pub kind: &'a str,
    pub file_name: &'a str,
    pub bytes: &'a [u8],
    pub user_id: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum ImportRefused {
    /// The kind or the file is not what the desk takes: the `field: ...` message.
    #[error("{0}")]
    Invalid(String),
    /// The same file is still being imported.
    #[error("{ALREADY_RUNNING}")]
    Running,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl IntoFailure for ImportRefused {
    fn into_failure(self) -> Failure {
        match self {
            Self::Invalid(message) => Failure::invalid(message),
            Self::Running => Failure::Conflict(ALREADY_RUNNING.into()),
            Self::Db(err) => err.into_failure(),
        }
    }
}

/// Stores the file and queues its import (the route has opened the desk). The kind must
/// be one the desk imports; the file is refused when it is not a CSV with the kind's
/// header and a row, and when the same file (station, desk, kind, digest) is still queued
/// or running. Audited (`services.import`) with the job it queued.
pub async fn start(
    db: &PgPool,
    outbox: &impl Outbox,
    sent: Sent<'_>,
) -> Result<ServiceImport, ImportRefused> {
    let kind = ImportKind::parse(sent.kind).ok_or(ImportRefused::Invalid(KIND_INVALID.into()))?;
    if !imports::desk_imports(sent.desk, kind) {
        return Err(ImportRefused::Invalid(KIND_NOT_FOR_DESK.into()));
    }
    let (content, rows) = imports::check_file(sent.bytes, kind).map_err(ImportRefused::Invalid)?;
    let sha256 = imports::sha256_hex(sent.bytes);
    let file_name: String = match sent.file_name.trim() {
        "" => "importacao.csv".to_string(),
        name => name.chars().take(200).collect(),
    };
    let new = NewImport {
        station_id: sent.station_id,
        desk: sent.desk,
        kind,
        file_name: &file_name,
        content: &content,
        sha256: &sha256,
        total_rows: i32::try_from(rows).unwrap_or(i32::MAX),
        created_by: sent.user_id,
    };
    let mut tx = db.begin().await?;
    if imports::same_file_pending(&mut tx, &new).await? {
        return Err(ImportRefused::Running);
    }
    let stored = imports::insert(&mut tx, &new).await?;
    let queued = outbox
        .import_services(&mut tx, sent.station_id, sent.user_id, stored.id)
        .await?;
    let stored = imports::set_job(&mut tx, stored.id, &queued.job_id).await?;
    staff::record(
        &mut tx,
        AuditRecord {
            user_id: sent.user_id,
            action: Action::ServicesImport,
            station_id: Some(sent.station_id),
            job_ids: std::slice::from_ref(&queued.job_id),
            details: serde_json::json!({
                "import_id": stored.id,
                "desk": sent.desk.as_str(),
                "kind": sent.kind,
                "file_name": file_name,
                "rows": rows,
            }),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(stored)
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Ran {
    /// Done (now or before); the import as it stands.
    Done(ServiceImport),
    /// Not there (deleted with its station).
    Missing,
}

/// Runs an import: skips the rows an earlier run committed, then reads, checks and
/// upserts the rest in batches of `batch_size` rows, each batch with its counts and
/// progress on one transaction; `on_batch` hears (processed, total) after each. A done
/// import is left as it is.
pub async fn run<F, Fut>(
    db: &PgPool,
    import_id: i64,
    batch_size: usize,
    mut on_batch: F,
) -> sqlx::Result<Ran>
where
    F: FnMut(usize, usize) -> Fut,
    Fut: std::future::Future<Output = sqlx::Result<()>>,
{
    let stored = {
        let mut tx = db.begin().await?;
        let stored = imports::lock_for_run(&mut tx, import_id).await?;
        tx.commit().await?;
        stored
    };
    let Some(stored) = stored else {
        return Ok(Ran::Missing);
    };
    if stored.status != "done" {
        imports::mark_running(db, import_id).await?;
        let zone = zone_named(&stored.time_zone);
        let table = imports::parse(&stored.content);
        let total = table.rows.len();
        let total_rows = i32::try_from(total).unwrap_or(i32::MAX);
        loop {
            let mut tx = db.begin().await?;
            // Where the committed batches ended; a second run waits here for this one's
            // batch, then continues after it.
            let Some(now) = imports::lock_for_run(&mut tx, import_id).await? else {
                return Ok(Ran::Missing);
            };
            let done = usize::try_from(now.processed_rows).unwrap_or(0).min(total);
            if done == total {
                break;
            }
            let batch = &table.rows[done..(done + batch_size.max(1)).min(total)];
            let mut counts = BatchCounts::default();
            for (line, row) in batch {
                let outcome = match stored.kind {
                    ImportKind::Cases => match imports::read_case(&table, row) {
                        Ok(case) => Ok(imports::upsert_case(
                            &mut tx,
                            stored.station_id,
                            stored.service,
                            &case,
                        )
                        .await?),
                        Err(message) => Err(message),
                    },
                    ImportKind::Appointments => {
                        match imports::read_appointment(stored.service, &table, row) {
                            Ok(appointment) => Ok(imports::upsert_appointment(
                                &mut tx,
                                stored.station_id,
                                zone,
                                &appointment,
                            )
                            .await?),
                            Err(message) => Err(message),
                        }
                    }
                };
                match outcome {
                    Ok(upserted) => counts.count(upserted),
                    Err(message) => counts.reject(*line, message),
                }
            }
            imports::add_batch(&mut tx, import_id, total_rows, &counts).await?;
            tx.commit().await?;
            on_batch(done + batch.len(), total).await?;
        }
        imports::finish(db, import_id).await?;
    }
    Ok(match imports::find(db, import_id).await? {
        Some(import) => Ran::Done(import),
        None => Ran::Missing,
    })
}

/// Marks an import failed, with what the console shows.
pub async fn fail(db: &PgPool, import_id: i64, failure: &str) -> sqlx::Result<()> {
    imports::fail(db, import_id, failure).await
}
