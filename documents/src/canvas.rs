//! Hand layout on A4 pages: a cursor that moves down the page, lines wrapped by measuring
//! Lato's advance widths, a new page whenever the next line or row would not fit, and a
//! "Página 1 de 2" footer on every page once the count is known.

use std::collections::BTreeSet;

use printpdf::{
    Color, FontId, Line, LinePoint, Op, PaintMode, PdfDocument, PdfFont, PdfFontHandle, PdfPage,
    PdfSaveOptions, Point, Pt, RawImage, Rect, Rgb, TextItem, XObject, XObjectId, XObjectTransform,
};
use qrcode::QrCode;

use super::fonts::{Face, Fonts};

pub(super) const PAGE_WIDTH: f32 = 595.28;
pub(super) const PAGE_HEIGHT: f32 = 841.89;
pub(super) const MARGIN: f32 = 48.0;
pub(super) const CONTENT_WIDTH: f32 = PAGE_WIDTH - 2.0 * MARGIN;
/// Content stops here; the footer sits below.
const BOTTOM: f32 = 56.0;
const FOOTER_BASELINE: f32 = 30.0;
const LEADING: f32 = 1.4;

pub(super) const INK: Tone = Tone(0x22, 0x22, 0x22);
pub(super) const MUTED: Tone = Tone(0x66, 0x66, 0x66);
const RULE: Tone = Tone(0xcc, 0xcc, 0xcc);
const BLACK: Tone = Tone(0, 0, 0);

/// An RGB colour, 0 to 255 a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Tone(u8, u8, u8);

impl Tone {
    fn color(self) -> Color {
        Color::Rgb(Rgb {
            r: f32::from(self.0) / 255.0,
            g: f32::from(self.1) / 255.0,
            b: f32::from(self.2) / 255.0,
            icc_profile: None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Align {
    Left,
    Right,
}

/// One cell of a table row: where it starts, how wide it may be, and its text.
#[derive(Debug, Clone)]
pub(super) struct Cell<'t> {
    pub x: f32,
    pub width: f32,
    pub align: Align,
    pub face: Face,
    pub text: &'t str,
}

pub(super) struct Canvas<'f> {
    fonts: &'f Fonts,
    pages: Vec<Vec<Op>>,
    /// Characters shown per face: what the font subsets keep.
    used: [BTreeSet<char>; 2],
    images: Vec<(XObjectId, RawImage)>,
    /// Top of the next line, in points from the bottom of the page.
    y: f32,
}

impl std::fmt::Debug for Canvas<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Canvas")
            .field("pages", &self.pages.len())
            .field("y", &self.y)
            .finish()
    }
}

fn font_id(face: Face) -> FontId {
    FontId(
        match face {
            Face::Regular => "LatoRegular",
            Face::Bold => "LatoBold",
        }
        .to_owned(),
    )
}

pub(super) fn line_height(size: f32) -> f32 {
    size * LEADING
}

impl<'f> Canvas<'f> {
    pub fn new(fonts: &'f Fonts) -> Self {
        Self {
            fonts,
            pages: vec![Vec::new()],
            used: [BTreeSet::new(), BTreeSet::new()],
            images: Vec::new(),
            y: PAGE_HEIGHT - MARGIN,
        }
    }

    pub fn y(&self) -> f32 {
        self.y
    }

    pub fn set_y(&mut self, y: f32) {
        self.y = y;
    }

    pub fn space(&mut self, points: f32) {
        self.y -= points;
    }

    fn ops(&mut self) -> &mut Vec<Op> {
        // `pages` starts with one page and only grows.
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    fn page_break(&mut self) {
        self.pages.push(Vec::new());
        self.y = PAGE_HEIGHT - MARGIN;
    }

    /// Starts a new page unless `height` more points fit on this one; on a page still
    /// empty it never does (something taller than a page would otherwise break forever:
    /// rows and paragraphs go on line by line). Answers whether a page began.
    pub fn ensure(&mut self, height: f32) -> bool {
        let fresh_page = self.y >= PAGE_HEIGHT - MARGIN;
        if self.y - height < BOTTOM && !fresh_page {
            self.page_break();
            true
        } else {
            false
        }
    }

    /// The text as the font can draw it: line breaks kept (wrapping starts a new line at
    /// each), tabs as spaces, other control characters dropped, characters Lato lacks as "?"
    /// (a visible gap rather than a silent blank).
    pub fn clean(&self, face: Face, text: &str) -> String {
        text.replace("\r\n", "\n")
            .chars()
            .filter_map(|c| match c {
                '\n' => Some('\n'),
                '\t' => Some(' '),
                c if c.is_control() => None,
                c if self.fonts.has_glyph(face, c) => Some(c),
                _ => Some('?'),
            })
            .collect()
    }

    pub fn width(&self, face: Face, size: f32, text: &str) -> f32 {
        self.fonts.width(face, size, text)
    }

    /// Lines of at most `width` points: paragraphs split at line breaks, words kept whole
    /// unless a single word is wider than the line, which is then cut where it must be.
    pub fn wrap(&self, face: Face, size: f32, text: &str, width: f32) -> Vec<String> {
        let mut lines = Vec::new();
        for paragraph in text.split('\n') {
            let mut line = String::new();
            for word in paragraph.split(' ').filter(|word| !word.is_empty()) {
                let candidate = if line.is_empty() {
                    word.to_owned()
                } else {
                    format!("{line} {word}")
                };
                if self.width(face, size, &candidate) <= width {
                    line = candidate;
                    continue;
                }
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                for c in word.chars() {
                    line.push(c);
                    if self.width(face, size, &line) > width && line.chars().count() > 1 {
                        line.pop();
                        lines.push(std::mem::replace(&mut line, c.to_string()));
                    }
                }
            }
            lines.push(line);
        }
        lines
    }

    /// Draws one run of text with its baseline at `baseline`.
    pub fn text_at(
        &mut self,
        x: f32,
        baseline: f32,
        face: Face,
        size: f32,
        color: Tone,
        text: &str,
    ) {
        let ops = self.text_ops(x, baseline, face, size, color, text);
        self.ops().extend(ops);
    }

    fn text_ops(
        &mut self,
        x: f32,
        baseline: f32,
        face: Face,
        size: f32,
        color: Tone,
        text: &str,
    ) -> Vec<Op> {
        let text = self.clean(face, text).replace('\n', " ");
        if text.trim().is_empty() {
            return Vec::new();
        }
        self.used[face.index()].extend(text.chars());
        vec![
            Op::SetFillColor { col: color.color() },
            Op::StartTextSection,
            Op::SetFont {
                font: PdfFontHandle::External(font_id(face)),
                size: Pt(size),
            },
            Op::SetTextCursor {
                pos: Point {
                    x: Pt(x),
                    y: Pt(baseline),
                },
            },
            Op::ShowText {
                items: vec![TextItem::Text(text)],
            },
            Op::EndTextSection,
        ]
    }

    /// Wrapped text from `x`, `width` wide, one line after another, breaking pages between
    /// lines.
    pub fn paragraph(
        &mut self,
        x: f32,
        width: f32,
        face: Face,
        size: f32,
        color: Tone,
        text: &str,
    ) {
        let text = self.clean(face, text);
        for line in self.wrap(face, size, &text, width) {
            self.ensure(line_height(size));
            let baseline = self.y - size;
            self.text_at(x, baseline, face, size, color, &line);
            self.y -= line_height(size);
        }
    }

    /// The lines each cell wraps to, and the row's height.
    pub fn row_lines(&self, cells: &[Cell<'_>], size: f32) -> (Vec<Vec<String>>, f32) {
        let lines: Vec<Vec<String>> = cells
            .iter()
            .map(|cell| {
                let text = self.clean(cell.face, cell.text);
                self.wrap(cell.face, size, &text, cell.width)
            })
            .collect();
        let count = lines.iter().map(Vec::len).max().unwrap_or(1).max(1);
        (lines, count as f32 * line_height(size))
    }

    /// A table row: every cell wrapped in its column, the row as tall as its tallest cell.
    /// The row moves to a new page whole when it does not fit (the caller checks
    /// [`Canvas::row_lines`] first to repeat its header); a row taller than a page is
    /// continued line by line on the next.
    pub fn row(&mut self, cells: &[Cell<'_>], size: f32, color: Tone) {
        let (lines, height) = self.row_lines(cells, size);
        self.ensure(height);
        let count = lines.iter().map(Vec::len).max().unwrap_or(0);
        for index in 0..count {
            self.ensure(line_height(size));
            let baseline = self.y - size;
            for (cell, cell_lines) in cells.iter().zip(&lines) {
                let Some(line) = cell_lines.get(index) else {
                    continue;
                };
                let x = match cell.align {
                    Align::Left => cell.x,
                    Align::Right => cell.x + cell.width - self.width(cell.face, size, line),
                };
                self.text_at(x, baseline, cell.face, size, color, line);
            }
            self.y -= line_height(size);
        }
    }

    /// A thin horizontal line across the content width, with a little air around it.
    pub fn rule(&mut self) {
        self.ensure(8.0);
        let y = self.y - 4.0;
        let point = |x: f32| LinePoint {
            p: Point { x: Pt(x), y: Pt(y) },
            bezier: false,
        };
        self.ops().extend([
            Op::SetOutlineColor { col: RULE.color() },
            Op::SetOutlineThickness { pt: Pt(0.75) },
            Op::DrawLine {
                line: Line {
                    points: vec![point(MARGIN), point(PAGE_WIDTH - MARGIN)],
                    is_closed: false,
                },
            },
        ]);
        self.y -= 8.0;
    }

    /// Places an image inside a `max_width` x `max_height` box whose top left corner is at
    /// (`x`, `top`), keeping its proportions. Answers the height it took.
    pub fn image(
        &mut self,
        image: RawImage,
        x: f32,
        top: f32,
        max_width: f32,
        max_height: f32,
    ) -> f32 {
        let (pixels_wide, pixels_high) = (image.width as f32, image.height as f32);
        if pixels_wide < 1.0 || pixels_high < 1.0 {
            return 0.0;
        }
        let width = max_width.min(max_height * pixels_wide / pixels_high);
        let height = width * pixels_high / pixels_wide;
        let id = XObjectId(format!("Image{}", self.images.len()));
        self.images.push((id.clone(), image));
        self.ops().push(Op::UseXobject {
            id,
            transform: XObjectTransform {
                translate_x: Some(Pt(x)),
                translate_y: Some(Pt(top - height)),
                // At this resolution the image's pixels span exactly `width` points.
                dpi: Some(pixels_wide * 72.0 / width),
                ..XObjectTransform::default()
            },
        });
        height
    }

    /// A QR code `size` points square, top left corner at (`x`, `top`), drawn as black
    /// rectangles (one per run of dark modules in a row) so it stays sharp at any zoom. The
    /// quiet zone the standard asks for is inside `size`.
    pub fn qr(&mut self, code: &QrCode, x: f32, top: f32, size: f32) {
        const QUIET: usize = 4;
        let modules = code.width();
        let module = size / (modules + 2 * QUIET) as f32;
        let colors = code.to_colors();
        let mut rectangles = Vec::new();
        for (row, line) in colors.chunks(modules).enumerate() {
            let mut column = 0;
            while column < modules {
                if line[column] != qrcode::Color::Dark {
                    column += 1;
                    continue;
                }
                let start = column;
                while column < modules && line[column] == qrcode::Color::Dark {
                    column += 1;
                }
                rectangles.push(Op::DrawRectangle {
                    rectangle: Rect {
                        x: Pt(x + (QUIET + start) as f32 * module),
                        y: Pt(top - (QUIET + row + 1) as f32 * module),
                        width: Pt((column - start) as f32 * module),
                        height: Pt(module),
                        mode: Some(PaintMode::Fill),
                        winding_order: None,
                    },
                });
            }
        }
        self.ops().push(Op::SetFillColor { col: BLACK.color() });
        self.ops().extend(rectangles);
    }

    /// The finished PDF: the footer on every page, the fonts cut down to the characters
    /// shown, images and pages put together.
    pub fn finish(mut self, title: &str) -> Vec<u8> {
        let total = self.pages.len();
        for page in 0..total {
            let footer = format!("Página {} de {}", page + 1, total);
            let size = 8.0;
            let x = PAGE_WIDTH - MARGIN - self.width(Face::Regular, size, &footer);
            let ops = self.text_ops(x, FOOTER_BASELINE, Face::Regular, size, MUTED, &footer);
            self.pages[page].extend(ops);
        }
        let mut document = PdfDocument::new(title);
        for face in Face::ALL {
            let characters = &self.used[face.index()];
            if !characters.is_empty() {
                let font = self.fonts.subset(face, characters);
                document
                    .resources
                    .fonts
                    .map
                    .insert(font_id(face), PdfFont::new(font));
            }
        }
        for (id, image) in self.images {
            document
                .resources
                .xobjects
                .map
                .insert(id, XObject::Image(image));
        }
        let pages = self
            .pages
            .into_iter()
            .map(|ops| PdfPage::new(Pt(PAGE_WIDTH).into(), Pt(PAGE_HEIGHT).into(), ops))
            .collect();
        let options = PdfSaveOptions {
            // Images are already small and flattened; stream compression is enough.
            image_optimization: None,
            ..PdfSaveOptions::default()
        };
        document.with_pages(pages).save(&options, &mut Vec::new())
    }
}
