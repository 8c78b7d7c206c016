//! Receipts, vouchers and member cards as PDF files, from plain data (no database, no
//! HTTP): the jobs `receipt.pdf`, `voucher.pdf` and `member_card.pdf` gather their rows, call
//! [`Renderer::receipt`], [`Renderer::voucher`] or [`Renderer::member_card`] and store the
//! bytes. The demo seed draws its plain documents with [`Renderer::notice`].
//!
//! printpdf 0.12 without its layout engine: every line is measured and placed by hand
//! ([`canvas`]), in Lato read from disk (Debian's `fonts-lato`, [`DEFAULT_FONT_DIR`]). A
//! renderer cannot be built without the font: accents must come out right, so a machine
//! without Lato fails the PDF jobs (retried, visible in the console) with a message that
//! says what to install, instead of storing receipts in a fallback font.

mod canvas;
mod fonts;
pub mod html;
mod member_card;
mod notice;
mod receipt;
mod voucher;

use std::io::Cursor;
use std::path::Path;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use domain::shared::time::Tz;
use image::{DynamicImage, ImageReader, Limits};
use printpdf::{RawImage, RawImageData, RawImageFormat};
use qrcode::QrCode;

pub use domain::accounts::member_card::MemberCard;
pub use domain::commerce::documents::{
    Delivery, Dependent, Discount, Payment, PaymentMethod, Receipt, ReceiptLine, Voucher,
};
pub use fonts::{DEFAULT_FONT_DIR, FontError};
pub use notice::Notice;

use canvas::{Canvas, INK, MARGIN, MUTED, PAGE_WIDTH};
use fonts::{Face, Fonts};

/// Makes the documents. Cheap to clone; build one per process (reading the fonts takes a
/// few milliseconds) and share it. Rendering is CPU work (milliseconds to tens of them,
/// `ops/bench/pdf`): async callers run it with `tokio::task::spawn_blocking`.
#[derive(Debug, Clone)]
pub struct Renderer {
    fonts: Arc<Fonts>,
}

impl Renderer {
    /// Reads Lato Regular and Bold from `font_dir` ([`DEFAULT_FONT_DIR`] unless configured).
    pub fn load(font_dir: &Path) -> Result<Self, FontError> {
        Ok(Self {
            fonts: Arc::new(Fonts::load(font_dir)?),
        })
    }

    /// An order's receipt.
    pub fn receipt(&self, receipt: &Receipt) -> Vec<u8> {
        receipt::render(&self.fonts, receipt)
    }

    /// A voucher with the QR code of its validator link.
    pub fn voucher(&self, voucher: &Voucher) -> Vec<u8> {
        voucher::render(&self.fonts, voucher)
    }

    /// A plain document: a title and paragraphs under the station's header.
    pub fn notice(&self, notice: &Notice) -> Vec<u8> {
        notice::render(&self.fonts, notice)
    }

    /// A member card with the QR code of its validator page.
    pub fn member_card(&self, card: &MemberCard) -> Vec<u8> {
        member_card::render(&self.fonts, card)
    }
}

/// Dates as the spec shows them, in the station's time zone: "DD/MM/YYYY".
fn local_date(at: &DateTime<Utc>, zone: Tz) -> String {
    at.with_timezone(&zone).format("%d/%m/%Y").to_string()
}

/// "DD/MM/YYYY HH:mm", in the station's time zone.
fn local_date_time(at: &DateTime<Utc>, zone: Tz) -> String {
    at.with_timezone(&zone).format("%d/%m/%Y %H:%M").to_string()
}

/// The top of every document: the station's logo on the left (when it has one that
/// decodes), its name and the document's title beside it, a rule below.
fn header(canvas: &mut Canvas<'_>, station_name: &str, logo: Option<&[u8]>, title: &str) {
    const LOGO_WIDTH: f32 = 140.0;
    const LOGO_HEIGHT: f32 = 56.0;
    let top = canvas.y();
    let logo_height = logo
        .and_then(decode_logo)
        .map(|image| canvas.image(image, MARGIN, top, LOGO_WIDTH, LOGO_HEIGHT))
        .unwrap_or(0.0);
    let text_x = if logo_height > 0.0 {
        MARGIN + LOGO_WIDTH + 16.0
    } else {
        MARGIN
    };
    let width = PAGE_WIDTH - MARGIN - text_x;
    canvas.paragraph(text_x, width, Face::Bold, 16.0, INK, station_name);
    canvas.paragraph(text_x, width, Face::Regular, 11.0, MUTED, title);
    canvas.set_y(canvas.y().min(top - logo_height));
    canvas.space(6.0);
    canvas.rule();
    canvas.space(6.0);
}

/// A logo of a type the platform accepts (PNG, JPEG, WebP, GIF), decoded under the same
/// kind of limits as uploads, shrunk to print size and laid on white (PDF images carry
/// transparency only as a separate mask; a white page needs none). `None`, with a
/// warning, for anything else: a receipt without the logo beats no receipt.
fn decode_logo(bytes: &[u8]) -> Option<RawImage> {
    const MAX_SIDE: u32 = 4096;
    const PRINT_SIDE: u32 = 480;
    let decode = || -> Result<DynamicImage, image::ImageError> {
        let mut reader = ImageReader::new(Cursor::new(bytes)).with_guessed_format()?;
        let mut limits = Limits::default();
        limits.max_image_width = Some(MAX_SIDE);
        limits.max_image_height = Some(MAX_SIDE);
        limits.max_alloc = Some(64 * 1024 * 1024);
        reader.limits(limits);
        reader.decode()
    };
    let image = match decode() {
        Ok(image) => image,
        Err(error) => {
            tracing::warn!(%error, "station logo left out of a PDF: it does not decode");
            return None;
        }
    };
    let image = if image.width() > PRINT_SIDE || image.height() > PRINT_SIDE {
        image.thumbnail(PRINT_SIDE, PRINT_SIDE)
    } else {
        image
    };
    let rgba = image.to_rgba8();
    let mut pixels = Vec::with_capacity(rgba.len() / 4 * 3);
    for pixel in rgba.pixels() {
        let [r, g, b, a] = pixel.0;
        let over_white = |channel: u8| {
            let blended = u16::from(channel) * u16::from(a) + 255 * (255 - u16::from(a));
            (blended / 255) as u8
        };
        pixels.extend([over_white(r), over_white(g), over_white(b)]);
    }
    Some(RawImage {
        pixels: RawImageData::U8(pixels),
        width: rgba.width() as usize,
        height: rgba.height() as usize,
        data_format: RawImageFormat::RGB8,
        tag: Vec::new(),
    })
}

/// The QR code of a link, or `None` (with a warning) when the link is too long for one.
fn qr_code(link: &str) -> Option<QrCode> {
    match QrCode::new(link.as_bytes()) {
        Ok(code) => Some(code),
        Err(error) => {
            tracing::warn!(%error, length = link.len(), "link too long for a QR code");
            None
        }
    }
}
