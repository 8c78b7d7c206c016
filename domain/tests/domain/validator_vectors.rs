//! The shared validator vectors (`ops/testkit/vectors/validators.json`) through the Rust
//! validators. The web suite checks the same file against `web/src/lib/validators.ts`, and
//! both check the file's messages against their constants, so the two cannot drift.

use chrono::NaiveDate;
use domain::shared::validate::{self, Verdict, message};
use serde_json::{Number, Value};

const VECTORS: &str = include_str!("../../../ops/testkit/vectors/validators.json");

/// The file's keys that are not rules.
const META: [&str; 3] = ["about", "today", "messages"];

const MESSAGES: [(&str, &str); 21] = [
    ("required", message::REQUIRED),
    ("required_checkbox", message::REQUIRED_CHECKBOX),
    ("age18", message::AGE_18),
    ("no_whitespace", message::NO_WHITESPACE),
    ("max_length", message::MAX_LENGTH),
    ("min_length", message::MIN_LENGTH),
    ("number", message::NUMBER),
    ("min_value", message::MIN_VALUE),
    ("max_value", message::MAX_VALUE),
    ("password", message::PASSWORD),
    ("email", message::EMAIL),
    ("alpha_numeric", message::ALPHA_NUMERIC),
    ("lower_case", message::LOWER_CASE),
    ("subdomain", message::SUBDOMAIN),
    ("cpf", message::CPF),
    ("cep", message::CEP),
    ("card_number", message::CARD_NUMBER),
    ("cvv", message::CVV),
    ("card_expiry", message::CARD_EXPIRY),
    ("date", message::DATE),
    ("cnpj", message::CNPJ),
];

fn vectors() -> Value {
    serde_json::from_str(VECTORS).expect("validators.json is JSON")
}

fn iso_date(value: &Value) -> NaiveDate {
    let text = value.as_str().expect("a date is text");
    NaiveDate::parse_from_str(text, "%Y-%m-%d").expect("dates in the file are yyyy-mm-dd")
}

/// Runs one rule of the file on one value, as a caller of the Rust API would.
fn run(rule: &str, limit: Option<&Number>, value: &Value, today: NaiveDate) -> Verdict {
    let text = || {
        value
            .as_str()
            .unwrap_or_else(|| panic!("{rule}: {value} should be text"))
    };
    let number = || {
        value
            .as_f64()
            .unwrap_or_else(|| panic!("{rule}: {value} should be a number"))
    };
    let limit_f64 = || limit.and_then(Number::as_f64).expect("the rule's n");
    let limit_usize = || {
        limit
            .and_then(Number::as_u64)
            .and_then(|n| usize::try_from(n).ok())
            .expect("the rule's n, a count")
    };
    match rule {
        "required" => match value {
            Value::Null => validate::required(&None::<&str>),
            Value::Number(n) => validate::required(&n.as_f64()),
            _ => validate::required(text()),
        },
        "required_checkbox" => validate::required_checkbox(value.as_bool().unwrap_or(false)),
        "age18" => validate::age18(text(), today),
        "no_whitespace" => validate::no_whitespace(text()),
        "max_length" => validate::max_length(text(), limit_usize()),
        "min_length" => validate::min_length(text(), limit_usize()),
        "number" => validate::number(text()),
        "min_value" => validate::min_value(number(), limit_f64()),
        "max_value" => validate::max_value(number(), limit_f64()),
        "password" => validate::password(text()),
        "email" => validate::email(text()),
        "alpha_numeric" => validate::alpha_numeric(text()),
        "lower_case" => validate::lower_case(text()),
        "subdomain" => validate::subdomain(text()),
        "cpf" => validate::cpf(text()),
        "cep" => validate::cep(text()),
        "card_number" => validate::card_number(text()),
        "cvv" => validate::cvv(text()),
        "card_expiry" => validate::card_expiry(text(), today),
        "date" => validate::date(text()),
        "cnpj" => validate::cnpj(text()),
        other => panic!("the vectors have a rule with no Rust validator: {other}"),
    }
}

#[test]
fn the_files_messages_are_the_rust_constants() {
    let vectors = vectors();
    let in_file = vectors["messages"].as_object().expect("a messages map");
    let expected: serde_json::Map<String, Value> = MESSAGES
        .iter()
        .map(|(rule, text)| ((*rule).to_owned(), Value::from(*text)))
        .collect();
    assert_eq!(in_file, &expected);
}

#[test]
fn every_rule_has_vectors_and_every_vector_holds() {
    let vectors = vectors();
    let file_today = iso_date(&vectors["today"]);
    let sections = vectors.as_object().expect("an object");
    let rules: Vec<&str> = sections
        .keys()
        .map(String::as_str)
        .filter(|key| !META.contains(key))
        .collect();
    let known: Vec<&str> = MESSAGES.iter().map(|(rule, _)| *rule).collect();
    assert_eq!(
        {
            let mut sorted = rules.clone();
            sorted.sort_unstable();
            sorted
        },
        {
            let mut sorted = known.clone();
            sorted.sort_unstable();
            sorted
        },
        "each rule has one section of vectors"
    );

    let mut failures = Vec::new();
    let mut checked = 0;
    for rule in rules {
        let section = &vectors[rule];
        let limit = section.get("n").and_then(Value::as_number);
        let rule_message = vectors["messages"][rule].as_str().expect("a message");
        let rule_message = match limit {
            Some(n) => rule_message.replace("{n}", &n.to_string()),
            None => rule_message.to_owned(),
        };
        for (list, should_pass) in [("valid", true), ("invalid", false)] {
            let cases = section[list]
                .as_array()
                .unwrap_or_else(|| panic!("{rule} has a {list} list"));
            for case in cases {
                let (value, today, expected) = match case.get("value") {
                    Some(value) => (
                        value,
                        case.get("today").map_or(file_today, iso_date),
                        case.get("message")
                            .and_then(Value::as_str)
                            .map_or_else(|| rule_message.clone(), str::to_owned),
                    ),
                    None => (case, file_today, rule_message.clone()),
                };
                let verdict = run(rule, limit, value, today);
                let held = match (&verdict, should_pass) {
                    (Ok(()), true) => true,
                    (Err(invalid), false) => invalid.message() == expected,
                    _ => false,
                };
                if !held {
                    failures.push(format!(
                        "{rule} {list} {value} (today {today}): got {verdict:?}"
                    ));
                }
                checked += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 200, "only {checked} vectors read");
}
