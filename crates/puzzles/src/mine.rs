//! Mining: every position of every game is tried as a puzzle ([`crate::check`]), the
//! duplicates dropped, each kept one tagged with its themes and where it came from, and
//! everything counted for the summary.

use std::collections::BTreeMap;
use std::time::Duration;

use engine::clock::Instant;
use engine::solve::Prover;
use engine::{EngineVariant, Searcher, score};

use crate::dedup::{PuzzleKey, Seen};
use crate::prove::{Limits, Proven, check};
use crate::themes::{Theme, Themed};

/// A game whose positions can be mined: it has themes, a puzzle identity and the engine's
/// search (for the prefilter, [`MineOptions::prefilter_nodes`]).
pub trait Minable: Themed + PuzzleKey + EngineVariant {
    /// The longest win searched by default, in plies: Antarctos 15, Ice Age Chess 9
    /// (issue 39).
    const MAX_PLIES: u32;
    /// The prefilter's default node budget ([`MineOptions::prefilter_nodes`]); 0: no
    /// prefilter. Chosen by measuring (testdata/puzzles/README.md).
    const PREFILTER_NODES: u64;
}

impl Minable for antarctos::Antarctos {
    const MAX_PLIES: u32 = 15;
    const PREFILTER_NODES: u64 = 20_000;
}

impl Minable for iceage::IceAge {
    const MAX_PLIES: u32 = 9;
    const PREFILTER_NODES: u64 = 5_000;
}

/// The name of the prefilter's reject in [`Summary::rejected`]: the engine's quick search
/// saw no win within the limit. Not a proof (the search prunes): such a position may hold
/// a win the quick search missed, which is why it is counted apart from `no_forced_win`.
pub const NO_WIN_SEEN: &str = "no_win_seen";

/// How a mining run proves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MineOptions {
    /// The longest win searched, in plies.
    pub max_plies: u32,
    /// The time one position's proof may take; a position that needs more is rejected
    /// [`crate::Reject::OutOfTime`].
    pub per_position: Duration,
    /// The solver's table, in MiB.
    pub table_mib: usize,
    /// The prefilter: before the proof, the engine's search ([`engine::Searcher`], one
    /// thread, at most `max_plies + 4` plies deep) runs on at most this many nodes, and a
    /// position where it sees no win for the side to move within `max_plies` plies is
    /// rejected as [`NO_WIN_SEEN`] without a proof. 0: no prefilter, every position is
    /// proven. The proof decides alone what is kept: the prefilter only rejects.
    pub prefilter_nodes: u64,
}

impl MineOptions {
    /// The game's default limit and prefilter, 200 ms a position, a 16 MiB table.
    pub fn new<V: Minable>() -> MineOptions {
        MineOptions {
            max_plies: V::MAX_PLIES,
            per_position: Duration::from_millis(200),
            table_mib: 16,
            prefilter_nodes: V::PREFILTER_NODES,
        }
    }
}

/// Where a mined puzzle comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The game: a file and its game number (`games.pdn#12`), `selfplay:<seed>:<index>`,
    /// or a site game id.
    pub game: String,
    /// Plies played in the game before the puzzle's position (0: its start).
    pub ply: u32,
    /// Whether the game's player then played the puzzle's first move (saw it); `None`
    /// when the game ends there.
    pub played: Option<bool>,
}

/// A puzzle found by mining.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mined<V: Minable> {
    /// The position; its side to move is the solver's side.
    pub start: V::Position,
    /// The proof and its line.
    pub proven: Proven<V>,
    /// Themes read off the line.
    pub themes: Vec<Theme>,
    /// The game it came from.
    pub origin: Origin,
}

/// What a mining run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games read.
    pub games: u64,
    /// Positions tried.
    pub positions: u64,
    /// Puzzles kept.
    pub kept: u64,
    /// Positions rejected, by [`crate::Reject::name`]; `duplicate` for a position (or a
    /// mirror) already kept, `overlaps_a_puzzle` for one met inside a kept puzzle's line or
    /// whose line meets a kept puzzle ([`crate::Clash`]), `inside_a_puzzle` for the
    /// positions of a kept puzzle's line that the game went on to play, `beyond_limit` for
    /// puzzles found past the run's limit.
    pub rejected: BTreeMap<&'static str, u64>,
    /// Kept puzzles by theme.
    pub themes: BTreeMap<Theme, u64>,
    /// Kept puzzles by length in moves of the winning side.
    pub lengths: BTreeMap<u32, u64>,
    /// Kept puzzles whose game's player played the first move.
    pub seen_by_player: u64,
    /// Kept puzzles whose game's player played another move.
    pub missed_by_player: u64,
    /// Positions the solver visited.
    pub nodes: u64,
    /// Positions the prefilter's search visited.
    pub prefilter_nodes: u64,
}

impl Summary {
    fn reject(&mut self, name: &'static str) {
        *self.rejected.entry(name).or_insert(0) += 1;
    }

    /// Takes back the counts of a kept puzzle that is not written after all (a clash
    /// between two workers' puzzles, or one beyond the run's limit), rejected as `why`.
    pub fn unkeep<V: Minable>(&mut self, m: &Mined<V>, why: &'static str) {
        fn down<K: Ord>(map: &mut BTreeMap<K, u64>, k: K) {
            if let Some(n) = map.get_mut(&k) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&k);
                }
            }
        }
        self.kept -= 1;
        self.reject(why);
        match m.origin.played {
            Some(true) => self.seen_by_player -= 1,
            Some(false) => self.missed_by_player -= 1,
            None => {}
        }
        down(&mut self.lengths, m.proven.moves());
        for t in &m.themes {
            down(&mut self.themes, *t);
        }
    }

    /// Adds another run's counts (a worker's).
    pub fn add(&mut self, other: &Summary) {
        self.games += other.games;
        self.positions += other.positions;
        self.kept += other.kept;
        self.seen_by_player += other.seen_by_player;
        self.missed_by_player += other.missed_by_player;
        self.nodes += other.nodes;
        self.prefilter_nodes += other.prefilter_nodes;
        for (k, v) in &other.rejected {
            *self.rejected.entry(k).or_insert(0) += v;
        }
        for (k, v) in &other.themes {
            *self.themes.entry(*k).or_insert(0) += v;
        }
        for (k, v) in &other.lengths {
            *self.lengths.entry(*k).or_insert(0) += v;
        }
    }
}

/// Mines games one after another, keeping one puzzle per position across all of them.
pub struct Miner<V: Minable> {
    prover: Prover<V>,
    /// The prefilter's search (when [`MineOptions::prefilter_nodes`] is not 0).
    searcher: Option<Searcher<V>>,
    options: MineOptions,
    seen: Seen,
    /// The counts so far.
    pub summary: Summary,
}

impl<V: Minable> Miner<V> {
    /// A miner that has seen nothing.
    pub fn new(options: MineOptions) -> Miner<V> {
        Miner {
            prover: Prover::new(options.table_mib),
            searcher: (options.prefilter_nodes > 0).then(|| Searcher::new(4)),
            options,
            seen: Seen::new(),
            summary: Summary::default(),
        }
    }

    /// Counts the puzzle `pos` with its `line` as already kept (a puzzle stored earlier), so
    /// it is a duplicate here and its line's positions overlap it. False when it clashes
    /// with one known already.
    pub fn know(&mut self, pos: &V::Position, line: &[V::Move]) -> bool {
        self.seen.admit::<V>(pos, line).is_ok()
    }

    /// Tries every position of the game `moves` from `start` (legal moves, in order), named
    /// `game` in the puzzles' origin. After a kept puzzle whose first move the game played,
    /// the positions of its line that the game went on to play are not tried again.
    pub fn mine_game(
        &mut self,
        game: &str,
        start: &V::Position,
        moves: &[V::Move],
    ) -> Vec<Mined<V>> {
        self.summary.games += 1;
        let mut found = Vec::new();
        let mut pos = start.clone();
        let mut skip_until = 0;
        for ply in 0..=moves.len() {
            if ply >= skip_until {
                if let Some(mined) = self.try_position(game, &pos, ply, moves) {
                    if mined.origin.played == Some(true) {
                        let line = &mined.proven.line;
                        let followed = line
                            .iter()
                            .zip(&moves[ply..])
                            .take_while(|(a, b)| a == b)
                            .count();
                        skip_until = ply + followed.max(1);
                    }
                    found.push(mined);
                }
            } else {
                self.summary.positions += 1;
                self.summary.reject("inside_a_puzzle");
            }
            let Some(mv) = moves.get(ply) else { break };
            pos = V::play_unchecked(&pos, mv);
        }
        found
    }

    /// The prefilter ([`MineOptions::prefilter_nodes`]): whether the engine's quick search
    /// sees a win for the side to move within `max_plies` plies (true when there is no
    /// prefilter, or the game is over: the proof says why then).
    fn win_seen(&mut self, pos: &V::Position) -> bool {
        let Some(searcher) = self.searcher.as_mut() else {
            return true;
        };
        if V::outcome(pos).is_some() || V::legal_moves(pos).is_empty() {
            return true;
        }
        let max = self.options.max_plies;
        let limits = engine::Limits {
            depth: Some(max + 4),
            nodes: Some(self.options.prefilter_nodes),
            movetime: None,
            stop: None,
        };
        let wins = |s: i32| s >= score::WIN_BOUND && (score::WIN - s) as u32 <= max;
        let mut seen = false;
        let result = searcher.search(pos, &limits, |it| seen |= wins(it.score));
        self.summary.prefilter_nodes += result.nodes;
        seen || wins(result.score)
    }

    fn try_position(
        &mut self,
        game: &str,
        pos: &V::Position,
        ply: usize,
        moves: &[V::Move],
    ) -> Option<Mined<V>> {
        self.summary.positions += 1;
        if let Some(clash) = self.seen.clash::<V>(pos) {
            self.summary.reject(clash.name());
            return None;
        }
        if !self.win_seen(pos) {
            self.summary.reject(NO_WIN_SEEN);
            return None;
        }
        let limits = Limits {
            max_plies: self.options.max_plies,
            deadline: Some(Instant::now() + self.options.per_position),
        };
        let nodes = self.prover.nodes();
        let result = check(&mut self.prover, pos, &limits);
        self.summary.nodes += self.prover.nodes() - nodes;
        let proven = match result {
            Ok(p) => p,
            Err(reject) => {
                self.summary.reject(reject.name());
                return None;
            }
        };
        if let Err(clash) = self.seen.admit::<V>(pos, &proven.line) {
            self.summary.reject(clash.name());
            return None;
        }
        let themes = V::themes(pos, &proven.line);
        let played = moves.get(ply).map(|mv| *mv == proven.line[0]);
        let s = &mut self.summary;
        s.kept += 1;
        match played {
            Some(true) => s.seen_by_player += 1,
            Some(false) => s.missed_by_player += 1,
            None => {}
        }
        *s.lengths.entry(proven.moves()).or_insert(0) += 1;
        for t in &themes {
            *s.themes.entry(*t).or_insert(0) += 1;
        }
        Some(Mined {
            start: pos.clone(),
            proven,
            themes,
            origin: Origin {
                game: game.to_string(),
                ply: ply as u32,
                played,
            },
        })
    }
}
