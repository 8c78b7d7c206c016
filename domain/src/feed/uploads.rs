//! The images and documents members upload on their own (`upload-image-to-s3`,
//! `files/actions`), to attach later: typed by their content, never by their names; images
//! re-encoded (metadata dropped) and served publicly under unguessable keys, documents kept
//! private.
//!
//! Every one is recorded in `member_uploads` before it is stored: its bytes count toward the
//! member's quota of a rolling day, and a row that refers to it marks it attached in its own
//! transaction ([`attach`]). What nothing refers to a day after it was made is deleted, object
//! and row, by `uploads.cleanup` ([`sweep_unattached`]).

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};

use super::posts::IMAGE_MAX_SIDE;
use super::videos::SWEEP_BATCH;
use crate::infra::images::{self, ImageCodec, ImageError};
use crate::infra::objects::Objects;
use crate::infra::uploads::{FILE_INVALID, FileKind, kind_of};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{StationId, UserId};

/// The spec's limit for a document.
pub const MAX_DOCUMENT_BYTES: usize = 10_000_000;

/// An upload nothing refers to is deleted this long after it was made.
pub const UNATTACHED_AFTER_HOURS: i64 = 24;

/// Why an upload was refused, as the member reads it.
#[derive(Debug, thiserror::Error)]
pub enum UploadRefused {
    /// An image over 1 MB decoded: the spec's 'Erro: Imagem maior que 1MB'.
    #[error("{}", images::TOO_LARGE)]
    TooLarge,
    /// Not of a kind the call takes (or a document too large or empty).
    #[error("{FILE_INVALID}")]
    Invalid,
    /// The member's bytes of the last 24 hours would pass the quota.
    #[error("{}", over_quota_text(*quota_bytes))]
    OverQuota {
        quota_bytes: u64,
        /// When the oldest upload counted leaves the day.
        retry_after_seconds: u64,
    },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for UploadRefused {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

/// A content refused is the member's to fix; the day's quota passed waits.
impl IntoFailure for UploadRefused {
    fn into_failure(self) -> Failure {
        match self {
            Self::OverQuota {
                retry_after_seconds,
                ..
            } => Failure::TooMany {
                message: self.to_string(),
                retry_after: retry_after_seconds,
            },
            Self::TooLarge | Self::Invalid => Failure::invalid(self.to_string()),
            Self::Internal(err) => Failure::Internal(err),
        }
    }
}

/// 'Você atingiu o limite de 50 MB de arquivos enviados em 24 horas. ...'
fn over_quota_text(quota_bytes: u64) -> String {
    // Tenths of a megabyte (10^6 bytes, as the spec counts its limits), at least one.
    let tenths = (quota_bytes.saturating_add(50_000) / 100_000).max(1);
    let size = match tenths % 10 {
        0 => format!("{} MB", tenths / 10),
        tenth => format!("{},{tenth} MB", tenths / 10),
    };
    format!(
        "Você atingiu o limite de {size} de arquivos enviados em 24 horas. Aguarde e tente novamente mais tarde."
    )
}

/// What an upload came in as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UploadKind {
    /// `upload-image-to-s3`: re-encoded, public.
    Image,
    /// `files/actions`: private.
    Document,
}

impl UploadKind {
    fn as_str(self) -> &'static str {
        match self {
            Self::Image => "image",
            Self::Document => "document",
        }
    }
}

/// Who uploads, and the most they may store in a rolling day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Uploader {
    pub station_id: StationId,
    pub user_id: UserId,
    pub quota_bytes: u64,
}

/// Stores the base64 image (JPEG, PNG or GIF by content, at most 1 MB decoded) for the
/// member, re-encoded, and answers its key.
pub async fn store_image(
    db: &PgPool,
    objects: &Objects,
    codec: &dyn ImageCodec,
    uploader: Uploader,
    base64: String,
) -> Result<String, UploadRefused> {
    let accepted = images::accept(
        codec,
        &base64,
        images::MAX_UPLOAD_BYTES,
        &[FileKind::Jpeg, FileKind::Png, FileKind::Gif],
        IMAGE_MAX_SIDE,
    )
    .await?;
    let encoded = match accepted {
        Ok(encoded) => encoded,
        Err(ImageError::TooLarge) => return Err(UploadRefused::TooLarge),
        Err(ImageError::NotAnImage) => return Err(UploadRefused::Invalid),
    };
    let key = Objects::new_key(
        &format!("uploads/{}/{}", uploader.station_id, uploader.user_id),
        encoded.extension,
    );
    store(
        db,
        objects,
        uploader,
        Recorded {
            key: &key,
            kind: UploadKind::Image,
            original_name: None,
        },
        encoded.bytes,
    )
    .await?;
    Ok(key)
}

/// A stored document: the name it came with and its private key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredDocument {
    pub original_name: String,
    pub key: String,
}

/// Stores a document (pdf, doc, docx, zip or an image, by content, at most 10 MB) for the
/// member under a private key.
pub async fn store_document(
    db: &PgPool,
    objects: &Objects,
    uploader: Uploader,
    name: &str,
    bytes: Vec<u8>,
) -> Result<StoredDocument, UploadRefused> {
    if bytes.is_empty() || bytes.len() > MAX_DOCUMENT_BYTES {
        return Err(UploadRefused::Invalid);
    }
    let Some(kind) = kind_of(&bytes).filter(|kind| kind.is_document()) else {
        return Err(UploadRefused::Invalid);
    };
    // A .docx is a ZIP by content; its name tells which, for whoever opens it.
    let extension = match kind {
        FileKind::Zip if name.to_lowercase().ends_with(".docx") => "docx",
        kind => kind.extension(),
    };
    let original_name: String = name.trim().chars().take(200).collect();
    let key = Objects::new_private_key(
        &format!("files/{}/{}", uploader.station_id, uploader.user_id),
        extension,
    );
    store(
        db,
        objects,
        uploader,
        Recorded {
            key: &key,
            kind: UploadKind::Document,
            original_name: Some(&original_name),
        },
        bytes,
    )
    .await?;
    Ok(StoredDocument { original_name, key })
}

/// An upload's row, as recorded.
struct Recorded<'a> {
    key: &'a str,
    kind: UploadKind,
    original_name: Option<&'a str>,
}

/// Records the upload within the member's quota, then stores its bytes. The row comes
/// first, so uploads at once are counted one after the other and a crash in between leaves
/// a row the cleanup removes, never an object nothing knows of; a failed store removes it.
async fn store(
    db: &PgPool,
    objects: &Objects,
    uploader: Uploader,
    upload: Recorded<'_>,
    bytes: Vec<u8>,
) -> Result<(), UploadRefused> {
    let size = i64::try_from(bytes.len()).map_err(anyhow::Error::from)?;
    let mut tx = db.begin().await?;
    // One member's uploads are counted one at a time: two at once cannot both fit the
    // room left for one.
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('member_uploads:' || $1, 0))")
        .bind(uploader.user_id)
        .execute(&mut *tx)
        .await?;
    // The clock after the lock, not `now()` (this transaction's start): an upload that took
    // the lock first may be younger than this transaction, and the wait answered would then
    // pass the day (Retry-After: 86401).
    let (today, retry_after): (i64, Option<f64>) = sqlx::query_as(
        "WITH clock AS (SELECT clock_timestamp() AS now)
         SELECT coalesce(sum(bytes), 0)::bigint,
                extract(epoch FROM min(created_at) + interval '1 day' - min(clock.now))::float8
           FROM member_uploads, clock
          WHERE user_id = $1 AND created_at > clock.now - interval '1 day'",
    )
    .bind(uploader.user_id)
    .fetch_one(&mut *tx)
    .await?;
    let quota = i64::try_from(uploader.quota_bytes).unwrap_or(i64::MAX);
    if today.saturating_add(size) > quota {
        return Err(UploadRefused::OverQuota {
            quota_bytes: uploader.quota_bytes,
            retry_after_seconds: retry_after.unwrap_or(60.0).ceil().max(1.0) as u64,
        });
    }
    sqlx::query(
        "INSERT INTO member_uploads (station_id, user_id, key, bytes, kind, original_name)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(uploader.station_id)
    .bind(uploader.user_id)
    .bind(upload.key)
    .bind(size)
    .bind(upload.kind.as_str())
    .bind(upload.original_name)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    if let Err(err) = objects.put(upload.key, bytes).await {
        sqlx::query("DELETE FROM member_uploads WHERE key = $1")
            .bind(upload.key)
            .execute(db)
            .await?;
        return Err(err.into());
    }
    Ok(())
}

/// An upload a row now refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attached {
    pub key: String,
    /// The document's own name; an image's file name in its key.
    pub name: String,
}

/// Why an upload cannot be attached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotAttached {
    /// No upload of this member's has this key or URL (another member's, another
    /// station's, swept, or never made).
    NotFound,
    /// Another row refers to it already.
    InUse,
}

impl NotAttached {
    /// What the member reads.
    pub fn message(self) -> &'static str {
        match self {
            Self::NotFound => "Arquivo não encontrado. Envie o arquivo novamente.",
            Self::InUse => {
                "Este arquivo já foi usado em outra resposta. Envie o arquivo novamente."
            }
        }
    }
}

/// Marks the member's upload `reference` (its key, or its URL) as referred to by `to` (the
/// referring row, e.g. `research_answers(12,5)`), on the transaction that writes that row.
/// The upload's row is locked until it commits, so the cleanup skips it meanwhile and finds
/// it attached afterwards; attaching it again to the same row is no change.
pub async fn attach(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    reference: &str,
    to: &str,
) -> sqlx::Result<Result<Attached, NotAttached>> {
    let key = Objects::key_of_url(reference).unwrap_or(reference);
    let found: Option<(String, Option<String>, Option<String>)> = sqlx::query_as(
        "SELECT key, original_name, attached_to FROM member_uploads
          WHERE key = $1 AND station_id = $2 AND user_id = $3 FOR UPDATE",
    )
    .bind(key)
    .bind(station_id)
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((key, original_name, attached_to)) = found else {
        return Ok(Err(NotAttached::NotFound));
    };
    if attached_to.as_deref().is_some_and(|other| other != to) {
        return Ok(Err(NotAttached::InUse));
    }
    sqlx::query(
        "UPDATE member_uploads SET attached_to = $2, attached_at = coalesce(attached_at, now())
          WHERE key = $1",
    )
    .bind(&key)
    .bind(to)
    .execute(&mut *conn)
    .await?;
    let name =
        original_name.unwrap_or_else(|| key.rsplit('/').next().unwrap_or_default().to_string());
    Ok(Ok(Attached { key, name }))
}

/// The row that referred to the upload under `key` no longer does (it took another file):
/// the upload is unattached again, its bytes still counted for its day, and the cleanup
/// removes its row. Any other key is left alone.
pub async fn detach(conn: &mut PgConnection, key: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE member_uploads SET attached_to = NULL, attached_at = NULL WHERE key = $1")
        .bind(key)
        .execute(conn)
        .await?;
    Ok(())
}

/// `uploads-cleanup`'s part for member uploads: those nothing refers to, made before
/// `now` less a day, deleted with their objects, a bounded batch a run. Each row on its own
/// transaction, locked `SKIP LOCKED` and checked again: one being attached at that moment
/// is skipped, and any number of runs leave the same. Answers how many went.
pub async fn sweep_unattached(
    db: &PgPool,
    objects: &Objects,
    now: DateTime<Utc>,
) -> anyhow::Result<u64> {
    let cutoff = now - chrono::Duration::hours(UNATTACHED_AFTER_HOURS);
    let found: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM member_uploads
          WHERE attached_at IS NULL AND created_at < $1 ORDER BY created_at, id LIMIT $2",
    )
    .bind(cutoff)
    .bind(SWEEP_BATCH)
    .fetch_all(db)
    .await?;
    let mut removed = 0;
    for id in found {
        let mut tx = db.begin().await?;
        let key: Option<String> = sqlx::query_scalar(
            "SELECT key FROM member_uploads
              WHERE id = $1 AND attached_at IS NULL AND created_at < $2
              FOR UPDATE SKIP LOCKED",
        )
        .bind(id)
        .bind(cutoff)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(key) = key else {
            continue;
        };
        // The object first: should the row's delete fail, the next run finds the row and
        // deleting the object again is no error.
        objects.delete(&key).await?;
        sqlx::query("DELETE FROM member_uploads WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        removed += 1;
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quota_is_said_in_megabytes() {
        let text = |quota| {
            UploadRefused::OverQuota {
                quota_bytes: quota,
                retry_after_seconds: 1,
            }
            .to_string()
        };
        assert_eq!(
            text(50_000_000),
            "Você atingiu o limite de 50 MB de arquivos enviados em 24 horas. Aguarde e tente novamente mais tarde."
        );
        assert!(text(2_500_000).contains("de 2,5 MB de"));
        assert!(text(1_000).contains("de 0,1 MB de"));
    }
}
