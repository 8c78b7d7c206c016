//! `GET /news/?where[station_id]=` and `GET /news/{id}`: the station's news.

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::content::{ContentRefused, news};
use serde::Serialize;
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
