//! What every console list reads from its query: empty fields as no filter, a page and its
//! size, one message per kind of bad value; and who acts.

use jobs::console::actions::Actor;

use crate::error::ApiError;
use crate::staff::{OpsResult, Staff};

pub(super) const BAD_STATE: &str = "Estado inválido.";
pub(super) const BAD_DATE: &str = "Data inválida.";
const BAD_PAGE: &str = "Página inválida.";
pub(super) const BAD_STATION: &str = "Estação inválida.";
const DEFAULT_PER_PAGE: i64 = 50;
const MAX_PER_PAGE: i64 = 200;

/// The staff member as the console's actions know them.
pub(super) fn actor(staff: &Staff) -> Actor {
    Actor {
        user_id: staff.user_id(),
        scope: staff.scope(),
    }
}

/// Empty fields (an unset select in the web app) mean no filter.
pub(super) fn given(value: Option<String>) -> Option<String> {
    value
        .map(|value| value.trim().to_string())
        .filter(|value| !value.is_empty())
}

/// `page` from 1 and `per_page` up to [`MAX_PER_PAGE`].
pub(super) fn parse_page(
    page: Option<String>,
    per_page: Option<String>,
    messages: &mut Vec<&'static str>,
) -> (i64, i64) {
    let number = |value: Option<String>, default: i64, max: i64| match given(value) {
        None => Some(default),
        Some(value) => value.parse::<i64>().ok().filter(|n| (1..=max).contains(n)),
    };
    match (
        number(page, 1, i64::from(i32::MAX)),
        number(per_page, DEFAULT_PER_PAGE, MAX_PER_PAGE),
    ) {
        (Some(page), Some(per_page)) => (page, per_page),
        _ => {
            messages.push(BAD_PAGE);
            (1, DEFAULT_PER_PAGE)
        }
    }
}

pub(super) fn invalid_if_any(messages: Vec<&'static str>) -> OpsResult<()> {
    if messages.is_empty() {
        Ok(())
    } else {
        Err(ApiError::Invalid(messages.into_iter().map(String::from).collect()).into())
    }
}
