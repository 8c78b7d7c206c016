//! Share links: `POST /api/validate-sharing` answers where the share activity sends the
//! visitor and records the visit, once per visitor. The sharer's credit is keyed on the
//! visitor's network, not on what the caller sends (user agent, visitor id), and capped per
//! day (`domain::wallet::rewards::on_share_visit`); calls are limited per client address
//! ([`ShareThrottle`]).

use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::header::USER_AGENT;
use domain::activities::sharing::{self, Opener, Visitor};
use secrecy::ExposeSecret;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::client_ip::ClientIp;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::ip_throttle::ShareThrottle;
use crate::member::SignedIn;
use crate::state::AppState;

pub const SHARE_NOT_FOUND: &str = "Compartilhamento não encontrado";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(validate_sharing))
}

#[derive(Debug, Deserialize, ToSchema)]
struct ShareVisit {
    action_id: i64,
    user_id: i64,
    /// A random id the visitor's browser keeps.
    #[serde(default)]
    visitor_id: Option<String>,
}

/// A share activity as the redirect page needs it: where to send the visitor.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SharedAction {
    pub id: i64,
    pub name: String,
    pub contents: Vec<Content>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ShareContent)]
pub struct Content {
    pub text: Option<String>,
    pub link: Option<String>,
}

impl From<sharing::SharedAction> for SharedAction {
    fn from(action: sharing::SharedAction) -> Self {
        let contents = action.contents.into_iter();
        Self {
            id: action.id,
            name: action.name,
            contents: contents
                .map(|c| Content {
                    text: c.text,
                    link: c.link,
                })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = SharingValidated)]
struct Validated {
    action: SharedAction,
}

/// Where a share link sends its visitor; records the visit
///
/// A visit is recorded once per visitor and may credit the sharer (capped per day). A
/// signed-in sharer opening their own link earns nothing; the token is optional.
#[utoipa::path(
    post,
    path = "/validate-sharing",
    tag = "activities",
    security((), ("session" = [])),
    request_body = ShareVisit,
    responses(
        (status = 200, description = "The shared activity and where to send the visitor", body = Validated),
        (status = 404, description = "No such share activity for this sharer", body = ErrorMessage),
        (status = 429, description = "Too many share visits from this network", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn validate_sharing(
    _: ShareThrottle,
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    signed_in: Option<SignedIn>,
    headers: HeaderMap,
    Json(visit): Json<ShareVisit>,
) -> ApiResult<Json<Validated>> {
    let action = sharing::find_share(&state.db, visit.action_id, visit.user_id)
        .await?
        .ok_or_else(|| ApiError::not_found(SHARE_NOT_FOUND))?;
    let user_agent = headers
        .get(USER_AGENT)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let opener = Opener {
        signed_in_user: signed_in.map(|s| s.user.user_id.0),
        ip,
        user_agent,
        visitor_id: visit.visitor_id.as_deref(),
    };
    let signing_key = state.config.signing_key.expose_secret();
    if let Some(visitor) = Visitor::of(signing_key, visit.user_id, &opener) {
        let visit_row = visitor.visit(&action);
        // The sharer's credit is queued with the visit that earns it.
        let recorded =
            app::activities::sharing::record_visit(&state.db, &jobs::JobOutbox, &visit_row).await?;
        if recorded {
            tracing::info!(
                action_id = action.id,
                sharer_id = visit.user_id,
                "share visit"
            );
        }
    }
    Ok(Json(Validated {
        action: action.into(),
    }))
}
