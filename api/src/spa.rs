//! Serves the built web app. Any path outside `/api` that is not a file answers
//! `index.html`, so the app's own router handles deep links such as `/not-autorized`.
//! The build writes a Brotli and a gzip copy beside each text file
//! (web/scripts/compress-assets.js); a browser that accepts one gets it.

use axum::extract::{Request, State};
use axum::http::header::{CACHE_CONTROL, HeaderValue};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

use crate::state::AppState;

pub async fn serve(State(state): State<AppState>, request: Request) -> Response {
    let dir = &state.config.web_dir;
    // Vite fingerprints everything under /assets; the rest must be revalidated.
    let cache = if request.uri().path().starts_with("/assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let index = ServeFile::new(dir.join("index.html"))
        .precompressed_br()
        .precompressed_gzip();
    let mut response = match ServeDir::new(dir)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(index)
        .oneshot(request)
        .await
    {
        Ok(response) => response.into_response(),
        Err(never) => match never {},
    };
    if response.status().is_success() {
        response
            .headers_mut()
            .insert(CACHE_CONTROL, HeaderValue::from_static(cache));
    }
    response
}
