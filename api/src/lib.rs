//! Filia's HTTP API. A lean layer: it validates, records and answers; slow work is queued
//! for the workers. `app` builds the whole router so tests drive exactly what `serve` runs.

use std::any::Any;
use std::time::Duration;

use axum::body::Body;
use axum::http::header::{
    CONTENT_SECURITY_POLICY, REFERRER_POLICY, STRICT_TRANSPORT_SECURITY, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderValue, Request, Response};
use axum::response::IntoResponse;
use axum::{Router, middleware};
use domain::infra::config::Config;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;
use tracing::Span;

pub mod client_ip;
pub mod desk_staff;
pub mod error;
pub mod extract;
pub mod ip_throttle;
pub mod login_throttle;
pub mod member;
pub mod member_throttle;
pub mod metrics;
pub mod openapi;
pub(crate) mod paging;
pub mod routes;
pub mod short_link_redirect;
pub mod spa;
pub mod staff;
pub mod state;
pub mod upload_form;

pub use state::AppState;

/// What the web app may load: itself; Cloudflare Turnstile's script and frame (the captcha);
/// the players of activities' YouTube (without cookies) and Vimeo videos, framed; with
/// Pagar.me, its card tokeniser (the CEP lookup is ours: `POST /get-address-zip-code`). Fonts are shipped with the app;
/// React sets styles through the DOM, which `style-src` does not restrict, so no inline
/// style or script is allowed. No page may frame the app.
fn content_security_policy(config: &Config) -> HeaderValue {
    let tokenizer = config
        .card_tokenizer()
        .map(|tokenizer| format!(" {}", tokenizer.origin()))
        .unwrap_or_default();
    let policy = format!(
        "default-src 'self'; \
script-src 'self' https://challenges.cloudflare.com; \
frame-src https://challenges.cloudflare.com https://www.youtube-nocookie.com \
https://player.vimeo.com; connect-src 'self'{tokenizer}; \
img-src 'self' data:; style-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; \
form-action 'self'; frame-ancestors 'none'"
    );
    HeaderValue::from_str(&policy).expect("the policy is ASCII")
}

/// Web app paths carry live tokens (`/redefinir-senha/{token}/...`): other sites get the
/// origin only.
const REFERRER_POLICY_VALUE: &str = "strict-origin-when-cross-origin";

/// Browsers that once reached an https deployment keep to https for a year.
const HSTS_VALUE: &str = "max-age=31536000";

pub fn app(state: AppState) -> Router {
    let https = state.config.public_url.starts_with("https://");
    Router::new()
        .merge(routes::health::router())
        .nest("/api", routes::router())
        .merge(short_link_redirect::router())
        .fallback(spa::serve)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            metrics::record,
        ))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(request_span)
                .on_request(())
                .on_response(|response: &Response<Body>, latency: Duration, _: &Span| {
                    tracing::info!(
                        status = response.status().as_u16(),
                        latency_ms = latency.as_millis() as u64,
                        "answered"
                    );
                }),
        )
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        // Outermost, so every answer has them: errors, panics and the web app included.
        .layer(SetResponseHeaderLayer::overriding(
            CONTENT_SECURITY_POLICY,
            content_security_policy(&state.config),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            REFERRER_POLICY,
            HeaderValue::from_static(REFERRER_POLICY_VALUE),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            STRICT_TRANSPORT_SECURITY,
            https.then(|| HeaderValue::from_static(HSTS_VALUE)),
        ))
        .with_state(state)
}

/// What the metrics listener (`FILIA_METRICS_BIND`) serves: `/metrics` only, with the
/// public app's counters (they live in the shared state).
pub fn metrics_app(state: AppState) -> Router {
    routes::health::metrics_router().with_state(state)
}

/// Every log line of a request carries this span's fields. Only the path is logged: query
/// strings and bodies may hold personal data.
fn request_span(request: &Request<Body>) -> Span {
    let request_id = request
        .headers()
        .get("x-request-id")
        .and_then(|value| value.to_str().ok())
        .unwrap_or("-");
    tracing::info_span!(
        "request",
        id = %request_id,
        method = %request.method(),
        path = %loggable_path(request.uri().path()),
    )
}

/// The path as logged: API and health paths in full (they carry ids, never secrets), any
/// other path only by its first segment, because web app paths hold live tokens
/// (`/redefinir-senha/{token}/{email}`, `/ativar/...`, `/login-token/{token}`).
fn loggable_path(path: &str) -> std::borrow::Cow<'_, str> {
    const FULL: [&str; 4] = ["/healthz", "/readyz", "/metrics", "/api"];
    let first = path.split('/').nth(1).unwrap_or_default();
    if FULL.iter().any(|full| full[1..] == *first) {
        return path.into();
    }
    if path.trim_start_matches('/').contains('/') {
        format!("/{first}/…").into()
    } else {
        path.into()
    }
}

fn panic_response(cause: Box<dyn Any + Send + 'static>) -> Response<Body> {
    let detail = cause
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| cause.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic");
    error::ApiError::Internal(anyhow::anyhow!("handler panicked: {detail}")).into_response()
}

/// Applies pending migrations, then serves until SIGINT or SIGTERM.
pub async fn serve(config: domain::Config) -> anyhow::Result<()> {
    // Before anything else: a refused deployment touches neither the database nor a port.
    if let Some(refusal) = config.public_deployment_refusal() {
        anyhow::bail!(refusal);
    }
    let db = domain::infra::db::connect(&config).await?;
    schema::migrate(&db).await?;
    let listener = tokio::net::TcpListener::bind(config.bind).await?;
    tracing::info!(address = %listener.local_addr()?, web_dir = %config.web_dir.display(), "serving");
    let metrics_listener = match config.metrics_bind {
        Some(address) => Some(tokio::net::TcpListener::bind(address).await?),
        None => None,
    };
    let state = AppState::new(config, db)?;
    let metrics = match metrics_listener {
        Some(listener) => {
            tracing::info!(address = %listener.local_addr()?, "serving metrics");
            let app = metrics_app(state.clone());
            Some(tokio::spawn(async move {
                axum::serve(listener, app)
                    .with_graceful_shutdown(domain::infra::process::shutdown_signal())
                    .await
            }))
        }
        None => None,
    };
    let app = app(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(domain::infra::process::shutdown_signal())
        .await?;
    if let Some(metrics) = metrics {
        metrics.await??;
    }
    tracing::info!("stopped");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::loggable_path;

    #[test]
    fn web_paths_lose_everything_after_their_first_segment() {
        for (path, logged) in [
            ("/api/users-web/12", "/api/users-web/12"),
            ("/api/auth/login-token", "/api/auth/login-token"),
            ("/healthz", "/healthz"),
            ("/metrics", "/metrics"),
            ("/", "/"),
            ("/login", "/login"),
            (
                "/redefinir-senha/abc123/maria%40example.com",
                "/redefinir-senha/…",
            ),
            ("/ativar/abc123/maria%40example.com", "/ativar/…"),
            ("/email/desinscricao/12/ffee", "/email/…"),
            ("/login-token/abc123", "/login-token/…"),
            ("/apiary/secret", "/apiary/…"),
        ] {
            assert_eq!(loggable_path(path), logged, "{path}");
        }
    }
}
