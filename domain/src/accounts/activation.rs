//! Activating an account: the e-mail with a 6-digit code and a link, and checking either.
//! One activation is live per account; sending a new code replaces it. The code lasts
//! [`CODE_LIFETIME`]; the link lasts [`LINK_LIFETIME`]. Wrong codes add up per account,
//! across re-issued codes: the [`MAX_FAILED_ATTEMPTS`]th locks code checks for [`LOCKOUT`]
//! (the link, which cannot be guessed, still works), and only a success clears the count.
//! Codes for an identifier with no activation to check (no such account) are counted and
//! locked out the same way, so the answers do not tell who has an account.
//! Code e-mails to one recipient of a station (an address, or an account id) are spaced by
//! a wait and capped per day ([`claim_send`]), alike for recipients with no account. The use
//! cases that send codes and check them are `accounts::confirmation`'s.

use chrono::Duration;
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgExecutor};

use crate::accounts::change::AccountError;
use crate::accounts::session::{hash_token, new_token};
use crate::infra::mail::{Branding, Button, Notice, OutgoingMail};
use crate::shared::secret::random_bytes;
use crate::stations::station::Station;

pub const CODE_LIFETIME: Duration = Duration::minutes(15);
pub const LINK_LIFETIME: Duration = Duration::hours(48);
pub const MAX_FAILED_ATTEMPTS: i16 = 5;
pub const LOCKOUT: Duration = Duration::hours(1);

pub const CODE_INVALID: &str = "Código inválido.";
pub const CODE_EXPIRED: &str = "Código expirado. Solicite um novo código.";
pub const LINK_INVALID: &str = "Link de ativação inválido ou expirado.";
pub const ACTIVATED: &str = "Sucesso! Código validado";

/// The answer while code checks are locked.
pub fn locked_message(seconds: u64) -> String {
    let minutes = seconds.div_ceil(60).max(1);
    let unit = if minutes == 1 { "minuto" } else { "minutos" };
    format!(
        "Muitas tentativas com código inválido. Aguarde {minutes} {unit} ou use o link enviado por e-mail."
    )
}

/// The answer once an address had its code e-mails for the day.
pub const DAILY_CAP_REACHED: &str =
    "Limite de códigos por dia atingido. Tente de novo amanhã ou use o link enviado por e-mail.";

/// What goes into the e-mail, once: only hashes are stored.
#[derive(Debug, Clone)]
pub struct Issued {
    pub code: String,
    pub link_token: String,
}

/// Six decimal digits, each value equally likely.
fn new_code() -> anyhow::Result<String> {
    // The largest multiple of 10^6 that fits in a u32; values above it are redrawn.
    const LIMIT: u32 = 4_294_000_000;
    loop {
        let value = u32::from_le_bytes(random_bytes::<4>()?);
        if value < LIMIT {
            return Ok(format!("{:06}", value % 1_000_000));
        }
    }
}

fn code_hash(salt: &[u8], code: &str) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(salt);
    hasher.update(code.as_bytes());
    hasher.finalize().into()
}

fn equal_in_constant_time(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether `hash` is shaped like a code (as opposed to a link token).
pub fn is_code(hash: &str) -> bool {
    hash.len() == 6 && hash.bytes().all(|b| b.is_ascii_digit())
}

/// A new code and link for the account, replacing any earlier one. The count of wrong
/// codes and a lockout carry over: a new code is no new set of guesses.
pub async fn issue(tx: &mut PgConnection, user_id: i64) -> anyhow::Result<Issued> {
    let code = new_code()?;
    let link_token = new_token()?;
    let salt = random_bytes::<16>()?;
    sqlx::query(
        "INSERT INTO activation_codes
             (user_id, link_token_hash, code_salt, code_hash, code_expires_at, link_expires_at)
         VALUES ($1, $2, $3, $4, now() + $5, now() + $6)
         ON CONFLICT (user_id) DO UPDATE SET
             link_token_hash = EXCLUDED.link_token_hash, code_salt = EXCLUDED.code_salt,
             code_hash = EXCLUDED.code_hash, code_expires_at = EXCLUDED.code_expires_at,
             link_expires_at = EXCLUDED.link_expires_at, sent_at = now(), used_at = NULL",
    )
    .bind(user_id)
    .bind(hash_token(&link_token).as_slice())
    .bind(salt.as_slice())
    .bind(code_hash(&salt, &code).as_slice())
    .bind(CODE_LIFETIME)
    .bind(LINK_LIFETIME)
    .execute(&mut *tx)
    .await?;
    Ok(Issued { code, link_token })
}

pub const MAIL_SUBJECT: &str = "Confirme o seu cadastro";

/// The station's page that activates by link: `{station url}/ativar/{token}/{email}`.
pub fn link_url(station: &Station, public_url: &str, token: &str, email: &str) -> String {
    let mut url = url::Url::parse(&station.url)
        .ok()
        .filter(|url| !url.cannot_be_a_base())
        .or_else(|| url::Url::parse(public_url).ok())
        .filter(|url| !url.cannot_be_a_base());
    match url.as_mut().and_then(|url| url.path_segments_mut().ok()) {
        Some(mut segments) => {
            segments
                .pop_if_empty()
                .push("ativar")
                .push(token)
                .push(email);
        }
        None => return format!("/ativar/{token}/{email}"),
    }
    url.map(String::from).unwrap_or_default()
}

/// The activation e-mail: the code to type and the link to click, in the station's layout.
pub fn mail(
    station: &Station,
    public_url: &str,
    to: &str,
    name: &str,
    issued: &Issued,
) -> OutgoingMail {
    let first_name = name.split_whitespace().next().unwrap_or(name);
    let notice = Notice {
        heading: MAIL_SUBJECT.into(),
        paragraphs: vec![
            format!("Olá, {first_name}!"),
            format!(
                "Para concluir o seu cadastro em {}, digite este código de verificação:",
                station.name
            ),
            issued.code.clone(),
            format!(
                "O código vale por {} minutos. Se preferir, confirme pelo botão abaixo, que vale por {} horas.",
                CODE_LIFETIME.num_minutes(),
                LINK_LIFETIME.num_hours()
            ),
            "Se você não pediu este cadastro, ignore este e-mail.".into(),
        ],
        button: Some(Button {
            label: "Confirmar cadastro".into(),
            url: link_url(station, public_url, &issued.link_token, to),
        }),
    };
    OutgoingMail::notice(
        &Branding::of(station, public_url),
        to,
        MAIL_SUBJECT,
        &notice,
    )
}

/// The result of an activation attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Outcome {
    Activated(i64),
    /// The code or link was right, and the account was active already (a second click).
    AlreadyActive(i64),
    WrongCode,
    /// Too many wrong codes: code checks wait this many seconds.
    Locked(u64),
    CodeExpired,
    LinkInvalid,
}

/// Whose code is being checked: the account id (when the form only knows a masked e-mail)
/// or its e-mail, always within one station.
#[derive(Debug, Clone)]
pub enum Account {
    Id(i64),
    Email(String),
}

#[derive(sqlx::FromRow)]
struct LiveCode {
    user_id: i64,
    code_salt: Vec<u8>,
    code_hash: Vec<u8>,
    expired: bool,
    /// Seconds left of a lockout, if one is on.
    locked_for: Option<f64>,
    used: bool,
    active: bool,
}

// Lockouts are read and started at `clock_timestamp()`, not `now()`: a check that waited for
// the row's lock began before the lockout it then finds, and `now()` (its transaction's
// start) would make that lockout look longer than it is, or start its own one too early.

/// Counts a wrong code on a row of `activation_codes` or `activation_guesses` (`$1` the
/// limit, `$2` the lockout): the last allowed miss starts the lockout and the count over.
/// Misses count for a day after the last one: a count gone a day quiet starts over, for
/// an account and an unknown identifier alike, and such a guess row can be pruned.
macro_rules! count_wrong_code {
    () => {
        concat!(
            "failed_attempts = CASE WHEN ",
            misses!(),
            " + 1 >= $1 THEN 0 ELSE ",
            misses!(),
            " + 1 END, locked_until = CASE WHEN ",
            misses!(),
            " + 1 >= $1 THEN clock_timestamp() + $2 END, last_failed_at = clock_timestamp()"
        )
    };
}

/// The row's wrong codes that still count: none once the last is a day old.
macro_rules! misses {
    () => {
        "(CASE WHEN last_failed_at > clock_timestamp() - interval '1 day'
               THEN failed_attempts ELSE 0 END)"
    };
}

/// The seconds left of a lockout on the row, as a column named `locked_for`.
macro_rules! locked_for {
    () => {
        "CASE WHEN locked_until > clock_timestamp()
              THEN extract(epoch FROM locked_until - clock_timestamp())::float8 END AS locked_for"
    };
}

fn lockout_seconds(left: f64) -> Outcome {
    Outcome::Locked((left.ceil() as u64).max(1))
}

/// Checks a 6-digit code. Every wrong code counts, even on an active account, so the
/// answer cannot be brute-forced into the account's data; the fifth starts a lockout. The
/// account's row is locked first, so codes checked at once count one after the other.
pub async fn activate_with_code(
    tx: &mut PgConnection,
    station_id: i64,
    account: &Account,
    code: &str,
) -> sqlx::Result<Outcome> {
    let (id, email) = match account {
        Account::Id(id) => (Some(*id), None),
        Account::Email(email) => (None, Some(email.trim().to_lowercase())),
    };
    let live: Option<LiveCode> = sqlx::query_as(concat!(
        "SELECT a.user_id, a.code_salt, a.code_hash, a.code_expires_at <= now() AS expired, ",
        locked_for!(),
        ", a.used_at IS NOT NULL AS used, u.active
           FROM activation_codes a JOIN users u ON u.id = a.user_id
          WHERE u.station_id = $1 AND (u.id = $2 OR u.email = $3)
          FOR UPDATE OF a"
    ))
    .bind(station_id)
    .bind(id)
    .bind(email)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(live) = live else {
        return count_guess(tx, station_id, account).await;
    };
    if let Some(left) = live.locked_for {
        return Ok(lockout_seconds(left));
    }
    if !equal_in_constant_time(&code_hash(&live.code_salt, code), &live.code_hash) {
        sqlx::query(concat!(
            "UPDATE activation_codes SET ",
            count_wrong_code!(),
            " WHERE user_id = $3"
        ))
        .bind(MAX_FAILED_ATTEMPTS)
        .bind(LOCKOUT)
        .bind(live.user_id)
        .execute(&mut *tx)
        .await?;
        return Ok(Outcome::WrongCode);
    }
    if live.used || live.active {
        return Ok(Outcome::AlreadyActive(live.user_id));
    }
    if live.expired {
        return Ok(Outcome::CodeExpired);
    }
    activate(tx, live.user_id).await?;
    Ok(Outcome::Activated(live.user_id))
}

/// A code for an identifier with no activation to check is wrong whatever it is, and is
/// counted and locked out as an account's would be, so the answers do not tell whether the
/// account exists. The upsert locks the identifier's row like the account's row is locked.
async fn count_guess(
    tx: &mut PgConnection,
    station_id: i64,
    account: &Account,
) -> sqlx::Result<Outcome> {
    let identifier = identifier_key(account);
    let locked_for: Option<f64> = sqlx::query_scalar(concat!(
        "INSERT INTO activation_guesses (station_id, identifier_hash) VALUES ($1, $2)
         ON CONFLICT (station_id, identifier_hash)
         DO UPDATE SET station_id = EXCLUDED.station_id
         RETURNING ",
        locked_for!()
    ))
    .bind(station_id)
    .bind(identifier.as_slice())
    .fetch_one(&mut *tx)
    .await?;
    if let Some(left) = locked_for {
        return Ok(lockout_seconds(left));
    }
    sqlx::query(concat!(
        "UPDATE activation_guesses SET ",
        count_wrong_code!(),
        " WHERE station_id = $3 AND identifier_hash = $4"
    ))
    .bind(MAX_FAILED_ATTEMPTS)
    .bind(LOCKOUT)
    .bind(station_id)
    .bind(identifier.as_slice())
    .execute(&mut *tx)
    .await?;
    Ok(Outcome::WrongCode)
}

/// The identifier a form named, normalised and hashed: no address is stored in the clear.
fn identifier_key(account: &Account) -> [u8; 32] {
    let identifier = match account {
        Account::Id(id) => format!("id:{id}"),
        Account::Email(email) => format!("email:{}", email.trim().to_lowercase()),
    };
    Sha256::digest(identifier.as_bytes()).into()
}

/// Checks the e-mail's link (`/ativar/{token}/{email}`): the token must be the live one of
/// the account with that e-mail in this station.
pub async fn activate_with_link(
    tx: &mut PgConnection,
    station_id: i64,
    email: &str,
    token: &str,
) -> sqlx::Result<Outcome> {
    let live: Option<(i64, bool, bool, bool)> = sqlx::query_as(
        "SELECT a.user_id, a.link_expires_at <= now(), a.used_at IS NOT NULL, u.active
           FROM activation_codes a JOIN users u ON u.id = a.user_id
          WHERE a.link_token_hash = $1 AND u.station_id = $2 AND u.email = $3
          FOR UPDATE OF a",
    )
    .bind(hash_token(token.trim()).as_slice())
    .bind(station_id)
    .bind(email.trim().to_lowercase())
    .fetch_optional(&mut *tx)
    .await?;
    Ok(match live {
        None => Outcome::LinkInvalid,
        Some((user_id, _, used, active)) if used || active => Outcome::AlreadyActive(user_id),
        Some((_, true, _, _)) => Outcome::LinkInvalid,
        Some((user_id, false, _, _)) => {
            activate(tx, user_id).await?;
            Outcome::Activated(user_id)
        }
    })
}

async fn activate(tx: &mut PgConnection, user_id: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE users SET active = true, updated_at = now() WHERE id = $1")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "UPDATE activation_codes SET used_at = now(), failed_attempts = 0, locked_until = NULL
          WHERE user_id = $1",
    )
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Whose code e-mails a resend wait and a daily cap count, within one station: an address,
/// or an account id (`confirmation-method`, whose form knows only a masked address). An id
/// is counted whether or not it has an account, as an address is.
#[derive(Debug, Clone, Copy)]
pub enum Recipient<'a> {
    Address(&'a str),
    Account(i64),
}

impl Recipient<'_> {
    /// The normalised address (no address is stored in the clear), or `id:` and the id,
    /// which no address can spell (it has no `@`), hashed.
    fn key(self) -> [u8; 32] {
        match self {
            Self::Address(email) => Sha256::digest(email.trim().to_lowercase().as_bytes()).into(),
            Self::Account(id) => Sha256::digest(format!("id:{id}").as_bytes()).into(),
        }
    }
}

/// Why a code e-mail may not go now; each carries the seconds until it may.
#[derive(Debug, thiserror::Error)]
pub enum SendRefused {
    /// The last one is younger than the resend wait.
    #[error("wait {0} s")]
    Wait(u64),
    /// The recipient had its e-mails for the (rolling) day.
    #[error("daily cap reached, {0} s left")]
    DailyCap(u64),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// The answer while a recipient waits for its next code e-mail.
fn wait_message(seconds: u64) -> String {
    let unit = if seconds == 1 { "segundo" } else { "segundos" };
    format!("Aguarde {seconds} {unit} para pedir um novo código.")
}

impl From<SendRefused> for AccountError {
    fn from(refused: SendRefused) -> Self {
        match refused {
            SendRefused::Wait(seconds) => Self::TooMany {
                message: wait_message(seconds),
                retry_after: seconds,
            },
            SendRefused::DailyCap(seconds) => Self::TooMany {
                message: DAILY_CAP_REACHED.into(),
                retry_after: seconds,
            },
            SendRefused::Database(err) => err.into(),
        }
    }
}

/// Takes the right to send a code e-mail to this recipient of the station now: refused
/// while the last one is younger than `wait_seconds`, or when `max_per_day` went out within
/// a day of the first of them. Two racing calls cannot both win.
pub async fn claim_send(
    tx: &mut PgConnection,
    station_id: i64,
    to: Recipient<'_>,
    wait_seconds: u64,
    max_per_day: u32,
) -> Result<(), SendRefused> {
    let wait = Duration::seconds(i64::try_from(wait_seconds).unwrap_or(i64::MAX / 1000));
    let max_per_day = i32::try_from(max_per_day).unwrap_or(i32::MAX);
    let key = to.key();
    if record_send(tx, station_id, &key, wait, max_per_day).await? {
        return Ok(());
    }
    let (wait_left, day_left): (f64, Option<f64>) = sqlx::query_as(
        "SELECT greatest(extract(epoch FROM sent_at + $3 - now()), 1)::float8,
                CASE WHEN day_count >= $4 AND day_started_at > now() - interval '1 day'
                     THEN greatest(extract(epoch FROM day_started_at + interval '1 day' - now()), 1)::float8
                END
           FROM confirmation_cooldowns WHERE station_id = $1 AND email_hash = $2",
    )
    .bind(station_id)
    .bind(key.as_slice())
    .bind(wait)
    .bind(max_per_day)
    .fetch_one(&mut *tx)
    .await?;
    Err(match day_left {
        Some(seconds) => SendRefused::DailyCap(seconds.ceil() as u64),
        None => SendRefused::Wait(wait_left.ceil() as u64),
    })
}

/// Starts the wait for an address without asking (the sign-up's own e-mail always goes),
/// counting the e-mail in the address' day: [`record_send`] with neither a wait nor a cap.
pub async fn mark_sent(tx: &mut PgConnection, station_id: i64, email: &str) -> sqlx::Result<()> {
    let key = Recipient::Address(email).key();
    record_send(tx, station_id, &key, Duration::zero(), i32::MAX).await?;
    Ok(())
}

/// Counts an e-mail to the recipient of `key` (its wait starts again; its day's count
/// grows, or a new day starts) unless the last one is younger than `wait` or `max_per_day`
/// went out within the day. One statement, so two racing calls cannot both pass. True when
/// it counted.
async fn record_send(
    tx: &mut PgConnection,
    station_id: i64,
    key: &[u8; 32],
    wait: Duration,
    max_per_day: i32,
) -> sqlx::Result<bool> {
    let counted: Option<i32> = sqlx::query_scalar(
        "INSERT INTO confirmation_cooldowns (station_id, email_hash) VALUES ($1, $2)
         ON CONFLICT (station_id, email_hash) DO UPDATE SET sent_at = now(),
             day_count = CASE WHEN confirmation_cooldowns.day_started_at <= now() - interval '1 day'
                              THEN 1 ELSE confirmation_cooldowns.day_count + 1 END,
             day_started_at = CASE WHEN confirmation_cooldowns.day_started_at <= now() - interval '1 day'
                                   THEN now() ELSE confirmation_cooldowns.day_started_at END
          WHERE confirmation_cooldowns.sent_at <= now() - $3
            AND (confirmation_cooldowns.day_count < $4
                 OR confirmation_cooldowns.day_started_at <= now() - interval '1 day')
         RETURNING 1",
    )
    .bind(station_id)
    .bind(key.as_slice())
    .bind(wait)
    .bind(max_per_day)
    .fetch_optional(tx)
    .await?;
    Ok(counted.is_some())
}

/// Deletes the limits that no longer hold anything back: a code e-mail's wait and day end
/// within a day of the last e-mail; an unknown identifier's guesses, once its lockout ended
/// and its count started over or went a day quiet, weigh as much as no row. The
/// daily retention job calls it, so no request pays for a table-wide delete. Answers how many rows went.
pub async fn prune_spent_limits(db: impl PgExecutor<'_>) -> sqlx::Result<u64> {
    let (cooldowns, guesses): (i64, i64) = sqlx::query_as(
        "WITH cooldowns AS (
             DELETE FROM confirmation_cooldowns WHERE sent_at < now() - interval '1 day'
             RETURNING 1),
         guesses AS (
             DELETE FROM activation_guesses
              WHERE coalesce(locked_until, '-infinity') <= now()
                AND (failed_attempts = 0 OR last_failed_at < now() - interval '1 day')
             RETURNING 1)
         SELECT (SELECT count(*) FROM cooldowns), (SELECT count(*) FROM guesses)",
    )
    .fetch_one(db)
    .await?;
    Ok(u64::try_from(cooldowns + guesses).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_six_digits() {
        for _ in 0..100 {
            let code = new_code().expect("code");
            assert!(is_code(&code), "{code}");
        }
    }

    #[test]
    fn link_tokens_are_not_codes() {
        assert!(is_code("012345"));
        assert!(!is_code("01234"));
        assert!(!is_code(&"a".repeat(64)));
    }

    #[test]
    fn a_code_hash_depends_on_its_salt() {
        assert_ne!(
            code_hash(b"salt-one", "123456"),
            code_hash(b"salt-two", "123456")
        );
        assert!(equal_in_constant_time(
            &code_hash(b"salt", "123456"),
            &code_hash(b"salt", "123456")
        ));
        assert!(!equal_in_constant_time(b"ab", b"abc"));
    }
}
