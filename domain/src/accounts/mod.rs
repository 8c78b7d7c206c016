//! Members' accounts: sign-up in every variant, activation, sessions and passwords, password
//! recovery, the profile, the mailing list, member-get-member invitations and the affiliates
//! roster.

pub mod activation;
pub mod affiliate;
pub mod mailing;
pub mod mgm;
pub mod password;
pub mod pending;
pub mod profile;
pub mod recovery;
pub mod session;
pub mod signup;
pub mod user;
