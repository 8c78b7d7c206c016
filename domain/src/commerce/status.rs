//! The states of the shop's rows, each the TEXT column it is stored in (with its
//! `CHECK (x IN (...))`), read and written by sqlx as the snake_case word: an order, a
//! payment part and its method, a hold, a refund and where it came from.

use crate::shared::text_enum;

text_enum!(
    /// An order's status (`orders.status`).
    OrderStatus {
        /// Its card or PIX part is not paid yet.
        Pending => "pending",
        Paid => "paid",
        /// Its PIX ran out or its charge was cancelled.
        Expired => "expired",
        /// Its card was declined.
        Declined => "declined",
        Cancelled => "cancelled",
        Refunded => "refunded",
        /// Some lines refunded, the others still paid for.
        PartiallyRefunded => "partially_refunded",
    }
);

impl OrderStatus {
    /// Paid for, whole or with some lines refunded: what has vouchers and is handed over.
    pub fn is_paid(self) -> bool {
        matches!(self, Self::Paid | Self::PartiallyRefunded)
    }

    /// The status as members read it.
    pub fn label(self) -> &'static str {
        match self {
            Self::Pending => "Aguardando pagamento",
            Self::Paid => "Pagamento confirmado",
            Self::Expired => "Pagamento expirado",
            Self::Declined => "Pagamento recusado",
            Self::Cancelled => "Cancelado",
            Self::Refunded => "Estornada",
            Self::PartiallyRefunded => "Parcialmente estornada",
        }
    }
}

text_enum!(
    /// A payment part's status (`payments.status`).
    PartStatus {
        Pending => "pending",
        Paid => "paid",
        /// A card declined.
        Failed => "failed",
        /// A PIX that ran out.
        Expired => "expired",
        /// A charge the provider cancelled.
        Cancelled => "cancelled",
        Refunded => "refunded",
    }
);

text_enum!(
    /// How a payment part is paid (`payments.method`).
    PartMethod {
        Wallet => "wallet",
        Card => "card",
        Pix => "pix",
    }
);

text_enum!(
    /// A hold's status (`checkouts.status`).
    HoldStatus {
        /// Live until its expiry.
        Held => "held",
        /// Its order was paid.
        Paid => "paid",
        /// Given back before its expiry (a declined card, an expired PIX).
        Released => "released",
        Expired => "expired",
    }
);

text_enum!(
    /// Who started a refund (`refunds.origin`).
    RefundOrigin {
        /// Support staff, from the console.
        Staff => "staff",
        /// The bank (MED, a chargeback).
        Bank => "bank",
        /// A late payment given back (its stock gone meanwhile).
        LatePayment => "late_payment",
    }
);

text_enum!(
    /// Where a refund is (`refunds.status`).
    RefundState {
        Pending => "pending",
        Done => "done",
        /// The provider refused it: its units may be refunded again.
        Failed => "failed",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_is_its_columns_word_in_json() {
        assert_eq!(
            serde_json::to_string(&OrderStatus::PartiallyRefunded).expect("json"),
            "\"partially_refunded\""
        );
        assert_eq!(RefundOrigin::LatePayment.as_str(), "late_payment");
        assert!(OrderStatus::PartiallyRefunded.is_paid());
        assert!(!OrderStatus::Refunded.is_paid());
    }
}
