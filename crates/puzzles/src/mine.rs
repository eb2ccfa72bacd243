//! Mining: every position of every game is tried as a puzzle ([`crate::check`]), the
//! duplicates dropped, each kept one tagged with its themes and where it came from, and
//! everything counted for the summary.

use std::collections::BTreeMap;
use std::time::Duration;

use engine::clock::Instant;
use engine::solve::Prover;

use crate::dedup::{PuzzleKey, Seen};
use crate::prove::{Limits, Proven, check};
use crate::themes::{Theme, Themed};

/// A game whose positions can be mined: it has themes and a puzzle identity.
pub trait Minable: Themed + PuzzleKey {
    /// The longest win searched by default, in plies: Antarctos 15, Ice Age Chess 9
    /// (issue 39).
    const MAX_PLIES: u32;
}

impl Minable for antarctos::Antarctos {
    const MAX_PLIES: u32 = 15;
}

impl Minable for iceage::IceAge {
    const MAX_PLIES: u32 = 9;
}

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
}

impl MineOptions {
    /// The game's default limit, 200 ms a position, a 16 MiB table.
    pub fn new<V: Minable>() -> MineOptions {
        MineOptions {
            max_plies: V::MAX_PLIES,
            per_position: Duration::from_millis(200),
            table_mib: 16,
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
    /// mirror) already kept, `inside_a_puzzle` for the positions of a kept puzzle's line
    /// that the game went on to play.
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
}

impl Summary {
    fn reject(&mut self, name: &'static str) {
        *self.rejected.entry(name).or_insert(0) += 1;
    }

    /// Adds another run's counts (a worker's).
    pub fn add(&mut self, other: &Summary) {
        self.games += other.games;
        self.positions += other.positions;
        self.kept += other.kept;
        self.seen_by_player += other.seen_by_player;
        self.missed_by_player += other.missed_by_player;
        self.nodes += other.nodes;
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
            options,
            seen: Seen::new(),
            summary: Summary::default(),
        }
    }

    /// Counts `pos` as already kept (a puzzle stored earlier), so it is a duplicate here.
    pub fn know(&mut self, pos: &V::Position) {
        self.seen.insert::<V>(pos);
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

    fn try_position(
        &mut self,
        game: &str,
        pos: &V::Position,
        ply: usize,
        moves: &[V::Move],
    ) -> Option<Mined<V>> {
        self.summary.positions += 1;
        if self.seen.contains::<V>(pos) {
            self.summary.reject("duplicate");
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
        self.seen.insert::<V>(pos);
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
