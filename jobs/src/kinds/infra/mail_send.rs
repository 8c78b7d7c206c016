//! `mail.send`: delivers one rendered e-mail. The message is rendered when the event
//! happens and carried whole, so a retry sends exactly what the member was meant to get.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use domain::infra::mail::OutgoingMail;

use crate::job::{Backoff, Job, JobContext, JobError};

/// The message whole, body included: activation codes and password-reset links travel in
/// `mail.text` and `mail.html`. So the support console shows and searches this payload
/// without those two fields (`shown_payload!` in `crate::console`); keep any other secret
/// a new field might carry out of the console the same way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MailSend {
    pub mail: OutgoingMail,
}

impl Job for MailSend {
    const QUEUE: &'static str = "mail.send";
    const MAX_ATTEMPTS: i32 = 8;
    /// 30 s, 1 min, 2 min ... an SMTP relay that is down for an hour still gets the mail.
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(30),
        max: Duration::from_secs(3600),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        match ctx.services.mailer.send(&self.mail).await {
            Ok(()) => Ok(json!({ "to": self.mail.to })),
            Err(err) if err.is_transient() => Err(JobError::retry(
                "O servidor de e-mail não respondeu; vamos tentar de novo.",
                err,
            )),
            Err(err) => Err(JobError::permanent("O e-mail não pôde ser entregue.", err)),
        }
    }
}
