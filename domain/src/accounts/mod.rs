//! Members' accounts: sign-up in every variant, activation, sessions and passwords, password
//! recovery, the profile, the mailing list, member-get-member invitations and the affiliates
//! roster. Each request of the area is one use case here (`login::log_in`,
//! `signup::participant`, `confirmation`, `recovery::send_link`, `profile::check_update`...);
//! [`change`] says how they hand back refusals and the jobs their changes need.

pub mod activation;
pub mod affiliate;
pub mod change;
pub mod confirmation;
pub mod login;
pub mod mailing;
pub mod mgm;
pub mod password;
pub mod pending;
pub mod profile;
pub mod recovery;
pub mod session;
pub mod signup;
pub mod user;
