//! The member's cart: one line per product, a quantity between 1 and what the member may
//! have (the spec's stepper: the per-member limit less earlier orders, or the stock,
//! whichever is lower).

use sqlx::PgConnection;

use super::catalogue::{self, Product};
use super::{CommerceError, CommerceResult, Refusal};

/// A line of the member's cart with its product.
#[derive(Debug, Clone)]
pub struct CartLine {
    pub product_id: i64,
    pub quantity: i64,
    pub product: Product,
}

/// The most units of one product a line may have (a CHECK of the cart, hold and order
/// lines too), so no quantity times price overflows.
pub const MAX_QUANTITY: i64 = 10_000;

/// A quantity asked for one product.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wanted {
    pub product_id: i64,
    pub quantity: i64,
}

/// The member's cart, in the order the lines were added. Products gone from sale (or from
/// the station) are left out.
pub async fn lines(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
) -> sqlx::Result<Vec<CartLine>> {
    let quantities: Vec<(i64, i32)> = sqlx::query_as(
        "SELECT product_id, quantity FROM cart_lines
          WHERE user_id = $1 AND station_id = $2 ORDER BY id",
    )
    .bind(user_id)
    .bind(station_id)
    .fetch_all(&mut *conn)
    .await?;
    let ids: Vec<i64> = quantities.iter().map(|(id, _)| *id).collect();
    let products = catalogue::products(conn, station_id, user_id, &ids).await?;
    Ok(quantities
        .into_iter()
        .filter_map(|(product_id, quantity)| {
            let product = products.iter().find(|p| p.id == product_id)?.clone();
            Some(CartLine {
                product_id,
                quantity: quantity.into(),
                product,
            })
        })
        .collect())
}

/// Checks each wanted quantity against what the member may have; answers the products.
pub(crate) async fn check_quantities(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    wanted: &[Wanted],
) -> CommerceResult<Vec<Product>> {
    if wanted
        .iter()
        .any(|w| w.quantity <= 0 || w.quantity > MAX_QUANTITY)
    {
        return Err(Refusal::BadQuantity.into());
    }
    let ids: Vec<i64> = wanted.iter().map(|w| w.product_id).collect();
    let products = catalogue::products(conn, station_id, user_id, &ids).await?;
    let mut actions: Vec<i64> = products.iter().map(|p| p.action_id).collect();
    actions.sort_unstable();
    actions.dedup();
    catalogue::check_on_sale(conn, station_id, &actions).await?;
    for w in wanted {
        let product = products
            .iter()
            .find(|p| p.id == w.product_id)
            .ok_or(Refusal::ProductNotFound)?;
        let limit_left = i64::from(product.limit_per_user) - product.user_single_product_orders;
        if w.quantity > limit_left {
            return Err(Refusal::OverLimit {
                limit: product.limit_per_user.into(),
                product: product.name.clone(),
            }
            .into());
        }
        if w.quantity > product.stock {
            return Err(Refusal::OutOfStock.into());
        }
    }
    Ok(products)
}

/// Adds the quantities to the member's lines (a new line for a product not there yet).
pub async fn add(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    items: &[Wanted],
) -> CommerceResult<()> {
    let mut totals: Vec<Wanted> = Vec::new();
    for item in items {
        if item.quantity <= 0 {
            return Err(Refusal::BadQuantity.into());
        }
        let current: Option<i32> = sqlx::query_scalar(
            "SELECT quantity FROM cart_lines WHERE user_id = $1 AND product_id = $2",
        )
        .bind(user_id)
        .bind(item.product_id)
        .fetch_optional(&mut *conn)
        .await?;
        let bad = || CommerceError::from(Refusal::BadQuantity);
        match totals.iter_mut().find(|t| t.product_id == item.product_id) {
            Some(total) => {
                total.quantity = total.quantity.checked_add(item.quantity).ok_or_else(bad)?
            }
            None => totals.push(Wanted {
                product_id: item.product_id,
                quantity: i64::from(current.unwrap_or(0))
                    .checked_add(item.quantity)
                    .ok_or_else(bad)?,
            }),
        }
    }
    check_quantities(conn, station_id, user_id, &totals).await?;
    set(conn, station_id, user_id, &totals).await
}

async fn set(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    lines: &[Wanted],
) -> CommerceResult<()> {
    for line in lines {
        sqlx::query(
            "INSERT INTO cart_lines (station_id, user_id, product_id, quantity)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT (user_id, product_id)
             DO UPDATE SET quantity = EXCLUDED.quantity, updated_at = now()",
        )
        .bind(station_id)
        .bind(user_id)
        .bind(line.product_id)
        .bind(line.quantity as i32)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Sets the quantities of the given products; 0 removes a line.
pub async fn update(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    items: &[Wanted],
) -> CommerceResult<()> {
    if items.iter().any(|item| item.quantity < 0) {
        return Err(Refusal::BadQuantity.into());
    }
    let (removed, kept): (Vec<Wanted>, Vec<Wanted>) =
        items.iter().partition(|item| item.quantity == 0);
    check_quantities(conn, station_id, user_id, &kept).await?;
    for item in removed {
        remove(&mut *conn, user_id, item.product_id).await?;
    }
    set(conn, station_id, user_id, &kept).await
}

/// Removes the member's line of this product; answers whether there was one.
pub async fn remove(conn: &mut PgConnection, user_id: i64, product_id: i64) -> sqlx::Result<bool> {
    let removed = sqlx::query("DELETE FROM cart_lines WHERE user_id = $1 AND product_id = $2")
        .bind(user_id)
        .bind(product_id)
        .execute(conn)
        .await?;
    Ok(removed.rows_affected() > 0)
}
