//! Lists read a page at a time: the page a call asks for ([`Page`]: `limit` and `offset`,
//! checked once for every list), the page read with how many items the whole list holds
//! ([`Listed`]), and the one way to read the two ([`listed`]).

use sqlx::postgres::{PgArguments, PgRow};
use sqlx::query::{QueryAs, QueryScalar};
use sqlx::{FromRow, PgConnection, Postgres};

use crate::shared::failure::{Failure, IntoFailure};

/// Why a page was refused.
pub const LIMIT_REFUSED: &str = "O parâmetro limit deve ser um número inteiro de 1 a 100.";
pub const OFFSET_REFUSED: &str =
    "O parâmetro offset deve ser um número inteiro maior ou igual a 0.";

/// A slice of a list: `limit` items (1 to [`Page::MAX_LIMIT`]) after skipping `offset`.
/// A call without `limit` gets [`Page::UNPAGED_LIMIT`] items: the spec's calls ask for
/// whole lists, and a station with thousands of items must not make one answer of
/// megabytes (`X-Total-Count` tells the caller there is more).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    limit: i64,
    offset: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PageRefused {
    #[error("{LIMIT_REFUSED}")]
    Limit,
    #[error("{OFFSET_REFUSED}")]
    Offset,
}

/// A bad `limit` or `offset` is a request built wrong (400), not a rule broken.
impl IntoFailure for PageRefused {
    fn into_failure(self) -> Failure {
        Failure::BadRequest(self.to_string())
    }
}

impl Page {
    pub const MAX_LIMIT: i64 = 100;
    /// How many items a call without `limit` gets.
    pub const UNPAGED_LIMIT: i64 = 500;
    /// The start of a list, as a call without `limit` gets it.
    pub const UNPAGED: Self = Self {
        limit: Self::UNPAGED_LIMIT,
        offset: 0,
    };

    pub fn new(limit: Option<i64>, offset: i64) -> Result<Self, PageRefused> {
        if limit.is_some_and(|limit| !(1..=Self::MAX_LIMIT).contains(&limit)) {
            return Err(PageRefused::Limit);
        }
        if offset < 0 {
            return Err(PageRefused::Offset);
        }
        Ok(Self {
            limit: limit.unwrap_or(Self::UNPAGED_LIMIT),
            offset,
        })
    }

    pub fn limit(self) -> i64 {
        self.limit
    }

    pub fn offset(self) -> i64 {
        self.offset
    }
}

/// A page of a list and how many items the whole list holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed<T> {
    pub items: Vec<T>,
    pub total: i64,
}

impl<T> Listed<T> {
    /// The same page with each item turned into `U`.
    pub fn map<U>(self, item: impl FnMut(T) -> U) -> Listed<U> {
        Listed {
            items: self.items.into_iter().map(item).collect(),
            total: self.total,
        }
    }
}

/// The page `items` reads and the size `total` counts, on `conn`. The two queries share
/// their conditions; the count is its own statement so that a page past the end still says
/// how many there are.
pub async fn listed<T>(
    conn: &mut PgConnection,
    items: QueryAs<'_, Postgres, T, PgArguments>,
    total: QueryScalar<'_, Postgres, i64, PgArguments>,
) -> sqlx::Result<Listed<T>>
where
    T: Send + Unpin + for<'r> FromRow<'r, PgRow>,
{
    let items = items.fetch_all(&mut *conn).await?;
    let total = total.fetch_one(conn).await?;
    Ok(Listed { items, total })
}

#[cfg(test)]
mod tests {
    use super::{Page, PageRefused};

    #[test]
    fn pages_hold_1_to_100_items_from_offset_0() {
        assert_eq!(Page::new(None, 0), Ok(Page::UNPAGED));
        assert_eq!(Page::new(Some(0), 0), Err(PageRefused::Limit));
        assert_eq!(Page::new(Some(101), 0), Err(PageRefused::Limit));
        assert_eq!(Page::new(Some(1), -1), Err(PageRefused::Offset));
        let page = Page::new(Some(100), 7).expect("page");
        assert_eq!((page.limit(), page.offset()), (100, 7));
    }
}
