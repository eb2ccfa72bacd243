//! Defences of the HTTP layer against other sites and hostile clients (issue 9, section 2;
//! docs/security.md): `origin` refuses cross-site requests and non-JSON bodies, `headers` adds
//! the security headers to every response. The player token itself is `crate::player`.

pub mod headers;
pub mod origin;

use std::sync::Arc;

use axum::http::HeaderMap;
use axum::http::header::HOST;

use crate::options::{PublicUrl, SiteOptions};
use site_model::secrets::TokenKeys;

/// What the security middlewares know about the site.
#[derive(Debug, Clone)]
pub struct Security {
    /// Signs and checks player tokens.
    pub keys: TokenKeys,
    /// `--public-url`.
    pub public_url: Option<PublicUrl>,
    /// `--trust-proxy`.
    pub trust_proxy: bool,
    /// Log-in sessions (none in unit tests of the middlewares: no one is logged in).
    pub sessions: Option<Arc<site::accounts::Sessions>>,
}

/// The shared state of the security middlewares.
pub type SecurityState = Arc<Security>;

impl Security {
    /// From the site's options and its token keys, without sessions.
    pub fn new(options: &SiteOptions, keys: TokenKeys) -> SecurityState {
        Arc::new(Security {
            keys,
            public_url: options.public_url.clone(),
            trust_proxy: options.trust_proxy,
            sessions: None,
        })
    }

    /// [`Security::new`] with the site's log-in sessions.
    pub fn with_sessions(
        options: &SiteOptions,
        keys: TokenKeys,
        sessions: Arc<site::accounts::Sessions>,
    ) -> SecurityState {
        Arc::new(Security {
            keys,
            public_url: options.public_url.clone(),
            trust_proxy: options.trust_proxy,
            sessions: Some(sessions),
        })
    }

    /// Whether the client reached the site over HTTPS: `--public-url https://...`, or a trusted
    /// proxy's `X-Forwarded-Proto: https`.
    pub fn https(&self, headers: &HeaderMap) -> bool {
        if let Some(u) = &self.public_url {
            return u.https();
        }
        self.trust_proxy
            && headers
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
    }

    /// Whether `origin` (an `Origin` header's value) is the site's own: the public URL's origin,
    /// or without one, any scheme with the request's own `Host`.
    pub fn same_origin(&self, origin: &str, headers: &HeaderMap) -> bool {
        if let Some(u) = &self.public_url {
            return origin.eq_ignore_ascii_case(u.origin());
        }
        let Some(host) = headers.get(HOST).and_then(|v| v.to_str().ok()) else {
            return false;
        };
        let authority = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"));
        authority.is_some_and(|a| a.eq_ignore_ascii_case(host.trim()))
    }
}
