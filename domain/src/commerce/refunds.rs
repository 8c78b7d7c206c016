//! Refunds of paid orders, whole or by line (docs/api-commerce.md, "Refunds"). Support
//! staff ask for one from the console ([`request`]); the `order.refund` job returns the
//! card or PIX part through the gateway, then [`apply`] undoes, per refunded line, the
//! cashback that line earned, its stock and its unused vouchers, releases the coupon use
//! when nothing is left, credits the wallet part back and sets the order's status. A refund
//! the bank started (MED) goes through [`apply_bank_refund`], the same way.
//!
//! Order of the parts: the card or PIX part is refunded first, the wallet part last (money
//! goes back where real money came from before any goes to the wallet).

use sqlx::PgConnection;

use super::fulfilment;
use super::status::{OrderStatus, RefundOrigin, RefundState};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{StationId, UserId};
use crate::wallet::ledger::{self, Credit, LedgerError, SourceKind};
use crate::wallet::rules;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefundRefusal {
    OrderNotFound,
    NotRefundable,
    BadLine,
    NothingLeft,
    /// More units than the line has unused vouchers: a used voucher's unit is not refunded.
    VouchersUsed,
    /// A type 21 period's order: its money is the subscription's charge, not a payment part
    /// of the order.
    SubscriptionOrder,
}

impl RefundRefusal {
    pub fn message(self) -> &'static str {
        match self {
            Self::OrderNotFound => super::ORDER_NOT_FOUND,
            Self::NotRefundable => "Só pedidos pagos podem ser estornados.",
            Self::BadLine => "Item do pedido inválido ou quantidade maior que a restante.",
            Self::NothingLeft => "Não há mais nada a estornar neste pedido.",
            Self::VouchersUsed => {
                "Só unidades com voucher ainda não utilizado podem ser estornadas."
            }
            Self::SubscriptionOrder => {
                "Pedidos de assinatura não são estornados por aqui: cancele a assinatura."
            }
        }
    }
}

/// An order not in the station is 404; anything else staff can fix is 422.
impl IntoFailure for RefundRefusal {
    fn into_failure(self) -> Failure {
        match self {
            Self::OrderNotFound => Failure::NotFound(self.message().into()),
            _ => Failure::invalid(self.message()),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RefundError {
    #[error("refused: {0:?}")]
    Refused(RefundRefusal),
    #[error(transparent)]
    Ledger(LedgerError),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl From<LedgerError> for RefundError {
    fn from(err: LedgerError) -> Self {
        match err {
            LedgerError::Db(db) => Self::Db(db),
            other => Self::Ledger(other),
        }
    }
}

impl IntoFailure for RefundError {
    fn into_failure(self) -> Failure {
        match self {
            Self::Refused(refusal) => refusal.into_failure(),
            Self::Ledger(err) => err.into_failure(),
            Self::Db(err) => err.into_failure(),
        }
    }
}

impl From<RefundRefusal> for RefundError {
    fn from(refusal: RefundRefusal) -> Self {
        Self::Refused(refusal)
    }
}

/// What to refund: some units of some lines, or (`None`) everything still paid for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RefundRequest {
    pub lines: Option<Vec<(i64, i32)>>,
    pub reason: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Requested {
    pub refund_id: i64,
    pub order_id: i64,
    pub station_id: i64,
    pub user_id: i64,
    pub amount: i64,
    pub gateway_cents: i64,
    pub wallet_cents: i64,
}

#[derive(Debug, sqlx::FromRow)]
struct OrderRow {
    station_id: i64,
    user_id: i64,
    status: OrderStatus,
    total_final_value: i64,
    of_subscription: bool,
}

#[derive(Debug, sqlx::FromRow)]
struct LineLeft {
    id: i64,
    /// What one unit brought in: the line's net amount (its price less its share of the
    /// coupon and the delivery discount, fixed at order time) over its units, in whole
    /// centavos (the order's last units give back the rest).
    unit_price: i64,
    left: i32,
    /// Of `left`, units whose voucher was used.
    used: i32,
}

impl LineLeft {
    /// Units a refund may take: those left, less the used vouchers' unless `with_used`.
    fn refundable(&self, with_used: bool) -> i32 {
        if with_used {
            self.left
        } else {
            (self.left - self.used).max(0)
        }
    }
}

/// Units of each line neither refunded nor in a refund under way, and how many of them
/// had their voucher used. A late payment's refund wrote its units into
/// `refunded_quantity` when it was recorded: while it is sent it is not counted twice.
async fn lines_left(conn: &mut PgConnection, order_id: i64) -> sqlx::Result<Vec<LineLeft>> {
    sqlx::query_as(
        "SELECT l.id, (l.net_amount / l.quantity)::bigint AS unit_price,
                (l.quantity - l.refunded_quantity - coalesce((
                    SELECT sum(rl.quantity) FROM refund_lines rl JOIN refunds r ON r.id = rl.refund_id
                     WHERE rl.order_line_id = l.id AND r.status = 'pending'
                       AND r.origin <> 'late_payment'), 0))::int AS left,
                (SELECT count(*) FROM vouchers v
                  WHERE v.order_line_id = l.id AND v.validated <> '0')::int AS used
           FROM order_lines l WHERE l.order_id = $1 ORDER BY l.id",
    )
    .bind(order_id)
    .fetch_all(&mut *conn)
    .await
}

/// Units of a line that may still be used (a voucher validated) or handed over: bought,
/// less those refunded or in a refund under way, less the vouchers already used. The
/// caller holds the order's row (`FOR UPDATE`), as [`request`] does, so that a refund and
/// a use of the same line queue there.
pub async fn units_open(conn: &mut PgConnection, line_id: i64) -> sqlx::Result<i32> {
    sqlx::query_scalar(
        "SELECT (l.quantity - l.refunded_quantity - coalesce((
                    SELECT sum(rl.quantity) FROM refund_lines rl JOIN refunds r ON r.id = rl.refund_id
                     WHERE rl.order_line_id = l.id AND r.status = 'pending'
                       AND r.origin <> 'late_payment'), 0)
                 - (SELECT count(*) FROM vouchers v
                     WHERE v.order_line_id = l.id AND v.validated <> '0'))::int
           FROM order_lines l WHERE l.id = $1",
    )
    .bind(line_id)
    .fetch_one(&mut *conn)
    .await
}

/// Whether a refund of the line is under way (asked, not yet done or failed); a late
/// payment's, counted as refunded already, is not.
pub async fn refund_under_way(conn: &mut PgConnection, line_id: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (
             SELECT 1 FROM refund_lines rl JOIN refunds r ON r.id = rl.refund_id
              WHERE rl.order_line_id = $1 AND r.status = 'pending'
                AND r.origin <> 'late_payment')",
    )
    .bind(line_id)
    .fetch_one(&mut *conn)
    .await
}

/// Voids `quantity` unused vouchers of a refunded line, whatever their unit number (a
/// used voucher of a higher unit must not leave a refunded unit's voucher valid).
async fn void_vouchers(conn: &mut PgConnection, line_id: i64, quantity: i32) -> sqlx::Result<()> {
    sqlx::query(
        "DELETE FROM vouchers WHERE id IN (
             SELECT id FROM vouchers WHERE order_line_id = $1 AND validated = '0'
              ORDER BY unit DESC LIMIT $2)",
    )
    .bind(line_id)
    .bind(i64::from(quantity))
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Records a refund to make (status `pending`), on the caller's transaction; the caller
/// enqueues `order.refund` for it. `station` limits it to one station (a staff scope).
pub async fn request(
    conn: &mut PgConnection,
    station: Option<i64>,
    order_id: i64,
    wanted: &RefundRequest,
    origin: RefundOrigin,
    requested_by: Option<i64>,
) -> Result<Requested, RefundError> {
    let order: Option<OrderRow> = sqlx::query_as(
        "SELECT station_id, user_id, status, total_final_value,
                subscription_period_id IS NOT NULL AS of_subscription
           FROM orders
          WHERE id = $1 AND ($2::bigint IS NULL OR station_id = $2) FOR UPDATE",
    )
    .bind(order_id)
    .bind(station)
    .fetch_optional(&mut *conn)
    .await?;
    let order = order.ok_or(RefundRefusal::OrderNotFound)?;
    // Staff refund a subscription at the provider or cancel it; only the bank's taking back
    // of the period's charge undoes its order here.
    if order.of_subscription && origin != RefundOrigin::Bank {
        return Err(RefundRefusal::SubscriptionOrder.into());
    }
    if !order.status.is_paid() {
        return Err(RefundRefusal::NotRefundable.into());
    }
    let left = lines_left(conn, order_id).await?;
    // A used voucher's unit is refunded only when the bank took the whole charge back
    // (docs/decisions.md, "Vouchers after refunds and handovers").
    let with_used = origin == RefundOrigin::Bank && wanted.lines.is_none();
    let chosen: Vec<(i64, i32, i64)> = match &wanted.lines {
        None => left
            .iter()
            .filter(|l| l.refundable(with_used) > 0)
            .map(|l| (l.id, l.refundable(with_used), l.unit_price))
            .collect(),
        Some(lines) => {
            let mut chosen: Vec<(i64, i32, i64)> = Vec::new();
            for &(line_id, quantity) in lines {
                let line = left
                    .iter()
                    .find(|l| l.id == line_id)
                    .ok_or(RefundRefusal::BadLine)?;
                let already: i32 = chosen.iter().filter(|c| c.0 == line_id).map(|c| c.1).sum();
                if quantity <= 0 || quantity + already > line.left {
                    return Err(RefundRefusal::BadLine.into());
                }
                if quantity + already > line.refundable(with_used) {
                    return Err(RefundRefusal::VouchersUsed.into());
                }
                chosen.push((line_id, quantity, line.unit_price));
            }
            chosen
        }
    };
    if chosen.is_empty() {
        return Err(if left.iter().any(|l| l.left > 0) {
            RefundRefusal::VouchersUsed
        } else {
            RefundRefusal::NothingLeft
        }
        .into());
    }
    let units_left: i32 = left.iter().map(|l| l.left).sum();
    let units_chosen: i32 = chosen.iter().map(|c| c.1).sum();
    let (refunded, gateway_paid, gateway_refunded): (i64, i64, i64) = sqlx::query_as(
        "SELECT coalesce((SELECT sum(amount) FROM refunds
                           WHERE order_id = $1 AND status IN ('pending', 'done')), 0)::bigint,
                coalesce((SELECT sum(amount) FROM payments
                           WHERE order_id = $1 AND method <> 'wallet'
                             AND status IN ('paid', 'refunded')), 0)::bigint,
                coalesce((SELECT sum(gateway_cents) FROM refunds
                           WHERE order_id = $1 AND status IN ('pending', 'done')), 0)::bigint",
    )
    .bind(order_id)
    .fetch_one(&mut *conn)
    .await?;
    let money_left = order.total_final_value - refunded;
    // The last units take whatever is left (delivery, net of discounts); other lines give
    // back their price, never more than is left.
    let amount = if units_chosen == units_left {
        money_left
    } else {
        chosen
            .iter()
            .map(|c| c.2 * i64::from(c.1))
            .sum::<i64>()
            .min(money_left)
    };
    if amount <= 0 {
        return Err(RefundRefusal::NothingLeft.into());
    }
    let gateway_cents = amount.min((gateway_paid - gateway_refunded).max(0));
    // A chargeback that takes units whose voucher was used: the bank took its part back,
    // and the wallet's part of those units stays spent (docs/decisions.md, "Vouchers after
    // refunds and handovers"), or the member would keep the goods and every centavo.
    let used_value: i64 = if with_used {
        left.iter()
            .map(|l| l.unit_price * i64::from(l.used.min(l.left)))
            .sum()
    } else {
        0
    };
    let wallet_cents = (amount - gateway_cents - used_value).max(0);
    let amount = gateway_cents + wallet_cents;
    let payment_id: Option<i64> = sqlx::query_scalar(
        "SELECT id FROM payments WHERE order_id = $1 AND method <> 'wallet'
            AND status IN ('paid', 'refunded') ORDER BY id DESC LIMIT 1",
    )
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?;
    let reason = if wanted.reason.trim().is_empty() {
        "Estorno".to_string()
    } else {
        wanted.reason.trim().to_string()
    };
    let refund_id: i64 = sqlx::query_scalar(
        "INSERT INTO refunds (station_id, order_id, amount, reason, origin, requested_by,
                              gateway_cents, wallet_cents, payment_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
    )
    .bind(order.station_id)
    .bind(order_id)
    .bind(amount)
    .bind(reason)
    .bind(origin)
    .bind(requested_by)
    .bind(gateway_cents)
    .bind(wallet_cents)
    .bind(payment_id.filter(|_| gateway_cents > 0))
    .fetch_one(&mut *conn)
    .await?;
    let mut merged: Vec<(i64, i32)> = Vec::new();
    for (line_id, quantity, _) in chosen {
        match merged.iter_mut().find(|m| m.0 == line_id) {
            Some(m) => m.1 += quantity,
            None => merged.push((line_id, quantity)),
        }
    }
    for (line_id, quantity) in merged {
        sqlx::query(
            "INSERT INTO refund_lines (refund_id, order_line_id, quantity) VALUES ($1, $2, $3)",
        )
        .bind(refund_id)
        .bind(line_id)
        .bind(quantity)
        .execute(&mut *conn)
        .await?;
    }
    Ok(Requested {
        refund_id,
        order_id,
        station_id: order.station_id,
        user_id: order.user_id,
        amount,
        gateway_cents,
        wallet_cents,
    })
}

/// What the gateway must do for a refund before it is applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayPart {
    pub refund_id: i64,
    /// Still to apply (`pending`).
    pub pending: bool,
    pub gateway_cents: i64,
    pub charge_id: Option<String>,
}

pub async fn gateway_part(
    conn: &mut PgConnection,
    refund_id: i64,
) -> sqlx::Result<Option<GatewayPart>> {
    let row: Option<(RefundState, i64, Option<String>)> = sqlx::query_as(
        "SELECT r.status, r.gateway_cents, p.gateway_charge_id
           FROM refunds r LEFT JOIN payments p ON p.id = r.payment_id WHERE r.id = $1",
    )
    .bind(refund_id)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row.map(|(status, gateway_cents, charge_id)| GatewayPart {
        refund_id,
        pending: status == RefundState::Pending,
        gateway_cents,
        charge_id,
    }))
}

/// Marks a refund the gateway refused for good; its units may be refunded again.
pub async fn fail(conn: &mut PgConnection, refund_id: i64) -> sqlx::Result<bool> {
    Ok(sqlx::query(
        "UPDATE refunds SET status = 'failed', done_at = now() WHERE id = $1 AND status = 'pending'",
    )
    .bind(refund_id)
    .execute(&mut *conn)
    .await?
    .rows_affected()
        == 1)
}

/// What [`apply`] did; the caller enqueues `credits` (the wallet part given back) through
/// `points.credit` on the same transaction. The cashback the units still kept earn is
/// written by `apply` itself.
#[derive(Debug, Clone)]
pub struct Applied {
    pub refund_id: i64,
    pub order_id: i64,
    /// The order's status after it.
    pub status: OrderStatus,
    pub reversed_lots: Vec<i64>,
    pub credits: Vec<Credit>,
}

/// Applies a pending refund once, on the caller's transaction (the gateway part is done).
/// `None` when it was applied (or failed) before: a re-run changes nothing.
pub async fn apply(
    conn: &mut PgConnection,
    refund_id: i64,
    gateway_refund_id: Option<&str>,
) -> Result<Option<Applied>, RefundError> {
    let claimed: Option<(i64, i64, i64, Option<i64>)> = sqlx::query_as(
        "UPDATE refunds SET status = 'done', done_at = now(),
                gateway_refund_id = coalesce($2, gateway_refund_id)
          WHERE id = $1 AND status = 'pending'
          RETURNING order_id, amount, wallet_cents, payment_id",
    )
    .bind(refund_id)
    .bind(gateway_refund_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((order_id, amount, wallet_cents, payment_id)) = claimed else {
        return Ok(None);
    };
    // A type 21 period's order has no checkout (no hold, no coupon) and drew no stock.
    let (station_id, user_id, code, checkout_id): (i64, i64, String, Option<i64>) = sqlx::query_as(
        "SELECT station_id, user_id, code, checkout_id FROM orders WHERE id = $1 FOR UPDATE",
    )
    .bind(order_id)
    .fetch_one(&mut *conn)
    .await?;
    // The whole order coming back gives its coupon use back. Taken now, before any product
    // or wallet: checkout and a late payment lock the coupon first too (no cycle).
    let whole_order_back: bool = sqlx::query_scalar(
        "SELECT (SELECT coalesce(sum(quantity - refunded_quantity), 0) FROM order_lines
                  WHERE order_id = $1)
              = (SELECT coalesce(sum(quantity), 0) FROM refund_lines WHERE refund_id = $2)",
    )
    .bind(order_id)
    .bind(refund_id)
    .fetch_one(&mut *conn)
    .await?;
    if whole_order_back && let Some(checkout_id) = checkout_id {
        super::coupons::release(conn, checkout_id).await?;
    }
    let expected = fulfilment::line_credits(conn, order_id).await?;
    let refund_lines: Vec<(i64, i32)> = sqlx::query_as(
        "SELECT order_line_id, quantity FROM refund_lines WHERE refund_id = $1 ORDER BY order_line_id",
    )
    .bind(refund_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut reversed_lots = Vec::new();
    let mut credits = Vec::new();
    for (line_id, quantity) in refund_lines {
        let (product_id, total, refunded): (i64, i32, i32) = sqlx::query_as(
            "UPDATE order_lines SET refunded_quantity = refunded_quantity + $2 WHERE id = $1
             RETURNING product_id, quantity, refunded_quantity",
        )
        .bind(line_id)
        .bind(quantity)
        .fetch_one(&mut *conn)
        .await?;
        // Units are taken unused first; those past them had their voucher used, so their
        // goods left with the member and do not come back to stock.
        let used: i32 = sqlx::query_scalar(
            "SELECT count(*)::int FROM vouchers WHERE order_line_id = $1 AND validated <> '0'",
        )
        .bind(line_id)
        .fetch_one(&mut *conn)
        .await?;
        let unused_before = (total - (refunded - quantity) - used).max(0);
        let restocked = if checkout_id.is_some() {
            quantity.min(unused_before)
        } else {
            0
        };
        sqlx::query("UPDATE products SET stock = stock + $2, updated_at = now() WHERE id = $1")
            .bind(product_id)
            .bind(restocked)
            .execute(&mut *conn)
            .await?;
        let kept = total - refunded;
        void_vouchers(conn, line_id, quantity).await?;
        // The line's cashback: written now if its job has not run yet (same key, so that
        // job then finds it), so that it can be reversed whole; the units kept earn their
        // share again under a key of this refund.
        if let Some(credit) = expected
            .iter()
            .find(|c| c.source_id == fulfilment::line_source(line_id))
        {
            ledger::credit(conn, credit, None).await?;
        }
        let lots: Vec<(i64, i64, String)> = sqlx::query_as(
            "SELECT id, amount, rule FROM credit_lots
              WHERE source_kind = 'purchase'
                AND (state IN ('pending', 'available') OR (state = 'expired' AND spent > 0))
                AND (source_id = $1 OR source_id LIKE $1 || ':%')
              ORDER BY id",
        )
        .bind(fulfilment::line_source(line_id))
        .fetch_all(&mut *conn)
        .await?;
        for (lot_id, lot_amount, rule) in lots {
            ledger::reverse(conn, lot_id).await?;
            reversed_lots.push(lot_id);
            let before = kept + quantity;
            let share = lot_amount * i64::from(kept) / i64::from(before.max(1));
            if share > 0 {
                let kept_credit = Credit {
                    user_id: UserId(user_id),
                    station_id: StationId(station_id),
                    source_kind: SourceKind::Purchase,
                    source_id: format!("{}:kept:{refund_id}", fulfilment::line_source(line_id)),
                    rule,
                    amount: share,
                    description: format!("Cashback do pedido {code}"),
                    action_id: None,
                };
                // Written here, not left to a job: a refund of the kept units applied
                // before that job ran would not find this lot to reverse it.
                ledger::credit(conn, &kept_credit, None).await?;
            }
        }
    }
    if wallet_cents > 0 {
        credits.push(Credit {
            user_id: UserId(user_id),
            station_id: StationId(station_id),
            source_kind: SourceKind::Refund,
            source_id: format!("refund:{refund_id}"),
            rule: rules::REFUND.into(),
            amount: wallet_cents,
            description: format!("Estorno do pedido {code}"),
            action_id: None,
        });
    }
    let units_kept: i64 = sqlx::query_scalar(
        "SELECT coalesce(sum(quantity - refunded_quantity), 0)::bigint FROM order_lines
          WHERE order_id = $1",
    )
    .bind(order_id)
    .fetch_one(&mut *conn)
    .await?;
    let status: OrderStatus = sqlx::query_scalar(
        "UPDATE orders
            SET refunded_value = least(refunded_value + $2, total_final_value),
                status = CASE WHEN $3 THEN 'refunded' ELSE 'partially_refunded' END,
                refunded_percentage = CASE
                    WHEN $3 OR total_final_value = 0 THEN 100
                    ELSE round(least(refunded_value + $2, total_final_value) * 100.0
                               / total_final_value, 2) END,
                closed_at = CASE WHEN $3 THEN now() ELSE closed_at END,
                -- The receipt shows what was refunded: the next download makes it again.
                receipt_key = NULL
          WHERE id = $1 RETURNING status",
    )
    .bind(order_id)
    .bind(amount)
    .bind(units_kept == 0)
    .fetch_one(&mut *conn)
    .await?;
    if let Some(payment_id) = payment_id {
        sqlx::query(
            "UPDATE payments p SET status = 'refunded'
              WHERE p.id = $1 AND p.status = 'paid'
                AND p.amount <= (SELECT coalesce(sum(gateway_cents), 0) FROM refunds
                                  WHERE payment_id = $1 AND status = 'done')",
        )
        .bind(payment_id)
        .execute(&mut *conn)
        .await?;
    }
    Ok(Some(Applied {
        refund_id,
        order_id,
        status,
        reversed_lots,
        credits,
    }))
}

/// A refund the bank started (MED, a chargeback) on a card or PIX payment part, applied
/// like a staff refund but without asking the gateway (the money already went back).
/// `charge_refunded_cents` is the charge's refunded total as the provider reports it, so
/// calling this again for the same event (or an older one) changes nothing: only the part
/// not yet recorded is applied. When the whole card or PIX part is back, the whole order
/// is refunded (the wallet part to the wallet); otherwise whole units are taken from the
/// last lines while their price fits. `None` when nothing new is left to apply.
pub async fn apply_bank_refund(
    conn: &mut PgConnection,
    payment_id: i64,
    charge_refunded_cents: i64,
) -> Result<Option<Applied>, RefundError> {
    let row: Option<(i64, i64)> = sqlx::query_as(
        "SELECT order_id, amount FROM payments WHERE id = $1 AND method <> 'wallet'",
    )
    .bind(payment_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((order_id, paid)) = row else {
        return Ok(None);
    };
    // The order row first, like every refund: two deliveries of one event queue here.
    sqlx::query("SELECT 1 FROM orders WHERE id = $1 FOR UPDATE")
        .bind(order_id)
        .execute(&mut *conn)
        .await?;
    let recorded: i64 = sqlx::query_scalar(
        "SELECT coalesce(sum(gateway_cents), 0)::bigint FROM refunds
          WHERE payment_id = $1 AND status IN ('pending', 'done')",
    )
    .bind(payment_id)
    .fetch_one(&mut *conn)
    .await?;
    let new = charge_refunded_cents.min(paid) - recorded;
    if new <= 0 {
        return Ok(None);
    }
    let lines = if charge_refunded_cents >= paid {
        None
    } else {
        let left = lines_left(conn, order_id).await?;
        let mut budget = new;
        let mut chosen = Vec::new();
        for line in left.iter().rev() {
            let mut units = 0;
            while units < line.refundable(false) && line.unit_price <= budget && line.unit_price > 0
            {
                units += 1;
                budget -= line.unit_price;
            }
            if units > 0 {
                chosen.push((line.id, units));
            }
        }
        Some(chosen)
    };
    let wanted = RefundRequest {
        lines: lines.clone(),
        reason: "Estorno iniciado pelo banco (MED)".into(),
    };
    let requested = match lines {
        Some(ref chosen) if chosen.is_empty() => {
            record_money_only(conn, order_id, payment_id, new).await?
        }
        _ => request(conn, None, order_id, &wanted, RefundOrigin::Bank, None).await?,
    };
    // The bank's amount is what went back through the card or PIX part.
    sqlx::query(
        "UPDATE refunds SET gateway_cents = least($2, amount), wallet_cents = amount - least($2, amount),
                payment_id = $3
          WHERE id = $1",
    )
    .bind(requested.refund_id)
    .bind(if charge_refunded_cents >= paid { new } else { requested.amount.min(new) })
    .bind(payment_id)
    .execute(&mut *conn)
    .await?;
    apply(conn, requested.refund_id, None).await
}

/// A bank refund smaller than any unit's price: money only, no line.
async fn record_money_only(
    conn: &mut PgConnection,
    order_id: i64,
    payment_id: i64,
    amount: i64,
) -> Result<Requested, RefundError> {
    let (refund_id, station_id, user_id): (i64, i64, i64) = sqlx::query_as(
        "INSERT INTO refunds (station_id, order_id, amount, reason, origin, gateway_cents,
                              payment_id)
         SELECT station_id, id, $2, 'Estorno iniciado pelo banco (MED)', 'bank', $2, $3
           FROM orders WHERE id = $1
         RETURNING id, station_id, (SELECT user_id FROM orders WHERE id = $1)",
    )
    .bind(order_id)
    .bind(amount)
    .bind(payment_id)
    .fetch_one(&mut *conn)
    .await?;
    Ok(Requested {
        refund_id,
        order_id,
        station_id,
        user_id,
        amount,
        gateway_cents: amount,
        wallet_cents: 0,
    })
}
