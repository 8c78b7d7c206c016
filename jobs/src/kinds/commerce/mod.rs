//! The shop's jobs: releasing a checkout's hold at its expiry; after payment, confirming
//! the order (vouchers, cashback, receipt e-mail) and making its PDFs; refunds.

pub mod order_confirm;
mod pdf;
pub mod receipt_pdf;
pub mod refund;
pub mod reservation_release;
pub mod voucher_pdf;
