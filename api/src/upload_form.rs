//! The `file` part of a multipart upload, read one way by every route that takes one (the
//! feed's documents and plain video uploads, a survey's file answers): a form without it,
//! or a transfer broken mid-way, is 'Erro no upload'; past the route's body limit or the
//! caller's own, 'Tamanho ou formato inválido'.

use axum::extract::Multipart;
use axum::extract::multipart::MultipartError;
use axum::http::StatusCode;
use domain::infra::uploads::{FILE_INVALID, UPLOAD_FAILED};

use crate::error::{ApiError, ApiResult};

/// The `file` part of a multipart upload, not yet read, and its name as sent (`arquivo`
/// without one). A macro, not a function: the part borrows the form, which a function
/// could not hand back while it skips the parts before it.
macro_rules! file_field {
    ($multipart:expr) => {{
        use $crate::error::ApiError;
        loop {
            match $multipart.next_field().await {
                Ok(Some(field)) if field.name() == Some("file") => {
                    let name = field.file_name().unwrap_or("arquivo").to_string();
                    break Ok::<_, ApiError>((field, name));
                }
                Ok(Some(_)) => {}
                Ok(None) => {
                    break Err(ApiError::invalid(domain::infra::uploads::UPLOAD_FAILED));
                }
                Err(err) => break Err(ApiError::invalid($crate::upload_form::broken(&err))),
            }
        }
    }};
}
pub(crate) use file_field;

/// The text of a multipart part that could not be read: past the route's limit is the
/// wrong size, anything else a broken transfer.
pub fn broken(err: &MultipartError) -> &'static str {
    if err.status() == StatusCode::PAYLOAD_TOO_LARGE {
        FILE_INVALID
    } else {
        UPLOAD_FAILED
    }
}

/// The `file` part's bytes, at most `max` of them (more is refused as they come), and its
/// name as sent.
pub async fn read_file(mut multipart: Multipart, max: usize) -> ApiResult<(Vec<u8>, String)> {
    let (mut field, name) = file_field!(multipart)?;
    let mut bytes = Vec::new();
    while let Some(chunk) = field
        .chunk()
        .await
        .map_err(|err| ApiError::invalid(broken(&err)))?
    {
        if bytes.len() + chunk.len() > max {
            return Err(ApiError::invalid(FILE_INVALID));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok((bytes, name))
}
