//! Accounts of a station: members, company admins and staff.

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::PgExecutor;

use crate::shared::cpf::Cpf;
use crate::shared::ids::UserId;
use crate::stations::station::Establishment;

/// An account as it is now, with its wallet balance, establishment and addresses.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct User {
    pub id: i64,
    pub station_id: i64,
    pub name: String,
    pub email: Option<String>,
    pub cpf: Option<String>,
    pub tel: Option<String>,
    pub birthday: Option<NaiveDate>,
    pub state: Option<String>,
    pub city: Option<String>,
    pub image: Option<String>,
    /// The first part of the member's own invite code `{invite_code}-U{id}-E{station_id}`.
    pub invite_code: Option<String>,
    /// 1 company admin, 2 participant.
    pub type_id: i16,
    /// `member` or `staff`; staff reach the support tools of their own station only.
    pub role: String,
    /// 1 active, 0 waiting for activation (the spec compares it with 0).
    pub active: i32,
    /// The spendable wallet balance, as the JSON number of points the screens show.
    #[sqlx(try_from = "i64")]
    pub points: crate::wallet::ledger::Points,
    pub briefing_done: bool,
    /// False for a simple sign-up that has not set one: the profile asks for the current
    /// password only when there is one.
    pub has_password: bool,
    pub deleted_at: Option<DateTime<Utc>>,
    /// The first establishment the user is linked to; `None` blocks the member area.
    #[sqlx(json(nullable))]
    pub establishment: Option<Establishment>,
    /// Postal addresses, the main one first.
    #[sqlx(json)]
    pub addresses: Vec<crate::accounts::profile::UserAddress>,
}

/// How a person identifies at login: by e-mail or by CPF, depending on the station.
#[derive(Debug, Clone)]
pub enum LoginId {
    Email(String),
    Cpf(Cpf),
}

impl LoginId {
    /// One spelling per identifier (lower-case e-mail, bare CPF digits), for counting
    /// attempts against it.
    pub fn normalized(&self) -> String {
        match self {
            Self::Email(email) => format!("email:{}", email.trim().to_lowercase()),
            Self::Cpf(cpf) => format!("cpf:{}", cpf.digits()),
        }
    }
}

macro_rules! select_user {
    () => {
        r#"
    SELECT u.id, u.station_id, u.name, u.email, u.cpf, u.tel, u.birthday, u.state, u.city, u.image, u.invite_code,
           u.type_id, u.role, u.active::int AS active, u.briefing_done,
           coalesce((SELECT w.balance FROM wallets w WHERE w.user_id = u.id), 0) AS points,
           u.password_hash IS NOT NULL AS has_password, u.deleted_at,
           (SELECT jsonb_build_object(
                'id', e.id, 'cnpj', e.cnpj, 'full_social_name', e.full_social_name,
                'address', jsonb_build_object(
                    'city', e.city, 'line_1', e.address_line_1, 'line_2', e.address_line_2,
                    'state', e.state, 'zipcode', e.zipcode))
              FROM user_establishments ue
              JOIN establishments e ON e.id = ue.establishment_id AND e.station_id = u.station_id
             WHERE ue.user_id = u.id
             ORDER BY ue.created_at, e.id
             LIMIT 1) AS establishment,
           coalesce((SELECT jsonb_agg(jsonb_build_object(
                        'id', a.id, 'zipcode', a.zipcode, 'line_1', a.line_1, 'number', a.number,
                        'line_2', a.line_2, 'neighborhood', a.neighborhood, 'city', a.city,
                        'state', a.state) ORDER BY a.id)
                       FROM user_addresses a WHERE a.user_id = u.id), '[]') AS addresses
      FROM users u
"#
    };
}

/// The id and stored password hash of a station's account, by login identifier.
pub async fn find_credentials(
    db: impl PgExecutor<'_>,
    station_id: i64,
    login: &LoginId,
) -> sqlx::Result<Option<(i64, Option<String>)>> {
    let (email, cpf) = match login {
        LoginId::Email(email) => (Some(email.trim().to_lowercase()), None),
        LoginId::Cpf(cpf) => (None, Some(cpf.digits().to_string())),
    };
    sqlx::query_as(
        "SELECT id, password_hash FROM users
          WHERE station_id = $1 AND (email = $2 OR cpf = $3)",
    )
    .bind(station_id)
    .bind(email)
    .bind(cpf)
    .fetch_optional(db)
    .await
}

pub async fn find(db: impl PgExecutor<'_>, id: UserId) -> sqlx::Result<Option<User>> {
    sqlx::query_as(concat!(select_user!(), " WHERE u.id = $1"))
        .bind(id)
        .fetch_optional(db)
        .await
}

/// Whether a member card is valid: the account exists, is activated and is not blocked.
/// Unknown ids are simply not valid, so the answer says nothing more about them.
pub async fn is_valid_member(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<bool> {
    let valid: Option<bool> =
        sqlx::query_scalar("SELECT active AND deleted_at IS NULL FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?;
    Ok(valid.unwrap_or(false))
}
