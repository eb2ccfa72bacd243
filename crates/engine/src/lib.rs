//! The engine: search generic over [`game::Variant`], one evaluation per game, strength
//! levels and the solver. Self-play, matches and their statistics live in the `lab` crate.
//!
//! - [`choose_move`]: the move for a level or for explicit limits (what the CLI, the match
//!   runner and the site call).
//! - [`analyse`]: a search on several threads with a stop flag and a callback per
//!   iteration (analysis boards, the site's analysis).
//! - [`search::Searcher`]: iterative deepening PVS alpha-beta over a shared lockless
//!   transposition table, Lazy SMP on several threads, for callers that keep a table
//!   between moves.
//! - [`baseline`]: the frozen engine of before issue 15, the first yardstick of the lab.
//! - [`previous`]: the frozen engine of 2026-12-07 (issue 43), the second yardstick.
//! - [`solve::solve`]: an exact proof of a forced win or loss within a ply limit.
//! - [`eval`]: one evaluation per game.

pub mod baseline;
pub mod clock;
pub mod eval;
pub mod level;
pub mod nnue;
pub mod player;
pub mod previous;
pub mod score;
pub mod search;
pub mod see;
pub mod solve;
pub mod tt;

#[cfg(test)]
mod test_games;

use std::time::Duration;

use game::Variant;

pub use player::GamePlayer;
pub use search::{Iteration, Limits, SearchOptions, SearchResult, Searcher, StopFlag};

/// A game the engine can play: the rules plus what the search needs from each game (and
/// what the frozen engines need: that of before issue 15, [`baseline::BaselineVariant`], and
/// that of 2026-12-07, [`previous::PreviousVariant`]).
pub trait EngineVariant: Variant + baseline::BaselineVariant + previous::PreviousVariant {
    /// Static evaluation of a position whose game goes on, in centi-units (a man or a pawn
    /// is about 100), from the side to move's point of view.
    fn evaluate(pos: &Self::Position) -> i32;

    /// The static evaluation with the hand-set weights of before tuning (for measuring the
    /// tuning's gain: `off=tuned`). Default: [`EngineVariant::evaluate`].
    fn evaluate_hand(pos: &Self::Position) -> i32 {
        Self::evaluate(pos)
    }

    /// The static evaluation with the first tuning's weights, where a game was tuned again
    /// (for measuring the second tuning's gain: `off=tuned2`). Default:
    /// [`EngineVariant::evaluate`].
    fn evaluate_first_tuning(pos: &Self::Position) -> i32 {
        Self::evaluate(pos)
    }

    /// Number of weighted terms of the evaluation ([`EngineVariant::evaluate_weighted`]);
    /// 0 for a game whose evaluation has none.
    const TERM_COUNT: usize = 0;

    /// The term counts of this game's evaluation before terms were added to it: a
    /// `weights=` list of one of these lengths (an older command in docs/strength.md) still
    /// reads, the later terms weighing 0, which is what the evaluation of then computed.
    const EARLIER_TERM_COUNTS: &'static [usize] = &[];

    /// The static evaluation with `weights` in place of the tuned ones, one per term in the
    /// game's order (`eval::<game>::TERM_NAMES`; the caller checks the length against
    /// [`EngineVariant::TERM_COUNT`]): for measuring new weights against the kept ones
    /// (`weights=a/b/c` in a lab engine setting; the search clamps the value below
    /// [`score::WIN_BOUND`]). Default: [`EngineVariant::evaluate`].
    fn evaluate_weighted(pos: &Self::Position, weights: &[i32]) -> i32 {
        let _ = weights;
        Self::evaluate(pos)
    }

    /// Whether quiescence may stop on the static evaluation here (`moves`: the legal
    /// moves). When false every legal move is searched. Default: not while in check.
    fn may_stand_pat(pos: &Self::Position, moves: &[Self::Move]) -> bool {
        let _ = moves;
        !Self::in_check(pos)
    }

    /// Whether quiescence searches `mv` in a position where it may stand pat. Default:
    /// every [`Variant::is_tactical`] move.
    fn is_noisy(pos: &Self::Position, mv: &Self::Move) -> bool {
        Self::is_tactical(pos, mv)
    }

    /// Ordering bonus for a tactical move, 0..=100,000 (e.g. most valuable victim, least
    /// valuable attacker): higher is tried first. Default 0.
    fn order_hint(pos: &Self::Position, mv: &Self::Move) -> i32 {
        let _ = (pos, mv);
        0
    }

    /// The search techniques that gained in this game (docs/strength.md has each one's
    /// SPRT). Default: none.
    const OPTIONS: SearchOptions = SearchOptions::NONE;

    /// The position after the side to move passes, for null-move pruning; `None` where a
    /// pass would mislead the search (zugzwang-prone material, a compulsory capture, the
    /// ply that brings an Ice Age). `moves` are the legal moves of `pos`; the search never
    /// asks in check. Default: `None` (no null move).
    fn null_move(pos: &Self::Position, moves: &[Self::Move]) -> Option<Self::Position> {
        let _ = (pos, moves);
        None
    }

    /// Static exchange evaluation: true when `mv`, followed by the best series of captures
    /// on its destination square, wins at least `threshold` centi-units for the side to
    /// move. Default: `true` (the game has no exchange to judge, nothing is pruned).
    fn see_ge(pos: &Self::Position, mv: &Self::Move, threshold: i32) -> bool {
        let _ = (pos, mv, threshold);
        true
    }

    /// True when the side not to move threatens to win with its next move if the side to
    /// move let it (Antarctos: a man one turn from its goal row, A12). With the option
    /// `thr` quiescence does not stand pat in such a position, and a move that makes one is
    /// neither pruned nor reduced. Default: `false` (chess has [`Variant::in_check`]).
    fn threatened(pos: &Self::Position) -> bool {
        let _ = pos;
        false
    }

    /// True when the move to be played in `pos` changes the board beyond itself (Ice Age
    /// Chess: it brings the Ice Age, C5). The search neither prunes nor passes there, and
    /// may extend it. Default: `false`.
    fn transforms_board(pos: &Self::Position) -> bool {
        let _ = pos;
        false
    }

    /// Whether strength level 8 (the site's full strength) evaluates with the learned
    /// evaluation ([`nnue`]) by default, as if its setting had `on=nnue` (an `off=nnue`
    /// switch still turns it off; the other levels and explicit limits without a level keep
    /// the hand-written evaluation). Default: `false`.
    const NNUE_AT_LEVEL_8: bool = false;

    /// The game's learned evaluation ([`nnue`]), or `None` when it has none or its
    /// embedded weights do not read (the search then keeps the hand-written evaluation).
    /// Default: `None`.
    fn network() -> Option<&'static nnue::Network> {
        None
    }

    /// The learned evaluation of `pos` at `ply` through the search thread's accumulator
    /// stack `acc`, for `net` (from [`EngineVariant::network`]), in centi-units from the
    /// side to move's point of view. Default: [`EngineVariant::evaluate`].
    fn evaluate_nnue(
        net: &nnue::Network,
        acc: &mut nnue::Accumulators,
        ply: usize,
        pos: &Self::Position,
    ) -> i32 {
        let _ = (net, acc, ply);
        Self::evaluate(pos)
    }
}

/// Which engine a config plays (the setting `engine=current|previous|baseline`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Yardstick {
    /// Today's engine.
    #[default]
    Current,
    /// The frozen engine of 2026-12-07 ([`previous`]): search, table and hand-written
    /// evaluations of that day; threads, levels and `keep_table` as today's, no search
    /// switches, weights or learned evaluation.
    Previous,
    /// The frozen engine of before issue 15 ([`baseline`]): one thread, no search options,
    /// a fresh table every move.
    Baseline,
}

/// How to choose a move: a strength level (1-8) or explicit limits, and a seed for the
/// levels that randomise. Explicit limits (depth, nodes, movetime) override the level's.
/// With neither a level nor a limit, level 8's budget applies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineConfig {
    /// Strength level 1 (beginner) to 8 (full strength), see [`level`].
    pub level: Option<u8>,
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes searched.
    pub nodes: Option<u64>,
    /// Maximum thinking time.
    pub movetime: Option<Duration>,
    /// Seed for any randomness; same seed and limits give the same move (but under a
    /// time limit).
    pub seed: u64,
    /// Set it from another thread to stop the search; the best move so far is returned.
    pub stop: Option<StopFlag>,
    /// Search threads (Lazy SMP); 0 and 1 both mean one thread, which alone is
    /// reproducible under node and depth limits.
    pub threads: usize,
    /// Search techniques switched on (`true`) or off over the game's defaults
    /// ([`EngineVariant::OPTIONS`]), by their names in [`SearchOptions::NAMES`], in order:
    /// for measuring each technique's gain. A name that is not a switch is ignored.
    pub switches: Vec<(&'static str, bool)>,
    /// Evaluation weights in place of the game's tuned ones
    /// ([`EngineVariant::evaluate_weighted`]): [`EngineVariant::TERM_COUNT`] of them, or as
    /// many as an earlier evaluation had (the later terms then weigh 0; checked by
    /// [`EngineConfig::check_weights`]), or `None` for the tuned ones.
    pub weights: Option<std::sync::Arc<[i32]>>,
    /// Which engine plays: today's (the default) or a frozen yardstick of
    /// docs/strength.md ([`Yardstick`]).
    pub engine: Yardstick,
    /// Keep the transposition table and the (aged) history from one move of a game to the
    /// next, as engines do over a game ([`GamePlayer`]; setting `table=game`): a move then
    /// depends on the searches before it in the game as well as on its position. `false`
    /// (a fresh table per move, `table=move`) is what the site's levels 1-7 do.
    pub keep_table: bool,
}

impl EngineConfig {
    /// The settings of strength level `level` (1-8).
    pub fn level(level: u8) -> Self {
        EngineConfig {
            level: Some(level),
            ..Default::default()
        }
    }

    /// The search options this config means for game `V`: its defaults (with the learned
    /// evaluation at level 8 where the game asks for it, [`EngineVariant::NNUE_AT_LEVEL_8`])
    /// with [`EngineConfig::switches`] applied.
    pub fn options<V: EngineVariant>(&self) -> SearchOptions {
        let mut options = V::OPTIONS;
        if V::NNUE_AT_LEVEL_8 && self.level == Some(level::MAX_LEVEL) {
            options.nnue = true;
        }
        for (name, on) in &self.switches {
            options.set(name, *on);
        }
        options
    }

    /// Checks that [`EngineConfig::weights`], if any, fit game `V`'s evaluation.
    ///
    /// # Errors
    /// A message that gives both counts when the number of weights is neither
    /// [`EngineVariant::TERM_COUNT`] nor one of [`EngineVariant::EARLIER_TERM_COUNTS`].
    pub fn check_weights<V: EngineVariant>(&self) -> Result<(), String> {
        match &self.weights {
            Some(w) if w.len() != V::TERM_COUNT && !V::EARLIER_TERM_COUNTS.contains(&w.len()) => {
                Err(format!(
                    "{} weights given, the {} evaluation has {} terms",
                    w.len(),
                    V::NAME,
                    V::TERM_COUNT
                ))
            }
            _ => Ok(()),
        }
    }

    /// The search limits this config means (a level's budget unless overridden).
    pub fn limits(&self) -> Limits {
        let explicit = self.depth.is_some() || self.nodes.is_some() || self.movetime.is_some();
        let settings = level::settings(self.level.unwrap_or(level::MAX_LEVEL));
        if explicit {
            Limits {
                depth: self.depth,
                nodes: self.nodes,
                movetime: self.movetime,
                stop: self.stop.clone(),
            }
        } else {
            Limits {
                depth: None,
                nodes: Some(settings.nodes),
                movetime: Some(level::LEVEL_TIME_CAP),
                stop: self.stop.clone(),
            }
        }
    }
}

/// Analysis of `pos` for a caller that shows the search as it goes (an analysis board, the
/// site's analysis queue): `threads` search threads (Lazy SMP over one table of `tt_mib`
/// MiB; 1 to [`search::MAX_THREADS`]), the `limits` (a [`StopFlag`] in them ends or pauses
/// the search from another thread), and `on_iteration` called on the calling thread after
/// every completed iteration, deepest last. Returns the final result; `best` is `None` only
/// when the game is over.
pub fn analyse<V: EngineVariant>(
    pos: &V::Position,
    limits: &Limits,
    threads: usize,
    tt_mib: usize,
    on_iteration: impl FnMut(&Iteration<V>),
) -> SearchResult<V> {
    let table = std::sync::Arc::new(tt::Table::new(tt_mib));
    Searcher::<V>::with_table(table, threads).search(pos, limits, on_iteration)
}

/// The engine's move in `pos`, or `None` when the game is over. Always a legal move.
/// A fresh table per call: the move depends on the position and the config alone (with
/// [`EngineConfig::keep_table`] the table is still dropped after the move; a
/// [`GamePlayer`] keeps it).
pub fn choose_move<V: EngineVariant>(pos: &V::Position, config: &EngineConfig) -> Option<V::Move> {
    GamePlayer::<V>::default().choose(pos, config)
}
