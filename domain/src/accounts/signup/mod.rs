//! Creating accounts: the field rules every sign-up form shares, the duplicate checks, and
//! the insert that gives each new account its invite code and its establishment. Each form
//! is a use case of its own: the multi-step one ([`participant`]), the simple one
//! ([`simple`]) and the company's ([`company`]). Each is checked first, its password hashed
//! and its captcha asked with no transaction open, then created in one transaction.

pub mod company;
pub mod participant;
pub mod simple;

use std::net::IpAddr;

use chrono::{NaiveDate, NaiveDateTime};
use sqlx::{PgConnection, PgExecutor};

use crate::accounts::change::AccountError;
use crate::accounts::mgm::InviteCode;
use crate::infra::captcha::{self, CaptchaVerifier};
use crate::shared::validate::{self, Verdict};

pub const EMAIL_TAKEN: &str = "Este e-mail já está cadastrado.";
pub const CPF_TAKEN: &str = "Este CPF já está cadastrado.";
pub const PASSWORDS_DIFFER: &str = "As senhas não conferem.";
pub const INVALID_STATE: &str = "Estado inválido";
pub const INVALID_PHONE: &str = "Telefone inválido";

/// The 27 federative units, by their two-letter code.
pub const STATES: [&str; 27] = [
    "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB", "PR",
    "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO",
];

/// The messages of every rule a form breaks, in the order the form shows its fields.
#[derive(Debug, Default)]
pub struct Problems(Vec<String>);

impl Problems {
    pub fn check(&mut self, verdict: Verdict) -> &mut Self {
        if let Err(invalid) = verdict {
            self.push(invalid.message());
        }
        self
    }

    /// Adds a message once: two fields breaking the same rule show it once.
    pub fn push(&mut self, message: &str) {
        if !self.0.iter().any(|m| m == message) {
            self.0.push(message.to_string());
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn into_messages(self) -> Vec<String> {
        self.0
    }
}

/// Trimmed text, `None` when nothing but spaces was sent.
pub fn present(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

/// A required text field: `Esse campo é obrigatório` when missing.
pub fn required_text<'a>(problems: &mut Problems, value: Option<&'a str>) -> Option<&'a str> {
    let value = present(value);
    problems.check(validate::required(value.unwrap_or_default()));
    value
}

/// A field that may be required: trimmed, `None` when blank (reported when required).
pub fn optional_or_required<'a>(
    problems: &mut Problems,
    value: Option<&'a str>,
    required: bool,
) -> Option<&'a str> {
    if required {
        required_text(problems, value)
    } else {
        present(value)
    }
}

/// A sign-up date: `yyyy-MM-dd`, the spec's `yyyy-MM-dd 00:00:00` (or an ISO date-time),
/// or `dd/MM/yyyy` as typed.
pub fn parse_date(value: &str) -> Option<NaiveDate> {
    let value = value.trim();
    validate::parse_date(value)
        .or_else(|| NaiveDate::parse_from_str(value, "%Y-%m-%d").ok())
        .or_else(|| {
            [
                "%Y-%m-%d %H:%M:%S",
                "%Y-%m-%dT%H:%M:%S",
                "%Y-%m-%dT%H:%M:%S%.fZ",
            ]
            .iter()
            .find_map(|format| NaiveDateTime::parse_from_str(value, format).ok())
            .map(|at| at.date())
        })
        .filter(|date| validate::date(&date.format("%d/%m/%Y").to_string()).is_ok())
}

/// A birthday: a real date ("Data Inválida!"), optionally of an adult on `today`.
pub fn birthday(
    problems: &mut Problems,
    value: Option<&str>,
    required: bool,
    adult_on: Option<NaiveDate>,
) -> Option<NaiveDate> {
    let value = present(value);
    if required {
        problems.check(validate::required(value.unwrap_or_default()));
    }
    let value = value?;
    let Some(date) = parse_date(value) else {
        problems.push(validate::message::DATE);
        return None;
    };
    if let Some(today) = adult_on {
        problems.check(validate::age18(&date.format("%d/%m/%Y").to_string(), today));
    }
    Some(date)
}

/// A federative unit's code, upper-cased.
pub fn state(problems: &mut Problems, value: Option<&str>, required: bool) -> Option<String> {
    let value = optional_or_required(problems, value, required)?;
    let code = value.to_ascii_uppercase();
    if STATES.contains(&code.as_str()) {
        Some(code)
    } else {
        problems.push(INVALID_STATE);
        None
    }
}

/// A phone number with its area code: 10 to 13 digits, whatever the mask.
pub fn phone(problems: &mut Problems, value: Option<&str>, required: bool) -> Option<String> {
    let value = optional_or_required(problems, value, required)?;
    let digits = value.chars().filter(char::is_ascii_digit).count();
    let only_phone_chars = value
        .chars()
        .all(|c| c.is_ascii_digit() || "()+- ".contains(c));
    if only_phone_chars && (10..=13).contains(&digits) {
        Some(value.to_string())
    } else {
        problems.push(INVALID_PHONE);
        None
    }
}

/// A person's name: trimmed, not only spaces.
pub fn name(problems: &mut Problems, value: Option<&str>) -> Option<String> {
    required_text(problems, value).map(|name| name.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// A lower-cased, trimmed e-mail address in the shape the validator accepts.
pub fn email(problems: &mut Problems, value: Option<&str>, required: bool) -> Option<String> {
    let value = optional_or_required(problems, value, required)?;
    match validate::email(value) {
        Ok(()) => Some(value.to_lowercase()),
        Err(invalid) => {
            problems.push(invalid.message());
            None
        }
    }
}

/// A CPF's 11 digits.
pub fn cpf(problems: &mut Problems, value: Option<&str>, required: bool) -> Option<String> {
    let value = optional_or_required(problems, value, required)?;
    match value.parse::<crate::shared::cpf::Cpf>() {
        Ok(cpf) => Some(cpf.digits().to_string()),
        Err(invalid) => {
            problems.push(&invalid.to_string());
            None
        }
    }
}

/// A new password and its confirmation.
pub fn password(
    problems: &mut Problems,
    password: Option<&str>,
    confirmation: Option<&str>,
) -> Option<String> {
    let password = password.filter(|p| !p.is_empty());
    let confirmation = confirmation.filter(|p| !p.is_empty());
    problems.check(validate::required(password.unwrap_or_default()));
    problems.check(validate::password(password.unwrap_or_default()));
    problems.check(validate::required(confirmation.unwrap_or_default()));
    match (password, confirmation) {
        (Some(password), Some(confirmation)) if password != confirmation => {
            problems.push(PASSWORDS_DIFFER);
            None
        }
        (Some(password), Some(_)) if crate::accounts::password::meets_rule(password) => {
            Some(password.to_string())
        }
        _ => None,
    }
}

/// `jo***@ex***.com`: enough for the owner to recognise the address, not to learn it.
pub fn mask_email(email: &str) -> String {
    let Some((local, domain)) = email.split_once('@') else {
        return "***".into();
    };
    let (host, suffix) = domain.split_once('.').unwrap_or((domain, ""));
    let head = |part: &str| part.chars().take(2).collect::<String>();
    let suffix = if suffix.is_empty() {
        String::new()
    } else {
        format!(".{suffix}")
    };
    format!("{}***@{}***{suffix}", head(local), head(host))
}

/// `(**) *****-1234`: the last four digits, the rest as stars in the phone's shape.
pub fn mask_phone(tel: &str) -> Option<String> {
    let digits: String = tel.chars().filter(char::is_ascii_digit).collect();
    if digits.len() < 8 {
        return None;
    }
    let (_, last) = digits.split_at(digits.len() - 4);
    let middle = "*".repeat(digits.len().saturating_sub(6).clamp(4, 5));
    Some(format!("(**) {middle}-{last}"))
}

/// Eight characters of `A-Z0-9`, the first part of a member's invite code.
pub fn new_invite_code() -> anyhow::Result<String> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut code = String::with_capacity(8);
    while code.len() < 8 {
        let bytes = crate::shared::secret::random_bytes::<16>()?;
        // Bytes from 252 up are dropped so every character is equally likely.
        code.extend(
            bytes
                .iter()
                .filter(|b| **b < 252)
                .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
                .take(8 - code.len()),
        );
    }
    Ok(code)
}

/// Which of an e-mail and a CPF already have an account in the station.
pub async fn taken(
    db: impl PgExecutor<'_>,
    station_id: i64,
    email: Option<&str>,
    cpf: Option<&str>,
) -> sqlx::Result<Vec<&'static str>> {
    let (email_taken, cpf_taken): (bool, bool) = sqlx::query_as(
        "SELECT coalesce(bool_or(email = $2), false), coalesce(bool_or(cpf = $3), false)
           FROM users WHERE station_id = $1 AND (email = $2 OR cpf = $3)",
    )
    .bind(station_id)
    .bind(email)
    .bind(cpf)
    .fetch_one(db)
    .await?;
    Ok([(email_taken, EMAIL_TAKEN), (cpf_taken, CPF_TAKEN)]
        .into_iter()
        .filter_map(|(taken, message)| taken.then_some(message))
        .collect())
}

/// The establishment a new account joins: the one asked for when it is the station's, else
/// the station's main one (if it has one).
pub async fn establishment_for(
    db: impl PgExecutor<'_>,
    station_id: i64,
    requested: Option<i64>,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "SELECT id FROM establishments
          WHERE station_id = $1 AND (id = $2 OR is_main)
          ORDER BY (id = $2) DESC NULLS LAST
          LIMIT 1",
    )
    .bind(station_id)
    .bind(requested)
    .fetch_optional(db)
    .await
}

/// The new station's own address: its subdomain on the deployment's public host
/// (`https://clube.filia.app`); `localhost` stands in for an IP address.
pub fn station_url(public_url: &str, subdomain: &str) -> String {
    let Ok(mut url) = url::Url::parse(public_url) else {
        return format!("https://{subdomain}.localhost");
    };
    let host = match url.host() {
        Some(url::Host::Domain(host)) => format!("{subdomain}.{host}"),
        _ => format!("{subdomain}.localhost"),
    };
    if url.set_host(Some(&host)).is_err() {
        return format!("https://{subdomain}.localhost");
    }
    url.set_path("");
    url.as_str().trim_end_matches('/').to_string()
}

/// An account about to be created. E-mail and CPF are already normalised.
#[derive(Debug, Clone, Default)]
pub struct NewAccount {
    pub station_id: i64,
    pub name: String,
    pub email: Option<String>,
    pub cpf: Option<String>,
    pub tel: Option<String>,
    pub birthday: Option<NaiveDate>,
    pub state: Option<String>,
    pub city: Option<String>,
    /// An argon2id hash; `None` for an account that sets its password later.
    pub password_hash: Option<String>,
    /// 1 company admin, 2 participant.
    pub type_id: i16,
    pub active: bool,
    pub establishment_id: Option<i64>,
}

/// Inserts the account with a fresh invite code and links its establishment. An e-mail or
/// CPF that has an account already, found by the unique index (so also when two sign-ups
/// race), is refused like one found beforehand.
async fn create_account(tx: &mut PgConnection, account: &NewAccount) -> Result<i64, AccountError> {
    // A clash of random invite codes is astronomically rare, but costs only another try.
    for _ in 0..3 {
        let invite_code = new_invite_code()?;
        let inserted: Option<i64> = sqlx::query_scalar(
            "INSERT INTO users (station_id, name, email, cpf, tel, birthday, state, city,
                                password_hash, type_id, active, invite_code)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT (invite_code) DO NOTHING
             RETURNING id",
        )
        .bind(account.station_id)
        .bind(&account.name)
        .bind(&account.email)
        .bind(&account.cpf)
        .bind(&account.tel)
        .bind(account.birthday)
        .bind(&account.state)
        .bind(&account.city)
        .bind(&account.password_hash)
        .bind(account.type_id)
        .bind(account.active)
        .bind(&invite_code)
        .fetch_optional(&mut *tx)
        .await
        .map_err(taken_or_database)?;
        let Some(user_id) = inserted else { continue };
        if let Some(establishment_id) = account.establishment_id {
            sqlx::query(
                "INSERT INTO user_establishments (user_id, establishment_id) VALUES ($1, $2)",
            )
            .bind(user_id)
            .bind(establishment_id)
            .execute(&mut *tx)
            .await?;
        }
        return Ok(user_id);
    }
    Err(anyhow::anyhow!("no free invite code after three tries").into())
}

fn taken_or_database(err: sqlx::Error) -> AccountError {
    let constraint = err
        .as_database_error()
        .filter(|db| db.is_unique_violation())
        .and_then(|db| db.constraint().map(str::to_owned));
    match constraint.as_deref() {
        Some("users_station_email") => AccountError::invalid(EMAIL_TAKEN),
        Some("users_station_cpf") => AccountError::invalid(CPF_TAKEN),
        _ => err.into(),
    }
}

/// A form's one required e-mail, normalised, or the refusal that says what is wrong with it.
pub fn required_email(value: Option<&str>) -> Result<String, AccountError> {
    let mut problems = Problems::default();
    let email = email(&mut problems, value, true);
    reject(problems)?;
    Ok(email.unwrap_or_default())
}

/// Refuses a form that broke any rule, with every broken rule's message.
pub fn reject(problems: Problems) -> Result<(), AccountError> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(AccountError::Invalid(problems.into_messages()))
    }
}

/// With the captcha on, the form's token must pass the provider's check. A provider that
/// cannot be reached fails the form too: the person can simply try again.
pub async fn pass_captcha(
    verifier: &dyn CaptchaVerifier,
    token: Option<&str>,
    ip: Option<IpAddr>,
) -> Result<(), AccountError> {
    if captcha::passes(verifier, token, ip).await {
        Ok(())
    } else {
        Err(AccountError::invalid(captcha::FAILED_MESSAGE))
    }
}

/// Refuses an e-mail or CPF that already has an account in the station.
pub async fn refuse_taken(
    db: impl PgExecutor<'_>,
    station_id: i64,
    email: Option<&str>,
    cpf: Option<&str>,
) -> Result<(), AccountError> {
    let taken = taken(db, station_id, email, cpf).await?;
    if taken.is_empty() {
        Ok(())
    } else {
        Err(AccountError::Invalid(
            taken.into_iter().map(String::from).collect(),
        ))
    }
}

/// The invite a sign-up came with: the offer and inviter `validate-mgm-code` answered, and
/// the full code `{code}-U{inviterId}-E{stationId}` that proves the inviter handed it out.
#[derive(Debug, Clone)]
pub struct MemberGetMember {
    pub action_id: i64,
    pub inviter_id: i64,
    pub code: Option<String>,
}

/// Records the invite a sign-up came with; one that does not qualify (no code, a code of
/// someone else) is only logged.
async fn record_invitation(
    tx: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    invite: Option<MemberGetMember>,
) -> sqlx::Result<()> {
    let Some(invite) = invite else {
        return Ok(());
    };
    let code = invite
        .code
        .as_deref()
        .and_then(InviteCode::parse)
        .filter(|code| code.inviter_id == invite.inviter_id);
    let recorded = match code {
        Some(code) => {
            crate::accounts::mgm::record_invitation(
                tx,
                station_id,
                user_id,
                &code,
                invite.action_id,
            )
            .await?
        }
        None => false,
    };
    if !recorded {
        tracing::info!(
            station_id,
            user_id,
            "sign-up invite ignored: it does not qualify"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_in_every_shape_the_forms_send() {
        let expected = NaiveDate::from_ymd_opt(1990, 5, 17);
        assert_eq!(parse_date("1990-05-17"), expected);
        assert_eq!(parse_date("1990-05-17 00:00:00"), expected);
        assert_eq!(parse_date("1990-05-17T00:00:00.000Z"), expected);
        assert_eq!(parse_date("17/05/1990"), expected);
        assert_eq!(parse_date("1990-02-30"), None);
        assert_eq!(parse_date("0990-05-17"), None);
        assert_eq!(parse_date("ontem"), None);
    }

    #[test]
    fn birthdays_of_minors_are_refused() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 21).expect("date");
        let mut problems = Problems::default();
        assert!(birthday(&mut problems, Some("2008-11-21"), true, Some(today)).is_some());
        assert!(problems.is_empty());
        birthday(
            &mut problems,
            Some("2008-11-22 00:00:00"),
            true,
            Some(today),
        );
        assert_eq!(
            problems.into_messages(),
            ["É necessário ser maior de 18 anos."]
        );
    }

    #[test]
    fn masks_show_only_a_hint() {
        assert_eq!(mask_email("joao.silva@example.com"), "jo***@ex***.com");
        assert_eq!(mask_email("a@b.com.br"), "a***@b***.com.br");
        assert_eq!(
            mask_phone("(11) 98765-1234").as_deref(),
            Some("(**) *****-1234")
        );
        assert_eq!(mask_phone("1134561234").as_deref(), Some("(**) ****-1234"));
        assert_eq!(mask_phone("123"), None);
    }

    #[test]
    fn invite_codes_are_eight_upper_alphanumerics() {
        let code = new_invite_code().expect("code");
        assert_eq!(code.len(), 8);
        assert!(
            code.bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        );
    }

    #[test]
    fn passwords_must_follow_the_rule_and_match() {
        let mut problems = Problems::default();
        assert!(password(&mut problems, Some("Senha123"), Some("Senha123")).is_some());
        assert!(problems.is_empty());
        password(&mut problems, Some("Senha123"), Some("Senha124"));
        assert_eq!(problems.into_messages(), [PASSWORDS_DIFFER]);
        let mut problems = Problems::default();
        password(&mut problems, Some("fraca"), None);
        assert_eq!(
            problems.into_messages(),
            [
                crate::accounts::password::RULE_MESSAGE,
                "Esse campo é obrigatório"
            ]
        );
    }

    #[test]
    fn a_new_station_lives_on_a_subdomain_of_the_public_host() {
        assert_eq!(
            station_url("https://filia.app", "clube"),
            "https://clube.filia.app"
        );
        assert_eq!(
            station_url("http://127.0.0.1:8080", "clube"),
            "http://clube.localhost:8080"
        );
        assert_eq!(
            station_url("http://localhost:8080/", "clube"),
            "http://clube.localhost:8080"
        );
    }

    #[test]
    fn states_and_phones() {
        let mut problems = Problems::default();
        assert_eq!(
            state(&mut problems, Some("sp"), true).as_deref(),
            Some("SP")
        );
        assert_eq!(
            phone(&mut problems, Some("(11) 98765-4321"), true).as_deref(),
            Some("(11) 98765-4321")
        );
        assert!(problems.is_empty());
        state(&mut problems, Some("XX"), true);
        phone(&mut problems, Some("1234"), true);
        assert_eq!(problems.into_messages(), [INVALID_STATE, INVALID_PHONE]);
    }
}
