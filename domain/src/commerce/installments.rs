//! Card installment options (`POST /calculate-installments`). Our rule (docs/decisions.md,
//! "Payments gateway"): no interest, the station absorbs the acquirer's cost; at most the
//! activity's maximum (12 by default) and no installment below R$ 5,00. The amount is split
//! in whole centavos; the first installment carries the leftover centavos, so the shown
//! `installment_amount` is the largest one and the installments add up to the amount.

use crate::shared::ids::Cents;

/// The most installments a card payment is split into when the activity allows them.
pub const MAX_INSTALLMENTS: u32 = 12;
/// The smallest installment (R$ 5,00).
pub const MIN_INSTALLMENT_CENTS: Cents = Cents(500);

/// One option: the installment count and the largest installment (centavos).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstallmentOption {
    pub installment: u32,
    pub installment_amount: Cents,
}

/// The options for `amount_cents`, 1x first; `max_installments` is 1 when the activity
/// does not allow installments. No option for a non-positive amount.
pub fn installment_options(amount_cents: Cents, max_installments: u32) -> Vec<InstallmentOption> {
    if amount_cents <= Cents::ZERO {
        return Vec::new();
    }
    let max = max_installments.clamp(1, MAX_INSTALLMENTS);
    (1..=max)
        .filter(|&n| n == 1 || Cents(amount_cents.0 / i64::from(n)) >= MIN_INSTALLMENT_CENTS)
        .map(|n| InstallmentOption {
            installment: n,
            installment_amount: first_installment(amount_cents, n),
        })
        .collect()
}

/// The options offered for `amount_cents` when the order's activities allow installments
/// (`allowed`) or not: what `POST /calculate-installments` answers, and the only counts an
/// order's card part is placed with.
pub fn offered(amount_cents: Cents, allowed: bool) -> Vec<InstallmentOption> {
    installment_options(amount_cents, if allowed { MAX_INSTALLMENTS } else { 1 })
}

/// The amounts of each installment of `amount_cents` in `count` parts (first carries the
/// leftover centavos); what a provider charges month by month.
pub fn split(amount_cents: Cents, count: u32) -> Vec<Cents> {
    let count = count.max(1);
    let base = amount_cents.0 / i64::from(count);
    let leftover = amount_cents.0 - base * i64::from(count);
    (0..count)
        .map(|i| Cents(if i == 0 { base + leftover } else { base }))
        .collect()
}

fn first_installment(amount_cents: Cents, count: u32) -> Cents {
    split(amount_cents, count)[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_without_interest_and_the_parts_add_up() {
        let options = installment_options(Cents(10_000), 12);
        assert_eq!(options.len(), 12);
        assert_eq!(
            options[0],
            InstallmentOption {
                installment: 1,
                installment_amount: Cents(10_000)
            }
        );
        assert_eq!(options[2].installment_amount, Cents(3_334)); // 33,34 + 33,33 + 33,33
        for option in &options {
            let parts = split(Cents(10_000), option.installment);
            assert_eq!(parts.iter().copied().sum::<Cents>(), Cents(10_000));
            assert_eq!(parts[0], option.installment_amount);
            assert!(
                parts[1..]
                    .iter()
                    .all(|&p| p == Cents(10_000 / i64::from(option.installment)))
            );
        }
    }

    #[test]
    fn no_installment_below_five_reais() {
        // R$ 24,99 in 5 would be R$ 4,99 each: only up to 4x.
        let options = installment_options(Cents(2_499), 12);
        assert_eq!(options.last().map(|o| o.installment), Some(4));
        // A small amount still has the single payment.
        assert_eq!(
            installment_options(Cents(300), 12),
            vec![InstallmentOption {
                installment: 1,
                installment_amount: Cents(300)
            }]
        );
    }

    #[test]
    fn the_activitys_maximum_and_ours_both_cap() {
        assert_eq!(installment_options(Cents(100_000), 1).len(), 1);
        assert_eq!(installment_options(Cents(100_000), 0).len(), 1);
        assert_eq!(installment_options(Cents(100_000), 3).len(), 3);
        assert_eq!(installment_options(Cents(10_000_000), 48).len(), 12);
        assert!(installment_options(Cents(0), 12).is_empty());
        assert!(installment_options(Cents(-5), 12).is_empty());
    }
}
