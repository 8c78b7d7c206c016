//! Joining a station: the multi-step form, the simple form and a company's own station.
//! Each checks its form with no transaction open (the captcha, the password's hash, the
//! logo), then writes the account in one transaction with what it needs queued on it.

use std::net::IpAddr;

use sqlx::PgPool;

use domain::accounts::change::AccountError;
use domain::accounts::session::NewSession;
use domain::accounts::signup::company::{self, AdminSignup, CompanyCreated};
use domain::accounts::signup::participant::{self, ParticipantSignup};
use domain::accounts::signup::simple::{self, SimpleSignup};
use domain::accounts::user::User;
use domain::infra::captcha::CaptchaVerifier;
use domain::infra::images::ImageCodec;
use domain::infra::objects::Objects;

use crate::outbox::Outbox;

/// A member account the multi-step form created, inactive, and the job of its activation
/// e-mail when one went (not on affiliated stations, whose members pick the method next).
#[derive(Debug)]
pub struct Joined {
    pub user: User,
    pub mail_job: Option<String>,
}

/// Creates a member account from the multi-step form, with its activation e-mail.
pub async fn participant(
    db: &PgPool,
    outbox: &impl Outbox,
    captcha: &dyn CaptchaVerifier,
    ip: Option<IpAddr>,
    public_url: &str,
    form: ParticipantSignup,
) -> Result<Joined, AccountError> {
    let checked = participant::check_participant(db, captcha, ip, form).await?;
    let mut tx = db.begin().await?;
    let created = participant::create_participant(&mut tx, public_url, checked).await?;
    let mail_job = super::follow_up(outbox, &mut tx, created.follow_up)
        .await?
        .pop();
    tx.commit().await?;
    Ok(Joined {
        user: created.user,
        mail_job,
    })
}

/// Creates an active member account from the simple form and signs it in.
pub async fn simple(
    db: &PgPool,
    outbox: &impl Outbox,
    captcha: &dyn CaptchaVerifier,
    ip: Option<IpAddr>,
    form: SimpleSignup,
) -> Result<NewSession, AccountError> {
    let checked = simple::check_simple(db, captcha, ip, form).await?;
    let mut tx = db.begin().await?;
    let (session, follow_up) = simple::create_simple(&mut tx, checked).await?;
    super::follow_up(outbox, &mut tx, follow_up).await?;
    tx.commit().await?;
    Ok(session)
}

/// Creates a company's station, its main establishment, its logo and its admin account,
/// and signs the admin in.
#[allow(clippy::too_many_arguments)]
pub async fn company(
    db: &PgPool,
    objects: &Objects,
    outbox: &impl Outbox,
    captcha: &dyn CaptchaVerifier,
    codec: &dyn ImageCodec,
    ip: Option<IpAddr>,
    public_url: &str,
    form: AdminSignup,
) -> Result<CompanyCreated, AccountError> {
    let checked = company::check_company(captcha, codec, ip, public_url, form).await?;
    let mut tx = db.begin().await?;
    let created = company::create_company(&mut tx, objects, public_url, checked).await?;
    if let Some(key) = created
        .station
        .logo_image
        .as_deref()
        .and_then(Objects::key_of_url)
    {
        outbox
            .make_image_variants(&mut tx, created.station.id, key)
            .await?;
    }
    tx.commit().await?;
    tracing::info!(
        station_id = created.station.id,
        user_id = created.session.user.id,
        "company signed up"
    );
    Ok(created)
}
