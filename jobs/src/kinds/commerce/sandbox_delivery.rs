//! `sandbox.deliver`: posts the sandbox provider's due webhooks (its outbox) to our own
//! webhook endpoint over HTTP, at the API's configured public URL, so the real handler
//! runs: signature check, event dedupe, `payment.sync`. Enqueued at once by the sandbox's
//! "simulate payment" route (the fast path) and by a cron tick every few seconds (late and
//! duplicate deliveries, processing cards that settle, refunds that finish). Does nothing
//! with another provider. A delivery our endpoint does not take (not 2xx, no answer) is due
//! again a few seconds later.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use payments::sandbox::SIGNATURE_HEADER;

use super::gateway;
use crate::job::{Backoff, Job, JobContext, JobError};

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SandboxDeliver {
    /// The cron tick that made this run (none when a route asked for it).
    #[serde(default)]
    pub tick: Option<DateTime<Utc>>,
}

/// Deliveries posted per run.
const BATCH: i64 = 200;
/// A refused delivery is due again this much later.
const RETRY_SECONDS: i64 = 5;
const NOT_DELIVERED: &str = "Os avisos do ambiente de testes não puderam ser entregues.";

impl Job for SandboxDeliver {
    const QUEUE: &'static str = "sandbox.deliver";
    const MAX_ATTEMPTS: i32 = 3;
    const CONCURRENCY: usize = 2;
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(2),
        max: Duration::from_secs(30),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let gateway = gateway(&ctx)?;
        let Some(sandbox) = gateway.sandbox() else {
            return Ok(json!({ "delivered": 0, "provider": "not sandbox" }));
        };
        let retry =
            |err: domain::commerce::gateway::GatewayError| JobError::retry(NOT_DELIVERED, err);
        let url = format!(
            "{}/api/payments/webhooks/sandbox",
            ctx.services.config.public_url.trim_end_matches('/')
        );
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .map_err(|err| JobError::permanent(NOT_DELIVERED, err))?;
        let due = sandbox.due_webhooks(BATCH).await.map_err(retry)?;
        let (mut delivered, mut refused) = (0, 0);
        for delivery in due {
            let answer = client
                .post(&url)
                .header("content-type", "application/json")
                .header(SIGNATURE_HEADER, &delivery.signature)
                .body(delivery.body.clone())
                .send()
                .await;
            match answer {
                Ok(response) if response.status().is_success() => {
                    sandbox.mark_delivered(delivery.id).await.map_err(retry)?;
                    delivered += 1;
                }
                Ok(response) => {
                    let error = format!("HTTP {}", response.status());
                    sandbox
                        .mark_failed(delivery.id, &error, RETRY_SECONDS)
                        .await
                        .map_err(retry)?;
                    refused += 1;
                }
                Err(err) => {
                    sandbox
                        .mark_failed(delivery.id, &err.to_string(), RETRY_SECONDS)
                        .await
                        .map_err(retry)?;
                    refused += 1;
                }
            }
        }
        Ok(json!({ "delivered": delivered, "refused": refused }))
    }
}
