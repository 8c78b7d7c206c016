//! The cart's and order's totals exactly as spec 002 section 9 computes them, in integer
//! centavos, as a pure function: the server computes them and the web shows them.

use serde::Serialize;

/// One product line: the product's prices and the quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    pub action_id: i64,
    pub value: i64,
    pub discount_value: i64,
    pub quantity: i64,
}

impl Line {
    /// `value - discount_value` when the discount is above 0, else `value`.
    pub fn unit_price(&self) -> i64 {
        if self.discount_value > 0 {
            (self.value - self.discount_value).max(0)
        } else {
            self.value
        }
    }

    pub fn price(&self) -> i64 {
        self.unit_price() * self.quantity
    }
}

/// What an activity adds to the order besides its lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ActionTerms {
    pub action_id: i64,
    /// The activity's `discount_delivery`, subtracted from its items (floored at 0).
    pub discount_delivery: i64,
    /// The chosen delivery location's price (0 when none is chosen yet, digital, pickup).
    pub delivery_price: i64,
    /// Whole points of `points + additional_cashback`.
    pub cashback_points: i64,
    pub payment_only: bool,
}

/// The totals, every field in centavos.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, utoipa::ToSchema)]
pub struct Totals {
    /// Sum of line prices (after each product's own discount).
    pub product_items_sum_value: i64,
    /// Sum of the chosen delivery prices.
    pub delivery_tax_value: i64,
    /// Delivery discounts applied plus the coupon's discount applied.
    pub additional_discount_value: i64,
    /// The coupon's part of `additional_discount_value`.
    pub coupon_discount_value: i64,
    /// Items + delivery - discounts.
    pub total_final_value: i64,
    /// What the wallet pays.
    pub wallet_value: i64,
    /// What card or PIX pays.
    pub credit_card_value: i64,
    /// `(points + additional_cashback) x 100` per activity.
    pub cashback_value: i64,
}

/// Computes the totals. `coupon_discount` is the coupon's face value (it takes at most what
/// is left); `wallet_balance` the spendable balance (ignored when any activity is
/// payment-only).
pub fn compute(
    lines: &[Line],
    terms: &[ActionTerms],
    coupon_discount: i64,
    wallet_balance: i64,
) -> Totals {
    let mut totals = Totals::default();
    let mut actions: Vec<i64> = lines.iter().map(|line| line.action_id).collect();
    actions.sort_unstable();
    actions.dedup();
    let mut payment_only = false;
    let mut after_discounts = 0;
    for action_id in actions {
        let items: i64 = lines
            .iter()
            .filter(|line| line.action_id == action_id)
            .map(Line::price)
            .sum();
        let term = terms
            .iter()
            .find(|term| term.action_id == action_id)
            .copied()
            .unwrap_or(ActionTerms {
                action_id,
                ..ActionTerms::default()
            });
        let discount = if term.discount_delivery > 0 {
            term.discount_delivery.min(items)
        } else {
            0
        };
        totals.product_items_sum_value += items;
        totals.delivery_tax_value += term.delivery_price;
        totals.additional_discount_value += discount;
        totals.cashback_value += term.cashback_points * 100;
        after_discounts += items - discount + term.delivery_price;
        payment_only |= term.payment_only;
    }
    let coupon = coupon_discount.clamp(0, after_discounts);
    totals.coupon_discount_value = coupon;
    totals.additional_discount_value += coupon;
    totals.total_final_value = after_discounts - coupon;
    totals.wallet_value = if payment_only {
        0
    } else {
        wallet_balance.clamp(0, totals.total_final_value)
    };
    totals.credit_card_value = totals.total_final_value - totals.wallet_value;
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(action_id: i64, value: i64, discount_value: i64, quantity: i64) -> Line {
        Line {
            action_id,
            value,
            discount_value,
            quantity,
        }
    }

    #[test]
    fn the_discounted_price_counts_only_when_the_discount_is_positive() {
        assert_eq!(line(1, 5000, 0, 3).price(), 15000);
        assert_eq!(line(1, 5000, 1250, 2).price(), 7500);
    }

    #[test]
    fn a_delivery_order_subtracts_its_delivery_discount_from_the_items_floored_at_zero() {
        // Two shirts at R$ 49,90 less R$ 10,00 each, shipping R$ 15,00, delivery discount
        // R$ 5,00: items 79,80 - 5,00 + 15,00 = 89,80.
        let lines = [line(7, 4990, 1000, 2)];
        let terms = [ActionTerms {
            action_id: 7,
            discount_delivery: 500,
            delivery_price: 1500,
            cashback_points: 3,
            payment_only: false,
        }];
        let totals = compute(&lines, &terms, 0, 0);
        assert_eq!(totals.product_items_sum_value, 7980);
        assert_eq!(totals.delivery_tax_value, 1500);
        assert_eq!(totals.additional_discount_value, 500);
        assert_eq!(totals.total_final_value, 8980);
        assert_eq!(totals.cashback_value, 300);
        assert_eq!(totals.credit_card_value, 8980);

        // A delivery discount larger than the items leaves the items at 0, shipping stays.
        let terms = [ActionTerms {
            discount_delivery: 10_000,
            ..terms[0]
        }];
        let totals = compute(&lines, &terms, 0, 0);
        assert_eq!(totals.additional_discount_value, 7980);
        assert_eq!(totals.total_final_value, 1500);
    }

    #[test]
    fn activities_add_up_and_the_wallet_pays_what_it_can() {
        let lines = [
            line(1, 2000, 0, 1),
            line(2, 3000, 500, 2),
            line(1, 1000, 0, 3),
        ];
        let terms = [
            ActionTerms {
                action_id: 1,
                delivery_price: 800,
                cashback_points: 2,
                ..ActionTerms::default()
            },
            ActionTerms {
                action_id: 2,
                cashback_points: 5,
                ..ActionTerms::default()
            },
        ];
        // Items 2000 + 3000 + 5000 = 10000, delivery 800: 10800.
        let totals = compute(&lines, &terms, 0, 3000);
        assert_eq!(totals.product_items_sum_value, 10_000);
        assert_eq!(totals.total_final_value, 10_800);
        assert_eq!(totals.wallet_value, 3000);
        assert_eq!(totals.credit_card_value, 7800);
        assert_eq!(totals.cashback_value, 700);

        // The wallet covers all: nothing is left for card or PIX.
        let totals = compute(&lines, &terms, 0, 50_000);
        assert_eq!(totals.wallet_value, 10_800);
        assert_eq!(totals.credit_card_value, 0);
    }

    #[test]
    fn a_coupon_takes_at_most_the_total_and_payment_only_skips_the_wallet() {
        let lines = [line(1, 2500, 0, 1)];
        let terms = [ActionTerms {
            action_id: 1,
            payment_only: true,
            ..ActionTerms::default()
        }];
        let totals = compute(&lines, &terms, 1000, 10_000);
        assert_eq!(totals.coupon_discount_value, 1000);
        assert_eq!(totals.additional_discount_value, 1000);
        assert_eq!(totals.total_final_value, 1500);
        assert_eq!(totals.wallet_value, 0);
        assert_eq!(totals.credit_card_value, 1500);

        let totals = compute(&lines, &terms, 9000, 0);
        assert_eq!(totals.coupon_discount_value, 2500);
        assert_eq!(totals.total_final_value, 0);
        assert_eq!(totals.credit_card_value, 0);
    }
}
