//! Accounts: sign-up in all its variants, activation, login and sessions, password
//! recovery, profile, the member's own data and card, the mailing list, member-get-member.
//! Each handler parses, authorises, calls the area's use case (`domain::accounts`) and
//! answers; a use case that writes runs on the handler's transaction, and the handler
//! queues the jobs it hands back ([`queue`]) on that transaction before committing.

use domain::accounts::change::{AccountError, FollowUp};
use jobs::JobOutbox;
use sqlx::PgConnection;
use utoipa_axum::router::OpenApiRouter;

use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use domain::stations::STATION_NOT_FOUND;

pub mod auth;
pub mod mailing;
pub mod profile;
pub mod recovery;
pub mod signup;
pub mod users;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(auth::router())
        .merge(users::router())
        .merge(signup::router())
        .merge(recovery::router())
        .merge(profile::router())
        .merge(mailing::router())
}

/// Queues what a change needs on the change's transaction: its e-mails (`mail.send`) and
/// credits (`points.credit`). Answers the e-mails' job ids.
async fn queue(tx: &mut PgConnection, follow_up: FollowUp) -> ApiResult<Vec<String>> {
    Ok(app::accounts::follow_up(&JobOutbox, tx, follow_up).await?)
}
