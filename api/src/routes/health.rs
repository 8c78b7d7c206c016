//! Operations endpoints, outside `/api`: liveness, readiness and Prometheus metrics.

use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::routing::get;
use serde_json::json;

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
        .route("/metrics", get(metrics))
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

async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(),
    )
}
