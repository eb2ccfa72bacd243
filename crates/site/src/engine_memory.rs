//! What an engine seat keeps from one of its moves to the next: its search (transposition
//! table and history; `engine::GamePlayer` under `table=game`), as every engine keeps its
//! hash table over a game. At equal nodes this gained about +70 Elo in both games
//! (docs/strength.md, "A table kept over the game"). Only configs that ask for it keep one
//! (level 8, `engine_player::config`).
//!
//! The kept searchers live in one pool per process, by game and colour, at most [`MAX_KEPT`]
//! (about 12 MiB each at level 8's 600,000 nodes); the least recently used one makes room for
//! a new one, so games left unfinished cost nothing for long. A search takes its searcher out
//! of the pool and puts it back when done: nothing waits on a running search, and the game's
//! end ([`release`]) frees its searchers at once. A seat without a kept searcher (the first
//! move, one pushed out, a restart) searches afresh, which is still a legal, full-strength
//! move.

use std::sync::Mutex;

use antarctos::Antarctos;
use engine::{EngineConfig, EngineVariant, GamePlayer};
use iceage::IceAge;

/// Most searchers kept at once by this process.
pub const MAX_KEPT: usize = 32;

/// One kept searcher: its game, the colour it plays (0 White, 1 Black), when it was last put
/// back (the pool's clock), and the searcher.
struct Entry {
    game: String,
    side: usize,
    used: u64,
    player: KeptPlayer,
}

/// A kept searcher of either game: the pool holds both games' searchers side by side.
pub enum KeptPlayer {
    /// An Antarctos seat's searcher.
    Antarctos(Box<GamePlayer<Antarctos>>),
    /// An Ice Age Chess seat's searcher.
    IceAge(Box<GamePlayer<IceAge>>),
}

/// A game whose searchers the pool can keep: the conversions to and from [`KeptPlayer`].
pub trait Keepable: EngineVariant {
    /// `player` as a pool entry.
    fn keep(player: GamePlayer<Self>) -> KeptPlayer;
    /// The searcher of this game in `kept`; `None` for another game's (a game id names one
    /// game, so that is a programming error and the seat then searches afresh).
    fn kept(kept: KeptPlayer) -> Option<GamePlayer<Self>>;
}

impl Keepable for Antarctos {
    fn keep(player: GamePlayer<Antarctos>) -> KeptPlayer {
        KeptPlayer::Antarctos(Box::new(player))
    }
    fn kept(kept: KeptPlayer) -> Option<GamePlayer<Antarctos>> {
        match kept {
            KeptPlayer::Antarctos(p) => Some(*p),
            KeptPlayer::IceAge(_) => None,
        }
    }
}

impl Keepable for IceAge {
    fn keep(player: GamePlayer<IceAge>) -> KeptPlayer {
        KeptPlayer::IceAge(Box::new(player))
    }
    fn kept(kept: KeptPlayer) -> Option<GamePlayer<IceAge>> {
        match kept {
            KeptPlayer::IceAge(p) => Some(*p),
            KeptPlayer::Antarctos(_) => None,
        }
    }
}

struct Pool {
    entries: Vec<Entry>,
    clock: u64,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    entries: Vec::new(),
    clock: 0,
});

fn pool() -> std::sync::MutexGuard<'static, Pool> {
    // The pool is a valid pool after any panic: each change is one call on the vector.
    POOL.lock().unwrap_or_else(|p| p.into_inner())
}

/// The searcher kept for `game`'s `side`, taken out of the pool.
fn take<V: Keepable>(game: &str, side: usize) -> Option<GamePlayer<V>> {
    let mut pool = pool();
    let i = pool
        .entries
        .iter()
        .position(|e| e.game == game && e.side == side)?;
    let entry = pool.entries.swap_remove(i);
    drop(pool);
    V::kept(entry.player)
}

/// Puts `player` back as `game`'s `side`, pushing out the least recently used searcher
/// when [`MAX_KEPT`] are kept. What is pushed out is freed after the pool's lock.
fn put<V: Keepable>(game: &str, side: usize, player: GamePlayer<V>) {
    let mut pool = pool();
    pool.clock += 1;
    let used = pool.clock;
    let mut out = Vec::new();
    while pool.entries.len() >= MAX_KEPT {
        let oldest = (0..pool.entries.len()).min_by_key(|&i| pool.entries[i].used);
        match oldest {
            Some(i) => out.push(pool.entries.swap_remove(i)),
            None => break,
        }
    }
    pool.entries.push(Entry {
        game: game.to_string(),
        side,
        used,
        player: V::keep(player),
    });
    drop(pool);
    drop(out);
}

/// The engine's move in `pos` for the side to move of game `game`: with
/// `config.keep_table` through that seat's kept searcher (a fresh one on its first move or
/// after it was pushed out), else a fresh search (`engine::choose_move`).
pub fn choose<V: Keepable>(
    game: &str,
    pos: &V::Position,
    config: &EngineConfig,
) -> Option<V::Move> {
    if !config.keep_table {
        return engine::choose_move::<V>(pos, config);
    }
    let side = V::side_to_move(pos).index();
    let mut player = take::<V>(game, side).unwrap_or_default();
    let best = player.choose(pos, config);
    put(game, side, player);
    best
}

/// Frees the searchers kept for `game` (it is over). A search of it still running puts its
/// searcher back when done; it is then the first to make room.
pub fn release(game: &str) {
    let out: Vec<Entry> = {
        let mut pool = pool();
        let (gone, kept) = std::mem::take(&mut pool.entries)
            .into_iter()
            .partition(|e| e.game == game);
        pool.entries = kept;
        gone
    };
    drop(out);
}

/// How many searchers `game` keeps now (0 to 2).
pub fn kept_for(game: &str) -> usize {
    pool().entries.iter().filter(|e| e.game == game).count()
}

/// How many searchers are kept now, by every game of this process.
pub fn kept_now() -> usize {
    pool().entries.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use antarctos::Antarctos;
    use game::Variant;

    fn kept_config() -> EngineConfig {
        EngineConfig {
            nodes: Some(2_000),
            keep_table: true,
            ..EngineConfig::default()
        }
    }

    // One test, as the pool is the process's: tests run side by side would count each
    // other's searchers.
    #[test]
    fn seats_keep_a_searcher_each_within_the_bound_and_free_it() {
        let start = Antarctos::start_position();
        let mv = choose::<Antarctos>("g1", &start, &kept_config()).expect("a move");
        assert!(Antarctos::legal_moves(&start).contains(&mv));
        assert_eq!(kept_for("g1"), 1);
        // The same seat again reuses its searcher; the other side claims the other seat.
        choose::<Antarctos>("g1", &start, &kept_config()).expect("a move");
        assert_eq!(kept_for("g1"), 1);
        let next = Antarctos::play(&start, &mv).expect("legal");
        choose::<Antarctos>("g1", &next, &kept_config()).expect("a move");
        assert_eq!(kept_for("g1"), 2);
        // A config without keep_table keeps nothing.
        let fresh = EngineConfig {
            keep_table: false,
            ..kept_config()
        };
        choose::<Antarctos>("g2", &start, &fresh).expect("a move");
        assert_eq!(kept_for("g2"), 0);
        // At the bound the least recently used make room: g1's two go first.
        for i in 0..MAX_KEPT {
            choose::<Antarctos>(&format!("other{i}"), &start, &kept_config()).expect("a move");
        }
        assert_eq!(kept_now(), MAX_KEPT);
        assert_eq!(kept_for("g1"), 0, "the oldest were not pushed out");
        assert_eq!(kept_for("other0"), 1);
        // A seat of another variant's game under the same id is not mixed up: it starts
        // afresh and replaces it.
        let chess = iceage::IceAge::start_position();
        let config = EngineConfig {
            nodes: Some(500),
            ..kept_config()
        };
        assert!(choose::<iceage::IceAge>("other0", &chess, &config).is_some());
        assert_eq!(kept_for("other0"), 1);
        // The game's end frees its searchers.
        release("other1");
        assert_eq!(kept_for("other1"), 0);
        assert_eq!(kept_now(), MAX_KEPT - 1);
        for i in 0..MAX_KEPT {
            release(&format!("other{i}"));
        }
        assert_eq!(kept_now(), 0);
    }
}
