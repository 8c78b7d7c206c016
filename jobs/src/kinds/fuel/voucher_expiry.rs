//! `fuel.voucher_expiry`: hourly, marks expired the fuel vouchers past their validity
//! (`domain::fuel::vouchers::expire_due`). The member's list already reads such a voucher
//! as expired; the mark keeps the stored status true for the station's reports. A repeated
//! tick finds nothing more to mark.

use chrono::Utc;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use domain::fuel::vouchers;

use crate::job::{Job, JobContext, JobError};

/// The cron tick carries nothing: what is due is counted from when the job runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FuelVoucherExpiry {}

impl Job for FuelVoucherExpiry {
    const QUEUE: &'static str = "fuel.voucher_expiry";
    const MAX_ATTEMPTS: i32 = 3;
    const CONCURRENCY: usize = 1;

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let expired = vouchers::expire_due(ctx.db(), Utc::now())
            .await
            .map_err(|err| {
                JobError::retry("Os vouchers vencidos não puderam ser encerrados.", err)
            })?;
        if expired > 0 {
            tracing::info!(expired, "fuel vouchers expired");
        }
        Ok(json!({ "expired": expired }))
    }
}
