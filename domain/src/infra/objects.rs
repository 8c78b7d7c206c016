//! Stored files (profile images now; logos, videos and PDFs later) behind `object_store`:
//! a local directory by default (`FILIA_DATA_DIR/objects`), any other store in production.
//! Keys are chosen by the caller and must be unguessable where the object is private to a
//! member; every object here is served publicly at [`Objects::url`].

use std::path::Path as FsPath;
use std::sync::Arc;

use bytes::Bytes;
use futures_util::stream::{BoxStream, StreamExt};
use object_store::local::LocalFileSystem;
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectStore, ObjectStoreExt, PutPayload, WriteMultipart};

/// Where the API serves stored objects; a stored URL is this plus the key.
pub const PUBLIC_PREFIX: &str = "/api/media/";

/// Where documents of one member live (receipts, vouchers): never served by the public media
/// route, whatever the key.
pub const PRIVATE_ROOT: &str = "private/";

#[derive(Clone)]
pub struct Objects {
    store: Arc<dyn ObjectStore>,
}

impl std::fmt::Debug for Objects {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Objects({})", self.store)
    }
}

/// An object (or part of one) being read: its size, the bytes coming, their type.
pub struct Opened {
    /// The whole object's size.
    pub size: u64,
    /// The bytes `bytes` holds, end exclusive.
    pub range: std::ops::Range<u64>,
    pub content_type: &'static str,
    pub bytes: BoxStream<'static, std::io::Result<Bytes>>,
}

impl std::fmt::Debug for Opened {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Opened({:?} of {} bytes)", self.range, self.size)
    }
}

/// An object read back, with the content type its key's extension names.
#[derive(Debug, Clone)]
pub struct Object {
    pub bytes: Bytes,
    pub content_type: &'static str,
}

impl Objects {
    /// The process's store: files under the configured data directory's `objects`.
    pub fn from_config(config: &crate::infra::config::Config) -> anyhow::Result<Self> {
        Self::local(&config.data_dir.join("objects"))
    }

    /// Objects as files under `dir`, created if missing.
    pub fn local(dir: &FsPath) -> anyhow::Result<Self> {
        std::fs::create_dir_all(dir)
            .map_err(|err| anyhow::anyhow!("creating {}: {err}", dir.display()))?;
        Ok(Self::new(Arc::new(LocalFileSystem::new_with_prefix(dir)?)))
    }

    pub fn new(store: Arc<dyn ObjectStore>) -> Self {
        Self { store }
    }

    pub async fn put(&self, key: &str, bytes: Vec<u8>) -> anyhow::Result<()> {
        self.store
            .put(&parse_key(key)?, PutPayload::from(bytes))
            .await?;
        Ok(())
    }

    /// Stores the file at `path` under `key`, read and sent a part at a time (a video of
    /// 200 MB is never held whole in memory); answers the bytes stored. A failure leaves
    /// nothing under `key`.
    pub async fn put_file(&self, key: &str, path: &FsPath) -> anyhow::Result<u64> {
        use tokio::io::AsyncReadExt;
        let location = parse_key(key)?;
        let mut file = tokio::fs::File::open(path)
            .await
            .map_err(|err| anyhow::anyhow!("opening {}: {err}", path.display()))?;
        let mut upload =
            WriteMultipart::new_with_chunk_size(self.store.put_multipart(&location).await?, PART);
        let mut stored = 0u64;
        let copied: anyhow::Result<()> = async {
            loop {
                // At most two parts in flight plus the one being read: ~3 parts of memory.
                upload.wait_for_capacity(2).await?;
                let mut part = Vec::with_capacity(PART);
                let read = (&mut file).take(PART as u64).read_to_end(&mut part).await?;
                if read == 0 {
                    return Ok(());
                }
                stored += read as u64;
                upload.put(Bytes::from(part));
            }
        }
        .await;
        match copied {
            Ok(()) => {
                upload.finish().await?;
                Ok(stored)
            }
            Err(err) => {
                let _ = upload.abort().await;
                Err(err)
            }
        }
    }

    /// `None` for a key that holds nothing, or that is not a key at all (`..`, empty parts).
    pub async fn get(&self, key: &str) -> anyhow::Result<Option<Object>> {
        let Ok(path) = parse_key(key) else {
            return Ok(None);
        };
        match self.store.get(&path).await {
            Ok(found) => Ok(Some(Object {
                bytes: found.bytes().await?,
                content_type: content_type(key),
            })),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(err) if names_nothing(&err) => Ok(None),
            Err(err) => Err(err.into()),
        }
    }

    /// The object's size in bytes and its content type; `None` as for [`Objects::get`].
    pub async fn head(&self, key: &str) -> anyhow::Result<Option<(u64, &'static str)>> {
        let Ok(path) = parse_key(key) else {
            return Ok(None);
        };
        match self.store.head(&path).await {
            Ok(meta) => Ok(Some((meta.size, content_type(key)))),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(err) if names_nothing(&err) => Ok(None),
            Err(err) => Err(err.into()),
        }
    }

    /// The object's bytes from `range` (the whole object when `None`), read as they are
    /// sent rather than held in memory: a video is served to many viewers at once. `None`
    /// for what [`Objects::get`] finds nothing at; `range` lies within the object (see
    /// [`Objects::head`]).
    pub async fn open(
        &self,
        key: &str,
        range: Option<std::ops::Range<u64>>,
    ) -> anyhow::Result<Option<Opened>> {
        let Ok(path) = parse_key(key) else {
            return Ok(None);
        };
        let options = GetOptions {
            range: range.map(GetRange::Bounded),
            ..GetOptions::default()
        };
        match self.store.get_opts(&path, options).await {
            Ok(found) => Ok(Some(Opened {
                size: found.meta.size,
                range: found.range.clone(),
                content_type: content_type(key),
                bytes: found
                    .into_stream()
                    .map(|chunk| chunk.map_err(std::io::Error::other))
                    .boxed(),
            })),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(err) if names_nothing(&err) => Ok(None),
            Err(err) => Err(err.into()),
        }
    }

    /// Deleting what is already gone is not an error.
    pub async fn delete(&self, key: &str) -> anyhow::Result<()> {
        match self.store.delete(&parse_key(key)?).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(err) => Err(err.into()),
        }
    }

    /// A fresh, unguessable key in `folder`: a ULID (80 random bits) and the extension.
    pub fn new_key(folder: &str, extension: &str) -> String {
        let id = ulid::Ulid::generate().to_string().to_lowercase();
        format!("{}/{id}.{extension}", folder.trim_end_matches('/'))
    }

    /// A fresh key for a document only its owner may read (a receipt, a voucher): under
    /// [`PRIVATE_ROOT`], which the public media route never serves; its own route checks
    /// who asks before reading it.
    pub fn new_private_key(folder: &str, extension: &str) -> String {
        Self::new_key(
            &format!("{PRIVATE_ROOT}{}", folder.trim_matches('/')),
            extension,
        )
    }

    /// Whether anyone holding the key may read the object through the media route.
    pub fn is_public(key: &str) -> bool {
        !key.starts_with(PRIVATE_ROOT)
    }

    /// The public URL (a path on the API's host) of an object.
    pub fn url(key: &str) -> String {
        format!("{PUBLIC_PREFIX}{key}")
    }

    /// The key of a URL made by [`Objects::url`]; `None` for any other URL (an image set
    /// elsewhere, such as seed data).
    pub fn key_of_url(url: &str) -> Option<&str> {
        url.strip_prefix(PUBLIC_PREFIX)
            .filter(|key| !key.is_empty())
    }
}

/// The part size of [`Objects::put_file`]: S3's minimum part size is 5 MiB.
const PART: usize = 8 * 1024 * 1024;

/// The longest key, and the longest part of one, that are keys at all: ours are a few dozen
/// characters; a store (a file system: 255 bytes a name) fails on much longer ones.
const MAX_KEY_LEN: usize = 512;
const MAX_PART_LEN: usize = 128;

/// Keys are plain relative paths: no empty, `.` or `..` segments, no escapes, nothing
/// over-long.
fn parse_key(key: &str) -> anyhow::Result<Path> {
    let valid = !key.is_empty()
        && key.len() <= MAX_KEY_LEN
        && key.split('/').all(|part| {
            !part.is_empty()
                && part.len() <= MAX_PART_LEN
                && part != "."
                && part != ".."
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        });
    if !valid {
        anyhow::bail!("not an object key: {key:?}");
    }
    Ok(Path::parse(key)?)
}

/// A well-formed key the store cannot even look up as a file: a part of it is a file, or
/// the whole is a folder. Nothing is stored there, as far as a reader can tell.
fn names_nothing(err: &object_store::Error) -> bool {
    use std::io::ErrorKind;
    std::iter::successors(Some(err as &(dyn std::error::Error + 'static)), |err| {
        err.source()
    })
    .filter_map(|err| err.downcast_ref::<std::io::Error>())
    .any(|io| {
        matches!(
            io.kind(),
            ErrorKind::NotFound
                | ErrorKind::NotADirectory
                | ErrorKind::IsADirectory
                | ErrorKind::InvalidFilename
        )
    })
}

fn content_type(key: &str) -> &'static str {
    match key.rsplit_once('.').map(|(_, ext)| ext) {
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("png") => "image/png",
        Some("webp") => "image/webp",
        Some("gif") => "image/gif",
        Some("pdf") => "application/pdf",
        Some("mp4") => "video/mp4",
        Some("mov") => "video/quicktime",
        Some("webm") => "video/webm",
        Some("wmv") => "video/x-ms-wmv",
        Some("zip") => "application/zip",
        Some("doc") => "application/msword",
        Some("docx") => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_cannot_escape_the_store() {
        for bad in [
            "",
            "../x.jpg",
            "users//a.jpg",
            "users/./a.jpg",
            "a b.jpg",
            "/abs.jpg",
            &format!("users/{}.jpg", "a".repeat(200)),
            &"a/".repeat(300),
        ] {
            assert!(parse_key(bad).is_err(), "{bad:?}");
        }
        assert!(parse_key("users/1/01HZX.jpg").is_ok());
        assert!(parse_key(&Objects::new_key("users/1", "jpg")).is_ok());
    }

    #[test]
    fn urls_round_trip_to_keys() {
        let url = Objects::url("users/1/a.jpg");
        assert_eq!(url, "/api/media/users/1/a.jpg");
        assert_eq!(Objects::key_of_url(&url), Some("users/1/a.jpg"));
        assert_eq!(Objects::key_of_url("/brand/demo/logo.svg"), None);
    }

    #[tokio::test]
    async fn put_get_delete_on_a_local_directory() {
        let dir = std::env::temp_dir().join(format!("filia-objects-{}", ulid::Ulid::generate()));
        let objects = Objects::local(&dir).expect("store");
        objects
            .put("users/1/a.png", vec![1, 2, 3])
            .await
            .expect("put");
        let object = objects
            .get("users/1/a.png")
            .await
            .expect("get")
            .expect("found");
        assert_eq!(object.bytes.as_ref(), [1, 2, 3]);
        assert_eq!(object.content_type, "image/png");
        objects.delete("users/1/a.png").await.expect("delete");
        objects.delete("users/1/a.png").await.expect("delete again");
        assert!(objects.get("users/1/a.png").await.expect("get").is_none());
        assert!(objects.get("../etc/passwd").await.expect("get").is_none());
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    async fn a_file_is_stored_in_parts_and_read_back_whole() {
        let dir = std::env::temp_dir().join(format!("filia-objects-{}", ulid::Ulid::generate()));
        let objects = Objects::local(&dir.join("objects")).expect("store");
        // Two whole parts and a bit: the last part is short.
        let bytes: Vec<u8> = (0..2 * PART + 1234).map(|i| (i % 251) as u8).collect();
        let source = dir.join("source.mp4");
        std::fs::write(&source, &bytes).expect("source");
        let stored = objects
            .put_file("feed/videos/a.mp4", &source)
            .await
            .expect("put_file");
        assert_eq!(stored, bytes.len() as u64);
        let object = objects
            .get("feed/videos/a.mp4")
            .await
            .expect("get")
            .expect("found");
        assert_eq!(object.bytes.as_ref(), bytes.as_slice());
        assert_eq!(object.content_type, "video/mp4");
        assert!(
            objects
                .put_file("feed/videos/b.mp4", &dir.join("missing.mp4"))
                .await
                .is_err()
        );
        assert!(
            objects
                .head("feed/videos/b.mp4")
                .await
                .expect("head")
                .is_none()
        );
        std::fs::remove_dir_all(dir).ok();
    }
}
