//! `mail.send`: delivers one rendered e-mail. The message is rendered when the event
//! happens and carried whole, so a retry sends exactly what the member was meant to get.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use domain::infra::mail::OutgoingMail;

use crate::backend::while_away;
use crate::job::{Backoff, Effect, Job, JobContext, JobError};

/// The message whole, body included: activation codes and password-reset links travel in
/// `mail.text` and `mail.html`. So the support console shows and searches this payload
/// without those two fields (`shown_payload!` in `crate::console`), and once the message is
/// delivered the stored payload loses them for good ([`forget_body`]); keep any other
/// secret a new field might carry out of both the same way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MailSend {
    pub mail: OutgoingMail,
    /// Set in the stored payload once the message went out (and its body was dropped): a
    /// later run of the same job (a worker that died before the queue heard back, a re-run
    /// from the console) succeeds without sending it again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub delivered: bool,
}

impl MailSend {
    pub fn new(mail: OutgoingMail) -> Self {
        Self {
            mail,
            delivered: false,
        }
    }
}

/// The member's words when a message may have gone out and is not sent again by itself.
const MAY_HAVE_ARRIVED: &str = "O envio do e-mail foi interrompido e ele pode ter sido entregue; não será reenviado automaticamente.";
/// The job's own bookkeeping waits this long for a database that is away before the
/// attempt gives up on it (twice at most within the attempt's minute).
const DATABASE_PATIENCE: Duration = Duration::from_secs(20);

impl Job for MailSend {
    const QUEUE: &'static str = "mail.send";
    const MAX_ATTEMPTS: i32 = 8;
    /// 30 s, 1 min, 2 min ... an SMTP relay that is down for an hour still gets the mail.
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(30),
        max: Duration::from_secs(3600),
    };

    /// At most once: the job is marked before the relay is spoken to ([`JobContext::
    /// begin_effect`]), so a run that finds the mark and no delivery (its predecessor died
    /// or lost the database mid-way) cannot know whether the message left, and fails for
    /// support instead of sending a second copy of a code or a link.
    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        if self.delivered {
            return Ok(json!({ "to": self.mail.to, "already_delivered": true }));
        }
        let not_now = |err| {
            JobError::retry(
                "O e-mail não pôde ser enviado agora; vamos tentar de novo.",
                err,
            )
        };
        match while_away(DATABASE_PATIENCE, || ctx.begin_effect())
            .await
            .map_err(not_now)?
        {
            Effect::Begun => {}
            // The run that holds the job now sends it; this one's result is not written.
            Effect::NotHeld => return Ok(json!({ "to": self.mail.to, "sent": false })),
            Effect::BegunBefore(begun) => {
                return Err(JobError::permanent(
                    MAY_HAVE_ARRIVED,
                    anyhow::anyhow!(
                        "a run began delivering at {begun} and recorded no outcome; re-run the job to send it again"
                    ),
                ));
            }
        }
        match ctx.services.mailer.send(&self.mail).await {
            Ok(()) => {
                // The message is out; a failure to record it must not send it again.
                if let Err(err) = while_away(DATABASE_PATIENCE, || forget_body(&ctx)).await {
                    tracing::warn!(
                        job = %ctx.id, error = %domain::infra::telemetry::Loggable(&err),
                        "a delivered e-mail keeps its body until retention prunes the job"
                    );
                }
                Ok(json!({ "to": self.mail.to }))
            }
            Err(err) if err.may_have_been_delivered() => {
                Err(JobError::permanent(MAY_HAVE_ARRIVED, err))
            }
            Err(err) => {
                // Nothing went out: a later run may send it.
                while_away(DATABASE_PATIENCE, || ctx.effect_not_made())
                    .await
                    .map_err(not_now)?;
                if err.is_transient() {
                    Err(JobError::retry(
                        "O servidor de e-mail não respondeu; vamos tentar de novo.",
                        err,
                    ))
                } else {
                    Err(JobError::permanent("O e-mail não pôde ser entregue.", err))
                }
            }
        }
    }
}

/// Replaces the stored payload by one without the body (recipient, sender and subject stay
/// for the console) and marked delivered: no code or reset link stays at rest.
async fn forget_body(ctx: &JobContext) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE apalis.jobs
            SET job = convert_to(
                    jsonb_set(convert_from(job, 'UTF8')::jsonb #- '{args,mail,text}'
                                                               #- '{args,mail,html}',
                              '{args,delivered}', 'true')::text,
                    'UTF8')
          WHERE id = $1",
    )
    .bind(&ctx.id)
    .execute(ctx.db())
    .await?;
    Ok(())
}
