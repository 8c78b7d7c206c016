//! A station's news: cards newest first, one item with its body, and the news a member
//! service's page lists by tag (`station_news_tags`, 9 a page with their bodies). Only
//! published items whose publication time has come are shown.

use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

use super::html;
use crate::infra::objects::Objects;
use crate::infra::variants::{self, Srcsets};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::StationId;
use crate::shared::paging::{self, Listed, Page};

/// A news item as the list shows it (no body).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewsCard {
    pub id: i64,
    pub title: String,
    pub subtitle: String,
    /// The picture's URL (`/api/media/...`), if it has one.
    pub image: Option<String>,
    /// The picture's widths (`url 480w, ...`), once its variants exist.
    pub image_srcset: Option<String>,
    pub published_at: DateTime<Utc>,
}

/// A news item with its body: HTML kept to [`html::ALLOWED_TAGS`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct News {
    pub card: NewsCard,
    pub body: String,
}

/// A news item as staff (and the demo seed, and tests) write one.
#[derive(Debug, Clone, Default)]
pub struct NewNews {
    pub station_id: i64,
    pub title: String,
    pub subtitle: String,
    /// Any HTML: sanitised before it is stored.
    pub body: String,
    pub image_key: Option<String>,
    pub published: bool,
    /// Now when absent.
    pub published_at: Option<DateTime<Utc>>,
}

/// Stores `news` with its body sanitised; answers its id.
pub async fn create(db: impl PgExecutor<'_>, news: &NewNews) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO station_news (station_id, title, subtitle, body, image_key, published,
                                   published_at)
         VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7, now()))
         RETURNING id",
    )
    .bind(news.station_id)
    .bind(news.title.trim())
    .bind(news.subtitle.trim())
    .bind(html::sanitise(&news.body))
    .bind(&news.image_key)
    .bind(news.published)
    .bind(news.published_at)
    .fetch_one(db)
    .await
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    title: String,
    subtitle: String,
    image_key: Option<String>,
    published_at: DateTime<Utc>,
}

impl Row {
    fn card(self, srcsets: &Srcsets) -> NewsCard {
        NewsCard {
            id: self.id,
            title: self.title,
            subtitle: self.subtitle,
            image: self.image_key.as_deref().map(Objects::url),
            image_srcset: srcsets.of_opt(self.image_key.as_deref()),
            published_at: self.published_at,
        }
    }
}

/// What a member may read: published, and its time has come.
macro_rules! shown {
    () => {
        "station_id = $1 AND published AND published_at <= now()"
    };
}

/// A page of the station's news, newest first, with how many there are in all.
pub async fn list(
    db: &sqlx::PgPool,
    station_id: StationId,
    page: Page,
) -> sqlx::Result<Listed<NewsCard>> {
    let rows = sqlx::query_as::<_, Row>(concat!(
        "SELECT id, title, subtitle, image_key, published_at FROM station_news WHERE ",
        shown!(),
        " ORDER BY published_at DESC, id DESC LIMIT $2 OFFSET $3"
    ))
    .bind(station_id)
    .bind(page.limit())
    .bind(page.offset());
    let total = sqlx::query_scalar(concat!(
        "SELECT count(*) FROM station_news WHERE ",
        shown!()
    ))
    .bind(station_id);
    let listed = paging::listed(&mut *db.acquire().await?, rows, total).await?;
    let srcsets = variants::srcsets(
        db,
        listed
            .items
            .iter()
            .filter_map(|row| row.image_key.as_deref()),
    )
    .await?;
    Ok(listed.map(|row| row.card(&srcsets)))
}

/// One of the station's news items, if it is shown.
pub async fn find(db: &sqlx::PgPool, station_id: StationId, id: i64) -> sqlx::Result<Option<News>> {
    #[derive(sqlx::FromRow)]
    struct Full {
        #[sqlx(flatten)]
        card: Row,
        body: String,
    }
    let found: Option<Full> = sqlx::query_as(concat!(
        "SELECT id, title, subtitle, image_key, published_at, body FROM station_news WHERE ",
        shown!(),
        " AND id = $2"
    ))
    .bind(station_id)
    .bind(id)
    .fetch_optional(db)
    .await?;
    let Some(full) = found else {
        return Ok(None);
    };
    let srcsets = variants::srcsets(db, full.card.image_key.as_deref()).await?;
    Ok(Some(News {
        card: full.card.card(&srcsets),
        body: full.body,
    }))
}

/// A service page's news (`/legal/news`, ...): 9 a page, as the page's infinite scroll reads them.
pub const TAGGED_PAGE_SIZE: i64 = 9;
pub const PAGE_INVALID: &str = "page: Página inválida";
pub const TAG_INVALID: &str = "tagId: Tag inválida";

/// Why a tagged listing's parameters are refused: a request built wrong (400).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TaggedRefused {
    #[error("{PAGE_INVALID}")]
    Page,
    #[error("{TAG_INVALID}")]
    Tag,
}

impl IntoFailure for TaggedRefused {
    fn into_failure(self) -> Failure {
        Failure::BadRequest(self.to_string())
    }
}

/// Which news a service page asks for: a tag and a page (from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tagged {
    pub tag_id: i64,
    pub page: i64,
}

impl Tagged {
    /// Reads the query's `page` (absent: 1; not a number or below 1: refused) and `tagId`
    /// (absent: `default_tag`; not a number: refused).
    pub fn parse(
        page: Option<&str>,
        tag_id: Option<&str>,
        default_tag: i64,
    ) -> Result<Self, TaggedRefused> {
        let page = match page.map(str::trim) {
            None => 1,
            Some(text) => text
                .parse::<i64>()
                .ok()
                .filter(|page| *page >= 1)
                .ok_or(TaggedRefused::Page)?,
        };
        let tag_id = match tag_id.map(str::trim) {
            None => default_tag,
            Some(text) => text.parse::<i64>().map_err(|_| TaggedRefused::Tag)?,
        };
        Ok(Self { tag_id, page })
    }

    fn offset(self) -> i64 {
        (self.page - 1).saturating_mul(TAGGED_PAGE_SIZE)
    }
}

/// A page of the station's shown news carrying the tag, newest first, with their bodies,
/// and how many there are in all; past the end, no items.
pub async fn list_tagged(
    db: &sqlx::PgPool,
    station_id: StationId,
    tagged: Tagged,
) -> sqlx::Result<Listed<News>> {
    #[derive(sqlx::FromRow)]
    struct Full {
        #[sqlx(flatten)]
        card: Row,
        body: String,
    }
    let rows = sqlx::query_as::<_, Full>(concat!(
        "SELECT id, title, subtitle, image_key, published_at, body FROM station_news WHERE ",
        shown!(),
        " AND id IN (SELECT news_id FROM station_news_tags WHERE tag_id = $2)
          ORDER BY published_at DESC, id DESC LIMIT $3 OFFSET $4"
    ))
    .bind(station_id)
    .bind(tagged.tag_id)
    .bind(TAGGED_PAGE_SIZE)
    .bind(tagged.offset());
    let total = sqlx::query_scalar(concat!(
        "SELECT count(*) FROM station_news WHERE ",
        shown!(),
        " AND id IN (SELECT news_id FROM station_news_tags WHERE tag_id = $2)"
    ))
    .bind(station_id)
    .bind(tagged.tag_id);
    let listed = paging::listed(&mut *db.acquire().await?, rows, total).await?;
    let srcsets = variants::srcsets(
        db,
        listed
            .items
            .iter()
            .filter_map(|full| full.card.image_key.as_deref()),
    )
    .await?;
    Ok(listed.map(|full| News {
        card: full.card.card(&srcsets),
        body: full.body,
    }))
}

/// Tags a news item (`station_news_tags`); tagging it again changes nothing.
pub async fn tag(db: impl PgExecutor<'_>, news_id: i64, tags: &[i64]) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO station_news_tags (news_id, tag_id) SELECT $1, unnest($2::bigint[])
         ON CONFLICT DO NOTHING",
    )
    .bind(news_id)
    .bind(tags)
    .execute(db)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Tagged, TaggedRefused};

    #[test]
    fn a_tagged_page_starts_at_1_and_defaults_to_the_desks_tag() {
        assert_eq!(
            Tagged::parse(None, None, 13752),
            Ok(Tagged {
                tag_id: 13752,
                page: 1
            })
        );
        assert_eq!(
            Tagged::parse(Some("3"), Some("13755"), 13752),
            Ok(Tagged {
                tag_id: 13755,
                page: 3
            })
        );
        assert_eq!(Tagged::parse(Some("0"), None, 1), Err(TaggedRefused::Page));
        assert_eq!(Tagged::parse(Some("-1"), None, 1), Err(TaggedRefused::Page));
        assert_eq!(
            Tagged::parse(Some("dois"), None, 1),
            Err(TaggedRefused::Page)
        );
        assert_eq!(
            Tagged::parse(Some("1"), Some("x"), 1),
            Err(TaggedRefused::Tag)
        );
        assert_eq!(Tagged::parse(Some("2"), None, 1).map(Tagged::offset), Ok(9));
    }
}
