//! The wall feed's calls (spec 001 section 7): posts, likes and comments on posts and on
//! activities, reports, and the uploads of videos, images and documents.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

mod comments;
mod likes;
pub(crate) mod posts;
mod uploads;
pub(crate) mod videos;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(posts::router())
        .merge(likes::router())
        .merge(comments::router())
        .merge(videos::router())
        .merge(uploads::router())
}
