//! `GET /downloads/?where[station_id]=`, `GET /downloads/{id}` and
//! `GET /downloads/{id}/file`: the files the station offers its members. A public file's
//! `file` is its media URL; a private one's is its own route here, which streams it to a
//! signed-in member of the station only (the media route never serves the private root).

use axum::body::Body;
use axum::extract::State;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_LENGTH, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use domain::content::{ContentRefused, downloads};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::StationQuery;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::member::Member;
use crate::member::own_scope;
use crate::paging::{self, PageQuery, Paged};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(downloads_list))
        .routes(routes!(download))
        .routes(routes!(download_file))
}

/// A download as the list shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DownloadCard {
    pub id: i64,
    pub name: String,
    pub title: String,
    pub subtitle: String,
    pub description: String,
    /// Where the file is read: `/api/media/...` for a public file, `/api/downloads/{id}/file`
    /// (with the member's token) for a private one.
    pub file: String,
    pub content_type: String,
    /// In bytes.
    pub size: i64,
    /// Only the station's signed-in members may read the file.
    pub private: bool,
    pub published_at: DateTime<Utc>,
}

impl From<downloads::DownloadCard> for DownloadCard {
    fn from(card: downloads::DownloadCard) -> Self {
        let downloads::DownloadCard {
            id,
            name,
            title,
            subtitle,
            description,
            file,
            content_type,
            size,
            private,
            published_at,
        } = card;
        Self {
            id,
            name,
            title,
            subtitle,
            description,
            file,
            content_type,
            size,
            private,
            published_at,
        }
    }
}

/// A download with its body.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Download {
    #[serde(flatten)]
    pub card: DownloadCard,
    /// HTML sanitised by the server, as a news item's body.
    pub body: String,
}

/// The station's downloads
///
/// Published files, newest first. `limit` and `offset` page the list (the first 500
/// without `limit`); `X-Total-Count` is the size of the whole list.
#[utoipa::path(
    get,
    path = "/downloads/",
    tag = "content",
    security(("member" = [])),
    params(
        ("where[station_id]" = Option<i64>, Query, description = "The caller's station"),
        ("limit" = Option<i64>, Query, minimum = 1, maximum = 100, description = "At most this many (1 to 100); absent, the first 500"),
        ("offset" = Option<i64>, Query, minimum = 0, description = "Skip this many first (0 by default)"),
    ),
    responses(
        (status = 200, description = "The station's published downloads", body = [DownloadCard],
            headers(("X-Total-Count" = i64, description = "How many items the whole list holds"))),
        (status = 400, description = "A parameter is not a number, or `limit` or `offset` is out of range", body = Messages),
        (status = 401, description = "Not signed in", body = Messages),
        (status = 403, description = "Another station's", body = Messages),
    )
)]
async fn downloads_list(
    State(state): State<AppState>,
    member: Member,
    Query(scope): Query<StationQuery>,
    Query(page): Query<PageQuery>,
) -> ApiResult<Paged<DownloadCard>> {
    own_scope(member, scope.station_id, None)?;
    let page = paging::page(page)?;
    let listed = downloads::list(&state.db, member.station(), page).await?;
    Ok(Paged::from(listed))
}

/// One download of the station
#[utoipa::path(
    get,
    path = "/downloads/{id}",
    tag = "content",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The download")),
    responses(
        (status = 200, description = "The download", body = Download),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 401, description = "Not signed in", body = Messages),
        (status = 404, description = "No such published download in the caller's station ('Arquivo não encontrado')", body = ErrorMessage),
    )
)]
async fn download(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Json<Download>> {
    let found = downloads::find(&state.db, member.station(), id)
        .await?
        .ok_or(ContentRefused::DownloadNotFound)?;
    let downloads::Download { card, body } = found;
    Ok(Json(Download {
        card: card.into(),
        body,
    }))
}

/// A download's file, to a member of its station
///
/// Public or private, streamed with its content type as an attachment and never cached
/// by shared caches. Another station's download, or one not published, is not found.
#[utoipa::path(
    get,
    path = "/downloads/{id}/file",
    tag = "content",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The download")),
    responses(
        (status = 200, description = "The file's bytes, with its own content type (a PDF, a spreadsheet...)", content_type = "*/*", body = Vec<u8>),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 401, description = "Not signed in", body = Messages),
        (status = 404, description = "No such published download in the caller's station ('Arquivo não encontrado')", body = ErrorMessage),
    )
)]
async fn download_file(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Response> {
    let stored = downloads::file(&state.db, member.station(), id)
        .await?
        .ok_or(ContentRefused::DownloadNotFound)?;
    let opened = state
        .objects
        .open(&stored.key, None)
        .await?
        .ok_or_else(|| {
            ApiError::Internal(anyhow::anyhow!("stored download {} is missing", stored.key))
        })?;
    let length = opened.range.end - opened.range.start;
    let mut response = (StatusCode::OK, Body::from_stream(opened.bytes)).into_response();
    let headers = response.headers_mut();
    if let Ok(content_type) = HeaderValue::from_str(&stored.content_type) {
        headers.insert(CONTENT_TYPE, content_type);
    }
    headers.insert(CONTENT_LENGTH, HeaderValue::from(length));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
    if let Ok(value) =
        HeaderValue::from_str(&format!("attachment; filename=\"{}\"", stored.file_name))
    {
        headers.insert(CONTENT_DISPOSITION, value);
    }
    Ok(response)
}
