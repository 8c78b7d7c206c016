//! The images and documents members attach (`upload-image-to-s3`, `files/actions`): typed
//! by their content, never by their names; images re-encoded (metadata dropped) and served
//! publicly under unguessable keys, documents kept private.

use super::posts::IMAGE_MAX_SIDE;
use crate::infra::images::{self, ImageError};
use crate::infra::objects::Objects;
use crate::infra::uploads::{FILE_INVALID, FileKind, kind_of};

/// The spec's limit for a document.
pub const MAX_DOCUMENT_BYTES: usize = 10_000_000;

/// Why an image was refused, as the member reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ImageRefused {
    /// Over 1 MB decoded: the spec's 'Erro: Imagem maior que 1MB'.
    #[error("{}", images::TOO_LARGE)]
    TooLarge,
    /// Not a JPEG, PNG or GIF.
    #[error("{FILE_INVALID}")]
    Invalid,
}

/// Stores the base64 image (JPEG, PNG or GIF by content, at most 1 MB decoded) for the
/// member, re-encoded, and answers its key.
pub async fn store_image(
    objects: &Objects,
    station_id: i64,
    user_id: i64,
    base64: String,
) -> anyhow::Result<Result<String, ImageRefused>> {
    let accepted = images::accept(
        &base64,
        images::MAX_UPLOAD_BYTES,
        &[FileKind::Jpeg, FileKind::Png, FileKind::Gif],
        IMAGE_MAX_SIDE,
    )
    .await?;
    let encoded = match accepted {
        Ok(encoded) => encoded,
        Err(ImageError::TooLarge) => return Ok(Err(ImageRefused::TooLarge)),
        Err(ImageError::NotAnImage) => return Ok(Err(ImageRefused::Invalid)),
    };
    let key = Objects::new_key(
        &format!("uploads/{station_id}/{user_id}"),
        encoded.extension,
    );
    objects.put(&key, encoded.bytes).await?;
    Ok(Ok(key))
}

/// A stored document: the name it came with and its private key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredDocument {
    pub original_name: String,
    pub key: String,
}

/// Stores a document (pdf, doc, docx, zip or an image, by content, at most 10 MB) for the
/// member under a private key. `None`: not of those kinds.
pub async fn store_document(
    objects: &Objects,
    station_id: i64,
    user_id: i64,
    name: &str,
    bytes: Vec<u8>,
) -> anyhow::Result<Option<StoredDocument>> {
    if bytes.is_empty() || bytes.len() > MAX_DOCUMENT_BYTES {
        return Ok(None);
    }
    let Some(kind) = kind_of(&bytes).filter(|kind| kind.is_document()) else {
        return Ok(None);
    };
    // A .docx is a ZIP by content; its name tells which, for whoever opens it.
    let extension = match kind {
        FileKind::Zip if name.to_lowercase().ends_with(".docx") => "docx",
        kind => kind.extension(),
    };
    let original_name: String = name.trim().chars().take(200).collect();
    let key = Objects::new_private_key(&format!("files/{station_id}/{user_id}"), extension);
    objects.put(&key, bytes).await?;
    Ok(Some(StoredDocument { original_name, key }))
}
