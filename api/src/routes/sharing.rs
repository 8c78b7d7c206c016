//! Share links: `POST /api/validate-sharing` answers where the share activity sends the
//! visitor and records the visit, once per visitor. The sharer's credit is keyed on the
//! visitor's network, not on what the caller sends (user agent, visitor id), and capped per
//! day (`domain::wallet::rewards::on_share_visit`); calls are limited per client address
//! ([`ShareThrottle`]).

use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::header::USER_AGENT;
use axum::routing::post;
use domain::engagement::sharing::{self, SharedAction, Visit};
use serde::{Deserialize, Serialize};

use crate::client_ip::ClientIp;
use crate::error::{ApiError, ApiResult};
use crate::extract::Json;
use crate::ip_throttle::ShareThrottle;
use crate::member::SignedIn;
use crate::state::AppState;

pub const SHARE_NOT_FOUND: &str = "Compartilhamento não encontrado";

pub fn router() -> Router<AppState> {
    Router::new().route("/validate-sharing", post(validate_sharing))
}

#[derive(Debug, Deserialize)]
struct ShareVisit {
    action_id: i64,
    user_id: i64,
    /// A random id the visitor's browser keeps.
    #[serde(default)]
    visitor_id: Option<String>,
}

#[derive(Debug, Serialize)]
struct Validated {
    action: SharedAction,
}

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
    // The sharer trying their own link earns nothing.
    let own_link = signed_in.is_some_and(|s| s.user.user_id == visit.user_id);
    if !own_link {
        let user_agent = headers
            .get(USER_AGENT)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default();
        let client_hash = sharing::client_hash(ip, user_agent);
        let visitor_key = sharing::visitor_key(visit.visitor_id.as_deref(), &client_hash);
        let network = sharing::network_key(state.config.signing_key.expose(), ip);
        let visit_row = Visit {
            action: &action,
            sharer_id: visit.user_id,
            visitor_key: &visitor_key,
            client_hash: &client_hash,
            network: &network,
        };
        // The sharer's credit is queued with the visit that earns it.
        let mut tx = state.db.begin().await?;
        let recorded = sharing::record_visit(&mut *tx, &visit_row).await?;
        if recorded {
            crate::routes::wallet::credit_share_visit(&mut tx, &visit_row).await?;
        }
        tx.commit().await?;
        if recorded {
            tracing::info!(
                action_id = action.id,
                sharer_id = visit.user_id,
                "share visit"
            );
        }
    }
    Ok(Json(Validated { action }))
}
