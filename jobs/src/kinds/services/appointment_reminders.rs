//! `services.appointment_reminders`: hourly, e-mails the members whose confirmed
//! appointment starts the next calendar day in their station's time zone, once each
//! (`reminder_sent_at` marked on the e-mail's transaction; the e-mail has its once-key).
//! Two ticks at once skip each other's rows, so each appointment is reminded once.

use chrono::Utc;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use app::services::desk;

use crate::JobOutbox;
use crate::job::{Job, JobContext, JobError};

/// Appointments reminded per transaction.
const BATCH: i64 = 200;

/// The cron tick carries nothing: what is due is counted from when the job runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppointmentReminders {}

impl Job for AppointmentReminders {
    const QUEUE: &'static str = "services.appointment_reminders";
    const MAX_ATTEMPTS: i32 = 3;
    const CONCURRENCY: usize = 1;

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let reminded = desk::send_reminders(
            ctx.db(),
            &JobOutbox,
            &ctx.services.config.public_url,
            Utc::now(),
            BATCH,
        )
        .await
        .map_err(|err| {
            JobError::retry("Os lembretes de agendamento não puderam ser enviados.", err)
        })?;
        if reminded > 0 {
            tracing::info!(reminded, "appointment reminders queued");
        }
        Ok(json!({ "reminded": reminded }))
    }
}
