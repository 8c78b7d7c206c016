//! Money as members read it. Amounts are integer centavos (`i64`) everywhere; this module
//! only turns them into text: Brazilian reais ("R$ 1.234,56") and a station's own currency
//! (spec 002: the amount times `currency_multiplier`, with `currency_name` before or after
//! it as `currency_name_position` says). The rules match the web app's `lib/currency.ts`,
//! so a PDF or an e-mail shows what the screen shows.

use rust_decimal::{Decimal, RoundingStrategy};

use crate::stations::station::Station;

/// Centavos as "1.234,56": dot between thousands, comma before the two decimals, a leading
/// "-" when negative.
pub fn format_cents(cents: i128) -> String {
    let digits = cents.unsigned_abs();
    let whole = (digits / 100).to_string();
    let mut grouped = String::with_capacity(whole.len() + whole.len() / 3);
    for (index, digit) in whole.chars().enumerate() {
        if index > 0 && (whole.len() - index).is_multiple_of(3) {
            grouped.push('.');
        }
        grouped.push(digit);
    }
    let sign = if cents < 0 { "-" } else { "" };
    format!("{sign}{grouped},{:02}", digits % 100)
}

/// An amount in reais as a form or a JSON number gives it ("10", "10.5", "10,50", a
/// thousands-free decimal with at most two places) in centavos; `None` for anything else,
/// a sign included, or an amount past `i64`.
pub fn parse_reais(text: &str) -> Option<i64> {
    let text = text.trim();
    let (whole, fraction) = match text.split_once(['.', ',']) {
        Some((whole, fraction)) => (whole, fraction),
        None => (text, ""),
    };
    let digits = |part: &str| part.chars().all(|c| c.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || fraction.len() > 2 {
        return None;
    }
    let cents: i64 = format!("{fraction:0<2}").parse().ok()?;
    whole
        .parse::<i64>()
        .ok()?
        .checked_mul(100)?
        .checked_add(cents)
}

/// Centavos as Brazilian reais: "R$ 1.234,56", "R$ 0,00", "-R$ 25,50" (the sign before the
/// symbol, as pt-BR number formatting writes it).
pub fn format_brl(cents: i64) -> String {
    let amount = format_cents(i128::from(cents).abs());
    if cents < 0 {
        format!("-R$ {amount}")
    } else {
        format!("R$ {amount}")
    }
}

/// Where a station writes its currency name: the stored `currency_name_position` is
/// `before_currency` or `after`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamePosition {
    Before,
    After,
}

impl NamePosition {
    /// Anything but `before_currency` reads as after, the column's default.
    pub fn from_stored(value: &str) -> Self {
        if value == "before_currency" {
            Self::Before
        } else {
            Self::After
        }
    }
}

/// How a station shows its currency (points, or money under another name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StationCurrency {
    pub multiplier: Decimal,
    pub name: String,
    pub position: NamePosition,
}

impl From<&Station> for StationCurrency {
    fn from(station: &Station) -> Self {
        Self {
            multiplier: station.currency_multiplier,
            name: station.currency_name.clone(),
            position: NamePosition::from_stored(&station.currency_name_position),
        }
    }
}

impl StationCurrency {
    /// Hundredths (of a point, or centavos) times the multiplier, still in hundredths,
    /// rounded half away from zero. Decimal arithmetic, so 0.01 or 2.5 add no float drift;
    /// a product beyond Decimal's 28 digits cannot come from an `i64` and a `NUMERIC(12, 4)`
    /// multiplier, and saturates if it ever did.
    pub fn apply_multiplier(&self, hundredths: i64) -> i128 {
        Decimal::from(hundredths)
            .checked_mul(self.multiplier)
            .map(|product| {
                product.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero)
            })
            .and_then(|rounded| i128::try_from(rounded).ok())
            .unwrap_or(if hundredths < 0 { i128::MIN } else { i128::MAX })
    }

    /// An amount of the station's currency: "50,00 Pontos", "R$ 0,50", or the bare amount
    /// when the station names no currency.
    pub fn format(&self, hundredths: i64) -> String {
        let amount = format_cents(self.apply_multiplier(hundredths));
        let name = self.name.trim();
        match (name.is_empty(), self.position) {
            (true, _) => amount,
            (false, NamePosition::Before) => format!("{name} {amount}"),
            (false, NamePosition::After) => format!("{amount} {name}"),
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn reais_are_read_into_centavos() {
        assert_eq!(parse_reais("10"), Some(1000));
        assert_eq!(parse_reais("0.5"), Some(50));
        assert_eq!(parse_reais("10,50"), Some(1050));
        assert_eq!(parse_reais(" 10000.00 "), Some(1_000_000));
        for bad in [
            "",
            "-1",
            "1.234,56",
            "1.005",
            "abc",
            ".5",
            "1e3",
            "99999999999999999999",
        ] {
            assert_eq!(parse_reais(bad), None, "{bad}");
        }
    }

    use super::*;

    fn currency(multiplier: &str, name: &str, position: &str) -> StationCurrency {
        StationCurrency {
            multiplier: multiplier.parse().expect("decimal"),
            name: name.to_owned(),
            position: NamePosition::from_stored(position),
        }
    }

    #[test]
    fn centavos_group_thousands_with_dots_and_decimals_with_a_comma() {
        for (cents, text) in [
            (0, "0,00"),
            (5, "0,05"),
            (50, "0,50"),
            (5000, "50,00"),
            (99_999, "999,99"),
            (100_000, "1.000,00"),
            (123_456, "1.234,56"),
            (123_456_789, "1.234.567,89"),
            (100_000_000, "1.000.000,00"),
            (-2550, "-25,50"),
            (-123_456_789, "-1.234.567,89"),
        ] {
            assert_eq!(format_cents(cents), text, "{cents}");
        }
    }

    #[test]
    fn reais_carry_the_symbol_and_the_sign_before_it() {
        assert_eq!(format_brl(123_456), "R$ 1.234,56");
        assert_eq!(format_brl(0), "R$ 0,00");
        assert_eq!(format_brl(7), "R$ 0,07");
        assert_eq!(format_brl(-2550), "-R$ 25,50");
        assert_eq!(format_brl(250_000_000), "R$ 2.500.000,00");
        assert_eq!(format_brl(i64::MAX), "R$ 92.233.720.368.547.758,07");
        assert_eq!(format_brl(i64::MIN), "-R$ 92.233.720.368.547.758,08");
    }

    #[test]
    fn station_amounts_follow_multiplier_name_and_position() {
        for (multiplier, name, position, hundredths, text) in [
            ("1", "Pontos", "after", 5000, "50,00 Pontos"),
            ("1", "Pontos", "before_currency", 5000, "Pontos 50,00"),
            ("0.01", "Pontos", "after", 5000, "0,50 Pontos"),
            ("0.01", "Pontos", "before_currency", 15050, "Pontos 1,51"),
            ("2.5", "Pontos", "after", 123_456, "3.086,40 Pontos"),
            ("2.5", "Pontos", "before_currency", 5000, "Pontos 125,00"),
            ("1", "R$", "before_currency", 1999, "R$ 19,99"),
            ("1", " ", "after", 1999, "19,99"),
            ("1", "Pontos", "after", -2550, "-25,50 Pontos"),
            (
                "1000",
                "Pontos",
                "after",
                123_456_789,
                "1.234.567.890,00 Pontos",
            ),
        ] {
            assert_eq!(
                currency(multiplier, name, position).format(hundredths),
                text,
                "{multiplier} {name} {position} {hundredths}"
            );
        }
    }

    #[test]
    fn the_multiplier_rounds_half_away_from_zero_without_drift() {
        let cents = currency("0.01", "Pontos", "after");
        // 15050 x 0.01 = 150.5 hundredths: a float product would give 150.50000000000003.
        assert_eq!(cents.apply_multiplier(15050), 151);
        assert_eq!(cents.apply_multiplier(15049), 150);
        assert_eq!(cents.apply_multiplier(-15050), -151);
        assert_eq!(cents.apply_multiplier(1), 0);
        let two_and_a_half = currency("2.5", "Pontos", "after");
        assert_eq!(two_and_a_half.apply_multiplier(3), 8);
        let large = currency("0.3", "Pontos", "after");
        assert_eq!(
            large.apply_multiplier(9_007_199_254_740_991),
            2_702_159_776_422_297
        );
    }

    #[test]
    fn an_unknown_position_reads_as_after() {
        assert_eq!(NamePosition::from_stored("after"), NamePosition::After);
        assert_eq!(NamePosition::from_stored(""), NamePosition::After);
        assert_eq!(
            NamePosition::from_stored("before_currency"),
            NamePosition::Before
        );
    }
}
