//! What a receipt and a voucher show, as plain data the rules gather from an order or a
//! voucher (`fulfilment`, `vouchers`); the `documents` crate renders them as PDF.

use chrono::{DateTime, Utc};

use crate::shared::money::StationCurrency;

/// What a receipt shows. Amounts in centavos as the order stores them, computed by the
/// checkout, never here; `cashback` in hundredths of a point, shown in the station's
/// currency.
#[derive(Debug, Clone)]
pub struct Receipt {
    pub station_name: String,
    /// The station's logo file (PNG, JPEG, WebP or GIF).
    pub logo: Option<Vec<u8>>,
    pub order_code: String,
    pub created_at: DateTime<Utc>,
    /// The station's: the document's dates are read on its clock.
    pub zone: crate::shared::time::Tz,
    pub member_name: String,
    /// The order status as members read it, e.g. "Pagamento confirmado".
    pub status: String,
    pub lines: Vec<ReceiptLine>,
    /// Where each of the order's activities goes or is picked up (one per activity with a
    /// place; none for digital products).
    pub deliveries: Vec<Delivery>,
    /// The products' sum (`product_items_sum_value`).
    pub items_cents: i64,
    /// Amounts taken off (coupon, delivery discount), each positive.
    pub discounts: Vec<Discount>,
    /// What the order costs after discounts, before the wallet (`final_value`).
    pub total_cents: i64,
    /// The part paid from the wallet balance.
    pub wallet_cents: i64,
    /// The part paid by card or PIX, if any.
    pub payment: Option<Payment>,
    /// Set once (part of) the order was refunded.
    pub refunded_cents: Option<i64>,
    pub cashback: Option<i64>,
    pub currency: StationCurrency,
    /// The order's validator link, printed as a QR code when present.
    pub validator_link: Option<String>,
}

#[derive(Debug, Clone)]
pub struct ReceiptLine {
    pub product: String,
    pub quantity: i64,
    pub unit_cents: i64,
    pub total_cents: i64,
}

/// Where an activity's products go (a delivery location) or are picked up; the fees are
/// added up in the totals.
#[derive(Debug, Clone)]
pub struct Delivery {
    pub location: String,
    pub pickup: bool,
    /// The member's address for home delivery, or the pickup point's.
    pub address: Option<String>,
    pub fee_cents: i64,
}

#[derive(Debug, Clone)]
pub struct Discount {
    pub label: String,
    pub cents: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentMethod {
    Card { installments: u32 },
    Pix,
}

#[derive(Debug, Clone, Copy)]
pub struct Payment {
    pub method: PaymentMethod,
    pub cents: i64,
}

#[derive(Debug, Clone)]
pub struct Voucher {
    pub station_name: String,
    /// The station's logo file (PNG, JPEG, WebP or GIF).
    pub logo: Option<Vec<u8>>,
    pub activity_name: String,
    pub member_name: String,
    /// Listed for family vouchers (`familiarVoucher`); empty otherwise.
    pub dependents: Vec<Dependent>,
    pub created_at: DateTime<Utc>,
    /// The station's: the document's dates are read on its clock.
    pub zone: crate::shared::time::Tz,
    /// The course's use-by date, when it has one.
    pub valid_until: Option<DateTime<Utc>>,
    /// Where the activity takes place (`local`).
    pub place: Option<String>,
    pub code: String,
    /// The activity's rules, HTML as staff wrote them; printed as plain text.
    pub rules_html: String,
    /// Partner host or app host plus the code: what the QR code holds.
    pub validator_link: String,
    /// `validated` is not '0'.
    pub used: bool,
}

/// A family voucher's dependent: `dependente` and `parentesco`.
#[derive(Debug, Clone)]
pub struct Dependent {
    pub name: String,
    pub relationship: String,
}
