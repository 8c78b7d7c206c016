//! CNPJ, the Brazilian company tax id: 14 digits, the last two being check digits.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A CNPJ whose check digits hold. Stored and sent as its 14 digits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Cnpj(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("CNPJ inválido")]
pub struct InvalidCnpj;

impl Cnpj {
    pub fn digits(&self) -> &str {
        &self.0
    }

    /// The display mask of the spec: 00.000.000/0000-00.
    pub fn formatted(&self) -> String {
        let d = &self.0;
        format!(
            "{}.{}.{}/{}-{}",
            &d[0..2],
            &d[2..5],
            &d[5..8],
            &d[8..12],
            &d[12..14]
        )
    }
}

impl FromStr for Cnpj {
    type Err = InvalidCnpj;

    /// Accepts the bare digits or the masked form.
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        let digits: Vec<u32> = value
            .chars()
            .filter(|c| !matches!(c, '.' | '/' | '-' | ' '))
            .map(|c| c.to_digit(10).ok_or(InvalidCnpj))
            .collect::<Result<_, _>>()?;
        if digits.len() != 14 || digits.iter().all(|d| *d == digits[0]) {
            return Err(InvalidCnpj);
        }
        let check = |len: usize| {
            let weights = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
            let offset = weights.len() - len;
            let sum: u32 = digits[..len]
                .iter()
                .zip(&weights[offset..])
                .map(|(d, w)| d * w)
                .sum();
            match sum % 11 {
                0 | 1 => 0,
                rest => 11 - rest,
            }
        };
        if check(12) != digits[12] || check(13) != digits[13] {
            return Err(InvalidCnpj);
        }
        Ok(Self(
            digits
                .iter()
                .map(|d| char::from_digit(*d, 10).unwrap_or('0'))
                .collect(),
        ))
    }
}

impl TryFrom<String> for Cnpj {
    type Error = InvalidCnpj;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        value.parse()
    }
}

impl From<Cnpj> for String {
    fn from(cnpj: Cnpj) -> Self {
        cnpj.0
    }
}

impl fmt::Display for Cnpj {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.formatted())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_valid_numbers_masked_or_not() {
        let cnpj: Cnpj = "11.222.333/0001-81".parse().expect("valid");
        assert_eq!(cnpj.digits(), "11222333000181");
        assert_eq!(cnpj.formatted(), "11.222.333/0001-81");
        assert!("11444777000161".parse::<Cnpj>().is_ok());
    }

    #[test]
    fn rejects_wrong_check_digits_lengths_and_repeats() {
        for bad in [
            "11222333000182",
            "1122233300018",
            "00000000000000",
            "11.222.333/0001-8a",
            "",
        ] {
            assert_eq!(bad.parse::<Cnpj>(), Err(InvalidCnpj), "{bad}");
        }
    }
}
