//! Replay after a reconnect (issue 38): each game in memory keeps its last [`REPLAY_KEPT`]
//! broadcast states, so a socket that comes back saying which version it holds
//! (`?since=V`, docs/api.md) is sent every state it missed, in order, rather than one state
//! that jumps. A gap the ring does not cover gets the current state whole.

use std::collections::VecDeque;
use std::sync::Arc;

use super::{GameSlot, Snapshot};

/// States kept per game for a reconnecting socket: a page that lost its connection for a
/// moment missed one or two. Each kept state is a whole view with its legal moves and its
/// texts (2-4 KB): at 20, they were most of a live game's memory in issue 44's runs, so a
/// longer gap gets the current state whole.
pub const REPLAY_KEPT: usize = 4;

/// The last states of a game, oldest first.
#[derive(Debug, Default)]
pub struct Recent(std::sync::Mutex<VecDeque<Arc<Snapshot>>>);

/// What a socket that held version `since` is sent.
#[derive(Debug)]
pub enum Replay {
    /// The state it holds (to count the moves it has) and the states after it, in order.
    From {
        /// The state at `since`.
        held: Arc<Snapshot>,
        /// The states after it, versions growing.
        missed: Vec<Arc<Snapshot>>,
    },
    /// The ring does not reach back to `since` (or `since` is not a version of this game).
    Gap,
}

impl Recent {
    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<Arc<Snapshot>>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Keeps `snap` (a state just broadcast), dropping the oldest past [`REPLAY_KEPT`]. A
    /// state not newer than the last kept (a reload that found nothing new) replaces nothing.
    pub fn push(&self, snap: Arc<Snapshot>) {
        let mut ring = self.lock();
        if ring
            .back()
            .is_some_and(|last| last.row.version >= snap.row.version)
        {
            return;
        }
        if ring.len() == REPLAY_KEPT {
            ring.pop_front();
        }
        ring.push_back(snap);
    }

    /// The states after version `since`: [`Replay::From`] when the state at `since` is kept.
    pub fn after(&self, since: i64) -> Replay {
        let ring = self.lock();
        let Some(at) = ring.iter().position(|s| s.row.version == since) else {
            return Replay::Gap;
        };
        Replay::From {
            held: ring[at].clone(),
            missed: ring.iter().skip(at + 1).cloned().collect(),
        }
    }
}

impl GameSlot {
    /// The states after version `since` that this process broadcast ([`Recent::after`]).
    pub fn replay_after(&self, since: i64) -> Replay {
        self.recent.after(since)
    }
}
