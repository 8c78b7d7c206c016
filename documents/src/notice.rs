//! A plain document of a station: its header, a title and paragraphs of text. What the demo
//! seed draws for the station's downloads and transparency documents.

use super::canvas::{CONTENT_WIDTH, Canvas, INK, MARGIN};
use super::fonts::{Face, Fonts};
use super::header;

/// What a plain document shows.
#[derive(Debug, Clone, Default)]
pub struct Notice {
    pub station_name: String,
    /// PNG or JPEG bytes of the station's logo, if it has one.
    pub logo: Option<Vec<u8>>,
    pub title: String,
    pub paragraphs: Vec<String>,
}

const BODY: f32 = 11.0;

pub(super) fn render(fonts: &Fonts, notice: &Notice) -> Vec<u8> {
    let mut canvas = Canvas::new(fonts);
    header(
        &mut canvas,
        &notice.station_name,
        notice.logo.as_deref(),
        &notice.title,
    );
    for paragraph in &notice.paragraphs {
        canvas.paragraph(MARGIN, CONTENT_WIDTH, Face::Regular, BODY, INK, paragraph);
        canvas.space(8.0);
    }
    canvas.finish(&notice.title)
}
