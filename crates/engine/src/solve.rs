//! The solver: an exact proof of a forced win or loss within a ply limit.
//!
//! Method: iterative deepening on plies over a depth-first negamax alpha-beta in which the
//! only scores are exact game ends (win or loss with its distance, draw 0) and 0 for a
//! position still open at the horizon. No evaluation, no pruning beyond alpha-beta and
//! mate-distance bounds, so a win found at depth `d` is a proof that the side to move wins
//! in at most `d` plies against every defence, and a loss that every move loses within `d`.
//! The first depth that proves a result gives the shortest win (or longest defence). The
//! solver has its own transposition table ([`crate::tt`], 16 MiB), whose entries are used
//! only at a remaining depth they cover.
//!
//! Threads ([`solve_threads`]): Lazy SMP, as in the search. Helper threads run the same
//! iterative deepening with the moves of every node in another order, sharing only the
//! table; an entry means the same (a proven result, or none within its depth) whichever
//! thread stored it, so the proof stays exact and the main thread's result is returned.

use std::sync::atomic::{AtomicBool, Ordering};

use game::{Color, Variant};

use crate::clock::Instant;
use crate::score::{self, INFINITY};
use crate::search::{StopFlag, terminal_score};
use crate::tt::{Bound, Table, move_hash};

/// What the solver proved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proof<V: Variant> {
    /// The side to move wins in `plies` plies; `line` is a main line (the winner's
    /// fastest win against the longest defence).
    Win { plies: u32, line: Vec<V::Move> },
    /// The side to move loses in `plies` plies whatever it does; `line` as above.
    Loss { plies: u32, line: Vec<V::Move> },
    /// Neither side forces a result within `max_plies` plies (the game may also be over
    /// as a draw).
    Unknown { max_plies: u32 },
}

/// A proof and the work it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution<V: Variant> {
    /// The result.
    pub proof: Proof<V>,
    /// Positions visited.
    pub nodes: u64,
    /// The deadline of [`solve_until`] ended the search before `max_plies`; an `Unknown`
    /// proof then covers only the plies searched in full.
    pub stopped: bool,
}

struct Solver<'a, V: Variant> {
    tt: &'a Table,
    /// Set by the main thread when it is done: the helpers stop.
    done: &'a AtomicBool,
    /// 0 for the main thread; a helper's id rotates its move order.
    id: usize,
    nodes: u64,
    moves: Vec<Vec<V::Move>>,
    deadline: Option<Instant>,
    /// Asked with the deadline ([`solve_stoppable`]).
    stop: Option<StopFlag>,
    stopped: bool,
}

/// Proves a forced result from `pos` within `max_plies` plies (see the module doc).
pub fn solve<V: Variant>(pos: &V::Position, max_plies: u32) -> Solution<V> {
    solve_until::<V>(pos, max_plies, None)
}

/// [`solve`] that gives up at `deadline`: the iteration then running is dropped, and the
/// result is `Unknown` with `max_plies` the deepest iteration searched in full (0 when
/// none) and `stopped` set. A result proven before the deadline is the same as [`solve`]'s.
pub fn solve_until<V: Variant>(
    pos: &V::Position,
    max_plies: u32,
    deadline: Option<Instant>,
) -> Solution<V> {
    solve_threads::<V>(pos, max_plies, deadline, 1)
}

/// [`solve_until`] that also ends when `stop` is stopped (checked with the deadline, every
/// 4,096 nodes; [`StopFlag::polling`] lets a host without threads stop it), with the same
/// `Unknown` result and `stopped` set. One thread.
pub fn solve_stoppable<V: Variant>(
    pos: &V::Position,
    max_plies: u32,
    deadline: Option<Instant>,
    stop: Option<StopFlag>,
) -> Solution<V> {
    let max_plies = max_plies.min(crate::search::MAX_PLY - 2);
    let table = Table::new(16);
    let done = AtomicBool::new(false);
    Solver::<V> {
        tt: &table,
        done: &done,
        id: 0,
        nodes: 0,
        moves: (0..=max_plies as usize + 1).map(|_| Vec::new()).collect(),
        deadline,
        stop,
        stopped: false,
    }
    .run(pos, max_plies)
}

/// [`solve_until`] on `threads` threads (1 to [`crate::search::MAX_THREADS`]). The proof
/// is the same as with one thread; more threads find it sooner.
pub fn solve_threads<V: Variant>(
    pos: &V::Position,
    max_plies: u32,
    deadline: Option<Instant>,
    threads: usize,
) -> Solution<V> {
    let max_plies = max_plies.min(crate::search::MAX_PLY - 2);
    let table = Table::new(16);
    let done = AtomicBool::new(false);
    let threads = threads.clamp(1, crate::search::MAX_THREADS);
    let solver = |id: usize| Solver::<V> {
        tt: &table,
        done: &done,
        id,
        nodes: 0,
        moves: (0..=max_plies as usize + 1).map(|_| Vec::new()).collect(),
        deadline,
        stop: None,
        stopped: false,
    };
    if threads == 1 {
        return solver(0).run(pos, max_plies);
    }
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map(|id| {
                let mut s = solver(id);
                scope.spawn(move || {
                    s.run(pos, max_plies);
                    s.nodes
                })
            })
            .collect();
        let mut main = solver(0).run(pos, max_plies);
        done.store(true, Ordering::Relaxed);
        for h in helpers {
            main.nodes += h.join().unwrap_or(0);
        }
        main
    })
}

/// A one-thread solver that keeps its transposition table from one proof to the next, for
/// many proofs about related positions (a puzzle's line and every alternative on it, crate
/// `puzzles`). Sound because an entry holds a proven bound for the remaining depth it was
/// searched to, whichever proof stored it; a proof is the same as [`solve_until`]'s.
pub struct Prover<V: Variant> {
    table: Table,
    nodes: u64,
    moves: Vec<Vec<V::Move>>,
}

impl<V: Variant> Prover<V> {
    /// A prover with a table of `mib` MiB (at least 1).
    pub fn new(mib: usize) -> Prover<V> {
        Prover {
            table: Table::new(mib.max(1)),
            nodes: 0,
            moves: Vec::new(),
        }
    }

    /// [`solve_until`] on this prover's table.
    pub fn solve(
        &mut self,
        pos: &V::Position,
        max_plies: u32,
        deadline: Option<Instant>,
    ) -> Solution<V> {
        let max_plies = max_plies.min(crate::search::MAX_PLY - 2);
        let done = AtomicBool::new(false);
        let mut moves = std::mem::take(&mut self.moves);
        moves.resize_with(max_plies as usize + 2, Vec::new);
        let mut solver = Solver::<V> {
            tt: &self.table,
            done: &done,
            id: 0,
            nodes: 0,
            moves,
            deadline,
            stop: None,
            stopped: false,
        };
        let solution = solver.run(pos, max_plies);
        self.nodes += solver.nodes;
        self.moves = solver.moves;
        solution
    }

    /// Positions visited by every proof so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets every entry (a new, unrelated position).
    pub fn clear(&mut self) {
        self.table.clear();
    }
}

impl<V: Variant> Solver<'_, V> {
    /// Iterative deepening to `max_plies`.
    fn run(&mut self, pos: &V::Position, max_plies: u32) -> Solution<V> {
        let s = self;
        if V::legal_moves(pos).is_empty() {
            return Solution {
                proof: Proof::Unknown { max_plies },
                nodes: 0,
                stopped: false,
            };
        }
        for depth in 1..=max_plies {
            let v = s.search(pos, depth, -INFINITY, INFINITY, 0);
            if s.stopped {
                return Solution {
                    proof: Proof::Unknown {
                        max_plies: depth - 1,
                    },
                    nodes: s.nodes,
                    stopped: true,
                };
            }
            if score::is_decisive(v) {
                // The proof is complete; its main line is read off the table without a deadline.
                s.deadline = None;
                s.stop = None;
                let plies = (score::WIN - v.abs()) as u32;
                let line = s.main_line(pos, v);
                let proof = if v > 0 {
                    Proof::Win { plies, line }
                } else {
                    Proof::Loss { plies, line }
                };
                return Solution {
                    proof,
                    nodes: s.nodes,
                    stopped: false,
                };
            }
        }
        Solution {
            proof: Proof::Unknown { max_plies },
            nodes: s.nodes,
            stopped: false,
        }
    }

    fn search(
        &mut self,
        pos: &V::Position,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: u32,
    ) -> i32 {
        self.nodes += 1;
        if self.stopped
            || (self.nodes.is_multiple_of(4096)
                && (self.deadline.is_some_and(|d| Instant::now() >= d)
                    || self.stop.as_ref().is_some_and(StopFlag::checkpoint)
                    || (self.id > 0 && self.done.load(Ordering::Relaxed))))
        {
            self.stopped = true;
            return 0;
        }
        let p = ply as usize;
        let mut moves = std::mem::take(&mut self.moves[p]);
        V::legal_moves_into(pos, &mut moves);
        if moves.is_empty() {
            self.moves[p] = moves;
            return terminal_score::<V>(pos, ply);
        }
        if depth == 0 {
            self.moves[p] = moves;
            return 0;
        }
        alpha = alpha.max(score::loss_in(ply));
        beta = beta.min(score::win_in(ply + 1));
        if alpha >= beta {
            self.moves[p] = moves;
            return alpha;
        }
        let key = V::zobrist(pos);
        let mut tt_mv = 0;
        if let Some(e) = self.tt.probe(key) {
            tt_mv = e.mv;
            if e.depth as u32 >= depth {
                let s = score::from_table(within(e.score, depth), ply);
                if e.bound.cuts(s, alpha, beta) {
                    self.moves[p] = moves;
                    return s;
                }
            }
        }
        // Table move first, then tactical moves: cutoffs come sooner, the proof is the same.
        moves.sort_by_key(|m| {
            if tt_mv != 0 && move_hash(m) == tt_mv {
                0
            } else if V::is_tactical(pos, m) {
                1
            } else {
                2
            }
        });
        if self.id > 0 && moves.len() > 1 {
            // A helper tries the moves in another order, to prove other subtrees first.
            let k = (self.id + p) % moves.len();
            moves.rotate_left(k);
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_hash = 0;
        for mv in &moves {
            let child = V::play_unchecked(pos, mv);
            let v = -self.search(&child, depth - 1, -beta, -alpha, ply + 1);
            if self.stopped {
                // An unfinished value: neither a result nor worth a table entry.
                self.moves[p] = moves;
                return 0;
            }
            if v > best {
                best = v;
                best_hash = move_hash(mv);
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.tt.store(
            key,
            best_hash,
            score::to_table(best, ply),
            depth as i32,
            bound,
        );
        self.moves[p] = moves;
        best
    }

    /// The main line of a proven root value `v`: at each step the winner plays a move that
    /// keeps the shortest win, the loser one that keeps the longest defence (the first such
    /// move in generation order).
    fn main_line(&mut self, root: &V::Position, v: i32) -> Vec<V::Move> {
        let mut line = Vec::new();
        let mut pos = root.clone();
        let mut remaining = (score::WIN - v.abs()) as u32;
        let mut winning = v > 0;
        while remaining > 0 {
            let want = if winning {
                score::loss_in(remaining - 1)
            } else {
                score::win_in(remaining - 1)
            };
            let mut next = None;
            for mv in V::legal_moves(&pos) {
                let child = V::play_unchecked(&pos, &mv);
                let cv = self.search(&child, remaining - 1, -INFINITY, INFINITY, 0);
                if cv == want {
                    next = Some((mv, child));
                    break;
                }
            }
            let Some((mv, child)) = next else {
                break;
            };
            line.push(mv);
            pos = child;
            remaining -= 1;
            winning = !winning;
        }
        line
    }
}

/// A table score (relative to its node) as the value within `depth` plies. An entry searched
/// deeper holds a bound on the value within its own depth; a result more than `depth` plies
/// away is no result within `depth` (0), and a nearer one is the same at any depth. That map
/// keeps the order of scores, so bounds stay bounds, and every value is exact for the depth
/// searched: the first depth that proves a result gives its true distance, also when the
/// table is shared between proofs ([`Prover`]) or a position is reached at several depths.
fn within(table_score: i32, depth: u32) -> i32 {
    if score::is_decisive(table_score) && (score::WIN - table_score.abs()) as u32 > depth {
        score::DRAW
    } else {
        table_score
    }
}

/// A line in the game's notation with move numbers: `1... c7-b6 2. a5xc7 a7xc5xe3xc1#`.
/// A move that wins the game gets a `#` if its text has none (not a move that loses it: an
/// Ice Age Chess move whose Ice Age freezes its own king, C13).
pub fn line_text<V: Variant>(start: &V::Position, line: &[V::Move]) -> String {
    let mut out = Vec::new();
    let mut pos = start.clone();
    for (i, mv) in line.iter().enumerate() {
        let side = V::side_to_move(&pos);
        let number = V::fullmove_number(&pos);
        let mut text = V::move_text(&pos, mv);
        let Ok(next) = V::play(&pos, mv) else {
            out.push(format!("{text}?"));
            break;
        };
        if let Some(outcome) = V::outcome(&next)
            && outcome.winner() == Some(side)
            && !text.ends_with('#')
        {
            text.push('#');
        }
        match side {
            Color::White => out.push(format!("{number}. {text}")),
            Color::Black if i == 0 => out.push(format!("{number}... {text}")),
            Color::Black => out.push(text),
        }
        pos = next;
    }
    out.join(" ")
}

/// The solver's result as the CLI prints it: `win in <n> plies: <line>`,
/// `loss in <n> plies: <line>` or `no forced result within <P> plies`.
pub fn proof_text<V: Variant>(start: &V::Position, proof: &Proof<V>) -> String {
    match proof {
        Proof::Win { plies, line } => {
            format!("win in {plies} plies: {}", line_text::<V>(start, line))
        }
        Proof::Loss { plies, line } => {
            format!("loss in {plies} plies: {}", line_text::<V>(start, line))
        }
        Proof::Unknown { max_plies } => format!("no forced result within {max_plies} plies"),
    }
}
