//! `limit` and `offset` of the lists a page at a time (the activities', a station's
//! content), and the `X-Total-Count` header their answers carry (docs/api-activities.md,
//! "Paging").

use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use domain::shared::paging::{Listed, Page, PageRefused};
use serde::{Deserialize, Serialize};

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

/// The page a list call asks for: without `limit`, the first [`Page::UNPAGED_LIMIT`] (from
/// `offset`, 0 by default). A bad value is 400 with its parameter's message.
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

/// A page of a list (`T` as the wire shows it): the array of items, with the list's size
/// in [`TOTAL_COUNT`].
#[derive(Debug)]
pub(crate) struct Paged<T>(Listed<T>);

/// A page the domain read, each item turned into its wire type.
impl<T, D> From<Listed<D>> for Paged<T>
where
    T: From<D>,
{
    fn from(listed: Listed<D>) -> Self {
        Self(listed.map(T::from))
    }
}

impl<T: Serialize> IntoResponse for Paged<T> {
    fn into_response(self) -> Response {
        let Listed { items, total } = self.0;
        let mut response = Json(items).into_response();
        response
            .headers_mut()
            .insert(TOTAL_COUNT, HeaderValue::from(total));
        response
    }
}
