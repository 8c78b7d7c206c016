//! `GET /subscription-plans`, `GET /subscription-plans/{id}` (public: the station of the
//! signed-in member, else of the host) and the enterprise plan form
//! `POST /subscription-plans/enterprise-contact`.

use axum::extract::State;
use axum::http::header::HOST;
use axum::http::{HeaderMap, StatusCode};
use domain::shared::ids::StationId;
use domain::stations::StationError;
use domain::subscriptions::plans::{self, PLAN_NOT_FOUND};
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Plan;
use crate::client_ip::ClientIp;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::member::{Member, SignedIn};
use crate::member_throttle::{MemberLimit, throttle};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_plans))
        .routes(routes!(show_plan))
        .routes(routes!(enterprise_contact))
}

/// The station a public call reads: the signed-in member's, else the host's (a station's
/// own host, else its subdomain, else the default station), as `GET /config` picks it.
async fn station_of(
    state: &AppState,
    signed_in: Option<SignedIn>,
    headers: &HeaderMap,
) -> ApiResult<StationId> {
    if let Some(signed_in) = signed_in {
        return Ok(signed_in.user.station_id);
    }
    let host = ["x-forwarded-host", HOST.as_str()]
        .iter()
        .find_map(|name| headers.get(*name)?.to_str().ok())
        .map(|value| value.split(',').next().unwrap_or_default().trim());
    let station_id = domain::stations::station::resolve_host(
        &state.db,
        host,
        state.config.default_station.as_ref(),
    )
    .await?
    .ok_or(StationError::NotFound)?;
    Ok(StationId(station_id))
}

/// The station's plans
///
/// Deleted plans are hidden; cheapest first (amount less discount), 'A negociar' (amount
/// null) last. The station is the signed-in member's, else the host's.
#[utoipa::path(
    get,
    path = "/subscription-plans",
    tag = "subscriptions",
    responses(
        (status = 200, description = "The plans", body = Vec<Plan>),
        (status = 404, description = "No station for this host and no default station", body = ErrorMessage),
    )
)]
async fn list_plans(
    State(state): State<AppState>,
    signed_in: Option<SignedIn>,
    headers: HeaderMap,
) -> ApiResult<Json<Vec<Plan>>> {
    let station_id = station_of(&state, signed_in, &headers).await?;
    Ok(Json(super::station_plans(&state, station_id).await?))
}

/// One plan of the station
#[utoipa::path(
    get,
    path = "/subscription-plans/{id}",
    tag = "subscriptions",
    params(("id" = i64, Path, description = "The plan's id")),
    responses(
        (status = 200, description = "The plan", body = Plan),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 404, description = "No such plan on sale in this station: 'Plano não encontrado.'", body = ErrorMessage),
    )
)]
async fn show_plan(
    State(state): State<AppState>,
    signed_in: Option<SignedIn>,
    headers: HeaderMap,
    Path(plan_id): Path<i64>,
) -> ApiResult<Json<Plan>> {
    let station_id = station_of(&state, signed_in, &headers).await?;
    let mut conn = state.db.acquire().await?;
    let plan = plans::on_sale(&mut conn, station_id, plan_id)
        .await?
        .ok_or_else(|| ApiError::not_found(PLAN_NOT_FOUND))?;
    Ok(Json(plan.into()))
}

/// Enterprise queries: a few an hour per member, each an e-mail to the station.
struct EnterpriseLimit;

impl MemberLimit for EnterpriseLimit {
    const NAME: &'static str = "enterprise-contact";
    fn limit(_: &domain::Config) -> (u32, u64) {
        (5, 3600)
    }
}

#[derive(Debug, Deserialize, ToSchema)]
struct EnterpriseContact {
    /// At most 600 characters.
    #[serde(default)]
    message: String,
    /// The captcha widget's token (required when the captcha is on).
    #[serde(default)]
    captcha: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
struct EnterpriseQueued {
    /// The e-mail's job (`GET /jobs/{id}`).
    job_id: String,
}

/// Asks for an enterprise plan ('sobconsulta')
///
/// The message is e-mailed to the station's contact address with the member's name, e-mail
/// and phone. Five a member per hour.
#[utoipa::path(
    post,
    path = "/subscription-plans/enterprise-contact",
    tag = "subscriptions",
    security(("member" = [])),
    request_body = EnterpriseContact,
    responses(
        (status = 202, description = "The e-mail is queued", body = EnterpriseQueued),
        (status = 422, description = "'message: Esse campo é obrigatório', 'message: Esse campo deve possuir no máximo 600 caracteres', the captcha failed ('Verificação de segurança inválida. Tente novamente.'), the station has no contact address", body = Messages),
        (status = 429, description = "More than 5 queries in an hour", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn enterprise_contact(
    State(state): State<AppState>,
    member: Member,
    ClientIp(ip): ClientIp,
    Json(form): Json<EnterpriseContact>,
) -> ApiResult<(StatusCode, Json<EnterpriseQueued>)> {
    throttle::<EnterpriseLimit>(&state, &member).await?;
    let job_id = app::subscriptions::subscribe::enterprise_contact(
        &state.db,
        &JobOutbox,
        &*state.captcha,
        ip,
        &state.config.public_url,
        member.station(),
        member.user(),
        &form.message,
        form.captcha.as_deref(),
    )
    .await?;
    Ok((StatusCode::ACCEPTED, Json(EnterpriseQueued { job_id })))
}
