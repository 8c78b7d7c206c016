//! A station's news: cards newest first, one item with its body. Only published items
//! whose publication time has come are shown.

use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

use super::html;
use crate::infra::objects::Objects;
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

impl From<Row> for NewsCard {
    fn from(row: Row) -> Self {
        Self {
            id: row.id,
            title: row.title,
            subtitle: row.subtitle,
            image: row.image_key.as_deref().map(Objects::url),
            published_at: row.published_at,
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
    Ok(paging::listed(&mut *db.acquire().await?, rows, total)
        .await?
        .map(NewsCard::from))
}

/// One of the station's news items, if it is shown.
pub async fn find(
    db: impl PgExecutor<'_>,
    station_id: StationId,
    id: i64,
) -> sqlx::Result<Option<News>> {
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
    Ok(found.map(|full| News {
        card: full.card.into(),
        body: full.body,
    }))
}
