//! The cart's and order's totals exactly as spec 002 section 9 computes them, in integer
//! centavos, as a pure function: the server computes them and the web shows them.

use crate::shared::ids::Cents;

/// One product line: the product's prices and the quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    pub action_id: i64,
    pub value: Cents,
    pub discount_value: Cents,
    pub quantity: i64,
}

impl Line {
    /// `value - discount_value` when the discount is above 0, else `value`.
    pub fn unit_price(&self) -> Cents {
        if self.discount_value > Cents::ZERO {
            (self.value - self.discount_value).max(Cents::ZERO)
        } else {
            self.value
        }
    }

    /// Saturating: quantities and prices are bounded by CHECKs far below an overflow.
    pub fn price(&self) -> Cents {
        Cents(self.unit_price().0.saturating_mul(self.quantity))
    }
}

/// What an activity adds to the order besides its lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ActionTerms {
    pub action_id: i64,
    /// The activity's `discount_delivery`, subtracted from its items (floored at 0).
    pub discount_delivery: Cents,
    /// The chosen delivery location's price (0 when none is chosen yet, digital, pickup).
    pub delivery_price: Cents,
    /// Whole points of `points + additional_cashback`.
    pub cashback_points: i64,
    pub payment_only: bool,
}

/// The totals, every field in centavos.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Totals {
    /// Sum of line prices (after each product's own discount).
    pub product_items_sum_value: Cents,
    /// Sum of the chosen delivery prices.
    pub delivery_tax_value: Cents,
    /// Delivery discounts applied plus the coupon's discount applied.
    pub additional_discount_value: Cents,
    /// The coupon's part of `additional_discount_value`.
    pub coupon_discount_value: Cents,
    /// Items + delivery - discounts.
    pub total_final_value: Cents,
    /// What the wallet pays.
    pub wallet_value: Cents,
    /// What card or PIX pays.
    pub credit_card_value: Cents,
    /// `(points + additional_cashback) x 100` per activity.
    pub cashback_value: Cents,
}

/// Computes the totals. `coupon_discount` is the coupon's face value (it takes at most what
/// is left); `wallet_balance` the spendable balance (ignored when any activity is
/// payment-only).
pub fn compute(
    lines: &[Line],
    terms: &[ActionTerms],
    coupon_discount: Cents,
    wallet_balance: Cents,
) -> Totals {
    let mut totals = Totals::default();
    let mut actions: Vec<i64> = lines.iter().map(|line| line.action_id).collect();
    actions.sort_unstable();
    actions.dedup();
    let mut payment_only = false;
    let mut after_discounts = Cents::ZERO;
    for action_id in actions {
        let items: Cents = lines
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
        let discount = if term.discount_delivery > Cents::ZERO {
            term.discount_delivery.min(items)
        } else {
            Cents::ZERO
        };
        totals.product_items_sum_value += items;
        totals.delivery_tax_value += term.delivery_price;
        totals.additional_discount_value += discount;
        totals.cashback_value += Cents(term.cashback_points * 100);
        after_discounts += items - discount + term.delivery_price;
        payment_only |= term.payment_only;
    }
    let coupon = coupon_discount.clamp(Cents::ZERO, after_discounts);
    totals.coupon_discount_value = coupon;
    totals.additional_discount_value += coupon;
    totals.total_final_value = after_discounts - coupon;
    totals.wallet_value = if payment_only {
        Cents::ZERO
    } else {
        wallet_balance.clamp(Cents::ZERO, totals.total_final_value)
    };
    totals.credit_card_value = totals.total_final_value - totals.wallet_value;
    totals
}

/// One order line's part of the order's discounts and cashback, fixed at order time so a
/// partial refund gives back exactly that line's part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LineShare {
    /// The line's price less its share of its activity's delivery discount and of the
    /// coupon's part that fell on the items.
    pub net_amount: Cents,
    /// Its part of its activity's cashback, in centavos.
    pub cashback_share: Cents,
}

/// Splits the discounts and cashback of [`compute`] over the lines, in integers, in the
/// lines' order: an activity's delivery discount over its lines by price; the coupon over
/// every line by what is left of it (the part of the coupon larger than all items falls on
/// the delivery, and is in no line); an activity's cashback over its lines by price (by
/// quantity when they are all free). The leftover centavos of each split go on the last
/// line, or on the lines before it when the last has no room left.
pub fn split(lines: &[Line], terms: &[ActionTerms], coupon_discount: Cents) -> Vec<LineShare> {
    // Apportioned as plain integers of centavos, wrapped again in each share.
    let prices: Vec<i64> = lines.iter().map(|line| line.price().0).collect();
    let mut net = prices.clone();
    let mut cashback = vec![0; lines.len()];
    let mut actions: Vec<i64> = lines.iter().map(|line| line.action_id).collect();
    actions.sort_unstable();
    actions.dedup();
    let mut after_discounts = 0;
    for action_id in actions {
        let of_action: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].action_id == action_id)
            .collect();
        let term = terms
            .iter()
            .find(|term| term.action_id == action_id)
            .copied()
            .unwrap_or_default();
        let weights: Vec<i64> = of_action.iter().map(|&i| prices[i]).collect();
        let items: i64 = weights.iter().sum();
        let discount = term.discount_delivery.0.clamp(0, items);
        for (&i, part) in of_action.iter().zip(apportion(discount, &weights, true)) {
            net[i] -= part;
        }
        let by = if items > 0 {
            weights
        } else {
            of_action.iter().map(|&i| lines[i].quantity).collect()
        };
        let points = term.cashback_points.max(0).saturating_mul(100);
        for (&i, part) in of_action.iter().zip(apportion(points, &by, false)) {
            cashback[i] = part;
        }
        after_discounts += term.delivery_price.0 + items - discount;
    }
    let on_items = coupon_discount
        .0
        .clamp(0, after_discounts)
        .min(net.iter().sum());
    let coupon = apportion(on_items, &net, true);
    net.iter()
        .zip(coupon)
        .zip(cashback)
        .map(|((net, coupon), cashback_share)| LineShare {
            net_amount: Cents(net - coupon),
            cashback_share: Cents(cashback_share),
        })
        .collect()
}

/// `total` in parts proportional to `weights` (floored), the leftover on the last part.
/// `capped`: no part exceeds its weight (the caller keeps `total` within their sum), the
/// leftover moving back to earlier parts with room.
fn apportion(total: i64, weights: &[i64], capped: bool) -> Vec<i64> {
    let sum: i128 = weights.iter().map(|&w| i128::from(w.max(0))).sum();
    let mut parts: Vec<i64> = weights
        .iter()
        .map(|&w| {
            if sum == 0 {
                0
            } else {
                (i128::from(total) * i128::from(w.max(0)) / sum) as i64
            }
        })
        .collect();
    let mut left = total - parts.iter().sum::<i64>();
    for (part, &weight) in parts.iter_mut().zip(weights).rev() {
        if left == 0 {
            break;
        }
        let take = if capped {
            left.min(weight.max(0) - *part)
        } else {
            left
        };
        *part += take;
        left -= take;
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(action_id: i64, value: i64, discount_value: i64, quantity: i64) -> Line {
        Line {
            action_id,
            value: Cents(value),
            discount_value: Cents(discount_value),
            quantity,
        }
    }

    #[test]
    fn the_discounted_price_counts_only_when_the_discount_is_positive() {
        assert_eq!(line(1, 5000, 0, 3).price(), Cents(15000));
        assert_eq!(line(1, 5000, 1250, 2).price(), Cents(7500));
    }

    #[test]
    fn a_delivery_order_subtracts_its_delivery_discount_from_the_items_floored_at_zero() {
        // Two shirts at R$ 49,90 less R$ 10,00 each, shipping R$ 15,00, delivery discount
        // R$ 5,00: items 79,80 - 5,00 + 15,00 = 89,80.
        let lines = [line(7, 4990, 1000, 2)];
        let terms = [ActionTerms {
            action_id: 7,
            discount_delivery: Cents(500),
            delivery_price: Cents(1500),
            cashback_points: 3,
            payment_only: false,
        }];
        let totals = compute(&lines, &terms, Cents(0), Cents(0));
        assert_eq!(totals.product_items_sum_value, Cents(7980));
        assert_eq!(totals.delivery_tax_value, Cents(1500));
        assert_eq!(totals.additional_discount_value, Cents(500));
        assert_eq!(totals.total_final_value, Cents(8980));
        assert_eq!(totals.cashback_value, Cents(300));
        assert_eq!(totals.credit_card_value, Cents(8980));

        // A delivery discount larger than the items leaves the items at 0, shipping stays.
        let terms = [ActionTerms {
            discount_delivery: Cents(10_000),
            ..terms[0]
        }];
        let totals = compute(&lines, &terms, Cents(0), Cents(0));
        assert_eq!(totals.additional_discount_value, Cents(7980));
        assert_eq!(totals.total_final_value, Cents(1500));
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
                delivery_price: Cents(800),
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
        let totals = compute(&lines, &terms, Cents(0), Cents(3000));
        assert_eq!(totals.product_items_sum_value, Cents(10_000));
        assert_eq!(totals.total_final_value, Cents(10_800));
        assert_eq!(totals.wallet_value, Cents(3000));
        assert_eq!(totals.credit_card_value, Cents(7800));
        assert_eq!(totals.cashback_value, Cents(700));

        // The wallet covers all: nothing is left for card or PIX.
        let totals = compute(&lines, &terms, Cents(0), Cents(50_000));
        assert_eq!(totals.wallet_value, Cents(10_800));
        assert_eq!(totals.credit_card_value, Cents(0));
    }

    #[test]
    fn a_coupon_takes_at_most_the_total_and_payment_only_skips_the_wallet() {
        let lines = [line(1, 2500, 0, 1)];
        let terms = [ActionTerms {
            action_id: 1,
            payment_only: true,
            ..ActionTerms::default()
        }];
        let totals = compute(&lines, &terms, Cents(1000), Cents(10_000));
        assert_eq!(totals.coupon_discount_value, Cents(1000));
        assert_eq!(totals.additional_discount_value, Cents(1000));
        assert_eq!(totals.total_final_value, Cents(1500));
        assert_eq!(totals.wallet_value, Cents(0));
        assert_eq!(totals.credit_card_value, Cents(1500));

        let totals = compute(&lines, &terms, Cents(9000), Cents(0));
        assert_eq!(totals.coupon_discount_value, Cents(2500));
        assert_eq!(totals.total_final_value, Cents(0));
        assert_eq!(totals.credit_card_value, Cents(0));
    }

    #[test]
    fn discounts_and_cashback_split_over_the_lines_in_whole_centavos() {
        // Activity 1: three lines at 3, 3 and 1 reais less a 6-real delivery discount;
        // activity 2: one line. A coupon of 4,01 over everything.
        let lines = [
            line(1, 300, 0, 1),
            line(1, 300, 0, 1),
            line(1, 100, 0, 1),
            line(2, 1000, 0, 2),
        ];
        let terms = [
            ActionTerms {
                action_id: 1,
                discount_delivery: Cents(600),
                delivery_price: Cents(500),
                cashback_points: 1,
                ..ActionTerms::default()
            },
            ActionTerms {
                action_id: 2,
                cashback_points: 3,
                ..ActionTerms::default()
            },
        ];
        let totals = compute(&lines, &terms, Cents(401), Cents(0));
        let shares = split(&lines, &terms, totals.coupon_discount_value);
        assert_eq!(shares.len(), 4);
        assert!(shares.iter().all(|s| s.net_amount >= Cents::ZERO));
        let lines_net: Cents = shares.iter().map(|s| s.net_amount).sum();
        assert_eq!(
            lines_net + totals.delivery_tax_value,
            totals.total_final_value
        );
        // No line is discounted beyond its own price.
        for (share, line) in shares.iter().zip(&lines) {
            assert!(share.net_amount <= line.price());
        }
        // 100 centavos of cashback over 300, 300 and 100: 42, 42, and the leftover 16.
        let cashback: Vec<Cents> = shares.iter().map(|s| s.cashback_share).collect();
        assert_eq!(cashback, [42, 42, 16, 300].map(Cents));
        assert_eq!(cashback.into_iter().sum::<Cents>(), totals.cashback_value);

        // A coupon larger than every item: the lines reach 0, the rest is on the delivery.
        let totals = compute(&lines, &terms, Cents(1_000_000), Cents(0));
        let shares = split(&lines, &terms, totals.coupon_discount_value);
        assert!(shares.iter().all(|s| s.net_amount == Cents::ZERO));
        assert_eq!(totals.total_final_value, Cents(0));
    }

    #[test]
    fn apportioning_never_gives_a_part_more_than_its_weight_when_capped() {
        assert_eq!(apportion(6, &[3, 3, 1], true), [2, 3, 1]);
        assert_eq!(apportion(6, &[3, 3, 1], false), [2, 2, 2]);
        assert_eq!(apportion(5, &[0, 0], false), [0, 5]);
        for total in 0..=700 {
            let parts = apportion(total, &[300, 300, 100], true);
            assert_eq!(parts.iter().sum::<i64>(), total);
            assert!(
                parts
                    .iter()
                    .zip([300, 300, 100])
                    .all(|(p, w)| (0..=w).contains(p))
            );
        }
    }
}
