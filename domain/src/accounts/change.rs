//! What the area's use cases hand back besides their result: why a request was refused, and
//! the background work a change needs. The domain knows no job runner, so a use case that
//! writes takes its caller's open transaction and returns the e-mails and credits to queue;
//! the caller queues them on that same transaction and commits, so rows and their jobs land
//! together.

use crate::infra::mail::OutgoingMail;
use crate::shared::failure::{Failure, IntoFailure};
use crate::stations::{STATION_NOT_FOUND, StationError};
use crate::wallet::ledger::Credit;

/// Why a use case refused a request (each carries what the member is told), or failed.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// The request names no station.
    #[error("no such station")]
    UnknownStation,
    /// Not offered here (a feature the station turns off): 404 with this text.
    #[error("not found: {0}")]
    NotFound(String),
    /// What the member can fix: one message per broken rule.
    #[error("invalid: {0:?}")]
    Invalid(Vec<String>),
    /// Not now: wait this many seconds.
    #[error("too many requests")]
    TooMany { message: String, retry_after: u64 },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl AccountError {
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::Invalid(vec![message.into()])
    }
}

impl IntoFailure for AccountError {
    fn into_failure(self) -> Failure {
        match self {
            Self::UnknownStation => Failure::NotFound(STATION_NOT_FOUND.into()),
            Self::NotFound(message) => Failure::NotFound(message),
            Self::Invalid(messages) => Failure::Invalid(messages),
            Self::TooMany {
                message,
                retry_after,
            } => Failure::TooMany {
                message,
                retry_after,
            },
            Self::Internal(err) => Failure::Internal(err),
        }
    }
}

impl From<sqlx::Error> for AccountError {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

impl From<StationError> for AccountError {
    fn from(err: StationError) -> Self {
        match err {
            StationError::NotFound => Self::UnknownStation,
            StationError::Internal(err) => err.into(),
        }
    }
}

/// An e-mail a change sends, rendered now: queued as one `mail.send` job owned by the
/// station and the member (if any), and about the record it concerns.
#[derive(Debug)]
pub struct Mail {
    pub mail: OutgoingMail,
    pub station_id: i64,
    /// The member it concerns; `None` for one that is the station's alone (a visitor's
    /// support message), which no member follows.
    pub user_id: Option<i64>,
    /// The record's kind and id (`user`, `password_reset`), for the job's owner to find it.
    pub about: (&'static str, i64),
}

/// The background work a change needs, to be queued on the change's transaction: e-mails
/// to deliver and wallet credits to write.
#[derive(Debug, Default)]
#[must_use = "queue it on the change's transaction before committing"]
pub struct FollowUp {
    pub mails: Vec<Mail>,
    pub credits: Vec<Credit>,
}

impl FollowUp {
    pub fn mail(mail: Mail) -> Self {
        Self {
            mails: vec![mail],
            credits: Vec::new(),
        }
    }

    pub fn credits(credits: Vec<Credit>) -> Self {
        Self {
            mails: Vec::new(),
            credits,
        }
    }
}

/// The station a request names, or [`AccountError::UnknownStation`].
pub(crate) async fn named_station(
    db: impl sqlx::PgExecutor<'_>,
    station_id: i64,
) -> Result<crate::stations::station::Station, AccountError> {
    Ok(crate::stations::station::named(db, station_id).await?)
}
