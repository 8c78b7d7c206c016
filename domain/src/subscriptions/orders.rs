//! The order a paid period of a type 21 subscription makes: the subscribed product for that
//! period, paid by the period's charge, then confirmed like a checkout's order
//! (`order.confirm`: vouchers, the activity's cashback, the receipt e-mail and PDF).
//!
//! Such an order has no hold and does not draw the shop's stock; its card or PIX part is
//! recorded paid with the period's paid try's charge (`subscription_charges`), so that the
//! shop's bank-refund path can undo it when the bank takes that charge back
//! (docs/decisions.md, "Subscriptions: type 21 orders", "Subscriptions: a charge the bank
//! takes back").

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use crate::shared::ids::{Cents, OrderId, StationId, UserId};

/// The order of a paid period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeriodOrder {
    pub order_id: OrderId,
    pub station_id: StationId,
    pub user_id: UserId,
    /// False: the period had its order already (a repeated call).
    pub created: bool,
}

#[derive(Debug, sqlx::FromRow)]
struct PaidPeriod {
    station_id: StationId,
    user_id: UserId,
    paid: bool,
    order_id: Option<OrderId>,
    amount: Cents,
    action_id: Option<i64>,
    product_id: Option<i64>,
    quantity: i32,
    cashback_points: Option<i64>,
}

/// Makes the order of a paid type 21 period once, on the caller's transaction (the one that
/// marks the period paid). `None` for a plan's period or one not paid.
pub async fn make_for_period(
    conn: &mut PgConnection,
    period_id: i64,
    paid_at: DateTime<Utc>,
) -> sqlx::Result<Option<PeriodOrder>> {
    let period: Option<PaidPeriod> = sqlx::query_as(
        "SELECT p.station_id, p.user_id, p.status = 'paid' AS paid, p.order_id, p.amount,
                s.action_id, s.product_id, s.quantity,
                (a.points + a.additional_cashback)::bigint AS cashback_points
           FROM subscription_periods p
           JOIN subscriptions s ON s.id = p.subscription_id
           LEFT JOIN actions a ON a.id = s.action_id
          WHERE p.id = $1
            FOR UPDATE OF p",
    )
    .bind(period_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(period) = period else {
        return Ok(None);
    };
    let owner = |order_id, created| PeriodOrder {
        order_id,
        station_id: period.station_id,
        user_id: period.user_id,
        created,
    };
    if let Some(order_id) = period.order_id {
        return Ok(Some(owner(order_id, false)));
    }
    let (Some(action_id), Some(product_id), true) =
        (period.action_id, period.product_id, period.paid)
    else {
        return Ok(None);
    };
    let cashback = Cents(period.cashback_points.unwrap_or(0).max(0) * 100);
    let order_id: OrderId = sqlx::query_scalar(
        "INSERT INTO orders (station_id, user_id, subscription_period_id, code, status,
                             product_items_sum_value, delivery_tax_value,
                             additional_discount_value, total_final_value, wallet_value,
                             credit_card_value, cashback_value, created_at, paid_at)
         VALUES ($1, $2, $3, lpad(nextval('order_codes')::text, 6, '0'), 'paid',
                 $4, 0, 0, $4, 0, $4, $5, $6, $6)
         RETURNING id",
    )
    .bind(period.station_id)
    .bind(period.user_id)
    .bind(period_id)
    .bind(period.amount)
    .bind(cashback)
    .bind(paid_at)
    .fetch_one(&mut *conn)
    .await?;
    // The period's amount is the unit price times the quantity, fixed when subscribing.
    let quantity = period.quantity.max(1);
    sqlx::query(
        "INSERT INTO order_lines (order_id, product_id, action_id, quantity, unit_price,
                                  net_amount, cashback_share)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(order_id)
    .bind(product_id)
    .bind(action_id)
    .bind(quantity)
    .bind(Cents(period.amount.0 / i64::from(quantity)))
    .bind(period.amount)
    .bind(cashback)
    .execute(&mut *conn)
    .await?;
    sqlx::query("UPDATE subscription_periods SET order_id = $2 WHERE id = $1")
        .bind(period_id)
        .bind(order_id)
        .execute(&mut *conn)
        .await?;
    // The try that paid the period, as the order's payment part (none for a period paid
    // without the provider).
    sqlx::query(
        "INSERT INTO payments (station_id, order_id, method, amount, status, gateway_charge_id,
                               gateway_status, created_at, paid_at)
         SELECT $2, $3, method, amount, 'paid', gateway_charge_id, 'paid', $4, $4
           FROM subscription_charges WHERE period_id = $1 AND status = 'paid'",
    )
    .bind(period_id)
    .bind(period.station_id)
    .bind(order_id)
    .bind(paid_at)
    .execute(&mut *conn)
    .await?;
    Ok(Some(owner(order_id, true)))
}

#[cfg(test)]
mod tests {
    use sqlx::PgPool;

    use super::*;

    /// A type 21 activity's product with a monthly subscription of two units whose period 0
    /// is in `status`: (subscription id, period id).
    async fn subscribed(db: &PgPool, station_id: i64, user_id: i64, status: &str) -> (i64, i64) {
        let action_id = testkit::build::activity(station_id)
            .type_id(21)
            .name("Clube do livro")
            .points(3)
            .insert(db)
            .await;
        let product_id = testkit::build::product(station_id, action_id)
            .name("Livro do mês")
            .value(4990)
            .insert(db)
            .await;
        let subscription_id: i64 = sqlx::query_scalar(
            "INSERT INTO subscriptions (station_id, user_id, action_id, product_id, quantity,
                                        recurrence, period_months, period_days, amount, method,
                                        status, anchor_at, current_period_start,
                                        current_period_end)
             VALUES ($1, $2, $3, $4, 2, 'monthly', 1, 0, 9980, 'pix', 'active', now(), now(),
                     now() + interval '1 month')
             RETURNING id",
        )
        .bind(station_id)
        .bind(user_id)
        .bind(action_id)
        .bind(product_id)
        .fetch_one(db)
        .await
        .expect("subscription");
        let period_id: i64 = sqlx::query_scalar(
            "INSERT INTO subscription_periods (station_id, user_id, subscription_id, kind,
                                               period_index, starts_at, ends_at, amount, status,
                                               paid_at)
             VALUES ($1, $2, $3, 'first', 0, now(), now() + interval '1 month', 9980, $4,
                     CASE WHEN $4 = 'paid' THEN now() END)
             RETURNING id",
        )
        .bind(station_id)
        .bind(user_id)
        .bind(subscription_id)
        .bind(status)
        .fetch_one(db)
        .await
        .expect("period");
        (subscription_id, period_id)
    }

    #[testkit::db_test]
    async fn a_paid_period_makes_one_order_of_its_product(db: PgPool) {
        let station_id = testkit::build::station("clube").insert(&db).await;
        let user_id = testkit::build::member(station_id).insert(&db).await;
        let (_, period_id) = subscribed(&db, station_id, user_id, "paid").await;

        let mut tx = db.begin().await.expect("tx");
        let made = make_for_period(&mut tx, period_id, chrono::Utc::now())
            .await
            .expect("order")
            .expect("a type 21 period");
        tx.commit().await.expect("commit");
        assert!(made.created);
        assert_eq!((made.station_id.0, made.user_id.0), (station_id, user_id));

        let order: (String, i64, i64, i64, i32, i64) = sqlx::query_as(
            "SELECT o.status, o.total_final_value, o.cashback_value, l.unit_price, l.quantity,
                    o.credit_card_value
               FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE o.id = $1",
        )
        .bind(made.order_id)
        .fetch_one(&db)
        .await
        .expect("order row");
        assert_eq!(order, ("paid".to_owned(), 9980, 300, 4990, 2, 9980));

        // Twice: the same order, nothing more.
        let mut tx = db.begin().await.expect("tx");
        let again = make_for_period(&mut tx, period_id, chrono::Utc::now())
            .await
            .expect("order")
            .expect("the same");
        tx.commit().await.expect("commit");
        assert_eq!((again.order_id, again.created), (made.order_id, false));

        // Staff cannot refund it as a shop order: its money is the period's charge.
        let mut tx = db.begin().await.expect("tx");
        let refused = crate::commerce::refunds::request(
            &mut tx,
            Some(station_id),
            made.order_id.0,
            &crate::commerce::refunds::RefundRequest {
                lines: None,
                reason: "Pedido do cliente".into(),
            },
            crate::commerce::status::RefundOrigin::Staff,
            None,
        )
        .await;
        assert!(matches!(
            refused,
            Err(crate::commerce::refunds::RefundError::Refused(
                crate::commerce::refunds::RefundRefusal::SubscriptionOrder
            ))
        ));
        let orders: i64 = sqlx::query_scalar("SELECT count(*) FROM orders WHERE user_id = $1")
            .bind(user_id)
            .fetch_one(&db)
            .await
            .expect("count");
        assert_eq!(orders, 1);
    }

    #[testkit::db_test]
    async fn an_unpaid_period_makes_no_order(db: PgPool) {
        let station_id = testkit::build::station("clube").insert(&db).await;
        let user_id = testkit::build::member(station_id).insert(&db).await;
        let (_, period_id) = subscribed(&db, station_id, user_id, "due").await;
        let mut tx = db.begin().await.expect("tx");
        assert_eq!(
            make_for_period(&mut tx, period_id, chrono::Utc::now())
                .await
                .expect("read"),
            None
        );
        assert_eq!(
            make_for_period(&mut tx, -1, chrono::Utc::now())
                .await
                .expect("read"),
            None
        );
    }
}
