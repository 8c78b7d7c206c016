//! Uploaded images: read from base64 and typed by their content (never by what the client
//! says) here; decoded under limits, turned upright, shrunk to fit a box and re-encoded
//! (which drops EXIF and anything else riding along) by an [`ImageCodec`], the port whose
//! adapter is `media::images` (the `image` crate).

use std::fmt::Debug;
use std::future::Future;
use std::pin::Pin;

use base64::Engine;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::{DecodePaddingMode, general_purpose};

use crate::infra::uploads::{FileKind, kind_of};

/// The spec's limit for a profile image, decoded.
pub const MAX_UPLOAD_BYTES: usize = 1024 * 1024;

pub const TOO_LARGE: &str = "Erro: Imagem maior que 1MB";
pub const NOT_AN_IMAGE: &str = "Imagem inválida. Envie um arquivo JPG, PNG, WEBP ou GIF.";

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    #[error("{TOO_LARGE}")]
    TooLarge,
    #[error("{NOT_AN_IMAGE}")]
    NotAnImage,
}

/// What [`ImageCodec::normalize`] answers; the outer error is a failed task only.
pub type NormalizeFuture =
    Pin<Box<dyn Future<Output = anyhow::Result<Result<Encoded, ImageError>>> + Send>>;

/// What [`ImageCodec::resize_to_widths`] answers; the outer error is a failed task only.
pub type ResizeFuture =
    Pin<Box<dyn Future<Output = anyhow::Result<Result<Resized, ImageError>>> + Send>>;

/// Decodes and re-encodes images: the port the rules call, `media::images::ImageCrate` the
/// adapter.
pub trait ImageCodec: Debug + Send + Sync {
    /// JPEG, PNG, WebP or GIF (its first frame), decoded under limits that refuse a
    /// decompression bomb as [`ImageError::NotAnImage`], turned by its EXIF orientation,
    /// shrunk to fit `max_side` x `max_side` and re-encoded (PNG with transparency, JPEG
    /// otherwise). Anything else is [`ImageError::NotAnImage`].
    fn normalize(&self, bytes: Vec<u8>, max_side: u32) -> NormalizeFuture;

    /// The image decoded as [`ImageCodec::normalize`] decodes it, and a copy at each of
    /// `widths` narrower than it, its aspect ratio kept, encoded as `normalize` encodes
    /// (PNG with transparency, JPEG otherwise).
    fn resize_to_widths(&self, bytes: Vec<u8>, widths: &'static [u32]) -> ResizeFuture;
}

/// An image's own size and its narrower copies, narrowest first.
#[derive(Debug, Clone)]
pub struct Resized {
    pub width: u32,
    pub height: u32,
    pub copies: Vec<ResizedCopy>,
}

/// One narrower copy of an image.
#[derive(Debug, Clone)]
pub struct ResizedCopy {
    pub width: u32,
    pub height: u32,
    pub encoded: Encoded,
}

/// A re-encoded image and the file extension of its format.
#[derive(Debug, Clone)]
pub struct Encoded {
    pub bytes: Vec<u8>,
    pub extension: &'static str,
}

/// Base64 with or without a `data:...;base64,` prefix, line breaks or padding. Anything over
/// `max_bytes` once decoded is refused, before decoding when the length already tells.
pub fn decode_base64(input: &str, max_bytes: usize) -> Result<Vec<u8>, ImageError> {
    let payload = match input.trim().strip_prefix("data:") {
        Some(rest) => rest
            .split_once(',')
            .map(|(_, data)| data)
            .ok_or(ImageError::NotAnImage)?,
        None => input,
    };
    let compact: String = payload.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.len() / 4 * 3 > max_bytes + 3 {
        return Err(ImageError::TooLarge);
    }
    const LENIENT: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );
    let bytes = LENIENT
        .decode(&compact)
        .or_else(|_| general_purpose::URL_SAFE_NO_PAD.decode(compact.trim_end_matches('=')))
        .map_err(|_| ImageError::NotAnImage)?;
    if bytes.is_empty() {
        return Err(ImageError::NotAnImage);
    }
    if bytes.len() > max_bytes {
        return Err(ImageError::TooLarge);
    }
    Ok(bytes)
}

/// [`decode_base64`] up to [`MAX_UPLOAD_BYTES`] then [`ImageCodec::normalize`]: the profile
/// picture and the company logo. The outer error is a failed task only.
pub async fn process(
    codec: &dyn ImageCodec,
    base64: String,
    max_side: u32,
) -> anyhow::Result<Result<Encoded, ImageError>> {
    let bytes = match decode_base64(&base64, MAX_UPLOAD_BYTES) {
        Ok(bytes) => bytes,
        Err(err) => return Ok(Err(err)),
    };
    codec.normalize(bytes, max_side).await
}

/// [`decode_base64`] up to `max_bytes`, refused as [`ImageError::NotAnImage`] unless its
/// content is one of `kinds`, then [`ImageCodec::normalize`]d: for calls that take fewer
/// kinds or larger files than a profile picture (the feed's posts and uploads). The outer
/// error is a failed task only.
pub async fn accept(
    codec: &dyn ImageCodec,
    base64: &str,
    max_bytes: usize,
    kinds: &[FileKind],
    max_side: u32,
) -> anyhow::Result<Result<Encoded, ImageError>> {
    let bytes = match decode_base64(base64, max_bytes) {
        Ok(bytes) => bytes,
        Err(err) => return Ok(Err(err)),
    };
    // The kind from the bytes: the re-encoder reads more kinds than a call may take.
    if !kind_of(&bytes).is_some_and(|kind| kinds.contains(&kind)) {
        return Ok(Err(ImageError::NotAnImage));
    }
    codec.normalize(bytes, max_side).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_with_or_without_a_data_prefix() {
        let bytes = b"\x89PNG\r\n\x1a\n not really".to_vec();
        let plain = general_purpose::STANDARD.encode(&bytes);
        assert_eq!(decode_base64(&plain, MAX_UPLOAD_BYTES), Ok(bytes.clone()));
        let prefixed = format!("data:image/png;base64,{plain}");
        assert_eq!(
            decode_base64(&prefixed, MAX_UPLOAD_BYTES),
            Ok(bytes.clone())
        );
        assert_eq!(
            decode_base64("não é base64!", MAX_UPLOAD_BYTES),
            Err(ImageError::NotAnImage)
        );
        assert_eq!(decode_base64(&plain, 10), Err(ImageError::TooLarge));
    }
}
