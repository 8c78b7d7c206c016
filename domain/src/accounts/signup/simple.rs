//! The simple sign-up (`POST /auth/signup`): an active account with no password yet, signed
//! in at once; the onboarding wizard asks for e-mail and password later. Only stations that
//! use this form and are not affiliated take it.

use std::net::IpAddr;

use sqlx::{PgConnection, PgPool};

use super::{
    MemberGetMember, NewAccount, Problems, create_account, pass_captcha, record_invitation,
    refuse_taken, reject,
};
use crate::accounts::change::{AccountError, FollowUp, named_station};
use crate::accounts::session::{self, NewSession};
use crate::accounts::signup;
use crate::infra::captcha::CaptchaVerifier;
use crate::wallet::rewards;

pub const WRONG_SIGNUP_FLOW: &str = "Esta estação não aceita este tipo de cadastro.";

/// The simple form, as sent.
#[derive(Debug)]
pub struct SimpleSignup {
    pub station_id: i64,
    pub cpf: Option<String>,
    /// Only on no-CPF stations, where the account needs another identifier.
    pub email: Option<String>,
    pub birthday: Option<String>,
    pub state: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone_number: Option<String>,
    pub captcha: Option<String>,
    pub member_get_member: Option<MemberGetMember>,
}

/// A simple sign-up that passed every check: what [`create_simple`] writes.
#[derive(Debug)]
pub struct CheckedSimple {
    account: NewAccount,
    invite: Option<MemberGetMember>,
}

/// Checks the form (the station takes it, its fields, the captcha, that no account has its
/// e-mail or CPF), with no transaction open.
pub async fn check_simple(
    db: &PgPool,
    captcha: &dyn CaptchaVerifier,
    ip: Option<IpAddr>,
    form: SimpleSignup,
) -> Result<CheckedSimple, AccountError> {
    let station = named_station(db, form.station_id).await?;
    // Without this, anyone could open an active, password-less account on a station that
    // asks for confirmation (multi-step) or only admits its roster (affiliated).
    if station.signup_flow != "simple" || station.affiliated {
        return Err(AccountError::invalid(WRONG_SIGNUP_FLOW));
    }
    let mut problems = Problems::default();
    let cpf = signup::cpf(
        &mut problems,
        form.cpf.as_deref().filter(|_| !station.no_cpf),
        !station.no_cpf,
    );
    let email = signup::email(&mut problems, form.email.as_deref(), station.no_cpf);
    let today = crate::shared::time::today_in(station.zone());
    let birthday = signup::birthday(&mut problems, form.birthday.as_deref(), true, Some(today));
    let uf = signup::state(&mut problems, form.state.as_deref(), true);
    let first_name = signup::name(&mut problems, form.first_name.as_deref());
    let last_name = signup::name(&mut problems, form.last_name.as_deref());
    let tel = signup::phone(&mut problems, form.phone_number.as_deref(), true);
    reject(problems)?;
    pass_captcha(captcha, form.captcha.as_deref(), ip).await?;
    refuse_taken(db, station.id, email.as_deref(), cpf.as_deref()).await?;
    Ok(CheckedSimple {
        account: NewAccount {
            station_id: station.id,
            name: format!(
                "{} {}",
                first_name.unwrap_or_default(),
                last_name.unwrap_or_default()
            ),
            email,
            cpf,
            tel,
            birthday,
            state: uf,
            type_id: 2,
            active: true,
            ..NewAccount::default()
        },
        invite: form.member_get_member,
    })
}

/// Creates the checked account, active, with its invitation, what a confirmed account earns
/// (to queue) and the session it was created for: no account is left without it.
pub async fn create_simple(
    tx: &mut PgConnection,
    checked: CheckedSimple,
) -> Result<(NewSession, FollowUp), AccountError> {
    let CheckedSimple {
        mut account,
        invite,
    } = checked;
    let station_id = account.station_id;
    account.establishment_id = signup::establishment_for(&mut *tx, station_id, None).await?;
    let user_id = create_account(tx, &account).await?;
    record_invitation(tx, station_id, user_id, invite).await?;
    // Active at once: the confirmed account's rewards are queued now.
    let credits = rewards::on_account_confirmed(tx, user_id).await?;
    let session = session::open(tx, user_id, "simple sign-up").await?;
    Ok((session, FollowUp::credits(credits)))
}
