//! One folder per business area, one module per resource in it, each with its own
//! `router()`; merged here under `/api`.

use axum::Router;

use crate::error::ApiError;
use crate::state::AppState;

pub mod accounts;
pub mod engagement;
pub mod health;
pub mod jobs;
pub mod staff;
pub mod stations;
pub mod wallet;

pub fn api() -> Router<AppState> {
    Router::new()
        .merge(stations::site::router())
        .merge(stations::branding::router())
        .merge(accounts::auth::router())
        .merge(jobs::state::router())
        .merge(accounts::users::router())
        .merge(accounts::signup::router())
        .merge(accounts::recovery::router())
        .merge(accounts::profile::router())
        .merge(accounts::mailing::router())
        .merge(engagement::sharing::router())
        .merge(wallet::points::router())
        .nest("/ops", staff::ops::router())
        .fallback(|| async { ApiError::not_found("Rota não encontrada") })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
}
