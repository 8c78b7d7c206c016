//! One folder per business area, one module per resource in it, each with its own
//! `router()`. Every `/api` route is mounted with utoipa-axum's `routes!`, which takes the
//! path from the handler's `#[utoipa::path]`: a route cannot be added without its entry in
//! the API contract (`crate::openapi`).

use axum::Router;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::ApiError;
use crate::state::AppState;

pub mod accounts;
pub mod activities;
pub mod calendar;
pub mod commerce;
pub mod content;
pub mod feed;
pub mod fuel;
pub mod health;
pub mod jobs;
pub mod media;
pub mod political;
pub mod services;
pub mod staff;
pub mod stations;
pub mod subscriptions;
pub mod support;
pub mod wallet;

pub const ROUTE_NOT_FOUND: &str = "Rota não encontrada";

/// The `/api` routes with their contract; paths relative to `/api`.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(crate::openapi::contract))
        .merge(stations::router())
        .merge(accounts::router())
        .merge(jobs::router())
        .merge(media::router())
        .merge(activities::router())
        .merge(calendar::router())
        .merge(wallet::router())
        .merge(commerce::router())
        .merge(content::router())
        .merge(feed::router())
        .merge(fuel::router())
        .merge(political::router())
        .merge(subscriptions::router())
        .merge(support::router())
        .merge(services::router())
        .nest("/ops", staff::router())
}

/// What `/api` serves: [`api`]'s routes, and the error envelope for any other path.
pub fn router() -> Router<AppState> {
    let (router, _) = api().split_for_parts();
    router
        .fallback(|| async { ApiError::not_found(ROUTE_NOT_FOUND) })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
}
