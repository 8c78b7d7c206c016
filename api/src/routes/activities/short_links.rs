//! Our own short links for share activities (type 5): `POST /api/short-links` gives the
//! member's link `{station url}/s/{code}`. Opening it (`GET /s/{code}`, outside `/api`) is
//! `crate::short_link_redirect`.

use axum::extract::State;
use domain::activities::short_links;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::sharing::SHARE_NOT_FOUND;
use crate::error::{ApiError, ApiResult, ErrorMessage};
use crate::extract::Json;
use crate::member::Member;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(create_short_link))
}

#[derive(Debug, Deserialize, ToSchema)]
struct ShortLinkRequest {
    action_id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
struct ShortLink {
    code: String,
    /// `{station url}/s/{code}`: what the member shares.
    url: String,
    /// The share page the code redirects to, on the station's host.
    #[schema(examples("/compartilhamento?source=7&campaign=31"))]
    target: String,
}

/// The caller's short link for a share activity (type 5)
///
/// One code per member and activity, created on the first call; calls at once get the same
/// one. Taking it is no participation and pays nothing: the share pays when its visitors
/// open it (`POST /validate-sharing`).
#[utoipa::path(
    post,
    path = "/short-links",
    tag = "activities",
    security(("member" = [])),
    request_body = ShortLinkRequest,
    responses(
        (status = 200, description = "The member's short link", body = ShortLink),
        (status = 404, description = "Not a share activity of the member's station open now", body = ErrorMessage),
    )
)]
async fn create_short_link(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<ShortLinkRequest>,
) -> ApiResult<Json<ShortLink>> {
    let mut conn = state.db.acquire().await?;
    let link = short_links::link_for(
        &mut conn,
        member.user_id,
        member.station_id,
        request.action_id,
    )
    .await
    .map_err(ApiError::Internal)?
    .ok_or_else(|| ApiError::not_found(SHARE_NOT_FOUND))?;
    Ok(Json(ShortLink {
        code: link.code,
        url: link.url,
        target: link.target,
    }))
}
