//! What an uploaded file really is, read from its first bytes (never its name or the
//! browser's word): a member's upload is stored only when its content is of a kind the
//! call accepts.

/// The spec's texts for a refused upload, whatever takes it (the feed's attachments and
/// videos, a survey's file answers): the wrong size or kind, and a broken transfer.
pub const FILE_INVALID: &str = "Tamanho ou formato inválido";
pub const UPLOAD_FAILED: &str = "Erro no upload";

/// A kind of file we accept somewhere, with the extension and type we store it under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Jpeg,
    Png,
    Gif,
    Pdf,
    /// A ZIP archive; a .docx is one too.
    Zip,
    /// An OLE compound file: the old Word .doc.
    Doc,
    /// MP4 or QuickTime (an ISO base media file).
    Mp4,
    Mov,
    Webm,
    /// An ASF container: Windows Media Video (the spec's ".wmw" is a typo of .wmv).
    Wmv,
}

impl FileKind {
    pub fn extension(self) -> &'static str {
        match self {
            Self::Jpeg => "jpg",
            Self::Png => "png",
            Self::Gif => "gif",
            Self::Pdf => "pdf",
            Self::Zip => "zip",
            Self::Doc => "doc",
            Self::Mp4 => "mp4",
            Self::Mov => "mov",
            Self::Webm => "webm",
            Self::Wmv => "wmv",
        }
    }

    pub fn is_video(self) -> bool {
        matches!(self, Self::Mp4 | Self::Mov | Self::Webm | Self::Wmv)
    }

    /// The documents and images a file answer (and a document upload) takes.
    pub fn is_document(self) -> bool {
        !self.is_video()
    }
}

/// The kind of `bytes` by their signature, `None` for anything else.
pub fn kind_of(bytes: &[u8]) -> Option<FileKind> {
    let starts = |signature: &[u8]| bytes.starts_with(signature);
    if starts(&[0xFF, 0xD8, 0xFF]) {
        Some(FileKind::Jpeg)
    } else if starts(b"\x89PNG\r\n\x1a\n") {
        Some(FileKind::Png)
    } else if starts(b"GIF87a") || starts(b"GIF89a") {
        Some(FileKind::Gif)
    } else if starts(b"%PDF-") {
        Some(FileKind::Pdf)
    } else if starts(b"PK\x03\x04") || starts(b"PK\x05\x06") {
        Some(FileKind::Zip)
    } else if starts(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        Some(FileKind::Doc)
    } else if starts(&[0x1A, 0x45, 0xDF, 0xA3]) {
        Some(FileKind::Webm)
    } else if starts(&[0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) {
        // The ASF header object's GUID.
        Some(FileKind::Wmv)
    } else if bytes.len() >= 12 && &bytes[4..8] == b"ftyp" {
        // The brand says QuickTime or one of the MP4 family.
        Some(if &bytes[8..12] == b"qt  " {
            FileKind::Mov
        } else {
            FileKind::Mp4
        })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_known_by_their_first_bytes_not_their_names() {
        assert_eq!(kind_of(b"%PDF-1.7\n..."), Some(FileKind::Pdf));
        assert_eq!(kind_of(b"\x89PNG\r\n\x1a\n\0\0"), Some(FileKind::Png));
        assert_eq!(kind_of(b"\0\0\0\x18ftypmp42\0\0"), Some(FileKind::Mp4));
        assert_eq!(kind_of(b"\0\0\0\x14ftypqt  \0\0"), Some(FileKind::Mov));
        assert_eq!(kind_of(b"PK\x03\x04word/"), Some(FileKind::Zip));
        assert_eq!(kind_of(b"just some text renamed .pdf"), None);
        assert_eq!(kind_of(b""), None);
        assert_eq!(
            kind_of(&[0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9]),
            Some(FileKind::Wmv)
        );
        assert!(FileKind::Webm.is_video() && FileKind::Doc.is_document());
        assert!(FileKind::Wmv.is_video() && !FileKind::Wmv.is_document());
    }
}
