//! Uploaded images: read from base64, typed by their content (never by what the client
//! says), decoded under limits so a small file cannot expand into gigabytes, turned upright,
//! shrunk to fit a box and re-encoded, which drops EXIF and anything else riding along.

use std::io::Cursor;

use base64::Engine;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::{DecodePaddingMode, general_purpose};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::imageops::FilterType;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};

use crate::infra::uploads::{FileKind, kind_of};

/// The spec's limit for a profile image, decoded.
pub const MAX_UPLOAD_BYTES: usize = 1024 * 1024;
/// Larger sides are refused before decoding: every stored image is shrunk to 1024 px or
/// less, so nothing needs more.
const MAX_SIDE: u32 = 4096;
/// What the decoder may allocate at once: a 4096 x 4096 RGBA picture fits, a bomb does not.
const MAX_ALLOC: u64 = 64 * 1024 * 1024;
/// Images decoded at once in the whole process: each may hold [`MAX_ALLOC`] and a core for a
/// while, so a burst of uploads queues instead of exhausting memory and the blocking pool.
const DECODERS: usize = 2;
const JPEG_QUALITY: u8 = 85;

pub const TOO_LARGE: &str = "Erro: Imagem maior que 1MB";
pub const NOT_AN_IMAGE: &str = "Imagem inválida. Envie um arquivo JPG, PNG, WEBP ou GIF.";

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    #[error("{TOO_LARGE}")]
    TooLarge,
    #[error("{NOT_AN_IMAGE}")]
    NotAnImage,
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

static PERMITS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(DECODERS);

/// [`decode_base64`] then [`normalize`], on the blocking pool and behind the process-wide
/// decoder permits: what request handlers call. The outer error is a failed task only.
pub async fn process(base64: String, max_side: u32) -> anyhow::Result<Result<Encoded, ImageError>> {
    let _permit = PERMITS.acquire().await?;
    let result = tokio::task::spawn_blocking(move || {
        let bytes = decode_base64(&base64, MAX_UPLOAD_BYTES)?;
        normalize(&bytes, max_side)
    })
    .await?;
    Ok(result)
}

/// [`decode_base64`] up to `max_bytes`, refused as [`ImageError::NotAnImage`] unless its
/// content is one of `kinds`, then [`normalize`]d on the blocking pool behind the same
/// permits: for calls that take fewer kinds or larger files than a profile picture (the
/// feed's posts and uploads). The outer error is a failed task only.
pub async fn accept(
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
    let _permit = PERMITS.acquire().await?;
    Ok(tokio::task::spawn_blocking(move || normalize(&bytes, max_side)).await?)
}

/// JPEG, PNG, WebP or GIF (its first frame), turned by its EXIF orientation and shrunk to fit
/// `max_side` x `max_side`; re-encoded as PNG when it has transparency, JPEG otherwise.
pub fn normalize(bytes: &[u8], max_side: u32) -> Result<Encoded, ImageError> {
    let format = image::guess_format(bytes).map_err(|_| ImageError::NotAnImage)?;
    if !matches!(
        format,
        ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP | ImageFormat::Gif
    ) {
        return Err(ImageError::NotAnImage);
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(|_| ImageError::NotAnImage)?;
    if decoder.total_bytes() > MAX_ALLOC {
        return Err(ImageError::NotAnImage);
    }
    let orientation = decoder.orientation().map_err(|_| ImageError::NotAnImage)?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(|_| ImageError::NotAnImage)?;
    image.apply_orientation(orientation);
    if image.width() > max_side || image.height() > max_side {
        image = image.resize(max_side, max_side, FilterType::Triangle);
    }
    encode(&image).map_err(|_| ImageError::NotAnImage)
}

fn encode(image: &DynamicImage) -> image::ImageResult<Encoded> {
    let mut bytes = Vec::new();
    let extension = if image.color().has_alpha() {
        image
            .to_rgba8()
            .write_with_encoder(PngEncoder::new(&mut bytes))?;
        "png"
    } else {
        image
            .to_rgb8()
            .write_with_encoder(JpegEncoder::new_with_quality(&mut bytes, JPEG_QUALITY))?;
        "jpg"
    };
    Ok(Encoded { bytes, extension })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgb, RgbImage, Rgba, RgbaImage};

    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = Vec::new();
        RgbaImage::from_pixel(width, height, Rgba([10, 20, 30, 128]))
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
            .expect("png");
        bytes
    }

    #[test]
    fn base64_with_or_without_a_data_prefix() {
        let bytes = png(2, 2);
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

    #[test]
    fn large_images_shrink_and_keep_transparency() {
        let encoded = normalize(&png(1024, 600), 512).expect("png");
        assert_eq!(encoded.extension, "png");
        let back = image::load_from_memory(&encoded.bytes).expect("decodes");
        assert_eq!((back.width(), back.height()), (512, 300));
    }

    #[test]
    fn opaque_images_become_jpeg() {
        let mut bytes = Vec::new();
        RgbImage::from_pixel(40, 30, Rgb([200, 10, 10]))
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
            .expect("png");
        let encoded = normalize(&bytes, 512).expect("opaque png");
        assert_eq!(encoded.extension, "jpg");
        assert_eq!(
            image::guess_format(&encoded.bytes).ok(),
            Some(ImageFormat::Jpeg)
        );
    }

    #[test]
    fn text_and_other_formats_are_refused() {
        assert_eq!(
            normalize(b"<svg xmlns='http://www.w3.org/2000/svg'/>", 512).err(),
            Some(ImageError::NotAnImage)
        );
        // A BMP header: an image, but not one of the accepted types.
        assert_eq!(
            normalize(b"BM\0\0\0\0\0\0\0\0", 512).err(),
            Some(ImageError::NotAnImage)
        );
    }

    #[test]
    fn a_canvas_over_the_limit_is_refused_before_decoding() {
        // Tiny on the wire, but wider than any photo: the shape of a decompression bomb.
        assert_eq!(
            normalize(&png(MAX_SIDE + 1, 1), 512).err(),
            Some(ImageError::NotAnImage)
        );
        assert!(normalize(&png(MAX_SIDE, 1), 512).is_ok());
    }
}
