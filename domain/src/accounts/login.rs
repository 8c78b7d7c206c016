//! Signing in to a station with e-mail or CPF and password. An unknown account costs the
//! same work as a wrong password (a dummy hash is checked), so the two cannot be told apart;
//! the right password of an account not activated yet answers what the sign-up form's code
//! step needs instead of a session.

use sqlx::PgPool;

use crate::accounts::password;
use crate::accounts::session::{self, NewSession};
use crate::accounts::signup::{mask_email, mask_phone};
use crate::accounts::user::{self, LoginId, User};
use crate::shared::ids::UserId;
use crate::stations::station::Station;

/// The login refusal of an account that must still confirm its sign-up.
pub const CONFIRM_TO_LOG_IN: &str =
    "Confirme o seu cadastro para entrar: escolha onde receber o código de verificação.";

/// The account waiting for activation, its contacts masked.
#[derive(Debug)]
pub struct PendingAccount {
    pub id: i64,
    pub email: Option<String>,
    /// The same masked phone as `tel`, under the spec's other name.
    pub celular: Option<String>,
    pub tel: Option<String>,
    /// Whether the station is affiliated (its members pick the code's method).
    pub is_filiado: bool,
}

impl PendingAccount {
    fn of(user: &User, station: &Station) -> Self {
        let tel = user.tel.as_deref().and_then(mask_phone);
        Self {
            id: user.id,
            email: user.email.as_deref().map(mask_email),
            celular: tel.clone(),
            tel,
            is_filiado: station.affiliated,
        }
    }
}

/// What a login attempt led to.
#[derive(Debug)]
pub enum LogIn {
    /// No such account, or a wrong password: one answer for both.
    WrongCredentials,
    /// The right password of an account not activated yet.
    AwaitingActivation(PendingAccount),
    SignedIn(Box<NewSession>),
}

/// Checks the password of the station's account and opens a session. No connection is held
/// while the hasher works: a burst of logins queued behind it never holds the pool.
pub async fn log_in(
    db: &PgPool,
    station: &Station,
    login_id: &LoginId,
    password: String,
) -> anyhow::Result<LogIn> {
    let credentials = user::find_credentials(db, station.id, login_id).await?;
    let (user_id, stored_hash) = credentials.unzip();
    let password_ok = password::verify_off_thread(password, stored_hash.flatten()).await?;
    let Some(user_id) = user_id.filter(|_| password_ok) else {
        return Ok(LogIn::WrongCredentials);
    };
    let mut conn = db.acquire().await?;
    let user = user::find(&mut *conn, UserId(user_id))
        .await?
        .ok_or_else(|| anyhow::anyhow!("user {user_id} vanished during login"))?;
    if user.active == 0 {
        return Ok(LogIn::AwaitingActivation(PendingAccount::of(
            &user, station,
        )));
    }
    let session = session::open(&mut conn, user_id, "password").await?;
    Ok(LogIn::SignedIn(Box::new(session)))
}
