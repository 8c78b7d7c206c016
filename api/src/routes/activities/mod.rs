//! Activities: the catalogue (`/actions/...`, the home's rows, public activities and
//! feedback animations), taking part, quizzes and surveys, trophies, and sharing.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub mod actions;
mod donations;
mod invitations;
mod lucky_numbers;
pub mod public;
mod research;
pub mod rows;
pub mod sharing;
mod short_links;
mod trophies;
mod videos;

pub fn router() -> OpenApiRouter<AppState> {
    sharing::router()
        .merge(actions::router())
        .merge(rows::router())
        .merge(public::router())
        .merge(donations::router())
        .merge(invitations::router())
        .merge(research::router())
        .merge(trophies::router())
        .merge(lucky_numbers::router())
        .merge(videos::router())
        .merge(short_links::router())
}
