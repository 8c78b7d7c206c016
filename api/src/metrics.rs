//! Prometheus metrics: requests by route and status, and a latency histogram. The registry
//! belongs to the app state, not to a global, so parallel tests do not share counters.

use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounterVec, Opts, Registry, TextEncoder,
};

use crate::state::AppState;

#[derive(Clone, Debug)]
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    latency: HistogramVec,
}

impl Metrics {
    pub fn new() -> prometheus::Result<Self> {
        let registry = Registry::new();
        let requests = IntCounterVec::new(
            Opts::new("http_requests_total", "HTTP requests by route and status"),
            &["method", "route", "status"],
        )?;
        let latency = HistogramVec::new(
            HistogramOpts::new("http_request_duration_seconds", "HTTP request latency").buckets(
                vec![
                    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
                ],
            ),
            &["method", "route"],
        )?;
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(latency.clone()))?;
        Ok(Self {
            registry,
            requests,
            latency,
        })
    }

    pub fn render(&self) -> String {
        let mut buffer = Vec::new();
        // Encoding into a Vec cannot fail for the text format.
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut buffer);
        String::from_utf8(buffer).unwrap_or_default()
    }
}

/// Records one request. Routes are labelled by their pattern (`/api/stations/{id}`), never by
/// the raw path, so the number of series stays bounded.
pub async fn record(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().as_str().to_owned();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|path| path.as_str().to_owned())
        .unwrap_or_else(|| {
            if request.uri().path().starts_with("/api/") {
                "/api/unmatched"
            } else {
                "/app"
            }
            .into()
        });
    let response = next.run(request).await;
    let metrics = &state.metrics;
    metrics
        .requests
        .with_label_values(&[method.as_str(), route.as_str(), response.status().as_str()])
        .inc();
    metrics
        .latency
        .with_label_values(&[method.as_str(), route.as_str()])
        .observe(started.elapsed().as_secs_f64());
    response
}
