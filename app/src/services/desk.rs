//! The service desk's actions in the console (docs/api-services.md "The desk in the
//! console"): each locks what it changes, e-mails the member when the contract says so and
//! writes its audit row, on one transaction. Who may act is decided before (the handler's
//! `DeskStaff`, `domain::services::access`).

use chrono::{DateTime, Utc};
use serde_json::json;
use sqlx::{PgConnection, PgPool};

use domain::content::news::{self, NewNews};
use domain::services::Desk;
use domain::services::desk::{
    self, CaseFields, DeskAppointment, DeskCase, DeskError, Move, Notify,
};
use domain::shared::ids::{StationId, UserId};
use domain::staff::{self, Action, AuditRecord};
use domain::stations::station;
use domain::wallet::ledger::{self, Credit, SourceKind};
use domain::wallet::rules;

use crate::outbox::Outbox;

/// Queues the member's e-mail about the appointment, when it has a member with an address.
async fn notify(
    outbox: &impl Outbox,
    tx: &mut PgConnection,
    public_url: &str,
    appointment: &DeskAppointment,
    what: Notify,
) -> Result<Vec<String>, DeskError> {
    let Some(station) = station::find(&mut *tx, appointment.station_id).await? else {
        return Ok(Vec::new());
    };
    match desk::member_mail(&station, public_url, appointment, what) {
        Some((mail, key)) => Ok(vec![crate::mail::send_once(outbox, tx, mail, key).await?]),
        None => Ok(Vec::new()),
    }
}

async fn shown(tx: &mut PgConnection, id: i64) -> Result<DeskAppointment, DeskError> {
    desk::appointment(&mut *tx, id)
        .await?
        .ok_or(DeskError::AppointmentNotFound)
}

async fn audit(
    tx: &mut PgConnection,
    staff_id: i64,
    action: Action,
    station_id: i64,
    job_ids: &[String],
    details: serde_json::Value,
) -> Result<(), DeskError> {
    staff::record(
        tx,
        AuditRecord {
            user_id: staff_id,
            action,
            station_id: Some(station_id),
            job_ids,
            details,
        },
    )
    .await?;
    Ok(())
}

/// Confirms (or re-schedules) an appointment for a future date, at an office of its desk
/// or none, and e-mails the member the date and hour in the station's time zone.
pub async fn confirm(
    db: &PgPool,
    outbox: &impl Outbox,
    public_url: &str,
    staff_id: i64,
    id: i64,
    scheduled_at: Option<&str>,
    office_id: Option<i64>,
) -> Result<DeskAppointment, DeskError> {
    let at = desk::check_schedule(scheduled_at, Utc::now())?;
    let mut tx = db.begin().await?;
    desk::confirm(&mut tx, id, at, office_id, staff_id).await?;
    let appointment = shown(&mut tx, id).await?;
    let jobs = notify(outbox, &mut tx, public_url, &appointment, Notify::Confirmed).await?;
    audit(
        &mut tx,
        staff_id,
        Action::AppointmentConfirm,
        appointment.station_id,
        &jobs,
        json!({
            "appointment_id": id,
            "scheduled_at": at,
            "office_id": office_id,
            "user_id": appointment.member.as_ref().map(|member| member.id),
        }),
    )
    .await?;
    tx.commit().await?;
    Ok(appointment)
}

/// Marks an appointment done, absent or cancelled (the member e-mailed of a cancellation).
pub async fn apply(
    db: &PgPool,
    outbox: &impl Outbox,
    public_url: &str,
    staff_id: i64,
    id: i64,
    action: Move,
) -> Result<DeskAppointment, DeskError> {
    let mut tx = db.begin().await?;
    desk::apply(&mut tx, id, action, staff_id).await?;
    let appointment = shown(&mut tx, id).await?;
    let jobs = if action == Move::Cancel {
        notify(outbox, &mut tx, public_url, &appointment, Notify::Cancelled).await?
    } else {
        Vec::new()
    };
    let audited = match action {
        Move::Done => Action::AppointmentDone,
        Move::Absent => Action::AppointmentAbsent,
        Move::Cancel => Action::AppointmentCancel,
    };
    audit(
        &mut tx,
        staff_id,
        audited,
        appointment.station_id,
        &jobs,
        json!({
            "appointment_id": id,
            "user_id": appointment.member.as_ref().map(|member| member.id),
        }),
    )
    .await?;
    tx.commit().await?;
    Ok(appointment)
}

/// Records a `done` health appointment's co-payment, once, and credits the member half of
/// it as `health.copay` cashback (held as the station's rule says, 90 days by default).
pub async fn copay(
    db: &PgPool,
    staff_id: i64,
    id: i64,
    amount_cents: Option<i64>,
) -> Result<DeskAppointment, DeskError> {
    let amount = amount_cents
        .filter(|amount| (1..=desk::MAX_COPAY_CENTS).contains(amount))
        .ok_or_else(|| DeskError::Invalid(vec![desk::BAD_AMOUNT.into()]))?;
    let mut tx = db.begin().await?;
    let (copay_id, user_id, station_id) = desk::record_copay(&mut tx, id, amount, staff_id).await?;
    let cashback = desk::copay_cashback(amount);
    let mut lot = None;
    if cashback > 0 {
        let credited = ledger::credit(
            &mut tx,
            &Credit {
                user_id: UserId(user_id),
                station_id: StationId(station_id),
                source_kind: SourceKind::Copay,
                source_id: copay_id.to_string(),
                rule: rules::HEALTH_COPAY.into(),
                amount: cashback,
                description: "Cashback de coparticipação em saúde".into(),
                action_id: None,
            },
            None,
        )
        .await?;
        desk::set_copay_lot(&mut *tx, copay_id, credited.lot_id).await?;
        lot = Some(credited.lot_id);
    }
    audit(
        &mut tx,
        staff_id,
        Action::HealthCopay,
        station_id,
        &[],
        json!({
            "appointment_id": id,
            "user_id": user_id,
            "amount_cents": amount,
            "cashback_cents": cashback,
            "lot_id": lot,
        }),
    )
    .await?;
    let appointment = shown(&mut tx, id).await?;
    tx.commit().await?;
    Ok(appointment)
}

/// Records a case for a CPF on the station's desk.
pub async fn create_case(
    db: &PgPool,
    staff_id: i64,
    station_id: i64,
    service: Desk,
    fields: &CaseFields,
) -> Result<DeskCase, DeskError> {
    let mut tx = db.begin().await?;
    let case = desk::create_case(&mut tx, station_id, service, fields).await?;
    audit_case(&mut tx, staff_id, &case, true).await?;
    tx.commit().await?;
    Ok(case)
}

/// Changes a case (the desk and station it belongs to stay).
pub async fn update_case(
    db: &PgPool,
    staff_id: i64,
    id: i64,
    fields: &CaseFields,
) -> Result<DeskCase, DeskError> {
    let mut tx = db.begin().await?;
    let case = desk::update_case(&mut tx, id, fields).await?;
    audit_case(&mut tx, staff_id, &case, false).await?;
    tx.commit().await?;
    Ok(case)
}

async fn audit_case(
    tx: &mut PgConnection,
    staff_id: i64,
    case: &DeskCase,
    created: bool,
) -> Result<(), DeskError> {
    audit(
        tx,
        staff_id,
        Action::CaseRecord,
        case.station_id,
        &[],
        json!({
            "case_id": case.id,
            "service": case.service.as_str(),
            "case_number": case.case_number,
            "created": created,
        }),
    )
    .await
}

/// Publishes a news item for the desks of its tags (the body sanitised on the way in).
pub async fn publish_news(
    db: &PgPool,
    staff_id: i64,
    station_id: i64,
    title: &str,
    subtitle: &str,
    body: &str,
    tags: &[i64],
) -> Result<i64, DeskError> {
    let mut tx = db.begin().await?;
    let news_id = news::create(
        &mut *tx,
        &NewNews {
            station_id,
            title: title.to_string(),
            subtitle: subtitle.to_string(),
            body: body.to_string(),
            image_key: None,
            published: true,
            published_at: None,
        },
    )
    .await?;
    news::tag(&mut *tx, news_id, tags).await?;
    audit(
        &mut tx,
        staff_id,
        Action::NewsPublish,
        station_id,
        &[],
        json!({ "news_id": news_id, "title": title.trim(), "tags": tags }),
    )
    .await?;
    tx.commit().await?;
    Ok(news_id)
}

/// The reminders of the day before: each confirmed appointment that starts the next day
/// in its station's time zone is marked and its member e-mailed, once, in batches of
/// `batch` (each its own transaction). Answers how many were reminded.
pub async fn send_reminders(
    db: &PgPool,
    outbox: &impl Outbox,
    public_url: &str,
    now: DateTime<Utc>,
    batch: i64,
) -> Result<usize, DeskError> {
    let mut reminded = 0;
    loop {
        let mut tx = db.begin().await?;
        let ids = desk::claim_reminders(&mut tx, now, batch).await?;
        for id in &ids {
            let appointment = shown(&mut tx, *id).await?;
            notify(outbox, &mut tx, public_url, &appointment, Notify::Reminder).await?;
        }
        tx.commit().await?;
        reminded += ids.len();
        if (ids.len() as i64) < batch {
            return Ok(reminded);
        }
    }
}
