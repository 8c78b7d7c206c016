//! `GET /s/{code}`: a member's short link (`routes::activities::short_links`) opened. It is
//! served beside `/api`, not under it, so the link stays short, on whichever station host
//! it was given for; no token. It redirects (302, relative to this host) to the share page
//! `/compartilhamento?source=&campaign=` and counts the opening; an unknown code is the web
//! app's not-found page with status 404. Not in the OpenAPI contract, which covers `/api`.
//! Limited per client address ([`ShortLinkThrottle`]) so a loop cannot inflate the counter
//! or walk the codes.

use axum::Router;
use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, LOCATION};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use domain::Config;
use domain::activities::short_links;

use crate::error::ApiResult;
use crate::ip_throttle::{IpLimit, IpThrottle, TOO_MANY_VISITS};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/s/{code}", get(open))
}

/// Short-link openings: the share limits (`FILIA_SHARE_MAX_PER_IP` per
/// `FILIA_SHARE_WINDOW_SECONDS`) on a counter of their own, so opening a link and the share
/// page's visit call do not spend one allowance twice.
#[derive(Debug)]
pub struct ShortLinkOpens;

impl IpLimit for ShortLinkOpens {
    const NAME: &'static str = "short-link";
    const MESSAGE: &'static str = TOO_MANY_VISITS;
    fn limit(config: &Config) -> (u32, u64) {
        (config.share_max_per_ip, config.share_window_seconds)
    }
}

pub type ShortLinkThrottle = IpThrottle<ShortLinkOpens>;

async fn open(
    _: ShortLinkThrottle,
    State(state): State<AppState>,
    Path(code): Path<String>,
    request: Request,
) -> ApiResult<Response> {
    match short_links::resolve(&state.db, &code).await? {
        Some(target) => Ok((
            StatusCode::FOUND,
            // A cached redirect would not be counted.
            [(LOCATION, target), (CACHE_CONTROL, "no-store".to_string())],
        )
            .into_response()),
        None => {
            let mut page = crate::spa::serve(State(state), request).await;
            *page.status_mut() = StatusCode::NOT_FOUND;
            Ok(page)
        }
    }
}
