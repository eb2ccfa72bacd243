//! Where Web Push messages may go (issue 38). A browser's endpoint is read once, at the HTTP
//! edge, into a [`PushEndpoint`]: the URL as the `url` crate normalises it
//! (`http://LOCALHOST:80/Push/X` is `http://localhost/Push/X`), the form it is stored in and
//! looked up by.
//!
//! The site POSTs to whatever endpoint a player gives, so the endpoint is checked against
//! [`EndpointPolicy`] (SSRF): when subscribing, [`PushEndpoint::check`] takes only `https` on
//! port 443 to a host name that is not `localhost`, or to an address [`is_global`] says is
//! public; before each send, [`PushEndpoint::check_shape`] again for the scheme and port, and
//! the sender (server::push_sender) resolves the host, refuses to send when any of its
//! addresses is not public, and connects only to the addresses it checked.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use site_model::error::SiteError;

/// The longest endpoint taken.
pub const MAX_LEN: usize = 1000;

/// Where pushes may go: `https` on port 443 to a public host; with `allow_insecure` (tests, a
/// private push service) also `http`, any port and private or loopback addresses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EndpointPolicy {
    /// Whether `http`, other ports and private addresses are allowed.
    pub allow_insecure: bool,
}

/// A push service's URL for one browser, normalised (read by [`PushEndpoint::parse`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushEndpoint(url::Url);

impl PushEndpoint {
    /// Reads an endpoint: an absolute URL of at most [`MAX_LEN`] characters. 400 naming the
    /// field otherwise. Whether pushes may go there is [`PushEndpoint::check`]'s question.
    pub fn parse(text: &str) -> Result<PushEndpoint, SiteError> {
        if text.len() > MAX_LEN {
            return Err(SiteError::bad_request(
                "endpoint: longer than 1,000 characters",
            ));
        }
        url::Url::parse(text)
            .map(PushEndpoint)
            .map_err(|e| SiteError::bad_request(format!("endpoint: not a URL ({e})")))
    }

    /// The normalised URL, as stored.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// The URL.
    pub fn url(&self) -> &url::Url {
        &self.0
    }

    /// Whether a browser may subscribe with this endpoint: [`PushEndpoint::check_shape`], and
    /// a host that is a public address ([`is_global`]) or a name with a dot that is not
    /// `localhost` (`localhost.`, `*.localhost`). A name that resolves to a private address
    /// passes here; the sender refuses it.
    pub fn check(&self, policy: EndpointPolicy) -> Result<(), String> {
        self.check_shape(policy)?;
        if policy.allow_insecure {
            return Ok(());
        }
        let public = match self.0.host() {
            None => return Err("no host".into()),
            Some(url::Host::Domain(d)) => {
                let d = d.trim_end_matches('.').to_ascii_lowercase();
                d != "localhost" && !d.ends_with(".localhost") && d.contains('.')
            }
            Some(url::Host::Ipv4(ip)) => is_global(IpAddr::V4(ip)),
            Some(url::Host::Ipv6(ip)) => is_global(IpAddr::V6(ip)),
        };
        if !public {
            return Err("a private or local address: push services are public".into());
        }
        Ok(())
    }

    /// What every push checks again before it is sent (a row stored under older rules): the
    /// scheme (`https`; also `http` with `allow_insecure`), a host, and the port (443; any with
    /// `allow_insecure`).
    pub fn check_shape(&self, policy: EndpointPolicy) -> Result<(), String> {
        match self.0.scheme() {
            "https" => {}
            "http" if policy.allow_insecure => {}
            s => return Err(format!("scheme '{s}' (https only)")),
        }
        if self.0.host().is_none() {
            return Err("no host".into());
        }
        match self.0.port() {
            // The scheme's default: `url` drops an explicit :443 of https.
            None => Ok(()),
            Some(_) if policy.allow_insecure => Ok(()),
            Some(p) => Err(format!("port {p} (push services listen on 443)")),
        }
    }
}

/// Whether `ip` is a public (global unicast) address a push may go to. Not: unspecified,
/// loopback, private (10/8, 172.16/12, 192.168/16, ULA fc00::/7), shared (CGNAT 100.64/10),
/// "this network" 0/8, link-local (169.254/16, fe80::/10), site-local fec0::/10, IETF
/// protocol assignments (192.0.0/24, 2001::/23: Teredo, benchmarking, ORCHID), documentation
/// (192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20), benchmarking
/// (198.18/15), the 6to4 relay anycast 192.88.99/24, multicast (224/4, ff00::/8), reserved
/// 240/4 and broadcast, and any IPv6 outside 2000::/3 (the global unicast space). An IPv6
/// address that carries an IPv4 one (mapped `::ffff:0:0/96`, compatible `::/96`, NAT64
/// `64:ff9b::/96`, 6to4 `2002::/16`) is judged by the IPv4 address it carries.
pub fn is_global(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_global_v4(v4),
        IpAddr::V6(v6) => is_global_v6(v6),
    }
}

fn is_global_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    let not_global = a == 0
        || a == 10
        || a == 127
        || (a == 100 && (64..128).contains(&b))
        || (a == 169 && b == 254)
        || (a == 172 && (16..32).contains(&b))
        || (a == 192 && b == 168)
        || (a == 192 && b == 0 && (c == 0 || c == 2))
        || (a == 192 && b == 88 && c == 99)
        || (a == 198 && (b == 18 || b == 19))
        || (a == 198 && b == 51 && c == 100)
        || (a == 203 && b == 0 && c == 113)
        || a >= 224;
    !not_global
}

fn is_global_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = embedded_v4(ip) {
        return is_global_v4(v4);
    }
    let s = ip.segments();
    // Global unicast is 2000::/3; all else (ULA, link- and site-local, multicast, discard,
    // 64:ff9b:1::/48, ...) is not.
    if s[0] & 0xe000 != 0x2000 {
        return false;
    }
    // 2001::/23 (IETF protocol assignments), 2001:db8::/32 and 3fff::/20 (documentation).
    !matches!(
        (s[0], s[1]),
        (0x2001, 0..0x0200 | 0x0db8) | (0x3fff, 0..0x1000)
    )
}

/// The IPv4 address an IPv6 one carries: IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible
/// `::a.b.c.d` (`::` and `::1` among them: 0.0.0.0 and 0.0.0.1, neither global), NAT64
/// `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::/48`.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let o = ip.octets();
    let low = Ipv4Addr::new(o[12], o[13], o[14], o[15]);
    match s {
        [0, 0, 0, 0, 0, 0xffff, _, _] | [0, 0, 0, 0, 0, 0, _, _] => Some(low),
        [0x64, 0xff9b, 0, 0, 0, 0, _, _] => Some(low),
        [0x2002, _, _, _, _, _, _, _] => Some(Ipv4Addr::new(o[2], o[3], o[4], o[5])),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn global(text: &str) -> bool {
        is_global(text.parse().unwrap())
    }

    #[test]
    fn public_addresses_are_global() {
        for ip in [
            "8.8.8.8",
            "1.1.1.1",
            "142.250.185.10",
            "100.63.255.255",
            "100.128.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "192.0.1.1",
            "198.17.255.255",
            "198.20.0.0",
            "223.255.255.255",
            "2a00:1450:4001:81c::200a",
            "2606:4700:4700::1111",
            "2001:4860:4860::8888",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ] {
            assert!(global(ip), "{ip} is public");
        }
    }

    #[test]
    fn every_local_private_or_special_range_is_not_global() {
        for (ip, range) in [
            ("0.0.0.0", "unspecified"),
            ("0.1.2.3", "0/8"),
            ("127.0.0.1", "loopback"),
            ("127.255.1.2", "loopback"),
            ("10.1.2.3", "private"),
            ("172.16.0.1", "private"),
            ("172.31.255.255", "private"),
            ("192.168.1.1", "private"),
            ("100.64.0.1", "CGNAT"),
            ("100.127.255.255", "CGNAT"),
            ("169.254.169.254", "link-local (cloud metadata)"),
            ("192.0.0.8", "IETF protocol assignments"),
            ("192.0.2.1", "documentation"),
            ("198.51.100.7", "documentation"),
            ("203.0.113.9", "documentation"),
            ("198.18.0.1", "benchmarking"),
            ("198.19.255.255", "benchmarking"),
            ("192.88.99.1", "6to4 relay"),
            ("224.0.0.1", "multicast"),
            ("239.255.255.250", "multicast"),
            ("240.0.0.1", "reserved"),
            ("255.255.255.255", "broadcast"),
            ("::", "unspecified"),
            ("::1", "loopback"),
            ("::7f00:1", "IPv4-compatible loopback"),
            ("::a01:203", "IPv4-compatible private"),
            ("::ffff:127.0.0.1", "IPv4-mapped loopback"),
            ("::ffff:10.0.0.1", "IPv4-mapped private"),
            ("::ffff:169.254.169.254", "IPv4-mapped link-local"),
            ("64:ff9b::7f00:1", "NAT64 loopback"),
            ("64:ff9b::c0a8:101", "NAT64 private"),
            ("64:ff9b:1::1", "local-use NAT64"),
            ("2002:7f00:1::1", "6to4 of loopback"),
            ("2002:a00:1::1", "6to4 of private"),
            ("fec0::1", "site-local"),
            ("feff::1", "site-local"),
            ("fe80::1", "link-local"),
            ("febf::1", "link-local"),
            ("fc00::1", "ULA"),
            ("fd12:3456::1", "ULA"),
            ("ff02::1", "multicast"),
            ("ff0e::1", "multicast"),
            ("100::1", "discard"),
            ("2001::1", "Teredo"),
            ("2001:2::1", "benchmarking"),
            ("2001:db8::1", "documentation"),
            ("3fff::1", "documentation"),
            ("4000::1", "outside 2000::/3"),
        ] {
            assert!(!global(ip), "{ip} ({range}) is not global");
        }
    }

    fn check(text: &str) -> Result<(), String> {
        PushEndpoint::parse(text)
            .map_err(|e| e.message)?
            .check(EndpointPolicy::default())
    }

    #[test]
    fn subscribing_takes_https_on_443_to_public_hosts_only() {
        for ok in [
            "https://fcm.googleapis.com/fcm/send/abc",
            "https://fcm.googleapis.com:443/fcm/send/abc",
            "https://updates.push.services.mozilla.com/wpush/v2/x",
            "https://8.8.8.8/x",
            "https://[2a00:1450:4001:81c::200a]/x",
        ] {
            assert_eq!(check(ok), Ok(()), "{ok}");
        }
        for (bad, says) in [
            ("http://fcm.googleapis.com/x", "https only"),
            ("ftp://fcm.googleapis.com/x", "https only"),
            ("https://fcm.googleapis.com:6379/", "port 6379"),
            ("https://fcm.googleapis.com:80/", "port 80"),
            ("https://localhost/", "private or local"),
            ("https://localhost./", "private or local"),
            ("https://LocalHost../", "private or local"),
            ("https://push.localhost/", "private or local"),
            ("https://push.localhost./", "private or local"),
            ("https://intranet/", "private or local"),
            ("https://127.0.0.1/", "private or local"),
            ("https://127.1/", "private or local"),
            ("https://2130706433/", "private or local"),
            ("https://0x7f.0.0.1/", "private or local"),
            ("https://0.1.2.3/", "private or local"),
            ("https://224.0.0.1/", "private or local"),
            ("https://198.18.0.1/", "private or local"),
            ("https://100.64.0.1/", "private or local"),
            ("https://169.254.169.254/", "private or local"),
            ("https://[::1]/", "private or local"),
            ("https://[::7f00:1]", "private or local"),
            ("https://[::ffff:7f00:1]/", "private or local"),
            ("https://[64:ff9b::7f00:1]/", "private or local"),
            ("https://[2002:7f00:1::1]/", "private or local"),
            ("https://[fec0::1]/", "private or local"),
            ("https://[fd00::1]/", "private or local"),
            ("https://[fe80::1]/", "private or local"),
            ("https://[::]/", "private or local"),
        ] {
            let got = check(bad);
            assert!(
                got.as_ref().is_err_and(|m| m.contains(says)),
                "{bad}: {got:?}, not '{says}'"
            );
        }
    }

    #[test]
    fn allow_insecure_takes_http_any_port_and_private_hosts() {
        let open = EndpointPolicy {
            allow_insecure: true,
        };
        for ok in [
            "http://127.0.0.1:8080/x",
            "https://localhost:6379/",
            "http://[::1]/x",
            "http://10.0.0.1/",
        ] {
            assert_eq!(PushEndpoint::parse(ok).unwrap().check(open), Ok(()), "{ok}");
        }
        let ftp = PushEndpoint::parse("ftp://push.example.com/").unwrap();
        assert!(ftp.check(open).is_err());
    }

    #[test]
    fn endpoints_are_normalised_once() {
        let e = PushEndpoint::parse("http://LOCALHOST:80/Push/X").unwrap();
        assert_eq!(e.as_str(), "http://localhost/Push/X");
        let e = PushEndpoint::parse("HTTPS://Push.Example.COM:443/a/../B").unwrap();
        assert_eq!(e.as_str(), "https://push.example.com/B");
        assert!(PushEndpoint::parse("not a url").is_err());
        assert!(PushEndpoint::parse(&format!("https://a.example/{}", "x".repeat(1000))).is_err());
    }
}
