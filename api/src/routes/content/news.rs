//! `GET /news/?where[station_id]=` and `GET /news/{id}`: the station's news; and the
//! member services' news by tag, `GET /legal/news`, `/accounting/news` and
//! `/political/news` (docs/api-services.md), each where the station offers its desk.

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::content::{ContentRefused, news};
use domain::services::{self, Desk};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::StationQuery;
use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::member::Member;
use crate::member::own_scope;
use crate::paging::{self, PageQuery, Paged};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(news_list))
        .routes(routes!(news_item))
        .routes(routes!(legal_news))
        .routes(routes!(accounting_news))
        .routes(routes!(political_news))
}

/// A news item as the list shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NewsCard {
    pub id: i64,
    pub title: String,
    pub subtitle: String,
    /// The picture's URL, if it has one.
    pub image: Option<String>,
    /// The picture at every width it is stored at, for an `<img srcset>`:
    /// `/api/media/a.480w.jpg 480w, /api/media/a.png 1200w`, narrowest first, the original
    /// last. Null until its narrower copies are made (a job, moments after the upload).
    #[schema(examples("/api/media/news/a.480w.jpg 480w, /api/media/news/a.png 1200w"))]
    pub image_srcset: Option<String>,
    pub published_at: DateTime<Utc>,
}

impl From<news::NewsCard> for NewsCard {
    fn from(card: news::NewsCard) -> Self {
        let news::NewsCard {
            id,
            title,
            subtitle,
            image,
            image_srcset,
            published_at,
        } = card;
        Self {
            id,
            title,
            subtitle,
            image,
            image_srcset,
            published_at,
        }
    }
}

/// A news item with its body.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct News {
    #[serde(flatten)]
    pub card: NewsCard,
    /// HTML sanitised by the server (p, br, hr, h2-h4, strong, b, em, i, u, s, small, sub,
    /// sup, blockquote, ul, ol, li, and links to http, https, mailto and tel).
    pub body: String,
}

/// The station's news
///
/// Published items, newest first. `limit` and `offset` page the list (the first 500
/// without `limit`); `X-Total-Count` is the size of the whole list.
#[utoipa::path(
    get,
    path = "/news/",
    tag = "content",
    security(("member" = [])),
    params(
        ("where[station_id]" = Option<i64>, Query, description = "The caller's station"),
        ("limit" = Option<i64>, Query, minimum = 1, maximum = 100, description = "At most this many (1 to 100); absent, the first 500"),
        ("offset" = Option<i64>, Query, minimum = 0, description = "Skip this many first (0 by default)"),
    ),
    responses(
        (status = 200, description = "The station's published news", body = [NewsCard],
            headers(("X-Total-Count" = i64, description = "How many items the whole list holds"))),
        (status = 400, description = "A parameter is not a number, or `limit` or `offset` is out of range", body = Messages),
        (status = 401, description = "Not signed in", body = Messages),
        (status = 403, description = "Another station's", body = Messages),
    )
)]
async fn news_list(
    State(state): State<AppState>,
    member: Member,
    Query(scope): Query<StationQuery>,
    Query(page): Query<PageQuery>,
) -> ApiResult<Paged<NewsCard>> {
    own_scope(member, scope.station_id, None)?;
    let page = paging::page(page)?;
    let listed = news::list(&state.db, member.station(), page).await?;
    Ok(Paged::from(listed))
}

/// One news item of the station
#[utoipa::path(
    get,
    path = "/news/{id}",
    tag = "content",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The news item")),
    responses(
        (status = 200, description = "The news item", body = News),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 401, description = "Not signed in", body = Messages),
        (status = 404, description = "No such published item in the caller's station ('Notícia não encontrada')", body = ErrorMessage),
    )
)]
async fn news_item(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Json<News>> {
    let found = news::find(&state.db, member.station(), id)
        .await?
        .ok_or(ContentRefused::NewsNotFound)?;
    let news::News { card, body } = found;
    Ok(Json(News {
        card: card.into(),
        body,
    }))
}

/// A text as the service pages read it (`title.rendered`, `content.rendered`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RenderedText {
    pub rendered: String,
}

/// A news item of a member service's page.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ServiceNewsItem {
    pub id: i64,
    /// When it was published.
    pub date: DateTime<Utc>,
    pub title: RenderedText,
    /// Its body: HTML sanitised by the server, as `/news/{id}` serves it.
    pub content: RenderedText,
    pub subtitle: String,
    /// The picture's URL, if it has one.
    pub image: Option<String>,
    /// The picture at every width it is stored at, for an `<img srcset>`; null until its
    /// narrower copies are made.
    pub image_srcset: Option<String>,
}

impl From<news::News> for ServiceNewsItem {
    fn from(found: news::News) -> Self {
        let news::News { card, body } = found;
        Self {
            id: card.id,
            date: card.published_at,
            title: RenderedText {
                rendered: card.title,
            },
            content: RenderedText { rendered: body },
            subtitle: card.subtitle,
            image: card.image,
            image_srcset: card.image_srcset,
        }
    }
}

/// `?page=&tagId=`, read as text so that a bad value gets its parameter's message.
#[derive(Debug, Deserialize)]
struct TaggedQuery {
    page: Option<String>,
    #[serde(rename = "tagId")]
    tag_id: Option<String>,
}

/// A desk's page of news: refused where the station does not offer the desk.
async fn desk_news(
    state: &AppState,
    member: Member,
    desk: Desk,
    query: TaggedQuery,
) -> ApiResult<Paged<ServiceNewsItem>> {
    services::offered(&state.db, member.station(), desk).await?;
    let default_tag = desk.news_tag().unwrap_or_default();
    let tagged = news::Tagged::parse(query.page.as_deref(), query.tag_id.as_deref(), default_tag)?;
    let listed = news::list_tagged(&state.db, member.station(), tagged).await?;
    Ok(Paged::from(listed))
}

/// The legal desk's news
///
/// The station's published news carrying the tag (the legal desk's, 13752, by default),
/// newest first, 9 a page from page 1; past the end an empty list. `X-Total-Count` is
/// how many carry the tag.
#[utoipa::path(
    get,
    path = "/legal/news",
    tag = "content",
    security(("member" = [])),
    params(
        ("page" = Option<i64>, Query, minimum = 1, description = "The page, from 1 (1 by default)"),
        ("tagId" = Option<i64>, Query, description = "The tag (13752 by default)"),
    ),
    responses(
        (status = 200, description = "A page of the tag's news", body = [ServiceNewsItem],
            headers(("X-Total-Count" = i64, description = "How many items carry the tag"))),
        (status = 400, description = "A page that is not a number from 1 ('page: Página inválida') or a tag that is not a number ('tagId: Tag inválida')", body = Messages),
        (status = 401, description = "Not signed in", body = Messages),
        (status = 404, description = "The station does not offer the legal desk: 'Serviço não disponível.'", body = ErrorMessage),
    )
)]
async fn legal_news(
    State(state): State<AppState>,
    member: Member,
    Query(query): Query<TaggedQuery>,
) -> ApiResult<Paged<ServiceNewsItem>> {
    desk_news(&state, member, Desk::Legal, query).await
}

/// The accounting desk's news
///
/// As the legal desk's, with the accounting desk's tag (13754) by default.
#[utoipa::path(
    get,
    path = "/accounting/news",
    tag = "content",
    security(("member" = [])),
    params(
        ("page" = Option<i64>, Query, minimum = 1, description = "The page, from 1 (1 by default)"),
        ("tagId" = Option<i64>, Query, description = "The tag (13754 by default)"),
    ),
    responses(
        (status = 200, description = "A page of the tag's news", body = [ServiceNewsItem],
            headers(("X-Total-Count" = i64, description = "How many items carry the tag"))),
        (status = 400, description = "A page that is not a number from 1 ('page: Página inválida') or a tag that is not a number ('tagId: Tag inválida')", body = Messages),
        (status = 401, description = "Not signed in", body = Messages),
        (status = 404, description = "The station does not offer the accounting desk: 'Serviço não disponível.'", body = ErrorMessage),
    )
)]
async fn accounting_news(
    State(state): State<AppState>,
    member: Member,
    Query(query): Query<TaggedQuery>,
) -> ApiResult<Paged<ServiceNewsItem>> {
    desk_news(&state, member, Desk::Accounting, query).await
}

/// The political desk's news
///
/// As the legal desk's, with the political desk's tag (13755) by default.
#[utoipa::path(
    get,
    path = "/political/news",
    tag = "content",
    security(("member" = [])),
    params(
        ("page" = Option<i64>, Query, minimum = 1, description = "The page, from 1 (1 by default)"),
        ("tagId" = Option<i64>, Query, description = "The tag (13755 by default)"),
    ),
    responses(
        (status = 200, description = "A page of the tag's news", body = [ServiceNewsItem],
            headers(("X-Total-Count" = i64, description = "How many items carry the tag"))),
        (status = 400, description = "A page that is not a number from 1 ('page: Página inválida') or a tag that is not a number ('tagId: Tag inválida')", body = Messages),
        (status = 401, description = "Not signed in", body = Messages),
        (status = 404, description = "The station does not offer the political desk: 'Serviço não disponível.'", body = ErrorMessage),
    )
)]
async fn political_news(
    State(state): State<AppState>,
    member: Member,
    Query(query): Query<TaggedQuery>,
) -> ApiResult<Paged<ServiceNewsItem>> {
    desk_news(&state, member, Desk::Political, query).await
}
