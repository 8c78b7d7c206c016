//! Password recovery: a random link token e-mailed to the account's address, stored only as
//! SHA-256, valid for [`LINK_LIFETIME`] and once; a newer request voids the older links, and
//! an account gets at most one e-mail per [`RESEND_WAIT`]. Redeeming it sets the new
//! password, activates a pending account (the link proved the address) and ends every session.

use chrono::Duration;
use sqlx::{PgConnection, PgPool};

use crate::accounts::change::{AccountError, FollowUp, Mail, named_station};
use crate::accounts::password;
use crate::accounts::session::{hash_token, new_token};
use crate::accounts::signup::{self, Problems, reject};
use crate::infra::mail::{Branding, Button, Notice, OutgoingMail};
use crate::stations::station::Station;
use crate::wallet::rewards;

pub const LINK_LIFETIME: Duration = Duration::hours(1);
pub const RESEND_WAIT: Duration = Duration::seconds(60);

pub const SUBJECT: &str = "Redefinição de senha";
pub const LINK_SENT: &str = "Sucesso! Verifique sua caixa de e-mails";
pub const PASSWORD_CHANGED: &str = "Sucesso! Você já pode logar com a nova senha";
pub const LINK_INVALID: &str = "Link de redefinição inválido ou expirado. Solicite um novo.";

/// The account a link was issued for, and the link's token (handed out once, in the e-mail).
#[derive(Debug, Clone)]
pub struct Issued {
    pub reset_id: i64,
    pub user_id: i64,
    pub name: String,
    pub email: String,
    pub token: String,
}

/// What a recovery request led to. The caller answers all three the same way.
#[derive(Debug, Clone)]
pub enum Requested {
    Issued(Issued),
    /// No account with this address in the station, or a blocked one.
    NoAccount,
    /// A link was sent less than [`RESEND_WAIT`] ago.
    TooSoon,
}

/// Issues a new link for the station's account with this (normalised) e-mail. The account
/// row is locked, so two requests at once cannot both pass the wait.
pub async fn request(
    tx: &mut PgConnection,
    station_id: i64,
    email: &str,
) -> anyhow::Result<Requested> {
    let account: Option<(i64, String, String)> = sqlx::query_as(
        "SELECT id, name, email FROM users
          WHERE station_id = $1 AND email = $2 AND deleted_at IS NULL
          FOR UPDATE",
    )
    .bind(station_id)
    .bind(email)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((user_id, name, email)) = account else {
        return Ok(Requested::NoAccount);
    };
    let recent: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM password_resets
                         WHERE user_id = $1 AND created_at > now() - make_interval(secs => $2))",
    )
    .bind(user_id)
    .bind(RESEND_WAIT.num_seconds() as f64)
    .fetch_one(&mut *tx)
    .await?;
    if recent {
        return Ok(Requested::TooSoon);
    }
    void_open_links(&mut *tx, user_id).await?;
    let token = new_token()?;
    let reset_id: i64 = sqlx::query_scalar(
        "INSERT INTO password_resets (user_id, token_hash, expires_at)
         VALUES ($1, $2, now() + make_interval(secs => $3)) RETURNING id",
    )
    .bind(user_id)
    .bind(hash_token(&token).as_slice())
    .bind(LINK_LIFETIME.num_seconds() as f64)
    .fetch_one(&mut *tx)
    .await?;
    Ok(Requested::Issued(Issued {
        reset_id,
        user_id,
        name,
        email,
        token,
    }))
}

async fn void_open_links(tx: &mut PgConnection, user_id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE password_resets SET voided_at = now()
          WHERE user_id = $1 AND used_at IS NULL AND voided_at IS NULL",
    )
    .bind(user_id)
    .execute(tx)
    .await?;
    Ok(())
}

/// `{station url}/redefinir-senha/{token}/{email}`, the web app's reset page.
pub fn link(station_url: &str, token: &str, email: &str) -> String {
    format!(
        "{}/redefinir-senha/{token}/{}",
        station_url.trim_end_matches('/'),
        encode_path_segment(email)
    )
}

/// Percent-encodes what may not stand in a path segment; `@` and `+` stay readable.
fn encode_path_segment(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~@+!$&'()*,;=:".contains(&byte) {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

/// The station-branded e-mail that carries the link.
pub fn mail(station: &Station, public_url: &str, issued: &Issued) -> OutgoingMail {
    let first_name = issued.name.split_whitespace().next().unwrap_or_default();
    let notice = Notice {
        heading: "Redefina sua senha".into(),
        paragraphs: vec![
            format!(
                "Olá, {first_name}! Recebemos um pedido para criar uma nova senha para a sua conta no {}.",
                station.name
            ),
            "O link abaixo vale por 1 hora e pode ser usado uma única vez. Se você não pediu a troca, ignore este e-mail: sua senha continua a mesma.".into(),
        ],
        button: Some(Button {
            label: "Criar nova senha".into(),
            url: link(&station.url, &issued.token, &issued.email),
        }),
    };
    OutgoingMail::notice(
        &Branding::of(station, public_url),
        issued.email.clone(),
        SUBJECT,
        &notice,
    )
}

/// The condition of a live link: `$1` is the token's hash, `$2` the station, `$3` the
/// e-mail, over `password_resets r` and `users u`. Unused, not voided, not expired, and the
/// account not blocked. [`redeem`] and [`is_open`] share it, so what the cheap check lets
/// through to the hasher is exactly what redeeming takes.
macro_rules! live_link {
    () => {
        "r.token_hash = $1 AND r.user_id = u.id
            AND u.station_id = $2 AND u.email = $3 AND u.deleted_at IS NULL
            AND r.used_at IS NULL AND r.voided_at IS NULL AND r.expires_at > now()"
    };
}

/// Uses up a link of the station's account with this e-mail: the account's id if the link
/// is live. A second redemption, even concurrent, gets `None`.
pub async fn redeem(
    tx: &mut PgConnection,
    station_id: i64,
    email: &str,
    token: &str,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(concat!(
        "UPDATE password_resets r SET used_at = now() FROM users u WHERE ",
        live_link!(),
        " RETURNING r.user_id"
    ))
    .bind(hash_token(token).as_slice())
    .bind(station_id)
    .bind(email)
    .fetch_optional(tx)
    .await
}

/// Whether [`redeem`] would take this link now, without taking it: the new password is
/// hashed only for a live link, and before the transaction that redeems it.
pub async fn is_open(
    db: impl sqlx::PgExecutor<'_>,
    station_id: i64,
    email: &str,
    token: &str,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(concat!(
        "SELECT EXISTS (SELECT 1 FROM password_resets r, users u WHERE ",
        live_link!(),
        ")"
    ))
    .bind(hash_token(token).as_slice())
    .bind(station_id)
    .bind(email)
    .fetch_one(db)
    .await
}

/// Sets the new password (an argon2id hash), activates the account, voids any other open
/// link and ends every session of the account. True when the account was pending: the
/// reset confirmed it, so the caller owes it what a confirmation earns.
pub async fn reset_password(
    tx: &mut PgConnection,
    user_id: i64,
    password_hash: &str,
) -> sqlx::Result<bool> {
    let was_active: bool = sqlx::query_scalar(
        "UPDATE users u SET password_hash = $2, active = true, updated_at = now()
           FROM (SELECT active FROM users WHERE id = $1 FOR UPDATE) AS before
          WHERE u.id = $1
         RETURNING before.active",
    )
    .bind(user_id)
    .bind(password_hash)
    .fetch_one(&mut *tx)
    .await?;
    void_open_links(&mut *tx, user_id).await?;
    crate::accounts::session::revoke_all(&mut *tx, user_id).await?;
    Ok(!was_active)
}

/// A reset link asked for an e-mail of a station.
#[derive(Debug)]
pub struct LinkRequest {
    pub email: Option<String>,
    pub station_id: i64,
}

/// Sends a reset link to the station's account with this e-mail: the link is issued on the
/// caller's transaction and its e-mail returned to queue there. Unknown and blocked
/// accounts, and a second request within [`RESEND_WAIT`], get no link and no e-mail, which
/// the caller answers like a sent one.
pub async fn send_link(
    tx: &mut PgConnection,
    public_url: &str,
    form: &LinkRequest,
) -> Result<FollowUp, AccountError> {
    let email = signup::required_email(form.email.as_deref())?;
    let station = named_station(&mut *tx, form.station_id).await?;
    Ok(match request(tx, station.id, &email).await? {
        Requested::Issued(issued) => {
            tracing::info!(user_id = issued.user_id, "password reset link sent");
            FollowUp::mail(Mail {
                mail: mail(&station, public_url, &issued),
                station_id: station.id,
                user_id: Some(issued.user_id),
                about: ("password_reset", issued.reset_id),
            })
        }
        Requested::TooSoon => {
            tracing::info!(station_id = station.id, "password reset: too soon");
            FollowUp::default()
        }
        Requested::NoAccount => FollowUp::default(),
    })
}

/// A new password through a reset link: the link's token and e-mail.
#[derive(Debug)]
pub struct NewPassword {
    pub password: Option<String>,
    pub password_confirmation: Option<String>,
    pub user_hash: String,
    pub user_email: String,
    pub station_id: i64,
}

/// A reset whose password follows the rule and whose link was live, the password hashed:
/// what [`reset`] writes.
#[derive(Debug)]
pub struct CheckedReset {
    station_id: i64,
    email: String,
    token: String,
    password_hash: String,
}

/// Checks the new password and its confirmation first (a refusal does not use the link up),
/// then that the link is live, and only then hashes the password: the public call cannot be
/// used to burn CPU, and the hasher holds no connection.
pub async fn check_reset(db: &PgPool, form: NewPassword) -> Result<CheckedReset, AccountError> {
    let mut problems = Problems::default();
    let password = signup::password(
        &mut problems,
        form.password.as_deref(),
        form.password_confirmation.as_deref(),
    );
    reject(problems)?;
    let email = form.user_email.trim().to_lowercase();
    let token = form.user_hash.trim().to_string();
    if !is_open(db, form.station_id, &email, &token).await? {
        return Err(AccountError::invalid(LINK_INVALID));
    }
    Ok(CheckedReset {
        station_id: form.station_id,
        email,
        token,
        password_hash: password::hash_off_thread(password.unwrap_or_default()).await?,
    })
}

/// Redeems the checked link (it is checked again: it may have been used meanwhile) and sets
/// the password. A pending account it confirms earns what a confirmation earns, returned to
/// queue.
pub async fn reset(tx: &mut PgConnection, checked: CheckedReset) -> Result<FollowUp, AccountError> {
    let Some(user_id) = redeem(tx, checked.station_id, &checked.email, &checked.token).await?
    else {
        return Err(AccountError::invalid(LINK_INVALID));
    };
    let confirmed = reset_password(tx, user_id, &checked.password_hash).await?;
    let credits = if confirmed {
        rewards::on_account_confirmed(tx, user_id).await?
    } else {
        Vec::new()
    };
    tracing::info!(user_id, "password reset");
    Ok(FollowUp::credits(credits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_carries_token_and_address() {
        assert_eq!(
            link("https://clube.example.com/", "abc", "ana+clube@example.com"),
            "https://clube.example.com/redefinir-senha/abc/ana+clube@example.com"
        );
        assert_eq!(
            link("https://c.example.com", "abc", "a/b c@example.com"),
            "https://c.example.com/redefinir-senha/abc/a%2Fb%20c@example.com"
        );
    }
}
