//! Confirming an account, the use cases: sending a code e-mail to an account
//! (`confirmation-method`) or to an address (`resend-confirmation-email`), spaced by the
//! resend wait and capped per day, and activating by code or by link. None of their answers
//! tells whether an account exists.

use sqlx::PgConnection;

use crate::Config;
use crate::accounts::activation::{self, Account, Outcome, Recipient};
use crate::accounts::change::{AccountError, FollowUp, Mail, named_station};
use crate::accounts::pending;
use crate::accounts::signup::{self, Problems, reject};
use crate::stations::station::Station;
use crate::wallet::rewards;

pub const NOTHING_PENDING: &str = "Não há cadastro aguardando confirmação.";
pub const EMAIL_ONLY: &str = "No momento, o código só pode ser enviado por e-mail.";
pub const MAIL_SENT: &str = "E-mail enviado com sucesso";

/// A new code for the account, replacing any earlier one, and its e-mail to queue. The
/// caller has claimed the recipient's resend wait or started it
/// ([`activation::mark_sent`]).
pub async fn new_code_mail(
    tx: &mut PgConnection,
    station: &Station,
    public_url: &str,
    user_id: i64,
    email: &str,
    name: &str,
) -> anyhow::Result<Mail> {
    let issued = activation::issue(tx, user_id).await?;
    Ok(Mail {
        mail: activation::mail(station, public_url, email, name, &issued),
        station_id: station.id,
        user_id: Some(user_id),
        about: ("user", user_id),
    })
}

/// Claims the resend wait and the daily allowance of a recipient, or refuses with the
/// seconds left.
async fn claim(
    tx: &mut PgConnection,
    config: &Config,
    station_id: i64,
    to: Recipient<'_>,
) -> Result<(), AccountError> {
    activation::claim_send(
        tx,
        station_id,
        to,
        config.confirmation_resend_seconds,
        config.confirmation_max_per_day,
    )
    .await?;
    Ok(())
}

/// Step 2's request: the account a code goes to, and how.
#[derive(Debug)]
pub struct MethodRequest {
    pub station_id: i64,
    pub user_id: Option<i64>,
    /// The login's `affiliate.id`, when the form sends that instead of `user_id`.
    pub id: Option<i64>,
    /// Only `email` for now.
    pub method: Option<String>,
}

/// Step 2 of the multi-step sign-up: a code for the station's account `user_id`, to the
/// account's own e-mail (never to an address in the body). The wait and the daily cap count
/// per id, whatever the id is, so the answer is the same for a pending account, an active
/// one, one without an e-mail or no account at all: only whether an e-mail goes differs. A
/// pending account's address keeps its own wait and cap too; while they hold, nothing goes.
pub async fn send_code_to_account(
    tx: &mut PgConnection,
    config: &Config,
    form: &MethodRequest,
) -> Result<FollowUp, AccountError> {
    if form
        .method
        .as_deref()
        .is_some_and(|method| method != "email")
    {
        return Err(AccountError::invalid(EMAIL_ONLY));
    }
    let station = named_station(&mut *tx, form.station_id).await?;
    let user_id = form
        .user_id
        .or(form.id)
        .ok_or_else(|| AccountError::invalid(NOTHING_PENDING))?;
    claim(tx, config, station.id, Recipient::Account(user_id)).await?;
    let Some((name, Some(email))) = pending::by_id(&mut *tx, station.id, user_id).await? else {
        return Ok(FollowUp::default());
    };
    if claim(tx, config, station.id, Recipient::Address(&email))
        .await
        .is_err()
    {
        tracing::info!(
            station_id = station.id,
            user_id,
            "code not sent: the address waits"
        );
        return Ok(FollowUp::default());
    }
    let mail = new_code_mail(tx, &station, &config.public_url, user_id, &email, &name).await?;
    Ok(FollowUp::mail(mail))
}

/// A new code for the pending account of an e-mail.
#[derive(Debug)]
pub struct ResendRequest {
    pub station_id: i64,
    pub email: Option<String>,
}

/// A new code to the pending account of an address. The wait and the daily cap count for
/// the address whether or not it has such an account, so the answer never tells.
pub async fn send_code_to_address(
    tx: &mut PgConnection,
    config: &Config,
    form: &ResendRequest,
) -> Result<FollowUp, AccountError> {
    let email = signup::required_email(form.email.as_deref())?;
    let station = named_station(&mut *tx, form.station_id).await?;
    claim(tx, config, station.id, Recipient::Address(&email)).await?;
    let Some((user_id, name)) = pending::by_email(&mut *tx, station.id, &email).await? else {
        return Ok(FollowUp::default());
    };
    let mail = new_code_mail(tx, &station, &config.public_url, user_id, &email, &name).await?;
    Ok(FollowUp::mail(mail))
}

/// An account's activation by its code or link.
#[derive(Debug)]
pub struct ActivateRequest {
    pub station_id: i64,
    pub email: Option<String>,
    /// The e-mail's 6-digit code, or the token of its link.
    pub hash: Option<String>,
    /// Identifies the account when the form knows only a masked e-mail.
    pub user_id: Option<i64>,
}

/// What checking a code or link led to: the account it activated (or found active), or why
/// not; and, when it activated one, what a confirmed account earns. Wrong codes are counted
/// on the transaction, so it commits whatever the outcome.
#[derive(Debug)]
pub struct Checked {
    pub outcome: Result<i64, AccountError>,
    pub follow_up: FollowUp,
}

/// Activates an account by its e-mail's 6-digit code or by its link.
pub async fn activate(
    tx: &mut PgConnection,
    form: &ActivateRequest,
) -> Result<Checked, AccountError> {
    let mut problems = Problems::default();
    let hash = signup::required_text(&mut problems, form.hash.as_deref()).unwrap_or_default();
    let email = signup::present(form.email.as_deref());
    let by_code = activation::is_code(hash);
    if form.user_id.is_none() || !by_code {
        signup::required_text(&mut problems, email);
    }
    reject(problems)?;
    let station = named_station(&mut *tx, form.station_id).await?;

    let outcome = if by_code {
        let account = match form.user_id {
            Some(id) => Account::Id(id),
            None => Account::Email(email.unwrap_or_default().to_string()),
        };
        activation::activate_with_code(tx, station.id, &account, hash).await?
    } else {
        activation::activate_with_link(tx, station.id, email.unwrap_or_default(), hash).await?
    };
    let mut follow_up = FollowUp::default();
    if let Outcome::Activated(user_id) = outcome {
        // What the confirmed account earns is queued with the activation itself.
        follow_up.credits = rewards::on_account_confirmed(tx, user_id).await?;
        tracing::info!(station_id = station.id, user_id, "account activated");
    }
    let outcome = match outcome {
        Outcome::Activated(id) | Outcome::AlreadyActive(id) => Ok(id),
        Outcome::WrongCode => Err(AccountError::invalid(activation::CODE_INVALID)),
        Outcome::Locked(seconds) => Err(AccountError::TooMany {
            message: activation::locked_message(seconds),
            retry_after: seconds,
        }),
        Outcome::CodeExpired => Err(AccountError::invalid(activation::CODE_EXPIRED)),
        Outcome::LinkInvalid => Err(AccountError::invalid(activation::LINK_INVALID)),
    };
    Ok(Checked { outcome, follow_up })
}
