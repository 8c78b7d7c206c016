//! The mailing list: whether a member gets the station's news e-mails, and the signed links
//! that change it without a session (`/email/inscricao/{id}/{hash}` and
//! `/email/desinscricao/{id}/{hash}`). The hash is an HMAC of the user id under
//! `FILIA_SIGNING_KEY`, so a link cannot be made for someone else's account.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use sqlx::PgExecutor;

type HmacSha256 = Hmac<Sha256>;

fn mac(signing_key: &str, user_id: i64) -> HmacSha256 {
    let mut mac =
        HmacSha256::new_from_slice(signing_key.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(format!("mailing:{user_id}").as_bytes());
    mac
}

/// The hash of a user's links, as 64 lower-case hex digits.
pub fn hash(signing_key: &str, user_id: i64) -> String {
    hex::encode(mac(signing_key, user_id).finalize().into_bytes())
}

/// Whether `hash` is the user's, compared in constant time.
pub fn verify(signing_key: &str, user_id: i64, hash: &str) -> bool {
    let Ok(bytes) = hex::decode(hash.trim()) else {
        return false;
    };
    mac(signing_key, user_id).verify_slice(&bytes).is_ok()
}

/// The two pages of the web app an e-mail links to, on the station's own address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Links {
    pub subscribe: String,
    pub unsubscribe: String,
}

pub fn links(signing_key: &str, station_url: &str, user_id: i64) -> Links {
    let base = station_url.trim_end_matches('/');
    let hash = hash(signing_key, user_id);
    Links {
        subscribe: format!("{base}/email/inscricao/{user_id}/{hash}"),
        unsubscribe: format!("{base}/email/desinscricao/{user_id}/{hash}"),
    }
}

/// Sets the account's choice; false when no account has this id.
pub async fn set_subscribed(
    db: impl PgExecutor<'_>,
    user_id: i64,
    subscribed: bool,
) -> sqlx::Result<bool> {
    let updated =
        sqlx::query("UPDATE users SET mailing_subscribed = $2, updated_at = now() WHERE id = $1")
            .bind(user_id)
            .bind(subscribed)
            .execute(db)
            .await?;
    Ok(updated.rows_affected() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_right_hash_verifies() {
        let good = hash("key", 42);
        assert_eq!(good.len(), 64);
        assert!(verify("key", 42, &good));
        assert!(verify("key", 42, &good.to_uppercase()));
        assert!(!verify("key", 43, &good), "another user's hash");
        assert!(!verify("other key", 42, &good), "another deployment's key");
        assert!(!verify("key", 42, &good[..63]));
        assert!(!verify("key", 42, "zz"));
        assert!(!verify("key", 42, &"é".repeat(32)));
    }

    #[test]
    fn links_point_at_the_station() {
        let links = links("key", "https://clube.example.com/", 7);
        let hash = hash("key", 7);
        assert_eq!(
            links.subscribe,
            format!("https://clube.example.com/email/inscricao/7/{hash}")
        );
        assert_eq!(
            links.unsubscribe,
            format!("https://clube.example.com/email/desinscricao/7/{hash}")
        );
    }
}
