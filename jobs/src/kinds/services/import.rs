//! `services.import {import_id}`: imports the CSV a desk's staff sent
//! (`app::services::imports::run`): row by row, in batches of rows each committed with its
//! counts, `processed_rows` and the job's progress. Queued on the transaction that stores
//! the file, keyed `service_import:{id}`. Idempotent: a re-run continues after the last
//! committed batch, a done import is left as it is, and rows are keyed by the office's own
//! reference, so the same file imported again leaves every row unchanged.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use app::services::imports::{self, BATCH_SIZE, Ran};

use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServicesImport {
    pub import_id: i64,
}

const FAILED: &str = "A importação foi interrompida; será retomada de onde parou.";
const GAVE_UP: &str = "A importação falhou. Envie o arquivo novamente.";

impl ServicesImport {
    /// Enqueued on the transaction that stores the import: once per import.
    pub async fn enqueue(
        tx: &mut PgConnection,
        station_id: i64,
        user_id: i64,
        import_id: i64,
    ) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self { import_id })
            .owner(station_id, Some(user_id))
            .about("service_import", import_id)
            .idempotency_key(format!("service_import:{import_id}"))
            .push(tx)
            .await
    }
}

impl Job for ServicesImport {
    const QUEUE: &'static str = "services.import";
    const MAX_ATTEMPTS: i32 = 5;
    const CONCURRENCY: usize = 1;
    /// 2 MB is some 20 000 rows; a retry resumes where the attempt stopped.
    const TIMEOUT: Duration = Duration::from_secs(15 * 60);
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(30),
        max: Duration::from_secs(30 * 60),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let import_id = self.import_id;
        let mut shown = None;
        let ran = imports::run(ctx.db(), import_id, BATCH_SIZE, |processed, total| {
            let percent = u8::try_from(processed * 100 / total.max(1)).unwrap_or(100);
            let changed = shown.replace(percent) != Some(percent);
            let ctx = ctx.clone();
            async move {
                if changed {
                    ctx.progress(percent).await?;
                }
                Ok(())
            }
        })
        .await;
        let ran = match ran {
            Ok(ran) => ran,
            Err(err) => {
                // The last attempt tells the console it failed; earlier ones will resume.
                if ctx.attempt >= u32::try_from(Self::MAX_ATTEMPTS).unwrap_or(1) {
                    let _ = imports::fail(ctx.db(), import_id, GAVE_UP).await;
                    return Err(JobError::permanent(GAVE_UP, err));
                }
                return Err(JobError::retry(FAILED, err));
            }
        };
        match ran {
            Ran::Missing => Err(JobError::permanent(
                "A importação não existe mais.",
                anyhow::anyhow!("service import {import_id} not found"),
            )),
            Ran::Done(import) => {
                ctx.progress(100)
                    .await
                    .map_err(|err| JobError::retry("Falha ao registrar o progresso.", err))?;
                Ok(json!({
                    "import_id": import.id,
                    "total_rows": import.total_rows,
                    "inserted": import.inserted,
                    "updated": import.updated,
                    "unchanged": import.unchanged,
                    "rejected": import.rejected.0.len(),
                }))
            }
        }
    }
}
