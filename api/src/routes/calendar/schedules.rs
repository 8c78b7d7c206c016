//! `GET /schedules/?where[station_id]=` and `GET /schedules//{id}` (spec 002 section 7,
//! "Other"; the double slash is the contract's): the station's published schedules.

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::calendar::schedules::{self, Window};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::member::{Member, NOT_AUTHORIZED};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(station_schedules))
        .routes(routes!(schedule))
}

/// What the day of a schedule is.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ScheduleDay {
    /// "Feriado", "Dia do associado".
    pub description: String,
}

/// An event of the station's calendar.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Schedule {
    pub id: i64,
    pub name: String,
    pub description: String,
    /// The picture's URL, when it has one.
    pub image: Option<String>,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    /// Present when the day is something ("Feriado").
    pub day: Option<ScheduleDay>,
}

impl From<schedules::Schedule> for Schedule {
    fn from(schedule: schedules::Schedule) -> Self {
        let schedules::Schedule {
            id,
            name,
            description,
            image,
            starts_at,
            ends_at,
            day_description,
        } = schedule;
        Self {
            id,
            name,
            description,
            image,
            start: starts_at,
            end: ends_at,
            day: day_description.map(|description| ScheduleDay { description }),
        }
    }
}

#[derive(Debug, Deserialize)]
struct SchedulesQuery {
    #[serde(rename = "where[station_id]")]
    station_id: Option<i64>,
    /// The window's start: schedules ending at or after it.
    #[serde(rename = "where[end][gte]")]
    end_from: Option<String>,
    /// The window's end: schedules starting at or before it.
    #[serde(rename = "where[start][lte]")]
    start_to: Option<String>,
}

/// The station's schedules in a window
///
/// Published schedules of the caller's station that overlap the window (ending at or after
/// `where[end][gte]` and starting at or before `where[start][lte]`, RFC 3339 instants, at
/// most 62 days apart), earliest first, at most 500. Without a window: the next 62 days.
/// `where[station_id]` is the caller's (absent means the caller's).
#[utoipa::path(
    get,
    path = "/schedules/",
    tag = "calendar",
    security(("member" = [])),
    params(
        ("where[station_id]" = Option<i64>, Query, description = "The caller's station"),
        ("where[end][gte]" = Option<String>, Query, description = "The window's start (RFC 3339), with `where[start][lte]`"),
        ("where[start][lte]" = Option<String>, Query, description = "The window's end (RFC 3339), with `where[end][gte]`"),
    ),
    responses(
        (status = 200, description = "The schedules overlapping the window", body = [Schedule]),
        (status = 403, description = "Another station's", body = Messages),
        (status = 404, description = "The station shows no calendar", body = ErrorMessage),
        (status = 422, description = "A bad window: a date unread, one bound alone, inverted or longer than 62 days", body = Messages),
    )
)]
async fn station_schedules(
    State(state): State<AppState>,
    member: Member,
    Query(query): Query<SchedulesQuery>,
) -> ApiResult<Json<Vec<Schedule>>> {
    if query.station_id.is_some_and(|id| id != member.station_id) {
        return Err(ApiError::Forbidden(NOT_AUTHORIZED.into()));
    }
    let window = Window::parse(
        query.end_from.as_deref(),
        query.start_to.as_deref(),
        Utc::now(),
    )?;
    let found = schedules::in_window(&state.db, member.station(), window).await?;
    Ok(Json(found.into_iter().map(Schedule::from).collect()))
}

/// One schedule
///
/// A published schedule of the caller's station; another station's or an unpublished one
/// is not found. The double slash is the contract's.
#[utoipa::path(
    get,
    path = "/schedules//{id}",
    tag = "calendar",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The schedule")),
    responses(
        (status = 200, description = "The schedule", body = Schedule),
        (status = 404, description = "Unknown, unpublished or another station's, or the station shows no calendar", body = ErrorMessage),
    )
)]
async fn schedule(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Json<Schedule>> {
    let found = schedules::find(&state.db, member.station(), id).await?;
    Ok(Json(Schedule::from(found)))
}
