//! A payment that lands after its part ended (the PIX expired, the order was cancelled):
//! the stock, the coupon use and the wallet part are claimed again, the lines that get them
//! are completed, and what cannot be is given back through the provider, with an e-mail
//! that says why.

use super::*;
use crate::shared::ids::{StationId, UserId};

/// What a late payment did: the lines completed, and the money to give back through the
/// gateway (the caller sends it after the commit and records it with [`refund_sent`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LateSettlement {
    pub order_id: i64,
    pub order_code: String,
    pub station_id: i64,
    pub user_id: i64,
    /// The order is paid (some or all of its lines).
    pub completed: bool,
    /// The `refunds` row (origin `late_payment`) and its amount, when something goes back.
    pub refund: Option<(i64, i64)>,
    pub charge_id: String,
    pub reason: Option<String>,
}

/// A part that had ended (expired, cancelled) was paid anyway: re-claims the order's stock
/// line by line (product-id order, straight out of stock: the hold is gone), completes the
/// lines it got, and gives back what was paid for the others. The wallet part, which went
/// back to the wallet when the order expired, is spent again for the completed share; when
/// the wallet no longer has it, nothing is completed and all the late money goes back.
/// The coupon use the hold gave back is taken again under the coupon's row lock by the
/// checkout's rules (its uses, the member's); when it cannot be, nothing is completed and
/// all the late money goes back. A line the member may no longer have (the per-member
/// limit, reached by another order meanwhile) is given back like a sold-out one.
/// Runs once per part (a conditional update moves the part to paid).
pub(super) async fn late_payment(
    conn: &mut PgConnection,
    part: &ChargePart,
) -> CommerceResult<Option<LateSettlement>> {
    lock_member(conn, part.user_id).await?;
    let claimed = sqlx::query(
        "UPDATE payments SET status = 'paid', paid_at = now(), charge_source = NULL, billing_address = NULL
          WHERE id = $1 AND status IN ('expired', 'cancelled', 'failed')",
    )
    .bind(part.payment_id)
    .execute(&mut *conn)
    .await?;
    if claimed.rows_affected() == 0 {
        return Ok(None);
    }
    let charge_id = part.charge_id.clone().unwrap_or_default();
    let (total, wallet_value): (i64, i64) = sqlx::query_as(
        "SELECT total_final_value, wallet_value FROM orders WHERE id = $1 FOR UPDATE",
    )
    .bind(part.order_id)
    .fetch_one(&mut *conn)
    .await?;
    let lines: Vec<(i64, i64, i32, i64)> = sqlx::query_as(
        "SELECT id, product_id, quantity, unit_price FROM order_lines
          WHERE order_id = $1 ORDER BY product_id",
    )
    .bind(part.order_id)
    .fetch_all(&mut *conn)
    .await?;
    let lines_value: i64 = lines.iter().map(|l| l.3 * i64::from(l.2)).sum();
    // The lock order: the coupon before the products and the wallet.
    let coupon = coupons::given_back(conn, part.checkout_id).await?;
    let coupon_ok = match coupon {
        None => true,
        Some(coupon_id) => match coupons::check_use(conn, coupon_id, part.user_id).await {
            Ok(()) => true,
            Err(CommerceError::Refused(_)) => false,
            Err(other) => return Err(other),
        },
    };
    // What can be spent now: lots past their expiry do not count (the spend would fail).
    let balance = ledger::spendable(conn, UserId(part.user_id)).await?;

    // What the wallet must cover again if everything is completed; without it, nothing is.
    let wallet_ok = wallet_value == 0 || balance >= wallet_value;
    let mut got: Vec<(i64, i32)> = Vec::new();
    let mut missing: Vec<(i64, i32)> = Vec::new();
    let (mut sold_out, mut over_limit) = (false, false);
    for &(line_id, product_id, quantity, _) in &lines {
        // Under the member's lock: their other orders cannot change the count meanwhile.
        let within_limit = wallet_ok
            && coupon_ok
            && catalogue::limit_left(conn, part.user_id, product_id).await? >= i64::from(quantity);
        over_limit |= wallet_ok && coupon_ok && !within_limit;
        let taken = within_limit
            && sqlx::query(
                "UPDATE products SET stock = stock - $2, updated_at = now()
                  WHERE id = $1 AND stock - reserved >= $2",
            )
            .bind(product_id)
            .bind(quantity)
            .execute(&mut *conn)
            .await?
            .rows_affected()
                == 1;
        sold_out |= within_limit && !taken;
        if taken {
            got.push((line_id, quantity));
        } else {
            missing.push((line_id, quantity));
        }
    }
    if coupon.is_some() && !got.is_empty() {
        coupons::reclaim(conn, part.checkout_id).await?;
    }
    let got_value: i64 = lines
        .iter()
        .filter(|l| got.iter().any(|g| g.0 == l.0))
        .map(|l| l.3 * i64::from(l.2))
        .sum();
    // The completed share of the order's total, and of its wallet part.
    let share = |amount: i64| {
        if lines_value == 0 || got_value == lines_value {
            amount
        } else {
            amount * got_value / lines_value
        }
    };
    let (owed, wallet_again) = if got.is_empty() {
        (0, 0)
    } else {
        (share(total), share(wallet_value))
    };
    let from_late = (owed - wallet_again).clamp(0, part.amount);
    let refund_amount = part.amount - from_late;
    if wallet_again > 0 {
        ledger::spend(
            conn,
            &Spend {
                user_id: UserId(part.user_id),
                station_id: StationId(part.station_id),
                kind: SpendKind::Purchase,
                source_id: format!("order:{}:late", part.order_id),
                amount: wallet_again,
                description: format!("Pedido {}", part.order_code),
                action_id: None,
            },
        )
        .await?;
        sqlx::query(
            "INSERT INTO payments (station_id, order_id, method, amount, status, paid_at)
             VALUES ($1, $2, 'wallet', $3, 'paid', now())",
        )
        .bind(part.station_id)
        .bind(part.order_id)
        .bind(wallet_again)
        .execute(&mut *conn)
        .await?;
    }
    // A line not supplied is refunded whole: it earns no cashback either.
    for (line_id, quantity) in &missing {
        sqlx::query(
            "UPDATE order_lines SET refunded_quantity = $2, cashback_share = 0 WHERE id = $1",
        )
        .bind(line_id)
        .bind(quantity)
        .execute(&mut *conn)
        .await?;
    }
    let status = if missing.is_empty() {
        OrderStatus::Paid
    } else if got.is_empty() {
        OrderStatus::Refunded
    } else {
        OrderStatus::PartiallyRefunded
    };
    let percentage = if missing.is_empty() || total == 0 {
        Decimal::ZERO
    } else if got.is_empty() {
        Decimal::ONE_HUNDRED
    } else {
        (Decimal::from(total - owed) * Decimal::ONE_HUNDRED / Decimal::from(total)).round_dp(2)
    };
    sqlx::query(
        "UPDATE orders SET status = $2, refunded_percentage = $3, refunded_value = $5,
                paid_at = CASE WHEN $4 THEN now() ELSE paid_at END, closed_at = now()
          WHERE id = $1",
    )
    .bind(part.order_id)
    .bind(status)
    .bind(percentage)
    .bind(!got.is_empty())
    .bind(if missing.is_empty() { 0 } else { total - owed })
    .execute(&mut *conn)
    .await?;
    let reason = (refund_amount > 0).then(|| {
        if !wallet_ok {
            LATE_BALANCE_REASON
        } else if !coupon_ok {
            LATE_COUPON_REASON
        } else if over_limit && sold_out {
            LATE_STOCK_AND_LIMIT_REASON
        } else if over_limit {
            LATE_LIMIT_REASON
        } else {
            LATE_REFUND_REASON
        }
        .to_string()
    });
    let refund = match &reason {
        Some(reason) => {
            let refund_id: i64 = sqlx::query_scalar(
                "INSERT INTO refunds (station_id, order_id, amount, reason, origin,
                                      gateway_cents, payment_id)
                 VALUES ($1, $2, $3, $4, 'late_payment', $3, $5) RETURNING id",
            )
            .bind(part.station_id)
            .bind(part.order_id)
            .bind(refund_amount)
            .bind(reason)
            .bind(part.payment_id)
            .fetch_one(&mut *conn)
            .await?;
            for (line_id, quantity) in &missing {
                sqlx::query(
                    "INSERT INTO refund_lines (refund_id, order_line_id, quantity) VALUES ($1, $2, $3)",
                )
                .bind(refund_id)
                .bind(line_id)
                .bind(quantity)
                .execute(&mut *conn)
                .await?;
            }
            Some((refund_id, refund_amount))
        }
        None => None,
    };
    Ok(Some(LateSettlement {
        order_id: part.order_id,
        order_code: part.order_code.clone(),
        station_id: part.station_id,
        user_id: part.user_id,
        completed: !got.is_empty(),
        refund,
        charge_id,
        reason,
    }))
}

/// Late-payment refunds not yet sent to the provider (a crash after the commit): the
/// `payment.sync` of the charge sends them.
pub async fn unsent_late_refunds(
    conn: &mut PgConnection,
    order_id: i64,
) -> sqlx::Result<Vec<(i64, i64)>> {
    sqlx::query_as(
        "SELECT id, amount FROM refunds
          WHERE order_id = $1 AND origin = 'late_payment' AND status = 'pending' ORDER BY id",
    )
    .bind(order_id)
    .fetch_all(conn)
    .await
}

/// Records the provider's answer to a late-payment refund.
pub async fn refund_sent(conn: &mut PgConnection, refund_id: i64, done: bool) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE refunds SET status = CASE WHEN $2 THEN 'done' ELSE 'failed' END,
                done_at = CASE WHEN $2 THEN now() END
          WHERE id = $1 AND status = 'pending'",
    )
    .bind(refund_id)
    .bind(done)
    .execute(conn)
    .await?;
    Ok(())
}

/// The member's e-mail address and the station's, for the late-payment notice.
pub async fn member_email(conn: &mut PgConnection, user_id: i64) -> sqlx::Result<Option<String>> {
    let email: Option<String> = sqlx::query_scalar("SELECT email FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(conn)
        .await?;
    Ok(email)
}

/// The e-mail telling the member what happened to a payment made after its expiry: what was
/// completed and what goes back, with the reason. `None` when the member has no e-mail.
pub async fn late_payment_mail(
    conn: &mut PgConnection,
    late: &LateSettlement,
    public_url: &str,
) -> sqlx::Result<Option<OutgoingMail>> {
    let Some(email) = member_email(conn, late.user_id).await? else {
        return Ok(None);
    };
    let Some(station) = crate::stations::station::find(&mut *conn, late.station_id).await? else {
        return Ok(None);
    };
    let mut paragraphs = vec![format!(
        "Recebemos o pagamento do pedido {} depois do prazo para pagamento.",
        late.order_code
    )];
    paragraphs.push(match (late.completed, late.refund) {
        (true, None) => "Os produtos ainda estavam disponíveis: seu pedido foi confirmado.".into(),
        (true, Some((_, amount))) => format!(
            "Confirmamos os produtos que ainda estavam disponíveis. {} será devolvido pelo mesmo meio de pagamento.",
            format_brl(amount)
        ),
        (false, Some((_, amount))) => format!(
            "Não foi possível confirmar o pedido. {} será devolvido pelo mesmo meio de pagamento.",
            format_brl(amount)
        ),
        (false, None) => "Não foi possível confirmar o pedido.".into(),
    });
    if let Some(reason) = &late.reason {
        paragraphs.push(format!("Motivo: {reason}"));
    }
    let notice = Notice {
        heading: "Pagamento recebido após o prazo".into(),
        paragraphs,
        button: Some(Button {
            label: "Ver pedido".into(),
            url: format!(
                "{}/homepage/pedidos/{}",
                station.url.trim_end_matches('/'),
                late.order_id
            ),
        }),
    };
    Ok(Some(OutgoingMail::notice(
        &Branding::of(&station, public_url),
        email,
        format!(
            "Pedido {}: pagamento recebido após o prazo",
            late.order_code
        ),
        &notice,
    )))
}
