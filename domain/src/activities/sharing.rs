//! The share activity (type 5): a member shares a link `/compartilhamento?source={userId}&
//! campaign={actionId}`; each person who opens it is recorded once, and the share's credit
//! is paid once per visitor network, up to a daily cap (`wallet::rewards::on_share_visit`).

use std::net::IpAddr;

use hmac::{Hmac, Mac};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use sqlx::PgExecutor;

use super::ActivityType;

/// A share activity as the redirect page needs it: where to send the visitor.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SharedAction {
    pub id: i64,
    pub name: String,
    #[sqlx(json)]
    pub contents: Vec<Content>,
    pub station_id: i64,
}

/// A text or link of the shared activity, as its JSON column holds it.
#[derive(Debug, Clone, Deserialize)]
pub struct Content {
    pub text: Option<String>,
    pub link: Option<String>,
}

/// The share activity `action_id` if `sharer_id` may share it: a published share of the
/// sharer's own station, open now when it has a window (a share that ended pays no more
/// visits), the sharer activated and not blocked. Anything else is `None`, alike.
pub async fn find_share(
    db: impl PgExecutor<'_>,
    action_id: i64,
    sharer_id: i64,
) -> sqlx::Result<Option<SharedAction>> {
    sqlx::query_as(
        "SELECT a.id, a.name, a.station_id,
                coalesce((SELECT jsonb_agg(jsonb_build_object('text', c.text, 'link', c.link)
                                           ORDER BY c.position, c.id)
                            FROM action_contents c WHERE c.action_id = a.id), '[]') AS contents
           FROM actions a
           JOIN users u ON u.id = $2 AND u.station_id = a.station_id
                       AND u.active AND u.deleted_at IS NULL
          WHERE a.id = $1 AND a.type_id = $3 AND a.active
            AND (a.participation_start IS NULL OR a.participation_start <= now())
            AND (a.participation_end IS NULL OR a.participation_end > now())",
    )
    .bind(action_id)
    .bind(sharer_id)
    .bind(ActivityType::Share)
    .fetch_optional(db)
    .await
}

/// Who is visiting, as well as a server can tell without a session: the SHA-256 of the
/// client address and user agent.
pub fn client_hash(ip: Option<IpAddr>, user_agent: &str) -> [u8; 32] {
    let ip = ip.map(|ip| ip.to_string()).unwrap_or_default();
    Sha256::digest(format!("{ip}\n{user_agent}").as_bytes()).into()
}

/// The visitor's network as the share credit keys it: the address' /24 (IPv4, also when
/// written as IPv4-mapped IPv6) or /64 (IPv6), the block one subscriber or one host
/// typically holds. So rotating the user agent, the visitor id or the address within the
/// network is one visitor for the credit. An HMAC keyed by `signing_key`, hex, half of it:
/// the address is never stored, and a network cannot be found again by hashing every
/// /24 without the key. `None` (no address known) is one network of its own.
pub fn network_key(signing_key: &str, ip: Option<IpAddr>) -> String {
    let network = match ip.map(|ip| ip.to_canonical()) {
        Some(IpAddr::V4(v4)) => {
            let [a, b, c, _] = v4.octets();
            format!("v4:{a}.{b}.{c}.0/24")
        }
        Some(IpAddr::V6(v6)) => {
            let s = v6.segments();
            format!("v6:{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
        None => "unknown".to_string(),
    };
    let mut mac = Hmac::<Sha256>::new_from_slice(signing_key.as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(b"share-network\n");
    mac.update(network.as_bytes());
    hex::encode(&mac.finalize().into_bytes()[..16])
}

/// The browser's own random id when it looks like one (16 to 64 letters, digits, `-` or
/// `_`), else the client hash: a made-up or missing id still counts one visitor per client.
pub fn visitor_key(visitor_id: Option<&str>, client_hash: &[u8; 32]) -> String {
    match visitor_id.map(str::trim).filter(|id| is_random_id(id)) {
        Some(id) => format!("v:{id}"),
        None => format!("c:{}", hex::encode(client_hash)),
    }
}

fn is_random_id(id: &str) -> bool {
    (16..=64).contains(&id.len())
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && id.chars().collect::<std::collections::HashSet<_>>().len() > 4
}

/// Who opened a share link, as the request tells.
#[derive(Debug, Clone, Copy)]
pub struct Opener<'a> {
    /// The signed-in member opening it, if any.
    pub signed_in_user: Option<i64>,
    pub ip: Option<IpAddr>,
    pub user_agent: &'a str,
    /// The random id the visitor's browser keeps, as it sent it.
    pub visitor_id: Option<&'a str>,
}

/// A visitor of a share link, keyed for the visit record and the sharer's credit.
#[derive(Debug, Clone)]
pub struct Visitor {
    sharer_id: i64,
    visitor_key: String,
    client_hash: [u8; 32],
    network: String,
}

impl Visitor {
    /// Who opened `sharer_id`'s link, or `None` when it is the sharer (signed in): the
    /// sharer trying their own link is no visit and earns nothing. The visitor is the
    /// browser's id when it looks random, else the client ([`visitor_key`]); the credit is
    /// keyed on the network ([`network_key`], under `signing_key`).
    pub fn of(signing_key: &str, sharer_id: i64, opener: &Opener<'_>) -> Option<Self> {
        if opener.signed_in_user == Some(sharer_id) {
            return None;
        }
        let client_hash = client_hash(opener.ip, opener.user_agent);
        Some(Self {
            sharer_id,
            visitor_key: visitor_key(opener.visitor_id, &client_hash),
            client_hash,
            network: network_key(signing_key, opener.ip),
        })
    }

    /// The visit of this visitor to `action`.
    pub fn visit<'a>(&'a self, action: &'a SharedAction) -> Visit<'a> {
        Visit {
            action,
            sharer_id: self.sharer_id,
            visitor_key: &self.visitor_key,
            client_hash: &self.client_hash,
            network: &self.network,
        }
    }
}

/// A visit to a member's share link. Recording it again changes nothing.
#[derive(Debug, Clone)]
pub struct Visit<'a> {
    pub action: &'a SharedAction,
    pub sharer_id: i64,
    pub visitor_key: &'a str,
    pub client_hash: &'a [u8; 32],
    /// The visitor's [`network_key`]: what the sharer's credit is keyed on.
    pub network: &'a str,
}

/// True when this visitor is new for this sharer and activity.
pub async fn record_visit(db: impl PgExecutor<'_>, visit: &Visit<'_>) -> sqlx::Result<bool> {
    let inserted = sqlx::query(
        "INSERT INTO share_visits (station_id, action_id, sharer_user_id, visitor_key, client_hash)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (action_id, sharer_user_id, visitor_key) DO NOTHING",
    )
    .bind(visit.action.station_id)
    .bind(visit.action.id)
    .bind(visit.sharer_id)
    .bind(visit.visitor_key)
    .bind(visit.client_hash.as_slice())
    .execute(db)
    .await?;
    Ok(inserted.rows_affected() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_ids_are_kept_and_anything_else_falls_back_to_the_client() {
        let client = client_hash(Some([127, 0, 0, 1].into()), "Firefox");
        let id = "01J9Z3K7Q8M2N4P6R8T0V2X4Y6";
        assert_eq!(visitor_key(Some(id), &client), format!("v:{id}"));
        for made_up in [
            None,
            Some(""),
            Some("1"),
            Some("aaaaaaaaaaaaaaaaaaaa"),
            Some("x y z w v u t s r q"),
        ] {
            let key = visitor_key(made_up, &client);
            assert!(key.starts_with("c:") && key.len() == 66, "{made_up:?}");
        }
        assert_ne!(client, client_hash(Some([127, 0, 0, 2].into()), "Firefox"));
    }

    #[test]
    fn the_sharer_opening_their_own_link_is_no_visitor() {
        let opener = |signed_in_user| Opener {
            signed_in_user,
            ip: Some([203, 0, 113, 7].into()),
            user_agent: "Firefox",
            visitor_id: Some("01J9Z3K7Q8M2N4P6R8T0V2X4Y6"),
        };
        assert!(Visitor::of("segredo", 7, &opener(Some(7))).is_none());
        for someone in [None, Some(8)] {
            let visitor = Visitor::of("segredo", 7, &opener(someone)).expect("a visitor");
            let action = SharedAction {
                id: 3,
                name: "Compartilhe".into(),
                contents: Vec::new(),
                station_id: 1,
            };
            let visit = visitor.visit(&action);
            assert_eq!(visit.sharer_id, 7);
            assert_eq!(visit.visitor_key, "v:01J9Z3K7Q8M2N4P6R8T0V2X4Y6");
            assert_eq!(
                visit.network,
                network_key("segredo", Some([203, 0, 113, 9].into()))
            );
        }
    }

    #[test]
    fn a_network_is_an_ipv4_slash_24_or_an_ipv6_slash_64_keyed_by_the_signing_key() {
        let key = |ip: &str| network_key("segredo", Some(ip.parse().expect("address")));
        assert_eq!(key("203.0.113.7"), key("203.0.113.250"));
        assert_eq!(key("203.0.113.7"), key("::ffff:203.0.113.9"));
        assert_ne!(key("203.0.113.7"), key("203.0.114.7"));
        assert_eq!(
            key("2001:db8:1:2::1"),
            key("2001:db8:1:2:ffff:ffff:ffff:ffff")
        );
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("203.0.113.7").len(), 32);
        assert_ne!(
            key("203.0.113.7"),
            network_key("outro", Some("203.0.113.7".parse().expect("address")))
        );
        assert_eq!(network_key("segredo", None), network_key("segredo", None));
        assert_ne!(network_key("segredo", None), key("203.0.113.7"));
    }
}
