//! Per-client rate limits (issue 9, section 4) with tower_governor: game creation, joins and
//! game-id lookups, each a token bucket keyed by the client's address (an IPv6 client by its
//! /64, which one subscriber usually holds whole). Past a limit the answer is 429 `rate_limited`
//! with `Retry-After`.

use crate::error::HttpError;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, Response, StatusCode};
use axum::response::IntoResponse;
use tower_governor::GovernorError;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::KeyExtractor;

use crate::options::Rate;
use site_model::error::{ErrorCode, SiteError};

/// The client's address as the connection layer saw it (or, with `--trust-proxy`, as the proxy
/// reported it in `X-Forwarded-For`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

/// The key of a client: its IPv4 address, or the /64 of its IPv6 address.
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The key of a handler's client ([`client_key`] of its [`ClientAddr`]); a router driven
/// in-process, without one, is `0.0.0.0`.
pub fn keyed(client: Option<axum::Extension<ClientAddr>>) -> IpAddr {
    client_key(client.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.0))
}

/// Keys requests by [`ClientAddr`] (or axum's `ConnectInfo`); a request with neither (a router
/// driven in-process) shares the key `0.0.0.0`.
#[derive(Debug, Clone, Copy)]
pub struct ClientKeyExtractor;

impl KeyExtractor for ClientKeyExtractor {
    type Key = IpAddr;

    fn extract<T>(&self, req: &Request<T>) -> Result<IpAddr, GovernorError> {
        let ip = req
            .extensions()
            .get::<ClientAddr>()
            .map(|c| c.0)
            .or_else(|| {
                req.extensions()
                    .get::<ConnectInfo<std::net::SocketAddr>>()
                    .map(|c| c.0.ip())
            })
            .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        Ok(client_key(ip))
    }
}

/// The layer type of one limit.
pub type Limit =
    tower_governor::GovernorLayer<ClientKeyExtractor, governor::middleware::NoOpMiddleware, Body>;

/// A layer that allows `rate` to each client; `what` names the limit in the 429 message.
pub fn layer(rate: Rate, what: &'static str) -> Option<Limit> {
    let config: GovernorConfig<ClientKeyExtractor, _> = GovernorConfigBuilder::default()
        .key_extractor(ClientKeyExtractor)
        .period(rate.period.max(Duration::from_nanos(1)))
        .burst_size(rate.burst.max(1))
        .finish()?;
    let config = Arc::new(config);
    forget_idle_clients(&config);
    Some(tower_governor::GovernorLayer::new(config).error_handler(move |e| too_many(e, what)))
}

/// Drops the state of clients whose bucket is full again, once a minute, while the limit lives.
fn forget_idle_clients(
    config: &Arc<GovernorConfig<ClientKeyExtractor, governor::middleware::NoOpMiddleware>>,
) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let weak = Arc::downgrade(config);
    runtime.spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        tick.tick().await;
        loop {
            tick.tick().await;
            let Some(config) = weak.upgrade() else { return };
            config.limiter().retain_recent();
        }
    });
}

fn too_many(e: GovernorError, what: &str) -> Response<Body> {
    match e {
        GovernorError::TooManyRequests { wait_time, headers } => {
            let wait = wait_time.max(1);
            let err = SiteError::new(
                ErrorCode::RateLimited,
                format!("too many {what} from your address: try again in {wait} s"),
            );
            let mut res = (StatusCode::TOO_MANY_REQUESTS, Json(err.body())).into_response();
            if let Some(h) = headers {
                res.headers_mut().extend(h);
            }
            // governor rounds the wait down: a bot honouring "0" would retry at once.
            for name in ["retry-after", "x-ratelimit-after"] {
                res.headers_mut()
                    .insert(name, axum::http::HeaderValue::from(wait));
            }
            res.extensions_mut().insert(err);
            res
        }
        other => HttpError::from(SiteError::new(
            ErrorCode::Internal,
            format!("rate limit: {other}"),
        ))
        .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_are_their_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_key(a), client_key(b));
        assert_ne!(client_key(a), client_key(c));
        let mapped: IpAddr = "::ffff:10.1.2.3".parse().unwrap();
        assert_eq!(client_key(mapped), "10.1.2.3".parse::<IpAddr>().unwrap());
    }
}
