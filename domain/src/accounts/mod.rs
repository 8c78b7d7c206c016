//! Members' accounts: sign-up in every variant, activation, sessions and passwords, password
//! recovery, the profile, the mailing list, member-get-member invitations and the affiliates
//! roster: the rules and their queries. A change runs on its use case's transaction
//! (`app::accounts`); [`change`] says how the rules hand back refusals and the e-mails and
//! credits a change needs. The request and answer shapes are the API's (`api::routes`).

pub mod activation;
pub mod affiliate;
pub mod change;
pub mod confirmation;
pub mod login;
pub mod mailing;
pub mod member_card;
pub mod mgm;
pub mod password;
pub mod pending;
pub mod pre_registration;
pub mod profile;
pub mod recovery;
pub mod session;
pub mod signup;
pub mod user;
