//! A member's own data as the onboarding wizard and the profile page change it: any subset
//! of the personal fields, the main postal address, a password, and the end of onboarding
//! (`briefingDone`). An account made by the simple sign-up has no password nor, maybe, an
//! e-mail: it must set both here before anything else is saved.

use chrono::NaiveDate;
use serde::Deserialize;
use sqlx::{PgConnection, PgExecutor, PgPool, Postgres, QueryBuilder};

use crate::accounts::change::AccountError;
use crate::accounts::signup::{self, CPF_TAKEN, EMAIL_TAKEN, Problems};
use crate::accounts::user::{self, User};
use crate::accounts::{password, session};
use crate::infra::images::{self, ImageCodec};
use crate::infra::objects::Objects;
use crate::shared::ids::UserId;
use crate::shared::validate;

pub const EMAIL_NEEDED: &str = "Informe um e-mail para acessar a sua conta.";
pub const PASSWORD_NEEDED: &str = "Crie uma senha para acessar a sua conta.";
pub const CURRENT_PASSWORD_NEEDED: &str = "Informe a sua senha atual.";
pub const CURRENT_PASSWORD_WRONG: &str = "Senha atual incorreta.";
pub const CHANGED_MEANWHILE: &str =
    "O seu cadastro foi alterado em outra sessão enquanto salvávamos. Tente novamente.";
/// The largest side of a stored profile image.
const PROFILE_IMAGE_SIDE: u32 = 512;

/// What an update's checks read: the password hash and the e-mail. Read and checked (the
/// current password verified, the new one hashed) before the update's transaction opens,
/// then compared under the row's lock ([`lock_credentials`]), so the slow hasher never
/// holds a connection.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
struct Credentials {
    pub password_hash: Option<String>,
    pub email: Option<String>,
}

async fn credentials(db: impl PgExecutor<'_>, user_id: UserId) -> sqlx::Result<Credentials> {
    sqlx::query_as("SELECT password_hash, email FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(db)
        .await
}

/// [`credentials`] with the row locked for the rest of the transaction.
async fn lock_credentials(tx: &mut PgConnection, user_id: UserId) -> sqlx::Result<Credentials> {
    sqlx::query_as("SELECT password_hash, email FROM users WHERE id = $1 FOR UPDATE")
        .bind(user_id)
        .fetch_one(tx)
        .await
}

/// The spec's `addresses` entry.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct UserAddress {
    pub id: i64,
    pub zipcode: String,
    pub line_1: String,
    pub number: String,
    pub line_2: Option<String>,
    pub neighborhood: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
}

/// The wizard's body: every field optional; `null` is the same as absent.
#[derive(Debug, Clone, Default)]
pub struct ParticipantUpdate {
    pub name: Option<String>,
    pub cpf: Option<String>,
    pub tel: Option<String>,
    pub birthday: Option<String>,
    pub state: Option<String>,
    pub city: Option<String>,
    pub email: Option<String>,
    pub password: Option<String>,
    pub password_confirmation: Option<String>,
    pub zipcode: Option<String>,
    pub address_line_1: Option<String>,
    pub address_number: Option<String>,
    pub address_line_2: Option<String>,
    pub neighborhood: Option<String>,
    pub briefing_done: Option<bool>,
    /// Needed to change the e-mail or password of an account that has a password.
    pub current_password: Option<String>,
}

/// What the account has now, for the rules that depend on it.
#[derive(Debug, Clone, Copy)]
struct AccountState {
    pub has_password: bool,
    pub has_email: bool,
}

/// A valid update. `Some(None)` clears an optional field.
#[derive(Debug, Clone, Default)]
struct Changes {
    pub name: Option<String>,
    pub cpf: Option<String>,
    pub email: Option<String>,
    pub tel: Option<Option<String>>,
    pub birthday: Option<Option<NaiveDate>>,
    pub state: Option<Option<String>>,
    pub city: Option<Option<String>>,
    /// Plain text: the caller hashes it off the async threads.
    pub password: Option<String>,
    pub address: Option<AddressInput>,
    pub briefing_done: Option<bool>,
}

#[derive(Debug, Clone, Default)]
struct AddressInput {
    pub zipcode: String,
    pub line_1: String,
    pub number: String,
    pub line_2: Option<String>,
    pub neighborhood: Option<String>,
}

/// Checks everything sent, with the sign-up forms' field rules; the messages of every
/// broken rule, in field order.
fn validate(
    update: ParticipantUpdate,
    account: AccountState,
    today: NaiveDate,
) -> Result<Changes, Vec<String>> {
    let mut problems = Problems::default();
    let p = &mut problems;
    let mut changes = Changes {
        briefing_done: update.briefing_done,
        ..Changes::default()
    };
    if let Some(name) = update.name.as_deref() {
        changes.name = signup::name(p, Some(name));
        if let Some(name) = &changes.name {
            p.check(validate::max_length(name, 255));
        }
    }
    if let Some(cpf) = update.cpf.as_deref() {
        changes.cpf = signup::cpf(p, Some(cpf), true);
    }
    match update.email.as_deref() {
        Some(email) => changes.email = signup::email(p, Some(email), true),
        None if !account.has_email => p.push(EMAIL_NEEDED),
        None => {}
    }
    if let Some(tel) = update.tel.as_deref() {
        changes.tel = Some(signup::phone(p, Some(tel), false));
    }
    // The profile requires a name, state and birthday (spec 002 section 5): once sent they
    // can be changed, never cleared.
    if let Some(birthday) = update.birthday.as_deref() {
        changes.birthday = Some(signup::birthday(p, Some(birthday), true, Some(today)));
    }
    if let Some(state) = update.state.as_deref() {
        changes.state = Some(signup::state(p, Some(state), true));
    }
    if let Some(city) = update.city.as_deref() {
        let city = signup::present(Some(city));
        p.check(validate::max_length(city.unwrap_or_default(), 120));
        changes.city = Some(city.map(str::to_string));
    }
    match update.password.as_deref() {
        Some(password) => {
            changes.password =
                signup::password(p, Some(password), update.password_confirmation.as_deref());
        }
        None if !account.has_password => p.push(PASSWORD_NEEDED),
        None => {}
    }
    let address_sent = [
        &update.zipcode,
        &update.address_line_1,
        &update.address_number,
        &update.address_line_2,
        &update.neighborhood,
    ]
    .iter()
    .any(|field| field.is_some());
    if address_sent {
        let zipcode = signup::required_text(p, update.zipcode.as_deref());
        p.check(validate::cep(zipcode.unwrap_or_default()));
        let line_1 = signup::required_text(p, update.address_line_1.as_deref());
        let number = signup::required_text(p, update.address_number.as_deref());
        let optional = |value: Option<&str>| signup::present(value).map(str::to_string);
        if let (Some(zipcode), Some(line_1), Some(number)) = (zipcode, line_1, number) {
            changes.address = Some(AddressInput {
                zipcode: zipcode.chars().filter(char::is_ascii_digit).collect(),
                line_1: line_1.to_string(),
                number: number.to_string(),
                line_2: optional(update.address_line_2.as_deref()),
                neighborhood: optional(update.neighborhood.as_deref()),
            });
        }
    }
    if problems.is_empty() {
        Ok(changes)
    } else {
        Err(problems.into_messages())
    }
}

/// Whether these changes take over the account's way in (its e-mail or password), which a
/// borrowed session must not do without the current password. Accounts with no password
/// yet (simple sign-up) have none to give. The same e-mail sent again is no change.
fn needs_current_password(
    changes: &Changes,
    has_password: bool,
    stored_email: Option<&str>,
) -> bool {
    let new_email = changes
        .email
        .as_deref()
        .is_some_and(|email| stored_email.is_none_or(|stored| !stored.eq_ignore_ascii_case(email)));
    has_password && (changes.password.is_some() || new_email)
}

/// A unique index an update ran into.
#[derive(Debug, thiserror::Error)]
enum ApplyError {
    #[error("{0}")]
    Taken(&'static str),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// Points the member's picture at `image_url` and answers the one it replaced, so the
/// caller can remove that file.
async fn replace_image(
    db: impl PgExecutor<'_>,
    user_id: UserId,
    image_url: &str,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "UPDATE users u SET image = $2, updated_at = now()
           FROM (SELECT image FROM users WHERE id = $1 FOR UPDATE) AS before
          WHERE u.id = $1
         RETURNING before.image",
    )
    .bind(user_id)
    .bind(image_url)
    .fetch_one(db)
    .await
}

/// Writes the changes; `password_hash` is the hash of `changes.password`.
async fn apply(
    tx: &mut PgConnection,
    user_id: UserId,
    changes: &Changes,
    password_hash: Option<&str>,
) -> Result<(), ApplyError> {
    let mut update: QueryBuilder<Postgres> =
        QueryBuilder::new("UPDATE users SET updated_at = now()");
    macro_rules! assign {
        ($column:literal, $value:expr) => {
            if let Some(value) = $value {
                update.push(concat!(", ", $column, " = "));
                update.push_bind(value.clone());
            }
        };
    }
    assign!("name", &changes.name);
    assign!("cpf", &changes.cpf);
    assign!("email", &changes.email);
    assign!("tel", &changes.tel);
    assign!("birthday", &changes.birthday);
    assign!("state", &changes.state);
    assign!("city", &changes.city);
    assign!("password_hash", &password_hash.map(str::to_string));
    assign!("briefing_done", &changes.briefing_done);
    update.push(" WHERE id = ");
    update.push_bind(user_id);
    update
        .build()
        .execute(&mut *tx)
        .await
        .map_err(|err| match constraint(&err) {
            Some("users_station_email") => ApplyError::Taken(EMAIL_TAKEN),
            Some("users_station_cpf") => ApplyError::Taken(CPF_TAKEN),
            _ => ApplyError::Database(err),
        })?;
    if let Some(address) = &changes.address {
        save_main_address(tx, user_id, address).await?;
    }
    Ok(())
}

fn constraint(err: &sqlx::Error) -> Option<&str> {
    err.as_database_error().and_then(|err| err.constraint())
}

/// Replaces the first address, or adds it; its city and state are the member's.
async fn save_main_address(
    tx: &mut PgConnection,
    user_id: UserId,
    address: &AddressInput,
) -> sqlx::Result<()> {
    sqlx::query(
        "WITH main AS (SELECT id FROM user_addresses WHERE user_id = $1 ORDER BY id LIMIT 1),
              owner AS (SELECT city, state FROM users WHERE id = $1),
              updated AS (
                  UPDATE user_addresses a
                     SET zipcode = $2, line_1 = $3, number = $4, line_2 = $5, neighborhood = $6,
                         city = owner.city, state = owner.state, updated_at = now()
                    FROM main, owner
                   WHERE a.id = main.id
                  RETURNING a.id)
         INSERT INTO user_addresses (user_id, zipcode, line_1, number, line_2, neighborhood, city, state)
         SELECT $1, $2, $3, $4, $5, $6, owner.city, owner.state FROM owner
          WHERE NOT EXISTS (SELECT 1 FROM updated)",
    )
    .bind(user_id)
    .bind(&address.zipcode)
    .bind(&address.line_1)
    .bind(&address.number)
    .bind(&address.line_2)
    .bind(&address.neighborhood)
    .execute(tx)
    .await?;
    Ok(())
}

/// An update that passed every check (its fields, the current password when it takes
/// over the account's way in), its new password hashed: what [`save_update`] writes.
#[derive(Debug)]
pub struct CheckedUpdate {
    before: Credentials,
    changes: Changes,
    password_hash: Option<String>,
}

/// Checks the member's update with no transaction open: the current password is verified
/// and the new one hashed without holding a connection.
pub async fn check_update(
    db: &PgPool,
    user_id: UserId,
    mut update: ParticipantUpdate,
) -> Result<CheckedUpdate, AccountError> {
    let current_password = update.current_password.take();
    let before = credentials(db, user_id).await?;
    let today =
        crate::shared::time::today_in(crate::shared::time::member_zone(db, user_id.0).await?);
    let account = AccountState {
        has_password: before.password_hash.is_some(),
        has_email: before.email.is_some(),
    };
    let changes = validate(update, account, today).map_err(AccountError::Invalid)?;
    if needs_current_password(&changes, account.has_password, before.email.as_deref()) {
        let current = current_password
            .filter(|password| !password.is_empty())
            .ok_or_else(|| AccountError::invalid(CURRENT_PASSWORD_NEEDED))?;
        if !password::verify_off_thread(current, before.password_hash.clone()).await? {
            return Err(AccountError::invalid(CURRENT_PASSWORD_WRONG));
        }
    }
    let password_hash = match changes.password.clone() {
        Some(password) => Some(password::hash_off_thread(password).await?),
        None => None,
    };
    Ok(CheckedUpdate {
        before,
        changes,
        password_hash,
    })
}

/// Writes a checked update and answers the user as it is now. The checks ran without a
/// connection, so under the row's lock the account must still be as they saw it. A new
/// password signs out every session but `keep_token`'s (the device that changed it).
pub async fn save_update(
    tx: &mut PgConnection,
    user_id: UserId,
    checked: CheckedUpdate,
    keep_token: &str,
) -> Result<User, AccountError> {
    if lock_credentials(tx, user_id).await? != checked.before {
        return Err(AccountError::invalid(CHANGED_MEANWHILE));
    }
    apply(
        tx,
        user_id,
        &checked.changes,
        checked.password_hash.as_deref(),
    )
    .await
    .map_err(|err| match err {
        ApplyError::Taken(message) => AccountError::invalid(message),
        ApplyError::Database(err) => err.into(),
    })?;
    if checked.password_hash.is_some() {
        // Whoever else holds a session (a lost phone, a thief) is signed out; this device stays.
        session::revoke_others(&mut *tx, user_id, keep_token).await?;
    }
    Ok(user::find(&mut *tx, user_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("user {user_id} vanished during an update"))?)
}

/// Replaces the member's picture by `base64`'s image, re-encoded, and answers the user as
/// it is now. The replaced picture's file is deleted.
pub async fn replace_picture(
    db: &PgPool,
    objects: &Objects,
    codec: &dyn ImageCodec,
    user_id: UserId,
    base64: String,
) -> Result<User, AccountError> {
    let encoded = images::process(codec, base64, PROFILE_IMAGE_SIDE)
        .await?
        .map_err(|err| AccountError::invalid(err.to_string()))?;
    let key = Objects::new_key(&format!("users/{user_id}"), encoded.extension);
    objects.put(&key, encoded.bytes).await?;
    let previous = replace_image(db, user_id, &Objects::url(&key)).await?;
    // The old picture is no longer referenced; failing to remove it only leaves a file.
    if let Some(old_key) = previous.as_deref().and_then(Objects::key_of_url) {
        crate::infra::variants::delete_with_copies(db, objects, old_key).await;
    }
    Ok(user::find(db, user_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("user {user_id} vanished during an update"))?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::signup::{INVALID_PHONE, INVALID_STATE, PASSWORDS_DIFFER};
    use crate::shared::validate::message;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 21).expect("date")
    }

    const FULL: AccountState = AccountState {
        has_password: true,
        has_email: true,
    };

    #[test]
    fn every_broken_rule_is_reported() {
        let update = ParticipantUpdate {
            name: Some("   ".into()),
            cpf: Some("111.111.111-11".into()),
            email: Some("sem-arroba".into()),
            birthday: Some("2010-01-01".into()),
            state: Some("XX".into()),
            tel: Some("123".into()),
            password: Some("Senha123".into()),
            password_confirmation: Some("Senha124".into()),
            zipcode: Some("123".into()),
            ..ParticipantUpdate::default()
        };
        let errors = validate(update, FULL, today()).expect_err("invalid");
        assert_eq!(
            errors,
            [
                message::REQUIRED,
                message::CPF,
                message::EMAIL,
                INVALID_PHONE,
                message::AGE_18,
                INVALID_STATE,
                PASSWORDS_DIFFER,
                message::CEP,
            ]
        );
    }

    #[test]
    fn state_and_birthday_cannot_be_cleared() {
        let update = ParticipantUpdate {
            birthday: Some(" ".into()),
            state: Some("".into()),
            ..ParticipantUpdate::default()
        };
        let errors = validate(update, FULL, today()).expect_err("required");
        assert_eq!(errors, [message::REQUIRED]);
    }

    #[test]
    fn an_account_without_a_password_must_set_one_and_an_email() {
        let bare = AccountState {
            has_password: false,
            has_email: false,
        };
        let errors = validate(ParticipantUpdate::default(), bare, today()).expect_err("needs both");
        assert_eq!(errors, [EMAIL_NEEDED, PASSWORD_NEEDED]);
    }

    #[test]
    fn values_are_normalised() {
        let update = ParticipantUpdate {
            name: Some("  Ana Souza ".into()),
            cpf: Some("529.982.247-25".into()),
            email: Some(" Ana@Example.COM ".into()),
            tel: Some("(11) 91234-5678".into()),
            state: Some("sp".into()),
            city: Some("".into()),
            zipcode: Some("01.310-100".into()),
            address_line_1: Some("Av. Paulista".into()),
            address_number: Some("1000".into()),
            address_line_2: Some(" ".into()),
            ..ParticipantUpdate::default()
        };
        let changes = validate(update, FULL, today()).expect("valid");
        assert_eq!(changes.name.as_deref(), Some("Ana Souza"));
        assert_eq!(changes.cpf.as_deref(), Some("52998224725"));
        assert_eq!(changes.email.as_deref(), Some("ana@example.com"));
        assert_eq!(changes.tel, Some(Some("(11) 91234-5678".into())));
        assert_eq!(changes.state, Some(Some("SP".into())));
        assert_eq!(changes.city, Some(None));
        let address = changes.address.expect("address");
        assert_eq!(address.zipcode, "01310100");
        assert_eq!(address.line_2, None);
    }
}
