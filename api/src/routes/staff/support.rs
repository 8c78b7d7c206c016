//! The console's support messages (docs/api-support.md "Console"): a station's messages,
//! newest first, paged, open or answered; and staff's answer, e-mailed to the sender. The
//! answer needs the `support` role and is audited (`support.answer`).

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::shared::paging::Listed;
use domain::stations::StationError;
use domain::support::{self, ConsoleMessage, Filter};
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::params::{BAD_STATE, given, invalid_if_any, parse_page};
use crate::error::{ErrorMessage, Messages};
use crate::extract::{Json, Path, Query};
use crate::staff::{OpsResult, Staff};
use crate::state::AppState;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(station_messages))
        .routes(routes!(answer_message))
}

#[derive(Debug, Deserialize)]
struct MessagesQuery {
    status: Option<String>,
    page: Option<String>,
    per_page: Option<String>,
}

/// A message as the console shows it.
#[derive(Debug, Serialize, ToSchema)]
struct OpsSupportMessage {
    id: i64,
    station_id: i64,
    /// The member who wrote it while signed in; null for a visitor.
    user_id: Option<i64>,
    name: String,
    email: String,
    /// Digits.
    phone: Option<String>,
    subject: String,
    message: String,
    /// Whether it was e-mailed to the station's contact address (false: the station had
    /// none, the console alone has it).
    station_mailed: bool,
    answer: Option<String>,
    answered_by: Option<i64>,
    answered_by_name: Option<String>,
    answered_at: Option<DateTime<Utc>>,
    created_at: DateTime<Utc>,
}

impl From<ConsoleMessage> for OpsSupportMessage {
    fn from(row: ConsoleMessage) -> Self {
        let ConsoleMessage {
            message,
            answered_by_name,
        } = row;
        let support::SupportMessage {
            id,
            station_id,
            user_id,
            name,
            email,
            phone,
            subject,
            message,
            station_mailed,
            answer,
            answered_by,
            answered_at,
            created_at,
        } = message;
        Self {
            id,
            station_id,
            user_id,
            name,
            email,
            phone,
            subject,
            message,
            station_mailed,
            answer,
            answered_by,
            answered_by_name,
            answered_at,
            created_at,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
struct OpsSupportMessages {
    messages: Vec<OpsSupportMessage>,
    total: i64,
    page: i64,
    per_page: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
struct SupportAnswer {
    /// Required, at most 4000 characters.
    #[serde(default)]
    answer: Option<String>,
}

/// A station's support messages, newest first
///
/// Filtered by `status` (`open`, `answered`). Viewers and support staff, within the
/// grant's stations.
#[utoipa::path(
    get,
    path = "/stations/{id}/support-messages",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("id" = i64, Path, description = "The station id"),
        ("status" = Option<String>, Query, description = "`open` or `answered`; all when absent"),
        ("page" = Option<i64>, Query, description = "From 1 (the default)"),
        ("per_page" = Option<i64>, Query, description = "1 to 200, 50 by default"),
    ),
    responses(
        (status = 200, description = "A page of messages and the total", body = OpsSupportMessages),
        (status = 400, description = "A parameter is not a number", body = Messages),
        (status = 403, description = "Not staff", body = ErrorMessage),
        (status = 404, description = "No such station in the grant's scope", body = ErrorMessage),
        (status = 422, description = "An unknown status ('Estado inválido.') or a bad page ('Página inválida.')", body = Messages),
    )
)]
async fn station_messages(
    State(state): State<AppState>,
    staff: Staff,
    Path(station_id): Path<i64>,
    Query(query): Query<MessagesQuery>,
) -> OpsResult<Json<OpsSupportMessages>> {
    if !staff.scope().covers_station(station_id) {
        return Err(StationError::NotFound.into());
    }
    let mut messages = Vec::new();
    let filter = match given(query.status).as_deref() {
        None => None,
        Some("open") => Some(Filter::Open),
        Some("answered") => Some(Filter::Answered),
        Some(_) => {
            messages.push(BAD_STATE);
            None
        }
    };
    let (page, per_page) = parse_page(query.page, query.per_page, &mut messages);
    invalid_if_any(messages)?;
    let mut conn = state.db.acquire().await?;
    let listed = support::page(&mut conn, station_id, filter, page, per_page).await?;
    let Listed { items, total } = listed.map(OpsSupportMessage::from);
    Ok(Json(OpsSupportMessages {
        messages: items,
        total,
        page,
        per_page,
    }))
}

/// Answers a support message
///
/// The answer is stored with who and when and e-mailed to the sender, once: a message
/// already answered is 409. Support staff only; audited (`support.answer`).
#[utoipa::path(
    post,
    path = "/support-messages/{id}/answer",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The message's id")),
    request_body = SupportAnswer,
    responses(
        (status = 200, description = "Answered", body = OpsSupportMessage),
        (status = 400, description = "The id is not a number, or the body cannot be read", body = Messages),
        (status = 403, description = "Not staff, or a viewer (reads only)", body = ErrorMessage),
        (status = 404, description = "No such message in the grant's scope: 'Mensagem não encontrada.'", body = ErrorMessage),
        (status = 409, description = "Already answered: 'Esta mensagem já foi respondida.'", body = ErrorMessage),
        (status = 422, description = "'answer: Esse campo é obrigatório', 'answer: Esse campo deve possuir no máximo 4000 caracteres'", body = Messages),
    )
)]
async fn answer_message(
    State(state): State<AppState>,
    staff: Staff,
    Path(message_id): Path<i64>,
    Json(body): Json<SupportAnswer>,
) -> OpsResult<Json<OpsSupportMessage>> {
    staff.require_support()?;
    let answered = app::support::answer(
        &state.db,
        &JobOutbox,
        &state.config.public_url,
        staff.scope(),
        staff.user_id(),
        message_id,
        body.answer.as_deref(),
    )
    .await?;
    Ok(Json(answered.into()))
}
