//! The multi-step sign-up: the first step's check (`signup-participant-validations`) and the
//! account itself (`signup-participant`), created inactive with its activation e-mail, except
//! on affiliated stations, whose members pick where the code goes next.

use std::net::IpAddr;

use sqlx::{PgConnection, PgPool};

use super::{
    MemberGetMember, NewAccount, Problems, create_account, pass_captcha, record_invitation,
    refuse_taken, reject,
};
use crate::accounts::change::{AccountError, FollowUp, named_station};
use crate::accounts::user::{self, User};
use crate::accounts::{activation, affiliate, confirmation, password, signup};
use crate::infra::captcha::CaptchaVerifier;
use crate::shared::ids::UserId;
use crate::stations::station::Station;

/// The multi-step form's first step, as sent.
#[derive(Debug)]
pub struct CredentialsCheck {
    pub station_id: i64,
    pub email: Option<String>,
    pub cpf: Option<String>,
    pub name: Option<String>,
    pub tel: Option<String>,
}

/// The first step's data as the next steps show it: on an affiliated station, the
/// roster's contacts masked and its entry's id.
#[derive(Debug)]
pub struct Credentials {
    pub email: Option<String>,
    /// The same phone as `tel`, under the spec's other name.
    pub celular: Option<String>,
    pub is_filiado: bool,
    pub id: Option<i64>,
    pub tel: Option<String>,
}

/// Whether the form's first step may go on: the data is well formed, no account has it,
/// and on an affiliated station the CPF is on the roster (its contacts answered masked).
pub async fn check_credentials(
    db: &PgPool,
    form: &CredentialsCheck,
) -> Result<Credentials, AccountError> {
    let station = named_station(db, form.station_id).await?;
    let mut problems = Problems::default();
    if station.affiliated {
        let cpf = signup::cpf(&mut problems, form.cpf.as_deref(), true);
        reject(problems)?;
        let cpf = cpf.unwrap_or_default();
        let entry = affiliate::find(db, station.id, &cpf)
            .await?
            .ok_or_else(|| AccountError::invalid(affiliate::NOT_ON_ROSTER))?;
        refuse_taken(db, station.id, entry.email.as_deref(), Some(&cpf)).await?;
        let tel = entry.tel.as_deref().and_then(signup::mask_phone);
        return Ok(Credentials {
            email: entry.email.as_deref().map(signup::mask_email),
            celular: tel.clone(),
            is_filiado: true,
            id: Some(entry.id),
            tel,
        });
    }
    let email = signup::email(&mut problems, form.email.as_deref(), true);
    let cpf = signup::cpf(
        &mut problems,
        form.cpf.as_deref().filter(|_| !station.no_cpf),
        !station.is_public && !station.no_cpf,
    );
    let mut tel = None;
    if station.no_cpf {
        signup::name(&mut problems, form.name.as_deref());
        tel = signup::phone(&mut problems, form.tel.as_deref(), true);
    }
    reject(problems)?;
    refuse_taken(db, station.id, email.as_deref(), cpf.as_deref()).await?;
    let tel = tel.or_else(|| signup::present(form.tel.as_deref()).map(String::from));
    Ok(Credentials {
        email,
        celular: tel.clone(),
        is_filiado: false,
        id: None,
        tel,
    })
}

/// The multi-step form, as sent.
#[derive(Debug)]
pub struct ParticipantSignup {
    pub station_id: i64,
    pub email: Option<String>,
    pub cpf: Option<String>,
    pub name: Option<String>,
    pub tel: Option<String>,
    pub birthday: Option<String>,
    pub state: Option<String>,
    pub city: Option<String>,
    pub password: Option<String>,
    pub password_confirmation: Option<String>,
    pub establishment_id: Option<i64>,
    pub member_get_member: Option<MemberGetMember>,
    pub captcha: Option<String>,
}

/// A multi-step sign-up that passed every check, its password hashed: what
/// [`create_participant`] writes.
#[derive(Debug)]
pub struct CheckedParticipant {
    station: Station,
    account: NewAccount,
    establishment_id: Option<i64>,
    invite: Option<MemberGetMember>,
}

/// Checks the form (its fields, the captcha on promotional stations, the roster on
/// affiliated ones, that no account has its e-mail or CPF) and hashes the password, with no
/// transaction open.
pub async fn check_participant(
    db: &PgPool,
    captcha: &dyn CaptchaVerifier,
    ip: Option<IpAddr>,
    form: ParticipantSignup,
) -> Result<CheckedParticipant, AccountError> {
    let station = named_station(db, form.station_id).await?;
    let promotional = station.promotional;
    let mut problems = Problems::default();
    let (mut email, mut name, mut tel) = (None, None, None);
    if !station.affiliated {
        email = signup::email(&mut problems, form.email.as_deref(), true);
    }
    let cpf = signup::cpf(
        &mut problems,
        form.cpf.as_deref().filter(|_| !station.no_cpf),
        station.affiliated || (!station.is_public && !station.no_cpf),
    );
    if !station.affiliated {
        name = signup::name(&mut problems, form.name.as_deref());
        tel = signup::phone(&mut problems, form.tel.as_deref(), true);
    }
    let today = crate::shared::time::today_in(station.zone());
    let birthday = signup::birthday(
        &mut problems,
        form.birthday.as_deref(),
        promotional,
        promotional.then_some(today),
    );
    let uf = signup::state(&mut problems, form.state.as_deref(), promotional);
    let city = signup::optional_or_required(&mut problems, form.city.as_deref(), promotional)
        .map(String::from);
    let password = signup::password(
        &mut problems,
        form.password.as_deref(),
        form.password_confirmation.as_deref(),
    );
    reject(problems)?;
    if promotional {
        pass_captcha(captcha, form.captcha.as_deref(), ip).await?;
    }

    if station.affiliated {
        let entry = affiliate::find(db, station.id, cpf.as_deref().unwrap_or_default())
            .await?
            .ok_or_else(|| AccountError::invalid(affiliate::NOT_ON_ROSTER))?;
        email = entry.email;
        name = Some(entry.name);
        tel = entry.tel;
    }
    refuse_taken(db, station.id, email.as_deref(), cpf.as_deref()).await?;
    let password_hash = password::hash_off_thread(password.unwrap_or_default()).await?;
    Ok(CheckedParticipant {
        account: NewAccount {
            station_id: station.id,
            name: name.unwrap_or_default(),
            email,
            cpf,
            tel,
            birthday,
            state: uf,
            city,
            password_hash: Some(password_hash),
            type_id: 2,
            active: false,
            establishment_id: None,
        },
        station,
        establishment_id: form.establishment_id,
        invite: form.member_get_member,
    })
}

/// The account just created, and its activation e-mail when one goes now.
#[derive(Debug)]
pub struct ParticipantCreated {
    pub user: User,
    pub follow_up: FollowUp,
}

/// Creates the checked account, inactive, with its invitation and (except on affiliated
/// stations) its activation e-mail, which starts the address' resend wait and day.
pub async fn create_participant(
    tx: &mut PgConnection,
    public_url: &str,
    checked: CheckedParticipant,
) -> Result<ParticipantCreated, AccountError> {
    let CheckedParticipant {
        station,
        mut account,
        establishment_id,
        invite,
    } = checked;
    account.establishment_id =
        signup::establishment_for(&mut *tx, station.id, establishment_id).await?;
    let user_id = create_account(tx, &account).await?;
    record_invitation(tx, station.id, user_id, invite).await?;
    let follow_up = match (&account.email, station.affiliated) {
        (Some(email), false) => {
            // The sign-up's own e-mail always goes; it starts the address' wait and day.
            activation::mark_sent(tx, station.id, email).await?;
            FollowUp::mail(
                confirmation::new_code_mail(
                    tx,
                    &station,
                    public_url,
                    user_id,
                    email,
                    &account.name,
                )
                .await?,
            )
        }
        _ => FollowUp::default(),
    };
    let user = user::find(&mut *tx, UserId(user_id))
        .await?
        .ok_or_else(|| anyhow::anyhow!("user {user_id} vanished"))?;
    tracing::info!(station_id = station.id, user_id, "participant signed up");
    Ok(ParticipantCreated { user, follow_up })
}
