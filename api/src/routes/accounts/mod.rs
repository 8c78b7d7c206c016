//! Accounts: sign-up in all its variants, activation, login and sessions, password
//! recovery, profile, the member's own data and card, the mailing list, member-get-member.

pub mod auth;
pub mod mailing;
pub mod profile;
pub mod recovery;
pub mod signup;
pub mod users;
