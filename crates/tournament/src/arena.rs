//! Arena tournaments as lichess runs them (lichess.org/tournament/help, "Arena tournament"):
//! scoring with streaks and berserk, and the pairing of the players waiting for a game.
//!
//! Scoring, per player, game by game in the order they ended:
//! - a win scores 2 points, a draw 1, a loss 0;
//! - after 2 wins in a row the player is *on fire*: each next game's points are doubled
//!   (a win 4, a draw 2) until a game that is not a win, which ends the streak;
//! - berserk (the player halved their own clock) adds 1 point to a win only, never doubled,
//!   and only when the player made at least [`ScoringRules::berserk_min_moves`] moves (lichess: 7);
//! - with [`ScoringRules::early_draw_before`] set (Ice Age Chess: 10), a draw before that move
//!   scores 0 and ends a streak.
//!
//! Pairing: of the players waiting and not paused, the best placed (score, then rating) is
//! paired first, with the waiting player closest to them in score and then in rating who was
//! not their last opponent; a rematch of the last game is made only when no pairing of the
//! waiting players avoids it. White goes to the player who had fewer whites.

use serde::{Deserialize, Serialize};

/// A finished game from one player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The player won.
    Win,
    /// A draw.
    Draw,
    /// The player lost.
    Loss,
}

/// One finished game of an arena player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ArenaGame {
    /// The result for this player.
    pub outcome: Outcome,
    /// Whether this player went berserk (halved their clock).
    pub berserk: bool,
    /// The moves this player made in the game (full moves, counted as in the move list).
    pub moves: u32,
}

/// The scoring parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ScoringRules {
    /// A berserk win scores its extra point only when the player made at least this many
    /// moves (lichess: 7).
    pub berserk_min_moves: u32,
    /// When set, a draw in a game of fewer moves than this scores 0 (Ice Age Chess: 10).
    pub early_draw_before: Option<u32>,
}

impl ScoringRules {
    /// lichess's rules: berserk counts from 7 moves; early draws score as draws.
    pub const LICHESS: ScoringRules = ScoringRules {
        berserk_min_moves: 7,
        early_draw_before: None,
    };
}

impl Default for ScoringRules {
    fn default() -> Self {
        ScoringRules::LICHESS
    }
}

/// One game as scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ScoredGame {
    /// The points this game gave.
    pub points: u32,
    /// Whether the player was on fire when it was played (its points doubled).
    pub on_fire: bool,
    /// Whether berserk added its point.
    pub berserk_point: bool,
}

/// A player's scoring sheet.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Sheet {
    /// Each game as scored, in order.
    pub games: Vec<ScoredGame>,
    /// The sum of the games' points.
    pub total: u32,
    /// Whether the player is on fire for their next game.
    pub on_fire: bool,
}

/// Scores a player's games, in the order they ended.
pub fn score(games: &[ArenaGame], rules: &ScoringRules) -> Sheet {
    let mut sheet = Sheet::default();
    let mut wins_in_a_row = 0u32;
    for game in games {
        let on_fire = wins_in_a_row >= 2;
        let early_draw = game.outcome == Outcome::Draw
            && rules.early_draw_before.is_some_and(|m| game.moves < m);
        let base = match game.outcome {
            Outcome::Win => 2,
            Outcome::Draw if early_draw => 0,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        };
        let berserk_point =
            game.outcome == Outcome::Win && game.berserk && game.moves >= rules.berserk_min_moves;
        let points = base * if on_fire { 2 } else { 1 } + u32::from(berserk_point);
        if game.outcome == Outcome::Win {
            wins_in_a_row += 1;
        } else {
            wins_in_a_row = 0;
        }
        sheet.total += points;
        sheet.games.push(ScoredGame {
            points,
            on_fire,
            berserk_point,
        });
    }
    sheet.on_fire = wins_in_a_row >= 2;
    sheet
}

/// A player waiting for a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Waiting<Id> {
    /// Who (the site's account id, or any key).
    pub id: Id,
    /// Their arena score so far.
    pub score: u32,
    /// Their rating.
    pub rating: u16,
    /// Their last opponent in this arena, if any.
    pub last_opponent: Option<Id>,
    /// Paused players are not paired.
    pub paused: bool,
    /// The games they had White in this arena.
    pub whites: u32,
    /// The games they had Black in this arena.
    pub blacks: u32,
}

/// A new arena game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ArenaPairing<Id> {
    /// Who has White.
    pub white: Id,
    /// Who has Black.
    pub black: Id,
}

/// Pairs the waiting players (see the module's rules). With an odd count the player left
/// over (the lowest placed that the pairing does not need) keeps waiting.
pub fn pair<Id: Copy + Eq>(waiting: &[Waiting<Id>]) -> Vec<ArenaPairing<Id>> {
    let mut players: Vec<&Waiting<Id>> = waiting.iter().filter(|w| !w.paused).collect();
    // Best placed first: score, then rating (stable: the caller's order breaks ties).
    players.sort_by(|a, b| b.score.cmp(&a.score).then(b.rating.cmp(&a.rating)));
    let n = players.len();
    let rematch = |a: usize, b: usize| {
        players[a].last_opponent == Some(players[b].id)
            || players[b].last_opponent == Some(players[a].id)
    };
    let mut partner = vec![usize::MAX; n];
    // At most one player sits out when the count is odd.
    let sit_outs = n % 2;
    let found = search(&players, &mut partner, sit_outs, &rematch, 0)
        || search(&players, &mut partner, sit_outs, &|_, _| false, 0);
    debug_assert!(found);
    let mut pairings = Vec::with_capacity(n / 2);
    for a in 0..n {
        let b = partner[a];
        if b == usize::MAX || b == SITS_OUT || b < a {
            continue;
        }
        let (pa, pb) = (players[a], players[b]);
        let a_white = pa.whites < pb.whites || (pa.whites == pb.whites && pa.blacks >= pb.blacks);
        let (white, black) = if a_white { (pa, pb) } else { (pb, pa) };
        pairings.push(ArenaPairing {
            white: white.id,
            black: black.id,
        });
    }
    pairings
}

const SITS_OUT: usize = usize::MAX - 1;

/// Depth-first: the first unpaired player takes the closest allowed partner, then the next
/// closest on backtracking. `sit_outs` is how many may still be left without a game.
fn search<Id: Copy + Eq>(
    players: &[&Waiting<Id>],
    partner: &mut [usize],
    sit_outs: usize,
    forbidden: &dyn Fn(usize, usize) -> bool,
    from: usize,
) -> bool {
    let n = players.len();
    let Some(a) = (from..n).find(|&i| partner[i] == usize::MAX) else {
        return true;
    };
    let mut candidates: Vec<usize> = (a + 1..n)
        .filter(|&b| partner[b] == usize::MAX && !forbidden(a, b))
        .collect();
    let distance = |b: usize| {
        (
            players[a].score.abs_diff(players[b].score),
            players[a].rating.abs_diff(players[b].rating),
            b,
        )
    };
    candidates.sort_by_key(|&b| distance(b));
    for b in candidates {
        partner[a] = b;
        partner[b] = a;
        if search(players, partner, sit_outs, forbidden, a + 1) {
            return true;
        }
        partner[a] = usize::MAX;
        partner[b] = usize::MAX;
    }
    if sit_outs > 0 {
        partner[a] = SITS_OUT;
        if search(players, partner, sit_outs - 1, forbidden, a + 1) {
            return true;
        }
        partner[a] = usize::MAX;
    }
    false
}
