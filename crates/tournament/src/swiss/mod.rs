//! The FIDE Dutch system (FIDE handbook C.04.3, the rules in force from 2017 to June 2025):
//! the pairing of one Swiss round.
//!
//! The players are ranked by score, then TPN (A.2), and split into score groups. Each
//! pairing bracket (the moved-down players, MDPs, from the bracket above and the residents
//! of a score group) is paired by generating its candidates in the order of Article D
//! (transpositions of S2 inside exchanges between S1 and S2, or between S1 and the Limbo for
//! MDPs) and keeping the first of the best by the criteria of Article C:
//!
//! - absolute: C.1 no rematch (of a game played over the board), C.2 at most one bye (no
//!   pairing-allocated bye after a bye or a forfeit win), C.3 two non-topscorers with the same
//!   absolute colour preference do not meet;
//! - completion, C.4: the players left below can still all be paired (a maximum matching).
//!   As bbpPairings does, a bracket is paired without this test, which is made afterwards;
//!   when it fails, the bracket is the penultimate pairing bracket (A.9): it is paired again
//!   with the test, without C.7, and everyone below forms the collapsed last bracket;
//! - quality, in order: C.5 most pairs, C.6 least pairing score difference (PSD), C.7 most
//!   pairs and least PSD in the next bracket (before the last score group counting the
//!   players who may not have the bye), C.8/C.9 topscorers' colour limits, C.10 colour
//!   preferences, C.11 strong colour preferences, C.12-C.15 no repeated downfloat/upfloat of
//!   the last round and of two rounds before, C.16-C.19 the score differences of those
//!   repeated floats.
//!
//! The search stops at the first candidate that no other can beat (lower bounds of the
//! criteria prune the rest), or after 2 million steps in a bracket with the best found so
//! far: in brackets of 20 players and more it may then differ from the true best on a late
//! criterion. The budget counts per number of pairs tried, so a bracket may take several:
//! in random events of 100 and 200 players (test profile, shared 2-core machine) most rounds
//! took under 1 s, the slowest 4 s (100 players) and 10 s (200 players), at a load of 5.
//!
//! The bye goes to the player left unpaired in the last bracket: the lowest ranked eligible
//! one unless the criteria say otherwise. Colours follow E.1-E.5 ([`colour::allocate`]).
//!
//! Checked against bbpPairings (the FIDE-endorsed pairing engine) on random tournaments:
//! `tests/it/dutch.rs` and `tests/data/README.md` give the agreement (all 225 rounds of up to
//! 40 players, 38 of 41 of 50 to 100 players).

mod bracket;
pub mod colour;
pub mod matching;

use serde::{Deserialize, Serialize};

use crate::record::{Colour, GameResult, Tournament, Tpn};

/// A float in one round (A.4): a downfloat (paired with a lower score, or no game at all)
/// or an upfloat (paired with a higher score).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Float {
    /// Paired down, given a bye, or not paired.
    Down,
    /// Paired up.
    Up,
}

/// What the pairing knows of one player: the state after the rounds played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPlayer {
    /// The tournament pairing number.
    pub tpn: Tpn,
    /// The score, in half points.
    pub score: u32,
    /// The opponents of the games played over the board (C.1).
    pub opponents: Vec<Tpn>,
    /// The colour of each round (`None`: no game played over the board), oldest first.
    pub colours: Vec<Option<Colour>>,
    /// The float of each round, oldest first.
    pub floats: Vec<Option<Float>>,
    /// Whether the player already had a pairing-allocated bye, a full-point bye or a forfeit
    /// win (C.2): no pairing-allocated bye again.
    pub had_bye: bool,
    /// Whether the player took part in the pairing of an earlier round (a game, forfeited or
    /// not, or the pairing-allocated bye).
    pub was_paired: bool,
    /// The pairing number whose parity decides E.5: the rank in TPN order among the players
    /// who take part in this round's pairing or took part in an earlier one (as bbpPairings
    /// counts it; the TPN itself when nobody is away). Set by [`players`] for everybody
    /// present and by [`pair_round_with`] for the absent players left out.
    pub pairing_number: u32,
}

impl SwissPlayer {
    /// The colours of the games played, oldest first.
    pub fn played_colours(&self) -> Vec<Colour> {
        self.colours.iter().flatten().copied().collect()
    }
}

/// One round's pairing: games as (white, black) TPNs, board order (the higher-ranked
/// player's rank), and the pairing-allocated bye.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RoundPairing {
    /// The games, (white, black).
    pub games: Vec<(Tpn, Tpn)>,
    /// Who gets the pairing-allocated bye, when the count is odd.
    pub bye: Option<Tpn>,
}

/// Why a round cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwissError {
    /// No pairing satisfies the absolute criteria (C.1-C.3) for these players.
    #[error("no pairing of the {0} players meets the absolute criteria (no rematch, one bye)")]
    NoPairing(usize),
    /// The initial colour is unknown and cannot be inferred (no XXC and no game played).
    #[error("the initial colour is needed: say it (XXC) or pair round 1 with it")]
    NoInitialColour,
}

/// The state of every player of `t` after its rounds (see [`SwissPlayer`]).
pub fn players(t: &Tournament) -> Vec<SwissPlayer> {
    let rounds = t.rounds_played();
    // Scores before each round, for the floats.
    let before = |tpn: Tpn, r: usize| t.player(tpn).map_or(0, |p| p.points_after(r).0);
    t.players
        .iter()
        .map(|p| {
            let mut colours = Vec::with_capacity(rounds);
            let mut floats = Vec::with_capacity(rounds);
            let mut opponents = Vec::new();
            let mut had_bye = false;
            let mut was_paired = false;
            for r in 0..rounds {
                let entry = p.rounds.get(r);
                match entry {
                    Some(e) if e.is_played_game() => {
                        let o = e.opponent.unwrap_or(0);
                        opponents.push(o);
                        colours.push(e.colour);
                        let (mine, theirs) = (before(p.tpn, r), before(o, r));
                        floats.push(match mine.cmp(&theirs) {
                            std::cmp::Ordering::Greater => Some(Float::Down),
                            std::cmp::Ordering::Less => Some(Float::Up),
                            std::cmp::Ordering::Equal => None,
                        });
                    }
                    _ => {
                        colours.push(None);
                        floats.push(Some(Float::Down));
                    }
                }
                if let Some(e) = entry
                    && (e.opponent.is_some() || e.result == GameResult::PairingBye)
                {
                    was_paired = true;
                }
                if let Some(e) = entry
                    && matches!(
                        e.result,
                        GameResult::PairingBye | GameResult::FullBye | GameResult::ForfeitWin
                    )
                {
                    had_bye = true;
                }
            }
            SwissPlayer {
                tpn: p.tpn,
                score: p.points().0,
                opponents,
                colours,
                floats,
                had_bye,
                was_paired,
                pairing_number: p.tpn,
            }
        })
        .collect()
}

/// The initial colour of `t`: stated (XXC), or the round-1 colour of the highest TPN that
/// played round 1, reversed for an even TPN.
pub fn initial_colour(t: &Tournament) -> Option<Colour> {
    if let Some(c) = t.initial_colour {
        return Some(c);
    }
    t.players.iter().find_map(|p| {
        let c = p.rounds.first()?.colour?;
        Some(if p.tpn % 2 == 1 { c } else { c.opposite() })
    })
}

/// Pairs the next round of `t` (round `t.rounds_played() + 1`) for every player but
/// `absent`, with the rounds planned in `t.rounds_planned` (its last round has topscorers).
///
/// Errors: [`SwissError::NoInitialColour`] for round 1 without an initial colour (use
/// [`pair_round_with`]); [`SwissError::NoPairing`] when the absolute criteria cannot be met.
pub fn pair_round(t: &Tournament, absent: &[Tpn]) -> Result<RoundPairing, SwissError> {
    let initial = initial_colour(t).ok_or(SwissError::NoInitialColour)?;
    pair_round_with(t, absent, initial)
}

/// [`pair_round`] with the initial colour given.
pub fn pair_round_with(
    t: &Tournament,
    absent: &[Tpn],
    initial: Colour,
) -> Result<RoundPairing, SwissError> {
    let round = t.rounds_played() as u32 + 1;
    let mut everyone = players(t);
    everyone.sort_by_key(|p| p.tpn);
    let mut number = 0;
    for p in &mut everyone {
        if !absent.contains(&p.tpn) || p.was_paired {
            number += 1;
        }
        p.pairing_number = number;
    }
    let present: Vec<SwissPlayer> = everyone
        .into_iter()
        .filter(|p| !absent.contains(&p.tpn))
        .collect();
    let last_round = t.rounds_planned > 0 && round >= t.rounds_planned;
    pair(&present, round, last_round, initial)
}

/// Pairs `players` for round `round` (1-based). `last_round`: the round is the event's last
/// (A.7: topscorers, with more than half the points possible, exist only then).
///
/// Errors: [`SwissError::NoPairing`] when the absolute criteria cannot be met.
pub fn pair(
    players: &[SwissPlayer],
    round: u32,
    last_round: bool,
    initial: Colour,
) -> Result<RoundPairing, SwissError> {
    bracket::pair_all(players, round, last_round, initial)
}
