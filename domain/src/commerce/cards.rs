//! A member's saved cards: the provider's card id with brand, last digits and expiry, never
//! the number. Listed for the checkout and used as `selected_card`; a subscription charges
//! one off-session. The member's customer at a provider that has customers
//! (`payment_customers`) is kept here too.

use sqlx::PgConnection;

use super::gateway::{BillingAddress, CardExpiry, SavedCardAtProvider};
use crate::accounts::signup::{INVALID_STATE, STATES};
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
}

impl SavedCard {
    pub fn expiry(&self) -> Option<CardExpiry> {
        Some(CardExpiry {
            month: u32::try_from(self.exp_month?).ok()?,
            year: self.exp_year?,
        })
    }
}

const CARD_COLUMNS: &str = "id, brand, last_digits, brand AS issuing, exp_month, exp_year";

/// The member's cards saved with `provider`: only those can pay now (`gateway_card_id`).
pub async fn of_member(
    conn: &mut PgConnection,
    user_id: i64,
    provider: &str,
) -> sqlx::Result<Vec<SavedCard>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {CARD_COLUMNS} FROM saved_cards
          WHERE user_id = $1 AND provider = $2 ORDER BY id"
    )))
    .bind(user_id)
    .bind(provider)
    .fetch_all(conn)
    .await
}

/// One of the member's cards with `provider`.
pub async fn one_of_member(
    conn: &mut PgConnection,
    user_id: i64,
    provider: &str,
    card_id: i64,
) -> sqlx::Result<Option<SavedCard>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {CARD_COLUMNS} FROM saved_cards
          WHERE id = $1 AND user_id = $2 AND provider = $3"
    )))
    .bind(card_id)
    .bind(user_id)
    .bind(provider)
    .fetch_optional(conn)
    .await
}

/// The provider's id of one of the member's cards with this provider.
pub async fn gateway_card_id(
    conn: &mut PgConnection,
    user_id: i64,
    provider: &str,
    card_id: i64,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "SELECT gateway_card_id FROM saved_cards WHERE id = $1 AND user_id = $2 AND provider = $3",
    )
    .bind(card_id)
    .bind(user_id)
    .bind(provider)
    .fetch_optional(conn)
    .await
}

/// Saves a card the provider keeps for the member, with its expiry, and answers its id;
/// saving the same card again answers the same row (its expiry filled in if it had none).
/// `None`: the provider's card is another member's (never shared, never moved).
pub async fn save(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    provider: &str,
    card: &SavedCardAtProvider,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "INSERT INTO saved_cards (station_id, user_id, provider, gateway_card_id, brand,
             last_digits, exp_month, exp_year)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (provider, gateway_card_id) DO UPDATE
             SET exp_month = COALESCE(saved_cards.exp_month, EXCLUDED.exp_month),
                 exp_year = COALESCE(saved_cards.exp_year, EXCLUDED.exp_year)
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
    .fetch_optional(conn)
    .await
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
