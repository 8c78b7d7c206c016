//! The domain's integration tests, one binary (one link) with a module per subject: mail
//! delivery to files and to a real SMTP server, recovery links, the validators' vectors.

mod mail_file;
mod mail_smtp;
mod recovery_links;
mod validator_vectors;
