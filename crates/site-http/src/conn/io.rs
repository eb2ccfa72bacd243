//! The pieces a connection's timers read: its socket, which notes when a request's first byte
//! arrives, and the response body, whose end marks the request done. Also the descriptor limit.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use http_body::{Body as HttpBody, Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

use super::registry::{ConnGuard, ConnState, Registry};

/// A client's socket, registered while it lives.
pub struct TrackedIo {
    stream: TcpStream,
    state: Arc<ConnState>,
    registry: Arc<Registry>,
    _guard: ConnGuard,
}

impl TrackedIo {
    /// Wraps `stream`, registered by `guard`.
    pub fn new(
        stream: TcpStream,
        state: Arc<ConnState>,
        registry: Arc<Registry>,
        guard: ConnGuard,
    ) -> TrackedIo {
        TrackedIo {
            stream,
            state,
            registry,
            _guard: guard,
        }
    }
}

impl AsyncRead for TrackedIo {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let res = Pin::new(&mut this.stream).poll_read(cx, buf);
        if buf.filled().len() > before
            && this.state.in_flight.load(Ordering::SeqCst) == 0
            && this.state.first_byte.load(Ordering::SeqCst) == 0
        {
            this.state
                .first_byte
                .store(this.registry.now() + 1, Ordering::SeqCst);
        }
        res
    }
}

impl AsyncWrite for TrackedIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// One request in flight on a connection, until its response body is written (or dropped).
pub struct InFlight {
    state: Arc<ConnState>,
    registry: Arc<Registry>,
}

impl InFlight {
    /// Marks a request handed to the router.
    pub fn start(state: Arc<ConnState>, registry: Arc<Registry>) -> InFlight {
        state.first_byte.store(0, Ordering::SeqCst);
        state.in_flight.fetch_add(1, Ordering::SeqCst);
        InFlight { state, registry }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.state
            .idle_since
            .store(self.registry.now(), Ordering::SeqCst);
        self.state.served.fetch_add(1, Ordering::SeqCst);
        self.state.in_flight.fetch_sub(1, Ordering::SeqCst);
        self.state.wake.notify_one();
    }
}

/// A response body that ends its request's [`InFlight`] when it is dropped.
pub struct TrackedBody {
    inner: Body,
    _in_flight: InFlight,
}

impl TrackedBody {
    /// `inner`, ending `in_flight` with it.
    pub fn new(inner: Body, in_flight: InFlight) -> TrackedBody {
        TrackedBody {
            inner,
            _in_flight: in_flight,
        }
    }
}

impl HttpBody for TrackedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Raises the soft limit on open descriptors to the hard one and returns the limit in force
/// (`None` where it cannot be read).
#[cfg(unix)]
pub fn raise_fd_limit() -> Option<u64> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    if let (Some(cur), Some(max)) = (limit.current, limit.maximum)
        && cur < max
    {
        limit.current = Some(max);
        if setrlimit(Resource::Nofile, limit).is_ok() {
            tracing::info!(from = cur, to = max, "descriptor limit raised");
        }
    }
    getrlimit(Resource::Nofile).current
}

/// Without `getrlimit`: unknown.
#[cfg(not(unix))]
pub fn raise_fd_limit() -> Option<u64> {
    None
}

/// Whether an `accept` failed for want of descriptors (EMFILE, ENFILE).
pub fn out_of_descriptors(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        let code = e.raw_os_error();
        code == Some(rustix::io::Errno::MFILE.raw_os_error())
            || code == Some(rustix::io::Errno::NFILE.raw_os_error())
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}
