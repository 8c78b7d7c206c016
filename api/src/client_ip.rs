//! The address a request came from: the TCP peer, or the last `X-Forwarded-For` hop when
//! the deployment sits behind a proxy it trusts (`FILIA_TRUST_FORWARDED_FOR`). Only the
//! last hop is taken: earlier ones are whatever the client wrote. Limits per client count
//! by [`client_key`].

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

use crate::state::AppState;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientIp(pub Option<IpAddr>);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Infallible> {
        let forwarded = state
            .config
            .trust_forwarded_for
            .then(|| {
                parts
                    .headers
                    .get_all("x-forwarded-for")
                    .iter()
                    .filter_map(|value| value.to_str().ok())
                    .flat_map(|value| value.split(','))
                    .next_back()
                    .and_then(|hop| hop.trim().parse().ok())
            })
            .flatten();
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(address)| address.ip());
        Ok(Self(forwarded.or(peer)))
    }
}

/// What a per-client limit counts a client by: its IPv4 address, or for IPv6 its /64, the
/// block one subscriber typically holds (counting single IPv6 addresses would let one host
/// rotate past any limit). Every per-address limit uses this.
pub fn client_key(ip: IpAddr) -> String {
    match ip.to_canonical() {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4_counts_by_address_and_ipv6_by_its_slash_64() {
        let key = |ip: &str| client_key(ip.parse().expect("address"));
        assert_eq!(key("203.0.113.7"), "203.0.113.7");
        assert_eq!(key("::ffff:203.0.113.7"), "203.0.113.7");
        assert_eq!(key("2001:db8:0:1::1"), "2001:db8:0:1::/64");
        assert_eq!(key("2001:db8:0:1:abcd::9"), key("2001:db8:0:1::1"));
        assert_ne!(key("2001:db8:0:2::1"), key("2001:db8:0:1::1"));
    }
}
