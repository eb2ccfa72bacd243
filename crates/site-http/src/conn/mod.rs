//! Serving connections (issue 9, section 4): the accept loop and one task per connection, on
//! hyper's HTTP/1 server (axum::serve exposes no timeouts). Each connection is registered
//! (`registry`): caps overall and per client address answer 503 when nothing idle can be closed
//! instead, a silent or slow client is closed after the header timeout, an idle kept-alive one
//! after the keep-alive timeout, and when `accept` runs out of descriptors the oldest idle
//! connection is closed so that the server keeps serving.

pub mod io;
pub mod registry;

use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

use crate::options::{ConnectionLimits, Timeouts};
use crate::rate_limit::ClientAddr;
use io::{InFlight, TrackedBody, TrackedIo};
use registry::{ConnState, Refusal, Registry};

/// How the connections of a server are served.
#[derive(Debug, Clone, Copy)]
pub struct ConnSettings {
    /// Slow and idle clients.
    pub timeouts: Timeouts,
    /// Caps.
    pub limits: ConnectionLimits,
    /// The client's address comes from `X-Forwarded-For`; no per-address cap.
    pub trust_proxy: bool,
}

/// The overall cap for a descriptor limit `fd_limit` (unknown: 10,000).
pub fn total_cap(limits: &ConnectionLimits, fd_limit: Option<u64>) -> usize {
    let by_fds = fd_limit
        .map(|l| usize::try_from(l).unwrap_or(usize::MAX))
        .map(|l| l.saturating_sub(limits.reserved_fds).max(1));
    match (limits.total, by_fds) {
        (Some(t), Some(f)) => t.min(f),
        (Some(t), None) => t,
        (None, Some(f)) => f,
        (None, None) => 10_000,
    }
}

/// Serves `router` on `listener` until `shutdown` completes, then lets every connection finish
/// its request in flight and waits for them.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    settings: ConnSettings,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let fd_limit = io::raise_fd_limit();
    let total = total_cap(&settings.limits, fd_limit);
    let per_address = if settings.trust_proxy {
        None
    } else {
        settings.limits.per_address
    };
    tracing::info!(
        max_connections = total,
        per_address = ?per_address,
        descriptor_limit = ?fd_limit,
        "connection limits"
    );
    let registry = Registry::new(total, per_address);
    let (stop_tx, stop_rx) = watch::channel(false);
    // Every connection task holds a receiver: the sender's `closed` is all of them done.
    let (done_tx, done_rx) = watch::channel(());
    tokio::pin!(shutdown);
    let mut exhausted_logged = false;
    loop {
        tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    exhausted_logged = false;
                    tune(&stream);
                    match registry.admit(peer.ip()) {
                        Ok((guard, state)) => {
                            let io = TrackedIo::new(stream, state.clone(), registry.clone(), guard);
                            tokio::spawn(connection(
                                io,
                                peer,
                                state,
                                registry.clone(),
                                router.clone(),
                                settings,
                                stop_rx.clone(),
                                done_rx.clone(),
                            ));
                        }
                        Err(refusal) => {
                            tracing::warn!(client = %peer.ip(), "{}", refusal.message());
                            tokio::spawn(refuse(stream, refusal));
                        }
                    }
                }
                Err(e) if io::out_of_descriptors(&e) => {
                    let shed = registry.shed_oldest();
                    if !exhausted_logged {
                        tracing::warn!(
                            open = registry.open(),
                            shed,
                            "out of file descriptors: closing the oldest idle connection"
                        );
                        exhausted_logged = true;
                    }
                    // Let the closed connection's task run before accepting again.
                    tokio::time::sleep(Duration::from_millis(if shed { 1 } else { 50 })).await;
                }
                Err(e) => {
                    tracing::debug!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            }
        }
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(done_rx);
    done_tx.closed().await;
}

/// The client address a request is counted under.
fn client_addr(peer: SocketAddr, req: &Request<Incoming>, trust_proxy: bool) -> IpAddr {
    if trust_proxy {
        // The last hop is the one the trusted proxy added: the address it saw. Only that one
        // counts: an earlier entry is whatever the client wrote. One that cannot be read
        // counts as the proxy's own address, never as an earlier entry.
        let last = req
            .headers()
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .next_back();
        if let Some(last) = last {
            return forwarded_ip(last).unwrap_or(peer.ip());
        }
    }
    peer.ip()
}

/// An `X-Forwarded-For` entry's address: `203.0.113.7`, `2001:db8::7`, with a port
/// (`203.0.113.7:4431`, `[2001:db8::7]:443`) or in brackets.
fn forwarded_ip(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .or_else(|| {
            entry
                .strip_prefix('[')
                .and_then(|e| e.strip_suffix(']'))
                .and_then(|e| e.parse().ok())
        })
}

#[allow(clippy::too_many_arguments)]
async fn connection(
    io: TrackedIo,
    peer: SocketAddr,
    state: Arc<ConnState>,
    registry: Arc<Registry>,
    router: Router,
    settings: ConnSettings,
    mut stop: watch::Receiver<bool>,
    _done: watch::Receiver<()>,
) {
    let t = settings.timeouts;
    let service = {
        let state = state.clone();
        let registry = registry.clone();
        hyper::service::service_fn(move |mut req: Request<Incoming>| {
            let in_flight = InFlight::start(state.clone(), registry.clone());
            let ip = client_addr(peer, &req, settings.trust_proxy);
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(ClientAddr(ip));
            let router = router.clone();
            let state = state.clone();
            async move {
                let res = router
                    .oneshot(req.map(Body::new))
                    .await
                    .unwrap_or_else(|e: Infallible| match e {});
                if res.status() == StatusCode::SWITCHING_PROTOCOLS {
                    state.upgraded.store(true, Ordering::SeqCst);
                }
                Ok::<_, Infallible>(res.map(|b| TrackedBody::new(b, in_flight)))
            }
        })
    };
    let mut builder = hyper::server::conn::http1::Builder::new();
    // hyper's own head timer starts whenever it waits for a head, idle or not: a backstop
    // behind the timers below, which tell a silent client from an idle kept-alive one.
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(t.header.max(t.keep_alive) + t.header)
        .keep_alive(true);
    let conn = builder
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades();
    tokio::pin!(conn);
    let mut stopping = false;
    loop {
        let deadline = state.deadline(&t);
        let sleep = async {
            match deadline {
                Some(ms) => tokio::time::sleep_until(registry.instant(ms).into()).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            res = conn.as_mut() => {
                if let Err(e) = res {
                    tracing::debug!(client = %peer, error = %e, "connection ended");
                }
                return;
            }
            _ = state.wake.notified() => {
                if state.shed.load(Ordering::SeqCst) {
                    tracing::debug!(client = %peer, "idle connection shed");
                    return;
                }
            }
            _ = sleep => {
                if state.deadline(&t).is_some_and(|d| registry.now() >= d) {
                    tracing::debug!(client = %peer, "connection timed out");
                    return;
                }
            }
            changed = stop.changed(), if !stopping => {
                stopping = true;
                if changed.is_ok() {
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

/// Answers a refused connection with a 503 and closes it.
async fn refuse(mut stream: TcpStream, refusal: Refusal) {
    let body =
        site_model::error::SiteError::new(site_model::error::ErrorCode::TooMany, refusal.message())
            .body()
            .to_string();
    let head = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 5\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let answer = async {
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body.as_bytes()).await?;
        stream.shutdown().await?;
        // Read what the client sent, so that closing does not reset the connection before it
        // reads the answer.
        let mut sink = [0u8; 1024];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<_, std::io::Error>(())
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), answer).await;
}

/// How long data sent on a connection may go unacknowledged before the kernel ends it
/// (`TCP_USER_TIMEOUT`, RFC 5482). A peer gone from the network (a dropped link, a laptop shut)
/// sends no FIN and no ACK: Linux's default gives it up only after about 15 minutes of
/// retransmissions, and meanwhile its notification stream kept the player "online" (hostile
/// finding 3 of round 4). The streams' keep-alives (every 15 s) and the sockets' pings (20 s)
/// put data in flight, so such a connection ends within about two minutes. Not shorter: the
/// retransmissions back off (none between about 25 s and 45 s), so at 45 s a live client's
/// 30 s outage ended its stream without a word to it (hostile finding 4 of round 5). Behind
/// `--trust-proxy` it bounds the proxy's connections only.
pub const TCP_USER_TIMEOUT: Duration = Duration::from_secs(90);

/// An accepted connection's socket options: no Nagle delay, and [`TCP_USER_TIMEOUT`] where the
/// system has it (Linux). A failure leaves the default (the connection is served as before).
fn tune(stream: &TcpStream) {
    let _ = stream.set_nodelay(true);
    #[cfg(any(target_os = "linux", target_os = "android"))]
    let _ = socket2::SockRef::from(stream).set_tcp_user_timeout(Some(TCP_USER_TIMEOUT));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwarded_entries_with_ports_or_brackets_are_read() {
        let ip = |s: &str| s.parse::<IpAddr>().ok();
        assert_eq!(forwarded_ip(" 203.0.113.7"), ip("203.0.113.7"));
        assert_eq!(forwarded_ip("203.0.113.7:4431"), ip("203.0.113.7"));
        assert_eq!(forwarded_ip("[2001:db8::7]:443"), ip("2001:db8::7"));
        assert_eq!(forwarded_ip("[2001:db8::7]"), ip("2001:db8::7"));
        assert_eq!(forwarded_ip("2001:db8::7"), ip("2001:db8::7"));
        assert_eq!(forwarded_ip("unknown"), None);
    }

    /// An accepted connection carries the user timeout: the kernel reads it back.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[tokio::test]
    async fn an_accepted_connection_gives_up_on_a_silent_peer() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let _client = TcpStream::connect(addr).await.expect("connect");
        let (accepted, _) = listener.accept().await.expect("accept");
        let before = socket2::SockRef::from(&accepted)
            .tcp_user_timeout()
            .expect("read");
        assert_ne!(before, Some(TCP_USER_TIMEOUT), "not the default already");
        tune(&accepted);
        let sock = socket2::SockRef::from(&accepted);
        assert_eq!(
            sock.tcp_user_timeout().expect("read"),
            Some(TCP_USER_TIMEOUT)
        );
        assert!(accepted.nodelay().expect("read"));
    }
}
