//! Support messages (docs/api-support.md): a visitor's or a member's message sent, and
//! staff's answer. Each stores its change and queues its e-mails (`mail.send`, once per
//! message and kind) on one transaction.

use std::net::IpAddr;

use serde_json::json;

use domain::infra::captcha::{self, CaptchaVerifier};
use domain::shared::ids::{StationId, UserId};
use domain::staff::{self, Action, AuditRecord, Scope};
use domain::stations::station;
use domain::support::{self, ConsoleMessage, Form, Limits, SupportError, SupportMessage, mail};
use sqlx::PgPool;

use crate::outbox::Outbox;

/// Who sends a message: the station it goes to and, for a signed-in member, the member (the
/// handler takes both from the session, never from the body).
#[derive(Debug, Clone, Copy)]
pub struct Sender {
    pub station_id: StationId,
    pub user_id: Option<UserId>,
    pub ip: Option<IpAddr>,
}

/// What the deployment sets for messages: the app's address (links in the e-mails) and
/// the hourly allowances.
#[derive(Debug, Clone, Copy)]
pub struct Settings<'a> {
    pub public_url: &'a str,
    pub limits: Limits,
}

impl<'a> Settings<'a> {
    pub fn from_config(config: &'a domain::Config) -> Self {
        Self {
            public_url: &config.public_url,
            limits: Limits::from_config(config),
        }
    }
}

/// Sends a support message: the form checked, then the captcha (a call to the provider,
/// with no transaction open), then, in one transaction, the hourly allowances of the
/// member, the sender's address and the station counted (a malformed post or a failed
/// captcha uses up none), and the message stored with its e-mails: to the station's
/// contact address when it has one, and the acknowledgement to the sender. A station
/// without a contact address still gets the message in its console.
pub async fn send(
    db: &PgPool,
    outbox: &impl Outbox,
    verifier: &dyn CaptchaVerifier,
    settings: Settings<'_>,
    sender: Sender,
    form: &Form<'_>,
    captcha_token: Option<&str>,
) -> Result<SupportMessage, SupportError> {
    let checked = support::check(form)?;
    if !captcha::passes(verifier, captcha_token, sender.ip).await {
        return Err(SupportError::Captcha);
    }
    let mut tx = db.begin().await?;
    let station = station::find(&mut *tx, sender.station_id.0)
        .await?
        .ok_or(SupportError::StationNotFound)?;
    support::within_limits(
        &mut tx,
        sender.station_id,
        sender.user_id,
        &checked.email,
        settings.limits,
    )
    .await?;
    let contact = station
        .contact_mail
        .as_deref()
        .map(str::trim)
        .filter(|mail| !mail.is_empty())
        .map(str::to_string);
    let message = support::insert(
        &mut tx,
        sender.station_id,
        sender.user_id,
        &checked,
        contact.is_some(),
    )
    .await?;
    match &contact {
        Some(to) => {
            let (mail, key) = mail::to_station(&station, settings.public_url, &message, to);
            crate::mail::send_once(outbox, &mut tx, mail, key).await?;
        }
        None => tracing::warn!(
            station_id = station.id,
            message_id = message.id,
            "support message kept for the console only: the station has no contact address"
        ),
    }
    let (mail, key) = mail::received(&station, settings.public_url, &message);
    crate::mail::send_once(outbox, &mut tx, mail, key).await?;
    tx.commit().await?;
    Ok(message)
}

/// Staff answer a message of their grant's scope, once: the answer stored with who and
/// when, e-mailed to the sender, audited (`support.answer`), in one transaction.
pub async fn answer(
    db: &PgPool,
    outbox: &impl Outbox,
    public_url: &str,
    scope: Scope,
    staff_id: i64,
    message_id: i64,
    text: Option<&str>,
) -> Result<ConsoleMessage, SupportError> {
    let text = support::check_answer(text)?;
    let mut tx = db.begin().await?;
    let answered =
        support::answer(&mut tx, message_id, scope.station_id(), staff_id, &text).await?;
    let station = station::find(&mut *tx, answered.station_id)
        .await?
        .ok_or(SupportError::StationNotFound)?;
    let (mail, key) = mail::answered(&station, public_url, &answered);
    let job_id = crate::mail::send_once(outbox, &mut tx, mail, key).await?;
    staff::record(
        &mut tx,
        AuditRecord {
            user_id: staff_id,
            action: Action::SupportAnswer,
            station_id: Some(answered.station_id),
            job_ids: &[job_id],
            details: json!({
                "support_message_id": answered.id,
                "user_id": answered.user_id,
            }),
        },
    )
    .await?;
    let shown = support::console_one(&mut tx, answered.id, None)
        .await?
        .ok_or(SupportError::NotFound)?;
    tx.commit().await?;
    Ok(shown)
}
