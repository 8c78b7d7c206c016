//! One way a use case says it did not go through, whatever answers the caller: the API
//! turns a [`Failure`] into its status and envelope (`api::error`), a job into its retry or
//! its end. Each area's refusal type says once, beside its texts, which kind of failure
//! each refusal is ([`IntoFailure`]); no route maps refusals of its own.

/// How a request failed, in the caller's terms. The texts are the spec's, in Portuguese.
#[derive(Debug)]
pub enum Failure {
    /// The request was built wrong (a bad parameter): the text says which and how.
    BadRequest(String),
    /// The request breaks rules the member can fix: one text per broken rule.
    Invalid(Vec<String>),
    /// Not signed in, or the credentials are wrong.
    Unauthorized(String),
    /// Signed in, but this account may not do this.
    Forbidden(String),
    /// Not there, or not the caller's to see: another member's or station's data reads as
    /// absent.
    NotFound(String),
    /// The thing's state does not allow this (again).
    Conflict(String),
    /// A provider the answer depends on is down and nothing stands in for it; the caller
    /// may try again later.
    Unavailable(String),
    /// Too many attempts: the caller may try again after `retry_after` seconds.
    TooMany { message: String, retry_after: u64 },
    /// Something broke. The caller is told only that; the cause goes to the log.
    Internal(anyhow::Error),
}

impl Failure {
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::Invalid(vec![message.into()])
    }
}

/// A refusal (or a breakage) that knows which [`Failure`] it is.
pub trait IntoFailure {
    fn into_failure(self) -> Failure;
}

impl IntoFailure for Failure {
    fn into_failure(self) -> Failure {
        self
    }
}

impl IntoFailure for anyhow::Error {
    fn into_failure(self) -> Failure {
        Failure::Internal(self)
    }
}

impl IntoFailure for sqlx::Error {
    fn into_failure(self) -> Failure {
        Failure::Internal(self.into())
    }
}
