//! Orders: placing the order of the member's live hold (the wallet pays what it can in the
//! same transaction; the rest is a card or PIX payment part left pending), the one
//! idempotent confirmation that turns an order paid, and the order as the member reads it.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::checkout::{self, HeldLine};
use super::installments;
use super::status::{OrderStatus, PartMethod, PartStatus};
use super::totals::{self, ActionTerms, Line};
use super::{CommerceResult, Refusal, catalogue, coupons, lock_member};
use crate::shared::ids::{Cents, StationId, UserId};
use crate::wallet::ledger::{self, LedgerError, Spend, SpendKind};

/// How the amount the wallet does not cover is paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    CreditCard,
    Pix,
}

impl From<Method> for PartMethod {
    fn from(method: Method) -> Self {
        match method {
            Method::CreditCard => Self::Card,
            Method::Pix => Self::Pix,
        }
    }
}

/// One activity's delivery or pickup choice (the spec's per-action cart form).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeliveryChoice {
    pub action_id: i64,
    pub delivery_location_id: Option<i64>,
    pub zipcode: Option<String>,
    pub address: Option<String>,
    pub number: Option<String>,
    pub reference: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlaceOrder {
    pub deliveries: Vec<DeliveryChoice>,
    pub coupon_code: Option<String>,
    pub method: Option<Method>,
    /// The card's installment count: one of the options offered for the card amount
    /// ([`installments::offered`]); not read for PIX.
    pub installments: i32,
    /// The hold the member reviewed (`checkout_id` of the confirmation); `None`: the
    /// member's latest hold.
    pub checkout_id: Option<i64>,
}

impl Default for PlaceOrder {
    fn default() -> Self {
        Self {
            deliveries: Vec::new(),
            coupon_code: None,
            method: None,
            installments: 1,
            checkout_id: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub order_id: i64,
    /// False: the hold had its order already (a repeated call), answered again.
    pub created: bool,
    /// The order is paid (the wallet covered it all).
    pub paid: bool,
    pub checkout_id: i64,
}

/// Places the order of the member's hold (`request.checkout_id`, else their latest), on
/// the caller's transaction. A hold that has its order answers that order (a repeated call
/// creates nothing and spends nothing); a hold that expired or was released, or is not the
/// member's, is refused with the spec's reservation text.
///
/// Lock order, as every path that closes a hold: the hold row, the coupon, the hold's
/// products in id order, the wallet.
pub async fn place(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    request: &PlaceOrder,
) -> CommerceResult<Placed> {
    lock_member(conn, user_id.0).await?;
    let hold = match request.checkout_id {
        Some(checkout_id) => checkout::of_member(conn, user_id.0, checkout_id).await?,
        None => checkout::latest(conn, user_id.0).await?,
    };
    let Some(hold) = hold else {
        return Err(Refusal::HoldExpired.into());
    };
    if let Some(order_id) = hold.order_id {
        let status: OrderStatus = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
            .bind(order_id)
            .fetch_one(&mut *conn)
            .await?;
        return Ok(Placed {
            order_id,
            created: false,
            paid: status == OrderStatus::Paid,
            checkout_id: hold.id,
        });
    }
    // The hold row's lock: a release racing this call either ran before (and the hold is
    // no longer held) or waits until this order is committed.
    let live: Option<DateTime<Utc>> = sqlx::query_scalar(
        "SELECT expires_at FROM checkouts
          WHERE id = $1 AND status = 'held' AND expires_at > now() FOR UPDATE",
    )
    .bind(hold.id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(expires_at) = live else {
        return Err(Refusal::HoldExpired.into());
    };
    catalogue::check_checkout_open(conn, station_id.0).await?;
    if let Some(code) = request
        .coupon_code
        .as_deref()
        .filter(|c| !c.trim().is_empty())
    {
        coupons::claim(conn, station_id.0, user_id.0, hold.id, code).await?;
    }
    let coupon = coupons::of_checkout(conn, hold.id).await?;
    sqlx::query(
        "SELECT 1 FROM products
          WHERE id IN (SELECT product_id FROM checkout_lines WHERE checkout_id = $1)
          ORDER BY id FOR NO KEY UPDATE",
    )
    .bind(hold.id)
    .execute(&mut *conn)
    .await?;
    let lines = checkout::held_lines(conn, hold.id).await?;
    let deliveries = choose_deliveries(conn, &lines, &request.deliveries).await?;
    let terms: Vec<ActionTerms> = deliveries
        .iter()
        .map(|(line, chosen)| line.terms(chosen.as_ref().map_or(Cents::ZERO, |c| c.price)))
        .collect();
    // Under the wallet's lock, with its lots past their expiry ended: what a spend can draw.
    let balance = Cents(ledger::spendable(&mut *conn, user_id).await?);
    let plain_lines: Vec<Line> = lines.iter().map(HeldLine::line).collect();
    let computed = totals::compute(
        &plain_lines,
        &terms,
        coupon.as_ref().map_or(Cents::ZERO, |c| c.discount_value),
        balance,
    );
    let shares = totals::split(&plain_lines, &terms, computed.coupon_discount_value);
    if computed.credit_card_value > Cents::ZERO && request.method.is_none() {
        return Err(Refusal::PaymentMethodRequired.into());
    }
    let installments =
        if request.method == Some(Method::CreditCard) && computed.credit_card_value > Cents::ZERO {
            check_installments(&lines, computed.credit_card_value, request.installments)?
        } else {
            1
        };
    let (order_id, code): (i64, String) = sqlx::query_as(
        "INSERT INTO orders (station_id, user_id, checkout_id, code, status, coupon_id,
                             product_items_sum_value, delivery_tax_value,
                             additional_discount_value, total_final_value, wallet_value,
                             credit_card_value, cashback_value)
         VALUES ($1, $2, $3, lpad(nextval('order_codes')::text, 6, '0'), 'pending', $4,
                 $5, $6, $7, $8, $9, $10, $11)
         RETURNING id, code",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(hold.id)
    .bind(coupon.as_ref().map(|c| c.id))
    .bind(computed.product_items_sum_value)
    .bind(computed.delivery_tax_value)
    .bind(computed.additional_discount_value)
    .bind(computed.total_final_value)
    .bind(computed.wallet_value)
    .bind(computed.credit_card_value)
    .bind(computed.cashback_value)
    .fetch_one(&mut *conn)
    .await?;
    for (line, share) in lines.iter().zip(&shares) {
        sqlx::query(
            "INSERT INTO order_lines (order_id, product_id, action_id, quantity, unit_price,
                                      net_amount, cashback_share)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(order_id)
        .bind(line.product_id)
        .bind(line.action_id)
        .bind(line.quantity)
        .bind(line.line().unit_price())
        .bind(share.net_amount)
        .bind(share.cashback_share)
        .execute(&mut *conn)
        .await?;
    }
    record_deliveries(conn, order_id, &lines, &deliveries, &request.deliveries).await?;
    if computed.wallet_value > Cents::ZERO {
        pay_with_wallet(
            conn,
            station_id,
            user_id,
            order_id,
            &code,
            computed.wallet_value,
        )
        .await?;
    }
    let paid = match request
        .method
        .filter(|_| computed.credit_card_value > Cents::ZERO)
    {
        Some(method) => {
            sqlx::query(
                "INSERT INTO payments (station_id, order_id, method, amount, installments,
                                       expires_at)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(station_id)
            .bind(order_id)
            .bind(PartMethod::from(method))
            .bind(computed.credit_card_value)
            .bind(installments)
            .bind(expires_at)
            .execute(&mut *conn)
            .await?;
            false
        }
        None => mark_paid(conn, order_id).await?,
    };
    sqlx::query(
        "DELETE FROM cart_lines WHERE user_id = $1
            AND product_id IN (SELECT product_id FROM checkout_lines WHERE checkout_id = $2)",
    )
    .bind(user_id)
    .bind(hold.id)
    .execute(&mut *conn)
    .await?;
    sqlx::query("UPDATE checkouts SET wallet_held = $2 WHERE id = $1")
        .bind(hold.id)
        .bind(computed.wallet_value)
        .execute(&mut *conn)
        .await?;
    Ok(Placed {
        order_id,
        created: true,
        paid,
        checkout_id: hold.id,
    })
}

/// The card's installment count when it is among the options offered for the card amount:
/// more than one only when every activity of the order allows installments (the card part
/// is one charge for the whole order), none below the smallest installment.
fn check_installments(lines: &[HeldLine], amount: Cents, count: i32) -> CommerceResult<i32> {
    let allowed = lines.iter().all(|line| line.allow_installments);
    let options = installments::offered(amount, allowed);
    if options
        .iter()
        .any(|option| u32::try_from(count) == Ok(option.installment))
    {
        return Ok(count);
    }
    Err(Refusal::Installments {
        count,
        most: options.last().map_or(1, |option| option.installment),
        allowed,
    }
    .into())
}

#[derive(Debug, Clone, sqlx::FromRow)]
struct ChosenLocation {
    id: i64,
    price: Cents,
    delivery: bool,
}

/// One entry per activity of the hold (its first line), with its chosen location.
async fn choose_deliveries(
    conn: &mut PgConnection,
    lines: &[HeldLine],
    choices: &[DeliveryChoice],
) -> CommerceResult<Vec<(HeldLine, Option<ChosenLocation>)>> {
    let mut out: Vec<(HeldLine, Option<ChosenLocation>)> = Vec::new();
    for line in lines {
        if out.iter().any(|(seen, _)| seen.action_id == line.action_id) {
            continue;
        }
        if line.digital_product {
            out.push((line.clone(), None));
            continue;
        }
        let required = || Refusal::DeliveryRequired {
            action: line.action_name.clone(),
        };
        let choice = choices
            .iter()
            .find(|c| c.action_id == line.action_id)
            .ok_or_else(required)?;
        let location: ChosenLocation = sqlx::query_as(
            "SELECT id, price, delivery FROM delivery_locations WHERE id = $1 AND action_id = $2",
        )
        .bind(choice.delivery_location_id.ok_or_else(required)?)
        .bind(line.action_id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(required)?;
        let filled =
            |value: &Option<String>| value.as_deref().is_some_and(|v| !v.trim().is_empty());
        let zipcode_ok = choice
            .zipcode
            .as_deref()
            .is_some_and(|z| z.chars().filter(char::is_ascii_digit).count() == 8);
        if location.delivery && !(filled(&choice.address) && zipcode_ok) {
            return Err(Refusal::AddressRequired {
                action: line.action_name.clone(),
            }
            .into());
        }
        out.push((line.clone(), Some(location)));
    }
    Ok(out)
}

async fn record_deliveries(
    conn: &mut PgConnection,
    order_id: i64,
    lines: &[HeldLine],
    deliveries: &[(HeldLine, Option<ChosenLocation>)],
    choices: &[DeliveryChoice],
) -> sqlx::Result<()> {
    for (line, location) in deliveries {
        let choice = choices.iter().find(|c| c.action_id == line.action_id);
        let home = location.as_ref().is_some_and(|l| l.delivery);
        let field = |pick: fn(&DeliveryChoice) -> &Option<String>| {
            choice.filter(|_| home).and_then(|c| pick(c).clone())
        };
        // Every line of the activity, as `totals::compute` sums them.
        let items: Cents = lines
            .iter()
            .filter(|other| other.action_id == line.action_id)
            .map(|other| other.line().price())
            .sum();
        sqlx::query(
            "INSERT INTO order_deliveries (order_id, action_id, delivery_location_id, price,
                                           discount, zipcode, address, number, reference)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(order_id)
        .bind(line.action_id)
        .bind(location.as_ref().map(|l| l.id))
        .bind(location.as_ref().map_or(Cents::ZERO, |l| l.price))
        .bind(line.discount_delivery.min(items).max(Cents::ZERO))
        .bind(
            field(|c| &c.zipcode)
                .map(|z| z.chars().filter(char::is_ascii_digit).collect::<String>()),
        )
        .bind(field(|c| &c.address))
        .bind(field(|c| &c.number))
        .bind(field(|c| &c.reference))
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

async fn pay_with_wallet(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    order_id: i64,
    code: &str,
    amount: Cents,
) -> CommerceResult<()> {
    ledger::spend(
        conn,
        &Spend {
            user_id,
            station_id,
            kind: SpendKind::Purchase,
            source_id: format!("order:{order_id}"),
            amount: amount.0,
            description: format!("Pedido {code}"),
            action_id: None,
        },
    )
    .await
    .map_err(|err| match err {
        // The balance moved between reading it and locking the wallet.
        LedgerError::Insufficient { .. } => Refusal::BalanceChanged.into(),
        other => super::CommerceError::from(other),
    })?;
    sqlx::query(
        "INSERT INTO payments (station_id, order_id, method, amount, status, paid_at)
         VALUES ($1, $2, 'wallet', $3, 'paid', now())",
    )
    .bind(station_id)
    .bind(order_id)
    .bind(amount)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Turns a pending order paid, once: its hold becomes paid and the sold units leave the
/// stock. False when the order was not pending.
async fn mark_paid(conn: &mut PgConnection, order_id: i64) -> sqlx::Result<bool> {
    let checkout_id: Option<i64> = sqlx::query_scalar(
        "UPDATE orders SET status = 'paid', paid_at = now()
          WHERE id = $1 AND status = 'pending' RETURNING checkout_id",
    )
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(checkout_id) = checkout_id else {
        return Ok(false);
    };
    let held = sqlx::query(
        "UPDATE checkouts SET status = 'paid', closed_at = now() WHERE id = $1 AND status = 'held'",
    )
    .bind(checkout_id)
    .execute(&mut *conn)
    .await?;
    if held.rows_affected() == 1 {
        checkout::give_back_units(conn, checkout_id, true).await?;
    }
    Ok(true)
}

/// What [`confirm_payment`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmation {
    /// This call recorded the payment; `order_paid` when it was the order's last part.
    Confirmed {
        order_id: i64,
        order_paid: bool,
    },
    /// The payment was recorded paid before: nothing changed.
    AlreadyPaid {
        order_id: i64,
    },
    /// The payment is no longer pending (expired, failed, cancelled): the caller takes the
    /// late-payment path.
    NotPending {
        order_id: i64,
    },
    UnknownPayment,
}

/// The one confirmation of a card or PIX payment part (the browser's check and the
/// webhook both come here), on the caller's transaction: a conditional update of the part,
/// then of the order once every part is paid. Running it twice changes nothing.
pub async fn confirm_payment(
    conn: &mut PgConnection,
    payment_id: i64,
) -> CommerceResult<Confirmation> {
    let found: Option<(i64, i64)> = sqlx::query_as(
        "SELECT o.id, o.checkout_id FROM payments p JOIN orders o ON o.id = p.order_id
          WHERE p.id = $1",
    )
    .bind(payment_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((order_id, checkout_id)) = found else {
        return Ok(Confirmation::UnknownPayment);
    };
    // The hold row first, like a release: the two never interleave.
    sqlx::query("SELECT 1 FROM checkouts WHERE id = $1 FOR UPDATE")
        .bind(checkout_id)
        .execute(&mut *conn)
        .await?;
    let confirmed = sqlx::query(
        "UPDATE payments SET status = 'paid', paid_at = now() WHERE id = $1 AND status = 'pending'",
    )
    .bind(payment_id)
    .execute(&mut *conn)
    .await?;
    if confirmed.rows_affected() == 0 {
        let status: PartStatus = sqlx::query_scalar("SELECT status FROM payments WHERE id = $1")
            .bind(payment_id)
            .fetch_one(&mut *conn)
            .await?;
        return Ok(if status == PartStatus::Paid {
            Confirmation::AlreadyPaid { order_id }
        } else {
            Confirmation::NotPending { order_id }
        });
    }
    let left: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM payments WHERE order_id = $1 AND status = 'pending'",
    )
    .bind(order_id)
    .fetch_one(&mut *conn)
    .await?;
    let order_paid = left == 0 && mark_paid(conn, order_id).await?;
    Ok(Confirmation::Confirmed {
        order_id,
        order_paid,
    })
}
