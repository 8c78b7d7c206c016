//! Files a station offers its members ('Arquivos'): a list newest first, one with its
//! body, and the file itself. A public file is an object anyone holding its URL may read
//! (`/api/media/...`, like pictures); a private one is stored under the object store's
//! private root, which the media route never serves, and is read through
//! [`file_path`] by a signed-in member of the station only.

use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

use super::html;
use crate::infra::objects::{Objects, PRIVATE_ROOT};
use crate::shared::ids::StationId;
use crate::shared::paging::{self, Listed, Page};

/// A download as the list shows it (no body).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DownloadCard {
    pub id: i64,
    pub name: String,
    pub title: String,
    pub subtitle: String,
    pub description: String,
    /// Where the file is read: the media route for a public file, [`file_path`] for a
    /// private one.
    pub file: String,
    pub content_type: String,
    pub size: i64,
    pub private: bool,
    pub published_at: DateTime<Utc>,
}

/// A download with its body: HTML kept to [`html::ALLOWED_TAGS`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    pub card: DownloadCard,
    pub body: String,
}

/// A stored file as the file route streams it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredFile {
    pub key: String,
    pub content_type: String,
    /// The name the member's browser saves it under.
    pub file_name: String,
}

/// A download as staff (and the demo seed, and tests) write one; its file is already
/// stored under a key from [`new_file_key`].
#[derive(Debug, Clone, Default)]
pub struct NewDownload {
    pub station_id: i64,
    pub name: String,
    pub title: String,
    pub subtitle: String,
    pub description: String,
    /// Any HTML: sanitised before it is stored.
    pub body: String,
    pub file_key: String,
    pub content_type: String,
    pub size: i64,
    pub private: bool,
    pub published: bool,
    /// Now when absent.
    pub published_at: Option<DateTime<Utc>>,
}

/// The path (under `/api`) a private download's file is read at.
pub fn file_path(id: i64) -> String {
    format!("/api/downloads/{id}/file")
}

/// A fresh key for a download's file of `station_id`: under the private root when only
/// members may read it.
pub fn new_file_key(station_id: i64, private: bool, extension: &str) -> String {
    let folder = format!("downloads/{station_id}");
    if private {
        Objects::new_private_key(&folder, extension)
    } else {
        Objects::new_key(&folder, extension)
    }
}

/// Stores `download` with its body sanitised; answers its id. A private download's file
/// must be under the private root and a public one's must not (the table checks it too).
pub async fn create(db: impl PgExecutor<'_>, download: &NewDownload) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO station_downloads (station_id, name, title, subtitle, description, body,
                                        file_key, content_type, size_bytes, private, published,
                                        published_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, COALESCE($12, now()))
         RETURNING id",
    )
    .bind(download.station_id)
    .bind(download.name.trim())
    .bind(download.title.trim())
    .bind(download.subtitle.trim())
    .bind(download.description.trim())
    .bind(html::sanitise(&download.body))
    .bind(&download.file_key)
    .bind(&download.content_type)
    .bind(download.size)
    .bind(download.private)
    .bind(download.published)
    .bind(download.published_at)
    .fetch_one(db)
    .await
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    name: String,
    title: String,
    subtitle: String,
    description: String,
    file_key: String,
    content_type: String,
    size_bytes: i64,
    private: bool,
    published_at: DateTime<Utc>,
}

impl From<Row> for DownloadCard {
    fn from(row: Row) -> Self {
        let file = if row.private {
            file_path(row.id)
        } else {
            Objects::url(&row.file_key)
        };
        Self {
            id: row.id,
            name: row.name,
            title: row.title,
            subtitle: row.subtitle,
            description: row.description,
            file,
            content_type: row.content_type,
            size: row.size_bytes,
            private: row.private,
            published_at: row.published_at,
        }
    }
}

macro_rules! columns {
    () => {
        "id, name, title, subtitle, description, file_key, content_type, size_bytes, private, \
         published_at"
    };
}

/// What a member may read: published, and its time has come.
macro_rules! shown {
    () => {
        // A station whose menu hides 'Arquivos' (files_access off) shows none.
        "station_id = $1 AND published AND published_at <= now()
         AND EXISTS (SELECT 1 FROM stations s WHERE s.id = $1 AND s.files_access)"
    };
}

/// A page of the station's downloads, newest first, with how many there are in all.
pub async fn list(
    db: &sqlx::PgPool,
    station_id: StationId,
    page: Page,
) -> sqlx::Result<Listed<DownloadCard>> {
    let rows = sqlx::query_as::<_, Row>(concat!(
        "SELECT ",
        columns!(),
        " FROM station_downloads WHERE ",
        shown!(),
        " ORDER BY published_at DESC, id DESC LIMIT $2 OFFSET $3"
    ))
    .bind(station_id)
    .bind(page.limit())
    .bind(page.offset());
    let total = sqlx::query_scalar(concat!(
        "SELECT count(*) FROM station_downloads WHERE ",
        shown!()
    ))
    .bind(station_id);
    Ok(paging::listed(&mut *db.acquire().await?, rows, total)
        .await?
        .map(DownloadCard::from))
}

/// One of the station's downloads, if it is shown.
pub async fn find(
    db: impl PgExecutor<'_>,
    station_id: StationId,
    id: i64,
) -> sqlx::Result<Option<Download>> {
    #[derive(sqlx::FromRow)]
    struct Full {
        #[sqlx(flatten)]
        card: Row,
        body: String,
    }
    let found: Option<Full> = sqlx::query_as(concat!(
        "SELECT ",
        columns!(),
        ", body FROM station_downloads WHERE ",
        shown!(),
        " AND id = $2"
    ))
    .bind(station_id)
    .bind(id)
    .fetch_optional(db)
    .await?;
    Ok(found.map(|full| Download {
        card: full.card.into(),
        body: full.body,
    }))
}

/// The stored file of one of the station's shown downloads, public or private.
pub async fn file(
    db: impl PgExecutor<'_>,
    station_id: StationId,
    id: i64,
) -> sqlx::Result<Option<StoredFile>> {
    let found: Option<(String, String, String)> = sqlx::query_as(concat!(
        "SELECT file_key, content_type, name FROM station_downloads WHERE ",
        shown!(),
        " AND id = $2"
    ))
    .bind(station_id)
    .bind(id)
    .fetch_optional(db)
    .await?;
    Ok(found.map(|(key, content_type, name)| {
        let extension = key.rsplit_once('.').map(|(_, ext)| ext).unwrap_or("bin");
        StoredFile {
            file_name: file_name(&name, extension),
            key,
            content_type,
        }
    }))
}

/// A name safe in a `Content-Disposition` header: letters, digits, `-` and `_` of the
/// download's name (accents dropped), and the file's extension.
fn file_name(name: &str, extension: &str) -> String {
    let stem: String = name
        .chars()
        .map(unaccented)
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let stem = if stem.is_empty() {
        "arquivo".into()
    } else {
        stem
    };
    format!("{stem}.{extension}")
}

/// Portuguese letters without their accents.
fn unaccented(c: char) -> char {
    match c {
        'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
        'Á' | 'À' | 'Â' | 'Ã' | 'Ä' => 'A',
        'é' | 'ê' | 'è' => 'e',
        'É' | 'Ê' | 'È' => 'E',
        'í' | 'ì' => 'i',
        'Í' | 'Ì' => 'I',
        'ó' | 'ô' | 'õ' | 'ò' => 'o',
        'Ó' | 'Ô' | 'Õ' | 'Ò' => 'O',
        'ú' | 'ü' | 'ù' => 'u',
        'Ú' | 'Ü' | 'Ù' => 'U',
        'ç' => 'c',
        'Ç' => 'C',
        other => other,
    }
}

/// Whether `key` is where a private download's file must be.
pub fn is_private_key(key: &str) -> bool {
    key.starts_with(PRIVATE_ROOT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_files_get_private_keys() {
        assert!(is_private_key(&new_file_key(3, true, "pdf")));
        assert!(!is_private_key(&new_file_key(3, false, "pdf")));
        assert!(Objects::is_public(&new_file_key(3, false, "pdf")));
        assert!(!Objects::is_public(&new_file_key(3, true, "pdf")));
    }

    #[test]
    fn file_names_are_header_safe() {
        assert_eq!(
            file_name("Estatuto Social 2024", "pdf"),
            "Estatuto-Social-2024.pdf"
        );
        assert_eq!(file_name("Ação \"x\"/y", "pdf"), "Acao-x-y.pdf");
        assert_eq!(file_name("«»", "pdf"), "arquivo.pdf");
    }
}
