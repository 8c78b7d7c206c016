//! Transparency documents ('Prestação de contas'): the station's accountability files,
//! grouped by year newest first. A document's year is the part of its name after its last
//! hyphen or slash (spec 002: "Balancete - 2024", "Relatório anual/2023"), worked out once
//! when it is stored. The files are public objects: accountability is published.

use sqlx::PgExecutor;

use crate::infra::objects::Objects;
use crate::shared::ids::StationId;
use crate::shared::paging::{self, Listed, Page};

/// A document as the page lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    pub id: i64,
    pub nome: String,
    /// The group it is shown in; `None` when its name has no hyphen or slash.
    pub year: Option<String>,
    /// The file's URL (`/api/media/...`).
    pub url: String,
    pub content_type: String,
}

/// A document as staff (and the demo seed, and tests) write one; its file is already
/// stored under a public key.
#[derive(Debug, Clone, Default)]
pub struct NewDocument {
    pub station_id: i64,
    pub nome: String,
    pub file_key: String,
    pub content_type: String,
    pub size: i64,
    pub published: bool,
}

/// The year of a document named `nome`: what follows its last hyphen or slash, trimmed;
/// `None` when there is no such part.
pub fn year_of(nome: &str) -> Option<String> {
    let (_, after) = nome.rsplit_once(['-', '/'])?;
    let year = after.trim();
    (!year.is_empty()).then(|| year.to_string())
}

/// A fresh key for a transparency document's file of `station_id`.
pub fn new_file_key(station_id: i64, extension: &str) -> String {
    Objects::new_key(&format!("transparency/{station_id}"), extension)
}

/// Stores `document` with its year; answers its id.
pub async fn create(db: impl PgExecutor<'_>, document: &NewDocument) -> sqlx::Result<i64> {
    let nome = document.nome.trim();
    sqlx::query_scalar(
        "INSERT INTO transparency_documents (station_id, nome, year, file_key, content_type,
                                             size_bytes, published)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         RETURNING id",
    )
    .bind(document.station_id)
    .bind(nome)
    .bind(year_of(nome))
    .bind(&document.file_key)
    .bind(&document.content_type)
    .bind(document.size)
    .bind(document.published)
    .fetch_one(db)
    .await
}

/// A page of the station's published documents, newest year first (those without a year
/// last), by name within a year, with how many there are in all.
pub async fn list(
    db: &sqlx::PgPool,
    station_id: StationId,
    page: Page,
) -> sqlx::Result<Listed<Document>> {
    let rows = sqlx::query_as::<_, (i64, String, Option<String>, String, String)>(
        "SELECT id, nome, year, file_key, content_type FROM transparency_documents
          WHERE station_id = $1 AND published
          ORDER BY year DESC NULLS LAST, nome, id LIMIT $2 OFFSET $3",
    )
    .bind(station_id)
    .bind(page.limit())
    .bind(page.offset());
    let total = sqlx::query_scalar(
        "SELECT count(*) FROM transparency_documents WHERE station_id = $1 AND published",
    )
    .bind(station_id);
    let listed = paging::listed(&mut *db.acquire().await?, rows, total).await?;
    Ok(listed.map(|(id, nome, year, key, content_type)| Document {
        id,
        nome,
        year,
        url: Objects::url(&key),
        content_type,
    }))
}

#[cfg(test)]
mod tests {
    use super::year_of;

    #[test]
    fn the_year_follows_the_last_hyphen_or_slash() {
        assert_eq!(year_of("Balancete - 2024").as_deref(), Some("2024"));
        assert_eq!(year_of("Relatório anual/2023").as_deref(), Some("2023"));
        assert_eq!(year_of("Ata - assembleia - 2022").as_deref(), Some("2022"));
        assert_eq!(year_of("Prestação de contas 2021"), None);
        assert_eq!(year_of("Balancete -  "), None);
    }
}
