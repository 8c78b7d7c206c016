//! A station's content (spec 002, "News, calendar, downloads, trophies, search" and
//! "Transparency"): its news, the files members download and its transparency documents
//! ('Prestação de contas'). Members of the station read what is published; another
//! station's content, or content not published, reads as absent.

pub mod downloads;
pub mod html;
pub mod news;
pub mod transparency;

use crate::shared::failure::{Failure, IntoFailure};

pub const NEWS_NOT_FOUND: &str = "Notícia não encontrada";
pub const DOWNLOAD_NOT_FOUND: &str = "Arquivo não encontrado";

/// Why a content call is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ContentRefused {
    /// No such published news item in the caller's station.
    #[error("{NEWS_NOT_FOUND}")]
    NewsNotFound,
    /// No such published download in the caller's station.
    #[error("{DOWNLOAD_NOT_FOUND}")]
    DownloadNotFound,
}

/// Another station's or an unpublished item is simply not there (404).
impl IntoFailure for ContentRefused {
    fn into_failure(self) -> Failure {
        Failure::NotFound(self.to_string())
    }
}
