//! What an engine seat keeps from one of its moves to the next: its search (table, killers,
//! history; `engine::GamePlayer` under `table=game`), as every engine keeps its hash table
//! over a game. At equal time this gained +71 Elo at 100,000 nodes a move in Antarctos
//! (docs/strength.md, "A table kept over the game"). Only seats whose config asks for it keep
//! one (level 8, `engine_player::config`), and at most [`MAX_KEPT`] in this process at once,
//! each about 12 MiB at level 8's 600,000 nodes; a seat over the bound, or of a game read
//! again from the store, searches afresh, which is still a legal, full-strength move.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use engine::{EngineConfig, EngineVariant, GamePlayer};

/// Most searchers kept at once by this process.
pub const MAX_KEPT: usize = 32;

/// Searchers kept now, by every game of this process.
static KEPT: AtomicUsize = AtomicUsize::new(0);

/// The number of searchers kept now (for tests and the operator's figures).
pub fn kept_now() -> usize {
    KEPT.load(Ordering::SeqCst)
}

/// One kept searcher; its drop frees its place under [`MAX_KEPT`].
struct Kept<V: EngineVariant> {
    player: GamePlayer<V>,
}

impl<V: EngineVariant> Kept<V> {
    /// A place under the bound, or `None` when [`MAX_KEPT`] are kept already.
    fn claim() -> Option<Self> {
        KEPT.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < MAX_KEPT).then_some(n + 1)
        })
        .ok()
        .map(|_| Kept {
            player: GamePlayer::default(),
        })
    }
}

impl<V: EngineVariant> Drop for Kept<V> {
    fn drop(&mut self) {
        KEPT.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The two seats of one game (White, Black), shared with the engine jobs that run on the
/// queue's threads.
pub struct Seats<V: EngineVariant>(Arc<Mutex<[Option<Kept<V>>; 2]>>);

impl<V: EngineVariant> Default for Seats<V> {
    fn default() -> Self {
        Seats(Arc::new(Mutex::new([None, None])))
    }
}

impl<V: EngineVariant> Clone for Seats<V> {
    fn clone(&self) -> Self {
        Seats(Arc::clone(&self.0))
    }
}

impl<V: EngineVariant> Seats<V> {
    fn lock(&self) -> std::sync::MutexGuard<'_, [Option<Kept<V>>; 2]> {
        // A job that panicked mid-search leaves a searcher that is still a valid searcher.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The engine's move in `pos` for the side to move: with `config.keep_table` through
    /// that seat's kept searcher (claimed on its first move when the bound allows), else a
    /// fresh search (`engine::choose_move`).
    pub fn choose(&self, pos: &V::Position, config: &EngineConfig) -> Option<V::Move> {
        if config.keep_table {
            let mut seats = self.lock();
            let seat = &mut seats[V::side_to_move(pos).index()];
            if seat.is_none() {
                *seat = Kept::claim();
            }
            if let Some(kept) = seat.as_mut() {
                return kept.player.choose(pos, config);
            }
        }
        let fresh = EngineConfig {
            keep_table: false,
            ..config.clone()
        };
        engine::choose_move::<V>(pos, &fresh)
    }

    /// Frees both seats' searchers (the game is over).
    pub fn release(&self) {
        *self.lock() = [None, None];
    }

    /// How many of the two seats keep a searcher.
    pub fn kept(&self) -> usize {
        self.lock().iter().flatten().count()
    }
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

    // One test, as the bound is the process's: tests run side by side would count each
    // other's searchers.
    #[test]
    fn seats_keep_a_searcher_each_within_the_bound_and_free_it() {
        let start = Antarctos::start_position();
        let seats = Seats::<Antarctos>::default();
        let before = kept_now();
        let mv = seats.choose(&start, &kept_config()).expect("a move");
        assert!(Antarctos::legal_moves(&start).contains(&mv));
        assert_eq!((seats.kept(), kept_now()), (1, before + 1));
        // The other side's first move claims the other seat.
        let next = Antarctos::play(&start, &mv).expect("legal");
        seats.choose(&next, &kept_config()).expect("a move");
        assert_eq!((seats.kept(), kept_now()), (2, before + 2));
        // A config without keep_table keeps nothing more.
        let other = Seats::<Antarctos>::default();
        let fresh = EngineConfig {
            keep_table: false,
            ..kept_config()
        };
        other.choose(&start, &fresh).expect("a move");
        assert_eq!(other.kept(), 0);
        // Past the bound a seat searches afresh and still moves.
        let many: Vec<Seats<Antarctos>> = (0..MAX_KEPT).map(|_| Seats::default()).collect();
        for s in &many {
            s.choose(&start, &kept_config()).expect("a move");
        }
        assert_eq!(kept_now(), MAX_KEPT);
        assert_eq!(
            many.iter().map(Seats::kept).sum::<usize>(),
            MAX_KEPT - before - 2
        );
        drop(many);
        assert_eq!(kept_now(), before + 2);
        // The game's end frees both.
        seats.release();
        assert_eq!((seats.kept(), kept_now()), (0, before));
    }
}
