//! Stations: the branded programmes one deployment serves, their branding and which host
//! name belongs to which.

pub mod landing;
pub mod station;

/// The answer to a request naming a station that does not exist (or is not this host's).
pub const STATION_NOT_FOUND: &str = "Estação não encontrada";

/// A request named a station that does not exist (or no station has its host), or the
/// lookup broke.
#[derive(Debug, thiserror::Error)]
pub enum StationError {
    #[error("no such station")]
    NotFound,
    #[error(transparent)]
    Internal(#[from] sqlx::Error),
}

impl crate::shared::failure::IntoFailure for StationError {
    fn into_failure(self) -> crate::shared::failure::Failure {
        use crate::shared::failure::Failure;
        match self {
            Self::NotFound => Failure::NotFound(STATION_NOT_FOUND.into()),
            Self::Internal(err) => Failure::Internal(err.into()),
        }
    }
}
