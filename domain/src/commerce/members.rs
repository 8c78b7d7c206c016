//! What the checkout reads of the member besides the cart: their family (listed on family
//! vouchers) and their saved postal addresses (the delivery step's default).

use sqlx::PgExecutor;

/// A member's family member, named on family vouchers (the table's `dependente`, its name,
/// and `parentesco`, the relationship).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Dependent {
    pub id: i64,
    pub dependente: String,
    pub parentesco: String,
}

pub async fn dependents(db: impl PgExecutor<'_>, user_id: i64) -> sqlx::Result<Vec<Dependent>> {
    sqlx::query_as(
        "SELECT id, dependente, parentesco FROM dependents WHERE user_id = $1 ORDER BY id",
    )
    .bind(user_id)
    .fetch_all(db)
    .await
}

/// A member's saved postal address.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Address {
    pub id: i64,
    pub zipcode: String,
    pub street: String,
    pub number: String,
    pub complement: Option<String>,
    pub neighborhood: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
}

/// The member's addresses, the main one first: the main address is the member's first
/// (lowest id), the one the profile edits (`accounts::profile`), so id order is main first.
pub async fn addresses(db: impl PgExecutor<'_>, user_id: i64) -> sqlx::Result<Vec<Address>> {
    sqlx::query_as(
        "SELECT id, zipcode, line_1 AS street, number, line_2 AS complement, neighborhood, city,
                state
           FROM user_addresses WHERE user_id = $1 ORDER BY id",
    )
    .bind(user_id)
    .fetch_all(db)
    .await
}
