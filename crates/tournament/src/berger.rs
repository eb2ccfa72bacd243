//! Round-robin schedules from the FIDE Berger tables (FIDE handbook C.05, Annex 1).
//!
//! Players are 0-based indexes: index `i` is Berger number `i + 1` in the published tables.
//! For an even count `n` the table has `n - 1` rounds of `n / 2` games; for an odd count the
//! table of `n + 1` is used and the games against the missing last number are byes
//! ([`Schedule::byes`]). A double round robin plays the table twice, the second cycle with
//! the colours swapped, its rounds numbered on after the first cycle's; as the handbook
//! advises, the first cycle plays the table's last two rounds in the other order, so that
//! nobody has the same colour three times in a row where the cycles meet.
//!
//! The tables follow the handbook's rule: in round `r` (1-based) of the table for `n` (even),
//! Berger number `n` is fixed; the others turn by `n / 2` places a round (modulo `n - 1`),
//! and `n` has Black in odd rounds and White in even rounds.

use serde::{Deserialize, Serialize};

/// The smallest player count with a Berger table here.
pub const MIN_PLAYERS: usize = 3;
/// The largest player count with a Berger table here (the handbook prints up to 16; the rule
/// gives any size, and issue 40 asks for 20).
pub const MAX_PLAYERS: usize = 20;

/// One game of a round robin: its round (1-based) and the players' indexes (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairing {
    /// The round, 1-based, counted over both cycles of a double round robin.
    pub round: u32,
    /// The index of the player with White.
    pub white: usize,
    /// The index of the player with Black.
    pub black: usize,
}

/// A bye in a round robin of an odd count: the player who sits the round out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bye {
    /// The round, 1-based.
    pub round: u32,
    /// The index of the player without a game.
    pub player: usize,
}

/// Single or double round robin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cycles {
    /// Every player meets every other once.
    Single,
    /// Twice: the second cycle repeats the first with the colours swapped.
    Double,
}

/// Why no schedule can be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BergerError {
    /// The player count is outside `MIN_PLAYERS..=MAX_PLAYERS`.
    #[error("a round robin here has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {0}")]
    PlayerCount(usize),
}

/// A whole round-robin schedule: every game and every bye.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    /// The number of players.
    pub players: usize,
    /// The number of rounds: `n - 1` per cycle for even `n`, `n` per cycle for odd `n`.
    pub rounds: u32,
    /// The games, by round, then in the order of the published table's row.
    pub pairings: Vec<Pairing>,
    /// The byes (empty for an even count), one per round for an odd count.
    pub byes: Vec<Bye>,
}

impl Schedule {
    /// The games of one round (1-based), in the table's order.
    pub fn round(&self, round: u32) -> impl Iterator<Item = &Pairing> {
        self.pairings.iter().filter(move |p| p.round == round)
    }
}

/// The Berger schedule for `players` (3 to 20), single or double.
///
/// Errors: [`BergerError::PlayerCount`] outside 3..=20.
pub fn schedule(players: usize, cycles: Cycles) -> Result<Schedule, BergerError> {
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
        return Err(BergerError::PlayerCount(players));
    }
    let table = players + players % 2;
    let per_cycle = (table - 1) as u32;
    let mut pairings = Vec::new();
    let mut byes = Vec::new();
    let cycle_count = match cycles {
        Cycles::Single => 1,
        Cycles::Double => 2,
    };
    for cycle in 0..cycle_count {
        for r in 1..=per_cycle {
            let round = cycle * per_cycle + r;
            // C.05: in a double round robin the first cycle's last two rounds are exchanged,
            // so that no one has the same colour three times in a row across the cycles.
            let table_r = if cycles == Cycles::Double && cycle == 0 && per_cycle >= 3 {
                match per_cycle - r {
                    0 => r - 1,
                    1 => r + 1,
                    _ => r,
                }
            } else {
                r
            };
            for (white, black) in table_round(table, table_r) {
                let (white, black) = if cycle == 1 {
                    (black, white)
                } else {
                    (white, black)
                };
                if white >= players {
                    byes.push(Bye {
                        round,
                        player: black,
                    });
                } else if black >= players {
                    byes.push(Bye {
                        round,
                        player: white,
                    });
                } else {
                    pairings.push(Pairing {
                        round,
                        white,
                        black,
                    });
                }
            }
        }
    }
    Ok(Schedule {
        players,
        rounds: per_cycle * cycle_count,
        pairings,
        byes,
    })
}

/// Round `round` (1-based, at most `n - 1`) of the Berger table for an even `n`, as
/// (white, black) 0-based indexes in the published row's order: the board of number `n`
/// first, then the boards whose White numbers follow its partner's, going up and wrapping.
fn table_round(n: usize, round: u32) -> Vec<(usize, usize)> {
    let m = n - 1;
    let shift = ((round as usize - 1) * (n / 2)) % m;
    // Berger numbers 1..n-1 turn; `at(k)` is the number sitting at place k (1-based) this round.
    let at = |k: usize| (k - 1 + shift) % m + 1;
    let partner = at(1);
    let mut boards = Vec::with_capacity(n / 2);
    boards.push(if round % 2 == 1 {
        (partner, n)
    } else {
        (n, partner)
    });
    for i in 1..n / 2 {
        boards.push((at(1 + i), at(n - i)));
    }
    boards.into_iter().map(|(w, b)| (w - 1, b - 1)).collect()
}
