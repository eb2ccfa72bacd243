//! Loopback ports for servers started by the tests.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// A loopback port free at the time of the call (the OS's pick; another process may take it
/// before the test binds it, which is rare enough for tests).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// [`free_port`] as an address on 127.0.0.1.
pub fn free_addr() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], free_port()))
}

/// Whether something accepts TCP connections on `addr`.
pub fn listens(addr: SocketAddr) -> bool {
    TcpStream::connect_timeout(&addr, Duration::from_millis(500)).is_ok()
}

/// Waits until `addr` accepts connections, or panics after `limit` naming `what`.
pub fn wait_for_port(addr: SocketAddr, limit: Duration, what: &str) {
    let end = Instant::now() + limit;
    while !listens(addr) {
        assert!(
            Instant::now() < end,
            "{what} did not listen on {addr} within {limit:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
