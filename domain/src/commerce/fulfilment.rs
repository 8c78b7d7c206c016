//! After payment (`order.confirm`): a paid order's vouchers (once), the cashback each of its
//! lines earns, the receipt e-mail, and the data its receipt PDF is made of. Everything
//! here is idempotent: the job that calls it may run twice and nothing doubles (voucher
//! rows are unique per line and unit, credits per line, the jobs per order).

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::CommerceResult;
use super::documents;
use super::status::{OrderStatus, PartMethod};
use super::vouchers;
use crate::infra::mail::{Branding, Button, Notice, OutgoingMail};
use crate::shared::ids::{ActivityId, StationId, UserId};
use crate::shared::money::{StationCurrency, format_brl};
use crate::stations::station::{self, Station};
use crate::wallet::ledger::{Credit, SourceKind};
use crate::wallet::rules;

/// Activity types whose cashback waits for the partner's confirmation (spec 001, "Cashback
/// release per type"): 3 paid coupon or voucher, 4 presential course.
pub const PARTNER_CONFIRMED_TYPES: [i16; 2] = [3, 4];

/// What one confirmation found to do; the job enqueues it on the same transaction.
#[derive(Debug, Clone)]
pub struct Confirmed {
    pub order_id: i64,
    pub station_id: i64,
    pub user_id: i64,
    /// Every voucher of the order (new or made before), for their PDFs.
    pub voucher_ids: Vec<i64>,
    /// One credit per line that earns cashback, keyed by the line.
    pub credits: Vec<Credit>,
    /// The receipt e-mail, when the member has an address.
    pub mail: Option<OutgoingMail>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
struct PaidOrder {
    station_id: i64,
    user_id: i64,
    code: String,
    total_final_value: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
struct LineRow {
    id: i64,
    action_id: i64,
    action_type: i16,
    /// The line's part of its activity's cashback, fixed when the order was placed.
    cashback_share: i64,
    product: String,
    quantity: i32,
    unit_price: i64,
}

/// Whose an order is: its station and member (the owner of the jobs that follow it).
pub async fn order_owner(conn: &mut PgConnection, order_id: i64) -> sqlx::Result<(i64, i64)> {
    sqlx::query_as("SELECT station_id, user_id FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_one(conn)
        .await
}

/// The source id of the credit an order line earns: the key refunds reverse it by.
pub fn line_source(order_line_id: i64) -> String {
    format!("order_line:{order_line_id}")
}

/// Confirms a paid order on the caller's transaction: creates its vouchers (once) and
/// answers the credits and e-mail to enqueue. `None` when the order is not (or no longer)
/// paid: nothing is owed for an order that was not paid.
pub async fn confirm(
    conn: &mut PgConnection,
    order_id: i64,
    public_url: &str,
) -> CommerceResult<Option<Confirmed>> {
    let order: Option<PaidOrder> = sqlx::query_as(
        "SELECT station_id, user_id, code, total_final_value FROM orders
          WHERE id = $1 AND status IN ('paid', 'partially_refunded') FOR UPDATE",
    )
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(order) = order else {
        return Ok(None);
    };
    vouchers::create_for_order(conn, order_id).await?;
    let voucher_ids = vouchers::ids_of_order(conn, order_id).await?;
    let lines = lines(conn, order_id).await?;
    let credits = cashback_credits(&order, &lines);
    let station = station::find(&mut *conn, order.station_id).await?;
    let member: Option<(String, Option<String>)> =
        sqlx::query_as("SELECT name, email FROM users WHERE id = $1")
            .bind(order.user_id)
            .fetch_optional(&mut *conn)
            .await?;
    let mail = match (station, member) {
        (Some(station), Some((name, Some(email)))) => Some(receipt_mail(
            &station,
            public_url,
            order_id,
            &order,
            &lines,
            !voucher_ids.is_empty(),
            &name,
            &email,
        )),
        _ => None,
    };
    Ok(Some(Confirmed {
        order_id,
        station_id: order.station_id,
        user_id: order.user_id,
        voucher_ids,
        credits,
        mail,
    }))
}

/// The cashback credits a paid order's lines earn (one per line that earns any).
pub async fn line_credits(conn: &mut PgConnection, order_id: i64) -> sqlx::Result<Vec<Credit>> {
    let order: Option<PaidOrder> = sqlx::query_as(
        "SELECT station_id, user_id, code, total_final_value FROM orders WHERE id = $1",
    )
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(order) = order else {
        return Ok(Vec::new());
    };
    let lines = lines(conn, order_id).await?;
    Ok(cashback_credits(&order, &lines))
}

async fn lines(conn: &mut PgConnection, order_id: i64) -> sqlx::Result<Vec<LineRow>> {
    sqlx::query_as(
        "SELECT l.id, l.action_id, a.type_id::int2 AS action_type, l.cashback_share,
                p.name AS product, l.quantity, l.unit_price
           FROM order_lines l
           JOIN actions a ON a.id = l.action_id
           JOIN products p ON p.id = l.product_id
          WHERE l.order_id = $1 ORDER BY l.id",
    )
    .bind(order_id)
    .fetch_all(&mut *conn)
    .await
}

/// Each line earns the share of its activity's cashback fixed when the order was placed
/// (`order_lines.cashback_share`, `totals::split`), so a change to the activity's points
/// afterwards changes nothing, and refunding a line reverses exactly what that line earned.
fn cashback_credits(order: &PaidOrder, lines: &[LineRow]) -> Vec<Credit> {
    lines
        .iter()
        .filter(|line| line.cashback_share > 0)
        .map(|line| {
            let rule = if PARTNER_CONFIRMED_TYPES.contains(&line.action_type) {
                rules::PURCHASE_CASHBACK_ON_VALIDATION
            } else {
                rules::PURCHASE_CASHBACK
            };
            Credit {
                user_id: UserId(order.user_id),
                station_id: StationId(order.station_id),
                source_kind: SourceKind::Purchase,
                source_id: line_source(line.id),
                rule: rule.into(),
                amount: line.cashback_share,
                description: format!("Cashback do pedido {}", order.code),
                action_id: Some(ActivityId(line.action_id)),
            }
        })
        .collect()
}

pub const RECEIPT_SUBJECT: &str = "Pedido confirmado";

#[allow(clippy::too_many_arguments)]
fn receipt_mail(
    station: &Station,
    public_url: &str,
    order_id: i64,
    order: &PaidOrder,
    lines: &[LineRow],
    has_vouchers: bool,
    name: &str,
    email: &str,
) -> OutgoingMail {
    let first_name = name.split_whitespace().next().unwrap_or_default();
    let mut paragraphs = vec![format!(
        "Olá, {first_name}! O pagamento do seu pedido nº {} foi confirmado.",
        order.code
    )];
    paragraphs.push(
        lines
            .iter()
            .map(|l| {
                format!(
                    "{} x {}: {}",
                    l.quantity,
                    l.product,
                    format_brl(l.unit_price * i64::from(l.quantity))
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
    );
    paragraphs.push(format!("Total: {}", format_brl(order.total_final_value)));
    if has_vouchers {
        paragraphs.push("Seus vouchers já estão disponíveis em Meus vouchers.".into());
    }
    paragraphs.push("O comprovante em PDF pode ser baixado na página do pedido.".into());
    let notice = Notice {
        heading: format!("Pedido nº {} confirmado", order.code),
        paragraphs,
        button: Some(Button {
            label: "Ver comprovante".into(),
            url: format!(
                "{}/homepage/pedidos/{order_id}",
                station.url.trim_end_matches('/')
            ),
        }),
    };
    OutgoingMail::notice(
        &Branding::of(station, public_url),
        email.to_string(),
        format!("{RECEIPT_SUBJECT}: nº {}", order.code),
        &notice,
    )
}

/// Where validator links point: the partner's own host when the activity has a partner
/// with one, else the station's app host.
pub fn validator_base(station_url: &str, partner_host: Option<&str>) -> String {
    match partner_host.filter(|h| !h.is_empty()) {
        Some(host) => format!("https://{host}"),
        None => station_url.trim_end_matches('/').to_string(),
    }
}

/// A voucher's validator link: `{base}/validador/{code}`.
pub fn voucher_link(base: &str, code: &str) -> String {
    format!("{base}/validador/{code}")
}

/// An order's validator link: `{base}/validador/pedido/{code}`.
pub fn order_link(base: &str, code: &str) -> String {
    format!("{base}/validador/pedido/{code}")
}

/// A stored document and what a PDF job needs to make it when it is not there yet.
#[derive(Debug, Clone)]
pub struct Document<T> {
    /// The object key of the PDF made before.
    pub stored: Option<String>,
    /// The station's logo as an object key, when it is one of ours.
    pub logo_key: Option<String>,
    pub data: T,
}

#[derive(Debug, sqlx::FromRow)]
struct ReceiptRow {
    code: String,
    status: OrderStatus,
    created_at: DateTime<Utc>,
    station_id: i64,
    member_name: String,
    product_items_sum_value: i64,
    additional_discount_value: i64,
    total_final_value: i64,
    wallet_value: i64,
    credit_card_value: i64,
    cashback_value: i64,
    refunded_value: i64,
    receipt_key: Option<String>,
    partner_host: Option<String>,
}

/// The receipt of an order as the PDF shows it. `None` for an unknown order.
pub async fn receipt_document(
    conn: &mut PgConnection,
    order_id: i64,
) -> CommerceResult<Option<Document<documents::Receipt>>> {
    let row: Option<ReceiptRow> = sqlx::query_as(
        "SELECT o.code, o.status, o.created_at, o.station_id, u.name AS member_name,
                o.product_items_sum_value, o.additional_discount_value, o.total_final_value,
                o.wallet_value, o.credit_card_value, o.cashback_value, o.refunded_value,
                o.receipt_key, pa.validator_host AS partner_host
           FROM orders o
           JOIN users u ON u.id = o.user_id
           LEFT JOIN LATERAL (
               SELECT a.partner_id FROM order_lines l JOIN actions a ON a.id = l.action_id
                WHERE l.order_id = o.id ORDER BY l.id LIMIT 1) first ON true
           LEFT JOIN partners pa ON pa.id = first.partner_id
          WHERE o.id = $1",
    )
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let Some(station) = station::find(&mut *conn, row.station_id).await? else {
        return Ok(None);
    };
    let lines = lines(conn, order_id).await?;
    let deliveries = order_deliveries(conn, order_id).await?;
    let gateway: Option<(PartMethod, i32)> = sqlx::query_as(
        "SELECT method, installments FROM payments
          WHERE order_id = $1 AND method <> 'wallet' ORDER BY id DESC LIMIT 1",
    )
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?;
    let base = validator_base(&station.url, row.partner_host.as_deref());
    let receipt = documents::Receipt {
        station_name: station.name.clone(),
        logo: None,
        order_code: row.code.clone(),
        created_at: row.created_at,
        zone: station.zone(),
        member_name: row.member_name,
        status: row.status.label().to_string(),
        lines: lines
            .iter()
            .map(|l| documents::ReceiptLine {
                product: l.product.clone(),
                quantity: i64::from(l.quantity),
                unit_cents: l.unit_price,
                total_cents: l.unit_price * i64::from(l.quantity),
            })
            .collect(),
        deliveries: deliveries
            .into_iter()
            .map(|d| documents::Delivery {
                location: d.location,
                pickup: d.pickup,
                address: d.address,
                fee_cents: d.fee_cents,
            })
            .collect(),
        items_cents: row.product_items_sum_value,
        discounts: if row.additional_discount_value > 0 {
            vec![documents::Discount {
                label: "Descontos".into(),
                cents: row.additional_discount_value,
            }]
        } else {
            Vec::new()
        },
        total_cents: row.total_final_value,
        wallet_cents: row.wallet_value,
        payment: gateway
            .filter(|_| row.credit_card_value > 0)
            .map(|(method, installments)| documents::Payment {
                method: if method == PartMethod::Pix {
                    documents::PaymentMethod::Pix
                } else {
                    documents::PaymentMethod::Card {
                        installments: installments.max(1) as u32,
                    }
                },
                cents: row.credit_card_value,
            }),
        refunded_cents: (row.refunded_value > 0).then_some(row.refunded_value),
        cashback: (row.cashback_value > 0).then_some(row.cashback_value),
        currency: StationCurrency::from(&station),
        validator_link: Some(order_link(&base, &row.code)),
    };
    Ok(Some(Document {
        stored: row.receipt_key,
        logo_key: logo_key(&station),
        data: receipt,
    }))
}

/// Where an order's deliveries go: one per activity with a location.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DeliveryRow {
    pub action_id: i64,
    pub location: String,
    pub pickup: bool,
    /// The member's address for a home delivery, the location's for a pickup.
    pub address: Option<String>,
    pub fee_cents: i64,
}

pub async fn order_deliveries(
    conn: &mut PgConnection,
    order_id: i64,
) -> sqlx::Result<Vec<DeliveryRow>> {
    sqlx::query_as(
        "SELECT d.action_id, dl.name AS location, NOT dl.delivery AS pickup,
                CASE WHEN dl.delivery
                     THEN nullif(concat_ws(', ', d.address, d.number, d.zipcode), '')
                     ELSE nullif(concat_ws(', ', dl.street, dl.street_number, dl.zipcode), '')
                END AS address,
                d.price AS fee_cents
           FROM order_deliveries d JOIN delivery_locations dl ON dl.id = d.delivery_location_id
          WHERE d.order_id = $1 ORDER BY d.action_id",
    )
    .bind(order_id)
    .fetch_all(conn)
    .await
}

/// The station's logo as an object key of ours (a seeded path elsewhere is not).
pub fn logo_key(station: &Station) -> Option<String> {
    station
        .logo_image
        .as_deref()
        .and_then(crate::infra::objects::Objects::key_of_url)
        .map(str::to_string)
}

/// What has been refunded of an order (0 for none, or an unknown order): the version of
/// its receipt.
pub async fn refunded_cents(conn: &mut PgConnection, order_id: i64) -> sqlx::Result<i64> {
    let refunded: Option<i64> =
        sqlx::query_scalar("SELECT refunded_value FROM orders WHERE id = $1")
            .bind(order_id)
            .fetch_optional(conn)
            .await?;
    Ok(refunded.unwrap_or(0))
}

/// Records where an order's receipt PDF is, made when `refunded_cents` had been refunded; a
/// receipt recorded before is kept (a second run lost a race) and its key answered. `None`
/// when a refund applied since made this one out of date: the next download makes another.
pub async fn record_receipt(
    conn: &mut PgConnection,
    order_id: i64,
    key: &str,
    refunded_cents: i64,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "UPDATE orders SET receipt_key = coalesce(receipt_key, $2)
          WHERE id = $1 AND refunded_value = $3
         RETURNING receipt_key",
    )
    .bind(order_id)
    .bind(key)
    .bind(refunded_cents)
    .fetch_optional(&mut *conn)
    .await
}

/// What the receipt download needs of an order of the station.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReceiptState {
    pub user_id: i64,
    pub code: String,
    pub status: OrderStatus,
    pub receipt_key: Option<String>,
}

impl ReceiptState {
    /// A receipt is made once the order is paid (also after a refund).
    pub fn has_receipt(&self) -> bool {
        self.status.is_paid() || self.status == OrderStatus::Refunded
    }
}

pub async fn receipt_state(
    conn: &mut PgConnection,
    station_id: i64,
    order_id: i64,
) -> sqlx::Result<Option<ReceiptState>> {
    sqlx::query_as(
        "SELECT user_id, code, status, receipt_key FROM orders WHERE id = $1 AND station_id = $2",
    )
    .bind(order_id)
    .bind(station_id)
    .fetch_optional(&mut *conn)
    .await
}
