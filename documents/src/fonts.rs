//! Lato, the product's font, read from disk once per process and subset per document.
//!
//! printpdf without its `text_layout` feature embeds a font whole (Lato is 650 KB a face);
//! a document only needs the glyphs it shows, so each one gets a subset made with allsorts
//! (the font reader printpdf itself uses), typically a few kilobytes.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use allsorts::binary::read::ReadScope;
use allsorts::font_data::FontData;
use allsorts::subset::{CmapTarget, SubsetProfile, subset};
use printpdf::ParsedFont;

pub use domain::infra::config::DEFAULT_PDF_FONT_DIR as DEFAULT_FONT_DIR;

/// The two faces the documents use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Face {
    Regular,
    Bold,
}

impl Face {
    pub const ALL: [Face; 2] = [Face::Regular, Face::Bold];

    fn file_name(self) -> &'static str {
        match self {
            Face::Regular => "Lato-Regular.ttf",
            Face::Bold => "Lato-Bold.ttf",
        }
    }

    pub(super) fn index(self) -> usize {
        self as usize
    }
}

#[derive(Debug, thiserror::Error)]
pub enum FontError {
    #[error(
        "PDF font {path} cannot be read ({source}): install Debian's fonts-lato package or \
         point FILIA_PDF_FONT_DIR at a directory with Lato-Regular.ttf and Lato-Bold.ttf"
    )]
    Missing {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("PDF font {path} is not a TrueType or OpenType font")]
    Invalid { path: PathBuf },
}

/// Lato Regular and Bold, parsed: their glyph maps and advance widths measure text, their
/// bytes are what each document's subset is cut from.
pub struct Fonts {
    faces: [ParsedFont; 2],
}

impl fmt::Debug for Fonts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fonts")
            .field(
                "glyphs",
                &self.faces.each_ref().map(|face| face.glyph_widths.len()),
            )
            .finish()
    }
}

impl Fonts {
    /// Reads `Lato-Regular.ttf` and `Lato-Bold.ttf` from `dir`.
    pub fn load(dir: &Path) -> Result<Self, FontError> {
        let read = |face: Face| {
            let path = dir.join(face.file_name());
            let bytes = std::fs::read(&path).map_err(|source| FontError::Missing {
                path: path.clone(),
                source,
            })?;
            ParsedFont::from_bytes(&bytes, 0, &mut Vec::new())
                .filter(|parsed| !parsed.codepoint_to_glyph.is_empty())
                .ok_or(FontError::Invalid { path })
        };
        Ok(Self {
            faces: [read(Face::Regular)?, read(Face::Bold)?],
        })
    }

    pub(super) fn has_glyph(&self, face: Face, character: char) -> bool {
        self.faces[face.index()]
            .lookup_glyph_index(u32::from(character))
            .is_some()
    }

    /// The advance of `text` at `size` points, in points.
    pub(super) fn width(&self, face: Face, size: f32, text: &str) -> f32 {
        let font = &self.faces[face.index()];
        let units: u32 = text
            .chars()
            .filter_map(|c| font.lookup_glyph_index(u32::from(c)))
            .filter_map(|glyph| font.get_glyph_width(glyph))
            .map(u32::from)
            .sum();
        units as f32 * size / f32::from(font.units_per_em.max(1))
    }

    /// The face cut down to the glyphs of `characters`; the whole face if subsetting fails
    /// (a bigger file, still a correct one).
    pub(super) fn subset(&self, face: Face, characters: &BTreeSet<char>) -> ParsedFont {
        let font = &self.faces[face.index()];
        let glyphs: BTreeSet<u16> = characters
            .iter()
            .filter_map(|c| font.lookup_glyph_index(u32::from(*c)))
            .collect();
        cut(&font.original_bytes, &glyphs)
            .and_then(|bytes| ParsedFont::from_bytes(&bytes, 0, &mut Vec::new()))
            .unwrap_or_else(|| font.clone())
    }
}

fn cut(font: &[u8], glyphs: &BTreeSet<u16>) -> Option<Vec<u8>> {
    let data = ReadScope::new(font).read::<FontData<'_>>().ok()?;
    let provider = data.table_provider(0).ok()?;
    // Glyph 0 (.notdef) must come first; allsorts renumbers the rest in this order and
    // writes a Unicode cmap for them, which printpdf reads back.
    let ids: Vec<u16> = std::iter::once(0)
        .chain(glyphs.iter().copied().filter(|glyph| *glyph != 0))
        .collect();
    subset(&provider, &ids, &SubsetProfile::Pdf, CmapTarget::Unicode).ok()
}
