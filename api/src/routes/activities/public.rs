//! What visitors see without a token (docs/api-activities.md): a station's public
//! activities, one of them, and the feedback animations.

use axum::extract::State;
use axum::http::HeaderValue;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use domain::activities::catalogue::{self, Filter};
use domain::activities::participation::Refused;
use domain::shared::ids::{ActivityId, StationId};
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::actions::{Activity, ActivityCard};
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::paging::{self, PageQuery, Paged};
use crate::state::AppState;

use domain::stations::STATION_NOT_FOUND;
pub const LOTTIE_NOT_FOUND: &str = "Animação não encontrada";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(public_actions))
        .routes(routes!(public_action))
        .routes(routes!(lottie_file))
}

#[derive(Debug, Deserialize)]
struct PublicListQuery {
    /// `1`: the visitors' featured carousel.
    #[serde(rename = "where[featuredPublic]")]
    featured: Option<i64>,
}

/// A station's public activities, or its public featured carousel
///
/// Published public activities by `priority` (highest first) then id; with
/// `where[featuredPublic]=1` only the featured ones, by `priorityCarousel` then id.
/// `limit` and `offset` page the list (all of it without `limit`); `X-Total-Count` is the
/// size of the whole list.
#[utoipa::path(
    get,
    path = "/public-actions/{stationId}",
    tag = "activities",
    params(
        ("stationId" = i64, Path, description = "The station"),
        ("where[featuredPublic]" = Option<i64>, Query, description = "1: only the public featured carousel"),
        ("limit" = Option<i64>, Query, minimum = 1, maximum = 100, description = "At most this many (1 to 100); absent, the first 500"),
        ("offset" = Option<i64>, Query, minimum = 0, description = "Skip this many first (0 by default)"),
    ),
    responses(
        (status = 200, description = "The station's published public activities", body = Vec<ActivityCard>,
            headers(("X-Total-Count" = i64, description = "How many activities the whole list holds, whatever the page"))),
        (status = 400, description = "The id or a parameter is not a number, or `limit` or `offset` is out of range", body = Messages),
        (status = 404, description = "No such station", body = ErrorMessage),
    )
)]
async fn public_actions(
    State(state): State<AppState>,
    Path(station_id): Path<i64>,
    Query(list): Query<PublicListQuery>,
    Query(page): Query<PageQuery>,
) -> ApiResult<Paged<ActivityCard>> {
    let page = paging::page(page)?;
    let filter = Filter {
        featured: list.featured == Some(1),
        ..Filter::default()
    };
    catalogue::list(&state.db, StationId(station_id), None, filter, page)
        .await?
        .map(Paged::from)
        .ok_or_else(|| ApiError::not_found(STATION_NOT_FOUND))
}

/// One public activity of a station
#[utoipa::path(
    get,
    path = "/public-actions/{id}/{stationId}",
    tag = "activities",
    params(
        ("id" = i64, Path, description = "The activity"),
        ("stationId" = i64, Path, description = "Its station"),
    ),
    responses(
        (status = 200, description = "The activity", body = Activity),
        (status = 400, description = "An id is not a number", body = Messages),
        (status = 404, description = "No such station (\"Estação não encontrada\"), or no such published public activity of it (\"Erro! Esta atividade não está disponível.\")", body = ErrorMessage),
    )
)]
async fn public_action(
    State(state): State<AppState>,
    Path((id, station_id)): Path<(i64, i64)>,
) -> ApiResult<Json<Activity>> {
    let station_id = StationId(station_id);
    if !catalogue::station_exists(&state.db, station_id).await? {
        return Err(ApiError::not_found(STATION_NOT_FOUND));
    }
    let activity = catalogue::detail(&state.db, station_id, None, ActivityId(id))
        .await?
        .ok_or(Refused::Unavailable)?;
    Ok(Json(
        Activity::from(activity).with_subscriptions(&state).await?,
    ))
}

/// A feedback animation (Lottie JSON)
///
/// Public; cached for a day.
#[utoipa::path(
    get,
    path = "/lottie-files/{id}",
    tag = "activities",
    params(("id" = i64, Path, description = "The animation")),
    responses(
        (status = 200, description = "The animation's Lottie JSON", content_type = "application/json", body = Object),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 404, description = "No such animation", body = ErrorMessage),
    )
)]
async fn lottie_file(State(state): State<AppState>, Path(id): Path<i64>) -> ApiResult<Response> {
    let not_found = || ApiError::not_found(LOTTIE_NOT_FOUND);
    let key = catalogue::lottie_key(&state.db, id)
        .await?
        .ok_or_else(not_found)?;
    let object = state.objects.get(&key).await?.ok_or_else(not_found)?;
    let mut response = object.bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(
        CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=86400"),
    );
    Ok(response)
}
