//! `limit` and `offset` of the activities' lists (and of a station's content), and the
//! `X-Total-Count` header their answers carry (docs/api-activities.md, "Paging").

use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use domain::activities::catalogue::{self, Listed, Page, PageRefused};
use serde::{Deserialize, Serialize};

use super::actions::ActivityCard;
use crate::error::ApiResult;
use crate::extract::Json;

/// The header with how many items the whole list holds, whatever the page.
pub const TOTAL_COUNT: &str = "x-total-count";

/// Read as text, so that a value that is not a number gets the parameter's own message.
#[derive(Debug, Deserialize)]
pub(crate) struct PageQuery {
    limit: Option<String>,
    offset: Option<String>,
}

/// The page a list call asks for: without `limit`, the whole list (from `offset`, 0 by
/// default). A bad value is 400 with its parameter's message.
pub(crate) fn page(query: PageQuery) -> ApiResult<Page> {
    let number = |value: Option<String>, refused: PageRefused| {
        value
            .map(|value| value.trim().parse::<i64>().map_err(|_| refused))
            .transpose()
    };
    let limit = number(query.limit, PageRefused::Limit)?;
    let offset = number(query.offset, PageRefused::Offset)?;
    Ok(Page::new(limit, offset.unwrap_or(0))?)
}

/// A page of activity cards, with the list's size in [`TOTAL_COUNT`].
#[derive(Debug)]
pub(super) struct CardsPage(pub Listed<catalogue::ActivityCard>);

impl IntoResponse for CardsPage {
    fn into_response(self) -> Response {
        let Listed { items, total } = self.0;
        let total = HeaderValue::from(total);
        let cards: Vec<ActivityCard> = items.into_iter().map(ActivityCard::from).collect();
        let mut response = Json(cards).into_response();
        response.headers_mut().insert(TOTAL_COUNT, total);
        response
    }
}

/// A page of any list (`T` as the wire shows it), with the list's size in [`TOTAL_COUNT`].
#[derive(Debug)]
pub(crate) struct Paged<T>(pub Vec<T>, pub i64);

impl<T: Serialize> IntoResponse for Paged<T> {
    fn into_response(self) -> Response {
        let Paged(items, total) = self;
        let mut response = Json(items).into_response();
        response
            .headers_mut()
            .insert(TOTAL_COUNT, HeaderValue::from(total));
        response
    }
}
