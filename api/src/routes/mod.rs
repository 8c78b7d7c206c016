//! One module per resource, each with its own `router()`; merged here under `/api`.

use axum::Router;

use crate::error::ApiError;
use crate::state::AppState;

pub mod auth;
pub mod health;
pub mod jobs;
pub mod mailing;
pub mod ops;
pub mod profile;
pub mod recovery;
pub mod sharing;
pub mod signup;
pub mod site;
pub mod stations;
pub mod users;
pub mod wallet;

pub const ROUTE_NOT_FOUND: &str = "Rota não encontrada";

pub fn api() -> Router<AppState> {
    Router::new()
        .merge(site::router())
        .merge(stations::router())
        .merge(auth::router())
        .merge(jobs::router())
        .merge(users::router())
        .merge(signup::router())
        .merge(recovery::router())
        .merge(profile::router())
        .merge(mailing::router())
        .merge(sharing::router())
        .merge(wallet::router())
        .nest("/ops", ops::router())
        .fallback(|| async { ApiError::not_found(ROUTE_NOT_FOUND) })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
}
