//! CPF, the Brazilian personal tax id: 11 digits, the last two being check digits.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A CPF whose check digits hold (all-equal digits are rejected). Stored as its 11 digits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Cpf(String);

/// The spec's validator message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("CPF inválido")]
pub struct InvalidCpf;

impl Cpf {
    pub fn digits(&self) -> &str {
        &self.0
    }

    /// As people read it: "529.982.247-25".
    pub fn formatted(&self) -> String {
        let d = &self.0;
        format!("{}.{}.{}-{}", &d[..3], &d[3..6], &d[6..9], &d[9..])
    }
}

impl FromStr for Cpf {
    type Err = InvalidCpf;

    /// Accepts the bare digits or the mask 999.999.999-99.
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        let digits: Vec<u32> = value
            .chars()
            .filter(|c| !matches!(c, '.' | '-' | ' '))
            .map(|c| c.to_digit(10).ok_or(InvalidCpf))
            .collect::<Result<_, _>>()?;
        if digits.len() != 11 || digits.iter().all(|d| *d == digits[0]) {
            return Err(InvalidCpf);
        }
        let check = |len: usize| {
            let sum: u32 = digits[..len]
                .iter()
                .zip((2..=len as u32 + 1).rev())
                .map(|(d, w)| d * w)
                .sum();
            match sum % 11 {
                0 | 1 => 0,
                rest => 11 - rest,
            }
        };
        if check(9) != digits[9] || check(10) != digits[10] {
            return Err(InvalidCpf);
        }
        Ok(Self(
            digits
                .iter()
                .map(|d| char::from_digit(*d, 10).unwrap_or('0'))
                .collect(),
        ))
    }
}

impl TryFrom<String> for Cpf {
    type Error = InvalidCpf;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        value.parse()
    }
}

impl From<Cpf> for String {
    fn from(cpf: Cpf) -> Self {
        cpf.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_valid_numbers_masked_or_not() {
        assert_eq!(
            "529.982.247-25".parse::<Cpf>().expect("valid").digits(),
            "52998224725"
        );
        assert!("11144477735".parse::<Cpf>().is_ok());
        assert_eq!(
            "52998224725".parse::<Cpf>().expect("valid").formatted(),
            "529.982.247-25"
        );
    }

    #[test]
    fn rejects_wrong_check_digits_lengths_and_repeats() {
        for bad in ["52998224724", "5299822472", "111.111.111-11", "abc", ""] {
            assert_eq!(bad.parse::<Cpf>(), Err(InvalidCpf), "{bad}");
        }
    }
}
