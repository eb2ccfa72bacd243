//! The played rounds of a Swiss or round-robin event: what [`crate::trf`] reads and writes,
//! what [`crate::swiss`] pairs from and what [`crate::tiebreak`] ranks.
//!
//! Points are counted in half points ([`Points`]) so that sums stay exact; the results are
//! the TRF-16 result codes (FIDE Technical Commission, TRF-16, player line field "result").

use std::fmt;

use serde::{Deserialize, Serialize};

/// A tournament pairing number (TPN): the player's 1-based starting rank, as in a TRF file.
pub type Tpn = u32;

/// A player's colour in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// White (TRF `w`).
    White,
    /// Black (TRF `b`).
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// Points in half points: `Points(3)` is 1.5 points. Displayed as TRF writes them (`1.5`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct Points(pub u32);

impl Points {
    /// The points as a number (1.5 for `Points(3)`).
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 2, if self.0 % 2 == 1 { 5 } else { 0 })
    }
}

/// One player's result in one round: the TRF-16 result codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// A played, rated win (`1`).
    Win,
    /// A played, rated draw (`=`).
    Draw,
    /// A played, rated loss (`0`).
    Loss,
    /// A played win that is not rated (`W`).
    UnratedWin,
    /// A played draw that is not rated (`D`).
    UnratedDraw,
    /// A played loss that is not rated (`L`).
    UnratedLoss,
    /// A win by forfeit: the opponent did not come (`+`).
    ForfeitWin,
    /// A loss by forfeit (`-`).
    ForfeitLoss,
    /// The pairing-allocated bye, one point (`U`).
    PairingBye,
    /// A full-point bye asked for (`F`).
    FullBye,
    /// A half-point bye asked for (`H`).
    HalfBye,
    /// A zero-point bye or an absence (`Z`, or a blank result).
    ZeroBye,
}

impl GameResult {
    /// The points this result scores, in half points (win 2, draw 1, loss 0).
    pub fn points(self) -> Points {
        match self {
            GameResult::Win
            | GameResult::UnratedWin
            | GameResult::ForfeitWin
            | GameResult::PairingBye
            | GameResult::FullBye => Points(2),
            GameResult::Draw | GameResult::UnratedDraw | GameResult::HalfBye => Points(1),
            GameResult::Loss
            | GameResult::UnratedLoss
            | GameResult::ForfeitLoss
            | GameResult::ZeroBye => Points(0),
        }
    }

    /// Whether a game was played over the board (not a forfeit, not a bye).
    pub fn is_played(self) -> bool {
        matches!(
            self,
            GameResult::Win
                | GameResult::Draw
                | GameResult::Loss
                | GameResult::UnratedWin
                | GameResult::UnratedDraw
                | GameResult::UnratedLoss
        )
    }

    /// The TRF-16 code.
    pub fn code(self) -> char {
        match self {
            GameResult::Win => '1',
            GameResult::Draw => '=',
            GameResult::Loss => '0',
            GameResult::UnratedWin => 'W',
            GameResult::UnratedDraw => 'D',
            GameResult::UnratedLoss => 'L',
            GameResult::ForfeitWin => '+',
            GameResult::ForfeitLoss => '-',
            GameResult::PairingBye => 'U',
            GameResult::FullBye => 'F',
            GameResult::HalfBye => 'H',
            GameResult::ZeroBye => 'Z',
        }
    }

    /// The result for a TRF-16 code (a blank is a zero-point bye); `None` for another letter.
    pub fn from_code(code: char) -> Option<GameResult> {
        Some(match code {
            '1' => GameResult::Win,
            '=' | '½' => GameResult::Draw,
            '0' => GameResult::Loss,
            'W' | 'w' => GameResult::UnratedWin,
            'D' | 'd' => GameResult::UnratedDraw,
            'L' | 'l' => GameResult::UnratedLoss,
            '+' => GameResult::ForfeitWin,
            '-' => GameResult::ForfeitLoss,
            'U' | 'u' => GameResult::PairingBye,
            'F' | 'f' => GameResult::FullBye,
            'H' | 'h' => GameResult::HalfBye,
            'Z' | 'z' | ' ' => GameResult::ZeroBye,
            _ => return None,
        })
    }

    /// The opponent's result in the same game (a bye's is itself).
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Loss => GameResult::Win,
            GameResult::UnratedWin => GameResult::UnratedLoss,
            GameResult::UnratedLoss => GameResult::UnratedWin,
            GameResult::ForfeitWin => GameResult::ForfeitLoss,
            GameResult::ForfeitLoss => GameResult::ForfeitWin,
            other => other,
        }
    }
}

/// One player's round: opponent and colour (both `None` for a bye), and the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoundEntry {
    /// The opponent's TPN; `None` for a bye or an absence (TRF `0000`).
    pub opponent: Option<Tpn>,
    /// The colour; `None` for a bye (TRF `-`).
    pub colour: Option<Colour>,
    /// The result.
    pub result: GameResult,
}

impl RoundEntry {
    /// A game against `opponent` with `colour`, ending in `result`.
    pub fn game(opponent: Tpn, colour: Colour, result: GameResult) -> RoundEntry {
        RoundEntry {
            opponent: Some(opponent),
            colour: Some(colour),
            result,
        }
    }

    /// A round without an opponent (a bye or an absence) with this result.
    pub fn bye(result: GameResult) -> RoundEntry {
        RoundEntry {
            opponent: None,
            colour: None,
            result,
        }
    }

    /// Whether the game was played over the board against an opponent.
    pub fn is_played_game(&self) -> bool {
        self.opponent.is_some() && self.result.is_played()
    }
}

/// One player of an event and their rounds so far (the TRF-16 `001` line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// The tournament pairing number (1-based).
    pub tpn: Tpn,
    /// The name (at most 33 characters in a TRF file).
    pub name: String,
    /// The rating (0: none).
    pub rating: u16,
    /// The points as the file states them (the writer writes [`Self::points`]).
    pub stated_points: Option<Points>,
    /// The rank as the file states it (0: none).
    pub rank: u32,
    /// The rounds played so far, round 1 first.
    pub rounds: Vec<RoundEntry>,
}

impl PlayerRecord {
    /// A player with no rounds yet.
    pub fn new(tpn: Tpn, name: impl Into<String>, rating: u16) -> PlayerRecord {
        PlayerRecord {
            tpn,
            name: name.into(),
            rating,
            stated_points: None,
            rank: 0,
            rounds: Vec::new(),
        }
    }

    /// The points of the first `rounds` rounds, in half points.
    pub fn points_after(&self, rounds: usize) -> Points {
        Points(
            self.rounds
                .iter()
                .take(rounds)
                .map(|e| e.result.points().0)
                .sum(),
        )
    }

    /// The points of every round, in half points.
    pub fn points(&self) -> Points {
        self.points_after(self.rounds.len())
    }
}

/// An event: its players and rounds (a TRF-16 file's content that this crate uses).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// The name (TRF line `012`).
    pub name: String,
    /// The number of rounds planned (TRF line `XXR`); 0 when unknown.
    pub rounds_planned: u32,
    /// The colour of TPN 1 in round 1 (TRF line `XXC white1` / `black1`), when stated.
    pub initial_colour: Option<Colour>,
    /// The players, in TPN order (`players[i].tpn == i + 1`).
    pub players: Vec<PlayerRecord>,
}

impl Tournament {
    /// The number of rounds with an entry for some player.
    pub fn rounds_played(&self) -> usize {
        self.players
            .iter()
            .map(|p| p.rounds.len())
            .max()
            .unwrap_or(0)
    }

    /// The player with TPN `tpn`.
    pub fn player(&self, tpn: Tpn) -> Option<&PlayerRecord> {
        self.players.iter().find(|p| p.tpn == tpn)
    }

    /// The same tournament cut after its first `rounds` rounds.
    pub fn truncated(&self, rounds: usize) -> Tournament {
        let mut t = self.clone();
        for p in &mut t.players {
            p.rounds.truncate(rounds);
            p.stated_points = None;
        }
        t
    }
}
