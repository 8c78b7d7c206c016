//! Commerce (spec 002, docs/api-commerce.md): the products of activities, the member's cart,
//! coupons, the hold one checkout keeps on stock, coupon use and wallet amount, and orders
//! with their payment parts. Money is integer centavos.

pub mod card_reminders;
pub mod cards;
pub mod cart;
pub mod catalogue;
pub mod checkout;
pub mod coupons;
pub mod documents;
pub mod fulfilment;
pub mod gateway;
pub mod installments;
pub mod members;
pub mod order_check;
pub mod order_view;
pub mod orders;
pub mod payment;
pub mod refunds;
pub mod status;
pub mod totals;
pub mod vouchers;

use crate::shared::NOT_AUTHORIZED;
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::money::format_brl;
use crate::wallet::ledger::LedgerError;
use installments::MIN_INSTALLMENT_CENTS;

/// The spec's stock text.
pub const OUT_OF_STOCK: &str = "O estoque desse(s) produto(s) está esgotado no momento.";
/// The spec's reservation-expired text (its toast title is 'Tempo de reserva esgotado').
pub const HOLD_EXPIRED: &str =
    "O tempo limite de reserva de produto para compra se esgotou. Por favor, comece novamente.";
pub const PRODUCT_NOT_FOUND: &str = "Produto não encontrado";
pub const ORDER_NOT_FOUND: &str = "Pedido não encontrado";
/// An installment count that is no whole number of at least 1.
pub const INSTALLMENTS_INVALID: &str = "Número de parcelas inválido.";
/// Installments asked where an activity of the order does not allow them.
pub const INSTALLMENTS_NOT_ALLOWED: &str =
    "Esta compra não pode ser parcelada: escolha o pagamento em 1x.";

/// A rule the member's request breaks; each has the Portuguese text the member reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    OutOfStock,
    OverLimit {
        limit: i64,
        product: String,
    },
    ProductNotFound,
    BadQuantity,
    EmptyCart,
    HoldExpired,
    CouponNotFound,
    CouponOutOfWindow,
    CouponExhausted,
    CouponAlreadyUsed,
    DeliveryRequired {
        action: String,
    },
    AddressRequired {
        action: String,
    },
    PaymentMethodRequired,
    /// A card installment count not among the options offered for the amount
    /// (`installments::offered`): `most` is the largest offered, `allowed` whether the
    /// order's activities allow installments at all.
    Installments {
        count: i32,
        most: u32,
        allowed: bool,
    },
    BalanceChanged,
    /// The station's checkout is off (`checkout_access`): 403.
    CheckoutClosed,
    /// The activity is not a shop type, or outside its window.
    NotForSale(crate::activities::participation::Refused),
}

impl Refusal {
    pub fn message(&self) -> String {
        match self {
            Self::OutOfStock => OUT_OF_STOCK.into(),
            Self::OverLimit { limit, product } => format!(
                "Você atingiu o limite de {limit} unidade(s) de \"{product}\" por participante."
            ),
            Self::ProductNotFound => PRODUCT_NOT_FOUND.into(),
            Self::BadQuantity => "A quantidade deve ser um número inteiro maior que zero.".into(),
            Self::EmptyCart => "Você ainda não possui itens no seu carrinho.".into(),
            Self::HoldExpired => HOLD_EXPIRED.into(),
            Self::CouponNotFound => "Cupom não encontrado.".into(),
            Self::CouponOutOfWindow => "Este cupom não está no período de validade.".into(),
            Self::CouponExhausted => "Este cupom atingiu o limite de usos.".into(),
            Self::CouponAlreadyUsed => "Você já utilizou este cupom.".into(),
            Self::DeliveryRequired { action } => {
                format!("Escolha o local de entrega ou retirada de \"{action}\".")
            }
            Self::AddressRequired { action } => {
                format!("Informe o endereço e o CEP de entrega de \"{action}\".")
            }
            Self::PaymentMethodRequired => "Escolha a forma de pagamento: cartão ou PIX.".into(),
            Self::Installments { count, .. } if *count < 1 => INSTALLMENTS_INVALID.into(),
            Self::Installments { allowed: false, .. } => INSTALLMENTS_NOT_ALLOWED.into(),
            Self::Installments { most: 1, .. } => format!(
                "Este valor não pode ser parcelado: a parcela mínima é de {}.",
                format_brl(MIN_INSTALLMENT_CENTS.0)
            ),
            Self::Installments { most, .. } => format!(
                "Este valor pode ser parcelado em até {most}x (parcela mínima de {}).",
                format_brl(MIN_INSTALLMENT_CENTS.0)
            ),
            Self::BalanceChanged => {
                "Seu saldo mudou durante a compra. Por favor, revise o pedido.".into()
            }
            Self::CheckoutClosed => NOT_AUTHORIZED.into(),
            Self::NotForSale(refused) => refused.message(),
        }
    }
}

/// A refusal is the member's to fix (422), a missing product a 404, a closed checkout 403.
impl IntoFailure for Refusal {
    fn into_failure(self) -> Failure {
        match self {
            Self::ProductNotFound => Failure::NotFound(self.message()),
            Self::CheckoutClosed => Failure::Forbidden(self.message()),
            _ => Failure::invalid(self.message()),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CommerceError {
    #[error("refused: {0:?}")]
    Refused(Refusal),
    #[error(transparent)]
    Ledger(LedgerError),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl From<Refusal> for CommerceError {
    fn from(refusal: Refusal) -> Self {
        Self::Refused(refusal)
    }
}

impl From<LedgerError> for CommerceError {
    fn from(err: LedgerError) -> Self {
        match err {
            LedgerError::Db(db) => Self::Db(db),
            other => Self::Ledger(other),
        }
    }
}

impl IntoFailure for CommerceError {
    fn into_failure(self) -> Failure {
        match self {
            Self::Refused(refusal) => refusal.into_failure(),
            Self::Ledger(err) => Failure::Internal(err.into()),
            Self::Db(err) => err.into_failure(),
        }
    }
}

pub type CommerceResult<T> = Result<T, CommerceError>;

/// Serialises one member's checkout work (confirming, placing): taken first in those
/// transactions, so a member's two tabs never build two holds or two orders at once.
pub(crate) async fn lock_member(conn: &mut sqlx::PgConnection, user_id: i64) -> sqlx::Result<()> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('commerce.member:' || $1, 0))")
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests;
