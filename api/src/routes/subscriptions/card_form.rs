//! The card fields of the plan purchase form (spec 002 section 3 "Purchase form") that the
//! purchase, the plan change, the card change and the type 21 subscription share: a saved
//! card (`selected_card`), or a new card as the browser's tokeniser handed it over
//! (`card_token`) with the holder, the expiry and the billing address, every field required
//! (neighborhood too, section 5). A raw card number is taken only by the sandbox, which
//! tokenises it here for the demo, as the checkout does.

use app::subscriptions::cards::PayingCard;
use chrono::{Datelike, NaiveDate};
use domain::accounts::signup::{INVALID_STATE, STATES};
use domain::commerce::cards;
use domain::commerce::gateway::CardExpiry;
use domain::shared::validate::{self, message};
use payments::sandbox::CardDetails;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::routes::commerce::payments::{RAW_CARD_REFUSED, sandbox_token};
use crate::routes::commerce::whole;
use crate::state::AppState;

/// The form's card part. Its Debug shows which card, never the card or the address.
#[derive(Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct CardFields {
    /// The browser tokeniser's token for a new card.
    pub card_token: Option<String>,
    /// A saved card's id (0 or absent: a new card).
    #[schema(value_type = Option<i64>)]
    pub selected_card: Value,
    /// Sandbox only: the card number, tokenised by the sandbox.
    pub card_number: Option<String>,
    /// Sandbox only, with `card_number`.
    pub card_cvv: Option<String>,
    pub card_holder_name: Option<String>,
    /// `MM/YY`.
    pub card_expiration_date: Option<String>,
    pub cpf: Option<String>,
    /// `YYYY-MM-DD` (or `DD/MM/YYYY`).
    pub birthday: Option<String>,
    pub phone: Option<String>,
    pub zipcode: Option<String>,
    pub street: Option<String>,
    #[schema(value_type = Option<String>)]
    pub street_number: Value,
    pub neighborhood: Option<String>,
    /// The state's two letters.
    pub state: Option<String>,
    pub city: Option<String>,
    /// Save the card for later purchases. A subscription's card is kept for its renewals
    /// either way.
    pub save: bool,
}

impl std::fmt::Debug for CardFields {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CardFields")
            .field("selected_card", &self.selected_card)
            .field("save", &self.save)
            .finish_non_exhaustive()
    }
}

fn given(value: &Option<String>) -> Option<&str> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|text| !text.is_empty())
}

fn text_of(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.trim().to_string()).filter(|text| !text.is_empty()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// A birth date as the form sends it (`YYYY-MM-DD`) or as the mask shows it.
fn birthday(value: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(value, "%Y-%m-%d")
        .ok()
        .or_else(|| validate::parse_date(value))
}

impl CardFields {
    /// The sandbox's token for a raw card number (the demo's shortcut; refused elsewhere).
    async fn sandbox_token(&self, state: &AppState, number: &str) -> ApiResult<String> {
        let Some(sandbox) = state.gateway.sandbox() else {
            return Err(ApiError::invalid(RAW_CARD_REFUSED));
        };
        if validate::card_number(number).is_err() {
            return Err(ApiError::Invalid(vec![format!(
                "card_number: {}",
                message::CARD_NUMBER
            )]));
        }
        let card = CardDetails {
            number: number.to_string(),
            holder_name: self.card_holder_name.clone().unwrap_or_default(),
            expiry: self.card_expiration_date.clone().unwrap_or_default(),
            cvv: self.card_cvv.clone().unwrap_or_else(|| "000".into()),
        };
        sandbox_token(sandbox, card).await
    }

    /// Whether the form names a card at all.
    pub fn names_a_card(&self) -> bool {
        whole(&self.selected_card).is_some_and(|id| id > 0)
            || given(&self.card_token).is_some()
            || given(&self.card_number).is_some()
    }

    /// The card the form names, or `None` when it names none; a new card's fields are
    /// checked one by one (`field: message`, every broken one).
    pub async fn paying_card(&self, state: &AppState) -> ApiResult<Option<PayingCard>> {
        if let Some(id) = whole(&self.selected_card).filter(|id| *id > 0) {
            return Ok(Some(PayingCard::Saved(id)));
        }
        let (token, number) = (given(&self.card_token), given(&self.card_number));
        if token.is_none() && number.is_none() {
            return Ok(None);
        }
        let today = chrono::Utc::now().date_naive();
        let mut problems = Vec::new();
        let mut require = |field: &str, value: Option<&str>| {
            if value.is_none() {
                problems.push(format!("{field}: {}", message::REQUIRED));
            }
            value.is_some()
        };
        let street_number = text_of(&self.street_number);
        let fields = [
            ("card_holder_name", given(&self.card_holder_name)),
            ("card_expiration_date", given(&self.card_expiration_date)),
            ("cpf", given(&self.cpf)),
            ("birthday", given(&self.birthday)),
            ("phone", given(&self.phone)),
            ("zipcode", given(&self.zipcode)),
            ("street", given(&self.street)),
            ("street_number", street_number.as_deref()),
            ("neighborhood", given(&self.neighborhood)),
            ("state", given(&self.state)),
            ("city", given(&self.city)),
        ];
        let filled: Vec<bool> = fields
            .iter()
            .map(|(field, value)| require(field, *value))
            .collect();
        let value = |index: usize| fields[index].1.filter(|_| filled[index]);
        // Cards are issued for a few years: a far year is a typo (and no saved card's).
        if let Some(date) = value(1)
            && (validate::card_expiry(date, today).is_err()
                || CardExpiry::parse(date).is_none_or(|expiry| expiry.year > today.year() + 20))
        {
            problems.push(format!("card_expiration_date: {}", message::CARD_EXPIRY));
        }
        if let Some(cpf) = value(2)
            && validate::cpf(cpf).is_err()
        {
            problems.push(format!("cpf: {}", message::CPF));
        }
        if let Some(date) = value(3)
            && birthday(date).is_none_or(|date| date >= today || date.year() < 1900)
        {
            problems.push(format!("birthday: {}", message::DATE));
        }
        if let Some(phone) = value(4)
            && !(10..=11).contains(&phone.chars().filter(char::is_ascii_digit).count())
        {
            problems.push("phone: Telefone inválido".to_string());
        }
        if let Some(cep) = value(5)
            && validate::cep(cep).is_err()
        {
            problems.push(format!("zipcode: {}", message::CEP));
        }
        if let Some(uf) = value(9)
            && !STATES.contains(&uf.to_ascii_uppercase().as_str())
        {
            problems.push(format!("state: {INVALID_STATE}"));
        }
        if !problems.is_empty() {
            return Err(ApiError::Invalid(problems));
        }
        let billing_address = cards::billing_address(
            value(5).unwrap_or_default(),
            value(6).unwrap_or_default(),
            value(7).unwrap_or_default(),
            value(10).unwrap_or_default(),
            value(9).unwrap_or_default(),
        )
        .map_err(ApiError::invalid)?;
        let token = match token {
            Some(token) => token.to_string(),
            None => {
                self.sandbox_token(state, number.unwrap_or_default())
                    .await?
            }
        };
        Ok(Some(PayingCard::New {
            token,
            billing_address,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn birthdays_read_the_forms_formats() {
        assert_eq!(birthday("1990-05-17"), NaiveDate::from_ymd_opt(1990, 5, 17));
        assert_eq!(birthday("17/05/1990"), NaiveDate::from_ymd_opt(1990, 5, 17));
        assert_eq!(birthday("1990-17-05"), None);
    }
}
