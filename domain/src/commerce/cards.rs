//! A member's saved cards: the provider's card id with brand, last digits and expiry, never
//! the number. Listed for the checkout and used as `selected_card`; a subscription charges
//! one off-session. One live card of a member is the default; a removed card stays as a row
//! (charges and subscriptions name it) but is never listed nor charged again. The member's
//! customer at a provider that has customers (`payment_customers`) is kept here too, and
//! the cards about to expire that the monthly reminder e-mails.

use sqlx::PgConnection;

use super::gateway::{BillingAddress, CardExpiry, SavedCardAtProvider};
use crate::accounts::signup::{INVALID_STATE, STATES};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::validate;

/// The spec's saved card: `id, brand, last_digits, issuing`, and its expiry (the
/// subscription card's `expiration_date`).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SavedCard {
    pub id: i64,
    pub brand: String,
    pub last_digits: String,
    /// The issuer as the provider names it; the brand when it does not.
    pub issuing: String,
    /// Unknown for cards saved before the expiry was kept.
    pub exp_month: Option<i32>,
    pub exp_year: Option<i32>,
    /// The card the member chose to pay with first (the first card saved, until another is
    /// chosen).
    pub is_default: bool,
}

impl SavedCard {
    pub fn expiry(&self) -> Option<CardExpiry> {
        Some(CardExpiry {
            month: u32::try_from(self.exp_month?).ok()?,
            year: self.exp_year?,
        })
    }
}

const CARD_COLUMNS: &str =
    "id, brand, last_digits, brand AS issuing, exp_month, exp_year, is_default";

/// The member's live cards saved with `provider`: only those can pay now
/// (`gateway_card_id`). The default first, then as they were saved.
pub async fn of_member(
    conn: &mut PgConnection,
    user_id: i64,
    provider: &str,
) -> sqlx::Result<Vec<SavedCard>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {CARD_COLUMNS} FROM saved_cards
          WHERE user_id = $1 AND provider = $2 AND removed_at IS NULL
          ORDER BY is_default DESC, id"
    )))
    .bind(user_id)
    .bind(provider)
    .fetch_all(conn)
    .await
}

/// One of the member's live cards with `provider`.
pub async fn one_of_member(
    conn: &mut PgConnection,
    user_id: i64,
    provider: &str,
    card_id: i64,
) -> sqlx::Result<Option<SavedCard>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {CARD_COLUMNS} FROM saved_cards
          WHERE id = $1 AND user_id = $2 AND provider = $3 AND removed_at IS NULL"
    )))
    .bind(card_id)
    .bind(user_id)
    .bind(provider)
    .fetch_optional(conn)
    .await
}

/// The provider's id of one of the member's live cards with this provider: what every
/// charge of a saved card (checkout, top-up) reads, so a removed card is never charged.
pub async fn gateway_card_id(
    conn: &mut PgConnection,
    user_id: i64,
    provider: &str,
    card_id: i64,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "SELECT gateway_card_id FROM saved_cards
          WHERE id = $1 AND user_id = $2 AND provider = $3 AND removed_at IS NULL",
    )
    .bind(card_id)
    .bind(user_id)
    .bind(provider)
    .fetch_optional(conn)
    .await
}

/// [`gateway_card_id`] on the caller's transaction, holding the card (`FOR KEY SHARE`) until
/// it ends: a removal (which takes the card `FOR UPDATE`) waits for it, or wins first and
/// the card reads as gone.
pub async fn hold_gateway_card_id(
    conn: &mut PgConnection,
    user_id: i64,
    provider: &str,
    card_id: i64,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "SELECT gateway_card_id FROM saved_cards
          WHERE id = $1 AND user_id = $2 AND provider = $3 AND removed_at IS NULL
            FOR KEY SHARE",
    )
    .bind(card_id)
    .bind(user_id)
    .bind(provider)
    .fetch_optional(conn)
    .await
}

/// Saves a card the provider keeps for the member, with its expiry, and answers its id;
/// saving the same card again answers the same row (its expiry filled in if it had none,
/// and live again if the member had removed it). The member's first live card becomes the
/// default. `None`: the provider's card is another member's (never shared, never moved).
pub async fn save(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    provider: &str,
    card: &SavedCardAtProvider,
) -> sqlx::Result<Option<i64>> {
    lock_member_cards(conn, user_id).await?;
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO saved_cards (station_id, user_id, provider, gateway_card_id, brand,
             last_digits, exp_month, exp_year)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (provider, gateway_card_id) DO UPDATE
             SET exp_month = COALESCE(saved_cards.exp_month, EXCLUDED.exp_month),
                 exp_year = COALESCE(saved_cards.exp_year, EXCLUDED.exp_year),
                 removed_at = NULL,
                 provider_deleted_at = NULL
           WHERE saved_cards.user_id = EXCLUDED.user_id
         RETURNING id",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(provider)
    .bind(&card.card_id)
    .bind(&card.brand)
    .bind(&card.last_digits)
    .bind(card.expiry.and_then(|e| i32::try_from(e.month).ok()))
    .bind(card.expiry.map(|e| e.year))
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(id) = id {
        sqlx::query(
            "UPDATE saved_cards SET is_default = true
              WHERE id = $1 AND NOT EXISTS (
                    SELECT 1 FROM saved_cards
                     WHERE user_id = $2 AND provider = $3 AND is_default)",
        )
        .bind(id)
        .bind(user_id)
        .bind(provider)
        .execute(&mut *conn)
        .await?;
    }
    Ok(id)
}

/// Changes to one member's cards (a save, a removal, the default) wait for each other, so
/// the one-default rule holds however they race.
async fn lock_member_cards(conn: &mut PgConnection, user_id: i64) -> sqlx::Result<()> {
    sqlx::query("SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE")
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Why a card cannot be removed.
#[derive(Debug, thiserror::Error)]
pub enum RemoveRefusal {
    #[error("no such card of the member")]
    NotFound,
    /// The card pays a live subscription (its name).
    #[error("the card pays the subscription {0}")]
    PaysSubscription(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// A card that cannot be found, as the member reads it.
pub const CARD_NOT_FOUND: &str = "Cartão não encontrado";

/// The refusal to remove the card of a live subscription, naming it.
pub fn pays_subscription_message(name: &str) -> String {
    format!(
        "Este cartão paga a sua assinatura {name}. Cadastre outro cartão na assinatura antes de removê-lo."
    )
}

impl IntoFailure for RemoveRefusal {
    fn into_failure(self) -> Failure {
        match self {
            Self::NotFound => Failure::NotFound(CARD_NOT_FOUND.into()),
            Self::PaysSubscription(name) => Failure::Conflict(pays_subscription_message(&name)),
            Self::Db(err) => Failure::Internal(err.into()),
        }
    }
}

/// A card just removed: its station, and when it was removed (what names this removal's
/// deletion at the provider).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Removed {
    pub station_id: i64,
    pub removed_at: chrono::DateTime<chrono::Utc>,
}

/// Removes one of the member's live cards here (never listed nor charged again), for the
/// provider to delete it too ([`to_delete_at_provider`]). The card of a live subscription that
/// will charge it again is refused; the member's newest other card becomes the default when
/// the default goes. The card's row is locked first, so a subscription given this card at
/// the same moment waits and is refused (the `subscriptions_card_not_removed` trigger).
pub async fn remove(
    conn: &mut PgConnection,
    user_id: i64,
    provider: &str,
    card_id: i64,
) -> Result<Removed, RemoveRefusal> {
    lock_member_cards(conn, user_id).await?;
    let card: Option<(i64, bool)> = sqlx::query_as(
        "SELECT station_id, is_default FROM saved_cards
          WHERE id = $1 AND user_id = $2 AND provider = $3 AND removed_at IS NULL
            FOR UPDATE",
    )
    .bind(card_id)
    .bind(user_id)
    .bind(provider)
    .fetch_optional(&mut *conn)
    .await?;
    let (station_id, was_default) = card.ok_or(RemoveRefusal::NotFound)?;
    let paid: Option<String> = sqlx::query_scalar(
        "SELECT coalesce(pl.name, pr.name, 'Assinatura')
           FROM subscriptions s
           LEFT JOIN plans pl ON pl.id = s.plan_id
           LEFT JOIN products pr ON pr.id = s.product_id
          WHERE s.saved_card_id = $1 AND s.method = 'card'
            AND s.status IN ('incomplete', 'active', 'past_due')
            AND NOT (s.status = 'active' AND s.cancel_at_period_end)
          ORDER BY s.id LIMIT 1",
    )
    .bind(card_id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(name) = paid {
        return Err(RemoveRefusal::PaysSubscription(name));
    }
    let removed_at = sqlx::query_scalar(
        "UPDATE saved_cards SET removed_at = now(), is_default = false WHERE id = $1
         RETURNING removed_at",
    )
    .bind(card_id)
    .fetch_one(&mut *conn)
    .await?;
    if was_default {
        sqlx::query(
            "UPDATE saved_cards SET is_default = true
              WHERE id = (SELECT id FROM saved_cards
                           WHERE user_id = $1 AND provider = $2 AND removed_at IS NULL
                           ORDER BY id DESC LIMIT 1)",
        )
        .bind(user_id)
        .bind(provider)
        .execute(&mut *conn)
        .await?;
    }
    Ok(Removed {
        station_id,
        removed_at,
    })
}

/// The provider's id of a removed card of `provider` not yet deleted there; `None` once it
/// is (or when the member saved it again since).
pub async fn to_delete_at_provider(
    conn: &mut PgConnection,
    provider: &str,
    card_id: i64,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "SELECT gateway_card_id FROM saved_cards
          WHERE id = $1 AND provider = $2 AND removed_at IS NOT NULL
            AND provider_deleted_at IS NULL",
    )
    .bind(card_id)
    .bind(provider)
    .fetch_optional(conn)
    .await
}

/// Marks a removed card deleted at the provider.
pub async fn deleted_at_provider(conn: &mut PgConnection, card_id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE saved_cards SET provider_deleted_at = now()
          WHERE id = $1 AND removed_at IS NOT NULL AND provider_deleted_at IS NULL",
    )
    .bind(card_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Makes one of the member's live cards the default; false when it is not one of them.
pub async fn make_default(
    conn: &mut PgConnection,
    user_id: i64,
    provider: &str,
    card_id: i64,
) -> sqlx::Result<bool> {
    lock_member_cards(conn, user_id).await?;
    let live: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM saved_cards
                         WHERE id = $1 AND user_id = $2 AND provider = $3
                           AND removed_at IS NULL)",
    )
    .bind(card_id)
    .bind(user_id)
    .bind(provider)
    .fetch_one(&mut *conn)
    .await?;
    if !live {
        return Ok(false);
    }
    // Two statements: the unique index is checked row by row.
    sqlx::query(
        "UPDATE saved_cards SET is_default = false
          WHERE user_id = $1 AND provider = $2 AND is_default AND id <> $3",
    )
    .bind(user_id)
    .bind(provider)
    .bind(card_id)
    .execute(&mut *conn)
    .await?;
    sqlx::query("UPDATE saved_cards SET is_default = true WHERE id = $1")
        .bind(card_id)
        .execute(&mut *conn)
        .await?;
    Ok(true)
}

/// The member's id as the provider's customer, if one was made.
pub async fn customer_id(
    conn: &mut PgConnection,
    user_id: i64,
    provider: &str,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "SELECT customer_id FROM payment_customers WHERE user_id = $1 AND provider = $2",
    )
    .bind(user_id)
    .bind(provider)
    .fetch_optional(conn)
    .await
}

/// Keeps the member's customer at the provider; the first one kept stays.
pub async fn keep_customer(
    conn: &mut PgConnection,
    user_id: i64,
    provider: &str,
    customer_id: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO payment_customers (user_id, provider, customer_id) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING",
    )
    .bind(user_id)
    .bind(provider)
    .bind(customer_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether an activity of the station lets its card payments be split, or `None` when the
/// activity is not the station's.
pub async fn allows_installments(
    conn: &mut PgConnection,
    station_id: i64,
    action_id: i64,
) -> sqlx::Result<Option<bool>> {
    sqlx::query_scalar("SELECT allow_installments FROM actions WHERE id = $1 AND station_id = $2")
        .bind(action_id)
        .bind(station_id)
        .fetch_optional(conn)
        .await
}

/// What a new card's billing address is told when a field is missing, too long or wrong.
pub const BILLING_ADDRESS_REQUIRED: &str = "Informe o endereço de cobrança do cartão.";
pub const BILLING_ADDRESS_TOO_LONG: &str = "Endereço de cobrança longo demais.";

/// Pagar.me's limits: `line_1` up to 256 characters, the city up to 64.
const STREET_MAX: usize = 200;
const NUMBER_MAX: usize = 20;
const CITY_MAX: usize = 64;

/// A new card's billing address from the payment form's `cep, street, street_number, city,
/// state` (masked or not): every field given and within its length, the CEP's eight digits,
/// a real state's code, and no "CEP inválido" that a failed lookup writes into street and
/// city (a mark, not an address).
pub fn billing_address(
    cep: &str,
    street: &str,
    number: &str,
    city: &str,
    state: &str,
) -> Result<BillingAddress, &'static str> {
    let [cep, street, number, city, state] = [cep, street, number, city, state].map(str::trim);
    if [cep, street, number, city, state].contains(&"") {
        return Err(BILLING_ADDRESS_REQUIRED);
    }
    validate::cep(cep).map_err(|_| validate::message::CEP)?;
    if [street, city].contains(&validate::message::CEP) {
        return Err(validate::message::CEP);
    }
    let too_long = |text: &str, max: usize| text.chars().count() > max;
    if too_long(street, STREET_MAX) || too_long(number, NUMBER_MAX) || too_long(city, CITY_MAX) {
        return Err(BILLING_ADDRESS_TOO_LONG);
    }
    let state = state.to_ascii_uppercase();
    if !STATES.contains(&state.as_str()) {
        return Err(INVALID_STATE);
    }
    Ok(BillingAddress {
        zip_code: cep.chars().filter(char::is_ascii_digit).collect(),
        street: street.into(),
        number: number.into(),
        city: city.into(),
        state,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_billing_address_takes_the_forms_masks_and_refuses_gaps() {
        let address = billing_address(
            "88.010-400",
            " Rua Felipe Schmidt ",
            "515",
            "Florianópolis",
            "sc",
        )
        .expect("valid");
        assert_eq!(
            (
                address.zip_code.as_str(),
                address.street.as_str(),
                address.state.as_str()
            ),
            ("88010400", "Rua Felipe Schmidt", "SC")
        );
        assert_eq!(
            billing_address("88010400", "Rua A", " ", "Florianópolis", "SC"),
            Err(BILLING_ADDRESS_REQUIRED)
        );
        for (cep, street, city) in [
            ("8801040", "Rua A", "Florianópolis"),
            ("88010400x", "Rua A", "Florianópolis"),
            ("88010400", "CEP inválido", "Florianópolis"),
            ("88010400", "Rua A", " CEP inválido "),
        ] {
            assert_eq!(
                billing_address(cep, street, "1", city, "SC"),
                Err(validate::message::CEP),
                "{cep} {street} {city}"
            );
        }
        assert_eq!(
            billing_address("88010400", &"R".repeat(201), "1", "Florianópolis", "SC"),
            Err(BILLING_ADDRESS_TOO_LONG)
        );
        assert_eq!(
            billing_address("88010400", "Rua A", "1", "Florianópolis", "XX"),
            Err(INVALID_STATE)
        );
    }
}
