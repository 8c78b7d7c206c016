//! The products of an activity, as the shop and the cart show them, and the stock a
//! member can still buy: `stock - reserved`, plus the units of holds that expired and wait
//! for their release (an expired hold stops counting the moment it expires).

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

use super::{CommerceResult, Refusal};
use crate::activities::catalogue::Availability;
use crate::activities::participation::Refused;
use crate::infra::objects::Objects;
use crate::shared::ids::Cents;
use crate::shared::time::station_zone;

/// Units of a product available now, as SQL over the products row `p`.
pub(crate) const AVAILABLE: &str = "(p.stock - p.reserved + coalesce((
      SELECT sum(l.quantity) FROM checkout_lines l JOIN checkouts c ON c.id = l.checkout_id
       WHERE l.product_id = p.id AND c.status = 'held' AND c.expires_at <= now()), 0))::bigint";

/// Units of the product in the member's orders that still count (waiting for payment,
/// paid, partially refunded), as SQL over the products row `p` and the member `$1`.
pub(crate) const ORDERED_BY_MEMBER: &str =
    "(SELECT coalesce(sum(ol.quantity - ol.refunded_quantity), 0)
       FROM order_lines ol JOIN orders o ON o.id = ol.order_id
      WHERE ol.product_id = p.id AND o.user_id = $1
        AND o.status IN ('pending', 'paid', 'partially_refunded'))::bigint";

/// A delivery or pickup place of an activity.
/// Read from the JSON the products' query builds per activity.
#[derive(Debug, Clone, serde::Deserialize, sqlx::FromRow)]
pub struct DeliveryLocation {
    pub id: i64,
    pub name: String,
    pub price: Cents,
    /// True: home delivery (address and CEP asked); false: pickup here.
    pub delivery: bool,
    pub helper_label_field_1: Option<String>,
    pub helper_label_field_2: Option<String>,
    pub street: Option<String>,
    pub street_number: Option<String>,
    pub zipcode: Option<String>,
}

/// The commerce side of an activity (spec 002 section 3, "Action (commerce)").
#[derive(Debug, Clone)]
pub struct ShopAction {
    pub id: i64,
    pub name: String,
    pub type_id: i16,
    pub digital_product: bool,
    /// `default` or `payment_only` (the wallet is not used).
    pub payment_option: String,
    pub allow_installments: bool,
    pub sell_vouchers: bool,
    pub only_one_product: bool,
    /// Taken off the activity's items (floored at 0).
    pub discount_delivery: Cents,
    pub familiar_voucher: bool,
    /// Whole points of cashback.
    pub points: i32,
    pub additional_cashback: i32,
    pub delivery_locations: Vec<DeliveryLocation>,
}

/// A product as the shop and the cart show it.
#[derive(Debug, Clone)]
pub struct Product {
    pub id: i64,
    pub action_id: i64,
    pub name: String,
    pub description: String,
    /// The image's URL, if it has one.
    pub image: Option<String>,
    pub value: Cents,
    pub discount_value: Cents,
    /// Units available now.
    pub stock: i64,
    /// The per-member limit (default 10).
    pub limit_per_user: i32,
    /// Units of it in the caller's orders that still count.
    pub user_single_product_orders: i64,
    /// What the caller may have of it now: the lower of the limit less their orders and
    /// the stock.
    pub limit: i64,
    pub action: ShopAction,
}

#[derive(Debug, sqlx::FromRow)]
struct ProductRow {
    id: i64,
    action_id: i64,
    name: String,
    description: String,
    image_key: Option<String>,
    value: Cents,
    discount_value: Cents,
    available: i64,
    limit_per_user: i32,
    ordered: i64,
    action_name: String,
    type_id: i16,
    digital_product: bool,
    payment_option: String,
    allow_installments: bool,
    sell_vouchers: bool,
    only_one_product: bool,
    discount_delivery: Cents,
    familiar_voucher: bool,
    points: i32,
    additional_cashback: i32,
}

fn product_select(filter: &str) -> String {
    format!(
        "SELECT p.id, p.action_id, p.name, p.description, p.image_key, p.value, p.discount_value,
                {AVAILABLE} AS available, p.limit_per_user, {ORDERED_BY_MEMBER} AS ordered,
                a.name AS action_name, a.type_id, a.digital_product, a.payment_option,
                a.allow_installments, a.sell_vouchers, a.only_one_product, a.discount_delivery,
                a.familiar_voucher, a.points, a.additional_cashback
           FROM products p JOIN actions a ON a.id = p.action_id
          WHERE p.station_id = $2 AND p.active AND a.active AND {filter}
          ORDER BY p.id"
    )
}

/// The lower of the member's limit left and the stock, never below 0.
pub fn allowed(limit_per_user: i64, ordered: i64, available: i64) -> i64 {
    (limit_per_user - ordered).min(available).max(0)
}

async fn with_actions(
    conn: &mut PgConnection,
    rows: Vec<ProductRow>,
) -> sqlx::Result<Vec<Product>> {
    let mut action_ids: Vec<i64> = rows.iter().map(|row| row.action_id).collect();
    action_ids.sort_unstable();
    action_ids.dedup();
    let locations: Vec<(i64, sqlx::types::Json<DeliveryLocation>)> = sqlx::query_as(
        "SELECT action_id, json_build_object(
                    'id', id, 'name', name, 'price', price, 'delivery', delivery,
                    'helper_label_field_1', helper_label_field_1,
                    'helper_label_field_2', helper_label_field_2, 'street', street,
                    'street_number', street_number, 'zipcode', zipcode)
           FROM delivery_locations WHERE action_id = ANY($1) ORDER BY id",
    )
    .bind(&action_ids)
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| Product {
            id: row.id,
            action_id: row.action_id,
            name: row.name,
            description: row.description,
            image: row.image_key.as_deref().map(Objects::url),
            value: row.value,
            discount_value: row.discount_value,
            stock: row.available.max(0),
            limit_per_user: row.limit_per_user,
            user_single_product_orders: row.ordered,
            limit: allowed(row.limit_per_user.into(), row.ordered, row.available),
            action: ShopAction {
                id: row.action_id,
                name: row.action_name,
                type_id: row.type_id,
                digital_product: row.digital_product,
                payment_option: row.payment_option,
                allow_installments: row.allow_installments,
                sell_vouchers: row.sell_vouchers,
                only_one_product: row.only_one_product,
                discount_delivery: row.discount_delivery,
                familiar_voucher: row.familiar_voucher,
                points: row.points,
                additional_cashback: row.additional_cashback,
                delivery_locations: locations
                    .iter()
                    .filter(|(action_id, _)| *action_id == row.action_id)
                    .map(|(_, location)| location.0.clone())
                    .collect(),
            },
        })
        .collect())
}

/// The products of the given ids in the member's station, active, in id order; ids of
/// another station or unknown are left out.
pub async fn products(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    ids: &[i64],
) -> sqlx::Result<Vec<Product>> {
    let rows: Vec<ProductRow> =
        sqlx::query_as(sqlx::AssertSqlSafe(product_select("p.id = ANY($3)")))
            .bind(user_id)
            .bind(station_id)
            .bind(ids)
            .fetch_all(&mut *conn)
            .await?;
    with_actions(conn, rows).await
}

/// One product of the member's station, if it is there and on sale.
pub async fn product(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    product_id: i64,
) -> sqlx::Result<Option<Product>> {
    Ok(products(conn, station_id, user_id, &[product_id])
        .await?
        .into_iter()
        .next())
}

/// The products on sale of one activity of the member's station.
pub async fn products_of_action(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    action_id: i64,
) -> sqlx::Result<Vec<Product>> {
    let rows: Vec<ProductRow> =
        sqlx::query_as(sqlx::AssertSqlSafe(product_select("p.action_id = $3")))
            .bind(user_id)
            .bind(station_id)
            .bind(action_id)
            .fetch_all(&mut *conn)
            .await?;
    with_actions(conn, rows).await
}

/// The activity types sold in the shop: 3 paid coupon or voucher, 4 presential course,
/// 14 delivery order, 17 voucher type.
pub const SHOP_TYPES: [i16; 4] = [3, 4, 14, 17];

/// Refuses when the station's checkout is off (`checkout_access`).
pub(crate) async fn check_checkout_open(
    conn: &mut PgConnection,
    station_id: i64,
) -> CommerceResult<()> {
    let open: Option<bool> =
        sqlx::query_scalar("SELECT checkout_access FROM stations WHERE id = $1")
            .bind(station_id)
            .fetch_optional(conn)
            .await?;
    if open == Some(true) {
        Ok(())
    } else {
        Err(Refusal::CheckoutClosed.into())
    }
}

/// Refuses unless the station's checkout is on and each activity is open for sale now: a
/// shop type ([`SHOP_TYPES`]) and, when it has a participation window, inside it (the
/// activities' availability rule; an activity without dates sells at any time).
pub(crate) async fn check_on_sale(
    conn: &mut PgConnection,
    station_id: i64,
    action_ids: &[i64],
) -> CommerceResult<()> {
    check_checkout_open(conn, station_id).await?;
    type Window = (i16, Option<DateTime<Utc>>, Option<DateTime<Utc>>);
    let actions: Vec<Window> = sqlx::query_as(
        "SELECT type_id, participation_start, participation_end FROM actions
          WHERE id = ANY($1) AND station_id = $2",
    )
    .bind(action_ids)
    .bind(station_id)
    .fetch_all(&mut *conn)
    .await?;
    let now = Utc::now();
    for (type_id, start, end) in actions {
        if !SHOP_TYPES.contains(&type_id) {
            return Err(Refusal::NotForSale(Refused::Unavailable).into());
        }
        if start.is_none() && end.is_none() {
            continue;
        }
        match (Availability::at(now, start, end, None, 0), start, end) {
            (Availability::Open, _, _) => {}
            (Availability::NotStarted | Availability::Ended, Some(start), Some(end)) => {
                let zone = station_zone(&mut *conn, station_id).await?;
                let window = Refused::OutsideWindow { start, end, zone };
                return Err(Refusal::NotForSale(window).into());
            }
            _ => return Err(Refusal::NotForSale(Refused::DateMissing).into()),
        }
    }
    Ok(())
}

/// Units available now of one product (0 for an unknown one).
pub async fn available(db: impl PgExecutor<'_>, product_id: i64) -> sqlx::Result<i64> {
    Ok(sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT {AVAILABLE} FROM products p WHERE p.id = $1"
    )))
    .bind(product_id)
    .fetch_optional(db)
    .await?
    .unwrap_or(0))
}

/// Units of one product the member may still order: the per-member limit less the units of
/// their orders that count (`ORDERED_BY_MEMBER`) and of their live hold without an order
/// (checked against the limit when confirmed; placing its order does not check again).
/// Read under the member's lock.
pub(crate) async fn limit_left(
    conn: &mut PgConnection,
    user_id: i64,
    product_id: i64,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT p.limit_per_user - {ORDERED_BY_MEMBER}
                - (SELECT coalesce(sum(l.quantity), 0)
                     FROM checkout_lines l JOIN checkouts c ON c.id = l.checkout_id
                    WHERE l.product_id = p.id AND c.user_id = $1 AND c.status = 'held'
                      AND c.expires_at > now()
                      AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.checkout_id = c.id))::bigint
           FROM products p WHERE p.id = $2"
    )))
    .bind(user_id)
    .bind(product_id)
    .fetch_one(conn)
    .await
}

#[cfg(test)]
mod tests {
    use super::allowed;

    #[test]
    fn the_lower_of_the_limit_left_and_the_stock() {
        assert_eq!(allowed(10, 0, 50), 10);
        assert_eq!(allowed(10, 7, 50), 3);
        assert_eq!(allowed(10, 2, 4), 4);
        assert_eq!(allowed(10, 12, 4), 0);
        assert_eq!(allowed(10, 0, -1), 0);
    }
}
