//! Operations endpoints, outside `/api`: liveness, readiness and Prometheus metrics.
//! Metrics are not public: the public listener serves them only to the bearer of
//! `FILIA_METRICS_TOKEN`, and not at all when `FILIA_METRICS_BIND` gives them a listener of
//! their own ([`metrics_router`]) or when neither is configured.

use secrecy::ExposeSecret;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::error::{ApiError, ApiResult};
use crate::extract::Json;
use crate::state::AppState;

/// A dependency slower than this counts as down: a load balancer must not wait on us.
const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/healthz",
            get(|| async { Json(json!({ "status": "ok" })) }),
        )
        .route("/readyz", get(readyz))
        .route("/metrics", get(public_metrics))
}

/// The router of the metrics listener (`FILIA_METRICS_BIND`): `/metrics` and nothing else.
pub fn metrics_router() -> Router<AppState> {
    Router::new()
        .route("/metrics", get(metrics))
        .fallback(|| async { ApiError::not_found(crate::routes::ROUTE_NOT_FOUND) })
}

async fn readyz(State(state): State<AppState>) -> impl IntoResponse {
    let (postgres, redis) = tokio::join!(postgres_answers(&state), redis_answers(&state));
    let status = |up: bool| if up { "ok" } else { "unavailable" };
    let checks = json!({ "postgres": status(postgres), "redis": status(redis) });
    if postgres && redis {
        (
            StatusCode::OK,
            Json(json!({ "status": "ok", "checks": checks })),
        )
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(
                json!({ "status": "unavailable", "error": "Serviço indisponível", "checks": checks }),
            ),
        )
    }
}

async fn postgres_answers(state: &AppState) -> bool {
    let ping = sqlx::query("SELECT 1").execute(&state.db);
    matches!(tokio::time::timeout(CHECK_TIMEOUT, ping).await, Ok(Ok(_)))
}

async fn redis_answers(state: &AppState) -> bool {
    let ping = async {
        let mut connection = state.redis.get_multiplexed_async_connection().await?;
        redis::cmd("PING")
            .query_async::<String>(&mut connection)
            .await
    };
    matches!(tokio::time::timeout(CHECK_TIMEOUT, ping).await, Ok(Ok(pong)) if pong == "PONG")
}

/// On the public listener: only with a token, and only when metrics have no listener of
/// their own. Otherwise the path is unknown, like any other.
async fn public_metrics(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    if state.config.metrics_bind.is_some() || state.config.metrics_token.is_none() {
        return Err(ApiError::not_found(crate::routes::ROUTE_NOT_FOUND));
    }
    metrics(State(state), headers).await
}

async fn metrics(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    if let Some(token) = &state.config.metrics_token {
        let given = headers
            .get(AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix("Bearer "))
            .unwrap_or_default();
        // Digests compared, so the comparison's time says nothing about the token.
        if Sha256::digest(given.as_bytes()) != Sha256::digest(token.expose_secret().as_bytes()) {
            return Err(ApiError::Unauthorized(METRICS_UNAUTHORIZED.into()));
        }
    }
    Ok((
        [(CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(),
    )
        .into_response())
}

const METRICS_UNAUTHORIZED: &str = "Token de métricas ausente ou inválido.";
