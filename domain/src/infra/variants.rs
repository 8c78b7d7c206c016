//! Image variants: narrower copies of a stored image, so a browser downloads the picture at
//! the width its screen shows (`srcset`). Made once per stored image by the
//! `image.variants` job (and by the demo seed, through the same [`make`]), recorded in
//! `image_variants` with the original as its own widest row, and read back as a srcset by
//! the answers that carry the image (docs/decisions.md "Image variants").

use std::collections::HashMap;

use sqlx::{PgExecutor, PgPool};

use crate::infra::images::{ImageCodec, ImageError};
use crate::infra::objects::Objects;

/// The widths copies are made at, when the original is wider: a phone (about 390 px at 2x
/// shows 780), a tablet or a phone's full-width header, a desktop's.
pub const WIDTHS: &[u32] = &[480, 960, 1440];

/// Why an image has no variants; neither is worth trying again.
#[derive(Debug, thiserror::Error)]
pub enum NotMade {
    #[error("nothing is stored under {0:?}")]
    Missing(String),
    #[error("{0:?} is not an image we read")]
    NotAnImage(String),
    /// A member's private document: its copies would be served publicly.
    #[error("{0:?} is private")]
    Private(String),
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

impl From<sqlx::Error> for NotMade {
    fn from(err: sqlx::Error) -> Self {
        Self::Failed(err.into())
    }
}

/// One width of a source image, the original included.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Variant {
    pub width: i32,
    pub height: i32,
    pub key: String,
    pub bytes: i64,
}

/// What [`make`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Made {
    /// Every width of the source, narrowest first, the original last.
    pub variants: Vec<Variant>,
    /// False when the source had its variants already (nothing was stored).
    pub new: bool,
}

/// The key of the copy of `source` at `width`: beside it, named after it, so a copy is
/// found from its source and is as unguessable as the source is.
pub fn key_of(source: &str, width: u32, extension: &str) -> String {
    let stem = match source.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !ext.contains('/') => stem,
        _ => source,
    };
    format!("{stem}.{width}w.{extension}")
}

/// Makes and records the variants of the image stored under `source`, once: a source that
/// has them answers them as they are. The copies are stored before their rows, under keys
/// derived from the source, so an attempt that dies half-way is redone whole by the next.
pub async fn make(
    db: &PgPool,
    objects: &Objects,
    codec: &dyn ImageCodec,
    source: &str,
) -> Result<Made, NotMade> {
    let existing = of(db, source).await?;
    if !existing.is_empty() {
        return Ok(Made {
            variants: existing,
            new: false,
        });
    }
    if !Objects::is_public(source) {
        return Err(NotMade::Private(source.to_owned()));
    }
    let Some(object) = objects.get(source).await? else {
        return Err(NotMade::Missing(source.to_owned()));
    };
    let original_bytes = object.bytes.len() as i64;
    let resized = match codec
        .resize_to_widths(object.bytes.to_vec(), WIDTHS)
        .await?
    {
        Ok(resized) => resized,
        Err(ImageError::NotAnImage | ImageError::TooLarge) => {
            return Err(NotMade::NotAnImage(source.to_owned()));
        }
    };
    let mut variants = Vec::with_capacity(resized.copies.len() + 1);
    for copy in resized.copies {
        let key = key_of(source, copy.width, copy.encoded.extension);
        let bytes = copy.encoded.bytes.len() as i64;
        objects.put(&key, copy.encoded.bytes).await?;
        variants.push(Variant {
            width: copy.width as i32,
            height: copy.height as i32,
            key,
            bytes,
        });
    }
    variants.push(Variant {
        width: resized.width as i32,
        height: resized.height as i32,
        key: source.to_owned(),
        bytes: original_bytes,
    });
    let widths: Vec<i32> = variants.iter().map(|v| v.width).collect();
    let heights: Vec<i32> = variants.iter().map(|v| v.height).collect();
    let keys: Vec<&str> = variants.iter().map(|v| v.key.as_str()).collect();
    let sizes: Vec<i64> = variants.iter().map(|v| v.bytes).collect();
    // Two runs at once store the same copies under the same keys; the rows once.
    let inserted = sqlx::query(
        "INSERT INTO image_variants (source_key, width, height, key, bytes)
         SELECT $1, w, h, k, b
           FROM unnest($2::int[], $3::int[], $4::text[], $5::bigint[]) AS v (w, h, k, b)
         ON CONFLICT (source_key, width) DO NOTHING",
    )
    .bind(source)
    .bind(&widths)
    .bind(&heights)
    .bind(&keys)
    .bind(&sizes)
    .execute(db)
    .await?;
    Ok(Made {
        variants,
        new: inserted.rows_affected() > 0,
    })
}

/// The recorded widths of `source`, narrowest first; empty until [`make`] ran.
pub async fn of(db: impl PgExecutor<'_>, source: &str) -> sqlx::Result<Vec<Variant>> {
    sqlx::query_as(
        "SELECT width, height, key, bytes FROM image_variants
          WHERE source_key = $1 ORDER BY width",
    )
    .bind(source)
    .fetch_all(db)
    .await
}

/// The srcsets of several sources at once (a page's pictures in one query).
#[derive(Debug, Clone, Default)]
pub struct Srcsets(HashMap<String, Vec<(i32, String)>>);

impl Srcsets {
    /// `url 480w, url 960w, url 1200w` for `source`, narrowest first; `None` until its
    /// variants exist.
    pub fn of(&self, source: &str) -> Option<String> {
        let widths = self.0.get(source)?;
        Some(
            widths
                .iter()
                .map(|(width, key)| format!("{} {width}w", Objects::url(key)))
                .collect::<Vec<_>>()
                .join(", "),
        )
    }

    /// [`Srcsets::of`] for an optional source.
    pub fn of_opt(&self, source: Option<&str>) -> Option<String> {
        source.and_then(|source| self.of(source))
    }
}

/// The srcsets of `sources` (duplicates and absent ones are fine).
pub async fn srcsets<'k>(
    db: impl PgExecutor<'_>,
    sources: impl IntoIterator<Item = &'k str>,
) -> sqlx::Result<Srcsets> {
    let mut sources: Vec<&str> = sources.into_iter().collect();
    sources.sort_unstable();
    sources.dedup();
    if sources.is_empty() {
        return Ok(Srcsets::default());
    }
    let rows: Vec<(String, i32, String)> = sqlx::query_as(
        "SELECT source_key, width, key FROM image_variants
          WHERE source_key = ANY($1) ORDER BY source_key, width",
    )
    .bind(&sources)
    .fetch_all(db)
    .await?;
    let mut by_source: HashMap<String, Vec<(i32, String)>> = HashMap::new();
    for (source, width, key) in rows {
        by_source.entry(source).or_default().push((width, key));
    }
    Ok(Srcsets(by_source))
}

/// Removes the copies of a source that is being deleted, and their rows; the source itself
/// is its caller's to delete. A copy left behind costs storage only, so a failed delete is
/// logged.
pub async fn forget(db: impl PgExecutor<'_>, objects: &Objects, source: &str) -> sqlx::Result<()> {
    let keys: Vec<String> =
        sqlx::query_scalar("DELETE FROM image_variants WHERE source_key = $1 RETURNING key")
            .bind(source)
            .fetch_all(db)
            .await?;
    for key in keys.iter().filter(|key| *key != source) {
        if let Err(err) = objects.delete(key).await {
            tracing::warn!(error = %err, key, "image variant not deleted");
        }
    }
    Ok(())
}

/// Deletes a picture nothing refers to any more, its copies first. A failure only leaves
/// files behind (storage, not correctness), so it is logged, never answered.
pub async fn delete_with_copies(db: impl PgExecutor<'_>, objects: &Objects, source: &str) {
    if let Err(err) = forget(db, objects, source).await {
        tracing::warn!(error = %err, key = source, "image variants not forgotten");
    }
    if let Err(err) = objects.delete(source).await {
        tracing::warn!(error = %err, key = source, "image not deleted");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_live_beside_their_source() {
        assert_eq!(
            key_of("landing/demo/slide-1.png", 480, "jpg"),
            "landing/demo/slide-1.480w.jpg"
        );
        assert_eq!(
            key_of("feed/1/01abc.jpg", 960, "jpg"),
            "feed/1/01abc.960w.jpg"
        );
        assert_eq!(key_of("a.b/noext", 480, "png"), "a.b/noext.480w.png");
    }

    #[test]
    fn a_srcset_lists_every_width_narrowest_first() {
        let srcsets = Srcsets(HashMap::from([(
            "a.png".to_owned(),
            vec![(480, "a.480w.jpg".to_owned()), (1200, "a.png".to_owned())],
        )]));
        assert_eq!(
            srcsets.of("a.png").as_deref(),
            Some("/api/media/a.480w.jpg 480w, /api/media/a.png 1200w")
        );
        assert_eq!(srcsets.of("b.png"), None);
        assert_eq!(srcsets.of_opt(None), None);
    }
}
