//! What an operator (or a test) sets about a running site beyond its database: the public
//! address it is reached at, whether a reverse proxy's headers are trusted, timeouts for slow
//! and idle clients, connection caps and per-client rate limits (docs/security.md says which
//! threat each one answers). The options of the services below HTTP are `site`'s
//! ([`site::options::ServiceOptions`]), held here whole.

use std::time::Duration;

use axum::http::Uri;

/// Everything [`crate::Site::open_with`] takes besides the database URL.
#[derive(Debug, Clone, Default)]
pub struct SiteOptions {
    /// The address people reach the site at (`--public-url`): its origin is the only one whose
    /// pages may change games, and `https` makes the player cookie `__Host-` and `Secure`.
    pub public_url: Option<PublicUrl>,
    /// Trust `X-Forwarded-For` (the client's address, for rate limits) and `X-Forwarded-Proto`
    /// (`https` makes the cookie `Secure`) because a reverse proxy sets them (`--trust-proxy`).
    /// The per-address connection cap is then left to the proxy: every connection comes from it.
    pub trust_proxy: bool,
    /// Slow and idle clients.
    pub timeouts: Timeouts,
    /// Open connections.
    pub connections: ConnectionLimits,
    /// Requests per client address.
    pub rate_limits: RateLimits,
    /// What the site's services take beyond HTTP (storage, the analysis's nodes, the lobby's
    /// presence, the wall clock, the Redis bus): the server reads it when it wires them.
    pub services: site::options::ServiceOptions,
}

/// The site's public address: `http(s)://host[:port]`, without a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUrl {
    origin: String,
    https: bool,
}

/// Why a `--public-url` was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("public URL '{url}': {reason}")]
pub struct PublicUrlError {
    url: String,
    reason: &'static str,
}

impl PublicUrl {
    /// Reads `https://play.example.org`, `http://127.0.0.1:8080/` and the like. A path other
    /// than `/`, a query or user info is refused: the site is served at the root of its host.
    pub fn parse(text: &str) -> Result<PublicUrl, PublicUrlError> {
        let err = |reason| PublicUrlError {
            url: text.to_string(),
            reason,
        };
        let uri: Uri = text
            .parse()
            .map_err(|_| err("not a URL (e.g. https://play.example.org)"))?;
        let https = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            _ => return Err(err("the scheme must be http or https")),
        };
        let authority = uri.authority().ok_or_else(|| err("no host"))?;
        if authority.as_str().contains('@') {
            return Err(err("user names and passwords do not belong in it"));
        }
        if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
            return Err(err(
                "the site is served at the root of its host: give no path or query",
            ));
        }
        let default_port = if https { 443 } else { 80 };
        let host = authority.host().to_ascii_lowercase();
        let origin = match authority.port_u16() {
            Some(p) if p != default_port => {
                format!("{}://{host}:{p}", uri.scheme_str().unwrap_or("http"))
            }
            _ => format!("{}://{host}", uri.scheme_str().unwrap_or("http")),
        };
        Ok(PublicUrl { origin, https })
    }

    /// `scheme://host[:port]`, as a browser sends it in `Origin`.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Whether the site is served over HTTPS.
    pub fn https(&self) -> bool {
        self.https
    }
}

/// How long a client may take, and stay idle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// A request's line and headers must arrive whole within this time from its first byte;
    /// a new connection must send its first request within it too (10 s).
    pub header: Duration,
    /// A request body must arrive whole within this time after its headers (10 s): 408.
    pub body: Duration,
    /// A kept-alive connection with no request in flight is closed after this time (30 s).
    pub keep_alive: Duration,
    /// A WebSocket sends a ping after this much silence (20 s) ...
    pub ws_ping: Duration,
    /// ... and is closed when its peer sent nothing, not even a pong, for this long (50 s).
    pub ws_dead: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            header: Duration::from_secs(10),
            body: Duration::from_secs(10),
            keep_alive: Duration::from_secs(30),
            ws_ping: Duration::from_secs(20),
            ws_dead: Duration::from_secs(50),
        }
    }
}

/// Caps on open connections (HTTP and WebSocket alike: each holds a file descriptor).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Most connections open at once; `None`: as many as the descriptor limit allows, less
    /// [`ConnectionLimits::reserved_fds`].
    pub total: Option<usize>,
    /// Most connections from one client address (an IPv6 client is its /64); `None`: no cap.
    /// Not applied with `trust_proxy` (the proxy is the only peer).
    pub per_address: Option<usize>,
    /// Descriptors kept free for the database, logs and the listener (64).
    pub reserved_fds: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            total: None,
            per_address: Some(256),
            reserved_fds: 64,
        }
    }
}

/// One rate: `burst` requests at once, then one more every `period`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Requests allowed at once.
    pub burst: u32,
    /// Time for one more to become allowed.
    pub period: Duration,
}

impl Rate {
    /// `per_minute` requests a minute on average, with a burst of `burst`.
    pub fn per_minute(per_minute: u32, burst: u32) -> Rate {
        Rate {
            burst: burst.max(1),
            period: Duration::from_millis(60_000 / u64::from(per_minute.max(1))),
        }
    }
}

/// Per-client limits (tower_governor, keyed by the client's address); `None` turns one off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    /// `POST /api/games` and rematches: 30 a minute, 20 at once.
    pub create: Option<Rate>,
    /// `POST /api/join/{invite}`: 30 a minute, 20 at once.
    pub join: Option<Rate>,
    /// Every request naming a game id (`/api/games/{id}/...`, its WebSocket included): 1,200 a
    /// minute (20/s), 100 at once.
    pub lookup: Option<Rate>,
    /// `POST /api/analysis`: 60 a minute, 10 at once (each search also waits its turn in the
    /// engine queue, at most two at once per player).
    pub analysis: Option<Rate>,
    /// `POST /api/session` and `POST /api/accounts` (log-ins and registrations, counted
    /// together against password guessing): 10 a minute, 5 at once.
    pub login: Option<Rate>,
    /// Bytes of `POST /api/records/read` answers per client address and minute (issue 41: a
    /// 240 KB file read back as 8.8 MB): 16 MiB ([`crate::output_budget`]).
    pub records_bytes: Option<u64>,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            create: Some(Rate::per_minute(30, 20)),
            join: Some(Rate::per_minute(30, 20)),
            lookup: Some(Rate::per_minute(1_200, 100)),
            analysis: Some(Rate::per_minute(60, 10)),
            login: Some(Rate::per_minute(10, 5)),
            records_bytes: Some(16 * 1024 * 1024),
        }
    }
}

impl RateLimits {
    /// No limits (load tests from one address).
    pub fn off() -> RateLimits {
        RateLimits {
            create: None,
            join: None,
            lookup: None,
            analysis: None,
            login: None,
            records_bytes: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_urls() {
        let u = PublicUrl::parse("https://Play.Example.org/").unwrap();
        assert_eq!(u.origin(), "https://play.example.org");
        assert!(u.https());
        assert_eq!(
            PublicUrl::parse("https://play.example.org:443")
                .unwrap()
                .origin(),
            "https://play.example.org"
        );
        let local = PublicUrl::parse("http://127.0.0.1:8080").unwrap();
        assert_eq!(local.origin(), "http://127.0.0.1:8080");
        assert!(!local.https());
        for bad in [
            "play.example.org",
            "ftp://play.example.org",
            "https://play.example.org/icebound",
            "https://u:p@play.example.org",
            "https://play.example.org/?x=1",
        ] {
            assert!(PublicUrl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rates_per_minute() {
        let r = Rate::per_minute(30, 20);
        assert_eq!(r.period, Duration::from_secs(2));
        assert_eq!(r.burst, 20);
    }
}
