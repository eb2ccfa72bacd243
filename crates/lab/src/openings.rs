//! Balanced openings: random openings kept only when a fixed judge scores them close to
//! even. A random ply can give a man away (Antarctos, A9: the capture is compulsory) or a
//! piece, and a pair of games from such an opening is won by the same colour twice
//! whatever the engines: it says nothing about them and pulls a match's Elo towards 0.
//! Books of balanced openings are how engine testing (fishtest's books, the draughts
//! engines' ballots) keeps its games informative.
//!
//! The judge is the frozen engine of before issue 15 ([`engine::baseline`]) at
//! [`JUDGE_NODES`] nodes, one thread, a fresh table: the same seed gives the same book
//! however the engine under test changes.

use engine::baseline;
use engine::{EngineVariant, Limits};
use game::Variant;

use crate::games::random_opening;
use crate::seeds::splitmix64;

/// Nodes of the judge's search of an opening's last position (about 0.05 s).
pub const JUDGE_NODES: u64 = 100_000;

/// Openings drawn per pair before giving up on the bound: the closest one drawn is then
/// kept (so a match never stalls on a bound nothing meets).
pub const MAX_DRAWS: u32 = 200;

/// An opening chosen for one pair.
#[derive(Debug, Clone, PartialEq)]
pub struct Opening<V: Variant> {
    /// Its random plies.
    pub moves: Vec<V::Move>,
    /// The judge's score of the position after them, centi-units for the side to move
    /// (`None` when no bound was asked for, so no judge ran).
    pub score: Option<i32>,
    /// Openings drawn to find it (1: the first one drawn, the unbalanced one).
    pub draws: u32,
    /// Whether the judge scored it within the bound: `None` when no bound was asked for;
    /// `Some(false)` when no draw was (the closest is kept) or none left the game going
    /// (the first is kept, unjudged).
    pub balanced: Option<bool>,
}

impl<V: Variant> Opening<V> {
    /// The record's `Opening` tag for an opening of `plies` random plies under `bound`
    /// (`None` without a bound: the caller's plain text stands).
    pub fn tag(&self, plies: u32, bound: Option<i32>) -> Option<String> {
        let bound = bound?;
        let judged = |s: i32| {
            if engine::score::is_decisive(s) {
                let side = if s > 0 {
                    "a forced win"
                } else {
                    "a forced loss"
                };
                format!("the baseline finds {side} for the side to move")
            } else {
                format!("the baseline scores the side to move {s:+}")
            }
        };
        Some(match (self.balanced, self.score) {
            (Some(true), Some(s)) => format!("{plies} random plies, balanced: {}", judged(s)),
            (_, Some(s)) => format!(
                "{plies} random plies, not balanced: the closest of {} draws to ±{bound}, {}",
                self.draws,
                judged(s)
            ),
            (_, None) => format!(
                "{plies} random plies, not balanced: none of {} draws left the game going",
                self.draws
            ),
        })
    }
}

/// The judge's score of `pos`: the baseline's search at [`JUDGE_NODES`], centi-units for the
/// side to move.
pub fn judge<V: EngineVariant>(pos: &V::Position) -> i32 {
    let mut searcher = baseline::Searcher::<V>::new(2);
    let limits = Limits {
        nodes: Some(JUDGE_NODES),
        ..Limits::default()
    };
    searcher.search(pos, &limits, |_| {}).score
}

/// The opening of the pair with seed `seed`: `plies` random plies, the same ones as
/// [`random_opening`] draws with `splitmix64(seed)`. With `max_score`, openings are drawn
/// in turn (the `k`-th from `splitmix64(seed + k)`) until the judge's score of one lies
/// within `±max_score` and the game is not over; after [`MAX_DRAWS`] the closest is kept
/// (or, when every draw ended the game, the first, unjudged), marked not balanced.
pub fn choose_opening<V: EngineVariant>(
    start: &V::Position,
    plies: u32,
    seed: u64,
    max_score: Option<i32>,
) -> Opening<V> {
    choose_opening_judged::<V>(start, plies, seed, max_score, judge::<V>)
}

/// [`choose_opening`] with any judge (centi-units for the side to move of the position
/// after the opening).
pub fn choose_opening_judged<V: Variant>(
    start: &V::Position,
    plies: u32,
    seed: u64,
    max_score: Option<i32>,
    judge: impl Fn(&V::Position) -> i32,
) -> Opening<V> {
    let Some(bound) = max_score else {
        let (moves, _) = random_opening::<V>(start, plies, splitmix64(seed));
        return Opening {
            moves,
            score: None,
            draws: 1,
            balanced: None,
        };
    };
    let mut closest: Option<Opening<V>> = None;
    for k in 0..MAX_DRAWS {
        let (moves, pos) =
            random_opening::<V>(start, plies, splitmix64(seed.wrapping_add(u64::from(k))));
        if V::outcome(&pos).is_some() {
            continue;
        }
        let score = judge(&pos);
        let candidate = Opening {
            moves,
            score: Some(score),
            draws: k + 1,
            balanced: Some(score.abs() <= bound),
        };
        if score.abs() <= bound {
            return candidate;
        }
        if closest
            .as_ref()
            .is_none_or(|c| c.score.is_some_and(|s| s.abs() > score.abs()))
        {
            closest = Some(candidate);
        }
    }
    closest
        .map(|c| Opening {
            draws: MAX_DRAWS,
            ..c
        })
        .unwrap_or_else(|| {
            // Every opening drawn ended the game: play the first as it is.
            let (moves, _) = random_opening::<V>(start, plies, splitmix64(seed));
            Opening {
                moves,
                score: None,
                draws: MAX_DRAWS,
                balanced: Some(false),
            }
        })
}
