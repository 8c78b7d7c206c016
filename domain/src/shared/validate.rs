//! The shared field validators of the specification (000, section 5), with their Portuguese
//! messages exactly as the product shows them. The web app has the same rules in
//! `web/src/lib/validators.ts`; both suites check `ops/testkit/vectors/validators.json`, so
//! the two cannot drift apart.
//!
//! Each rule is one function answering `Ok(())` or the message to show. Only `required` and
//! `required_checkbox` reject an empty value: every other rule passes an empty string, so an
//! optional field may stay blank and a required one reports "Esse campo é obrigatório" once.
//! Masked input is accepted where the product masks the field: CPF 999.999.999-99,
//! CEP 99.999-999, CNPJ 00.000.000/0000-00, card numbers in groups.

use std::borrow::Cow;
use std::fmt::Display;

use chrono::{Datelike, NaiveDate};

use crate::shared::cnpj::Cnpj;
use crate::shared::cpf::Cpf;

/// The messages of the spec, typos included. `{n}` stands for the rule's limit.
pub mod message {
    pub const REQUIRED: &str = "Esse campo é obrigatório";
    pub const REQUIRED_CHECKBOX: &str = "Esse campo é obrigatório";
    pub const AGE_18: &str = "É necessário ser maior de 18 anos.";
    pub const NO_WHITESPACE: &str = "O campo não pode conter apenas espaços";
    pub const MAX_LENGTH: &str = "Esse campo deve possuir no máximo {n} caracteres";
    pub const MIN_LENGTH: &str = "Esse campo deve possuir no minimo {n} caracteres";
    pub const NUMBER: &str = "Este campo só aceita números";
    pub const MIN_VALUE: &str = "O valor deve ser maior que {n}";
    pub const MAX_VALUE: &str = "O valor deve ser menor que {n}";
    pub const PASSWORD: &str = crate::accounts::password::RULE_MESSAGE;
    pub const EMAIL: &str = "Email inválido";
    pub const ALPHA_NUMERIC: &str = "Somente caracteres alfanuméricos";
    pub const LOWER_CASE: &str = "Apenas letras minúsculas sem acento";
    pub const SUBDOMAIN: &str = "Apenas letras sem acento";
    pub const CPF: &str = "CPF inválido";
    pub const CEP: &str = "CEP inválido";
    pub const CARD_NUMBER: &str = "Número inválido";
    pub const CVV: &str = "CVV inválido";
    pub const CARD_EXPIRY: &str = "Data inválida";
    pub const DATE: &str = "Data Inválida!";
    pub const CNPJ: &str = "CNPJ inválido";
}

/// A value a rule refused; its text is the message to show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(Cow<'static, str>);

impl Invalid {
    pub fn message(&self) -> &str {
        &self.0
    }
}

pub type Verdict = Result<(), Invalid>;

fn holds(ok: bool, message: &'static str) -> Verdict {
    if ok {
        Ok(())
    } else {
        Err(Invalid(Cow::Borrowed(message)))
    }
}

fn holds_with_limit(ok: bool, template: &'static str, limit: impl Display) -> Verdict {
    if ok {
        Ok(())
    } else {
        Err(Invalid(Cow::Owned(
            template.replace("{n}", &limit.to_string()),
        )))
    }
}

/// Whether a field counts as filled for `required`. Numbers always do, zero included, as the
/// spec says; text does when it is not empty.
pub trait Filled {
    fn is_filled(&self) -> bool;
}

impl Filled for str {
    fn is_filled(&self) -> bool {
        !self.is_empty()
    }
}

impl Filled for String {
    fn is_filled(&self) -> bool {
        !self.is_empty()
    }
}

impl<T: Filled + ?Sized> Filled for &T {
    fn is_filled(&self) -> bool {
        (**self).is_filled()
    }
}

impl<T: Filled> Filled for Option<T> {
    fn is_filled(&self) -> bool {
        self.as_ref().is_some_and(Filled::is_filled)
    }
}

macro_rules! numbers_are_filled {
    ($($number:ty),*) => {
        $(impl Filled for $number {
            fn is_filled(&self) -> bool {
                true
            }
        })*
    };
}

numbers_are_filled!(
    i8,
    i16,
    i32,
    i64,
    isize,
    u8,
    u16,
    u32,
    u64,
    usize,
    f32,
    f64,
    rust_decimal::Decimal
);

/// Text that is only spaces still counts as filled; `no_whitespace` is the rule for that.
pub fn required<T: Filled + ?Sized>(value: &T) -> Verdict {
    holds(value.is_filled(), message::REQUIRED)
}

pub fn required_checkbox(checked: bool) -> Verdict {
    holds(checked, message::REQUIRED_CHECKBOX)
}

/// The whitespace of JavaScript's `trim` and `\s`, so both implementations agree: Unicode
/// White_Space without NEL (U+0085), plus the byte-order mark.
fn is_blank(c: char) -> bool {
    c == '\u{feff}' || (c.is_whitespace() && c != '\u{85}')
}

pub fn no_whitespace(value: &str) -> Verdict {
    holds(
        value.is_empty() || !value.chars().all(is_blank),
        message::NO_WHITESPACE,
    )
}

/// Lengths count characters (Unicode code points), not bytes.
pub fn max_length(value: &str, max: usize) -> Verdict {
    holds_with_limit(value.chars().count() <= max, message::MAX_LENGTH, max)
}

pub fn min_length(value: &str, min: usize) -> Verdict {
    let count = value.chars().count();
    holds_with_limit(count == 0 || count >= min, message::MIN_LENGTH, min)
}

/// Digits with an optional leading minus and an optional decimal part after `.` or `,`.
pub fn number(value: &str) -> Verdict {
    let unsigned = value.strip_prefix('-').unwrap_or(value);
    let (whole, fraction) = match unsigned.split_once(['.', ',']) {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (unsigned, None),
    };
    let is_digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    holds(
        value.is_empty() || (is_digits(whole) && fraction.is_none_or(is_digits)),
        message::NUMBER,
    )
}

/// Strictly greater than `min`, as the message says.
pub fn min_value<T: PartialOrd + Display>(value: T, min: T) -> Verdict {
    holds_with_limit(value > min, message::MIN_VALUE, min)
}

/// Strictly less than `max`, as the message says.
pub fn max_value<T: PartialOrd + Display>(value: T, max: T) -> Verdict {
    holds_with_limit(value < max, message::MAX_VALUE, max)
}

pub fn password(value: &str) -> Verdict {
    holds(
        value.is_empty() || crate::accounts::password::meets_rule(value),
        message::PASSWORD,
    )
}

/// The shape of an address; that it is deliverable is proven by activation. Surrounding
/// whitespace is ignored, since the value is trimmed (and lowercased) before it is stored.
pub fn email(value: &str) -> Verdict {
    let value = value.trim_matches(is_blank);
    holds(value.is_empty() || is_email(value), message::EMAIL)
}

/// ASCII only: a dot-atom local part of at most 64 characters, and a host name of at least
/// two labels whose last is two or more letters.
fn is_email(value: &str) -> bool {
    const LOCAL_SYMBOLS: &str = "!#$%&'*+/=?^_`{|}~-";
    let Some((local, domain)) = value.split_once('@') else {
        return false;
    };
    let local_ok = local.len() <= 64
        && local.split('.').all(|atom| {
            !atom.is_empty()
                && atom
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || LOCAL_SYMBOLS.contains(c))
        });
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|label| {
            (1..=63).contains(&label.len())
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        && labels
            .last()
            .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()));
    value.len() <= 254 && local_ok && domain_ok
}

/// ASCII letters and digits only: no spaces, no accents, no symbols.
pub fn alpha_numeric(value: &str) -> Verdict {
    holds(
        value.chars().all(|c| c.is_ascii_alphanumeric()),
        message::ALPHA_NUMERIC,
    )
}

pub fn lower_case(value: &str) -> Verdict {
    holds(
        value.chars().all(|c| c.is_ascii_lowercase()),
        message::LOWER_CASE,
    )
}

/// A station's site name as typed: ASCII letters of either case, spaces allowed, since the
/// name is stored through `normalize_subdomain`. Only spaces is refused.
pub fn subdomain(value: &str) -> Verdict {
    holds(
        value.is_empty()
            || (value
                .chars()
                .all(|c| c.is_ascii_alphabetic() || is_blank(c))
                && value.chars().any(|c| c.is_ascii_alphabetic())),
        message::SUBDOMAIN,
    )
}

/// The spec's normalisation of a site name: lowercased and stripped of spaces.
pub fn normalize_subdomain(value: &str) -> String {
    value
        .chars()
        .filter(|c| !is_blank(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

pub fn cpf(value: &str) -> Verdict {
    holds(
        value.is_empty() || value.parse::<Cpf>().is_ok(),
        message::CPF,
    )
}

pub fn cnpj(value: &str) -> Verdict {
    holds(
        value.is_empty() || value.parse::<Cnpj>().is_ok(),
        message::CNPJ,
    )
}

/// Eight digits, bare or masked (99.999-999 or 99999-999). Whether the CEP exists is the
/// address lookup's answer.
pub fn cep(value: &str) -> Verdict {
    let digits = without(value, &['.', '-', ' ']);
    holds(
        value.is_empty() || (digits.len() == 8 && digits.bytes().all(|b| b.is_ascii_digit())),
        message::CEP,
    )
}

fn without(value: &str, mask: &[char]) -> String {
    value.chars().filter(|c| !mask.contains(c)).collect()
}

/// 13 to 19 digits, in groups separated by spaces or hyphens or not, passing the Luhn check.
pub fn card_number(value: &str) -> Verdict {
    let digits = without(value, &[' ', '-']);
    let luhn_ok = || {
        let sum: u32 = digits
            .bytes()
            .rev()
            .map(|b| u32::from(b - b'0'))
            .enumerate()
            .map(|(i, d)| match (i % 2, d * 2) {
                (0, _) => d,
                (_, doubled) if doubled > 9 => doubled - 9,
                (_, doubled) => doubled,
            })
            .sum();
        sum.is_multiple_of(10)
    };
    holds(
        value.is_empty()
            || ((13..=19).contains(&digits.len())
                && digits.bytes().all(|b| b.is_ascii_digit())
                && luhn_ok()),
        message::CARD_NUMBER,
    )
}

pub fn cvv(value: &str) -> Verdict {
    holds(
        value.is_empty()
            || ((3..=4).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_digit())),
        message::CVV,
    )
}

/// MM/YY (20YY) or MM/YYYY; a card is good until the end of its month, so the current month
/// passes.
pub fn card_expiry(value: &str, today: NaiveDate) -> Verdict {
    holds(
        value.is_empty()
            || parse_card_expiry(value)
                .is_some_and(|(year, month)| (year, month) >= (today.year(), today.month())),
        message::CARD_EXPIRY,
    )
}

fn parse_card_expiry(value: &str) -> Option<(i32, u32)> {
    let (month, year) = value.split_once('/')?;
    let month: u32 = digits_of_len(month, 2)?.parse().ok()?;
    let year: i32 = match year.len() {
        2 => 2000 + digits_of_len(year, 2)?.parse::<i32>().ok()?,
        _ => digits_of_len(year, 4)?.parse().ok()?,
    };
    (1..=12).contains(&month).then_some((year, month))
}

fn digits_of_len(part: &str, len: usize) -> Option<&str> {
    (part.len() == len && part.bytes().all(|b| b.is_ascii_digit())).then_some(part)
}

/// A calendar date written dd/MM/yyyy, as the date mask produces it. A year below 1000 is
/// "under 4 digits" even when written with a leading zero.
pub fn parse_date(value: &str) -> Option<NaiveDate> {
    let mut parts = value.split('/');
    let day = digits_of_len(parts.next()?, 2)?.parse().ok()?;
    let month = digits_of_len(parts.next()?, 2)?.parse().ok()?;
    let year: i32 = digits_of_len(parts.next()?, 4)?.parse().ok()?;
    if parts.next().is_some() || year < 1000 {
        return None;
    }
    NaiveDate::from_ymd_opt(year, month, day)
}

pub fn date(value: &str) -> Verdict {
    holds(
        value.is_empty() || parse_date(value).is_some(),
        message::DATE,
    )
}

/// Eighteen or older on `today` (the caller's calendar date). The birthday counts: someone
/// born on 21/11/2008 is an adult on 21/11/2026. Someone born on 29 February comes of age on
/// 1 March in a common year, as the Civil Code counts years (art. 132, §3). A value that is
/// not a date gets the date message.
pub fn age18(value: &str, today: NaiveDate) -> Verdict {
    if value.is_empty() {
        return Ok(());
    }
    let birth = parse_date(value).ok_or(Invalid(Cow::Borrowed(message::DATE)))?;
    let birthday_not_yet = (today.month(), today.day()) < (birth.month(), birth.day());
    let age = today.year() - birth.year() - i32::from(birthday_not_yet);
    holds(age >= 18, message::AGE_18)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_match_the_tax_id_newtypes() {
        assert_eq!(crate::shared::cpf::InvalidCpf.to_string(), message::CPF);
        assert_eq!(crate::shared::cnpj::InvalidCnpj.to_string(), message::CNPJ);
    }

    #[test]
    fn required_takes_any_filled_field() {
        assert!(required("Maria").is_ok());
        assert!(required(&Some(0_i64)).is_ok());
        assert!(required(&None::<String>).is_err());
        assert!(required(&Some(String::new())).is_err());
    }

    #[test]
    fn limits_appear_in_the_messages() {
        assert_eq!(
            max_length("abcdef", 5).map_err(|e| e.to_string()),
            Err("Esse campo deve possuir no máximo 5 caracteres".into())
        );
        assert_eq!(
            min_value(3_i64, 10).map_err(|e| e.to_string()),
            Err("O valor deve ser maior que 10".into())
        );
        assert_eq!(
            max_value(
                rust_decimal::Decimal::new(1005, 1),
                rust_decimal::Decimal::new(100, 0)
            )
            .map_err(|e| e.to_string()),
            Err("O valor deve ser menor que 100".into())
        );
    }

    #[test]
    fn site_names_are_lowercased_and_stripped_of_spaces() {
        assert_eq!(normalize_subdomain(" Meu Clube "), "meuclube");
    }
}
