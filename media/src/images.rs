//! Images through the `image` crate: the adapter of `domain::infra::images::ImageCodec`.
//! Decoded under limits so a small file cannot expand into gigabytes, turned upright,
//! shrunk to fit a box and re-encoded, which drops EXIF and anything else riding along.

use std::io::Cursor;

use domain::infra::images::{
    Encoded, ImageCodec, ImageError, NormalizeFuture, ResizeFuture, Resized, ResizedCopy,
};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::imageops::FilterType;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};

/// Larger sides are refused before decoding: every stored image is shrunk to 1024 px or
/// less, so nothing needs more.
const MAX_SIDE: u32 = 4096;
/// What the decoder may allocate at once: a 4096 x 4096 RGBA picture fits, a bomb does not.
const MAX_ALLOC: u64 = 64 * 1024 * 1024;
/// Images decoded at once in the whole process: each may hold [`MAX_ALLOC`] and a core for a
/// while, so a burst of uploads queues instead of exhausting memory and the blocking pool.
const DECODERS: usize = 2;
const JPEG_QUALITY: u8 = 85;

static PERMITS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(DECODERS);

/// [`normalize`] on the blocking pool, behind the process-wide decoder permits.
#[derive(Debug, Clone, Copy, Default)]
pub struct ImageCrate;

impl ImageCodec for ImageCrate {
    fn normalize(&self, bytes: Vec<u8>, max_side: u32) -> NormalizeFuture {
        Box::pin(async move {
            let _permit = PERMITS.acquire().await?;
            Ok(tokio::task::spawn_blocking(move || normalize(&bytes, max_side)).await?)
        })
    }

    fn resize_to_widths(&self, bytes: Vec<u8>, widths: &'static [u32]) -> ResizeFuture {
        Box::pin(async move {
            let _permit = PERMITS.acquire().await?;
            Ok(tokio::task::spawn_blocking(move || resize_to_widths(&bytes, widths)).await?)
        })
    }
}

/// JPEG, PNG, WebP or GIF (its first frame), turned by its EXIF orientation and shrunk to fit
/// `max_side` x `max_side`; re-encoded as PNG when it has transparency, JPEG otherwise.
pub fn normalize(bytes: &[u8], max_side: u32) -> Result<Encoded, ImageError> {
    let mut image = decode(bytes)?;
    if image.width() > max_side || image.height() > max_side {
        image = image.resize(max_side, max_side, FilterType::Triangle);
    }
    encode(&image).map_err(|_| ImageError::NotAnImage)
}

/// The image decoded as [`normalize`] decodes it, and a copy at each of `widths` narrower
/// than it (narrowest first, its aspect ratio kept), encoded as `normalize` encodes.
pub fn resize_to_widths(bytes: &[u8], widths: &[u32]) -> Result<Resized, ImageError> {
    let image = decode(bytes)?;
    let (width, height) = (image.width(), image.height());
    let mut narrower: Vec<u32> = widths.iter().copied().filter(|w| *w < width).collect();
    narrower.sort_unstable();
    narrower.dedup();
    let copies = narrower
        .into_iter()
        .map(|copy_width| {
            let copy_height = ((u64::from(height) * u64::from(copy_width) + u64::from(width) / 2)
                / u64::from(width))
            .max(1) as u32;
            // Lanczos is slower than the uploads' Triangle but keeps text and edges sharp:
            // made once, in a job, and downloaded by every visitor.
            let copy = image.resize_exact(copy_width, copy_height, FilterType::Lanczos3);
            let encoded = encode(&copy).map_err(|_| ImageError::NotAnImage)?;
            Ok(ResizedCopy {
                width: copy_width,
                height: copy_height,
                encoded,
            })
        })
        .collect::<Result<Vec<_>, ImageError>>()?;
    Ok(Resized {
        width,
        height,
        copies,
    })
}

/// JPEG, PNG, WebP or GIF (its first frame) under the limits, turned by its EXIF
/// orientation.
fn decode(bytes: &[u8]) -> Result<DynamicImage, ImageError> {
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
    Ok(image)
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
    fn copies_at_the_narrower_widths_keep_the_aspect_and_the_format() {
        let mut opaque = Vec::new();
        RgbImage::from_pixel(1200, 400, Rgb([200, 10, 10]))
            .write_to(&mut Cursor::new(&mut opaque), ImageFormat::Png)
            .expect("png");
        let resized = resize_to_widths(&opaque, &[1440, 960, 480]).expect("resized");
        assert_eq!((resized.width, resized.height), (1200, 400));
        let sizes: Vec<_> = resized.copies.iter().map(|c| (c.width, c.height)).collect();
        assert_eq!(sizes, [(480, 160), (960, 320)]);
        for copy in &resized.copies {
            assert_eq!(copy.encoded.extension, "jpg");
            let back = image::load_from_memory(&copy.encoded.bytes).expect("decodes");
            assert_eq!((back.width(), back.height()), (copy.width, copy.height));
        }
        let transparent = resize_to_widths(&png(1000, 500), &[480]).expect("resized");
        assert_eq!(transparent.copies[0].encoded.extension, "png");
        assert_eq!(
            (transparent.copies[0].width, transparent.copies[0].height),
            (480, 240)
        );
        assert!(
            resize_to_widths(&png(300, 300), &[480])
                .expect("small")
                .copies
                .is_empty()
        );
        assert_eq!(
            resize_to_widths(b"not an image", &[480]).err(),
            Some(ImageError::NotAnImage)
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
