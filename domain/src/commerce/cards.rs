//! A member's saved cards: the provider's card id with brand and last digits, never the
//! number. Listed for the checkout and used as `selected_card`.

use serde::Serialize;
use sqlx::PgConnection;

/// The spec's saved card: `id, brand, last_digits, issuing`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct SavedCard {
    pub id: i64,
    pub brand: String,
    pub last_digits: String,
    /// The issuer as the provider names it; the brand when it does not.
    pub issuing: String,
}

pub async fn of_member(conn: &mut PgConnection, user_id: i64) -> sqlx::Result<Vec<SavedCard>> {
    sqlx::query_as(
        "SELECT id, brand, last_digits, brand AS issuing FROM saved_cards
          WHERE user_id = $1 ORDER BY id",
    )
    .bind(user_id)
    .fetch_all(conn)
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

/// Saves a card the provider attached; saving the same card again changes nothing.
#[allow(clippy::too_many_arguments)]
pub async fn save(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    provider: &str,
    gateway_card_id: &str,
    brand: &str,
    last_digits: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO saved_cards (station_id, user_id, provider, gateway_card_id, brand, last_digits)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (provider, gateway_card_id) DO NOTHING",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(provider)
    .bind(gateway_card_id)
    .bind(brand)
    .bind(last_digits)
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
