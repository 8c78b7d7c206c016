//! Accounts: sign-up in all its variants, activation, login and sessions, password
//! recovery, profile, the member's own data and card, the mailing list, member-get-member.
//! Each handler parses, authorises, calls the area's use case (`app::accounts`, which owns
//! the transaction and the e-mails and credits the change queues) and answers.

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub mod auth;
pub mod mailing;
pub mod member_card;
pub mod profile;
pub mod recovery;
pub mod signup;
pub mod users;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(auth::router())
        .merge(users::router())
        .merge(member_card::router())
        .merge(signup::router())
        .merge(recovery::router())
        .merge(profile::router())
        .merge(mailing::router())
}
