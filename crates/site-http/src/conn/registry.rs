//! The open connections: admission against the caps (overall and per client address), the
//! state each connection's timers read, and shedding of the oldest idle connection when a cap
//! or the descriptor limit is reached (issue 9, section 4).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use crate::options::Timeouts;

/// What one connection is doing, shared by its task, its I/O and its requests.
#[derive(Debug, Default)]
pub struct ConnState {
    /// Requests whose response is not fully written yet.
    pub in_flight: AtomicUsize,
    /// Milliseconds (since the registry's start) when the connection last became idle: opened,
    /// or its last response written.
    pub idle_since: AtomicU64,
    /// Milliseconds (plus one; 0: none) of the first byte of a request not yet handed over.
    pub first_byte: AtomicU64,
    /// Requests answered.
    pub served: AtomicU64,
    /// Upgraded to a WebSocket (its own pings watch it then).
    pub upgraded: AtomicBool,
    /// Chosen to be closed.
    pub shed: AtomicBool,
    /// Wakes the connection's task to look at its state again.
    pub wake: Notify,
}

impl ConnState {
    /// When this connection is due to be closed for idleness or a slow request head, in the
    /// registry's milliseconds; `None` while a request is in flight or after an upgrade.
    pub fn deadline(&self, t: &Timeouts) -> Option<u64> {
        if self.in_flight.load(Ordering::SeqCst) > 0 || self.upgraded.load(Ordering::SeqCst) {
            return None;
        }
        let first = self.first_byte.load(Ordering::SeqCst);
        if first != 0 {
            return Some(first - 1 + millis(t.header));
        }
        let idle = self.idle_since.load(Ordering::SeqCst);
        let wait = if self.served.load(Ordering::SeqCst) == 0 {
            t.header
        } else {
            t.keep_alive
        };
        Some(idle + millis(wait))
    }

    /// Idle (no request in flight, not a WebSocket) for at least [`SHED_GRACE`] before `now`:
    /// a connection accepted a moment ago has not had the time to send its request.
    fn sheddable(&self, now: u64) -> bool {
        self.in_flight.load(Ordering::SeqCst) == 0
            && !self.upgraded.load(Ordering::SeqCst)
            && !self.shed.load(Ordering::SeqCst)
            && self.idle_since.load(Ordering::SeqCst) + millis(SHED_GRACE) <= now
    }
}

/// How long a connection must have been idle before it may be shed.
pub const SHED_GRACE: Duration = Duration::from_millis(500);

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX / 2)
}

/// Why a connection was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The overall cap, with nothing idle to close.
    Total(usize),
    /// The cap on one client address, with nothing of it idle to close.
    PerAddress(usize),
}

impl Refusal {
    /// The message of the 503.
    pub fn message(self) -> String {
        match self {
            Refusal::Total(n) => format!(
                "the server holds its maximum of {n} open connections and none is idle: try \
                 again in a few seconds"
            ),
            Refusal::PerAddress(n) => format!(
                "your address has {n} connections open already (the most one address may hold): \
                 close some and try again"
            ),
        }
    }
}

struct Entry {
    ip: IpAddr,
    state: Arc<ConnState>,
}

#[derive(Default)]
struct Inner {
    next: u64,
    conns: HashMap<u64, Entry>,
    per_ip: HashMap<IpAddr, usize>,
    /// Connections chosen to close that have not closed yet.
    shedding: usize,
}

/// The open connections of one server.
pub struct Registry {
    inner: Mutex<Inner>,
    total: usize,
    per_address: Option<usize>,
    start: Instant,
}

/// Keeps a connection registered while it lives (its I/O holds it, so an upgraded WebSocket
/// still counts).
pub struct ConnGuard {
    registry: Arc<Registry>,
    id: u64,
}

impl Drop for ConnGuard {
    fn drop(&mut self) {
        let mut inner = self.registry.lock();
        if let Some(e) = inner.conns.remove(&self.id) {
            if e.state.shed.load(Ordering::SeqCst) {
                inner.shedding = inner.shedding.saturating_sub(1);
            }
            if let Some(n) = inner.per_ip.get_mut(&e.ip) {
                *n -= 1;
                if *n == 0 {
                    inner.per_ip.remove(&e.ip);
                }
            }
        }
    }
}

impl Registry {
    /// A registry admitting `total` connections, `per_address` from one address.
    /// One address never holds more than half of `total` (a small descriptor limit would
    /// otherwise let one address fill the server with WebSockets, which are never shed).
    pub fn new(total: usize, per_address: Option<usize>) -> Arc<Registry> {
        let total = total.max(1);
        Arc::new(Registry {
            inner: Mutex::new(Inner::default()),
            total,
            per_address: per_address.map(|n| n.min(total.div_ceil(2)).max(1)),
            start: Instant::now(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // Every change is a few map operations that cannot leave the maps inconsistent.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Milliseconds since the registry started (the unit of [`ConnState`]'s times).
    pub fn now(&self) -> u64 {
        millis(self.start.elapsed())
    }

    /// The instant of registry time `ms`.
    pub fn instant(&self, ms: u64) -> Instant {
        self.start + Duration::from_millis(ms)
    }

    /// Connections open (those being shed included).
    pub fn open(&self) -> usize {
        self.lock().conns.len()
    }

    /// Registers a connection from `ip`. At a cap, the oldest idle connection (of that address,
    /// for its cap) is closed to make room; with none idle, the connection is refused.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<(ConnGuard, Arc<ConnState>), Refusal> {
        let mut inner = self.lock();
        if let Some(cap) = self.per_address
            && inner.per_ip.get(&ip).copied().unwrap_or(0) >= cap
            && !self.shed_in(&mut inner, Some(ip))
        {
            return Err(Refusal::PerAddress(cap));
        }
        if inner.conns.len() - inner.shedding >= self.total
            && !self.shed_heaviest(&mut inner, ip)
            && !self.shed_in(&mut inner, None)
        {
            return Err(Refusal::Total(self.total));
        }
        let state = Arc::new(ConnState::default());
        state.idle_since.store(self.now(), Ordering::SeqCst);
        inner.next += 1;
        let id = inner.next;
        inner.conns.insert(
            id,
            Entry {
                ip,
                state: state.clone(),
            },
        );
        *inner.per_ip.entry(ip).or_default() += 1;
        Ok((
            ConnGuard {
                registry: self.clone(),
                id,
            },
            state,
        ))
    }

    /// Closes the oldest idle connection (descriptors ran short); false when none is idle.
    /// (The registry's lock is taken once: `shed_in` gets the guarded maps.)
    pub fn shed_oldest(&self) -> bool {
        self.shed_in(&mut self.lock(), None)
    }

    /// At the overall cap, a newcomer from an address holding fewer connections than the
    /// busiest address makes room at that address's expense: its oldest connection with no
    /// request in flight is closed, even one accepted a moment ago (slow-header attackers
    /// reconnect at once, so their connections are always young). So a few addresses cannot
    /// keep everyone else out.
    fn shed_heaviest(&self, inner: &mut Inner, newcomer: IpAddr) -> bool {
        let mine = inner.per_ip.get(&newcomer).copied().unwrap_or(0);
        let Some((heaviest, most)) = inner
            .per_ip
            .iter()
            .max_by_key(|(ip, n)| (**n, **ip))
            .map(|(ip, n)| (*ip, *n))
        else {
            return false;
        };
        if most <= mine + 1 {
            return false;
        }
        let victim = inner
            .conns
            .iter()
            .filter(|(_, e)| {
                e.ip == heaviest
                    && e.state.in_flight.load(Ordering::SeqCst) == 0
                    && !e.state.upgraded.load(Ordering::SeqCst)
                    && !e.state.shed.load(Ordering::SeqCst)
            })
            .min_by_key(|(id, e)| (e.state.idle_since.load(Ordering::SeqCst), **id))
            .map(|(_, e)| e.state.clone());
        let Some(victim) = victim else {
            return false;
        };
        victim.shed.store(true, Ordering::SeqCst);
        victim.wake.notify_one();
        inner.shedding += 1;
        true
    }

    fn shed_in(&self, inner: &mut Inner, ip: Option<IpAddr>) -> bool {
        let now = self.now();
        let victim = inner
            .conns
            .iter()
            .filter(|(_, e)| ip.is_none_or(|ip| e.ip == ip) && e.state.sheddable(now))
            .min_by_key(|(id, e)| (e.state.idle_since.load(Ordering::SeqCst), **id))
            .map(|(_, e)| e.state.clone());
        let Some(victim) = victim else {
            return false;
        };
        victim.shed.store(true, Ordering::SeqCst);
        victim.wake.notify_one();
        inner.shedding += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn caps_shed_the_oldest_idle_or_refuse() {
        let r = Registry::new(3, Some(2));
        let (_a, a) = r.admit(ip("10.0.0.1")).unwrap();
        let (_b, b) = r.admit(ip("10.0.0.1")).unwrap();
        // Connections accepted a moment ago are not idle yet: the third is refused.
        assert_eq!(r.admit(ip("10.0.0.1")).err(), Some(Refusal::PerAddress(2)));
        std::thread::sleep(SHED_GRACE + Duration::from_millis(20));
        // Now the third from the same address closes its oldest idle one.
        let (_c, c) = r.admit(ip("10.0.0.1")).unwrap();
        assert!(a.shed.load(Ordering::SeqCst));
        assert!(!b.shed.load(Ordering::SeqCst));
        // Busy connections are never shed: with both busy, the address is refused.
        b.in_flight.store(1, Ordering::SeqCst);
        c.in_flight.store(1, Ordering::SeqCst);
        assert_eq!(r.admit(ip("10.0.0.1")).err(), Some(Refusal::PerAddress(2)));
        // Another address still gets in while the overall cap has room (a is on its way out).
        let (_d, d) = r.admit(ip("10.0.0.2")).unwrap();
        // Overall cap reached, with d idle for too short a time: refused.
        assert_eq!(r.admit(ip("10.0.0.3")).err(), Some(Refusal::Total(3)));
        std::thread::sleep(SHED_GRACE + Duration::from_millis(20));
        // Now d is the oldest idle one: it goes.
        let (_e, _) = r.admit(ip("10.0.0.3")).unwrap();
        assert!(d.shed.load(Ordering::SeqCst));
        assert!(!r.shed_oldest(), "nothing else is idle");
        assert_eq!(r.open(), 5);
    }

    #[test]
    fn a_light_address_gets_in_at_the_expense_of_the_busiest() {
        let r = Registry::new(4, None);
        let attacker: Vec<_> = (0..4).map(|_| r.admit(ip("10.0.0.9")).unwrap()).collect();
        // All four just accepted (within the grace): still the newcomer gets in, and the
        // attacker's oldest goes.
        let (_v, _) = r.admit(ip("10.0.0.1")).unwrap();
        assert!(attacker[0].1.shed.load(Ordering::SeqCst));
        assert!(!attacker[1].1.shed.load(Ordering::SeqCst));
        // The attacker itself cannot push others out by the same rule.
        assert_eq!(r.admit(ip("10.0.0.9")).err(), Some(Refusal::Total(4)));
    }

    #[test]
    fn one_address_holds_at_most_half() {
        let r = Registry::new(6, Some(256));
        let _held: Vec<_> = (0..3).map(|_| r.admit(ip("10.0.0.9")).unwrap()).collect();
        assert_eq!(r.admit(ip("10.0.0.9")).err(), Some(Refusal::PerAddress(3)));
        assert!(r.admit(ip("10.0.0.1")).is_ok());
    }

    #[test]
    fn deadlines() {
        let t = Timeouts {
            header: Duration::from_secs(10),
            keep_alive: Duration::from_secs(30),
            ..Timeouts::default()
        };
        let s = ConnState::default();
        s.idle_since.store(1_000, Ordering::SeqCst);
        assert_eq!(
            s.deadline(&t),
            Some(11_000),
            "a new connection must speak within 10 s"
        );
        s.first_byte.store(5_001, Ordering::SeqCst);
        assert_eq!(
            s.deadline(&t),
            Some(15_000),
            "its head must be whole 10 s after its first byte"
        );
        s.first_byte.store(0, Ordering::SeqCst);
        s.in_flight.store(1, Ordering::SeqCst);
        assert_eq!(s.deadline(&t), None);
        s.in_flight.store(0, Ordering::SeqCst);
        s.served.store(1, Ordering::SeqCst);
        assert_eq!(s.deadline(&t), Some(31_000), "kept alive 30 s");
    }
}
