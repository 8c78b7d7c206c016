//! Our own short links for the share activity (type 5): `/s/{code}` on the station's host
//! redirects to the share page `/compartilhamento?source={userId}&campaign={actionId}` and
//! counts the opening. The spec's third-party shortener is replaced by this: the link
//! never leaves our host, and a code names one member's link for one activity.
//!
//! Taking a link is not a participation and pays nothing: the spec releases type 5's
//! cashback "after an invitee opens the share link", which the visit credit of the share
//! page already does (`sharing`, `wallet::rewards::on_share_visit`). So a link is issued
//! exactly when a visit to it would be credited: [`sharing::find_share`]'s rules.

use sqlx::{PgConnection, PgExecutor};

use super::sharing;
use crate::shared::secret::random_bytes;

/// Characters of a code: no `0`/`O` nor `1`/`I`, so a code read aloud or typed is not
/// mistaken. 32 of them, so a random byte's low 5 bits pick one uniformly.
pub const ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
pub const CODE_LENGTH: usize = 8;
/// New codes tried before giving up: with 32^8 codes a collision is already rare.
const ATTEMPTS: usize = 5;

/// A member's short link for a share activity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShortLink {
    pub code: String,
    /// `{station url}/s/{code}`, what the member shares.
    pub url: String,
    /// Where the code redirects: the share page, relative to the station's host.
    pub target: String,
}

/// A fresh random code.
pub fn new_code() -> anyhow::Result<String> {
    let bytes = random_bytes::<CODE_LENGTH>()?;
    Ok(bytes
        .iter()
        .map(|byte| char::from(ALPHABET[usize::from(byte & 31)]))
        .collect())
}

/// Whether `code` could be one of ours; anything else is unknown without a query.
pub fn is_code(code: &str) -> bool {
    code.len() == CODE_LENGTH && code.bytes().all(|byte| ALPHABET.contains(&byte))
}

/// The share page a link of `user_id` for `action_id` opens.
pub fn target(user_id: i64, action_id: i64) -> String {
    format!("/compartilhamento?source={user_id}&campaign={action_id}")
}

/// `{station url}/s/{code}`.
pub fn short_url(station_url: &str, code: &str) -> String {
    format!("{}/s/{code}", station_url.trim_end_matches('/'))
}

/// The member's short link for `action_id`, created on the first call: `None` unless it is
/// a share activity of the member's station the member may share now
/// ([`sharing::find_share`]: published, open when it has a window, the member activated
/// and not blocked). Calls at once get one code: each inserts its own candidate and the
/// unique (member, activity) keeps the first; all then read the stored one. A candidate
/// that collides with another link's code is dropped the same way and retried.
pub async fn link_for(
    conn: &mut PgConnection,
    user_id: i64,
    station_id: i64,
    action_id: i64,
) -> anyhow::Result<Option<ShortLink>> {
    let Some(share) = sharing::find_share(&mut *conn, action_id, user_id).await? else {
        return Ok(None);
    };
    if share.station_id != station_id {
        return Ok(None);
    }
    for _ in 0..ATTEMPTS {
        let candidate = new_code()?;
        let stored: Option<(String, String)> = sqlx::query_as(
            "WITH inserted AS (
                 INSERT INTO short_links (code, station_id, user_id, action_id)
                 VALUES ($1, $2, $3, $4)
                 ON CONFLICT DO NOTHING
                 RETURNING code)
             SELECT code, (SELECT url FROM stations WHERE id = $2) FROM inserted",
        )
        .bind(&candidate)
        .bind(station_id)
        .bind(user_id)
        .bind(action_id)
        .fetch_optional(&mut *conn)
        .await?;
        // Not inserted: the member's link exists (read in a new statement, which sees a
        // concurrent insert once it committed), or the candidate was taken.
        let stored =
            match stored {
                Some(row) => Some(row),
                None => sqlx::query_as(
                    "SELECT l.code, s.url FROM short_links l JOIN stations s ON s.id = l.station_id
                      WHERE l.user_id = $1 AND l.action_id = $2",
                )
                .bind(user_id)
                .bind(action_id)
                .fetch_optional(&mut *conn)
                .await?,
            };
        if let Some((code, station_url)) = stored {
            return Ok(Some(ShortLink {
                url: short_url(&station_url, &code),
                target: target(user_id, action_id),
                code,
            }));
        }
    }
    anyhow::bail!("no free short link code after {ATTEMPTS} attempts")
}

/// Where `code` redirects, counting the opening in the same statement (so openings at once
/// are all counted); `None` for an unknown code. The link keeps redirecting after its
/// activity ended: the share page then tells the visitor it is not found.
pub async fn resolve(db: impl PgExecutor<'_>, code: &str) -> sqlx::Result<Option<String>> {
    if !is_code(code) {
        return Ok(None);
    }
    let row: Option<(i64, i64)> = sqlx::query_as(
        "UPDATE short_links SET clicks = clicks + 1 WHERE code = $1
         RETURNING user_id, action_id",
    )
    .bind(code)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|(user_id, action_id)| target(user_id, action_id)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_eight_unambiguous_characters() {
        for _ in 0..200 {
            let code = new_code().expect("randomness");
            assert!(is_code(&code), "{code}");
            assert!(!code.contains(['0', 'O', '1', 'I']), "{code}");
        }
        assert_ne!(
            new_code().expect("randomness"),
            new_code().expect("randomness")
        );
        for not_ours in [
            "",
            "ABCDEFG",
            "ABCDEFGHJ",
            "abcdefgh",
            "ABCDEF0O",
            "ABCD/EFG",
        ] {
            assert!(!is_code(not_ours), "{not_ours}");
        }
    }

    #[test]
    fn links_and_targets() {
        assert_eq!(
            short_url("https://azul.example.com/", "AB23CD45"),
            "https://azul.example.com/s/AB23CD45"
        );
        assert_eq!(target(7, 31), "/compartilhamento?source=7&campaign=31");
    }
}
