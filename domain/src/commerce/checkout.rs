//! The hold: confirming the cart claims its stock (and later its coupon use) with one
//! expiry, and records the wallet amount it can use. Releasing is idempotent: one
//! conditional update on the hold decides who gives the units, the coupon use and an
//! unpaid order's wallet part back. Reads treat an expired hold as released at once
//! (`catalogue::AVAILABLE`), and a buyer's confirmation releases the expired holds in its
//! way before claiming, so nobody waits for the `reservation.release` job.
//!
//! Lock order, so concurrent checkouts never wait on each other in a cycle: the member's
//! advisory lock, then the hold row, then the coupon, then products in id order, then the
//! wallet (confirming, the coupon dialog, placing the order and releasing alike).

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgConnection, PgPool};

use super::cart::{self, Wanted};
use super::coupons;
use super::status::{HoldStatus, OrderStatus};
use super::totals::{self, ActionTerms, Line, Totals};
use super::{CommerceResult, Refusal, lock_member};
use crate::shared::ids::{Cents, StationId, UserId};
use crate::wallet::ledger::{self, Credit, SourceKind, SpendKind};
use crate::wallet::rules;

/// How long a confirmed cart is held (stock, coupon, wallet amount).
pub const HOLD_MINUTES: i64 = 15;

/// A hold just made.
#[derive(Debug, Clone)]
pub struct Hold {
    pub checkout_id: i64,
    pub expires_at: DateTime<Utc>,
    /// Totals of the held lines (no delivery chosen yet).
    pub totals: Totals,
}

/// A hold as the order call finds it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct HeldCheckout {
    pub id: i64,
    pub status: HoldStatus,
    pub expires_at: DateTime<Utc>,
    pub order_id: Option<i64>,
}

/// The lines of a hold with what the totals need.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct HeldLine {
    pub product_id: i64,
    pub action_id: i64,
    pub quantity: i32,
    pub value: Cents,
    pub discount_value: Cents,
    pub action_name: String,
    pub digital_product: bool,
    pub payment_only: bool,
    pub discount_delivery: Cents,
    pub cashback_points: i32,
    pub allow_installments: bool,
}

impl HeldLine {
    pub(crate) fn line(&self) -> Line {
        Line {
            action_id: self.action_id,
            value: self.value,
            discount_value: self.discount_value,
            quantity: self.quantity.into(),
        }
    }

    pub(crate) fn terms(&self, delivery_price: Cents) -> ActionTerms {
        ActionTerms {
            action_id: self.action_id,
            discount_delivery: self.discount_delivery,
            delivery_price,
            cashback_points: self.cashback_points.into(),
            payment_only: self.payment_only,
        }
    }
}

pub(crate) async fn held_lines(
    conn: &mut PgConnection,
    checkout_id: i64,
) -> sqlx::Result<Vec<HeldLine>> {
    sqlx::query_as(
        "SELECT l.product_id, p.action_id, l.quantity, p.value, p.discount_value,
                a.name AS action_name, a.digital_product,
                a.payment_option = 'payment_only' AS payment_only, a.discount_delivery,
                a.points + a.additional_cashback AS cashback_points, a.allow_installments
           FROM checkout_lines l JOIN products p ON p.id = l.product_id
           JOIN actions a ON a.id = p.action_id
          WHERE l.checkout_id = $1 ORDER BY l.product_id",
    )
    .bind(checkout_id)
    .fetch_all(conn)
    .await
}

/// The member's latest hold: the one the order call uses.
pub async fn latest(conn: &mut PgConnection, user_id: i64) -> sqlx::Result<Option<HeldCheckout>> {
    sqlx::query_as(
        "SELECT c.id, c.status, c.expires_at, o.id AS order_id
           FROM checkouts c LEFT JOIN orders o ON o.checkout_id = c.id
          WHERE c.user_id = $1 ORDER BY c.id DESC LIMIT 1",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await
}

/// One hold of the member by id (the one the order call names), as [`latest`] reads it.
pub async fn of_member(
    conn: &mut PgConnection,
    user_id: i64,
    checkout_id: i64,
) -> sqlx::Result<Option<HeldCheckout>> {
    sqlx::query_as(
        "SELECT c.id, c.status, c.expires_at, o.id AS order_id
           FROM checkouts c LEFT JOIN orders o ON o.checkout_id = c.id
          WHERE c.id = $1 AND c.user_id = $2",
    )
    .bind(checkout_id)
    .bind(user_id)
    .fetch_optional(conn)
    .await
}

/// Releases, each in a transaction of its own, the member's holds that have no order yet
/// and the expired holds that keep any of these products. Called before [`confirm`], so
/// its transaction claims stock without first giving stock back (which would take product
/// locks out of id order).
pub async fn clear_before_confirm(
    db: &PgPool,
    user_id: i64,
    product_ids: &[i64],
) -> CommerceResult<usize> {
    let holds: Vec<i64> = sqlx::query_scalar(
        "SELECT c.id FROM checkouts c
          WHERE c.status = 'held'
            AND ((c.user_id = $1 AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.checkout_id = c.id))
                 OR (c.expires_at <= now() AND EXISTS (
                        SELECT 1 FROM checkout_lines l
                         WHERE l.checkout_id = c.id AND l.product_id = ANY($2))))
          ORDER BY c.id",
    )
    .bind(user_id)
    .bind(product_ids)
    .fetch_all(db)
    .await?;
    let mut released = 0;
    for checkout_id in holds {
        match release_one(db, checkout_id, user_id).await {
            Ok(done) => released += usize::from(done.released),
            Err(err) => {
                // Another member's hold that cannot be released now must not block this
                // buyer: its units stay out of sale until its job succeeds. The member's
                // own hold must go, or `confirm` would release it itself.
                let own: Option<i64> =
                    sqlx::query_scalar("SELECT user_id FROM checkouts WHERE id = $1")
                        .bind(checkout_id)
                        .fetch_optional(db)
                        .await?;
                if own == Some(user_id) {
                    return Err(err);
                }
                tracing::warn!(checkout_id, error = %err, "another member's hold was not released");
            }
        }
    }
    Ok(released)
}

async fn release_one(db: &PgPool, checkout_id: i64, user_id: i64) -> CommerceResult<Released> {
    let mut tx = db.begin().await?;
    let done = release(&mut tx, checkout_id, Some(user_id), Utc::now()).await?;
    tx.commit().await?;
    Ok(done)
}

/// Confirms the cart: holds each wanted product (claimed in product-id order with one
/// conditional update each), records the wallet amount the cart can use, and sets one
/// expiry. On the caller's transaction; the caller enqueues the release job at
/// `expires_at` on it. Any product short of stock rolls the whole hold back.
pub async fn confirm(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    wanted: &[Wanted],
) -> CommerceResult<Hold> {
    confirm_held_for(conn, station_id, user_id, wanted, HOLD_MINUTES * 60).await
}

/// [`confirm`] with a hold of `hold_seconds` (the deployment's `FILIA_HOLD_SECONDS`).
pub async fn confirm_held_for(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    wanted: &[Wanted],
    hold_seconds: i64,
) -> CommerceResult<Hold> {
    if wanted.is_empty() {
        return Err(Refusal::EmptyCart.into());
    }
    lock_member(conn, user_id).await?;
    // A hold of this member made between `clear_before_confirm` and this lock (two tabs
    // confirming at once): released here, the one case where this transaction gives units
    // back before claiming. Should that take product locks against another buyer's order,
    // PostgreSQL ends one of the two with a deadlock error and nothing is oversold.
    let open: Vec<i64> = sqlx::query_scalar(
        "SELECT c.id FROM checkouts c WHERE c.user_id = $1 AND c.status = 'held'
            AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.checkout_id = c.id)",
    )
    .bind(user_id)
    .fetch_all(&mut *conn)
    .await?;
    for checkout_id in open {
        release(conn, checkout_id, Some(user_id), Utc::now()).await?;
    }
    let mut wanted = wanted.to_vec();
    wanted.sort_by_key(|w| w.product_id);
    wanted.dedup_by(|later, first| {
        if later.product_id == first.product_id {
            first.quantity += later.quantity;
            true
        } else {
            false
        }
    });
    cart::check_quantities(conn, station_id, user_id, &wanted).await?;
    for w in &wanted {
        let claimed = sqlx::query(
            "UPDATE products SET reserved = reserved + $2, updated_at = now()
              WHERE id = $1 AND station_id = $3 AND stock - reserved >= $2",
        )
        .bind(w.product_id)
        .bind(w.quantity as i32)
        .bind(station_id)
        .execute(&mut *conn)
        .await?;
        if claimed.rows_affected() == 0 {
            return Err(Refusal::OutOfStock.into());
        }
    }
    let (checkout_id, expires_at): (i64, DateTime<Utc>) = sqlx::query_as(
        "INSERT INTO checkouts (station_id, user_id, expires_at)
         VALUES ($1, $2, now() + $3 * interval '1 second') RETURNING id, expires_at",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(hold_seconds as f64)
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query(
        "INSERT INTO checkout_lines (checkout_id, product_id, quantity)
         SELECT $1, * FROM unnest($2::bigint[], $3::int[])",
    )
    .bind(checkout_id)
    .bind(wanted.iter().map(|w| w.product_id).collect::<Vec<_>>())
    .bind(wanted.iter().map(|w| w.quantity as i32).collect::<Vec<_>>())
    .execute(&mut *conn)
    .await?;
    let totals = hold_totals(conn, user_id, checkout_id, Cents::ZERO).await?;
    sqlx::query("UPDATE checkouts SET wallet_held = $2 WHERE id = $1")
        .bind(checkout_id)
        .bind(totals.wallet_value)
        .execute(&mut *conn)
        .await?;
    Ok(Hold {
        checkout_id,
        expires_at,
        totals,
    })
}

/// The totals of a hold's lines with its coupon (if any), the member's balance and no
/// delivery chosen.
pub async fn hold_totals(
    conn: &mut PgConnection,
    user_id: i64,
    checkout_id: i64,
    extra_coupon: Cents,
) -> sqlx::Result<Totals> {
    let lines = held_lines(conn, checkout_id).await?;
    let coupon = coupons::of_checkout(conn, checkout_id)
        .await?
        .map_or(extra_coupon, |coupon| coupon.discount_value);
    let balance = Cents(ledger::balance(&mut *conn, user_id).await?.balance);
    let terms: Vec<ActionTerms> = lines.iter().map(|line| line.terms(Cents::ZERO)).collect();
    let lines: Vec<Line> = lines.iter().map(HeldLine::line).collect();
    Ok(totals::compute(&lines, &terms, coupon, balance))
}

/// The totals the member's cart would have if confirmed now: its lines still on sale, the
/// member's balance, no coupon and no delivery. Holds nothing (the cart's step 0 preview).
pub async fn cart_totals(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
) -> sqlx::Result<Totals> {
    let lines: Vec<HeldLine> = sqlx::query_as(
        "SELECT l.product_id, p.action_id, l.quantity, p.value, p.discount_value,
                a.name AS action_name, a.digital_product,
                a.payment_option = 'payment_only' AS payment_only, a.discount_delivery,
                a.points + a.additional_cashback AS cashback_points, a.allow_installments
           FROM cart_lines l JOIN products p ON p.id = l.product_id
           JOIN actions a ON a.id = p.action_id
          WHERE l.user_id = $1 AND l.station_id = $2 AND p.station_id = $2
            AND p.active AND a.active
          ORDER BY l.product_id",
    )
    .bind(user_id)
    .bind(station_id)
    .fetch_all(&mut *conn)
    .await?;
    let balance = Cents(ledger::balance(&mut *conn, user_id).await?.balance);
    let terms: Vec<ActionTerms> = lines.iter().map(|line| line.terms(Cents::ZERO)).collect();
    let lines: Vec<Line> = lines.iter().map(HeldLine::line).collect();
    Ok(totals::compute(&lines, &terms, Cents::ZERO, balance))
}

/// The member's hold the coupon dialog and the order call work on: held and not expired.
pub async fn live_hold(conn: &mut PgConnection, user_id: i64) -> CommerceResult<HeldCheckout> {
    match latest(conn, user_id).await? {
        Some(hold) if hold.status == HoldStatus::Held && hold.expires_at > Utc::now() => Ok(hold),
        _ => Err(Refusal::HoldExpired.into()),
    }
}

/// The coupon a hold claimed and the hold's totals before and after it.
#[derive(Debug, Clone)]
pub struct CouponApplied {
    pub coupon: coupons::Coupon,
    pub totals: TotalsBeforeAfter,
}

/// A hold's totals before and after a coupon.
#[derive(Debug, Clone)]
pub struct TotalsBeforeAfter {
    pub before: Totals,
    pub after: Totals,
}

/// Locks the member's live hold without an order (the lock order's first row), under the
/// member's lock: a release racing this either ran before (the hold is no longer held, and
/// the call is refused) or waits for this transaction, and then gives back what it claimed.
async fn lock_live_hold(conn: &mut PgConnection, user_id: i64) -> CommerceResult<i64> {
    lock_member(conn, user_id).await?;
    let hold = live_hold(conn, user_id).await?;
    if hold.order_id.is_some() {
        return Err(Refusal::HoldExpired.into());
    }
    let locked: Option<i64> = sqlx::query_scalar(
        "SELECT id FROM checkouts
          WHERE id = $1 AND status = 'held' AND expires_at > now() FOR UPDATE",
    )
    .bind(hold.id)
    .fetch_optional(&mut *conn)
    .await?;
    locked.ok_or_else(|| Refusal::HoldExpired.into())
}

/// Claims a coupon into the member's live hold (the coupon dialog), on the caller's
/// transaction, with the hold row locked first so a release cannot miss the use.
pub async fn apply_coupon(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    code: &str,
) -> CommerceResult<CouponApplied> {
    if code.trim().is_empty() {
        return Err(Refusal::CouponNotFound.into());
    }
    let checkout_id = lock_live_hold(conn, user_id).await?;
    let before = hold_totals(conn, user_id, checkout_id, Cents::ZERO).await?;
    let coupon = coupons::claim(conn, station_id, user_id, checkout_id, code).await?;
    let after = hold_totals(conn, user_id, checkout_id, Cents::ZERO).await?;
    Ok(CouponApplied {
        coupon,
        totals: TotalsBeforeAfter { before, after },
    })
}

/// Gives back the coupon of the member's live hold (the dialog's 'Remover'), on the
/// caller's transaction; answers the hold's totals without it.
pub async fn remove_coupon(conn: &mut PgConnection, user_id: i64) -> CommerceResult<Totals> {
    let checkout_id = lock_live_hold(conn, user_id).await?;
    coupons::take_off(conn, checkout_id).await?;
    Ok(hold_totals(conn, user_id, checkout_id, Cents::ZERO).await?)
}

/// Confirms the cart as `POST /single-product-orders` does: the wanted quantities (none:
/// the cart's lines), the expired holds in the way released each in its own transaction,
/// then the hold made on a new transaction, answered open so the caller schedules the
/// release job on it and commits.
pub async fn confirm_cart(
    db: &PgPool,
    station_id: i64,
    user_id: i64,
    wanted: Vec<Wanted>,
) -> CommerceResult<(sqlx::Transaction<'static, sqlx::Postgres>, Hold)> {
    confirm_cart_held_for(db, station_id, user_id, wanted, HOLD_MINUTES * 60).await
}

/// [`confirm_cart`] with a hold of `hold_seconds` (the deployment's `FILIA_HOLD_SECONDS`).
pub async fn confirm_cart_held_for(
    db: &PgPool,
    station_id: i64,
    user_id: i64,
    mut wanted: Vec<Wanted>,
    hold_seconds: i64,
) -> CommerceResult<(sqlx::Transaction<'static, sqlx::Postgres>, Hold)> {
    if wanted.is_empty() {
        let mut conn = db.acquire().await?;
        wanted = cart::lines(&mut conn, station_id, user_id)
            .await?
            .into_iter()
            .map(|line| Wanted {
                product_id: line.product_id,
                quantity: line.quantity,
            })
            .collect();
    }
    let product_ids: Vec<i64> = wanted.iter().map(|w| w.product_id).collect();
    clear_before_confirm(db, user_id, &product_ids).await?;
    let mut tx = db.begin().await?;
    let hold = confirm_held_for(&mut tx, station_id, user_id, &wanted, hold_seconds).await?;
    Ok((tx, hold))
}

/// What a release did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Released {
    /// This call released the hold (false: it was paid, released, or not expired yet).
    pub released: bool,
    /// The order waiting for payment that ended with it ('Pagamento expirado').
    pub expired_order: Option<i64>,
}

/// Releases the hold if it is still held and expired at `now` (the `reservation.release`
/// job's work), on the caller's transaction. Idempotent.
pub async fn release_expired(
    conn: &mut PgConnection,
    checkout_id: i64,
    now: DateTime<Utc>,
) -> CommerceResult<Released> {
    release(conn, checkout_id, None, now).await
}

/// Releases the hold: expired ones (`owner` None: only once `expires_at <= now`), or the
/// owner's own hold without an order at any time. Gives back its units, its coupon use
/// and, with an order waiting for payment, expires the order and refunds its wallet part.
async fn release(
    conn: &mut PgConnection,
    checkout_id: i64,
    owner: Option<i64>,
    now: DateTime<Utc>,
) -> CommerceResult<Released> {
    let closed: Option<(i64, i64)> = sqlx::query_as(
        "UPDATE checkouts c
            SET status = CASE WHEN c.expires_at <= $2 THEN 'expired' ELSE 'released' END,
                closed_at = now()
          WHERE c.id = $1 AND c.status = 'held'
            AND (c.expires_at <= $2
                 OR (c.user_id = $3
                     AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.checkout_id = c.id)))
         RETURNING c.user_id, c.station_id",
    )
    .bind(checkout_id)
    .bind(now)
    .bind(owner)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((user_id, station_id)) = closed else {
        return Ok(Released::default());
    };
    end_unpaid(conn, checkout_id, user_id, station_id, UnpaidEnd::Expired).await
}

/// How an order that was not paid ended, as its hold is given back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnpaidEnd {
    /// The hold or the PIX charge ran out: 'Pagamento expirado'.
    Expired,
    /// The card was declined: 'Pagamento recusado'.
    Declined,
}

/// Closes a hold whose order (if any) was not paid: the units, the coupon use, the order
/// and its pending parts end, and the wallet part goes back to the wallet. For a hold the
/// caller has just moved out of `held` with a conditional update (so this runs once).
pub(crate) async fn close_unpaid(
    conn: &mut PgConnection,
    checkout_id: i64,
    end: UnpaidEnd,
) -> CommerceResult<Released> {
    let closed: Option<(i64, i64)> = sqlx::query_as(
        "UPDATE checkouts SET status = CASE WHEN $2 THEN 'expired' ELSE 'released' END,
                closed_at = now()
          WHERE id = $1 AND status = 'held'
         RETURNING user_id, station_id",
    )
    .bind(checkout_id)
    .bind(end == UnpaidEnd::Expired)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((user_id, station_id)) = closed else {
        return Ok(Released::default());
    };
    end_unpaid(conn, checkout_id, user_id, station_id, end).await
}

async fn end_unpaid(
    conn: &mut PgConnection,
    checkout_id: i64,
    user_id: i64,
    station_id: i64,
    end: UnpaidEnd,
) -> CommerceResult<Released> {
    coupons::release(conn, checkout_id).await?;
    give_back_units(conn, checkout_id, false).await?;
    if end == UnpaidEnd::Declined {
        // The member tries another way to pay with the same products: placing the order
        // took them out of the cart, so they go back in (a line changed since stays).
        sqlx::query(
            "INSERT INTO cart_lines (station_id, user_id, product_id, quantity)
             SELECT $2, $3, product_id, quantity FROM checkout_lines WHERE checkout_id = $1
             ON CONFLICT (user_id, product_id) DO NOTHING",
        )
        .bind(checkout_id)
        .bind(station_id)
        .bind(user_id)
        .execute(&mut *conn)
        .await?;
    }
    let order: Option<(i64, String)> = sqlx::query_as(
        "UPDATE orders SET status = $2, closed_at = now()
          WHERE checkout_id = $1 AND status = 'pending' RETURNING id, code",
    )
    .bind(checkout_id)
    .bind(match end {
        UnpaidEnd::Expired => OrderStatus::Expired,
        UnpaidEnd::Declined => OrderStatus::Declined,
    })
    .fetch_optional(&mut *conn)
    .await?;
    let Some((order_id, code)) = order else {
        return Ok(Released {
            released: true,
            expired_order: None,
        });
    };
    sqlx::query(
        "UPDATE payments SET status = 'expired'
          WHERE order_id = $1 AND status = 'pending'",
    )
    .bind(order_id)
    .execute(&mut *conn)
    .await?;
    let wallet: Option<i64> = sqlx::query_scalar(
        "UPDATE payments SET status = 'refunded'
          WHERE order_id = $1 AND method = 'wallet' AND status = 'paid' RETURNING amount",
    )
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(amount) = wallet {
        // Back on the lots' own expiries: points past theirs stay expired.
        ledger::refund_spend(
            conn,
            SpendKind::Purchase,
            &format!("order:{order_id}"),
            &Credit {
                user_id: UserId(user_id),
                station_id: StationId(station_id),
                source_kind: SourceKind::Refund,
                source_id: format!("order:{order_id}:wallet"),
                rule: rules::REFUND.into(),
                amount,
                description: format!("Estorno do pedido {code}"),
                action_id: None,
            },
        )
        .await?;
    }
    Ok(Released {
        released: true,
        expired_order: Some(order_id),
    })
}

/// Gives a hold's units back to stock, one product at a time in id order (the lock order):
/// `sold` false returns them to sale (`reserved` only), true takes them out (`stock` too).
pub(crate) async fn give_back_units(
    conn: &mut PgConnection,
    checkout_id: i64,
    sold: bool,
) -> sqlx::Result<()> {
    let lines: Vec<(i64, i32)> = sqlx::query_as(
        "SELECT product_id, quantity FROM checkout_lines WHERE checkout_id = $1 ORDER BY product_id",
    )
    .bind(checkout_id)
    .fetch_all(&mut *conn)
    .await?;
    for (product_id, quantity) in lines {
        sqlx::query(
            "UPDATE products
                SET reserved = reserved - $2,
                    stock = stock - CASE WHEN $3 THEN $2 ELSE 0 END,
                    updated_at = now()
              WHERE id = $1",
        )
        .bind(product_id)
        .bind(quantity)
        .bind(sold)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Moves a live hold's expiry later, to `until` (a pending PIX charge's expiry), with its
/// pending payments' expiry. Answers the new expiry, or `None` when the hold is no longer
/// live. The caller enqueues a release job at the new expiry.
pub async fn extend_hold(
    conn: &mut PgConnection,
    checkout_id: i64,
    until: DateTime<Utc>,
) -> sqlx::Result<Option<DateTime<Utc>>> {
    let extended: Option<DateTime<Utc>> = sqlx::query_scalar(
        "UPDATE checkouts SET expires_at = greatest(expires_at, $2)
          WHERE id = $1 AND status = 'held' AND expires_at > now()
         RETURNING expires_at",
    )
    .bind(checkout_id)
    .bind(until)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(expires_at) = extended {
        sqlx::query(
            "UPDATE payments SET expires_at = $2
              WHERE status = 'pending'
                AND order_id = (SELECT id FROM orders WHERE checkout_id = $1)",
        )
        .bind(checkout_id)
        .bind(expires_at)
        .execute(&mut *conn)
        .await?;
    }
    Ok(extended)
}

/// The hold's expiry as seconds left from now (the spec's `reserveTime`), never negative.
pub fn seconds_left(expires_at: DateTime<Utc>) -> i64 {
    (expires_at - Utc::now())
        .max(Duration::zero())
        .num_seconds()
}
