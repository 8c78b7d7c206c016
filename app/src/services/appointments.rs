//! A member requests an appointment of a desk, or cancels one (docs/api-services.md
//! "Common rules", "Legal"). Each stores its change and queues its e-mails (`mail.send`,
//! once per request and kind) on one transaction, as support messages do: to the desk's
//! address when it has one (else the console alone has it), and the request's
//! acknowledgement to the member when the account has an e-mail.

use chrono::Utc;
use sqlx::PgPool;

use domain::services::appointments::{self, AppointmentRefused, Form, Requested};
use domain::services::{self, AppointmentService, offered};
use domain::shared::ids::{StationId, UserId};
use domain::stations::station;

use crate::outbox::Outbox;

/// The member a request is from, as the session says (never the body).
#[derive(Debug, Clone, Copy)]
pub struct Caller {
    pub station_id: StationId,
    pub user_id: UserId,
}

/// Requests an appointment of `service` for the member: the station must offer its desk,
/// the form keep the rules, the account have a CPF and the member be within the desk's
/// hourly allowance (counted on the stored requests, under the member's lock). Answers the
/// appointment's id.
pub async fn request(
    db: &PgPool,
    outbox: &impl Outbox,
    public_url: &str,
    caller: Caller,
    service: AppointmentService,
    form: &Form<'_>,
) -> Result<i64, AppointmentRefused> {
    let Caller {
        station_id,
        user_id,
    } = caller;
    let mut tx = db.begin().await?;
    offered(&mut *tx, station_id, service.desk()).await?;
    let requester = appointments::requester(&mut *tx, station_id, user_id)
        .await?
        .ok_or(AppointmentRefused::Unavailable)?;
    let checked = appointments::check(service, requester.cpf.as_deref(), form)?;
    let cpf = requester.cpf.clone().unwrap_or_default();
    appointments::within_allowance(&mut tx, user_id, service.desk()).await?;
    let station = station::find(&mut *tx, station_id.0)
        .await?
        .ok_or(AppointmentRefused::Unavailable)?;
    let id = appointments::insert(&mut tx, station_id, service, &requester, &cpf, &checked).await?;
    let requested = Requested {
        id,
        service,
        requester: &requester,
        cpf: &cpf,
        checked: &checked,
    };
    match services::desk_email(&mut *tx, station_id, service.desk()).await? {
        Some(to) => {
            let (mail, key) = appointments::request_to_desk(&station, public_url, requested, &to);
            crate::mail::send_once(outbox, &mut tx, mail, key).await?;
        }
        None => tracing::warn!(
            station_id = station_id.0,
            appointment_id = id,
            desk = service.desk().as_str(),
            "appointment request kept for the console only: the desk has no address"
        ),
    }
    if let Some(to) = requester.email.as_deref() {
        let (mail, key) = appointments::received(&station, public_url, requested, to);
        crate::mail::send_once(outbox, &mut tx, mail, key).await?;
    }
    tx.commit().await?;
    tracing::info!(
        station_id = station_id.0,
        user_id = user_id.0,
        appointment_id = id,
        service = service.as_str(),
        "appointment requested"
    );
    Ok(id)
}

/// The member cancels their appointment `appointment_id` of `service` (of office
/// `office_id`, `None` for one without an office): a request awaiting its date, or a
/// confirmed one more than 48 hours ahead. The row is locked, so two cancels at once
/// cancel once; the desk is e-mailed when it has an address.
pub async fn cancel(
    db: &PgPool,
    outbox: &impl Outbox,
    public_url: &str,
    caller: Caller,
    service: AppointmentService,
    office_id: Option<i64>,
    appointment_id: i64,
) -> Result<(), AppointmentRefused> {
    let Caller {
        station_id,
        user_id,
    } = caller;
    let mut tx = db.begin().await?;
    offered(&mut *tx, station_id, service.desk()).await?;
    let requester = appointments::requester(&mut *tx, station_id, user_id)
        .await?
        .ok_or(AppointmentRefused::NotFound)?;
    let cancelled = appointments::cancel(
        &mut tx,
        station_id,
        user_id,
        service,
        office_id,
        appointment_id,
        Utc::now(),
    )
    .await?;
    let station = station::find(&mut *tx, station_id.0)
        .await?
        .ok_or(AppointmentRefused::Unavailable)?;
    if let Some(to) = services::desk_email(&mut *tx, station_id, service.desk()).await? {
        let cpf = requester.cpf.clone().unwrap_or_default();
        let (mail, key) = appointments::cancelled_to_desk(
            &station,
            public_url,
            &cancelled,
            &requester,
            &cpf,
            station.zone(),
            &to,
        );
        crate::mail::send_once(outbox, &mut tx, mail, key).await?;
    }
    tx.commit().await?;
    tracing::info!(
        station_id = station_id.0,
        user_id = user_id.0,
        appointment_id,
        "appointment cancelled by its member"
    );
    Ok(())
}
